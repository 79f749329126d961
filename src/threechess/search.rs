//! The three-player search, and the whole-game clock.
//!
//! Two-player negamax does not fit three players, so this module has its own searches,
//! all iterative deepening with a transposition table (keyed on the position, the player
//! to move, the player searched for and the algorithm), move ordering (TT move, captures
//! by most valuable victim, killers, history) and a quiescence search on captures:
//!
//! * [`Algorithm::Paranoid`]: the player to move at the root against a coalition of the
//!   other two, who are assumed to minimise its score; plain alpha-beta over the real turn
//!   order (Sturtevant & Korf 2000).
//! * [`Algorithm::Brs`]: best-reply search (Schadd & Winands 2011): between two moves of
//!   the root player only the one opponent move that hurts it most is played, by either
//!   opponent, the other passing. Deeper for the root player's own plans, at the price of
//!   illegal (pass) sequences.
//! * [`Algorithm::BrsPlus`]: BRS+ (Esser et al. 2013): as BRS, but the opponent that does
//!   not search plays its first move by the move ordering (its best capture) instead of
//!   passing, so every line is a legal sequence.
//! * [`Algorithm::MaxN`]: each player maximises its own component of a score vector
//!   (Luckhardt & Irani 1986); no alpha-beta pruning across players.
//!
//! Against weak opponents (the reference's random and greedy agents, or anything that
//! blunders) these searches are too respectful: they never try a threat that a best
//! reply parries. So the root adds to each move's score a bonus for the chance that,
//! after it, opponents who take our king when they can and otherwise grab their most
//! valuable target or move at random (in the proportion each has shown in this game:
//! [`observed_greed`]) leave a king for us to take, less the chance that one of them
//! takes the other's king in this round or the next ([`fallible_chances`],
//! [`ThreeLimits::fallibility`], UCI `ThreeFallibility`). A move the search sees lose
//! keeps its losing score.
//!
//! Scores: [`super::eval::view`] centipawns; a king capture is worth ±[`WIN`] minus
//! the plies to it for the capturer and the victim, [`super::eval::OTHER_CAPTURE`] for
//! the third player (the game ends without its winning).

use super::board::{Board, Status};
use super::eval::{self, ORDER_VALUES};
use super::movegen::Gen;
use super::types::{Move, Player, Square};
use super::zobrist;
use crate::movelist::{ListMove, MoveList, MAX_MOVES};
use crate::search::SearchControl;
use crate::time::{hard_cap, TimeSettings};
use crate::tt::{Bound, TranspositionTable, MATE, MATE_BOUND};
use std::time::Duration;

/// Score of capturing a king at the root (minus one per ply to it).
pub const WIN: i32 = MATE;
/// Scores at least this large (in absolute value) are king captures.
pub const WIN_BOUND: i32 = MATE_BOUND;
const INF: i32 = MATE + 1;
/// Moves the whole-game clock keeps a reserve of move overheads for.
const RESERVE_MOVES: u32 = 150;
/// Deepest ply searched (main search and quiescence).
pub const MAX_PLY: usize = 96;
/// Quiescence plies at most below the main search's leaves.
const QS_MAX: usize = 12;
/// MaxN's quiescence: plies and captures per node.
const MAXN_QS_PLIES: usize = 3;
const MAXN_QS_WIDTH: usize = 4;

/// Which three-player search to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// The root player against a minimising coalition of the other two.
    Paranoid,
    /// Best-reply search: one opponent move between two of the root player's.
    Brs,
    /// Best-reply search with the other opponent playing its best-ordered move.
    BrsPlus,
    /// Each player maximises its own score.
    MaxN,
}

impl Algorithm {
    /// Every algorithm.
    pub const ALL: [Algorithm; 4] = [
        Algorithm::Paranoid,
        Algorithm::Brs,
        Algorithm::BrsPlus,
        Algorithm::MaxN,
    ];

