//! The interfaces between a game and the rest of jiang.
//!
//! * [`Rules`]: what the front end needs from any game (FEN in and out, move parsing and
//!   legality, playing a move in the game record, the result by the rules, the board
//!   drawing, the legal move tree that perft walks). Every game implements it, whatever
//!   plays it.
//! * [`Game`]: what the two-player search (`crate::search`) needs on top of that (keys,
//!   staged move generation, make/unmake, evaluation, exchange tests). The search is
//!   generic over it and monomorphised, so Xiangqi pays nothing for the generality.
//!
//! A game the generic search is the wrong tool for implements only [`Rules`] and brings
//! its own move chooser (Microchess: a solved table; ThreeChess: a three-player search).

use crate::book::BookFormat;
use crate::common::{FenError, MoveError};
use crate::movelist::{ListMove, MoveList};
use crate::options::{OptionError, OptionSpec, OptionValue};
use std::fmt::{self, Display};

/// Which moves to generate.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GenType {
    /// Captures only.
    Captures,
    /// Non-captures only.
    Quiets,
    /// Everything.
    All,
}

/// How the rules end (or score) the game at a node, from the side to move's view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Outcome {
    /// Drawn by rule (repetition without a culprit, move limit, dead material).
    Draw,
    /// The side to move has won by rule (the opponent perpetually checked or chased).
    Win,
    /// The side to move has lost by rule (checkmated, its king captured, ...).
    Loss,
}

/// The end of a game by its rules, as the game record and the protocols show it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameEnd {
    /// The result, PGN style where it fits: `1-0` (the first player wins), `0-1`,
    /// `1/2-1/2`; games with other payoffs write their own (e.g. ThreeChess
    /// `blue 1 green -1 red 0`).
    pub result: String,
    /// Why, in words: `Red mates`, `White captures the king`.
    pub reason: String,
    /// Index of the winning player (`None`: a draw, or no single winner).
    pub winner: Option<usize>,
}

impl Display for GameEnd {
    /// E.g. `0-1 {Red checks perpetually}` (the CECP result claim format).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {{{}}}", self.result, self.reason)
    }
}

/// Chances of a win, a draw and a loss for the side to move, per mille (they sum to
/// 1000): what UCI's `wdl W D L` shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wdl {
    /// Win, per mille.
    pub win: u16,
    /// Draw, per mille.
    pub draw: u16,
    /// Loss, per mille.
    pub loss: u16,
}

impl Wdl {
    /// A certain win (a mate found).
    pub const WIN: Wdl = Wdl {
        win: 1000,
        draw: 0,
        loss: 0,
    };
    /// A certain loss (being mated).
    pub const LOSS: Wdl = Wdl {
        win: 0,
        draw: 0,
        loss: 1000,
    };
}

/// How XBoard (CECP) can show a game it does not know itself: the reply to
/// `variant NAME` is `setup (PIECES) BOARD FEN` followed by one `piece` command per
/// entry of `betza`.
#[derive(Clone, Copy, Debug)]
pub struct XboardVariant {
    /// XBoard's piece-to-char table: a letter (or `.`) for each of XBoard's piece slots
    /// `PNBRQFEACWMOHIJGDVLSU…`, the king last, White then Black (the slot picks the
    /// picture: a squire drawn as a ferz, say).
    pub pieces: &'static str,
    /// Board size, holdings and parent variant, e.g. `8x8+0_fairy`.
    pub board: &'static str,
    /// Moves of the pieces XBoard does not know, as (`ID`, Betza): `("S&", "FD")`.
    pub betza: &'static [(&'static str, &'static str)],
}

/// What an endgame table knows of a position, for a person (the web board's line).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableVerdict {
    /// The result with best play, from the side to move's view.
    pub outcome: Outcome,
    /// Plies to mate (0 for a draw).
    pub plies: u32,
    /// The table's name (`KHKAA`).
    pub table: String,
}

