//! jiang's FEN for ThreeChess: `<blue>|<green>|<red> <side> [<plies>]`.
//!
//! * Each section is its four ranks separated by `/`, from rank 4 (next to the centre)
//!   down to rank 1 (the owner's back rank), each rank from file A to file H, as the
//!   section's owner sees it.
//! * A piece is two characters, its owner's letter in lower case (`b`, `g`, `r`) and its
//!   kind in upper case (`P N B R Q K`): `bK` is Blue's king, `gP` a Green pawn. A digit
//!   1–8 is that many empty squares.
//! * `<side>` is the player to move: `b`, `g` or `r` (or `blue`, `green`, `red`).
//! * `<plies>` (optional, default 0) counts the plies played, for an optional ply limit.
//!
//! The start position:
//! `8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR|8/8/gPgPgPgPgPgPgPgP/gRgNgBgQgKgBgNgR|8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR b 0`
//!
//! No castling or en-passant fields: the reference needs no has-moved flags and has no
//! en passant. A board with one king missing is a finished game: that king was taken by
//! the player who moved last (the one before the player to move).

use super::board::{Board, Status};
use super::types::{Kind, Piece, Player, Square};
use std::fmt;

/// The start position's FEN.
pub const START_FEN: &str = "8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR|8/8/gPgPgPgPgPgPgPgP/gRgNgBgQgKgBgNgR|8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR b 0";

fn player_letter(p: Player) -> char {
    p.letter().to_ascii_lowercase()
}

/// Why a text is not a ThreeChess FEN; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ThreeChessFenError {
    /// Nothing to read.
    Empty,
    /// More than three whitespace-separated fields (how many).
    FieldCount(usize),
    /// The board is not three `|`-separated sections (how many).
    SectionCount(usize),
    /// A section does not have four ranks.
    RankCount {
        /// The section's owner.
        section: Player,
        /// Ranks found.
        found: usize,
    },
    /// An empty-square count that is not 1 to 8.
    EmptyCount(char),
    /// Something in the rank that is not a piece (`bK`, `gP`, …).
    BadPiece {
        /// The rank.
        rank: String,
    },
    /// A rank that runs past file H.
    TooManyFiles {
        /// The rank.
        rank: String,
    },
    /// A rank that stops short of file H.
    TooFewFiles {
        /// The rank.
        rank: String,
        /// Files it described.
        files: u8,
    },
    /// A pawn on another player's back rank (it would have been promoted).
    PromotedPawn {
        /// The pawn's owner.
        owner: Player,
        /// Where it stands.
        square: Square,
    },
    /// The side-to-move field is not a player.
    BadSide(String),
    /// No side-to-move field.
    MissingSide,
    /// The ply count is not a number.
    BadPlies(String),
    /// A player has more than one king.
    ExtraKing(Player),
    /// A player has more than 8 pawns.
    TooManyPawns(Player),
    /// A player has more than 16 pieces.
    TooManyPieces(Player),
    /// A king is missing, but its owner moved last: nobody took it.
    KingNotTaken(Player),
    /// Two or three kings are missing.
    KingsMissing,
}

impl fmt::Display for ThreeChessFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ThreeChessFenError as E;
        match self {
            E::Empty => write!(f, "empty ThreeChess FEN"),
            E::FieldCount(n) => write!(
                f,
                "ThreeChess FEN has {n} fields, expected `<blue>|<green>|<red> <side> [<plies>]`"
            ),
            E::SectionCount(n) => write!(
                f,
                "ThreeChess FEN board needs three sections separated by `|`, found {n}"
            ),
            E::RankCount { section, found } => write!(
                f,
                "section {} has {found} ranks, expected 4",
                section.letter()
            ),
            E::EmptyCount(c) => write!(f, "bad empty-square count `{c}` in FEN"),
            E::BadPiece { rank } => write!(
                f,
                "bad piece in ThreeChess FEN rank `{rank}` (pieces are `bK`, `gP`, `rQ`, …)"
            ),
            E::TooManyFiles { rank } => write!(f, "rank `{rank}` has more than 8 files"),
            E::TooFewFiles { rank, files } => {
                write!(f, "rank `{rank}` has {files} files, expected 8")
            }
            E::PromotedPawn { owner, square } => {
                write!(f, "{owner} pawn on {square}: it would have been promoted")
            }
            E::BadSide(s) => write!(f, "bad side to move `{s}`"),
            E::MissingSide => write!(f, "ThreeChess FEN lacks the side to move (b, g or r)"),
            E::BadPlies(s) => write!(f, "bad ply count `{s}`"),
            E::ExtraKing(p) => write!(f, "{p} has more than one king"),
            E::TooManyPawns(p) => write!(f, "{p} has more than 8 pawns"),
            E::TooManyPieces(p) => write!(f, "{p} has more than 16 pieces"),
            E::KingNotTaken(p) => {
                write!(
                    f,
                    "{p}'s king is missing but {p} moved last: no one took it"
                )
            }
            E::KingsMissing => write!(f, "more than one king is missing"),
        }
    }
}

