//! Lines of every real command of every dialect, for the game the engine plays (and,
//! now and then, for another game): UCI (each `UCI_Variant`, the Cyclone `fen …` lines),
//! UCCI, CECP and the terminal commands. Most are well formed; values out of range and
//! words of the wrong dialect are part of the grammar, the rest is [`super::mutate`]'s.

use super::games::{GameInfo, FOREIGN_FENS, FOREIGN_MOVES};
use super::model::Model;
use super::Dialect;
use crate::rng::Rng;

/// Generates lines for the model's current state.
pub struct Grammar<'a> {
    /// The games (and their samples).
    pub games: &'a [GameInfo],
}

fn pick<T: Clone>(rng: &mut Rng, xs: &[T]) -> T {
    xs[rng.below(xs.len())].clone()
}

fn pick_ref<'b, T>(rng: &mut Rng, xs: &'b [T]) -> &'b T {
    &xs[rng.below(xs.len())]
}

/// Numbers that break naive parsers.
pub const HUGE_NUMBERS: &[&str] = &[
    "0",
    "-1",
    "-0",
    "4294967295",
    "4294967296",
    "9223372036854775807",
    "9223372036854775808",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "99999999999999999999999999999999999999",
    "1e308",
    "1e999",
    "-1e308",
    "NaN",
    "inf",
    "-inf",
    "0.5",
    "1.7976931348623157e308",
    "0x10",
    "+5",
    "1_000",
    "٣",
];

/// A small number, or now and then a huge or malformed one.
fn num(rng: &mut Rng, lo: u64, hi: u64) -> String {
    if rng.chance(1, 25) {
        pick(rng, HUGE_NUMBERS).to_string()
    } else {
        (lo + rng.below((hi - lo + 1) as usize) as u64).to_string()
    }
}

fn boolean(rng: &mut Rng) -> &'static str {
    pick(
        rng,
        &[
            "true", "false", "on", "off", "1", "0", "yes", "no", "maybe", "",
        ],
    )
}

