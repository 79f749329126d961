//! `jiang-lab threechess-match`: the three-player ThreeChess match runner.
//!
//! Plays games between three entrants and referees them with jiang's ThreeChess rules
//! (which match the reference's perft and move lists, see `tests/threechess_rules.rs`).
//! An entrant is
//! * `jiang[:ALGO[:values=P,N,B,R,Q][:fallible=W]]`: jiang's search in this process
//!   (ALGO: paranoid, brs, brs+, maxn), optionally with other material values
//!   (centipawns) or another weight of the fallible-opponent bonus (0: off);
//! * `uci:PATH[:Name=Value…]`: a UCI engine process (jiang: `UCI_Variant threechess`, then
//!   the options given, e.g. `uci:target/release/jiang:ThreeFallibility=3000`), told the game
//!   with `position startpos moves …` and `go movetime …`, `go nodes …` or `go btime …
//!   gtime … rtime …`;
//! * `greedy`, `random`: the reference's sample agents ([`crate::threechess::agents`]).
//!
//! Seats rotate over the six orders of the three entrants (game g uses order g mod 6),
//! so in a multiple of 6 games every entrant plays every colour equally often.
//!
//! The reference's scoring: a king capture ends the game (capturer +1, victim −1, third
//! 0); an illegal move scores −2 for its player and +1 for the others; with the
//! whole-game clock (`--clock MS`) a player whose time runs out loses (−1) and the other
//! player with the higher material score (`Board::reference_score`) wins (+1).
//!
//! ```text
//! jiang-lab threechess-match --players jiang,greedy,greedy --games 60 --movetime 1000
//! jiang-lab threechess-match --players uci:target/release/jiang,greedy,random --games 60 --clock 300000
//! jiang-lab threechess-match perft 5
//! jiang-lab threechess-match fit --games 600 --nodes 10000
//! ```
//!
//! `fit` plays self-play games (three copies of one search at a node budget, after a few
//! random plies) and fits the material values by logistic regression of each player's
//! final score on its material (own count minus the others' mean, per kind).

use crate::flags::{Flags, Spec};
use crate::threechess::agents::{Agent, GreedyAgent, RandomAgent};
use jiang::request::SearchRequest;
use jiang::search::SearchControl;
use jiang::threechess::eval::{Params, DEFAULT_PARAMS};
use jiang::threechess::search::{self as three, Algorithm, ThreeSettings};
use jiang::threechess::{Board, Ending, Kind, Move, Player};
use jiang::time::Budget;
use jiang::time::TimeSettings;
use jiang::tt::TranspositionTable;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// How a player's time is limited.
#[derive(Clone, Copy, Debug)]
enum TimeControl {
    /// Fixed time per move.
    MoveTime(Duration),
    /// The reference's whole-game budget per player (no increment).
    Clock(Duration),
    /// A node budget per move for jiang's searches (agents just move; UCI: `go nodes`).
    Nodes(u64),
}

/// What a player sees when asked for a move.
struct Turn<'a> {
    board: &'a Board,
    moves: &'a [Move],
    remaining: [Duration; 3],
    tc: TimeControl,
}

/// A participant.
trait Contestant {
    fn name(&self) -> String;
    fn new_game(&mut self, seed: u64);
    fn choose(&mut self, turn: &Turn) -> Result<Move, String>;
    /// Depth of the last search, if the player searches.
    fn last_depth(&self) -> Option<i32> {
        None
    }
}

/// jiang's search in this process.
struct InProcess {
    algorithm: Algorithm,
    params: Params,
    fallibility: i32,
    tt: TranspositionTable,
    depth: Option<i32>,
}

