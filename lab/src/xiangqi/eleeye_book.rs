//! ElephantEye's `BOOK.DAT` from the lab: walking a book from the start position
//! (`jiang-lab book walk FILE`: how much of a book jiang reaches and reads, any format),
//! and writing jiang's book in ElephantEye's layout (`jiang-lab book export-eleeye IN
//! OUT`) for programs that read only that. The format itself is `jiang::book::elephanteye`
//! and `jiang::xiangqi::eleeye`.

use jiang::book::{self, Book, BookEntry};
use jiang::game::{Game, Rules};
use jiang::xiangqi::{eleeye, Move, Position};
use std::collections::{HashSet, VecDeque};

/// The book's moves of `pos` that are legal there, in `pos`'s orientation, and how many
/// records the book has under the key it was looked up by (legal or not), and that key.
pub fn book_moves(b: &Book, pos: &Position) -> (Vec<(Move, BookEntry)>, usize, u64) {
    let Some((own, mirrored)) = pos.book_keys(b.format()) else {
        return (Vec::new(), 0, 0);
    };
    let key = b.lookup(own, mirrored);
    let mut moves = Vec::new();
    let mut records = 0;
    for e in b.entries(key.key) {
        records += 1;
        let Some(m) = <Position as Game>::book_move_from_code(b.format(), e.mv) else {
            continue;
        };
        let m = if key.mirrored {
            <Position as Game>::mirror_move(m)
        } else {
            m
        };
        if pos.is_legal(m) {
            moves.push((m, e));
        }
    }
    (moves, records, key.key)
}

/// What a walk from the start position found.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct WalkReport {
    /// Positions reached (a position and its mirror image count once).
    pub positions: usize,
    /// Records of the positions reached.
    pub records: usize,
    /// Of those, moves that are no legal move of their position.
    pub illegal: usize,
}

/// Walks `b` from the start position along every legal book move, breadth first, calling
/// `visit` once per position (a position and its mirror image are one).
pub fn walk(b: &Book, mut visit: impl FnMut(&Position, &[(Move, BookEntry)])) -> WalkReport {
    let mut report = WalkReport::default();
    let mut seen = HashSet::new();
    let mut keys_read = HashSet::new();
    let mut queue = VecDeque::from([Position::startpos()]);
    while let Some(pos) = queue.pop_front() {
        if !seen.insert(pos.key().min(Game::mirrored_key(&pos).unwrap_or(u64::MAX))) {
            continue;
        }
        let (moves, records, key) = book_moves(b, &pos);
        if records == 0 {
            continue;
        }
        report.positions += 1;
        if keys_read.insert(key) {
            report.records += records;
            report.illegal += records - moves.len();
        }
        visit(&pos, &moves);
        for (m, _) in &moves {
            let mut next = pos.clone();
            next.play(*m);
            queue.push_back(next);
        }
    }
    report
}

/// The lines of `jiang-lab book walk FILE`.
pub fn walk_file(path: &str) -> Result<Vec<String>, String> {
    let b = Book::open(path).map_err(|e| e.to_string())?;
    let r = walk(&b, |_, _| {});
    Ok(vec![
        format!("{path}: {:?} format, {} records", b.format(), b.len()),
        format!(
            "from the start position: {} positions, {} records ({:.1}%), {} of them not a legal move of their position",
            r.positions,
            r.records,
            100.0 * r.records as f64 / b.len().max(1) as f64,
            r.illegal
        ),
    ])
}

/// ElephantEye's records of a book (any format jiang reads): every position reached
/// from the start position, stored as ElephantEye's book maker stores it (the position
/// or its mirror image, whichever has the smaller lock); moves of weight 0 are left out
/// (ElephantEye has no such moves, and its choice divides by the weights' sum).
pub fn eleeye_records(b: &Book) -> Vec<(u32, u16, u16)> {
    let mut records = Vec::new();
    walk(b, |pos, moves| {
        let (own, mirrored) = (eleeye::lock(pos, false), eleeye::lock(pos, true));
        for (m, e) in moves.iter().filter(|(_, e)| e.weight > 0) {
            records.push(if own <= mirrored {
                (own, eleeye::move_to_code(*m), e.weight)
            } else {
                let m = <Position as Game>::mirror_move(*m);
                (mirrored, eleeye::move_to_code(m), e.weight)
            });
        }
    });
    records
}

/// `jiang-lab book export-eleeye IN OUT`: writes `IN`'s positions reachable from the
/// start in ElephantEye's layout.
pub fn export(input: &str, output: &str) -> Result<Vec<String>, String> {
    let b = Book::open(input).map_err(|e| e.to_string())?;
    let mut records = eleeye_records(&b);
    let bytes = book::elephanteye::encode(&mut records);
    std::fs::write(output, &bytes).map_err(|e| format!("{output}: {e}"))?;
    Ok(vec![format!(
        "{output}: {} records of {} ({} bytes)",
        records.len(),
        input,
        bytes.len()
    )])
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::borrow::Cow;

    /// The embedded book exported to ElephantEye's layout and read back: every position
    /// has the same moves with the same weights in both.
    #[test]
    fn the_embedded_book_exports_to_elephanteye_and_reads_back() {
        let ours = jiang::xiangqi::book::default_book().expect("the embedded book");
        let mut records = eleeye_records(&ours);
        let exported =
            Book::from_elephanteye_bytes(Cow::Owned(book::elephanteye::encode(&mut records)))
                .expect("an ElephantEye book");
        let mut compared = 0;
        let report = walk(&ours, |pos, moves| {
            let mut want: Vec<(Move, u16)> = moves
                .iter()
                .filter(|(_, e)| e.weight > 0)
                .map(|(m, e)| (*m, e.weight))
                .collect();
            let mut got: Vec<(Move, u16)> = book_moves(&exported, pos)
                .0
                .iter()
                .map(|(m, e)| (*m, e.weight))
                .collect();
            want.sort_by_key(|&(m, _)| m.to_u16());
            got.sort_by_key(|&(m, _)| m.to_u16());
            assert_eq!(got, want, "{}", pos.to_fen());
            compared += 1;
        });
        assert_eq!(report.illegal, 0);
        // The walk reaches (nearly) the whole book: it was grown from the start.
        assert!(report.records * 10 >= ours.len() * 9, "{report:?}");
        let back = walk(&exported, |_, _| {});
        assert_eq!(back.positions, compared);
        assert_eq!(back.illegal, 0);
        assert_eq!(back.records, exported.len());
    }
}