impl<'a> Grammar<'a> {
    fn game<'m>(&self, model: &'m Model) -> &'a GameInfo {
        &self.games[model.game.min(self.games.len() - 1)]
    }

    /// A game other than the current one, if there is any.
    fn other_game(&self, rng: &mut Rng, model: &Model) -> Option<usize> {
        if self.games.len() < 2 {
            return None;
        }
        let i = (model.game + 1 + rng.below(self.games.len() - 1)) % self.games.len();
        Some(i)
    }

    /// A FEN: mostly of the current game, sometimes another game's or none at all.
    fn fen(&self, rng: &mut Rng, model: &Model) -> String {
        match rng.below(20) {
            0 | 1 => match self.other_game(rng, model) {
                Some(g) => self.sample_fen(rng, g),
                None => pick(rng, FOREIGN_FENS).to_string(),
            },
            2 => pick(rng, FOREIGN_FENS).to_string(),
            _ => self.sample_fen(rng, model.game),
        }
    }

    fn sample_fen(&self, rng: &mut Rng, game: usize) -> String {
        let g = &self.games[game];
        if g.samples.is_empty() {
            return pick(rng, FOREIGN_FENS).to_string();
        }
        let s = pick_ref(rng, &g.samples);
        pick(rng, &s.fens)
    }

    /// A move: mostly legal in the position last set up, sometimes legal elsewhere in
    /// the game, another game's, or no move at all.
    fn a_move(&self, rng: &mut Rng, model: &Model) -> String {
        let r = rng.below(20);
        if r < 13 {
            if let Some((g, s, ply)) = model.pos {
                let legal = &self.games[g].samples[s].legal[ply];
                if !legal.is_empty() {
                    return pick(rng, legal);
                }
            }
        }
        if r < 17 {
            let g = self.game(model);
            if !g.samples.is_empty() {
                let s = pick_ref(rng, &g.samples);
                let legal = pick_ref(rng, &s.legal);
                if !legal.is_empty() {
                    return pick(rng, legal);
                }
            }
        }
        if r < 19 {
            if let Some(o) = self.other_game(rng, model) {
                let g = &self.games[o];
                if let Some(s) = g.samples.first() {
                    if let Some(m) = s.moves.first() {
                        return m.clone();
                    }
                }
            }
        }
        pick(rng, FOREIGN_MOVES).to_string()
    }

    /// `startpos [moves …]` or `fen F [moves …]` from a sample game (the model notes the
    /// position), sometimes with a foreign FEN or move.
    pub fn position_args(&self, rng: &mut Rng, model: &mut Model) -> String {
        let gi = model.game;
        let g = self.game(model);
        if g.samples.is_empty() || rng.chance(1, 12) {
            model.pos = None;
            return format!("fen {}", self.fen(rng, model));
        }
        let si = rng.below(g.samples.len());
        let s = &g.samples[si];
        let end = rng.below(s.moves.len() + 1);
        let from = if rng.chance(1, 2) {
            0
        } else {
            rng.below(end + 1)
        };
        let mut text = if from == 0 && rng.chance(2, 3) {
            "startpos".to_string()
        } else {
            format!("fen {}", s.fens[from])
        };
        let moves = &s.moves[from..end];
        if !moves.is_empty() || rng.chance(1, 5) {
            text.push_str(" moves");
            for m in moves {
                text.push(' ');
                text.push_str(m);
            }
        }
        model.pos = Some((gi, si, end));
        if rng.chance(1, 15) {
            // One move too many: illegal or another game's.
            text.push(' ');
            text.push_str(pick(rng, FOREIGN_MOVES));
            model.pos = None;
        }
        text
    }

    /// `go` for UCI (and the terminal): mostly a bounded search (a few milliseconds of
    /// work: a run shares two cores with everything else), one time in ten one that runs
    /// until `stop` (infinite, ponder, no limit, a 10-minute clock), now and then
    /// nonsense.
    fn uci_go(&self, rng: &mut Rng, model: &Model) -> String {
        let g = self.game(model);
        let mut parts = vec!["go".to_string()];
        let clocks = |rng: &mut Rng, parts: &mut Vec<String>, long: bool| {
            for (t, i) in &g.clock_keys {
                let time = if long {
                    "600000".to_string()
                } else {
                    num(rng, 0, 1000)
                };
                parts.push(format!("{t} {time} {i} {}", num(rng, 0, 30)));
            }
            if rng.chance(1, 3) {
                parts.push(format!("movestogo {}", num(rng, 1, 40)));
            }
        };
        if rng.chance(1, 10) {
            match rng.below(5) {
                0 => parts.push("infinite".into()),
                1 => {
                    parts.push("ponder".into());
                    let long = rng.chance(1, 2);
                    clocks(rng, &mut parts, long);
                }
                2 => clocks(rng, &mut parts, true),
                3 => parts.push(pick(rng, &["", "banana", "draw", "wtime", "depth"]).to_string()),
                _ => parts.push(format!("searchmoves {}", self.a_move(rng, model))),
            }
            return parts.join(" ");
        }
        let limits = 1 + usize::from(rng.chance(1, 4));
        for _ in 0..limits {
            match rng.below(12) {
                0..=3 => parts.push(format!("depth {}", num(rng, 1, 4))),
                4 => parts.push(format!("nodes {}", num(rng, 1, 5_000))),
                5..=7 => parts.push(format!("movetime {}", num(rng, 1, 40))),
                8 => clocks(rng, &mut parts, false),
                9 => {
                    parts.push("searchmoves".into());
                    for _ in 0..1 + rng.below(4) {
                        parts.push(self.a_move(rng, model));
                    }
                    parts.push(format!("depth {}", 1 + rng.below(3)));
                }
                10 => parts.push(format!("mate {}", num(rng, 1, 2))),
                _ if rng.chance(1, 4) => parts.push(format!("perft {}", 1 + rng.below(2))),
                _ => parts.push(format!("depth {} time 100", 1 + rng.below(3))),
            }
        }
        parts.join(" ")
    }

    /// `go` for UCCI: `[ponder|draw] depth D | nodes N | time T … | infinite`, mostly
    /// bounded (see [`Self::uci_go`]).
    fn ucci_go(&self, rng: &mut Rng, model: &Model) -> String {
        let mut s = "go".to_string();
        let unbounded = rng.chance(1, 10);
        match rng.below(8) {
            0 if unbounded => s.push_str(" ponder"),
            1 => s.push_str(" draw"),
            _ => {}
        }
        if unbounded && rng.chance(1, 2) {
            s.push_str(pick(
                rng,
                &[" infinite", " time 600000", "", " searchmoves h2e2"],
            ));
            return s;
        }
        match rng.below(10) {
            0..=2 => s.push_str(&format!(" depth {}", num(rng, 0, 4))),
            3 => s.push_str(&format!(" nodes {}", num(rng, 1, 5_000))),
            4 => s.push_str(&format!(" depth 2 searchmoves {}", self.a_move(rng, model))),
            _ => {
                let t = if unbounded {
                    "600000".to_string()
                } else {
                    num(rng, 0, 1000)
                };
                s.push_str(&format!(" time {t}"));
                match rng.below(3) {
                    0 => s.push_str(&format!(" movestogo {}", num(rng, 1, 40))),
                    1 => s.push_str(&format!(" increment {}", num(rng, 0, 30))),
                    _ => {}
                }
                if rng.chance(1, 2) {
                    s.push_str(&format!(" opptime {}", num(rng, 0, 3000)));
                    match rng.below(3) {
                        0 => s.push_str(&format!(" oppmovestogo {}", num(rng, 1, 40))),
                        1 => s.push_str(&format!(" oppincrement {}", num(rng, 0, 100))),
                        _ => {}
                    }
                }
            }
        }
        s
    }

    /// A UCI option and a value for it (mostly sensible).
    fn uci_setoption(&self, rng: &mut Rng) -> String {
        let (name, value): (&str, String) = match rng.below(20) {
            0 | 1 => ("Hash", pick_hash(rng)),
            2 | 3 => ("Threads", pick_threads(rng)),
            4 => ("Ponder", boolean(rng).to_string()),
            5 | 6 => ("MultiPV", num(rng, 1, 4)),
            7 if rng.chance(1, 3) => ("Clear Hash", String::new()),
            8 => ("Move Overhead", num(rng, 0, 100)),
            9 | 10 => ("MaxMoveTime", num(rng, 100, 2000)),
            11 => ("Contempt", num(rng, 0, 200)),
            12 => ("RepetitionJudge", boolean(rng).to_string()),
            13 => (
                "Rules",
                pick(rng, &["asian", "alphachess", "chinese", "", "ASIAN"]).to_string(),
            ),
            14 => ("UCI_Variant", self.variant_name(rng)),
            15 => (
                pick(
                    rng,
                    &["UCI_LimitStrength", "UCI_ShowWDL", "OwnBook", "BookVariety"],
                ),
                pick(rng, &["true", "false", "best", "weighted", "wide", "x"]).to_string(),
            ),
            16 => ("batch", "false".to_string()),
            17 => (
                pick(
                    rng,
                    &[
                        "Skill Level",
                        "UCI_Elo",
                        "EvalFile",
                        "",
                        "Hash Hash",
                        "name",
                    ],
                ),
                num(rng, 0, 3000),
            ),
            18 => ("usemillisec", boolean(rng).to_string()),
            _ if rng.chance(1, 4) => ("MultiPV", num(rng, 1, 70)),
            _ => ("Move Overhead", num(rng, 0, 50)),
        };
        match rng.below(12) {
            0 => format!("setoption name {name}"),
            1 => format!("setoption {name} {value}"),
            _ => format!("setoption name {name} value {value}"),
        }
    }

    /// A game name: one jiang plays, sometimes another case or none.
    fn variant_name(&self, rng: &mut Rng) -> String {
        match rng.below(10) {
            0 => pick(rng, &["chess", "XIANGQI", "", "shogi", "threechess2"]).to_string(),
            _ => pick_ref(rng, self.games).name.to_string(),
        }
    }

    /// A UCCI `setoption NAME VALUE`.
    fn ucci_setoption(&self, rng: &mut Rng) -> String {
        let (name, value) = match rng.below(18) {
            0 => ("usemillisec", boolean(rng).to_string()),
            1 | 2 => ("hashsize", pick_hash(rng)),
            3 => ("threads", pick_threads(rng)),
            4 => ("ponder", boolean(rng).to_string()),
            5 => ("newgame", String::new()),
            6 => (
                pick(
                    rng,
                    &["idle", "pruning", "knowledge", "randomness", "style"],
                ),
                pick(rng, &["none", "small", "medium", "large", "huge", "risky"]).to_string(),
            ),
            7 => ("usebook", boolean(rng).to_string()),
            8 => ("bookfiles", "BOOK.DAT;other.obk".to_string()),
            9 | 10 => ("maxmovetime", num(rng, 100, 2000)),
            11 => ("contempt", num(rng, 0, 200)),
            12 => ("repetitionjudge", boolean(rng).to_string()),
            13 => (
                "rules",
                pick(rng, &["asian", "alphachess", "sky"]).to_string(),
            ),
            14 => ("debug", boolean(rng).to_string()),
            15 => ("promotion", boolean(rng).to_string()),
            16 => ("batch", "off".to_string()),
            _ => ("Hash", pick_hash(rng)),
        };
        if value.is_empty() {
            format!("setoption {name}")
        } else if rng.chance(1, 10) {
            format!("setoption name {name} value {value}")
        } else {
            format!("setoption {name} {value}")
        }
    }

    /// A terminal command (free-text answers).
    fn terminal(&self, rng: &mut Rng, model: &Model) -> String {
        match rng.below(14) {
            0 | 1 => "d".into(),
            2 => "display".into(),
            3 | 4 => "moves".into(),
            5 | 6 => "eval".into(),
            7 => "result".into(),
            8 => "help".into(),
            9 => format!("perft {}", 1 + rng.below(2)),
            10 => format!("perft {} {}", 1 + rng.below(2), self.fen(rng, model)),
            11 => "variant".into(),
            12 if rng.chance(1, 20) => "bench 1".into(),
            _ => format!("variant {}", self.variant_name(rng)),
        }
    }

    /// A line in the model's dialect (the model follows it later, once it is final).
    pub fn line(&self, rng: &mut Rng, model: &mut Model) -> String {
        let r = rng.below(100);
        // Every dialect: now and then a handshake, a terminal command, another
        // dialect's command, or words of nothing.
        match r {
            0 => {
                return pick(rng, &["uci", "ucci", "xboard", "uci", "xboard"]).to_string();
            }
            1 | 2 => return self.terminal(rng, model),
            3 | 4 => return self.foreign_command(rng, model),
            5 => {
                return pick(rng, &["", " ", "\t", "hello", "isready now", "go go go"]).to_string()
            }
            _ => {}
        }
        match model.dialect {
            Dialect::Uci => self.uci_line(rng, model),
            Dialect::Terminal => {
                if rng.chance(1, 4) {
                    self.terminal(rng, model)
                } else {
                    self.uci_line(rng, model)
                }
            }
            Dialect::Ucci => self.ucci_line(rng, model),
            Dialect::Cecp => self.cecp_line(rng, model),
        }
    }

    /// A command of a dialect the engine does not speak right now.
    fn foreign_command(&self, rng: &mut Rng, model: &mut Model) -> String {
        match rng.below(6) {
            0 => format!("usermove {}", self.a_move(rng, model)),
            1 => pick(
                rng,
                &[
                    "new",
                    "force",
                    "ping 7",
                    "level 0 1 0",
                    "protover 2",
                    "st 1",
                    "undo",
                    "remove",
                    "analyze",
                    ".",
                ],
            )
            .to_string(),
            2 => format!("banmoves {}", self.a_move(rng, model)),
            3 => pick(
                rng,
                &[
                    "probe",
                    "ponderhit draw",
                    "ucinewgame",
                    "uccinewgame",
                    "ponderhit",
                ],
            )
            .to_string(),
            4 => format!("position {}", self.position_args(rng, model)),
            _ => self.a_move(rng, model),
        }
    }

    fn uci_line(&self, rng: &mut Rng, model: &mut Model) -> String {
        // Searches and new games cost the engine milliseconds each on a loaded machine,
        // the other commands microseconds: the weights keep a run short.
        match rng.below(100) {
            0..=24 => format!("position {}", self.position_args(rng, model)),
            25..=28 => self.position_args(rng, model), // Cyclone: no `position`
            29..=40 => self.uci_go(rng, model),
            41..=50 => "isready".into(),
            51..=58 => "stop".into(),
            59 | 60 => "ponderhit".into(),
            61..=74 => self.uci_setoption(rng),
            75 => "ucinewgame".into(),
            76 => "uci".into(),
            77..=80 => format!("probe {}", self.position_args(rng, model)),
            81 => "probe".into(),
            82..=84 => format!("banmoves {}", self.a_move(rng, model)),
            85 => self.ucci_go(rng, model),
            86..=89 => self.a_move(rng, model),
            90 if rng.chance(1, 10) => pick(rng, &["quit", "exit"]).to_string(),
            _ => format!("position {}", self.position_args(rng, model)),
        }
    }

    fn ucci_line(&self, rng: &mut Rng, model: &mut Model) -> String {
        match rng.below(100) {
            0..=25 => format!("position {}", self.position_args(rng, model)),
            26..=38 => self.ucci_go(rng, model),
            39..=48 => "isready".into(),
            49..=56 => "stop".into(),
            57..=59 => pick(rng, &["ponderhit", "ponderhit draw"]).to_string(),
            60..=73 => self.ucci_setoption(rng),
            74..=78 => {
                let mut s = "banmoves".to_string();
                for _ in 0..rng.below(4) {
                    s.push(' ');
                    s.push_str(&self.a_move(rng, model));
                }
                s
            }
            79..=82 => format!("probe {}", self.position_args(rng, model)),
            83 => "probe".into(),
            84 => "ucci".into(),
            85 => "uccinewgame".into(),
            86 => self.uci_go(rng, model),
            87 => self.uci_setoption(rng),
            88 if rng.chance(1, 10) => "quit".into(),
            _ => format!("position {}", self.position_args(rng, model)),
        }
    }

    /// An XBoard-style FEN for `setboard` (Xiangqi: `H`/`E` letters, no castling or
    /// en-passant fields) or the usual one.
    fn cecp_fen(&self, rng: &mut Rng, model: &Model) -> String {
        let fen = self.fen(rng, model);
        if self.game(model).name != "xiangqi" || rng.chance(1, 2) {
            return fen;
        }
        let mut fields = fen.split_whitespace();
        let board: String = fields
            .next()
            .unwrap_or("")
            .chars()
            .map(|c| match c {
                'n' => 'h',
                'N' => 'H',
                'b' => 'e',
                'B' => 'E',
                c => c,
            })
            .collect();
        let rest: Vec<&str> = fields.filter(|f| *f != "-").collect();
        format!("{board} {}", rest.join(" "))
    }

    fn cecp_line(&self, rng: &mut Rng, model: &mut Model) -> String {
        match rng.below(100) {
            0..=4 => "new".into(),
            5..=7 => format!(
                "variant {}",
                if rng.chance(4, 5) {
                    let xb: Vec<&GameInfo> = self.games.iter().filter(|g| g.xboard).collect();
                    pick_ref(rng, &xb).name.to_string()
                } else {
                    self.variant_name(rng)
                }
            ),
            8..=14 => {
                // setboard from a sample position: the model follows it for moves.
                let g = self.game(model);
                if !g.samples.is_empty() && rng.chance(3, 4) {
                    let si = rng.below(g.samples.len());
                    let ply = rng.below(g.samples[si].fens.len());
                    model.pos = Some((model.game, si, ply));
                    format!("setboard {}", g.samples[si].fens[ply])
                } else {
                    model.pos = None;
                    format!("setboard {}", self.cecp_fen(rng, model))
                }
            }
            15..=29 => {
                let m = self.a_move(rng, model);
                if let Some((g, s, ply)) = model.pos {
                    // Follow the sample game when the move is its next one.
                    let sample = &self.games[g].samples[s];
                    if sample.moves.get(ply) == Some(&m) {
                        model.pos = Some((g, s, ply + 1));
                    }
                }
                if rng.chance(1, 2) {
                    format!("usermove {m}")
                } else {
                    m
                }
            }
            30..=35 => "force".into(),
            36..=39 => "go".into(),
            40 | 41 => "playother".into(),
            // Clocks: mostly short (the engine thinks before `ping` is answered), now and
            // then long ones that the 10 s cap and `?` cut short.
            42..=45 => {
                if rng.chance(1, 10) {
                    pick(
                        rng,
                        &[
                            "level 40 5 0",
                            "level 0 2 1",
                            "level 1 0 0",
                            "level 0 0:30 0.1",
                        ],
                    )
                    .to_string()
                } else {
                    pick(
                        rng,
                        &[
                            "level 0 0:02 0.05",
                            "level 40 0:01 0",
                            "level 0 0:03 0",
                            "level 0 0:01 0.02",
                        ],
                    )
                    .to_string()
                }
            }
            46..=50 => {
                if rng.chance(1, 25) {
                    format!("st {}", pick(rng, &["1", "0", "-1", "1e9", "x"]))
                } else {
                    format!("st {}", pick(rng, &["0.05", "0.1", "0.02", "0.01"]))
                }
            }
            51..=53 => format!("sd {}", num(rng, 1, 4)),
            54..=59 => format!("{} {}", pick(rng, &["time", "otim"]), num(rng, 0, 500)),
            60..=62 => "?".into(),
            // A ping waits for the engine's move: mostly not in the middle of a batch.
            63 => format!("ping {}", num(rng, 1, 99)),
            64..=66 => pick(rng, &["force", "?", "post"]).to_string(),
            67..=69 => pick(rng, &["undo", "remove"]).to_string(),
            70..=72 => "analyze".into(),
            73 | 74 => pick(rng, &["exit", "."]).to_string(),
            75 => "draw".into(),
            76 => pick(
                rng,
                &[
                    "result 1-0 {Red mates}",
                    "result 1/2-1/2 {agreed}",
                    "result *",
                ],
            )
            .to_string(),
            77..=80 => pick(
                rng,
                &[
                    "post",
                    "nopost",
                    "hard",
                    "easy",
                    "random",
                    "computer",
                    "hint",
                    "bk",
                    "accepted setboard",
                    "rejected usermove",
                    "name Fairy",
                    "rating 2000 1800",
                    "ics -",
                    "protover 2",
                    "xboard",
                    "option Hash=1",
                ],
            )
            .to_string(),
            81 | 82 => format!("memory {}", pick_hash(rng)),
            83 | 84 => format!("cores {}", pick_threads(rng)),
            85 if rng.chance(1, 10) => "quit".into(),
            _ => self.a_move(rng, model),
        }
    }

    /// The opening lines of a session in `dialect` (handshake, a game, a short clock).
    pub fn opening(&self, rng: &mut Rng, dialect: Dialect) -> Vec<String> {
        let mut lines = Vec::new();
        let variant = pick_ref(rng, self.games).name;
        match dialect {
            Dialect::Terminal => {
                if rng.chance(1, 2) {
                    lines.push(format!("variant {variant}"));
                }
            }
            Dialect::Uci => {
                lines.push("uci".into());
                if rng.chance(1, 6) {
                    lines.push("ucci".into()); // VinXiangQi sends both
                    lines.push("uci".into());
                }
                if rng.chance(3, 4) {
                    lines.push(format!("setoption name UCI_Variant value {variant}"));
                }
                lines.push(format!(
                    "setoption name MaxMoveTime value {}",
                    pick(rng, &["200", "500", "1000", "10000"])
                ));
                lines.push("isready".into());
            }
            Dialect::Ucci => {
                lines.push("ucci".into());
                lines.push("setoption usemillisec true".into());
                lines.push(format!(
                    "setoption maxmovetime {}",
                    pick(rng, &["200", "500", "1000", "10000"])
                ));
                lines.push("isready".into());
            }
            Dialect::Cecp => {
                lines.push("xboard".into());
                lines.push("protover 2".into());
                let xb: Vec<&GameInfo> = self.games.iter().filter(|g| g.xboard).collect();
                lines.push("new".into());
                if rng.chance(1, 2) {
                    lines.push(format!("variant {}", pick_ref(rng, &xb).name));
                }
                lines.push(
                    pick(rng, &["st 0.05", "sd 2", "level 0 0:02 0.05", "st 0.2"]).to_string(),
                );
                if rng.chance(1, 2) {
                    lines.push("post".into());
                }
            }
        }
        lines
    }
}

