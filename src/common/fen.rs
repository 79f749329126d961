//! FEN reading and writing shared by the games: the typed [`FenError`] (with a game's
//! own typed reasons carried as a [`GameReason`]), the field reader
//! [`FenFields`] (board, side to move, `-` placeholders, counters, nothing after), and the
//! board field's ranks with their digit runs ([`split_ranks`], [`read_rank`],
//! [`write_board`]).
//!
//! What a field means (which letters, which squares a piece may stand on) stays with each
//! game; only the spelling of a FEN is shared.

use std::any::Any;
use std::fmt;
use std::ops::RangeInclusive;
use std::str::SplitWhitespace;
use std::sync::Arc;

/// Why a FEN was refused; `Display` gives one line naming the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// Nothing to read.
    Empty,
    /// Not as many whitespace-separated fields as the game's FEN has.
    FieldCount {
        /// Fields found.
        found: usize,
        /// What the game expects, in words: `6 (board side - - halfmove fullmove)`.
        expected: &'static str,
    },
    /// The board field does not have the game's number of ranks.
    RankCount {
        /// Ranks found.
        found: usize,
        /// Ranks of the game's board.
        expected: usize,
    },
    /// A rank does not describe the game's number of squares.
    RankLength {
        /// The rank as the game numbers it.
        rank: usize,
        /// How many squares it described.
        len: usize,
        /// Files of the game's board.
        expected: usize,
    },
    /// A character that is neither a piece letter of the game nor an empty-square count.
    UnknownPiece(char),
    /// A side (named) has no king.
    MissingKing(&'static str),
    /// A side (named) has more than one king.
    ExtraKing(&'static str),
    /// More pieces of a kind than the game has.
    TooMany {
        /// The side's name.
        side: &'static str,
        /// The piece's FEN letter.
        letter: char,
        /// How many the FEN has.
        count: u32,
        /// How many the game allows.
        max: u32,
    },
    /// A piece on a square it can never reach.
    ImpossibleSquare {
        /// The piece's FEN letter.
        letter: char,
        /// The square's name.
        square: String,
    },
    /// The side-to-move field is not one the game knows.
    BadSide {
        /// The field.
        found: String,
        /// The accepted letters, in words: `w or b`.
        expected: &'static str,
    },
    /// A castling or en-passant field that is not `-` (the games have neither).
    BadField(String),
    /// The halfmove (no-capture) counter is not a number in `0..=max`.
    BadHalfmove {
        /// The field.
        text: String,
        /// The largest accepted.
        max: u32,
    },
    /// The move number is not a number in the accepted range.
    BadFullmove {
        /// The field.
        text: String,
        /// The largest accepted.
        max: u32,
    },
    /// The side that is not to move is in check.
    OpponentInCheck,
    /// Text after the last field.
    TrailingText(String),
    /// A FEN refused for a reason of the game's own (Microchess's reachability,
    /// ThreeChess's sections), typed in the game's folder.
    Game(GameReason),
}

impl FenError {
    /// A reason of the game's own (its error type, typed in the game's folder).
    pub fn game(reason: impl GameFenReason) -> FenError {
        FenError::Game(GameReason(Arc::new(reason)))
    }
}

/// A game's own error type for refusing a FEN: one-line `Display`, comparable. Every such
/// type is one (blanket implementation); [`FenError::game`] wraps it.
pub trait GameFenReason: fmt::Display + fmt::Debug + Send + Sync + 'static {
    /// The reason as [`Any`], for [`GameReason::get`].
    fn as_any(&self) -> &dyn Any;
    /// Whether `other` is the same reason (of the same type).
    fn same_as(&self, other: &dyn GameFenReason) -> bool;
}

impl<T: fmt::Display + fmt::Debug + PartialEq + Send + Sync + 'static> GameFenReason for T {
    fn as_any(&self) -> &dyn Any {
        self
    }
    fn same_as(&self, other: &dyn GameFenReason) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// A game's typed reason inside a [`FenError`]: the game's own error value, which
/// [`GameReason::get`] gives back as its type.
#[derive(Clone, Debug)]
pub struct GameReason(Arc<dyn GameFenReason>);

impl GameReason {
    /// The reason as the game's error type `T`, if it is one.
    pub fn get<T: 'static>(&self) -> Option<&T> {
        self.0.as_any().downcast_ref::<T>()
    }
}

impl PartialEq for GameReason {
    fn eq(&self, other: &GameReason) -> bool {
        self.0.same_as(other.0.as_ref())
    }
}

impl Eq for GameReason {}

