//! The referee: every move an engine plays is checked by jiang's own rules library, and
//! the game's end is judged by it.
//!
//! * **Xiangqi** ([`jiang::xiangqi::Position`], `src/xiangqi/rules.rs`, Asian rules): no
//!   legal move loses (checkmate and stalemate); the 60-move rule (120 plies without a
//!   capture, checks beyond a side's tenth not counted) draws; a position occurring the
//!   third time is judged for perpetual check and chase (the culprit loses, otherwise a
//!   draw); dead material (no chariot, horse, cannon or soldier on either side) draws.
//! * **Fairy chess** and **Baroque**: the game's own [`Rules::game_end`] (fairy chess:
//!   a captured king, kings only, the 100-ply limit, no legal move).
//! * **Jieqi** (its `MatchRules`): the referee deals each game's face-down pieces (one
//!   shuffle per pair of games, so both colours meet the same deal) and keeps the truth;
//!   an engine plays a bare move (`b2b6`) and the referee writes it with what it revealed
//!   (`b2b6R`, JieqiBox's letters), so both engines learn every reveal and every captured
//!   face-down piece, as JieqiBox's own engine matches do.
//!
//! Moves are in the game's coordinate notation as jiang writes them (Xiangqi: ICCS,
//! files a-i and ranks 0-9 from Red's side, `h2e2`); the engines' own dialects (ranks 1-10)
//! are converted where they are read and written ([`super::engine`]).

use jiang::game::Rules;
use std::fmt;

/// The games the runner referees.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Variant {
    /// Xiangqi (Chinese chess).
    Xiangqi,
    /// The NUS CS3243 8x8 fairy chess (king capture).
    Fairychess,
    /// Baroque (Ultima).
    Baroque,
    /// Jieqi (揭棋), Xiangqi with face-down pieces.
    Jieqi,
}

/// Which player moves: the first (Red, or White) or the second (Black).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Red in Xiangqi, White elsewhere: the first player.
    Red,
    /// Black.
    Black,
}

impl Side {
    /// The other side.
    pub fn flip(self) -> Side {
        match self {
            Side::Red => Side::Black,
            Side::Black => Side::Red,
        }
    }

    /// `red` or `black`: the runner's internal names (the JSON's `side`), whatever the game.
    pub fn key(self) -> &'static str {
        match self {
            Side::Red => "red",
            Side::Black => "black",
        }
    }
}

/// The result of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameResult {
    /// The first player won (`1-0`).
    RedWins,
    /// The second player won (`0-1`).
    BlackWins,
    /// `1/2-1/2`.
    Draw,
}

impl GameResult {
    /// The PGN form.
    pub fn pgn(self) -> &'static str {
        match self {
            GameResult::RedWins => "1-0",
            GameResult::BlackWins => "0-1",
            GameResult::Draw => "1/2-1/2",
        }
    }

    /// The win of `side`.
    pub fn win_for(side: Side) -> GameResult {
        match side {
            Side::Red => GameResult::RedWins,
            Side::Black => GameResult::BlackWins,
        }
    }

    /// The score of `side`: 1, ½ or 0.
    pub fn score_for(self, side: Side) -> f64 {
        match (self, side) {
            (GameResult::Draw, _) => 0.5,
            (GameResult::RedWins, Side::Red) | (GameResult::BlackWins, Side::Black) => 1.0,
            _ => 0.0,
        }
    }
}

impl fmt::Display for GameResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.pgn())
    }
}

/// How a game ended without a forfeit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndKind {
    /// By the game's rules.
    Rules,
    /// By the runner's adjudication (ply limits, a draw claim).
    Adjudication,
}

/// The end of a game by rule or adjudication.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RuleEnd {
    /// The result.
    pub result: GameResult,
    /// Why, short: `checkmate`, `repetition`, `perpetual check by red`.
    pub reason: String,
    /// Rules or adjudication.
    pub kind: EndKind,
}