    /// The option value: `paranoid`, `brs`, `brs+`, `maxn`.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::Paranoid => "paranoid",
            Algorithm::Brs => "brs",
            Algorithm::BrsPlus => "brs+",
            Algorithm::MaxN => "maxn",
        }
    }

    /// Reads [`Algorithm::name`] (case-insensitive).
    pub fn parse(text: &str) -> Option<Algorithm> {
        Algorithm::ALL
            .into_iter()
            .find(|a| a.name().eq_ignore_ascii_case(text.trim()))
    }

    fn key(self) -> u64 {
        // Distinct per algorithm: their scores mean different things.
        (self as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

/// The default algorithm: best-reply search, the strongest in the matches (see the
/// README: against two greedy agents it takes a king in 97 % of the games, paranoid in
/// 88 %; head to head it scores best).
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::Brs;

/// The default [`ThreeLimits::fallibility`]. Against one greedy and one random agent
/// (400,000 nodes a move, 180 games) jiang took a king in 92 % of the games instead of
/// 78 %; against two greedy agents in 97 % instead of 98 % (README).
pub const DEFAULT_FALLIBILITY: i32 = 3000;
/// The largest [`ThreeLimits::fallibility`] accepted (a bonus stays far below a king
/// capture's score).
pub const MAX_FALLIBILITY: i32 = 10_000;

/// What to search for. Deadlines run from the start of the search, or from the
/// ponder-hit when `control` starts pondering.
#[derive(Clone, Debug)]
pub struct ThreeLimits {
    /// Maximum depth (iterations).
    pub depth: Option<i32>,
    /// Maximum nodes.
    pub nodes: Option<u64>,
    /// No new iteration after this.
    pub soft: Option<Duration>,
    /// Stop at once after this.
    pub hard: Option<Duration>,
    /// Search until stopped (also past a found king capture or the depth limit).
    pub infinite: bool,
    /// Only these root moves (empty: all).
    pub search_moves: Vec<Move>,
    /// Which search.
    pub algorithm: Algorithm,
    /// The evaluation's weights.
    pub params: eval::Params,
    /// How much the root prefers moves that give opponents who do not play perfectly a
    /// chance to leave a king en prise: the centipawns of a certain king capture on the
    /// root player's next turn under the model of [`fallible_chances`] (0: the search's
    /// opponents only). Paranoid, BRS and BRS+; it only reorders moves the search does
    /// not see lose, and the reported score leaves it out.
    pub fallibility: i32,
}

impl Default for ThreeLimits {
    fn default() -> Self {
        ThreeLimits {
            depth: None,
            nodes: None,
            soft: None,
            hard: None,
            infinite: false,
            search_moves: Vec::new(),
            algorithm: DEFAULT_ALGORITHM,
            params: eval::DEFAULT_PARAMS,
            fallibility: DEFAULT_FALLIBILITY,
        }
    }
}

/// One progress report (after each iteration).
#[derive(Clone, Debug)]
pub struct ThreeInfo {
    /// Completed iteration depth.
    pub depth: i32,
    /// Deepest ply reached.
    pub seldepth: usize,
    /// Nodes searched.
    pub nodes: u64,
    /// Milliseconds since the start.
    pub time_ms: u64,
    /// Nodes per second.
    pub nps: u64,
    /// Score from the view of the player to move at the root (centipawns; at least
    /// [`WIN_BOUND`] in absolute value: it captures a king / loses its own).
    pub score: i32,
    /// The three players' scores at the end of the principal variation (blue, green,
    /// red), relative as in [`super::eval::relative`].
    pub scores: [i32; 3],
    /// Principal variation (its legal prefix, in turn order).
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Debug)]
pub struct ThreeResult {
    /// The move to play; `None` only when there is no legal move.
    pub best_move: Option<Move>,
    /// The expected next move (by the next player), if the PV has one.
    pub ponder_move: Option<Move>,
    /// Score of the best move from the mover's view.
    pub score: i32,
    /// The three players' scores at the end of the principal variation.
    pub scores: [i32; 3],
    /// Last completed depth.
    pub depth: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation (legal prefix).
    pub pv: Vec<Move>,
}

/// The budget of one move under the reference's whole-game clock (each player has
/// `remaining` for the rest of the game, no increment), after `plies_played` plies of
/// the game: (soft, hard). No new iteration starts after `soft`; the search stops at
/// `hard`, which never exceeds the 10 s cap of `settings` nor an eighth of what is left
/// above a reserve for 150 more moves.
pub fn time_budget(
    remaining: Duration,
    plies_played: usize,
    settings: &TimeSettings,
) -> (Duration, Duration) {
    let cap = hard_cap(settings);
    let overhead = settings.move_overhead;
    // Keep a reserve against lag: 2 % of the clock, plus enough for 150 more moves that
    // cost only their overhead, so that even a game far longer than usual, every move
    // using its whole hard budget, never runs out.
    let reserve = remaining / 50 + (overhead + Duration::from_millis(1)) * RESERVE_MOVES;
    let usable = remaining.saturating_sub(reserve);
    // Expected moves still to play: games against weak players end within about 40 of
    // our moves; never plan for fewer than 20 more, so that the clock decays slowly
    // (a long game still has time for a hundred more moves).
    let own_moves = (plies_played / 3) as u32;
    let moves_left = 40u32.saturating_sub(own_moves / 2).max(20);
    let soft = usable / moves_left;
    let hard = (soft * 3).min(usable / 8).min(cap);
    let soft = soft.min(hard);
    let floor = Duration::from_millis(1);
    (soft.max(floor), hard.max(floor))
}

/// The transposition-table key of a position searched for player `root` by `algorithm`
/// (scores depend on both).
pub fn tt_key(b: &Board, root: Player, algorithm: Algorithm) -> u64 {
    b.key() ^ zobrist::ROOT[root.index()] ^ algorithm.key()
}

/// Runs a search on `pos` for the player to move and returns its best move.
/// `on_info` receives a report after each iteration. Blocks until the search ends
/// (limits reached or `control.stop()`), and, for infinite or ponder searches, until
/// stopped.
pub fn search(
    pos: &Board,
    limits: &ThreeLimits,
    tt: &TranspositionTable,
    control: &SearchControl,
    on_info: &dyn Fn(&ThreeInfo),
) -> ThreeResult {
    tt.new_search();
    let root = pos.side_to_move();
    let mut b = pos.clone();
    b.reserve(MAX_PLY + 8);
    let mut s = Searcher {
        b,
        root,
        algo: limits.algorithm,
        tt,
        control,
        limits,
        key_mix: tt_key(pos, root, limits.algorithm) ^ pos.key(),
        nodes: 0,
        seldepth: 0,
        stopped: false,
        clock_base: if control.pondering() { None } else { Some(0) },
        killers: [[Move::FILLER; 2]; MAX_PLY + 2],
        history: Box::new([[0; 96]; 18]),
        pv: Box::new([[Move::FILLER; MAX_PLY + 1]; MAX_PLY + 1]),
        pv_len: [0; MAX_PLY + 1],
        stand_ins: 0,
    };
    s.run(on_info)
}

struct Searcher<'a> {
    b: Board,
    root: Player,
    algo: Algorithm,
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    limits: &'a ThreeLimits,
    key_mix: u64,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    /// Milliseconds (of `control`'s clock) at which our budget started; `None` while
    /// pondering.
    clock_base: Option<u64>,
    killers: [[Move; 2]; MAX_PLY + 2],
    history: Box<[[i32; 96]; 18]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 1],
    /// BRS and BRS+: how many turns in the current line an opponent did not choose
    /// (passed, or in BRS+ played its best-ordered move). While any has, an opponent
    /// taking the other opponent's king is not searched: that opponent spent those turns
    /// standing still, not defending its king as it would in the game (without this rule
    /// BRS finds from the start that one opponent marches to the other's king and
    /// rates every move as lost to [`eval::OTHER_CAPTURE`]).
    stand_ins: u32,
}

/// A root move with the score of its last search (bonus included).
#[derive(Clone, Copy)]
struct RootMove {
    mv: Move,
    score: i32,
    /// The fallible-opponent bonus (added to every non-decisive score of the move).
    bonus: i32,
}

/// How a short stretch of play ends, as chances (see [`fallible_chances`]).
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Chances {
    /// `root` can take a king.
    pub win: f64,
    /// `root`'s king was taken.
    pub loss: f64,
    /// One opponent took the other's king.
    pub other: f64,
}

