//! Fairy chess: the tables of a king and one piece against a bare king
//! (`src/fairychess/endgame.rs`) against a plain exhaustive search, under the board's
//! symmetries and the colour swap, on known wins and draws, and the engine converting
//! (and defending) these endings from `tools/fairychess/edge-openings.epd` in self-play.

#[path = "common/rng.rs"]
mod rng;

use jiang::fairychess::endgame::{probe, solved, table, Value};
use jiang::fairychess::{End, Move, PieceKind, Position, PLY_LIMIT};
use jiang::game::{Game, Outcome};
use jiang::request::SearchRequest;
use jiang::search::{search, Score, SearchControl};
use jiang::tt::TranspositionTable;
use rng::Rng;

fn pos(fen: &str) -> Position {
    Position::from_fen(fen).unwrap_or_else(|e| panic!("{fen}: {e}"))
}

/// A FEN with these three pieces (letter, file, rank) and side to move.
fn fen_of(pieces: &[(char, u8, u8)], white_to_move: bool) -> String {
    let mut board = [['.'; 8]; 8];
    for &(c, f, r) in pieces {
        board[r as usize][f as usize] = c;
    }
    let placement = jiang::common::fen::write_board(8, 8, |file, rank| {
        Some(board[rank][file]).filter(|&c| c != '.')
    });
    let side = if white_to_move { 'w' } else { 'b' };
    format!("{placement} {side} - - 0 1")
}

/// A random king, piece and king on distinct squares.
fn random_placement(rng: &mut Rng, kind: PieceKind, white_strong: bool) -> Vec<(char, u8, u8)> {
    let mut squares: Vec<u8> = Vec::new();
    while squares.len() < 3 {
        let s = rng.below(64) as u8;
        if !squares.contains(&s) {
            squares.push(s);
        }
    }
    let (k, x, w) = if white_strong {
        ('K', kind.letter(), 'k')
    } else {
        ('k', kind.letter().to_ascii_lowercase(), 'K')
    };
    [k, x, w]
        .iter()
        .zip(&squares)
        .map(|(&c, &s)| (c, s % 8, s / 8))
        .collect()
}

/// The plain exhaustive search: the value of `p` for the side to move within `depth`
/// plies (a win or loss further away is not seen: `Draw`), from the game's own moves
/// and end rules only.
fn brute(p: &mut Position, depth: u32) -> Value {
    match p.end_by_rule() {
        Some(End::KingCaptured { .. }) => return Value::Loss(0),
        Some(_) => return Value::Draw,
        None => {}
    }
    if depth == 0 {
        return Value::Draw;
    }
    let rank = |v: Value| match v {
        Value::Win(n) => 1000 - i64::from(n),
        Value::Draw => 0,
        Value::Loss(n) => -1000 + i64::from(n),
    };
    let mut best = Value::Loss(0);
    let moves: Vec<Move> = p.legal_moves().iter().copied().collect();
    for m in moves {
        p.make_move(m);
        let v = match brute(p, depth - 1) {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw => Value::Draw,
        };
        p.unmake_move(m);
        if rank(v) > rank(best) {
            best = v;
        }
        if matches!(best, Value::Win(1)) {
            break;
        }
    }
    best
}

/// What the table says within `depth` plies.
fn within(v: Value, depth: u32) -> Value {
    match v {
        Value::Win(n) | Value::Loss(n) if n > depth => Value::Draw,
        v => v,
    }
}

#[test]
fn short_wins_and_losses_agree_with_an_exhaustive_search() {
    let mut rng = Rng::new(27);
    let depth = 5;
    let mut decided = 0;
    for kind in PieceKind::NON_KING {
        // Random positions (mostly draws and wins on the first ply), then ones the table
        // calls a short win or loss (rare at random): each class up to 8 times.
        let mut found = [0usize; 6];
        for n in 0..40_000 {
            let placement = random_placement(&mut rng, kind, n % 2 == 0);
            let f = fen_of(&placement, n % 4 < 2);
            let mut p = pos(&f);
            let t = probe(&p).expect("three pieces");
            let class = match t {
                Value::Win(d) | Value::Loss(d) if d <= depth => d as usize,
                _ => 0,
            };
            if n >= 100 && (class == 0 || found[class] >= 8) {
                continue;
            }
            found[class] += 1;
            let b = brute(&mut p, depth);
            assert_eq!(within(t, depth), b, "{f}: table {t:?}");
            decided += usize::from(class >= 2);
        }
    }
    // Wins and losses beyond the first ply were among them.
    assert!(decided > 40, "{decided}");
}