impl Contestant for InProcess {
    fn name(&self) -> String {
        let mut name = format!("jiang:{}", self.algorithm.name());
        if self.params != DEFAULT_PARAMS {
            let v = self.params.values;
            name += &format!(":values={},{},{},{},{}", v[0], v[1], v[2], v[3], v[4]);
        }
        if self.fallibility != three::DEFAULT_FALLIBILITY {
            name += &format!(":fallible={}", self.fallibility);
        }
        name
    }
    fn new_game(&mut self, _seed: u64) {
        self.tt.clear();
    }
    fn choose(&mut self, turn: &Turn) -> Result<Move, String> {
        let me = turn.board.side_to_move().index();
        let settings = TimeSettings::default();
        let (soft, hard) = match turn.tc {
            TimeControl::MoveTime(t) => {
                let hard = t
                    .saturating_sub(settings.move_overhead)
                    .min(jiang::time::hard_cap(&settings));
                (hard, hard)
            }
            TimeControl::Clock(_) => {
                three::time_budget(turn.remaining[me], turn.board.plies() as usize, &settings)
            }
            TimeControl::Nodes(_) => {
                let cap = jiang::time::hard_cap(&settings);
                (cap, cap)
            }
        };
        let request = SearchRequest {
            budget: Some(Budget {
                soft: Some(soft),
                hard,
            }),
            nodes: match turn.tc {
                TimeControl::Nodes(n) => Some(n),
                _ => None,
            },
            ..SearchRequest::default()
        };
        let playing = ThreeSettings {
            algorithm: self.algorithm,
            params: self.params,
            fallibility: self.fallibility,
        };
        let control = SearchControl::new(Some(soft), Some(hard), false);
        let depth = std::cell::Cell::new(0);
        let result = three::search(
            turn.board,
            &request,
            &playing,
            &self.tt,
            &control,
            &|info| depth.set(info.depth),
        );
        self.depth = Some(depth.get());
        result.best_move.ok_or_else(|| "no move".to_string())
    }
    fn last_depth(&self) -> Option<i32> {
        self.depth
    }
}

/// A reference agent.
struct AgentPlayer {
    kind: &'static str,
    agent: Box<dyn Agent>,
}

impl Contestant for AgentPlayer {
    fn name(&self) -> String {
        self.kind.to_string()
    }
    fn new_game(&mut self, seed: u64) {
        self.agent = match self.kind {
            "greedy" => Box::new(GreedyAgent::new(seed)),
            _ => Box::new(RandomAgent::new(seed)),
        };
    }
    fn choose(&mut self, turn: &Turn) -> Result<Move, String> {
        self.agent
            .choose(turn.board)
            .ok_or_else(|| "no move".to_string())
    }
}

/// A UCI engine process.
struct Uci {
    path: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    depth: Option<i32>,
    /// The options set, `Name=Value`.
    options: Vec<String>,
}

impl Uci {
    fn spawn(path: &str, options: &[(String, String)]) -> Result<Uci, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let stdout = child.stdout.take().ok_or("no stdout")?;
        let (tx, rx) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        let mut uci = Uci {
            path: path.to_string(),
            child,
            stdin,
            lines: rx,
            depth: None,
            options: Vec::new(),
        };
        uci.send("uci")?;
        uci.wait_for("uciok", Duration::from_secs(10))?;
        uci.send("setoption name UCI_Variant value threechess")?;
        for (name, value) in options {
            uci.send(&format!("setoption name {name} value {value}"))?;
            uci.options.push(format!("{name}={value}"));
        }
        uci.send("isready")?;
        uci.wait_for("readyok", Duration::from_secs(10))?;
        Ok(uci)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("{}: {e}", self.path))
    }

    fn wait_for(&mut self, prefix: &str, timeout: Duration) -> Result<String, String> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    if let Some(d) = depth_of(&line) {
                        self.depth = Some(d);
                    }
                    if line.starts_with(prefix) {
                        return Ok(line);
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    return Err(format!("no `{prefix}` within {timeout:?}"))
                }
                Err(RecvTimeoutError::Disconnected) => return Err("engine exited".into()),
            }
        }
    }
}

fn depth_of(line: &str) -> Option<i32> {
    let mut it = line.split_whitespace();
    while let Some(w) = it.next() {
        if w == "depth" {
            return it.next()?.parse().ok();
        }
    }
    None
}