/// A hash size: mostly small, sometimes at the limits or absurd.
fn pick_hash(rng: &mut Rng) -> String {
    match rng.below(12) {
        0 => pick(
            rng,
            &[
                "4096",
                "16384",
                "1048576",
                "1099511627776",
                "0",
                "-5",
                "99999999999999999999999",
                "64MB",
                "",
            ],
        )
        .to_string(),
        1 => "512".to_string(),
        _ => pick(rng, &["1", "2", "16", "32", "64", "128", "256"]).to_string(),
    }
}

/// A thread count: mostly 1-4, sometimes many, 0 (the machine's) or nonsense (more
/// than [`super::model::MANY_THREADS`] are turned back at once, see there).
fn pick_threads(rng: &mut Rng) -> String {
    match rng.below(40) {
        0 => pick(rng, &["256", "64", "257", "99999999999"]).to_string(),
        1 => pick(rng, &["0", "-1", "two", "", "8"]).to_string(),
        _ => (1 + rng.below(4)).to_string(),
    }
}

/// A UCCI or UCI batch-mode block: `setoption batch true`, bounded searches, `setoption
/// batch false`. Sent as it is (never mutated): in batch mode the engine reads nothing
/// while it thinks, so only bounded searches may run.
pub fn batch_block(g: &Grammar<'_>, rng: &mut Rng, model: &mut Model) -> Vec<String> {
    let on = match model.dialect {
        Dialect::Ucci => "setoption batch true",
        Dialect::Cecp => return Vec::new(),
        _ => "setoption name batch value true",
    };
    let mut lines = vec![on.to_string()];
    for _ in 0..1 + rng.below(3) {
        lines.push(format!("position {}", g.position_args(rng, model)));
        lines.push(match rng.below(3) {
            0 => format!("go nodes {}", 1 + rng.below(3000)),
            _ => format!("go depth {}", 1 + rng.below(3)),
        });
        if rng.chance(1, 3) {
            lines.push("isready".into());
        }
    }
    lines.push(on.replace("true", "false"));
    lines
}