/// A game under way, as the referee sees it.
pub trait Referee: Send {
    /// The start position (normalised FEN).
    fn start_fen(&self) -> &str;
    /// The current position.
    fn fen(&self) -> String;
    /// Who moves.
    fn side_to_move(&self) -> Side;
    /// The moves played, in canonical notation.
    fn moves(&self) -> &[String];
    /// Plies since the last capture (the start FEN's count included).
    fn plies_without_capture(&self) -> u32;
    /// The canonical form of `text` if it is a legal move here.
    fn legal(&self, text: &str) -> Option<String>;
    /// Every legal move, canonical, in the rules library's order.
    fn legal_moves(&self) -> Vec<String>;
    /// Whether the side to move is in check (games with check; others: false).
    fn in_check(&self) -> bool;
    /// Plays a move that [`Referee::legal`] returned.
    fn push(&mut self, canonical: &str);
    /// The game's end by its rules; then, with `no_capture_plies` > 0, the draw after
    /// that many plies without a capture.
    fn end(&self, no_capture_plies: u32) -> Option<RuleEnd>;
    /// The game's own no-capture draw, in plies (0: none): the bound above which an
    /// engine's `nobestmove` is taken as a draw claim.
    fn rule_no_capture_plies(&self) -> u32;
}

impl Variant {
    /// Every game, by name.
    pub const ALL: [Variant; 4] = [
        Variant::Xiangqi,
        Variant::Fairychess,
        Variant::Baroque,
        Variant::Jieqi,
    ];

    /// The game called `name` (its `UCI_Variant` name).
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL
            .into_iter()
            .find(|v| v.name().eq_ignore_ascii_case(name))
    }

    /// The `UCI_Variant` name.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Xiangqi => <jiang::xiangqi::Position as Rules>::NAME,
            Variant::Fairychess => <jiang::fairychess::Position as Rules>::NAME,
            Variant::Baroque => <jiang::baroque::Position as Rules>::NAME,
            Variant::Jieqi => <jiang::jieqi::Position as Rules>::NAME,
        }
    }

    /// The players' names, first player first: `red`, `black` (or `white`, `black`).
    pub fn player(self, side: Side) -> &'static str {
        let players = match self {
            Variant::Xiangqi => <jiang::xiangqi::Position as Rules>::PLAYERS,
            Variant::Fairychess => <jiang::fairychess::Position as Rules>::PLAYERS,
            Variant::Baroque => <jiang::baroque::Position as Rules>::PLAYERS,
            Variant::Jieqi => <jiang::jieqi::Position as Rules>::PLAYERS,
        };
        players
            .get(match side {
                Side::Red => 0,
                Side::Black => 1,
            })
            .copied()
            .unwrap_or("?")
    }

    /// The start position.
    pub fn start_fen(self) -> String {
        match self {
            Variant::Xiangqi => jiang::xiangqi::Position::start_position().to_fen(),
            Variant::Fairychess => {
                <jiang::fairychess::Position as Rules>::start_position().to_fen()
            }
            Variant::Baroque => <jiang::baroque::Position as Rules>::start_position().to_fen(),
            Variant::Jieqi => <jiang::jieqi::Position as Rules>::start_position().to_fen(),
        }
    }

    /// Reads a FEN or EPD line (trailing EPD fields ignored) and writes it as jiang does;
    /// the error says what is wrong.
    pub fn normalize_fen(self, text: &str) -> Result<String, String> {
        match self {
            Variant::Xiangqi => normalize::<jiang::xiangqi::Position>(&fen_fields(text)?),
            Variant::Fairychess => normalize::<jiang::fairychess::Position>(&fen_fields(text)?),
            Variant::Baroque => normalize::<jiang::baroque::Position>(&fen_fields(text)?),
            // Its FEN has fields of its own (the pools): only EPD operations are dropped.
            Variant::Jieqi => {
                normalize::<jiang::jieqi::Position>(text.split(';').next().unwrap_or("").trim())
            }
        }
    }

    /// A referee for a game from `fen` (normalised first).
    pub fn referee(self, fen: &str) -> Result<Box<dyn Referee>, String> {
        self.referee_dealt(fen, 0)
    }

    /// A referee for a game from `fen`, its hidden pieces (Jieqi) dealt by `deal`.
    pub fn referee_dealt(self, fen: &str, deal: u64) -> Result<Box<dyn Referee>, String> {
        let fen = self.normalize_fen(fen)?;
        Ok(match self {
            Variant::Xiangqi => Box::new(Board::<jiang::xiangqi::Position>::new(&fen, deal)?),
            Variant::Fairychess => Box::new(Board::<jiang::fairychess::Position>::new(&fen, deal)?),
            Variant::Baroque => Box::new(Board::<jiang::baroque::Position>::new(&fen, deal)?),
            Variant::Jieqi => Box::new(Board::<jiang::jieqi::Position>::new(&fen, deal)?),
        })
    }

    /// Whether engines of this game number ranks in two ways (Xiangqi: 0-9 or 1-10).
    pub fn has_rank_dialects(self) -> bool {
        self == Variant::Xiangqi
    }
}