impl Contestant for Uci {
    fn name(&self) -> String {
        let mut name = format!("uci:{}", self.path);
        for option in &self.options {
            name += &format!(":{option}");
        }
        name
    }
    fn new_game(&mut self, _seed: u64) {
        let _ = self.send("ucinewgame");
        let _ = self.send("isready");
        let _ = self.wait_for("readyok", Duration::from_secs(10));
    }
    fn choose(&mut self, turn: &Turn) -> Result<Move, String> {
        let moves: Vec<String> = turn.board.history().map(|m| m.to_string()).collect();
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        self.send(&position)?;
        let ms = |d: Duration| d.as_millis();
        let go = match turn.tc {
            TimeControl::MoveTime(t) => format!("go movetime {}", ms(t)),
            TimeControl::Nodes(n) => format!("go nodes {n}"),
            TimeControl::Clock(_) => format!(
                "go btime {} gtime {} rtime {}",
                ms(turn.remaining[0]),
                ms(turn.remaining[1]),
                ms(turn.remaining[2])
            ),
        };
        self.depth = None;
        self.send(&go)?;
        let line = self.wait_for("bestmove", Duration::from_secs(30))?;
        let text = line.split_whitespace().nth(1).unwrap_or("");
        turn.board
            .parse_move(text)
            .map_err(|e| format!("bestmove `{text}`: {e}"))
    }
    fn last_depth(&self) -> Option<i32> {
        self.depth
    }
}

