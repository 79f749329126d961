//! The end of the game and the front end's [`Rules`] for ThreeChess.
//!
//! The game ends when a king is captured (capturer +1, victim −1, the third 0). A player
//! with no legal move (the reference has no such case and would force an illegal move)
//! ends the game scoring −2, each other player +1. An optional ply limit draws (all 0):
//! the rule set `tournament` (the reference's tournament branch) stops at 300 plies.

use super::board::{Board, Status};
use super::display::board_diagram;
use super::movegen::Gen;
use super::types::{Move, Player};
use crate::common::{FenError, MoveError};
use crate::game::{GameEnd, Rules};
use crate::movelist::MoveList;
use crate::options::{OptionError, OptionKind, OptionSpec, OptionValue};

/// The reference's tournament branch draws after this many plies.
pub const TOURNAMENT_PLY_LIMIT: u32 = 300;

/// `Rules`: `reference`, the reference's main branch, no move limit; `tournament`, its
/// tournament branch, a draw (all 0) after [`TOURNAMENT_PLY_LIMIT`] plies.
const RULES_OPTION: OptionSpec = OptionSpec::new(
    "Rules",
    OptionKind::Combo {
        default: "reference",
        choices: &["reference", "tournament"],
    },
)
.shown(crate::options::Shown::UCI);

/// Why a game ended, with each player's score.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Ending {
    /// A king was captured.
    KingCaptured {
        /// Who took it (+1).
        capturer: Player,
        /// Whose it was (−1).
        victim: Player,
    },
    /// The player to move has no legal move (−2, the others +1).
    NoMoves(Player),
    /// The ply limit was reached (all 0).
    PlyLimit,
}

impl Ending {
    /// The scores of blue, green and red.
    pub fn scores(self) -> [i32; 3] {
        match self {
            Ending::KingCaptured { capturer, victim } => {
                let mut s = [0; 3];
                s[capturer.index()] = 1;
                s[victim.index()] = -1;
                s
            }
            Ending::NoMoves(p) => {
                let mut s = [1; 3];
                s[p.index()] = -2;
                s
            }
            Ending::PlyLimit => [0; 3],
        }
    }

    /// In words: `blue captures green's king`.
    pub fn reason(self) -> String {
        match self {
            Ending::KingCaptured { capturer, victim } => {
                format!("{capturer} captures {victim}'s king")
            }
            Ending::NoMoves(p) => format!("{p} has no legal move"),
            Ending::PlyLimit => "ply limit reached".into(),
        }
    }

    /// `blue 1 green -1 red 0`.
    pub fn result_text(self) -> String {
        let s = self.scores();
        format!("blue {} green {} red {}", s[0], s[1], s[2])
    }
}

impl Board {
    /// How the game ended, or `None` while it goes on (this generates moves to find a
    /// player without any).
    pub fn ending(&self) -> Option<Ending> {
        if let Status::KingCaptured { capturer, victim } = self.status() {
            return Some(Ending::KingCaptured { capturer, victim });
        }
        if self.finished() {
            return Some(Ending::PlyLimit);
        }
        if self.legal_moves_list().is_empty() {
            return Some(Ending::NoMoves(self.side_to_move()));
        }
        None
    }

    /// Reads a move and checks it is legal here.
    pub fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let t = text.trim();
        if let Some(end) = self.ending() {
            return Err(MoveError::GameOver {
                text: t.to_string(),
                end: format!("{} {{{}}}", end.result_text(), end.reason()),
            });
        }
        let m = Move::parse(t).ok_or_else(|| MoveError::Malformed {
            text: t.to_string(),
            game: "ThreeChess",
            expected: "start and end square, e.g. BE2BE4",
        })?;
        let us = self.side_to_move();
        let because = |reason: String| MoveError::IllegalBecause {
            text: m.to_string(),
            reason,
        };
        match self.piece_at(m.from()) {
            None => Err(because(format!("no piece on {}", m.from()))),
            Some(p) if p.player() != us => Err(because(format!(
                "{} holds a {} piece, {us} is to move",
                m.from(),
                p.player()
            ))),
            Some(_) if self.is_legal(m) => Ok(m),
            Some(_) => Err(MoveError::Illegal(m.to_string())),
        }
    }
}

impl Rules for Board {
    type Move = Move;
    type Undo = ();
    const NAME: &'static str = "threechess";
    const PLAYERS: &'static [&'static str] = &["blue", "green", "red"];
    const CLOCK_KEYS: &'static [(&'static str, &'static str)] =
        &[("btime", "binc"), ("gtime", "ginc"), ("rtime", "rinc")];
    const OPTIONS: &'static [OptionSpec] = &[RULES_OPTION];

    fn set_option(&mut self, spec: &OptionSpec, value: &OptionValue) -> Result<(), OptionError> {
        if spec.name != RULES_OPTION.name {
            return Err(OptionError::Unknown {
                name: spec.name.to_string(),
            });
        }
        match value.as_choice() {
            "reference" => self.set_ply_limit(None),
            "tournament" => self.set_ply_limit(Some(TOURNAMENT_PLY_LIMIT)),
            other => {
                return Err(OptionError::Refused {
                    name: RULES_OPTION.name,
                    reason: format!("threechess has no rule set called '{other}'"),
                })
            }
        }
        Ok(())
    }

    fn start_position() -> Self {
        Board::startpos()
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        Board::from_fen(fen).map_err(FenError::game)
    }
    fn to_fen(&self) -> String {
        Board::to_fen(self)
    }
    fn player_to_move(&self) -> usize {
        self.side_to_move().index()
    }
    fn legal_moves(&self) -> Vec<Move> {
        self.legal_moves_list().iter().copied().collect()
    }
    fn parse_legal_move(&self, text: &str) -> Result<Move, MoveError> {
        self.parse_move(text)
    }
    fn play(&mut self, m: Move) {
        self.make_move(m);
    }
    fn game_end(&self) -> Option<GameEnd> {
        self.ending().map(|end| GameEnd {
            result: end.result_text(),
            reason: end.reason(),
            winner: match end {
                Ending::KingCaptured { capturer, .. } => Some(capturer.index()),
                _ => None,
            },
        })
    }
    fn diagram(&self) -> String {
        board_diagram(self)
    }
    fn eval_report(&self) -> String {
        super::eval::report(self)
    }
    fn reserve(&mut self, plies: usize) {
        Board::reserve(self, plies);
    }
    /// None once the game is over (a king captured, the ply limit).
    #[inline(always)]
    fn perft_moves(&self, list: &mut MoveList<Move>) {
        self.generate(Gen::All, list);
    }
    #[inline(always)]
    fn perft_make(&mut self, m: Move) {
        self.make_move(m);
    }
    #[inline(always)]
    fn perft_unmake(&mut self, _m: Move, _: ()) {
        self.unmake_move();
    }
}