/// The board, side to move and the two counters of a FEN or EPD line: EPD operations
/// after the fields are dropped, missing counters are `0 1` (as `xqmatch` reads them).
fn fen_fields(text: &str) -> Result<String, String> {
    let tokens: Vec<&str> = text.split_whitespace().collect();
    let Some(board) = tokens.first() else {
        return Err("empty FEN".into());
    };
    let side = tokens.get(1).copied().unwrap_or("w");
    let mut numbers = Vec::new();
    for t in tokens.iter().skip(2).take(4) {
        if *t == "-" {
            continue;
        }
        match t.parse::<u32>() {
            Ok(n) => numbers.push(n),
            Err(_) => break,
        }
    }
    let half = numbers.first().copied().unwrap_or(0);
    let full = numbers.get(1).copied().unwrap_or(1).max(1);
    Ok(format!("{board} {side} - - {half} {full}"))
}

fn normalize<G: Rules>(fen: &str) -> Result<String, String> {
    G::from_fen(fen)
        .map(|p| p.to_fen())
        .map_err(|e| format!("{e}"))
}

/// What the referee needs from a game beyond [`Rules`].
trait MatchRules: Rules {
    /// The game's own no-capture draw in plies (0: none).
    const NO_CAPTURE_RULE: u32 = 0;

    /// Whether the side to move is in check.
    fn checked(&self) -> bool {
        false
    }

    /// The game as the referee keeps it, from the position its start FEN describes:
    /// itself, except where the FEN hides something the referee must decide (Jieqi's
    /// face-down pieces, dealt by `seed`).
    fn dealt(self, _seed: u64) -> Result<Self, String> {
        Ok(self)
    }

    /// The move an engine's `text` stands for here, as it is played, if it is legal.
    fn referee_move(&self, text: &str) -> Option<Self::Move> {
        self.parse_legal_move(text)
            .or_else(|_| self.parse_legal_move(&text.to_ascii_lowercase()))
            .ok()
    }

    /// The legal move `m` as it is played (Jieqi: with what it reveals).
    fn as_played(&self, m: Self::Move) -> Self::Move {
        m
    }

    /// The position as both players may know it (Jieqi: without the deal).
    fn public_fen(&self) -> String {
        self.to_fen()
    }

    /// The end by the rules, with a short reason.
    fn rule_end(&self) -> Option<RuleEnd> {
        self.game_end().map(|end| RuleEnd {
            result: match end.winner {
                Some(0) => GameResult::RedWins,
                Some(_) => GameResult::BlackWins,
                None => GameResult::Draw,
            },
            reason: end.reason,
            kind: EndKind::Rules,
        })
    }
}

impl MatchRules for jiang::xiangqi::Position {
    const NO_CAPTURE_RULE: u32 = jiang::xiangqi::rules::RULE60_PLIES as u32;

    fn checked(&self) -> bool {
        self.in_check()
    }

    fn rule_end(&self) -> Option<RuleEnd> {
        use jiang::xiangqi::rules::EndReason;
        use jiang::xiangqi::Color;
        let end = self.game_result()?;
        let loser = end.winner.map(|w| match w.flip() {
            Color::Red => "red",
            Color::Black => "black",
        });
        let reason = match end.reason {
            EndReason::Checkmate => "checkmate".to_string(),
            EndReason::Stalemate => "stalemate".to_string(),
            EndReason::PerpetualCheck => format!("perpetual check by {}", loser.unwrap_or("?")),
            EndReason::PerpetualChase => format!("perpetual chase by {}", loser.unwrap_or("?")),
            EndReason::Repetition => "repetition".to_string(),
            EndReason::MoveLimit => format!(
                "60-move rule ({} plies without capture)",
                jiang::xiangqi::rules::RULE60_PLIES
            ),
            EndReason::DeadMaterial => "insufficient material".to_string(),
        };
        Some(RuleEnd {
            result: match end.winner {
                Some(Color::Red) => GameResult::RedWins,
                Some(Color::Black) => GameResult::BlackWins,
                None => GameResult::Draw,
            },
            reason,
            kind: EndKind::Rules,
        })
    }
}

impl MatchRules for jiang::fairychess::Position {}
impl MatchRules for jiang::baroque::Position {}
/// Jieqi: the referee deals the face-down pieces and keeps the truth; an engine plays a
/// bare move (any letters it writes are its guess, not its choice) and the move is
/// written with what the deal reveals and captures.
impl MatchRules for jiang::jieqi::Position {
    fn checked(&self) -> bool {
        self.in_check()
    }