impl fmt::Display for GameReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Empty => write!(f, "empty FEN"),
            FenError::FieldCount { found, expected } => {
                write!(f, "the FEN has {found} fields, expected {expected}")
            }
            FenError::RankCount { found, expected } => {
                write!(f, "the board has {found} ranks, expected {expected} ranks")?;
                if *found == 10 && *expected != 10 {
                    // The likeliest mistake: a FEN of jiang's main game.
                    write!(f, " (a Xiangqi FEN?)")?;
                }
                Ok(())
            }
            FenError::RankLength {
                rank,
                len,
                expected,
            } => write!(
                f,
                "rank {rank} describes {len} squares, expected {expected}"
            ),
            FenError::UnknownPiece(c) => write!(f, "unknown piece letter '{c}'"),
            FenError::MissingKing(side) => write!(f, "{side} has no king"),
            FenError::ExtraKing(side) => write!(f, "{side} has more than one king"),
            FenError::TooMany {
                side,
                letter,
                count,
                max,
            } => write!(
                f,
                "{side} has {count} pieces '{letter}', at most {max} allowed"
            ),
            FenError::ImpossibleSquare { letter, square } => {
                write!(f, "'{letter}' can never stand on {square}")
            }
            FenError::BadSide { found, expected } => {
                write!(f, "side to move '{found}' is not {expected}")
            }
            FenError::BadField(s) => write!(f, "unexpected field '{s}', expected '-'"),
            FenError::BadHalfmove { text, max } => {
                write!(f, "halfmove counter '{text}' is not a number in 0..={max}")
            }
            FenError::BadFullmove { text, max } => {
                write!(f, "move number '{text}' is not a number from 1 to {max}")
            }
            FenError::OpponentInCheck => write!(
                f,
                "the side not to move is in check (or the kings face each other)"
            ),
            FenError::TrailingText(s) => write!(f, "unexpected text after the FEN: '{s}'"),
            FenError::Game(reason) => reason.fmt(f),
        }
    }
}

impl std::error::Error for FenError {}

/// The whitespace-separated fields of a FEN, read in order. Fields after the board may be
/// missing; each reader then gives its default.
pub struct FenFields<'a> {
    fields: SplitWhitespace<'a>,
}

impl<'a> FenFields<'a> {
    /// The fields of `fen`.
    pub fn new(fen: &'a str) -> FenFields<'a> {
        FenFields {
            fields: fen.split_whitespace(),
        }
    }

    /// The board field (an empty FEN is [`FenError::Empty`]).
    pub fn board(&mut self) -> Result<&'a str, FenError> {
        self.fields.next().ok_or(FenError::Empty)
    }

    /// The side to move as an index: `tokens[i]` are the spellings of player `i`; a
    /// missing field is player 0. `expected` names the spellings for the error.
    pub fn side(
        &mut self,
        tokens: [&[&str]; 2],
        expected: &'static str,
    ) -> Result<usize, FenError> {
        let Some(field) = self.fields.next() else {
            return Ok(0);
        };
        tokens
            .iter()
            .position(|spellings| spellings.contains(&field))
            .ok_or_else(|| FenError::BadSide {
                found: field.to_string(),
                expected,
            })
    }

    /// The castling and en-passant fields: each `-` or missing.
    pub fn placeholders(&mut self) -> Result<(), FenError> {
        for _ in 0..2 {
            match self.fields.next() {
                None | Some("-") => {}
                Some(s) => return Err(FenError::BadField(s.to_string())),
            }
        }
        Ok(())
    }

    /// The halfmove counter in `0..=max` (missing: 0).
    pub fn halfmove(&mut self, max: u32) -> Result<u32, FenError> {
        self.number(0..=max, 0)
            .map_err(|text| FenError::BadHalfmove {
                text: text.to_string(),
                max,
            })
    }

    /// The move number in `range` (missing: 1).
    pub fn fullmove(&mut self, range: RangeInclusive<u32>) -> Result<u32, FenError> {
        let max = *range.end();
        self.number(range, 1).map_err(|text| FenError::BadFullmove {
            text: text.to_string(),
            max,
        })
    }

    /// The next field as a number in `range`, or the field when it is not one.
    fn number(&mut self, range: RangeInclusive<u32>, default: u32) -> Result<u32, &'a str> {
        match self.fields.next() {
            None => Ok(default),
            Some(s) => s.parse::<u32>().ok().filter(|n| range.contains(n)).ok_or(s),
        }
    }

    /// Checks that nothing follows ([`FenError::TrailingText`] quotes all of it).
    pub fn finish(mut self) -> Result<(), FenError> {
        match self.fields.next() {
            None => Ok(()),
            Some(first) => {
                let rest: Vec<&str> = std::iter::once(first).chain(self.fields).collect();
                Err(FenError::TrailingText(rest.join(" ")))
            }
        }
    }
}

/// The board field's ranks, first in the FEN first, checking that there are `expected`.
pub fn split_ranks(board: &str, expected: usize) -> Result<Vec<&str>, FenError> {
    let ranks: Vec<&str> = board.split('/').collect();
    if ranks.len() == expected {
        Ok(ranks)
    } else {
        Err(FenError::RankCount {
            found: ranks.len(),
            expected,
        })
    }
}