/// The eight symmetries of the square applied to (file, rank).
fn transform(t: usize, f: u8, r: u8) -> (u8, u8) {
    let (f, r) = if t & 1 != 0 { (7 - f, r) } else { (f, r) };
    let (f, r) = if t & 2 != 0 { (f, 7 - r) } else { (f, r) };
    if t & 4 != 0 {
        (r, f)
    } else {
        (f, r)
    }
}

#[test]
fn symmetric_positions_and_swapped_colours_agree() {
    let mut rng = Rng::new(3243);
    for kind in PieceKind::NON_KING {
        for n in 0..200 {
            let placement = random_placement(&mut rng, kind, true);
            let white_to_move = n % 2 == 0;
            let v = probe(&pos(&fen_of(&placement, white_to_move))).expect("three pieces");
            for t in 0..8 {
                let moved: Vec<(char, u8, u8)> = placement
                    .iter()
                    .map(|&(c, f, r)| {
                        let (f, r) = transform(t, f, r);
                        (c, f, r)
                    })
                    .collect();
                let f = fen_of(&moved, white_to_move);
                assert_eq!(probe(&pos(&f)), Some(v), "{f}");
                // The same with the colours swapped (and the side to move with them).
                let swapped: Vec<(char, u8, u8)> = moved
                    .iter()
                    .map(|&(c, f, r)| {
                        let c = if c.is_ascii_uppercase() {
                            c.to_ascii_lowercase()
                        } else {
                            c.to_ascii_uppercase()
                        };
                        (c, f, r)
                    })
                    .collect();
                let f = fen_of(&swapped, !white_to_move);
                assert_eq!(probe(&pos(&f)), Some(v), "{f}");
            }
        }
    }
}

