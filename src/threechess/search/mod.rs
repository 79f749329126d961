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
//! The engine plays [`DEFAULT_ALGORITHM`] (BRS); the other three are kept for the tests
//! and for the match runner of `tools/threechess`, which compares them.
//!
//! Against weak opponents (the reference's random and greedy agents, or anything that
//! blunders) these searches are too respectful: they never try a threat that a best
//! reply parries. So the root adds to each move's score a bonus for the chance that,
//! after it, opponents who take our king when they can and otherwise grab their most
//! valuable target or move at random (in the proportion each has shown in this game:
//! [`observed_greed`]) leave a king for us to take, less the chance that one of them
//! takes the other's king in this round or the next ([`fallible_chances`],
//! [`ThreeSettings::fallibility`], UCI `ThreeFallibility`). A move the search sees lose
//! keeps its losing score.
//!
//! Scores: [`super::eval::view`] centipawns; a king capture is worth ±[`WIN`] minus
//! the plies to it for the capturer and the victim, [`super::eval::OTHER_CAPTURE`] for
//! the third player (the game ends without its winning).
//!
//! One room per concern:
//!
//! * this file: the entry [`search`], how it plays ([`ThreeSettings`], [`Algorithm`]; what
//!   it is asked is the engine's one [`SearchRequest`]), what it answers ([`ThreeInfo`],
//!   [`ThreeResult`]), and the searcher's state;
//! * `root`: iterative deepening and the root move loop;
//! * `alphabeta`: the alpha-beta frame of Paranoid and of the root player's plies in
//!   BRS/BRS+; `best_reply`: the opponents' layer of BRS and BRS+;
//!   `quiesce`: their capture search; `maxn`: MaxN (tests and tools only);
//! * `ordering`: move ordering; `pv`: the principal variation and the reported line;
//! * `opponents`: the fallible-opponent model behind the root bonus;
//! * `clock`: the whole-game clock's budget and when a running search stops;
//! * `key`: the transposition-table key.

mod alphabeta;
mod best_reply;
mod clock;
mod key;
mod maxn;
mod opponents;
mod ordering;
mod pv;
mod quiesce;
mod root;

pub use clock::time_budget;
pub use key::tt_key;
pub use opponents::{fallible_chances, observed_greed, Chances};

use super::board::Board;
use super::eval;
use super::types::{Move, Player};
use crate::movelist::ListMove;
use crate::request::SearchRequest;
use crate::time::SearchControl;
use crate::tt::{TranspositionTable, MATE, MATE_BOUND};

/// Score of capturing a king at the root (minus one per ply to it).
pub const WIN: i32 = MATE;
/// Scores at least this large (in absolute value) are king captures.
pub const WIN_BOUND: i32 = MATE_BOUND;
const INF: i32 = MATE + 1;
/// Deepest ply searched (main search and quiescence).
pub const MAX_PLY: usize = 96;
/// Quiescence plies at most below the main search's leaves.
const QS_MAX: usize = 12;

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
}

/// The default algorithm: best-reply search, the strongest in the matches (see the
/// MEASUREMENTS.md: against two greedy agents it takes a king in 97 % of the games, paranoid in
/// 88 %; head to head it scores best).
pub const DEFAULT_ALGORITHM: Algorithm = Algorithm::Brs;

/// The default [`ThreeSettings::fallibility`]. Against one greedy and one random agent
/// (400,000 nodes a move, 180 games) jiang took a king in 92 % of the games instead of
/// 78 %; against two greedy agents in 97 % instead of 98 % (docs/MEASUREMENTS.md, ThreeChess).
pub const DEFAULT_FALLIBILITY: i32 = 3000;
/// The largest [`ThreeSettings::fallibility`] accepted (a bonus stays far below a king
/// capture's score).
pub const MAX_FALLIBILITY: i32 = 10_000;

/// How the three-player search plays (what it is asked comes in a [`SearchRequest`]: its
/// limits, root moves and deadlines, which run from the start of the search, or from the
/// ponder-hit when `control` starts pondering).
#[derive(Clone, Debug)]
pub struct ThreeSettings {
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

impl Default for ThreeSettings {
    fn default() -> Self {
        ThreeSettings {
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

/// Runs a search on `pos` for the player to move and returns its best move.
/// `on_info` receives a report after each iteration. Blocks until the search ends
/// (limits reached or `control.stop()`), and, for infinite or ponder searches, until
/// stopped.
pub fn search(
    pos: &Board,
    request: &SearchRequest<Move>,
    settings: &ThreeSettings,
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
        algo: settings.algorithm,
        tt,
        control,
        request,
        settings,
        key_mix: tt_key(pos, root, settings.algorithm) ^ pos.key(),
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

/// The state of one search, shared by every algorithm (the rooms below add its
/// methods).
struct Searcher<'a> {
    b: Board,
    root: Player,
    algo: Algorithm,
    tt: &'a TranspositionTable,
    control: &'a SearchControl,
    request: &'a SearchRequest<Move>,
    settings: &'a ThreeSettings,
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