impl Drop for Uci {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let deadline = Instant::now() + Duration::from_secs(2);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn make_contestant(spec: &str) -> Result<Box<dyn Contestant>, String> {
    let parse_algo =
        |a: &str| Algorithm::parse(a).ok_or_else(|| format!("unknown algorithm `{a}`"));
    if let Some(rest) = spec.strip_prefix("uci:") {
        // uci:PATH[:Name=Value...]: UCI options set after the variant.
        let mut parts = rest.split(':');
        let path = parts.next().unwrap_or("");
        let mut options = Vec::new();
        for option in parts {
            let (name, value) = option
                .split_once('=')
                .ok_or_else(|| format!("option `{option}` of `{spec}` is not Name=Value"))?;
            options.push((name.to_string(), value.to_string()));
        }
        return Ok(Box::new(Uci::spawn(path, &options)?));
    }
    match spec.split_once(':') {
        None if spec == "jiang" => Ok(Box::new(InProcess {
            algorithm: three::DEFAULT_ALGORITHM,
            params: DEFAULT_PARAMS,
            fallibility: three::DEFAULT_FALLIBILITY,
            tt: TranspositionTable::new(32),
            depth: None,
        })),
        Some(("jiang", rest)) => {
            // jiang:ALGO[:values=P,N,B,R,Q][:fallible=W]
            let mut parts = rest.split(':');
            let algorithm = parse_algo(parts.next().unwrap_or(""))?;
            let mut params = DEFAULT_PARAMS;
            let mut fallibility = three::DEFAULT_FALLIBILITY;
            for option in parts {
                if let Some(v) = option.strip_prefix("values=") {
                    params = Params::parse_values(v).map_err(|e| e.to_string())?;
                } else if let Some(w) = option.strip_prefix("fallible=") {
                    fallibility = w
                        .parse()
                        .map_err(|_| format!("bad weight `{w}` in `{spec}`"))?;
                } else {
                    return Err(format!("unknown option `{option}` in `{spec}`"));
                }
            }
            Ok(Box::new(InProcess {
                algorithm,
                params,
                fallibility,
                tt: TranspositionTable::new(32),
                depth: None,
            }))
        }
        None if spec == "greedy" || spec == "random" => Ok(Box::new(AgentPlayer {
            kind: if spec == "greedy" { "greedy" } else { "random" },
            agent: Box::new(RandomAgent::new(0)),
        })),
        _ => Err(format!("unknown player `{spec}`")),
    }
}

/// How one game ended.
#[derive(Clone, Debug)]
struct GameResult {
    /// Scores by colour.
    scores: [i32; 3],
    reason: String,
    plies: u32,
    /// Time each colour used (whole game) and its longest move.
    used: [Duration; 3],
    longest: [Duration; 3],
    king_capture: Option<(Player, Player)>,
    depths: [Vec<i32>; 3],
    moves: Vec<Move>,
}

fn play_game(
    seats: &mut [&mut Box<dyn Contestant>; 3],
    tc: TimeControl,
    max_plies: u32,
    seed: u64,
) -> GameResult {
    for (i, s) in seats.iter_mut().enumerate() {
        s.new_game(seed.wrapping_mul(31).wrapping_add(i as u64));
    }
    let mut board = Board::startpos();
    board.reserve(max_plies as usize + 1);
    let budget = match tc {
        TimeControl::Clock(t) => t,
        TimeControl::MoveTime(_) | TimeControl::Nodes(_) => Duration::from_secs(1_000_000),
    };
    let mut used = [Duration::ZERO; 3];
    let mut longest = [Duration::ZERO; 3];
    let mut depths: [Vec<i32>; 3] = Default::default();
    let finish =
        |scores: [i32; 3], reason: String, board: &Board, used, longest, depths, kc| GameResult {
            scores,
            reason,
            moves: board.history().collect(),
            plies: board.plies(),
            used,
            longest,
            king_capture: kc,
            depths,
        };
    loop {
        if let Some(end) = board.ending() {
            let kc = match end {
                Ending::KingCaptured { capturer, victim } => Some((capturer, victim)),
                _ => None,
            };
            return finish(
                end.scores(),
                end.reason(),
                &board,
                used,
                longest,
                depths,
                kc,
            );
        }
        if board.plies() >= max_plies {
            return finish(
                [0; 3],
                format!("adjudicated: {max_plies} plies"),
                &board,
                used,
                longest,
                depths,
                None,
            );
        }
        let p = board.side_to_move();
        let moves: Vec<Move> = board.legal_moves_list().iter().copied().collect();
        let remaining = [0, 1, 2].map(|i| budget.saturating_sub(used[i]));
        let turn = Turn {
            board: &board,
            moves: &moves,
            remaining,
            tc,
        };
        let start = Instant::now();
        let chosen = seats[p.index()].choose(&turn);
        let took = start.elapsed();
        if took > Duration::from_millis(1500) && std::env::var("TC_SLOW").is_ok() {
            eprintln!(
                "slow move {took:?} depth {:?} fen {}",
                seats[p.index()].last_depth(),
                board.to_fen()
            );
        }
        used[p.index()] += took;
        longest[p.index()] = longest[p.index()].max(took);
        if let Some(d) = seats[p.index()].last_depth() {
            depths[p.index()].push(d);
        }
        if matches!(tc, TimeControl::Clock(_)) && used[p.index()] > budget {
            // Out of time: the loser −1, the other player with more material +1.
            let others = [p.next(), p.prev()];
            let winner = if board.reference_score(others[0]) >= board.reference_score(others[1]) {
                others[0]
            } else {
                others[1]
            };
            let mut s = [0; 3];
            s[p.index()] = -1;
            s[winner.index()] = 1;
            return finish(
                s,
                format!("{p} runs out of time"),
                &board,
                used,
                longest,
                depths,
                None,
            );
        }
        match chosen {
            Ok(m) if turn.moves.contains(&m) => board.make_move(m),
            other => {
                let mut s = [1; 3];
                s[p.index()] = -2;
                let why = match other {
                    Ok(m) => format!("{p} plays the illegal move {m}"),
                    Err(e) => format!("{p} fails to move: {e}"),
                };
                return finish(s, why, &board, used, longest, depths, None);
            }
        }
    }
}

/// Tallies of one entrant.
#[derive(Default, Clone)]
struct Tally {
    games: u32,
    score: i32,
    kings_taken: u32,
    king_lost: u32,
    by_colour: [(u32, u32, u32); 3], // (games, kings taken, king lost)
    most_time: Duration,
    longest_move: Duration,
    total_time: Duration,
    moves: u32,
    depth_sum: i64,
    depth_count: u32,
}

const ORDERS: [[usize; 3]; 6] = [
    [0, 1, 2],
    [1, 2, 0],
    [2, 0, 1],
    [0, 2, 1],
    [2, 1, 0],
    [1, 0, 2],
];

/// The usage of `jiang-lab threechess-match`.
pub const USAGE: &str = "jiang-lab threechess-match [--players A,B,C] [--games N] [--movetime MS | --clock MS | --nodes N] \
[--max-plies N] [--seed S] [--verbose]\n\
jiang-lab threechess-match perft DEPTH\n\
jiang-lab threechess-match bench [DEPTH] [ALGORITHM,...]\n\
jiang-lab threechess-match fit [--games N] [--nodes N] [--random-plies N] [--max-plies N] [--seed S] [--algorithm A] [--values P,N,B,R,Q]\n\
players: jiang[:paranoid|brs|brs+|maxn[:values=P,N,B,R,Q][:fallible=W]], uci:PATH[:Name=Value...], greedy, random";

fn usage() -> ! {
    eprintln!("usage: {USAGE}");
    std::process::exit(2)
}

/// The arguments as `spec` reads them; a mistake is printed with the usage, and ends the
/// process.
fn parse(args: &[String], spec: &Spec) -> Flags {
    Flags::parse(args, spec).unwrap_or_else(|e| {
        eprintln!("threechess-match: {e}");
        usage()
    })
}

/// What `read` took from the parsed arguments; a mistake is printed with the usage, and
/// ends the process.
fn read<T>(read: Result<T, String>) -> T {
    read.unwrap_or_else(|e| {
        eprintln!("threechess-match: {e}");
        usage()
    })
}

/// Self-play games for the material fit: three copies of one search at a node budget
/// per move, after `random_plies` random moves; returns each game's moves and ending.
struct FitConfig {
    games: u32,
    nodes: u64,
    random_plies: u32,
    max_plies: u32,
    seed: u64,
    algorithm: Algorithm,
    params: Params,
}

/// One training sample: a player's material (own count minus the mean of the other
/// two's, per kind P N B R Q) and its final score mapped to 0, ½, 1.
struct Sample {
    x: [f64; 5],
    y: f64,
}

fn material_features(b: &Board, p: Player) -> [f64; 5] {
    let count = |q: Player, k: Kind| b.pieces(q, k).count_ones() as f64;
    let kinds = [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
    ];
    kinds.map(|k| count(p, k) - (count(p.next(), k) + count(p.prev(), k)) / 2.0)
}

/// Plays the fit's self-play games and collects samples: every position after the
/// random opening whose last move was not a capture, for each of the three players.
fn fit_samples(cfg: &FitConfig) -> Vec<Sample> {
    let mut samples = Vec::new();
    let tts: Vec<TranspositionTable> = (0..3).map(|_| TranspositionTable::new(16)).collect();
    let mut endings: std::collections::BTreeMap<String, u32> = Default::default();
    let started = Instant::now();
    for g in 0..cfg.games {
        for tt in &tts {
            tt.clear();
        }
        let mut b = Board::startpos();
        b.reserve(cfg.max_plies as usize + 1);
        let mut opening = RandomAgent::new(cfg.seed.wrapping_mul(7919).wrapping_add(g as u64));
        let mut positions: Vec<Board> = Vec::new();
        let mut last_capture = false;
        let ending = loop {
            if let Some(end) = b.ending() {
                break Some(end);
            }
            if b.plies() >= cfg.max_plies {
                break None;
            }
            if b.plies() >= cfg.random_plies && !last_capture {
                positions.push(b.clone());
            }
            let m = if b.plies() < cfg.random_plies {
                match opening.choose(&b) {
                    Some(m) => m,
                    None => break b.ending(),
                }
            } else {
                let request = SearchRequest {
                    nodes: Some(cfg.nodes),
                    ..SearchRequest::default()
                };
                let playing = ThreeSettings {
                    algorithm: cfg.algorithm,
                    params: cfg.params,
                    ..ThreeSettings::default()
                };
                let control = SearchControl::new(None, None, false);
                let tt = &tts[b.side_to_move().index()];
                match three::search(&b, &request, &playing, tt, &control, &|_| {}).best_move {
                    Some(m) => m,
                    None => break b.ending(),
                }
            };
            last_capture = b.piece_at(m.to()).is_some();
            b.make_move(m);
        };
        // A game stopped at the ply limit scores 0 for everyone.
        let scores = ending.map_or([0; 3], |e| e.scores());
        *endings
            .entry(ending.map_or("ply limit".to_string(), |e| match e {
                Ending::KingCaptured { .. } => "king captured".to_string(),
                other => other.reason(),
            }))
            .or_default() += 1;
        for pos in &positions {
            for p in Player::ALL {
                samples.push(Sample {
                    x: material_features(pos, p),
                    y: (scores[p.index()].clamp(-1, 1) as f64 + 1.0) / 2.0,
                });
            }
        }
        if (g + 1) % 20 == 0 {
            eprintln!(
                "fit: {} games, {} samples, {:.0} s, endings {:?}",
                g + 1,
                samples.len(),
                started.elapsed().as_secs_f64(),
                endings
            );
        }
    }
    println!("# endings: {endings:?}");
    samples
}

/// Logistic regression without a bias (a player level in material expects ½, the
/// score 0): Newton's method on the mean cross-entropy. Returns the weights per kind
/// (per piece, in units of the logit) and their standard errors.
fn fit_logistic(samples: &[Sample]) -> ([f64; 5], [f64; 5]) {
    let mut w = [0.0f64; 5];
    let n = samples.len().max(1) as f64;
    let mut hess_inv = [[0.0f64; 5]; 5];
    for _ in 0..30 {
        let mut grad = [0.0f64; 5];
        let mut hess = [[0.0f64; 5]; 5];
        for s in samples {
            let z: f64 = (0..5).map(|i| w[i] * s.x[i]).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            for (i, row) in hess.iter_mut().enumerate() {
                grad[i] += (p - s.y) * s.x[i];
                for (j, h) in row.iter_mut().enumerate() {
                    *h += p * (1.0 - p) * s.x[i] * s.x[j];
                }
            }
        }
        // A tiny ridge keeps the system solvable when a kind never differs.
        for (i, row) in hess.iter_mut().enumerate() {
            row[i] += 1e-6 * n;
        }
        hess_inv = invert5(hess);
        let mut step = [0.0f64; 5];
        for i in 0..5 {
            step[i] = (0..5).map(|j| hess_inv[i][j] * grad[j]).sum();
        }
        for i in 0..5 {
            w[i] -= step[i];
        }
        if step.iter().map(|s| s.abs()).fold(0.0, f64::max) < 1e-9 {
            break;
        }
    }
    // Samples of one game are far from independent: these errors are optimistic.
    let se = [0, 1, 2, 3, 4].map(|i| hess_inv[i][i].max(0.0).sqrt());
    (w, se)
}

/// Inverse of a 5x5 matrix by Gauss-Jordan elimination with partial pivoting.
fn invert5(m: [[f64; 5]; 5]) -> [[f64; 5]; 5] {
    let mut a = m;
    let mut inv = [[0.0f64; 5]; 5];
    for (i, row) in inv.iter_mut().enumerate() {
        row[i] = 1.0;
    }
    for col in 0..5 {
        let pivot = (col..5)
            .max_by(|&x, &y| a[x][col].abs().total_cmp(&a[y][col].abs()))
            .unwrap_or(col);
        a.swap(col, pivot);
        inv.swap(col, pivot);
        let d = a[col][col];
        if d.abs() < 1e-300 {
            continue;
        }
        for j in 0..5 {
            a[col][j] /= d;
            inv[col][j] /= d;
        }
        for r in 0..5 {
            if r != col {
                let f = a[r][col];
                for j in 0..5 {
                    a[r][j] -= f * a[col][j];
                    inv[r][j] -= f * inv[col][j];
                }
            }
        }
    }
    inv
}

fn run_fit(args: &[String]) {
    const SPEC: Spec = Spec::new(USAGE).options(&[
        "games",
        "nodes",
        "random-plies",
        "max-plies",
        "seed",
        "algorithm",
        "values",
    ]);
    let f = parse(args, &SPEC);
    let algorithm = match f.value("algorithm") {
        None => three::DEFAULT_ALGORITHM,
        Some(name) => Algorithm::parse(name).unwrap_or_else(|| {
            eprintln!("threechess-match: unknown --algorithm '{name}'");
            usage()
        }),
    };
    let params = match f.value("values") {
        None => DEFAULT_PARAMS,
        Some(values) => Params::parse_values(values).unwrap_or_else(|e| {
            eprintln!("{e}");
            std::process::exit(2)
        }),
    };
    let cfg = FitConfig {
        games: read(f.get("games", 200)),
        nodes: read(f.get("nodes", 10_000)),
        random_plies: read(f.get("random-plies", 6)),
        max_plies: read(f.get("max-plies", 600)),
        seed: read(f.get("seed", 1)),
        algorithm,
        params,
    };
    println!(
        "# fit: {} games of {} self-play at {} nodes a move after {} random plies, max {} \
         plies, seed {}, values {:?}",
        cfg.games,
        cfg.algorithm.name(),
        cfg.nodes,
        cfg.random_plies,
        cfg.max_plies,
        cfg.seed,
        &cfg.params.values[..5]
    );
    let samples = fit_samples(&cfg);
    let (w, se) = fit_logistic(&samples);
    println!("# {} samples", samples.len());
    let names = ["pawn", "knight", "bishop", "rook", "queen"];
    for i in 0..5 {
        println!(
            "{:<7} logit {:+.4} ± {:.4}   scaled (pawn = 100) {:>6.0}",
            names[i],
            w[i],
            se[i],
            100.0 * w[i] / w[0]
        );
    }
    let scaled: Vec<String> = w
        .iter()
        .map(|x| format!("{:.0}", 100.0 * x / w[0]))
        .collect();
    println!("values={}", scaled.join(","));
}

/// Runs a match, `perft DEPTH` or `fit …` (the arguments after the subcommand's name).
pub fn run(args: &[String]) {
    if args.first().map(String::as_str) == Some("fit") {
        run_fit(&args[1..]);
        return;
    }
    if args.first().map(String::as_str) == Some("perft") {
        let f = parse(&args[1..], &Spec::new(USAGE).args(1));
        let depth: u32 = read(f.arg(0, "DEPTH"));
        let mut b = Board::startpos();
        for d in 1..=depth {
            let t = Instant::now();
            let n = jiang::perft::perft(&mut b, d);
            let s = t.elapsed().as_secs_f64();
            println!(
                "perft {d} {n} nodes {:.3} s {:.0} nodes/s",
                s,
                n as f64 / s.max(1e-9)
            );
        }
        return;
    }
    if args.first().map(String::as_str) == Some("bench") {
        // Fixed-depth searches from positions of a random game: nodes, time, nodes/s.
        let f = parse(&args[1..], &Spec::new(USAGE).args(2));
        let depth: i32 = read(f.arg_or(0, 5, "DEPTH"));
        let algos: Vec<Algorithm> = match f.args().get(1) {
            Some(a) => a.split(',').filter_map(Algorithm::parse).collect(),
            None => Algorithm::ALL.to_vec(),
        };
        let mut positions = vec![Board::startpos()];
        let mut b = Board::startpos();
        let mut agent = RandomAgent::new(7);
        for ply in 0..36 {
            match agent.choose(&b) {
                Some(m) if b.ending().is_none() => b.make_move(m),
                _ => break,
            }
            if ply % 6 == 5 && b.ending().is_none() {
                positions.push(b.clone());
            }
        }
        for algo in algos {
            let (mut nodes, mut ms) = (0u64, 0u128);
            for pos in &positions {
                let tt = TranspositionTable::new(16);
                let request = SearchRequest {
                    depth: Some(depth),
                    ..SearchRequest::default()
                };
                let playing = ThreeSettings {
                    algorithm: algo,
                    ..ThreeSettings::default()
                };
                let control = SearchControl::new(None, None, false);
                let t = Instant::now();
                let r = three::search(pos, &request, &playing, &tt, &control, &|_| {});
                ms += t.elapsed().as_millis();
                nodes += r.nodes;
            }
            println!(
                "bench {:<9} depth {depth} positions {} nodes {nodes} time {ms} ms {} nodes/s",
                algo.name(),
                positions.len(),
                nodes as u128 * 1000 / ms.max(1)
            );
        }
        return;
    }
    const SPEC: Spec = Spec::new(USAGE)
        .options(&[
            "players",
            "games",
            "movetime",
            "clock",
            "nodes",
            "max-plies",
            "seed",
        ])
        .switches(&["verbose"]);
    let f = parse(args, &SPEC);
    let players = f
        .value("players")
        .unwrap_or("jiang,greedy,greedy")
        .to_string();
    let games: u32 = read(f.get("games", 60));
    let controls: Vec<&str> = ["movetime", "clock", "nodes"]
        .into_iter()
        .filter(|c| f.value(c).is_some())
        .collect();
    let tc = match controls[..] {
        [] => TimeControl::MoveTime(Duration::from_millis(1000)),
        ["movetime"] => TimeControl::MoveTime(Duration::from_millis(read(f.get("movetime", 0)))),
        ["clock"] => TimeControl::Clock(Duration::from_millis(read(f.get("clock", 0)))),
        ["nodes"] => TimeControl::Nodes(read(f.get("nodes", 0))),
        _ => {
            eprintln!("threechess-match: one of --movetime, --clock and --nodes, not several");
            usage()
        }
    };
    let max_plies: u32 = read(f.get("max-plies", 1500));
    let seed: u64 = read(f.get("seed", 1));
    let verbose = f.is_set("verbose");
    let specs: Vec<&str> = players.split(',').collect();
    if specs.len() != 3 {
        usage();
    }
    let mut entrants: Vec<Box<dyn Contestant>> = Vec::new();
    for s in &specs {
        match make_contestant(s) {
            Ok(c) => entrants.push(c),
            Err(e) => {
                eprintln!("{e}");
                std::process::exit(2);
            }
        }
    }
    let names: Vec<String> = specs
        .iter()
        .enumerate()
        .map(|(i, s)| format!("{i}:{s}"))
        .collect();
    let labels: Vec<String> = entrants.iter().map(|e| e.name()).collect();
    println!(
        "# entrants {} ({}) | {:?} | {games} games | max {max_plies} plies | seed {seed}",
        names.join(" "),
        labels.join(", "),
        tc
    );
    let mut tallies = vec![Tally::default(); 3];
    let mut outcomes: std::collections::BTreeMap<String, u32> = Default::default();
    for g in 0..games {
        let order = ORDERS[g as usize % 6];
        // order[colour] = entrant index
        let [e0, e1, e2] = {
            let mut refs: Vec<Option<&mut Box<dyn Contestant>>> =
                entrants.iter_mut().map(Some).collect();
            [
                refs[order[0]].take().unwrap_or_else(|| unreachable!()),
                refs[order[1]].take().unwrap_or_else(|| unreachable!()),
                refs[order[2]].take().unwrap_or_else(|| unreachable!()),
            ]
        };
        let mut seats = [e0, e1, e2];
        let r = play_game(
            &mut seats,
            tc,
            max_plies,
            seed.wrapping_mul(1_000_003).wrapping_add(g as u64),
        );
        let mut line = format!("game {:>3}:", g + 1);
        for (c, &e) in order.iter().enumerate() {
            let t = &mut tallies[e];
            t.games += 1;
            t.score += r.scores[c];
            t.by_colour[c].0 += 1;
            if let Some((cap, vic)) = r.king_capture {
                if cap.index() == c {
                    t.kings_taken += 1;
                    t.by_colour[c].1 += 1;
                }
                if vic.index() == c {
                    t.king_lost += 1;
                    t.by_colour[c].2 += 1;
                }
            }
            t.most_time = t.most_time.max(r.used[c]);
            t.longest_move = t.longest_move.max(r.longest[c]);
            t.total_time += r.used[c];
            t.moves += r.plies / 3 + u32::from((r.plies % 3) as usize > c);
            t.depth_sum += r.depths[c].iter().map(|&d| d as i64).sum::<i64>();
            t.depth_count += r.depths[c].len() as u32;
            line.push_str(&format!(
                " {}={}({:+}, {:.1}s)",
                Player::from_index(c).name(),
                e,
                r.scores[c],
                r.used[c].as_secs_f64()
            ));
        }
        let kind = match r.king_capture {
            Some((cap, vic)) => format!("{} takes {}", order[cap.index()], order[vic.index()]),
            None => r.reason.clone(),
        };
        *outcomes.entry(kind).or_default() += 1;
        println!("{line} | {} | {} plies", r.reason, r.plies);
        if verbose {
            let text: Vec<String> = r.moves.iter().map(|m| m.to_string()).collect();
            println!("  moves {}", text.join(" "));
        }
    }
    println!("\n# summary ({games} games)");
    println!("entrant                         games  score  kings-taken  own-king-lost  by colour (games/taken/lost) b g r   most-time/game  longest-move  avg-depth");
    for (e, t) in tallies.iter().enumerate() {
        let pct = |n: u32| 100.0 * n as f64 / t.games.max(1) as f64;
        let colours: Vec<String> = t
            .by_colour
            .iter()
            .map(|(g, k, l)| format!("{g}/{k}/{l}"))
            .collect();
        println!(
            "{:<31} {:>5} {:>6}  {:>4} ({:>5.1}%)  {:>4} ({:>5.1}%)  {:<30} {:>8.1} s {:>10.2} s {:>8.1}",
            names[e],
            t.games,
            t.score,
            t.kings_taken,
            pct(t.kings_taken),
            t.king_lost,
            pct(t.king_lost),
            colours.join(" "),
            t.most_time.as_secs_f64(),
            t.longest_move.as_secs_f64(),
            if t.depth_count > 0 { t.depth_sum as f64 / t.depth_count as f64 } else { 0.0 },
        );
    }
    println!("outcomes (entrant indices):");
    for (k, n) in outcomes {
        println!("  {k}: {n}");
    }
}