#[test]
fn which_pieces_win_alone() {
    // King and rook wins from every position with its side to move (the rook side
    // cannot be caught: it moves first and keeps its king away); the bishop and the
    // squire stay on one square colour and cannot cover a king's flight squares of the
    // other: they win only when the bare king is already caught (3 plies at most).
    let rook = table(PieceKind::Rook).unwrap();
    assert!(rook.longest_win() > 25, "{}", rook.longest_win());
    for kind in [PieceKind::Bishop, PieceKind::Squire] {
        assert_eq!(table(kind).unwrap().longest_win(), 3, "{kind:?}");
    }
    // A known win: the rook's side to move, the bare king in the centre, far from the
    // edge; and with a knight on the same squares a draw.
    let win = pos("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
    let Some(Value::Win(n)) = probe(&win) else {
        panic!("{:?}", probe(&win))
    };
    assert!(n > 9 && n <= rook.longest_win(), "{n}");
    let draw = pos("8/8/8/3k4/8/8/8/N3K3 w - - 0 1");
    assert_eq!(probe(&draw), Some(Value::Draw));
    // The king and knight win once the bare king is cornered: Black to move, b8 and b7
    // next to the white king, a7 covered by the knight, and a king must move; the
    // exhaustive search agrees with the table's distance.
    let mut cornered = pos("k7/2K5/8/1N6/8/8/8/8 b - - 0 1");
    let v = probe(&cornered).unwrap();
    assert!(matches!(v, Value::Loss(_)), "{v:?}");
    let Value::Loss(n) = v else { unreachable!() };
    assert_eq!(brute(&mut cornered, n), v);
    // Every piece's table: the rook's side to move wins everywhere.
    let mut rng = Rng::new(1);
    for _ in 0..500 {
        let f = fen_of(&random_placement(&mut rng, PieceKind::Rook, true), true);
        assert!(matches!(probe(&pos(&f)), Some(Value::Win(_))), "{f}");
    }
}

fn best_move(p: &Position, nodes: u64) -> (Option<Move>, i32) {
    let tt = TranspositionTable::new(4);
    let control = SearchControl::new(None, None, false);
    let limits = SearchRequest {
        nodes: Some(nodes),
        ..SearchRequest::default()
    };
    let r = search(p, &limits, &tt, &control, &|_| {});
    (r.best_move, r.score)
}

/// Self-play from the lone-rook openings of the edge measure (both colours are the
/// engine, a few thousand nodes a move): the side with the rook captures the king in
/// exactly the table's number of plies (the fastest win against the longest defence),
/// and the search reports that mate from the start.
#[test]
fn the_engine_converts_lone_rook_openings_perfectly() {
    let epd = include_str!("../tools/fairychess/edge-openings.epd");
    let mut played = 0;
    for line in epd.lines() {
        let mut p = pos(line.trim());
        let Some(Value::Win(n)) = probe(&p) else {
            continue;
        };
        let (_, score) = best_move(&p, 5_000);
        assert_eq!(
            Score::from_internal(score),
            Score::Mate(n.div_ceil(2) as i32),
            "{line}"
        );
        let mut plies = 0;
        while p.end().is_none() {
            let (m, _) = best_move(&p, 3_000);
            let m = m.unwrap_or_else(|| panic!("no move in {}", p.to_fen()));
            assert!(p.legal_moves().contains(m), "{m} in {}", p.to_fen());
            p.make_move(m);
            plies += 1;
        }
        assert_eq!(
            p.end(),
            Some(End::KingCaptured {
                winner: p.side_to_move().flip()
            })
        );
        assert_eq!(plies, n, "{line}");
        played += 1;
    }
    assert!(played >= 4, "{played} won lone-rook openings");
}

/// The ply limit: a lone-rook win that needs more plies than remain is a draw, and the
/// search still plays a legal move there; a drawn knight ending keeps the knight.
#[test]
fn wins_beyond_the_ply_limit_are_draws() {
    // The rook ending above, moved late into the game.
    let early = pos("8/8/8/3k4/8/8/8/R3K3 w - - 0 1");
    let Some(Value::Win(n)) = probe(&early) else {
        panic!()
    };
    let late_move = (PLY_LIMIT - n) / 2 + 2; // White to move at ply 2 * (fullmove - 1)
    let late = pos(&format!("8/8/8/3k4/8/8/8/R3K3 w - - 0 {late_move}"));
    assert_eq!(solved(&late).map(|s| s.0), Some(Outcome::Draw));
    let (m, score) = best_move(&late, 3_000);
    assert!(late.legal_moves().contains(m.unwrap()));
    assert!(
        matches!(Score::from_internal(score), Score::Cp(_)),
        "{score}"
    );
    let (_, score) = best_move(&early, 3_000);
    assert_eq!(
        Score::from_internal(score),
        Score::Mate(n.div_ceil(2) as i32)
    );
    // K+N against K from the middle of the board, the engine on both sides: a draw
    // (it may end with two kings: the search's exchange test still takes a defended
    // last piece for lost, so the side with the knight may leave it next to the bare
    // king, which knows better at its root), never scored as a mate.
    let mut p = pos("8/8/8/3k4/8/8/8/N3K3 w - - 0 1");
    for _ in 0..40 {
        let (m, score) = best_move(&p, 2_000);
        assert!(
            matches!(Score::from_internal(score), Score::Cp(_)),
            "{score} in {}",
            p.to_fen()
        );
        p.make_move(m.unwrap());
        if p.end().is_some() {
            break;
        }
    }
    assert!(
        matches!(p.end(), None | Some(End::KingsOnly)),
        "{:?} in {}",
        p.end(),
        p.to_fen()
    );
}

/// What the search reads (`Game::solved`): wins and losses always; a draw only where the
/// ending came about by a capture inside the search (the halfmove clock is below the
/// node's distance from the root), so that a trade into a dead draw is seen as one; a
/// drawn ending already on the board at the root is searched on.
#[test]
fn the_search_reads_wins_always_and_draws_after_a_capture() {
    for halfmove in [0, 7] {
        let draw = pos(&format!("8/8/8/3k4/8/8/8/N3K3 w - - {halfmove} 1"));
        let win = pos(&format!("8/8/8/3k4/8/8/8/R3K3 w - - {halfmove} 1"));
        for ply in [1, 4] {
            let after_capture = halfmove < ply;
            assert_eq!(
                Game::solved(&draw, ply).map(|s| s.0),
                after_capture.then_some(Outcome::Draw),
                "halfmove {halfmove} ply {ply}"
            );
            let Some(Value::Win(n)) = probe(&win) else {
                panic!()
            };
            assert_eq!(Game::solved(&win, ply), Some((Outcome::Win, n as i32)));
        }
    }
    // More or fewer pieces: no value.
    assert_eq!(
        Game::solved(&pos("8/8/8/3k4/8/8/8/RN2K3 w - - 0 1"), 1),
        None
    );
}
