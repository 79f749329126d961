//! Microchess census (the lab's `census` job): the handout's board positions and start
//! figures, and which states play reaches. The expected numbers are the handout's
//! (docs/games.md, "Microchess"), never read from the solver's code.

use std::collections::HashSet;

use jiang::microchess::table::{layer, states};
use jiang::microchess::{solution, Piece, Position, Side, Square, MAX_PLIES};
use jiang_lab::microchess::census::{census, reachable, start_figures, Census, Indicator};
use once_cell::sync::Lazy;

/// The census, shared by the tests that read it.
static CENSUS: Lazy<Census> = Lazy::new(census);

#[test]
fn board_positions_as_the_handout_counts_them() {
    let c = &*CENSUS;
    assert_eq!(c.board_positions, 116_464);
    assert!(c.states <= states());
    eprintln!(
        "census: {} reachable states ({} with moves to make) of {} in the table; {} board positions as the handout counts them, {} reached exactly",
        c.states,
        c.live_states,
        states(),
        c.board_positions,
        c.boards.len()
    );
}

/// Every placement of every reachable kind (pieces on the board, indicator) is reached,
/// except the finished games whose victim's rook (it just made the last move) stands in
/// a corner with the capturer's king and rook on both neighbouring squares.
#[test]
fn unreached_board_positions_are_the_boxed_in_last_moves() {
    let c = &*CENSUS;
    let kind =
        |placement: &[Option<Square>; 4], indicator| (placement.map(|s| s.is_some()), indicator);
    let kinds: HashSet<_> = c.boards.iter().map(|(p, i)| kind(p, *i)).collect();
    let squares = || std::iter::once(None).chain(Square::all().map(Some));
    let mut unreached = HashSet::new();
    for a in squares() {
        for b in squares() {
            for k in squares() {
                for r in squares() {
                    let placement = [a, b, k, r];
                    let on_board: Vec<_> = placement.iter().flatten().collect();
                    let distinct: HashSet<_> = on_board.iter().collect();
                    if distinct.len() != on_board.len() {
                        continue;
                    }
                    for indicator in [
                        Indicator::ToMove(Side::White),
                        Indicator::ToMove(Side::Black),
                        Indicator::Ended,
                    ] {
                        if kinds.contains(&kind(&placement, indicator))
                            && !c.boards.contains(&(placement, indicator))
                        {
                            unreached.insert(placement);
                        }
                    }
                }
            }
        }
    }
    let mut boxed_in = HashSet::new();
    for corner in ["a1", "d1", "a4", "d4"] {
        let corner = Square::parse(corner).unwrap();
        let near: Vec<Square> = Square::all()
            .filter(|s| (s.file() - corner.file()).abs() + (s.rank() - corner.rank()).abs() == 1)
            .collect();
        for (king, rook) in [(near[0], near[1]), (near[1], near[0])] {
            // Black's rook boxed in by White, Black's king gone; and the colours reversed.
            boxed_in.insert([Some(king), Some(rook), None, Some(corner)]);
            boxed_in.insert([None, Some(corner), Some(king), Some(rook)]);
        }
    }
    assert_eq!(unreached, boxed_in);
    assert_eq!(c.board_positions - c.boards.len(), boxed_in.len());
}

#[test]
fn start_figures_match_the_handout() {
    let f = start_figures(solution());
    assert_eq!(f.starts, 43_680);
    // White forces a win from 27,020 starts, Black from 104.
    assert_eq!(f.guaranteed[0][3], 27_020);
    assert_eq!(f.guaranteed[1][3], 104);
    // White's maximin distribution (payoff 0, 1, 2, 3).
    assert_eq!(f.guaranteed[0], [104, 5_272, 11_284, 27_020]);
    // Black's.
    assert_eq!(f.guaranteed[1], [27_020, 11_112, 5_444, 104]);
}

#[test]
fn every_reachable_state_round_trips_through_fen() {
    let seen = reachable();
    for plies in 0..=MAX_PLIES {
        for pos in layer(plies).filter(|p| seen.get(p)) {
            let text = pos.to_fen();
            assert_eq!(Position::from_fen(&text), Ok(pos), "{text}");
        }
    }
}

#[test]
fn refused_king_less_states_are_unreachable() {
    let seen = reachable();
    let mut refused = 0;
    for plies in 0..=MAX_PLIES {
        for pos in layer(plies) {
            if Position::from_placement(pos.placement(), plies).is_err() {
                assert!(!seen.get(&pos), "{} is reachable", pos.to_fen());
                assert!(!pos.has(Piece::WhiteKing) || !pos.has(Piece::BlackKing));
                refused += 1;
            }
        }
    }
    assert!(refused > 0);
}
