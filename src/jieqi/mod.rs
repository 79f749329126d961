//! Jieqi (揭棋): Xiangqi with hidden pieces.
//!
//! The rules, as the mainstream rule set has them (JieqiBox, Velithia/JieqiBox, its
//! `useChessGame.ts`; pychess-variants' `static/docs/jieqi.md`):
//!
//! * Every piece but the kings starts face down, shuffled over its side's Xiangqi start
//!   squares. A face-down piece moves as the start piece of the square it stands on (it
//!   never left it): the chariot's, horse's, elephant's, cannon's or soldier's move; a
//!   face-down advisor keeps its palace (from d0 only to e1).
//! * When it first moves it is turned face up, as a piece drawn at random from its side's
//!   unseen pool, and moves as that piece from then on. Revealed advisors and elephants
//!   go anywhere (no palace, no river); soldiers step forward, and sideways once across
//!   the river, wherever they were revealed; the kings keep their palace.
//! * A captured face-down piece is revealed to the capturer only (the FEN's captured
//!   field holds the ones its writer knows).
//! * Check, mate and stalemate (a side with no legal move loses) and the flying general
//!   as in Xiangqi. Repetition, perpetual check and chase, the 60-move rule and dead
//!   material as jiang judges them in Xiangqi (the Asian rules): see [`rules`].
//!
//! See [`fen`] for the FEN (JieqiBox's), [`types::Move`] for the moves (ICCS with
//! JieqiBox's reveal and capture letters), [`position::Position`] for the two kinds of
//! knowledge (a player's view, full information), and [`game_impl::perft_chance`],
//! [`game_impl::perft_view`] and the `perft` of [`crate::game::Rules`] for the perfts.

pub mod fen;
pub mod game_impl;
pub mod position;
pub mod rules;
pub mod types;

pub use fen::{JieqiFenError, START_FEN};
pub use game_impl::{perft_chance, perft_view};
pub use position::Position;
pub use types::{Color, Kind, Move};
