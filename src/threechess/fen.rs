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

/// The start position's FEN.
pub const START_FEN: &str = "8/8/bPbPbPbPbPbPbPbP/bRbNbBbQbKbBbNbR|8/8/gPgPgPgPgPgPgPgP/gRgNgBgQgKgBgNgR|8/8/rPrPrPrPrPrPrPrP/rRrNrBrQrKrBrNrR b 0";

fn player_letter(p: Player) -> char {
    p.letter().to_ascii_lowercase()
}

impl Board {
    /// Reads a FEN (see the module documentation), with a one-line reason when it is not
    /// a ThreeChess position.
    pub fn from_fen(fen: &str) -> Result<Board, String> {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        if fields.is_empty() {
            return Err("empty ThreeChess FEN".into());
        }
        if fields.len() > 3 {
            return Err(format!(
                "ThreeChess FEN has {} fields, expected `<blue>|<green>|<red> <side> [<plies>]`",
                fields.len()
            ));
        }
        let sections: Vec<&str> = fields[0].split('|').collect();
        if sections.len() != 3 {
            return Err(format!(
                "ThreeChess FEN board needs three sections separated by `|`, found {}",
                sections.len()
            ));
        }
        let mut b = Board::empty();
        let mut counts = [[0u32; 6]; 3];
        for (section, text) in Player::ALL.into_iter().zip(&sections) {
            let ranks: Vec<&str> = text.split('/').collect();
            if ranks.len() != 4 {
                return Err(format!(
                    "section {} has {} ranks, expected 4",
                    section.letter(),
                    ranks.len()
                ));
            }
            for (row, rank_text) in ranks.iter().enumerate() {
                let rank = 3 - row as u8;
                let mut file = 0u8;
                let mut chars = rank_text.chars();
                while let Some(c) = chars.next() {
                    if let Some(d) = c.to_digit(10) {
                        if d == 0 || d > 8 {
                            return Err(format!("bad empty-square count `{c}` in FEN"));
                        }
                        file += d as u8;
                    } else {
                        let owner = Player::parse(&c.to_string()).filter(|_| c.is_lowercase());
                        let kind = chars.next().and_then(Kind::from_letter);
                        let (Some(owner), Some(kind)) = (owner, kind) else {
                            return Err(format!(
                                "bad piece in ThreeChess FEN rank `{rank_text}` (pieces are \
                                 `bK`, `gP`, `rQ`, …)"
                            ));
                        };
                        if file >= 8 {
                            return Err(format!("rank `{rank_text}` has more than 8 files"));
                        }
                        let sq = Square::at(section, rank, file);
                        if kind == Kind::Pawn && rank == 0 && section != owner {
                            return Err(format!(
                                "{owner} pawn on {sq}: it would have been promoted"
                            ));
                        }
                        counts[owner.index()][kind.index()] += 1;
                        b.put(sq, Piece::new(owner, kind));
                        file += 1;
                    }
                    if file > 8 {
                        return Err(format!("rank `{rank_text}` has more than 8 files"));
                    }
                }
                if file != 8 {
                    return Err(format!("rank `{rank_text}` has {file} files, expected 8"));
                }
            }
        }
        let side = match fields.get(1) {
            Some(s) => Player::parse(s).ok_or_else(|| format!("bad side to move `{s}`"))?,
            None => return Err("ThreeChess FEN lacks the side to move (b, g or r)".into()),
        };
        let plies = match fields.get(2) {
            Some(s) => s
                .parse::<u32>()
                .map_err(|_| format!("bad ply count `{s}`"))?,
            None => 0,
        };
        for p in Player::ALL {
            let c = &counts[p.index()];
            if c[Kind::King.index()] > 1 {
                return Err(format!("{p} has more than one king"));
            }
            if c[Kind::Pawn.index()] > 8 {
                return Err(format!("{p} has more than 8 pawns"));
            }
            if c.iter().sum::<u32>() > 16 {
                return Err(format!("{p} has more than 16 pieces"));
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
                    return Err(format!(
                        "{victim}'s king is missing but {victim} moved last: no one took it"
                    ));
                }
                Status::KingCaptured {
                    capturer,
                    victim: *victim,
                }
            }
            _ => return Err("more than one king is missing".into()),
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