    fn dealt(self, seed: u64) -> Result<Self, String> {
        if self.is_full_information() {
            return Ok(self);
        }
        self.deal(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x6a09_e667)
            .ok_or_else(|| "the pools do not match the face-down pieces".to_string())
    }

    fn referee_move(&self, text: &str) -> Option<Self::Move> {
        self.parse_legal_move(&text.get(..4)?.to_ascii_lowercase())
            .ok()
            .map(|m| self.resolved(m))
    }

    fn as_played(&self, m: Self::Move) -> Self::Move {
        self.resolved(m)
    }

    /// The truth's FEN without its assignment field (the seventh): the pools and the
    /// captured face-down pieces are public, every reveal having been told.
    fn public_fen(&self) -> String {
        let fen = self.to_fen();
        fen.split_whitespace().take(6).collect::<Vec<_>>().join(" ")
    }
}

/// The side of player `index` (0: the first).
fn side_of(index: usize) -> Side {
    if index == 0 {
        Side::Red
    } else {
        Side::Black
    }
}

/// The runner's draw after `limit` plies without a capture (0: none), `count` so far.
fn no_capture_draw(count: u32, limit: u32) -> Option<RuleEnd> {
    (limit > 0 && count >= limit).then(|| RuleEnd {
        result: GameResult::Draw,
        reason: format!("no-capture limit ({limit} plies)"),
        kind: EndKind::Adjudication,
    })
}

/// A game of `G` from a start FEN.
struct Board<G: MatchRules> {
    pos: G,
    start_fen: String,
    moves: Vec<String>,
    no_capture: u32,
    pieces: usize,
}

/// The pieces on the board of a FEN: its letters.
fn piece_count(fen: &str) -> usize {
    fen.split_whitespace()
        .next()
        .map(|b| b.chars().filter(char::is_ascii_alphabetic).count())
        .unwrap_or(0)
}

impl<G: MatchRules> Board<G> {
    fn new(fen: &str, deal: u64) -> Result<Self, String> {
        let mut pos = G::from_fen(fen).map_err(|e| format!("{e}"))?.dealt(deal)?;
        pos.reserve(1024);
        let no_capture = fen
            .split_whitespace()
            .nth(4)
            .and_then(|t| t.parse().ok())
            .unwrap_or(0);
        Ok(Board {
            pieces: piece_count(fen),
            start_fen: fen.to_string(),
            pos,
            moves: Vec::new(),
            no_capture,
        })
    }
}

impl<G: MatchRules> Referee for Board<G> {
    fn start_fen(&self) -> &str {
        &self.start_fen
    }

    fn fen(&self) -> String {
        self.pos.public_fen()
    }

    fn side_to_move(&self) -> Side {
        side_of(self.pos.player_to_move())
    }

    fn moves(&self) -> &[String] {
        &self.moves
    }

    fn plies_without_capture(&self) -> u32 {
        self.no_capture
    }

    fn legal(&self, text: &str) -> Option<String> {
        self.pos.referee_move(text).map(|m| m.to_string())
    }

    fn legal_moves(&self) -> Vec<String> {
        self.pos
            .legal_moves()
            .into_iter()
            .map(|m| self.pos.as_played(m).to_string())
            .collect()
    }

    fn in_check(&self) -> bool {
        self.pos.checked()
    }

    fn push(&mut self, canonical: &str) {
        let Ok(m) = self.pos.parse_legal_move(canonical) else {
            return;
        };
        self.pos.play(m);
        self.moves.push(canonical.to_string());
        let pieces = piece_count(&self.pos.to_fen());
        if pieces < self.pieces {
            self.no_capture = 0;
        } else {
            self.no_capture += 1;
        }
        self.pieces = pieces;
    }

    fn end(&self, no_capture_plies: u32) -> Option<RuleEnd> {
        if let Some(end) = self.pos.rule_end() {
            return Some(end);
        }
        no_capture_draw(self.no_capture, no_capture_plies)
    }

    fn rule_no_capture_plies(&self) -> u32 {
        G::NO_CAPTURE_RULE
    }
}