/// Reads one rank of a board `width` files wide: digits `1..=width` skip empty squares,
/// anything else goes to `place(file, letter)` (which refuses letters that are no piece).
/// A rank that does not describe exactly `width` squares is [`FenError::RankLength`]
/// with `rank` as its number; letters past the last file are counted, not placed.
pub fn read_rank(
    text: &str,
    width: usize,
    rank: usize,
    mut place: impl FnMut(usize, char) -> Result<(), FenError>,
) -> Result<(), FenError> {
    let mut file = 0usize;
    for c in text.chars() {
        match c.to_digit(10) {
            Some(d) if d >= 1 && d as usize <= width => file += d as usize,
            Some(_) => return Err(FenError::UnknownPiece(c)),
            None => {
                if file < width {
                    place(file, c)?;
                }
                file += 1;
            }
        }
    }
    if file == width {
        Ok(())
    } else {
        Err(FenError::RankLength {
            rank,
            len: file,
            expected: width,
        })
    }
}

/// Writes a board field: ranks from `ranks - 1` down to 0, files from 0, runs of empty
/// squares as counts. `piece_at(file, rank)` is the letter on a square.
pub fn write_board(
    files: usize,
    ranks: usize,
    piece_at: impl Fn(usize, usize) -> Option<char>,
) -> String {
    let mut s = String::with_capacity(files * ranks + ranks);
    for rank in (0..ranks).rev() {
        let mut empty = 0;
        for file in 0..files {
            match piece_at(file, rank) {
                Some(letter) => {
                    if empty > 0 {
                        s.push_str(&empty.to_string());
                        empty = 0;
                    }
                    s.push(letter);
                }
                None => empty += 1,
            }
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if rank > 0 {
            s.push('/');
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_round_trip() {
        let board = "2R1/3r/Kk2/4";
        let ranks = split_ranks(board, 4).unwrap();
        let mut grid = [[None; 4]; 4];
        for (i, text) in ranks.iter().enumerate() {
            read_rank(text, 4, 3 - i, |file, c| {
                grid[3 - i][file] = Some(c);
                Ok(())
            })
            .unwrap();
        }
        assert_eq!(write_board(4, 4, |f, r| grid[r][f]), board);
    }

    #[test]
    fn rank_errors() {
        let ok = |_: usize, _: char| Ok(());
        assert_eq!(
            read_rank("55", 9, 4, ok),
            Err(FenError::RankLength {
                rank: 4,
                len: 10,
                expected: 9
            })
        );
        assert_eq!(read_rank("405", 9, 4, ok), Err(FenError::UnknownPiece('0')));
        assert_eq!(read_rank("9", 8, 1, ok), Err(FenError::UnknownPiece('9')));
        assert_eq!(
            split_ranks("8/8", 8),
            Err(FenError::RankCount {
                found: 2,
                expected: 8
            })
        );
    }

    #[test]
    fn fields() {
        let mut f = FenFields::new("b - - 3 7 x y");
        assert_eq!(f.side([&["w"], &["b"]], "w or b"), Ok(1));
        assert_eq!(f.placeholders(), Ok(()));
        assert_eq!(f.halfmove(10), Ok(3));
        assert_eq!(f.fullmove(1..=9), Ok(7));
        assert_eq!(f.finish(), Err(FenError::TrailingText("x y".into())));
        let mut f = FenFields::new("");
        assert_eq!(f.board(), Err(FenError::Empty));
        assert_eq!(f.side([&["w"], &["b"]], "w or b"), Ok(0));
        assert_eq!(f.halfmove(10), Ok(0));
        assert_eq!(f.fullmove(1..=9), Ok(1));
    }

    #[test]
    fn a_games_own_reason_stays_typed() {
        #[derive(Debug, PartialEq)]
        enum Reason {
            TwoKings,
            Sections(usize),
        }
        impl fmt::Display for Reason {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                write!(f, "reason {self:?}")
            }
        }
        let e = FenError::game(Reason::Sections(2));
        assert_eq!(e.to_string(), "reason Sections(2)");
        assert_eq!(e, FenError::game(Reason::Sections(2)));
        assert_ne!(e, FenError::game(Reason::Sections(3)));
        assert_ne!(e, FenError::game(Reason::TwoKings));
        // Another type that prints the same is another reason.
        assert_ne!(e, FenError::game("reason Sections(2)".to_string()));
        let FenError::Game(reason) = &e else {
            panic!("{e:?}")
        };
        assert_eq!(reason.get::<Reason>(), Some(&Reason::Sections(2)));
        assert_eq!(reason.get::<String>(), None);
    }
}