/// What the front end needs from a game: positions, moves, results and drawings.
///
/// Nothing here is on a hot path (these are called once per protocol command) except the
/// `perft_*` methods, which the one perft of the crate ([`crate::perft`]) calls at every
/// node of its tree.
pub trait Rules: Clone + Send + Sync + 'static {
    /// A move: small and copyable, printed in the game's notation by `Display`.
    type Move: ListMove + Display + Send + Sync + std::hash::Hash + 'static;
    /// What [`Rules::perft_make`] hands to [`Rules::perft_unmake`] to take the move back:
    /// `()` for a game that keeps its own undo history, the previous position for one
    /// that is cheaper to copy than to undo.
    type Undo;

    /// The game's name on the protocol (`UCI_Variant`), lower case: `xiangqi`.
    const NAME: &'static str;
    /// The players in turn order, lower case (`["red", "black"]`): used for
    /// `d`, results, and clock keywords.
    const PLAYERS: &'static [&'static str];
    /// The `go` keywords that carry each player's remaining time and increment, in turn
    /// order (UCI: `wtime`/`winc` for the first player, `btime`/`binc` for the second).
    const CLOCK_KEYS: &'static [(&'static str, &'static str)] =
        &[("wtime", "winc"), ("btime", "binc")];
    /// How XBoard shows the game when it does not know it by name (`None`: XBoard knows
    /// it, as Xiangqi, or cannot show it).
    const XBOARD: Option<XboardVariant> = None;
    /// Options of the game's rules and evaluation (Xiangqi: `Rules`, the house rules;
    /// `UseNNUE`, the evaluation), applied with [`Rules::set_option`] to every position
    /// the engine sets up.
    const OPTIONS: &'static [OptionSpec] = &[];

    /// The start position (for games without a fixed one, a sensible default).
    fn start_position() -> Self;
    /// Reads a FEN of this game; the error's `Display` is a one-line reason.
    fn from_fen(fen: &str) -> Result<Self, FenError>;
    /// The position as FEN.
    fn to_fen(&self) -> String;
    /// Index into [`Rules::PLAYERS`] of the player to move.
    fn player_to_move(&self) -> usize;
    /// Every legal move (empty when the game is over).
    fn legal_moves(&self) -> Vec<Self::Move>;
    /// Reads a move in the game's notation and checks that it is legal here (the error:
    /// malformed, not legal, game over).
    fn parse_legal_move(&self, text: &str) -> Result<Self::Move, MoveError>;
    /// Plays a legal move in the game record (history kept for the rule judge).
    fn play(&mut self, m: Self::Move);
    /// Plies played in the game before this position, as far as the position knows (its
    /// FEN move number and the moves made since): a clock is spent faster as the game
    /// goes on ([`crate::time::budget`]). 0 where a game does not count them.
    fn plies_played(&self) -> usize {
        0
    }
    /// How the game stands by its rules: `None` while it goes on.
    fn game_end(&self) -> Option<GameEnd>;
    /// The board as text for a person (`d`), with the side to move, FEN and state.
    fn diagram(&self) -> String;
    /// The static evaluation explained (`eval`).
    fn eval_report(&self) -> String;
    /// A loaded endgame table's verdict on the position (`None`: no table knows it, or the
    /// game has none).
    fn table_verdict(&self) -> Option<TableVerdict> {
        None
    }
    /// Makes room so that `plies` more moves allocate nothing.
    fn reserve(&mut self, plies: usize);
    /// Applies one of [`Rules::OPTIONS`] (the value already checked against it).
    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        let _ = value;
        Err(OptionError::Unknown {
            name: spec.name.to_string(),
        })
    }

    /// How XBoard (CECP) must be told each legal move, for games whose notation XBoard
    /// cannot draw as it is (captures away from the destination square): pairs of a move
    /// and its text for XBoard. `seen` are the moves XBoard has shown since the start
    /// position or `base`, as it was told them. Empty (the default): the game's own
    /// notation.
    fn xboard_moves(&self, _base: Option<&str>, _seen: &[String]) -> Vec<(Self::Move, String)> {
        Vec::new()
    }

    /// Appends every legal move to `list`, none once the game is over (so that a finished
    /// game has nothing below it in perft). Must not allocate.
    fn perft_moves(&self, list: &mut MoveList<Self::Move>);
    /// The number of legal moves, [`Rules::perft_moves`] counted: perft's last ply. A
    /// game that can count without listing (popcounts of target sets) overrides it.
    #[inline(always)]
    fn perft_count(&self) -> u64 {
        let mut list = MoveList::new();
        self.perft_moves(&mut list);
        list.len() as u64
    }
    /// Plays a move of [`Rules::perft_moves`] (without the bookkeeping that only the
    /// game record or the search needs), returning what takes it back.
    fn perft_make(&mut self, m: Self::Move) -> Self::Undo;
    /// Takes back [`Rules::perft_make`]`(m)`, which returned `undo`.
    fn perft_unmake(&mut self, m: Self::Move, undo: Self::Undo);
}