/// How greedy each player has been in the game so far (`b`'s history): of its moves
/// when it had a capture, the share that took a most valuable target, with a prior of
/// one such move in two (0.5 before any evidence). The reference's greedy agent comes
/// out near 1, its random agent near 0.1, and a searching engine low too (jiang about
/// 0.3: it takes only what is safe to take), so greed alone does not tell an engine from
/// a random mover.
pub fn observed_greed(b: &Board) -> [f64; 3] {
    let moves: Vec<Move> = b.history().collect();
    let mut replay = b.clone();
    for _ in &moves {
        replay.unmake_move();
    }
    let (mut hits, mut chances) = ([0u32; 3], [0u32; 3]);
    for &m in &moves {
        let mover = replay.side_to_move().index();
        let best = replay
            .legal_moves_list()
            .iter()
            .map(|r| capture_value(&replay, r.to()))
            .max()
            .unwrap_or(0);
        if best > 0 {
            chances[mover] += 1;
            hits[mover] += u32::from(capture_value(&replay, m.to()) == best);
        }
        replay.make_move(m);
    }
    std::array::from_fn(|p| f64::from(hits[p] + 1) / f64::from(chances[p] + 2))
}

/// The chances after the next `plies` moves of `root`'s opponents (from `b`, an opponent
/// to move) that `root`'s king was taken, that one opponent took the other's, or, the
/// game going on, that `root` can take a king. The model of
/// [`ThreeLimits::fallibility`]: an opponent takes `root`'s king whenever it can (the
/// safe assumption); otherwise, with probability `greed[opponent]` (see
/// [`observed_greed`]), it plays a capture of its most valuable target, the other king
/// included (as the reference's greedy agent), and else a uniformly random legal move
/// (as its random agent). `b` is restored.
pub fn fallible_chances(b: &mut Board, root: Player, plies: u32, greed_all: &[f64; 3]) -> Chances {
    let mover = b.side_to_move();
    if plies == 0 || mover == root {
        let can_take =
            b.king_attacked_by(root.next(), root) || b.king_attacked_by(root.prev(), root);
        if can_take {
            return Chances {
                win: 1.0,
                ..Chances::default()
            };
        }
        return Chances {
            other: next_round_risk(b, root, greed_all),
            ..Chances::default()
        };
    }
    let third = if mover.next() == root {
        mover.prev()
    } else {
        mover.next()
    };
    if b.king_attacked_by(root, mover) {
        return Chances {
            loss: 1.0,
            ..Chances::default()
        };
    }
    let list = b.legal_moves_list();
    let greed = greed_all[mover.index()].clamp(0.0, 1.0);
    if b.king_attacked_by(third, mover) {
        // The greedy part takes it; the random part only if it happens to pick it.
        let king = b.king(third);
        let takes = list.iter().filter(|r| Some(r.to()) == king).count();
        let random_takes = takes as f64 / list.len().max(1) as f64;
        let other = greed + (1.0 - greed) * random_takes;
        if other >= 1.0 {
            return Chances {
                other: 1.0,
                ..Chances::default()
            };
        }
        // The rest of the time: a random move that leaves the king.
        let mut rest = Chances::default();
        for &reply in list.iter().filter(|r| Some(r.to()) != king) {
            b.make_move(reply);
            rest.add(fallible_chances(b, root, plies - 1, greed_all));
            b.unmake_move();
        }
        let mut c = rest.scaled((1.0 - other) / (list.len() - takes).max(1) as f64);
        c.other += other;
        return c;
    }
    // A capture of the most valuable piece (when there is one) with probability `greed`,
    // else a uniformly random move, as the reference's greedy and random agents.
    let mut uniform = Chances::default();
    let mut greedy = Chances::default();
    let (mut greedy_value, mut greedy_count) = (0, 0u32);
    for &reply in list.iter() {
        let victim = capture_value(b, reply.to());
        b.make_move(reply);
        // No king is taken here (those moves were handled above): the game goes on.
        let c = fallible_chances(b, root, plies - 1, greed_all);
        b.unmake_move();
        uniform.add(c);
        if victim > greedy_value {
            (greedy, greedy_value, greedy_count) = (Chances::default(), victim, 0);
        }
        if victim == greedy_value && victim > 0 {
            greedy.add(c);
            greedy_count += 1;
        }
    }
    let uniform = uniform.scaled(1.0 / list.len().max(1) as f64);
    if greedy_count == 0 {
        return uniform;
    }
    let greedy = greedy.scaled(1.0 / f64::from(greedy_count));
    let mut mix = uniform.scaled(1.0 - greed);
    mix.add(greedy.scaled(greed));
    mix
}

/// The reference value (P 1 … K 40) of what a move to `sq` would capture (0: nothing).
fn capture_value(b: &Board, sq: Square) -> i32 {
    b.piece_at(sq).map_or(0, |p| p.kind().reference_value())
}

/// At `root`'s turn, with no king for `root` to take: the chance that one opponent takes
/// the other's king in the coming round because one already attacks it and no move of
/// `root`'s removes every such attack (the next opponent to move takes with its greed;
/// the last one, whose victim moves first and rarely escapes at random, likewise).
fn next_round_risk(b: &mut Board, root: Player, greed: &[f64; 3]) -> f64 {
    let (next, last) = (root.next(), root.prev());
    let threats = |b: &Board| {
        (
            b.king_attacked_by(last, next),
            b.king_attacked_by(next, last),
        )
    };
    let (next_threat, last_threat) = threats(b);
    if !next_threat && !last_threat {
        return 0.0;
    }
    for &m in b.legal_moves_list().iter() {
        b.make_move(m);
        let defused = threats(b) == (false, false);
        b.unmake_move();
        if defused {
            return 0.0;
        }
    }
    let greed_of = |p: Player| greed[p.index()].clamp(0.0, 1.0);
    let from_next = if next_threat { greed_of(next) } else { 0.0 };
    let from_last = if last_threat { greed_of(last) } else { 0.0 };
    from_next.max(from_last)
}

impl Chances {
    fn add(&mut self, c: Chances) {
        self.win += c.win;
        self.loss += c.loss;
        self.other += c.other;
    }

    fn scaled(self, k: f64) -> Chances {
        Chances {
            win: self.win * k,
            loss: self.loss * k,
            other: self.other * k,
        }
    }
}