/// Reads a Xiangqi move written with ranks counted from `base` (0: `h2e2`, 1: `h3e3`,
/// `b10c8`) into the canonical ranks 0-9; `None` if it is not move-shaped. Case does not
/// matter.
pub fn xiangqi_from_dialect(text: &str, base: u8) -> Option<String> {
    let s = text.trim().to_ascii_lowercase();
    let b = s.as_bytes();
    let file = |c: u8| (b'a'..=b'i').contains(&c);
    if base == 0 {
        let ok = b.len() == 4
            && file(b[0])
            && b[1].is_ascii_digit()
            && file(b[2])
            && b[3].is_ascii_digit();
        return ok.then_some(s);
    }
    // ranks 1-10: a file, 1-2 digits, a file, 1-2 digits
    let split = |t: &str| -> Option<(char, u8, usize)> {
        let mut chars = t.char_indices();
        let (_, f) = chars.next()?;
        if !('a'..='i').contains(&f) {
            return None;
        }
        let digits: String = t[1..].chars().take_while(char::is_ascii_digit).collect();
        let n: u8 = digits.parse().ok()?;
        (1..=10)
            .contains(&n)
            .then_some((f, n - 1, 1 + digits.len()))
    };
    let (f1, r1, used) = split(&s)?;
    let (f2, r2, used2) = split(&s[used..])?;
    if used + used2 != s.len() {
        return None;
    }
    Some(format!("{f1}{r1}{f2}{r2}"))
}