/// The most outcomes one chance event has ([`Game::chance_outcomes`]).
pub const MAX_CHANCE_OUTCOMES: usize = 8;

/// Rules, move generation and evaluation of a two-player game, as the search needs them.
///
/// Games with king capture instead of checkmate (fairy chess, Baroque) fit as follows:
/// [`Game::in_check`] means "the enemy could capture my king now" (so quiescence does not
/// stand pat and searches every move), a position whose side to move has lost its king
/// returns [`Outcome::Loss`] from [`Game::rule_outcome`] (so a forced king capture
/// scores as mate), and [`Game::no_moves_outcome`] says what having no move means.
pub trait Game: Rules {
    /// Size of the table indexed by [`Game::history_index`].
    const HISTORY_SIZE: usize;
    /// Quiescence plies (from its entry) within which a side in check searches all its
    /// evasions; deeper, it stands pat like any other quiescence node. Unlimited where
    /// evasions are few (Xiangqi); games whose pieces all slide far need a bound.
    const QSEARCH_EVASION_PLIES: usize = usize::MAX;
    /// A score (the evaluation's units) beyond which, for either side, the search treats
    /// the game as decided: the cuts that trust the static evaluation against beta
    /// (reverse futility, null move, ProbCut) stay out of such windows, where the
    /// evaluation no longer tells the moves apart and only the tree (a mate) does. By
    /// default nothing short of a mate counts as decided.
    const DECIDED_SCORE: i32 = i32::MAX;

    /// Whether some moves are chance events ([`Game::chance_outcomes`]).
    const HAS_CHANCE: bool = false;