impl std::error::Error for ThreeChessFenError {}

impl Board {
    /// Reads a FEN (see the module documentation), with the reason when it is not a
    /// ThreeChess position.
    pub fn from_fen(fen: &str) -> Result<Board, ThreeChessFenError> {
        use ThreeChessFenError as E;
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err(E::Empty);
        }
        if fields.len() > 3 {
            return Err(E::FieldCount(fields.len()));
        }
        let sections: Vec<&str> = fields[0].split('|').collect();
        if sections.len() != 3 {
            return Err(E::SectionCount(sections.len()));
        }
        let mut b = Board::empty();
        let mut counts = [[0u32; 6]; 3];
        for (section, text) in Player::ALL.into_iter().zip(&sections) {
            let ranks: Vec<&str> = text.split('/').collect();
            if ranks.len() != 4 {
                return Err(E::RankCount {
                    section,
                    found: ranks.len(),
                });
            }
            for (row, rank_text) in ranks.iter().enumerate() {
                let rank = 3 - row as u8;
                let mut file = 0u8;
                let mut chars = rank_text.chars();
                while let Some(c) = chars.next() {
                    if let Some(d) = c.to_digit(10) {
                        if d == 0 || d > 8 {
                            return Err(E::EmptyCount(c));
                        }
                        file += d as u8;
                    } else {
                        let owner = Player::parse(&c.to_string()).filter(|_| c.is_lowercase());
                        let kind = chars.next().and_then(Kind::from_letter);
                        let (Some(owner), Some(kind)) = (owner, kind) else {
                            return Err(E::BadPiece {
                                rank: rank_text.to_string(),
                            });
                        };
                        if file >= 8 {
                            return Err(E::TooManyFiles {
                                rank: rank_text.to_string(),
                            });
                        }
                        let sq = Square::at(section, rank, file);
                        if kind == Kind::Pawn && rank == 0 && section != owner {
                            return Err(E::PromotedPawn { owner, square: sq });
                        }
                        counts[owner.index()][kind.index()] += 1;
                        b.put(sq, Piece::new(owner, kind));
                        file += 1;
                    }
                    if file > 8 {
                        return Err(E::TooManyFiles {
                            rank: rank_text.to_string(),
                        });
                    }
                }
                if file != 8 {
                    return Err(E::TooFewFiles {
                        rank: rank_text.to_string(),
                        files: file,
                    });
                }
            }
        }
        let side = match fields.get(1) {
            Some(s) => Player::parse(s).ok_or_else(|| E::BadSide(s.to_string()))?,
            None => return Err(E::MissingSide),
        };
        let plies = match fields.get(2) {
            Some(s) => s.parse::<u32>().map_err(|_| E::BadPlies(s.to_string()))?,
            None => 0,
        };
        for p in Player::ALL {
            let c = &counts[p.index()];
            if c[Kind::King.index()] > 1 {
                return Err(E::ExtraKing(p));
            }
            if c[Kind::Pawn.index()] > 8 {
                return Err(E::TooManyPawns(p));
            }
            if c.iter().sum::<u32>() > 16 {
                return Err(E::TooManyPieces(p));
            }
        }
        let missing: Vec<Player> = Player::ALL
            .into_iter()
            .filter(|p| counts[p.index()][Kind::King.index()] == 0)
            .collect();
        let status = match missing.as_slice() {
            [] => Status::Ongoing,
            [victim] => {
                let capturer = side.prev();
                if capturer == *victim {
                    return Err(E::KingNotTaken(*victim));
                }
                Status::KingCaptured {
                    capturer,
                    victim: *victim,
                }
            }
            _ => return Err(E::KingsMissing),
        };
        b.set_side_to_move(side);
        b.set_state(status, plies);
        Ok(b)
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        let mut s = String::new();
        for section in Player::ALL {
            if section != Player::Blue {
                s.push('|');
            }
            for rank in (0..4u8).rev() {
                let mut empty = 0;
                for file in 0..8u8 {
                    match self.piece_at(Square::at(section, rank, file)) {
                        None => empty += 1,
                        Some(p) => {
                            if empty > 0 {
                                s.push(char::from(b'0' + empty));
                                empty = 0;
                            }
                            s.push(player_letter(p.player()));
                            s.push(p.kind().letter());
                        }
                    }
                }
                if empty > 0 {
                    s.push(char::from(b'0' + empty));
                }
                if rank > 0 {
                    s.push('/');
                }
            }
        }
        s.push(' ');
        s.push(player_letter(self.side_to_move()));
        s.push_str(&format!(" {}", self.plies()));
        s
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_fen_round_trips() {
        let b = Board::from_fen(START_FEN).unwrap();
        assert_eq!(b.to_fen(), START_FEN);
        assert_eq!(b.key(), Board::startpos().key());
        assert_eq!(Board::startpos().to_fen(), START_FEN);
    }
}