impl Searcher<'_> {
    // ----- control -------------------------------------------------------------------

    /// Whether to stop now: polled every 256 nodes (a millisecond or two at most), and
    /// every 16 during the first 4096, which can be slow while a fresh hash table is
    /// faulted in (the self-play soak saw a `go movetime 50` answer after 270 ms).
    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes & 255 == 0 || (self.nodes < 4096 && self.nodes & 15 == 0) {
            self.poll();
        }
        self.stopped
    }

    fn poll(&mut self) {
        if self.control.stopped() {
            self.stopped = true;
            return;
        }
        if self.limits.nodes.is_some_and(|n| self.nodes >= n) {
            self.stopped = true;
            return;
        }
        let now = self.control.elapsed_ms();
        match self.clock_base {
            None => {
                if !self.control.pondering() {
                    self.clock_base = Some(now);
                }
            }
            Some(base) => {
                if let Some(hard) = self.limits.hard {
                    if now.saturating_sub(base) >= hard.as_millis() as u64 {
                        self.stopped = true;
                    }
                }
            }
        }
    }

    /// Milliseconds of our budget used (0 while pondering).
    fn used_ms(&self) -> u64 {
        match self.clock_base {
            Some(base) => self.control.elapsed_ms().saturating_sub(base),
            None => 0,
        }
    }

    // ----- iterative deepening -------------------------------------------------------

    fn run(&mut self, on_info: &dyn Fn(&ThreeInfo)) -> ThreeResult {
        let mut root_moves: Vec<RootMove> = self
            .b
            .legal_moves_list()
            .iter()
            .filter(|m| self.limits.search_moves.is_empty() || self.limits.search_moves.contains(m))
            .map(|&mv| RootMove {
                mv,
                score: -INF,
                bonus: 0,
            })
            .collect();
        let mut result = ThreeResult {
            best_move: root_moves.first().map(|r| r.mv),
            ponder_move: None,
            score: 0,
            scores: eval::views_with(&self.b, &self.limits.params),
            depth: 0,
            nodes: 0,
            pv: Vec::new(),
        };
        if root_moves.is_empty() {
            self.wait_if_infinite();
            return result;
        }
        if self.limits.fallibility != 0 && self.algo != Algorithm::MaxN {
            let greed = observed_greed(&self.b);
            log::debug!("threechess observed greed {greed:.2?}");
            for root_move in &mut root_moves {
                root_move.bonus = self.fallible_bonus(root_move.mv, &greed);
            }
        }
        // Order the first iteration by captures first.
        let first_order = |m: &RootMove| -self.order_score(m.mv, None, 0);
        root_moves.sort_by_key(first_order);
        let max_depth = self
            .limits
            .depth
            .unwrap_or(MAX_PLY as i32 - QS_MAX as i32 - 4);
        let max_depth = max_depth.clamp(1, MAX_PLY as i32 - QS_MAX as i32 - 4);
        for depth in 1..=max_depth {
            self.seldepth = 0;
            let searched = self.search_root(depth, &mut root_moves);
            if searched == 0 {
                break;
            }
            // A stopped iteration still counts for the moves it finished: its best of
            // them beat the last iteration's best (which was searched first).
            let completed = searched == root_moves.len();
            let best = root_moves[0];
            // Report the search's score: the bonus only chose among the moves.
            let score = if best.score.abs() < WIN_BOUND {
                best.score - best.bonus
            } else {
                best.score
            };
            let full_pv: Vec<Move> = self.pv[0][..self.pv_len[0]].to_vec();
            if log::log_enabled!(log::Level::Debug) {
                let line: Vec<String> = full_pv.iter().map(|m| m.to_string()).collect();
                log::debug!(
                    "threechess depth {depth} line with passes: {}",
                    line.join(" ")
                );
            }
            let (pv, scores) = self.report_line(&full_pv);
            result = ThreeResult {
                best_move: Some(best.mv),
                ponder_move: pv.get(1).copied(),
                score,
                scores,
                depth: if completed { depth } else { depth - 1 },
                nodes: self.nodes,
                pv: pv.clone(),
            };
            if !completed {
                break;
            }
            let time_ms = self.control.elapsed_ms();
            on_info(&ThreeInfo {
                depth,
                seldepth: self.seldepth,
                nodes: self.nodes,
                time_ms,
                nps: self.nodes * 1000 / time_ms.max(1),
                score,
                scores,
                pv,
            });
            if self.stopped {
                break;
            }
            let decided = best.score.abs() >= WIN_BOUND;
            if !self.limits.infinite && !self.control.pondering() {
                if decided && depth >= 2 {
                    break;
                }
                if let Some(soft) = self.limits.soft {
                    // The next iteration takes a few times as long as this one.
                    if self.used_ms() > soft.as_millis() as u64 / 2 {
                        break;
                    }
                }
                if root_moves.len() == 1 && self.limits.soft.is_some() && depth >= 2 {
                    break;
                }
            }
        }
        result.nodes = self.nodes;
        // The root's best move for `probe` and the next search (no bound: an interrupted
        // iteration's score proves nothing).
        if let (Some(m), true) = (result.best_move, result.depth > 0) {
            let key = self.tt_key();
            self.tt
                .store(key, 0, m.code(), result.score, 0, result.depth, Bound::None);
        }
        self.wait_if_infinite();
        result
    }

    /// Infinite and ponder searches answer only when stopped.
    fn wait_if_infinite(&mut self) {
        while (self.limits.infinite || self.control.pondering()) && !self.control.stopped() {
            std::thread::sleep(Duration::from_millis(1));
        }
    }

    /// Searches every root move at `depth`, the best so far brought to the front.
    /// Returns how many moves were searched completely (all of them unless stopped).
    fn search_root(&mut self, depth: i32, root_moves: &mut [RootMove]) -> usize {
        let mut alpha = -INF;
        let beta = INF;
        let mut searched = 0;
        let mut best_pv: Vec<Move> = Vec::new();
        for i in 0..root_moves.len() {
            let m = root_moves[i].mv;
            let value = match self.algo {
                Algorithm::MaxN => {
                    self.b.make_move(m);
                    let v = self.maxn(depth - 1, 1);
                    self.b.unmake_move();
                    v[self.root.index()]
                }
                _ => {
                    let bonus = root_moves[i].bonus;
                    let a = alpha.saturating_sub(bonus).max(-INF);
                    self.b.make_move(m);
                    let v = if i == 0 {
                        self.ab(depth - 1, 1, a, beta, true)
                    } else {
                        let v = self.ab(depth - 1, 1, a, a + 1, false);
                        if v > a && !self.stopped {
                            self.ab(depth - 1, 1, a, beta, true)
                        } else {
                            v
                        }
                    };
                    self.b.unmake_move();
                    if v.abs() < WIN_BOUND {
                        (v + bonus).clamp(-WIN_BOUND + 1, WIN_BOUND - 1)
                    } else {
                        v
                    }
                }
            };
            if self.stopped {
                break;
            }
            searched += 1;
            let improved = i == 0 || value > alpha;
            root_moves[i].score = if improved { value } else { -INF };
            if improved {
                alpha = value;
                best_pv.clear();
                best_pv.push(m);
                best_pv.extend_from_slice(&self.pv[1][..self.pv_len[1]]);
                // Bring the new best to the front, keeping the order of the others.
                root_moves[..=i].rotate_right(1);
            }
        }
        self.pv_len[0] = best_pv.len().min(MAX_PLY);
        self.pv[0][..self.pv_len[0]].copy_from_slice(&best_pv[..self.pv_len[0]]);
        searched
    }

    // ----- fallible opponents --------------------------------------------------------

    /// The root bonus of move `m` for opponents that are not perfect (see
    /// [`ThreeLimits::fallibility`]): the weight times (the chance that the root player
    /// can take a king after the opponents' next moves − the chance its own king was
    /// taken − the chance one opponent took the other's, which ends the game without
    /// our win), by [`fallible_chances`].
    fn fallible_bonus(&mut self, m: Move, greed: &[f64; 3]) -> i32 {
        self.b.make_move(m);
        let chances = if self.b.status() == Status::Ongoing {
            fallible_chances(&mut self.b, self.root, 2, greed)
        } else {
            Chances::default()
        };
        self.b.unmake_move();
        let weight = f64::from(self.limits.fallibility.clamp(0, MAX_FALLIBILITY));
        (weight * (chances.win - chances.loss - chances.other)).round() as i32
    }

    /// The reportable line (the legal prefix of the PV in turn order) and the three
    /// scores at the end of the full PV.
    fn report_line(&self, full_pv: &[Move]) -> (Vec<Move>, [i32; 3]) {
        let mut b = self.b.clone();
        let mut legal_prefix = Vec::new();
        let mut legal = true;
        for &m in full_pv {
            let Some(owner) = b.piece_at(m.from()).map(|p| p.player()) else {
                break;
            };
            if owner != b.side_to_move() {
                legal = false;
                b.set_side_to_move(owner);
            }
            if !b.is_legal(m) {
                break;
            }
            b.make_move(m);
            if legal {
                legal_prefix.push(m);
            }
        }
        // In BRS the other opponent passes after an opponent's move: the line's last
        // position has the root player to move, as the search evaluated it.
        let last_mover = b
            .last_move()
            .and_then(|m| b.piece_at(m.to()))
            .map(|p| p.player());
        if self.algo == Algorithm::Brs
            && b.status() == Status::Ongoing
            && last_mover.is_some_and(|p| p != self.root)
        {
            b.set_side_to_move(self.root);
        }
        let scores = match b.status() {
            Status::KingCaptured { capturer, victim } => {
                let mut v = [eval::OTHER_CAPTURE; 3];
                v[capturer.index()] = WIN - full_pv.len() as i32;
                v[victim.index()] = -(WIN - full_pv.len() as i32);
                v
            }
            Status::Ongoing => eval::views_with(&b, &self.limits.params),
        };
        (legal_prefix, scores)
    }

    // ----- move ordering -------------------------------------------------------------

    /// Ordering score: TT move, captures (most valuable victim, then least valuable
    /// attacker), promotions, killers, then history.
    #[inline]
    fn order_score(&self, m: Move, tt_move: Option<Move>, ply: usize) -> i32 {
        if Some(m) == tt_move {
            return 1 << 30;
        }
        let Some(piece) = self.b.piece_at(m.from()) else {
            return i32::MIN;
        };
        if let Some(victim) = self.b.piece_at(m.to()) {
            return (1 << 24) + ORDER_VALUES[victim.kind().index()] * 64
                - ORDER_VALUES[piece.kind().index()] / 16;
        }
        if piece.kind() == super::types::Kind::Pawn
            && m.to().rank() == 0
            && m.to().section() != piece.player()
        {
            return 1 << 23;
        }
        if ply < MAX_PLY {
            if self.killers[ply][0] == m {
                return 1 << 22;
            }
            if self.killers[ply][1] == m {
                return (1 << 22) - 1;
            }
        }
        self.history[piece.index()][m.to().index()]
    }

    fn score_moves(
        &self,
        list: &MoveList<Move>,
        scores: &mut [i32; MAX_MOVES],
        tt: Option<Move>,
        ply: usize,
    ) {
        for (i, &m) in list.iter().enumerate() {
            scores[i] = self.order_score(m, tt, ply);
        }
    }

    /// Moves the best-scored remaining move to index `i` and returns it.
    #[inline]
    fn pick(list: &mut MoveList<Move>, scores: &mut [i32; MAX_MOVES], i: usize) -> Move {
        let moves = list.as_mut_slice();
        let mut best = i;
        for j in i + 1..moves.len() {
            if scores[j] > scores[best] {
                best = j;
            }
        }
        moves.swap(i, best);
        scores.swap(i, best);
        moves[i]
    }

    fn reward_quiet(&mut self, m: Move, depth: i32, ply: usize) {
        let Some(piece) = self.b.piece_at(m.from()) else {
            return;
        };
        if self.b.piece_at(m.to()).is_some() {
            return;
        }
        if ply < MAX_PLY && self.killers[ply][0] != m {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = m;
        }
        let h = &mut self.history[piece.index()][m.to().index()];
        let bonus = (depth * depth).min(400);
        *h += bonus - *h * bonus / 16384;
    }

    /// The move the ordering puts first for the player to move (BRS+'s non-searching
    /// opponent): its best capture, else its best quiet move by history.
    fn ordered_move(&self, ply: usize) -> Option<Move> {
        let list = self.b.legal_moves_list();
        list.iter()
            .copied()
            .max_by_key(|&m| self.order_score(m, None, ply))
    }

    // ----- paranoid and best-reply alpha-beta ----------------------------------------

    /// The score of a finished game from the root player's view, or `None`.
    #[inline]
    fn terminal(&self, ply: usize) -> Option<i32> {
        match self.b.status() {
            Status::KingCaptured { capturer, victim } => Some(if capturer == self.root {
                WIN - ply as i32
            } else if victim == self.root {
                -(WIN - ply as i32)
            } else {
                eval::OTHER_CAPTURE
            }),
            Status::Ongoing if self.b.finished() => Some(0),
            Status::Ongoing => None,
        }
    }

    /// Value of a player having no legal move (it scores −2, the others +1).
    fn no_moves_value(&self, mover: Player, ply: usize) -> i32 {
        if mover == self.root {
            -(WIN - ply as i32)
        } else {
            (WIN - ply as i32) / 2
        }
    }

    #[inline]
    fn static_eval(&self) -> i32 {
        eval::view_with(&self.b, self.root, &self.limits.params)
    }

    fn tt_key(&self) -> u64 {
        self.b.key() ^ self.key_mix
    }

    /// Alpha-beta in max/min form, scores from the root player's view. Paranoid: every
    /// ply is the real next player. BRS/BRS+: a ply of the root player, then a layer in
    /// which one opponent moves (see the module documentation).
    fn ab(&mut self, depth: i32, ply: usize, mut alpha: i32, mut beta: i32, pv_node: bool) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal(ply) {
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY - QS_MAX - 1 {
            return self.quiesce(ply, alpha, beta, 0);
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let key = self.tt_key();
        let mut tt_move = None;
        if let Some(e) = self.tt.probe(key, ply) {
            tt_move = Move::from_code(e.mv);
            if !pv_node && e.depth >= depth && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let side = self.b.side_to_move();
        let maximizing = side == self.root;
        let (alpha0, beta0) = (alpha, beta);
        let (best, best_move) = if maximizing || self.algo == Algorithm::Paranoid {
            self.ply_of(side, depth, ply, &mut alpha, &mut beta, pv_node, tt_move)
        } else {
            self.opponents_layer(depth, ply, &mut alpha, &mut beta, pv_node, tt_move)
        };
        if self.stopped {
            return best;
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta0 {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let code = best_move.map_or(0, |m| m.code());
        self.tt.store(key, ply, code, best, 0, depth, bound);
        best
    }

    /// One ply of the player to move (the root player, or in paranoid any player).
    #[allow(clippy::too_many_arguments)]
    fn ply_of(
        &mut self,
        side: Player,
        depth: i32,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
        pv_node: bool,
        tt_move: Option<Move>,
    ) -> (i32, Option<Move>) {
        let maximizing = side == self.root;
        let mut list = MoveList::new();
        self.b.generate(Gen::All, &mut list);
        if list.is_empty() {
            return (self.no_moves_value(side, ply), None);
        }
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&list, &mut scores, tt_move, ply);
        let mut best = if maximizing { -INF } else { INF };
        let mut best_move = None;
        let (mut searched, mut skipped) = (0, 0);
        // Opponents do not hang their own king (unless every move does): a coalition
        // member giving its king away would be the paranoid assumption gone absurd.
        for pass in 0..2 {
            for i in 0..list.len() {
                let m = Self::pick(&mut list, &mut scores, i);
                let quiet = self.b.piece_at(m.to()).is_none();
                let reduce = i32::from(
                    depth >= 3 && searched >= 4 && quiet && !pv_node && scores[i] < (1 << 22) - 1,
                );
                self.b.make_move(m);
                if pass == 0 && !maximizing && self.hangs_own_king(side) {
                    self.b.unmake_move();
                    skipped += 1;
                    continue;
                }
                let v = self.child(
                    depth - 1,
                    ply,
                    *alpha,
                    *beta,
                    maximizing,
                    searched == 0,
                    reduce,
                    pv_node,
                );
                self.b.unmake_move();
                searched += 1;
                if self.stopped {
                    return (best, best_move);
                }
                if self.improves(v, best, maximizing) {
                    best = v;
                    best_move = Some(m);
                    self.update_pv(ply, m);
                    if maximizing {
                        *alpha = (*alpha).max(v);
                    } else {
                        *beta = (*beta).min(v);
                    }
                    if alpha >= beta {
                        self.reward_quiet(m, depth, ply);
                        return (best, best_move);
                    }
                }
            }
            if searched > 0 || skipped == 0 {
                break;
            }
        }
        (best, best_move)
    }

    /// The opponents' layer of BRS and BRS+: the minimum over the moves of both
    /// opponents, each played with the other passing (BRS) or playing its best-ordered
    /// move in turn (BRS+).
    #[allow(clippy::too_many_arguments)]
    fn opponents_layer(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
        pv_node: bool,
        tt_move: Option<Move>,
    ) -> (i32, Option<Move>) {
        let first = self.root.next();
        let second = self.root.prev();
        debug_assert_eq!(self.b.side_to_move(), first);
        let mut best = INF;
        let mut best_move = None;
        let mut searched = 0;
        for who in [first, second] {
            // Set up the second opponent's turn: the first passes, or (BRS+) plays its
            // best-ordered move.
            let mut setup_move = None;
            if who == second {
                if self.algo == Algorithm::BrsPlus {
                    setup_move = self.ordered_move(ply);
                }
                self.stand_ins += 1;
                match setup_move {
                    Some(m) => {
                        self.b.make_move(m);
                        if let Some(v) = self.terminal(ply + 1) {
                            // The first opponent's forced move ended the game.
                            self.b.unmake_move();
                            self.stand_ins -= 1;
                            if v < best {
                                best = v;
                                best_move = setup_move;
                                self.pv_len[ply] = 0;
                                self.update_pv(ply, setup_move.unwrap_or(Move::FILLER));
                            }
                            *beta = (*beta).min(best);
                            if *alpha >= *beta {
                                break;
                            }
                            continue;
                        }
                    }
                    None => self.b.set_side_to_move(second),
                }
            }
            let mut list = MoveList::new();
            self.b.generate(Gen::All, &mut list);
            let mut scores = [0i32; MAX_MOVES];
            self.score_moves(&list, &mut scores, tt_move, ply);
            let (mut searched_here, mut skipped) = (0, 0);
            'passes: for pass in 0..2 {
                for i in 0..list.len() {
                    let m = Self::pick(&mut list, &mut scores, i);
                    let quiet = self.b.piece_at(m.to()).is_none();
                    let reduce = i32::from(
                        depth >= 3
                            && searched >= 4
                            && quiet
                            && !pv_node
                            && scores[i] < (1 << 22) - 1,
                    );
                    self.b.make_move(m);
                    if self.takes_standing_kings_king() {
                        self.b.unmake_move();
                        continue;
                    }
                    // Opponents do not hang their own king (unless every move does).
                    if pass == 0 && self.hangs_own_king(who) {
                        self.b.unmake_move();
                        skipped += 1;
                        continue;
                    }
                    // After the first opponent's move the second passes, or (BRS+) plays
                    // its best-ordered move.
                    let mut follow = None;
                    if who == first && self.b.status() == Status::Ongoing {
                        if self.algo == Algorithm::BrsPlus {
                            follow = self.ordered_move(ply + 1);
                        }
                        match follow {
                            Some(f) => self.b.make_move(f),
                            None => self.b.set_side_to_move(self.root),
                        }
                        self.stand_ins += 1;
                    }
                    let stood_in = who == first && self.b.status() == Status::Ongoing;
                    let v = self.child(
                        depth - 1,
                        ply,
                        *alpha,
                        *beta,
                        false,
                        searched == 0,
                        reduce,
                        pv_node,
                    );
                    if follow.is_some() {
                        self.b.unmake_move();
                    }
                    if stood_in {
                        self.stand_ins -= 1;
                    }
                    // Unmake restores the player to move (and the key) after a pass too.
                    self.b.unmake_move();
                    searched += 1;
                    searched_here += 1;
                    if self.stopped {
                        break 'passes;
                    }
                    if v < best {
                        best = v;
                        best_move = Some(m);
                        let lead = match (setup_move, follow) {
                            (Some(s), _) => [Some(s), Some(m)],
                            (None, Some(f)) => [Some(m), Some(f)],
                            (None, None) => [Some(m), None],
                        };
                        self.set_pv(ply, &lead, ply + 1);
                        *beta = (*beta).min(v);
                        if *alpha >= *beta {
                            self.reward_quiet(m, depth, ply);
                            break 'passes;
                        }
                    }
                }
                if searched_here > 0 || skipped == 0 {
                    break;
                }
            }
            // Undo the set-up.
            if who == second {
                match setup_move {
                    Some(_) => self.b.unmake_move(),
                    None => self.b.set_side_to_move(first),
                }
                self.stand_ins -= 1;
            }
            if self.stopped || *alpha >= *beta {
                break;
            }
        }
        if searched == 0 && best == INF {
            if self.b.legal_moves_list().is_empty() {
                return (self.no_moves_value(first, ply), None);
            }
            // Every move was a king capture the stand-in rule leaves out.
            return (self.static_eval(), None);
        }
        (best, best_move)
    }

    /// BRS/BRS+: whether the move just made took the king of an opponent of the root
    /// player while some opponent's turn in the line was stood in for (see
    /// `stand_ins`).
    #[inline]
    fn takes_standing_kings_king(&self) -> bool {
        self.stand_ins > 0
            && matches!(self.b.status(), Status::KingCaptured { capturer, victim }
                if capturer != self.root && victim != self.root)
    }

    /// Whether the move just made by `mover` left its own king attacked (and the game
    /// goes on).
    #[inline]
    fn hangs_own_king(&self, mover: Player) -> bool {
        self.b.status() == Status::Ongoing && self.b.king_attacked(mover)
    }

    #[inline]
    fn improves(&self, v: i32, best: i32, maximizing: bool) -> bool {
        if maximizing {
            v > best
        } else {
            v < best
        }
    }

    /// Searches the current position as a child of a node at `ply`, with principal
    /// variation search (null window for all but the first move) and an optional
    /// reduction re-searched when it fails the right way.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn child(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
        parent_maximizing: bool,
        first: bool,
        reduce: i32,
        pv_node: bool,
    ) -> i32 {
        if first {
            return self.ab(depth, ply + 1, alpha, beta, pv_node);
        }
        // Null window on the side of the parent's bound.
        let (na, nb) = if parent_maximizing {
            (alpha, alpha + 1)
        } else {
            (beta - 1, beta)
        };
        let fails_right = |v: i32| {
            if parent_maximizing {
                v > alpha
            } else {
                v < beta
            }
        };
        let mut v = self.ab(depth - reduce, ply + 1, na, nb, false);
        if reduce > 0 && fails_right(v) && !self.stopped {
            v = self.ab(depth, ply + 1, na, nb, false);
        }
        if pv_node && fails_right(v) && v > alpha && v < beta && !self.stopped {
            v = self.ab(depth, ply + 1, alpha, beta, true);
        }
        v
    }

    fn update_pv(&mut self, ply: usize, m: Move) {
        self.set_pv(ply, &[Some(m), None], ply + 1);
    }

    /// PV at `ply` = `lead` moves, then the PV of `child_ply`.
    fn set_pv(&mut self, ply: usize, lead: &[Option<Move>; 2], child_ply: usize) {
        let mut n = 0;
        for m in lead.iter().flatten() {
            self.pv[ply][n] = *m;
            n += 1;
        }
        let child_len = if child_ply <= MAX_PLY {
            self.pv_len[child_ply]
        } else {
            0
        };
        for k in 0..child_len {
            if n >= MAX_PLY {
                break;
            }
            self.pv[ply][n] = self.pv[child_ply][k];
            n += 1;
        }
        self.pv_len[ply] = n;
    }

    /// Quiescence: captures only, every player may stand pat (take the static score).
    /// In BRS/BRS+ the opponents' layer holds both opponents' captures.
    fn quiesce(&mut self, ply: usize, mut alpha: i32, mut beta: i32, qply: usize) -> i32 {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal(ply) {
            return v;
        }
        self.nodes += 1;
        if self.should_stop() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stand = self.static_eval();
        if qply >= QS_MAX || ply >= MAX_PLY - 1 {
            return stand;
        }
        let side = self.b.side_to_move();
        let maximizing = side == self.root;
        if maximizing {
            if stand >= beta {
                return stand;
            }
            alpha = alpha.max(stand);
        } else {
            if stand <= alpha {
                return stand;
            }
            beta = beta.min(stand);
        }
        let mut best = stand;
        let movers: &[Player] = if maximizing || self.algo == Algorithm::Paranoid {
            &[side][..]
        } else {
            &[self.root.next(), self.root.prev()][..]
        };
        let movers: [Option<Player>; 2] = [movers.first().copied(), movers.get(1).copied()];
        for who in movers.into_iter().flatten() {
            let passing = who != side;
            if passing {
                self.b.set_side_to_move(who);
                self.stand_ins += 1;
            }
            let mut list = MoveList::new();
            self.b.generate(Gen::Captures, &mut list);
            let mut scores = [0i32; MAX_MOVES];
            self.score_moves(&list, &mut scores, None, ply);
            for i in 0..list.len() {
                let m = Self::pick(&mut list, &mut scores, i);
                self.b.make_move(m);
                if self.takes_standing_kings_king() {
                    self.b.unmake_move();
                    continue;
                }
                // In the opponents' layer of BRS the other opponent passes.
                let skip = !maximizing
                    && self.algo != Algorithm::Paranoid
                    && self.b.side_to_move() != self.root
                    && self.b.status() == Status::Ongoing;
                if skip {
                    self.b.set_side_to_move(self.root);
                    self.stand_ins += 1;
                }
                let v = self.quiesce(ply + 1, alpha, beta, qply + 1);
                if skip {
                    self.stand_ins -= 1;
                }
                self.b.unmake_move();
                if self.stopped {
                    break;
                }
                if self.improves(v, best, maximizing) {
                    best = v;
                    self.update_pv(ply, m);
                    if maximizing {
                        alpha = alpha.max(v);
                    } else {
                        beta = beta.min(v);
                    }
                    if alpha >= beta {
                        break;
                    }
                }
            }
            if passing {
                self.b.set_side_to_move(side);
                self.stand_ins -= 1;
            }
            if self.stopped || alpha >= beta {
                break;
            }
        }
        best
    }

    // ----- MaxN ----------------------------------------------------------------------

    /// The score vector of a finished game, or `None`.
    fn terminal_vector(&self, ply: usize) -> Option<[i32; 3]> {
        match self.b.status() {
            Status::KingCaptured { capturer, victim } => {
                let mut v = [eval::OTHER_CAPTURE; 3];
                v[capturer.index()] = WIN - ply as i32;
                v[victim.index()] = -(WIN - ply as i32);
                Some(v)
            }
            Status::Ongoing if self.b.finished() => Some([0; 3]),
            Status::Ongoing => None,
        }
    }

    /// MaxN: the player to move picks the child best for itself (ties: the one worst
    /// for the root player).
    fn maxn(&mut self, depth: i32, ply: usize) -> [i32; 3] {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal_vector(ply) {
            return v;
        }
        if depth <= 0 || ply >= MAX_PLY - QS_MAX - 1 {
            return self.maxn_quiesce(ply, 0);
        }
        self.nodes += 1;
        if self.should_stop() {
            return [0; 3];
        }
        self.seldepth = self.seldepth.max(ply);
        let key = self.tt_key();
        let tt_move = self.tt.probe(key, ply).and_then(|e| Move::from_code(e.mv));
        let side = self.b.side_to_move();
        let mut list = MoveList::new();
        self.b.generate(Gen::All, &mut list);
        if list.is_empty() {
            let mut v = [(WIN - ply as i32) / 2; 3];
            v[side.index()] = -(WIN - ply as i32);
            return v;
        }
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&list, &mut scores, tt_move, ply);
        let mut best: Option<[i32; 3]> = None;
        let mut best_move = None;
        let (me, root) = (side.index(), self.root.index());
        for i in 0..list.len() {
            let m = Self::pick(&mut list, &mut scores, i);
            self.b.make_move(m);
            let v = self.maxn(depth - 1, ply + 1);
            self.b.unmake_move();
            if self.stopped {
                break;
            }
            let better = match best {
                None => true,
                Some(b) => v[me] > b[me] || (v[me] == b[me] && v[root] < b[root]),
            };
            if better {
                best = Some(v);
                best_move = Some(m);
                self.update_pv(ply, m);
                // Shallow pruning: nothing beats winning outright.
                if v[me] >= WIN_BOUND {
                    self.reward_quiet(m, depth, ply);
                    break;
                }
            }
        }
        let best = best.unwrap_or([0; 3]);
        if !self.stopped {
            let code = best_move.map_or(0, |m| m.code());
            self.tt.store(key, ply, code, 0, 0, depth, Bound::None);
            if let Some(m) = best_move {
                self.reward_quiet(m, depth, ply);
            }
        }
        best
    }

    fn maxn_quiesce(&mut self, ply: usize, qply: usize) -> [i32; 3] {
        self.pv_len[ply] = 0;
        if let Some(v) = self.terminal_vector(ply) {
            return v;
        }
        self.nodes += 1;
        if self.should_stop() {
            return [0; 3];
        }
        self.seldepth = self.seldepth.max(ply);
        let mut best = eval::views_with(&self.b, &self.limits.params);
        // Without pruning between players the capture tree explodes: a short, narrow
        // quiescence (the most valuable captures only).
        if qply >= MAXN_QS_PLIES || ply >= MAX_PLY - 1 {
            return best;
        }
        let me = self.b.side_to_move().index();
        let mut list = MoveList::new();
        self.b.generate(Gen::Captures, &mut list);
        let mut scores = [0i32; MAX_MOVES];
        self.score_moves(&list, &mut scores, None, ply);
        for i in 0..list.len().min(MAXN_QS_WIDTH) {
            let m = Self::pick(&mut list, &mut scores, i);
            self.b.make_move(m);
            let v = self.maxn_quiesce(ply + 1, qply + 1);
            self.b.unmake_move();
            if self.stopped {
                break;
            }
            if v[me] > best[me] {
                best = v;
                self.update_pv(ply, m);
                if v[me] >= WIN_BOUND {
                    break;
                }
            }
        }
        best
    }
}