    /// Zobrist key of the position (side to move included).
    fn key(&self) -> u64;
    /// The key the position will have after the legal move `m`, where the game can tell
    /// it cheaply: the search then starts loading the child's table entry before making
    /// the move. `None` (the default): it is loaded right after the move instead.
    #[inline(always)]
    fn key_after(&self, _m: Self::Move) -> Option<u64> {
        None
    }
    /// The outcomes of the legal move `m` when the side to move cannot foresee what it
    /// will do (Jieqi: what a face-down piece turns out to be), each as the move that
    /// makes it happen and its weight (how many ways it happens), written to `out`; the
    /// count. 0 or 1: no chance event, `m` is played as it is. Only asked where
    /// [`Game::HAS_CHANCE`].
    fn chance_outcomes(
        &self,
        m: Self::Move,
        out: &mut [(Self::Move, u32); MAX_CHANCE_OUTCOMES],
    ) -> usize {
        let _ = (m, out);
        0
    }
    /// 0 or 1: the side to move.
    fn side_index(&self) -> usize;
    /// Whether the side to move is in check (king-capture games: its king is attacked).
    fn in_check(&self) -> bool;
    /// Appends the legal moves of that type (all moves, evasions, when in check).
    fn generate(&self, gen: GenType, list: &mut MoveList<Self::Move>);
    /// Whether a move from outside the generator (TT, killers) is legal here.
    fn is_legal(&self, m: Self::Move) -> bool;
    /// Whether the move captures.
    fn is_capture(&self, m: Self::Move) -> bool;
    /// Whether the move gives check (attacks the enemy king).
    fn gives_check(&self, m: Self::Move) -> bool;
    /// Plays a legal move.
    fn make_move(&mut self, m: Self::Move);
    /// Takes back the last move.
    fn unmake_move(&mut self, m: Self::Move);
    /// Passes the turn.
    fn make_null_move(&mut self);
    /// Takes back a null move.
    fn unmake_null_move(&mut self);
    /// Whether passing is a reasonable approximation here (guards null-move pruning
    /// against zugzwang).
    fn null_move_allowed(&self) -> bool;
    /// Called on the search's own copy of the root position before it searches, after
    /// [`Rules::reserve`] made room for `plies` moves: a game sets up what its evaluation
    /// keeps up to date during make/unmake (Xiangqi: the network's accumulators).
    fn prepare_search(&mut self, plies: usize) {
        let _ = plies;
    }
    /// Static evaluation from the side to move's view.
    fn evaluate(&self) -> i32;
    /// Win/draw/loss chances of a search score (internal units, side to move's view) in
    /// this root position, for games with a model fitted to their own games; `None`
    /// (the default) where there is none, and then no line shows them.
    fn wdl(&self, score: i32) -> Option<Wdl> {
        let _ = score;
        None
    }
    /// Static exchange evaluation: whether `m` wins at least `threshold`.
    fn see_ge(&self, m: Self::Move, threshold: i32) -> bool;
    /// Ordering value of a capture (most valuable victim, least valuable attacker).
    fn capture_order(&self, m: Self::Move) -> i32;
    /// Value of what the move captures, for delta pruning (0 for quiet moves).
    fn captured_value(&self, m: Self::Move) -> i32;
    /// Index of the move for history tables: `< HISTORY_SIZE`.
    fn history_index(&self, m: Self::Move) -> usize;
    /// Packs a move in 16 bits for the transposition table (0 is never a move).
    fn move_to_u16(m: Self::Move) -> u16;
    /// Unpacks [`Game::move_to_u16`].
    fn move_from_u16(v: u16) -> Option<Self::Move>;
    /// Game-ending rules at a node `ply` plies below the search root, other than "no legal
    /// move" (a captured king, repetition with its check/chase judgement, move limits,
    /// dead material). With `judge_repetitions` false every repetition is a plain draw
    /// (the game's repetition judge switched off, for comparison).
    fn rule_outcome(&self, ply: usize, judge_repetitions: bool) -> Option<Outcome>;
    /// The exact value of the position from a solved table (an endgame table), read at
    /// every node `ply` plies below the root instead of searching it: the outcome for
    /// the side to move and, for a win or a loss, the plies until it comes (the last of
    /// them captures or mates); for a draw, a small tie-break added to the draw score (a
    /// few units, to choose among drawing moves; 0 for none). `None` (the default): no
    /// table knows the position (or the game prefers to search it), search it.
    #[inline(always)]
    fn solved(&self, ply: usize) -> Option<(Outcome, i32)> {
        let _ = ply;
        None
    }
    /// What it means for the side to move to have no legal move (Xiangqi: it loses, mate
    /// or stalemate; Baroque: a draw). The search asks it wherever it finds no move to
    /// try: at the root, at a node with depth left, and at a quiescence node in check
    /// (which tries every evasion); a quiescence node not in check stands pat without
    /// looking for moves, so [`Game::rule_outcome`] need not look for them either.
    #[inline(always)]
    fn no_moves_outcome(&self) -> Outcome {
        Outcome::Loss
    }
    /// The key of this position mirrored left to right, for games whose rules are the
    /// same in the mirror (an opening book stores one of the two, see `crate::book`);
    /// `None` (the default) for games without such a mirror.
    fn mirrored_key(&self) -> Option<u64> {
        None
    }
    /// The move mirrored left to right (see [`Game::mirrored_key`]).
    fn mirror_move(m: Self::Move) -> Self::Move {
        m
    }
    /// The keys a book of `format` stores this position and its mirror image under:
    /// jiang's own format uses [`Game::key`] and [`Game::mirrored_key`]; a game that reads
    /// another engine's book format computes that format's keys here. `None` (the
    /// default for other formats): the game cannot read books of that format.
    fn book_keys(&self, format: BookFormat) -> Option<(u64, Option<u64>)> {
        match format {
            BookFormat::Jiang => Some((self.key(), self.mirrored_key())),
            _ => None,
        }
    }
    /// A book move code of `format` as a move (jiang's format: [`Game::move_from_u16`]);
    /// `None` for a code that is no move of this game.
    fn book_move_from_code(format: BookFormat, code: u16) -> Option<Self::Move> {
        match format {
            BookFormat::Jiang => Self::move_from_u16(code),
            _ => None,
        }
    }
}
