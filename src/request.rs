//! What a search is asked to do: [`SearchRequest`], one value from the protocol's `go` to
//! the search (as Pikafish's `LimitsType` goes from its UCI loop to its search).
//!
//! The protocol fills in what the command says: the limits, the clock, `ponder`, the root
//! moves as text, `perft`. The engine adds what its settings say (threads, lines,
//! contempt, strength, the book) and the deadlines it computed; the game's session turns
//! the root moves into the game's moves ([`SearchRequest::with_moves`]) and adds the
//! banned ones; every game's chooser, and the searches under them, read the same value.

use crate::book::{Book, Variety};
use crate::time::{Budget, Clock};
use std::sync::Arc;

/// What a search is asked to do. `M` is how root moves are given: text (`String`) as the
/// protocol reads them, the game's moves once the session has checked them.
#[derive(Clone, Debug)]
pub struct SearchRequest<M = String> {
    // What the protocol's `go` says.
    /// `depth D`: maximum depth (iterations).
    pub depth: Option<i32>,
    /// `nodes N`: maximum nodes (all threads together).
    pub nodes: Option<u64>,
    /// `mate N` (UCI): stop as soon as a mate in N moves or fewer is found (the other
    /// limits, and the cap on any move, `MaxMoveTime`, still apply); the two-player
    /// search only.
    pub mate: Option<u32>,
    /// `infinite`: search until `stop` (also: never stop on a found mate or the depth
    /// limit before it).
    pub infinite: bool,
    /// `ponder`: the clock does not run until `ponderhit`.
    pub ponder: bool,
    /// The clock of the side to move: its time left (`time`, or `wtime`/`btime` for the
    /// side to move), increment, `movestogo`, `movetime`.
    pub clock: Clock,
    /// `searchmoves …` (UCI): only these root moves (empty: all).
    pub search_moves: Vec<M>,
    /// `perft D`: run perft instead of a search.
    pub perft: Option<u32>,
    /// `draw` (UCCI): the opponent offers a draw (an offer made while the search runs
    /// reaches the session, not this value).
    pub draw_offered: bool,

    // What the engine adds (from its settings and the game's session; whatever a caller
    // put there is replaced).
    /// Root moves that may not be played (UCCI `banmoves`, rule rulings).
    pub banned: Vec<M>,
    /// Search threads.
    pub threads: usize,
    /// Number of best lines to search and report (MultiPV); 1 for normal play.
    pub multipv: usize,
    /// Contempt: how much worse than 0 a draw by rule is for the side to move at the
    /// root (positive: avoid draws), in evaluation units.
    pub contempt: i32,
    /// Judge repetitions by the game's rules (perpetual check and chase lose); false
    /// makes every repetition a draw.
    pub judge_repetitions: bool,
    /// Playing below full strength at this level (0 to `crate::search::skill::MAX_LEVEL`,
    /// which is full strength); `None`: full strength. The two-player search only.
    pub skill_level: Option<u8>,
    /// Variety among the best lines at any level (UCCI `randomness`, an index into
    /// `crate::search::skill::EFFORTS`; 0: always the best); the two-player search only.
    pub randomness: usize,
    /// The opening book to answer from before searching, if any (never for analysis or
    /// pondering); the two-player search only.
    pub book: Option<BookRequest>,
    /// The deadlines of this search: the budget the game's chooser gave for the clock, or
    /// without a clock the engine's cap on any move; `None` for an infinite search. The
    /// search's `SearchControl` holds the same deadlines.
    pub budget: Option<Budget>,
}

impl<M> Default for SearchRequest<M> {
    /// No limit, no clock, all root moves, one thread, one line, full strength.
    fn default() -> Self {
        SearchRequest {
            depth: None,
            nodes: None,
            mate: None,
            infinite: false,
            ponder: false,
            clock: Clock::default(),
            search_moves: Vec::new(),
            perft: None,
            draw_offered: false,
            banned: Vec::new(),
            threads: 1,
            multipv: 1,
            contempt: 0,
            judge_repetitions: true,
            skill_level: None,
            randomness: 0,
            book: None,
            budget: None,
        }
    }
}

impl<M> SearchRequest<M> {
    /// Whether the command sets no limit at all (plain `go`).
    pub fn has_no_limit(&self) -> bool {
        self.depth.is_none()
            && self.nodes.is_none()
            && self.mate.is_none()
            && !self.infinite
            && self.clock.time_left.is_none()
            && self.clock.move_time.is_none()
            && self.perft.is_none()
    }

    /// The same request with its root moves given as `search_moves` and `banned` (the
    /// game's moves the session read from the text).
    pub fn with_moves<N>(self, search_moves: Vec<N>, banned: Vec<N>) -> SearchRequest<N> {
        SearchRequest {
            depth: self.depth,
            nodes: self.nodes,
            mate: self.mate,
            infinite: self.infinite,
            ponder: self.ponder,
            clock: self.clock,
            search_moves,
            perft: self.perft,
            draw_offered: self.draw_offered,
            banned,
            threads: self.threads,
            multipv: self.multipv,
            contempt: self.contempt,
            judge_repetitions: self.judge_repetitions,
            skill_level: self.skill_level,
            randomness: self.randomness,
            book: self.book,
            budget: self.budget,
        }
    }
}

/// An opening book to answer from, and how much variety its choice has.
#[derive(Clone, Debug)]
pub struct BookRequest {
    /// The book (the chooser checks it is of its game).
    pub book: Arc<Book>,
    /// How the book's move is chosen.
    pub variety: Variety,
}
