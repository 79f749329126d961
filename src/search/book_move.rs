//! Answering from an opening book before searching: the book's move of the position, if
//! it has one the rules allow here.
//!
//! A book knows positions, not games: a move it stores may be banned here (UCCI
//! `banmoves`), outside `searchmoves`, or may lead into a repetition, which the rules
//! may forbid (perpetual check or chase). Such moves are skipped, so a book never plays
//! what the search itself would refuse; any repetition at all is skipped, to be safe.

use crate::book::BookEntry;
use crate::game::Game;
use crate::request::{BookRequest, SearchRequest};

/// How far back a repetition is looked for after a book move: every position of the
/// game (the rules' own reach bounds it further).
const WHOLE_GAME: usize = 1 << 16;

/// Spreads a seed's bits (splitmix64's finaliser): clock readings differ mostly in their
/// low bits, and the choice takes the seed modulo a small total.
pub fn mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The book's move for `pos`, with its record, chosen with `random`; `None` when the
/// book is of another game, does not know the position, or every move it knows is
/// refused here.
pub fn book_move<G: Game>(
    pos: &G,
    book: &BookRequest,
    limits: &SearchRequest<G::Move>,
    random: u64,
) -> Option<(G::Move, BookEntry)> {
    let variety = book.variety;
    let book = &book.book;
    if book.game() != G::NAME {
        return None;
    }
    let format = book.format();
    let (own, mirrored) = pos.book_keys(format)?;
    let key = book.lookup(own, mirrored);
    let decode = |code: u16| {
        let m = G::book_move_from_code(format, code)?;
        Some(if key.mirrored { G::mirror_move(m) } else { m })
    };
    let allowed = |m: G::Move| {
        if !pos.is_legal(m)
            || limits.banned.contains(&m)
            || (!limits.search_moves.is_empty() && !limits.search_moves.contains(&m))
        {
            return false;
        }
        let mut after = pos.clone();
        after.play(m);
        after
            .rule_outcome(WHOLE_GAME, limits.judge_repetitions)
            .is_none()
    };
    let entry = book.choose(key.key, variety, random, |code| {
        decode(code).is_some_and(allowed)
    })?;
    Some((decode(entry.mv)?, entry))
}