/// Writes a canonical Xiangqi move with ranks counted from `base`.
pub fn xiangqi_to_dialect(canonical: &str, base: u8) -> String {
    if base == 0 {
        return canonical.to_string();
    }
    let b = canonical.as_bytes();
    if b.len() != 4 {
        return canonical.to_string();
    }
    format!(
        "{}{}{}{}",
        b[0] as char,
        (b[1] - b'0') + 1,
        b[2] as char,
        (b[3] - b'0') + 1
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rank_dialects_round_trip() {
        assert_eq!(xiangqi_from_dialect("h2e2", 0).as_deref(), Some("h2e2"));
        assert_eq!(xiangqi_from_dialect("H2E2", 0).as_deref(), Some("h2e2"));
        assert_eq!(xiangqi_from_dialect("h3e3", 1).as_deref(), Some("h2e2"));
        assert_eq!(xiangqi_from_dialect("b10c8", 1).as_deref(), Some("b9c7"));
        assert_eq!(xiangqi_from_dialect("b10c8", 0), None);
        assert_eq!(xiangqi_from_dialect("h0e2", 1), None);
        assert_eq!(xiangqi_from_dialect("j2e2", 0), None);
        assert_eq!(xiangqi_to_dialect("b9c7", 1), "b10c8");
        assert_eq!(xiangqi_to_dialect("h2e2", 0), "h2e2");
    }

    #[test]
    fn fens_are_normalised_and_bad_ones_refused() {
        let v = Variant::Xiangqi;
        let start = v.start_fen();
        assert_eq!(
            v.normalize_fen("rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w")
                .unwrap(),
            start
        );
        // EPD operations after the fields, `r` for Red, counters kept.
        let epd = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR r - - 3 7 bm h2e2;";
        assert!(v.normalize_fen(epd).unwrap().ends_with(" w - - 3 7"));
        assert!(v.normalize_fen("").is_err());
        assert!(v.normalize_fen("rnbakabnr/9/9 w").is_err());
        assert!(v.referee("9/9/9/9/9/9/9/9/9/9 w").is_err(), "no kings");
    }

    #[test]
    fn a_game_is_refereed_to_its_end() {
        let mut r = Variant::Xiangqi
            .referee(&Variant::Xiangqi.start_fen())
            .unwrap();
        assert_eq!(r.side_to_move(), Side::Red);
        assert_eq!(r.legal("h2e2").as_deref(), Some("h2e2"));
        assert_eq!(r.legal("h2e3"), None);
        assert_eq!(r.legal("nonsense"), None);
        r.push("h2e2");
        assert_eq!(r.side_to_move(), Side::Black);
        assert_eq!(r.plies_without_capture(), 1);
        assert!(r.end(0).is_none());
        // Red's cannon takes the centre soldier: the count starts again.
        r.push("h9g7");
        r.push("e2e6");
        assert_eq!(r.plies_without_capture(), 0);
        assert_eq!(r.moves(), ["h2e2", "h9g7", "e2e6"]);
        assert_eq!(r.rule_no_capture_plies(), 120);

        // Checkmate: the side to move has no legal move and is in check.
        let mate = Variant::Xiangqi
            .referee("4k4/9/4R4/9/3R5/9/9/9/9/5K3 b - - 0 1")
            .unwrap();
        let end = mate.end(0).unwrap();
        assert_eq!(
            (end.result, end.reason.as_str(), end.kind),
            (GameResult::RedWins, "checkmate", EndKind::Rules)
        );
        // The no-capture adjudication after the rules.
        let quiet = Variant::Xiangqi
            .referee("3k5/9/9/9/9/9/9/4R4/9/4K4 w - - 30 40")
            .unwrap();
        assert_eq!(quiet.end(30).unwrap().kind, EndKind::Adjudication);
        assert!(quiet.end(31).is_none());
    }

    #[test]
    fn repetition_is_a_draw_by_the_rules() {
        let mut r = Variant::Xiangqi
            .referee(&Variant::Xiangqi.start_fen())
            .unwrap();
        for _ in 0..2 {
            for m in ["h0g2", "h9g7", "g2h0", "g7h9"] {
                assert!(r.end(0).is_none());
                let m = r.legal(m).unwrap();
                r.push(&m);
            }
        }
        let end = r.end(0).unwrap();
        assert_eq!(
            (end.result, end.reason.as_str()),
            (GameResult::Draw, "repetition")
        );
    }

    #[test]
    fn fairy_chess_is_refereed_too() {
        let v = Variant::Fairychess;
        let r = v.referee(&v.start_fen()).unwrap();
        assert_eq!(v.player(Side::Red), "white");
        assert!(r.end(0).is_none());
        assert!(r.legal("a1a8").is_none());
        assert_eq!(Variant::from_name("FairyChess"), Some(Variant::Fairychess));
        assert_eq!(Variant::from_name("chess"), None);
    }

    #[test]
    fn jieqi_is_dealt_the_same_for_a_pair_and_the_moves_carry_the_reveals() {
        let v = Variant::Jieqi;
        let start = v.start_fen();
        let deal = |seed: u64| {
            let mut r = v.referee_dealt(&start, seed).unwrap();
            let m = r.legal("b2b6").expect("a face-down cannon's move");
            r.push(&m);
            (m, r)
        };
        let (a, ra) = deal(1);
        let (b, _) = deal(1);
        assert_eq!(a, b, "one seed, one deal");
        // The move names what it revealed; the players' view learns it.
        assert_eq!(a.len(), 5, "{a}");
        let fen = ra.fen();
        let rank6 = fen.split('/').nth(3).unwrap_or("");
        assert_eq!(rank6, format!("x{}x1x1x1x", &a[4..5]), "{fen}");
        assert_eq!(ra.moves(), std::slice::from_ref(&a));
        assert_eq!(ra.side_to_move(), Side::Black);
        // Some of 20 deals reveal another kind at b6.
        let kinds: std::collections::BTreeSet<String> =
            (1..=20).map(|s| deal(s).0[4..].to_string()).collect();
        assert!(kinds.len() > 2, "{kinds:?}");
        // An engine's guessed letters do not choose the reveal; no move, no legal text.
        let r = v.referee_dealt(&start, 1).unwrap();
        assert_eq!(r.legal("b2b6P").as_deref(), Some(a.as_str()));
        assert!(r.legal("b2c3").is_none());
        assert!(r.legal("").is_none());
        assert_eq!(Variant::from_name("jieqi"), Some(Variant::Jieqi));
    }

    #[test]
    fn jieqi_public_fen_is_what_the_players_replay() {
        // A game of spread legal moves (reveals and captures of face-down pieces among
        // them: a5a3P, i7i3B with this deal): at every ply the referee's FEN (the truth less
        // the deal) is the view an engine gets by replaying the start and the lettered
        // moves, and it never shows the deal.
        use jiang::jieqi::Position;
        let v = Variant::Jieqi;
        let start = v.start_fen();
        let mut r = v.referee_dealt(&start, 7).unwrap();
        for ply in 0..80 {
            if r.end(0).is_some() {
                break;
            }
            let moves = r.legal_moves();
            let m = moves[(ply * 7) % moves.len()].clone();
            r.push(&m);
            let mut view = Position::from_fen(&start).unwrap();
            for t in r.moves() {
                let mv = view.parse_legal_move(t).unwrap();
                view.play(mv);
            }
            assert_eq!(r.fen(), view.to_fen(), "ply {ply}");
            assert_eq!(r.fen().split_whitespace().count(), 6, "{}", r.fen());
        }
        assert!(r.moves().len() > 20);
    }
}
