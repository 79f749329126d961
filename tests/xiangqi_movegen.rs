//! The fast move generator against an independent oracle, plus property tests.
//!
//! The oracle (`common::SlowBoard`) is written from the rules alone on a plain 90-cell
//! array: it generates pseudo-legal moves piece by piece, plays each on a copy and rejects
//! it if the mover's king could then be captured by any enemy piece or faces the other
//! king. Positions come from seeded random playouts (start position, hand-written
//! endgames, random sparse placements). At every position we check:
//! * legal moves (fast) == legal moves (oracle), as sets, without duplicates;
//! * `in_check()` and `checkers()` agree with the oracle;
//! * the Captures and Quiets stages partition All;
//! * for each legal move: `is_legal`, `is_pseudo_legal`, `gives_check(m)` == (make m;
//!   `in_check()`) == oracle check after m, `key_after(m)` == key after make, the made
//!   position is consistent with `key() == compute_key()`, and unmake restores the
//!   position exactly (`==`, FEN, key);
//! * `is_pseudo_legal`/`is_legal` against the oracle for every oracle pseudo-legal move
//!   (including the illegal ones) and for random (from, to) pairs;
//! * `parse_legal_move` accepts a legal move and rejects an illegal one;
//! * `to_fen` → `from_fen` round-trips (FEN, key, checkers, board).

mod common;

use common::{fen_of, fen_of_cells, reachable, sq, to_move, Rng, SlowBoard};
use jiang::common::{FenError, MoveError};
use jiang::movelist::MoveList;
use jiang::xiangqi::{Color, GenType, Move, Piece, PieceKind, Position, Square, START_FEN};
use std::collections::HashSet;
use std::time::Instant;

// ----- the per-position check ------------------------------------------------------------

fn move_names(moves: &[Move]) -> String {
    let mut v: Vec<String> = moves.iter().map(|m| m.to_string()).collect();
    v.sort();
    v.join(" ")
}

fn set_of(moves: &[Move]) -> HashSet<Move> {
    moves.iter().copied().collect()
}

fn square_set(bb: impl IntoIterator<Item = Square>) -> HashSet<usize> {
    bb.into_iter().map(|s| s.index()).collect()
}

/// Statistics of a run.
#[derive(Default, Debug)]
struct Stats {
    positions: usize,
    moves: usize,
    in_check: usize,
    no_moves: usize,
    pseudo_illegal: usize,
}

/// Checks every property at `pos` (which is left unchanged). Returns the legal moves.
fn check_position(pos: &mut Position, rng: &mut Rng, stats: &mut Stats) -> Vec<Move> {
    let fen = pos.to_fen();
    let slow = SlowBoard::from_position(pos);

    // Legal moves, as sets, without duplicates.
    let fast = pos.legal_moves();
    let fast_set = set_of(fast.as_slice());
    assert_eq!(
        fast_set.len(),
        fast.len(),
        "{fen}: duplicate moves in {}",
        move_names(fast.as_slice())
    );
    let oracle = slow.legal_moves();
    let oracle_set = set_of(&oracle);
    if fast_set != oracle_set {
        let missing: Vec<Move> = oracle_set.difference(&fast_set).copied().collect();
        let extra: Vec<Move> = fast_set.difference(&oracle_set).copied().collect();
        panic!(
            "move generation disagrees with the oracle at {fen}\n  missing: {}\n  extra:   {}",
            move_names(&missing),
            move_names(&extra)
        );
    }

    // Check status and checkers.
    let oracle_check = slow.in_check();
    assert_eq!(pos.in_check(), oracle_check, "{fen}: in_check");
    let oracle_checkers: HashSet<usize> = slow.attackers_of_king(slow.side).into_iter().collect();
    assert_eq!(
        square_set(pos.checkers()),
        oracle_checkers,
        "{fen}: checkers"
    );

    // Stages: Captures and Quiets partition All.
    let mut caps = MoveList::new();
    let mut quiets = MoveList::new();
    let mut all = MoveList::new();
    pos.generate(GenType::Captures, &mut caps);
    pos.generate(GenType::Quiets, &mut quiets);
    pos.generate(GenType::All, &mut all);
    let us = pos.side_to_move();
    for &m in caps.iter() {
        assert!(
            matches!(pos.piece_at(m.to()), Some(p) if p.color() != us),
            "{fen}: capture {m} does not capture"
        );
    }
    for &m in quiets.iter() {
        assert!(pos.piece_at(m.to()).is_none(), "{fen}: quiet {m} captures");
    }
    let caps_set = set_of(caps.as_slice());
    let quiet_set = set_of(quiets.as_slice());
    assert_eq!(caps_set.len(), caps.len(), "{fen}: duplicate captures");
    assert_eq!(quiet_set.len(), quiets.len(), "{fen}: duplicate quiets");
    assert!(caps_set.is_disjoint(&quiet_set), "{fen}: stages overlap");
    let union: HashSet<Move> = caps_set.union(&quiet_set).copied().collect();
    assert_eq!(union, fast_set, "{fen}: Captures + Quiets != All");
    assert_eq!(set_of(all.as_slice()), fast_set, "{fen}: generate(All)");

    // Each legal move: gives_check, make (consistency, key), unmake (exact restore).
    let before = pos.clone();
    let key = pos.key();
    let rule60 = pos.rule60();
    for &m in fast.iter() {
        assert!(
            pos.is_legal(m),
            "{fen}: is_legal({m}) false for a generated move"
        );
        assert!(pos.is_pseudo_legal(m), "{fen}: is_pseudo_legal({m}) false");
        let gives = pos.gives_check(m);
        let key_after = pos.key_after(m);
        let capture = pos.piece_at(m.to()).is_some();
        pos.make_move(m);
        assert!(pos.is_consistent(), "{fen}: inconsistent after {m}");
        assert_eq!(pos.key(), pos.compute_key(), "{fen}: key after {m}");
        assert_eq!(pos.key(), key_after, "{fen}: key_after({m})");
        assert_eq!(pos.side_to_move(), us.flip(), "{fen}: side after {m}");
        let expected_rule60 = if capture { 0 } else { rule60 + 1 };
        assert_eq!(pos.rule60(), expected_rule60, "{fen}: rule60 after {m}");
        let child_check = slow.apply(m.from().index(), m.to().index()).in_check();
        assert_eq!(pos.in_check(), child_check, "{fen}: in_check after {m}");
        assert_eq!(gives, child_check, "{fen}: gives_check({m})");
        pos.unmake_move(m);
        assert_eq!(pos.key(), key, "{fen}: key after unmake {m}");
        assert_eq!(pos.to_fen(), fen, "{fen}: FEN after unmake {m}");
        assert!(*pos == before, "{fen}: position differs after unmake {m}");
    }
    assert!(pos.is_consistent(), "{fen}: inconsistent");

    // Every oracle pseudo-legal move (legal or not) and random (from, to) pairs.
    let pseudo = slow.pseudo_moves();
    let pseudo_set = set_of(&pseudo);
    for &m in &pseudo {
        assert!(pos.is_pseudo_legal(m), "{fen}: is_pseudo_legal({m}) false");
        assert_eq!(
            pos.is_legal(m),
            fast_set.contains(&m),
            "{fen}: is_legal({m})"
        );
        if !fast_set.contains(&m) {
            stats.pseudo_illegal += 1;
        }
    }
    let own: Vec<usize> = (0..90)
        .filter(|&i| matches!(slow.cells[i], Some(p) if p.color() == us))
        .collect();
    for i in 0..24 {
        // Half the pairs start on one of our pieces, so that they are not all trivial.
        let from = if i % 2 == 0 {
            own[rng.below(own.len())]
        } else {
            rng.below(90)
        };
        let to = rng.below(90);
        if from == to {
            continue;
        }
        let m = to_move(from, to);
        assert_eq!(
            pos.is_legal(m),
            fast_set.contains(&m),
            "{fen}: is_legal({m}) for a random pair"
        );
        assert_eq!(
            pos.is_pseudo_legal(m),
            pseudo_set.contains(&m),
            "{fen}: is_pseudo_legal({m}) for a random pair"
        );
        if !fast_set.contains(&m) {
            assert!(
                matches!(
                    pos.parse_legal_move(&m.to_string()),
                    Err(MoveError::Illegal(_))
                ),
                "{fen}: parse_legal_move({m}) should be Illegal"
            );
        }
    }
    if !fast.is_empty() {
        let m = fast.as_slice()[rng.below(fast.len())];
        assert_eq!(
            pos.parse_legal_move(&m.to_string()),
            Ok(m),
            "{fen}: parse {m}"
        );
    }

    // FEN round trip.
    let back = Position::from_fen(&fen).unwrap_or_else(|e| panic!("{fen}: reparse: {e}"));
    assert_eq!(back.to_fen(), fen, "FEN round trip");
    assert_eq!(back.key(), pos.key(), "{fen}: key after FEN round trip");
    assert_eq!(
        back.checkers(),
        pos.checkers(),
        "{fen}: checkers round trip"
    );
    assert!(
        SlowBoard::from_position(&back) == slow,
        "{fen}: board round trip"
    );
    assert!(back.is_consistent());

    stats.positions += 1;
    stats.moves += fast.len();
    stats.in_check += usize::from(oracle_check);
    stats.no_moves += usize::from(fast.is_empty());
    oracle
}

/// How a playout picks its moves: captures with probability `capture`%, checking moves
/// with probability `check`% (when there are any), otherwise uniformly.
#[derive(Clone, Copy)]
struct Style {
    capture: usize,
    check: usize,
}

/// Plays random legal moves from `pos`, checking every position on the way, until the
/// game ends (no legal move, or 120 plies without capture) or `max_plies` were played.
fn playout(pos: &mut Position, rng: &mut Rng, max_plies: usize, style: Style, stats: &mut Stats) {
    for _ in 0..=max_plies {
        let moves = check_position(pos, rng, stats);
        if moves.is_empty() || pos.rule60() >= 119 {
            break;
        }
        let captures: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to()).is_some())
            .collect();
        let checks: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.gives_check(m))
            .collect();
        let m = if !captures.is_empty() && rng.chance(style.capture, 100) {
            captures[rng.below(captures.len())]
        } else if !checks.is_empty() && rng.chance(style.check, 100) {
            checks[rng.below(checks.len())]
        } else {
            moves[rng.below(moves.len())]
        };
        pos.make_move(m);
    }
}

// ----- random sparse positions -------------------------------------------------------------

/// Puts `p` on a random empty square it can stand on.
fn place(rng: &mut Rng, p: Piece, cells: &mut [Option<Piece>; 90]) {
    loop {
        let i = rng.below(90);
        if cells[i].is_none() && reachable(p, (i % 9) as i32, (i / 9) as i32) {
            cells[i] = Some(p);
            return;
        }
    }
}

/// A random legal position with few pieces: both kings plus up to `extra` more pieces on
/// squares they can reach; the side not to move must not be in check.
fn random_sparse(rng: &mut Rng, extra: usize) -> Position {
    loop {
        let mut cells: [Option<Piece>; 90] = [None; 90];
        place(rng, Piece::new(Color::Red, PieceKind::King), &mut cells);
        place(rng, Piece::new(Color::Black, PieceKind::King), &mut cells);
        let n = rng.below(extra + 1);
        let mut counts = [0u32; 14];
        for _ in 0..n {
            let color = if rng.chance(1, 2) {
                Color::Red
            } else {
                Color::Black
            };
            // Favour the long-range pieces, which make the interesting pins.
            let kind = match rng.below(10) {
                0 | 1 => PieceKind::Chariot,
                2 | 3 => PieceKind::Cannon,
                4 | 5 => PieceKind::Horse,
                6 | 7 => PieceKind::Soldier,
                8 => PieceKind::Advisor,
                _ => PieceKind::Elephant,
            };
            let p = Piece::new(color, kind);
            let max = if kind == PieceKind::Soldier { 5 } else { 2 };
            if counts[p.index()] < max {
                counts[p.index()] += 1;
                place(rng, p, &mut cells);
            }
        }
        let side = if rng.chance(1, 2) {
            Color::Red
        } else {
            Color::Black
        };
        let fen = fen_of_cells(&cells, side);
        let slow = SlowBoard { cells, side };
        match Position::from_fen(&fen) {
            Ok(pos) => {
                assert!(
                    !slow.king_exposed(side.flip()),
                    "{fen}: accepted, but the side not to move is in check"
                );
                return pos;
            }
            Err(e) => {
                assert_eq!(e, FenError::OpponentInCheck, "{fen}");
                assert!(
                    slow.king_exposed(side.flip()),
                    "{fen}: rejected ({e}) although the oracle finds it legal"
                );
            }
        }
    }
}

// ----- random tests ------------------------------------------------------------------------

#[test]
fn random_playouts_from_start() {
    let t = Instant::now();
    let mut rng = Rng::new(0x5eed_0001);
    let mut stats = Stats::default();
    let mut games = 0;
    while stats.positions < 50_000 {
        let mut pos = Position::from_fen(START_FEN).unwrap();
        // Plain random games, capture-hungry ones (which thin the board out) and
        // check-hungry ones (which exercise the evasion generator).
        let style = [
            Style {
                capture: 0,
                check: 0,
            },
            Style {
                capture: 60,
                check: 0,
            },
            Style {
                capture: 20,
                check: 50,
            },
        ][games % 3];
        playout(&mut pos, &mut rng, 300, style, &mut stats);
        games += 1;
    }
    eprintln!(
        "start playouts: {games} games, {stats:?}, {:?}",
        t.elapsed()
    );
    assert!(stats.in_check > 1000, "too few checks seen: {stats:?}");
}

/// Hand-written endgames and middlegames, all legal, with few pieces.
const SPARSE_FENS: &[&str] = &[
    "3aka3/9/9/9/9/9/9/9/9/3K1R3 w - - 0 1",
    "4k4/9/4b4/9/2p6/9/9/7C1/4A4/3AK4 w - - 0 1",
    "3k5/9/3P5/9/9/9/9/9/4n4/4K4 w - - 0 1",
    "4k4/9/9/9/9/9/9/9/r8/3K5 w - - 0 1",
    "2bak4/4a4/4b4/p8/2c6/6R2/P3C4/9/4A4/2B1KA3 b - - 0 1",
    "4k4/3P5/6N2/9/9/9/9/9/4c4/3K5 b - - 0 1",
    "4ka3/9/9/9/9/9/9/9/4C4/3KR4 w - - 0 1",
    "2b1k4/9/9/9/9/9/9/4C4/9/3K1c3 w - - 0 1",
    "1R2k4/9/4bc3/p8/6n2/9/P8/9/4A4/3AK4 b - - 0 1",
    "3k5/4P4/9/9/9/9/9/9/3p5/4K4 w - - 0 1",
    "5k3/9/9/9/1C7/2h6/9/9/9/3K1r3 w - - 0 1",
    "r2ak4/4a4/4b4/9/9/9/9/4B4/4A4/R2AK4 w - - 0 1",
];

#[test]
fn random_playouts_from_sparse_positions() {
    let t = Instant::now();
    let mut rng = Rng::new(0x5eed_0002);
    let mut stats = Stats::default();
    for fen in SPARSE_FENS {
        if let Err(e) = Position::from_fen(fen) {
            panic!("bad test FEN {fen}: {e}");
        }
    }
    let mut games = 0;
    while stats.positions < 25_000 {
        let fen = SPARSE_FENS[games % SPARSE_FENS.len()];
        let mut pos = Position::from_fen(fen).unwrap();
        let style = Style {
            capture: 10,
            check: if games % 2 == 0 { 0 } else { 40 },
        };
        playout(&mut pos, &mut rng, 120, style, &mut stats);
        games += 1;
    }
    eprintln!(
        "sparse playouts: {games} games, {stats:?}, {:?}",
        t.elapsed()
    );
}

#[test]
fn random_sparse_placements() {
    let t = Instant::now();
    let mut rng = Rng::new(0x5eed_0003);
    let mut stats = Stats::default();
    let mut boards = 0;
    while stats.positions < 40_000 {
        let extra = [3, 6, 10, 16][boards % 4];
        let mut pos = random_sparse(&mut rng, extra);
        let style = Style {
            capture: 0,
            check: 25,
        };
        playout(&mut pos, &mut rng, 12, style, &mut stats);
        boards += 1;
    }
    eprintln!(
        "random placements: {boards} boards, {stats:?}, {:?}",
        t.elapsed()
    );
    assert!(stats.no_moves > 0, "no mate or stalemate seen: {stats:?}");
}

// ----- hand-written rule checks ------------------------------------------------------------

/// Sets up a position from (square, letter) pairs, checks it fully against the oracle and
/// returns it.
fn setup(pieces: &[(&str, char)], side: Color) -> Position {
    let fen = fen_of(pieces, side);
    let mut pos = Position::from_fen(&fen).unwrap_or_else(|e| panic!("bad test FEN {fen}: {e}"));
    let mut rng = Rng::new(7);
    check_position(&mut pos, &mut rng, &mut Stats::default());
    pos
}

fn mv(s: &str) -> Move {
    Move::parse(s).unwrap()
}

/// Destinations (as names) of the legal moves from `from`, sorted.
fn moves_from(pos: &Position, from: &str) -> Vec<String> {
    let f = sq(from);
    let mut v: Vec<String> = pos
        .legal_moves()
        .iter()
        .filter(|m| m.from().index() == f)
        .map(|m| m.to().to_string())
        .collect();
    v.sort();
    v
}

fn names(list: &[&str]) -> Vec<String> {
    let mut v: Vec<String> = list.iter().map(|s| s.to_string()).collect();
    v.sort();
    v
}

#[test]
fn flying_general_pins_the_only_piece_between_kings() {
    //   9 . . . . k . . . .      The red horse on e4 is the only piece between the
    //   ...                      kings: any horse move leaves the e-file, so the horse
    //   4 . . . . N . . . .      has no legal move at all.
    //   ...
    //   1 . . . . K . . . .
    //     a b c d e f g h i
    let pos = setup(&[("e1", 'K'), ("e4", 'N'), ("e9", 'k')], Color::Red);
    assert!(moves_from(&pos, "e4").is_empty());
    assert!(!pos.is_legal(mv("e4d6")));
    assert_eq!(
        pos.parse_legal_move("e4d6"),
        Err(MoveError::Illegal("e4d6".to_string()))
    );
    // The king itself may step anywhere in the palace: the horse still stands between.
    assert_eq!(moves_from(&pos, "e1"), names(&["d1", "f1", "e0", "e2"]));

    //   9 . . . . k . . . .      A cannon between the kings (no screen, so it does not
    //   ...                      attack e9) may slide along the e-file but never leave it.
    //   3 . . . . C . . . .
    //   0 . . . . K . . . .
    let pos = setup(&[("e0", 'K'), ("e3", 'C'), ("e9", 'k')], Color::Red);
    assert_eq!(
        moves_from(&pos, "e3"),
        names(&["e1", "e2", "e4", "e5", "e6", "e7", "e8"])
    );
}

#[test]
fn king_cannot_step_onto_an_open_file_facing_the_other_king() {
    //   9 . . . . k . . . .      Red king on d0: e0 would face the black king on the open
    //   ...                      e-file, so only d1 is legal.
    //   0 . . . K . . . . .
    let pos = setup(&[("d0", 'K'), ("e9", 'k'), ("a5", 'R')], Color::Red);
    assert_eq!(moves_from(&pos, "d0"), names(&["d1"]));
    assert!(!pos.is_legal(mv("d0e0")));
    assert!(pos.is_pseudo_legal(mv("d0e0")));
}

#[test]
fn horse_leg_blocks() {
    //   6 . . . . . . . . .
    //   5 . . . . p . . . .      Horse e4: leg e5 blocked (no d6, f6), leg f4 blocked
    //   4 . . . . N R . . .      (no g5, g3); legs d4 and e3 free: c5, c3, d2, f2.
    //   0 . . . K . . . . .      (Black king on e9.)
    let pos = setup(
        &[
            ("d0", 'K'),
            ("e4", 'N'),
            ("f4", 'R'),
            ("e5", 'p'),
            ("e9", 'k'),
        ],
        Color::Red,
    );
    assert_eq!(moves_from(&pos, "e4"), names(&["c5", "c3", "d2", "f2"]));
    // The start position: b0 horse's leg c0 holds the elephant, so no b0-d1.
    let start = Position::startpos();
    assert_eq!(moves_from(&start, "b0"), names(&["a2", "c2"]));
}

#[test]
fn elephant_eye_blocks_and_elephants_never_cross_the_river() {
    //   5 ~ ~ ~ ~ ~ ~ ~ ~ ~      river between ranks 4 and 5
    //   4 . . . . . . B . .      Elephant e2: eye d3 is blocked (no c4); g4 is our own
    //   3 . . . R . . . . .      elephant; c0 and g0 are free. Elephant g4: e6 and i6
    //   2 . . . . B . . . .      lie across the river, e2 is ours, so only i2.
    //   0 . . . K . . . . .      (Black king f9.)
    let pos = setup(
        &[
            ("d0", 'K'),
            ("e2", 'B'),
            ("g4", 'B'),
            ("d3", 'R'),
            ("f9", 'k'),
        ],
        Color::Red,
    );
    assert_eq!(moves_from(&pos, "e2"), names(&["c0", "g0"]));
    assert_eq!(moves_from(&pos, "g4"), names(&["i2"]));
    assert!(!pos.is_pseudo_legal(mv("g4e6")));
    assert!(!pos.is_pseudo_legal(mv("e2c4")));
}

#[test]
fn cannon_captures_over_exactly_one_screen() {
    //   9 . r . . k . . . .      Cannon b2: up the b-file b3..b6 are free, n on b7 is the
    //   8 . . . . . . . . .      screen and r on b9 can be captured; b7 itself cannot.
    //   7 . n . . . . . . .      Along rank 2: a2 and c2 free; beyond d2 (one screen) f2
    //   2 . C . A . A . r .      is our own piece, and the r on h2 sits behind two
    //   0 . . . K . . . . .      screens: no capture.
    let pos = setup(
        &[
            ("d0", 'K'),
            ("b2", 'C'),
            ("d2", 'A'),
            ("f2", 'A'),
            ("h2", 'r'),
            ("b7", 'n'),
            ("b9", 'r'),
            ("e9", 'k'),
        ],
        Color::Red,
    );
    assert_eq!(
        moves_from(&pos, "b2"),
        names(&["a2", "c2", "b1", "b0", "b3", "b4", "b5", "b6", "b9"])
    );
    assert!(!pos.is_pseudo_legal(mv("b2b7")));
    assert!(!pos.is_pseudo_legal(mv("b2h2")));
}

#[test]
fn stepping_into_an_empty_cannon_line_is_illegal() {
    //   9 . . . . . k . . .      The black cannon on e5 faces the red king over an empty
    //   5 . . . . c . . . .      line: no check. Any red piece stepping onto e1..e4 would
    //   3 R . . . . . . . .      become its screen: the chariot may not stop on e3 (but
    //   0 . . . A K . . . .      passes it), the advisor may not go to e1. The king may
    //     a b c d e f g h i      go to e1 (no screen), not to f0 (faces the king on f9).
    let pos = setup(
        &[
            ("e0", 'K'),
            ("d0", 'A'),
            ("a3", 'R'),
            ("e5", 'c'),
            ("f9", 'k'),
        ],
        Color::Red,
    );
    assert!(!pos.in_check());
    let chariot = moves_from(&pos, "a3");
    assert!(!chariot.contains(&"e3".to_string()));
    assert!(chariot.contains(&"f3".to_string()) && chariot.contains(&"i3".to_string()));
    assert!(moves_from(&pos, "d0").is_empty());
    assert!(pos.is_pseudo_legal(mv("d0e1")) && !pos.is_legal(mv("d0e1")));
    assert_eq!(moves_from(&pos, "e0"), names(&["e1"]));
}

#[test]
fn screen_pair_in_front_of_a_cannon() {
    //   6 . . . . c . . . .      Two red pieces (e2, e3) between the king and the cannon:
    //   3 . . . . R . . . .      the horse leaving the file leaves one screen (check), so
    //   2 . . . . N . . . .      it has no move; the chariot may move up the file (e4,
    //   0 . . . . K . . . .      e5) or take the cannon, but not leave the file.
    let pos = setup(
        &[
            ("e0", 'K'),
            ("e2", 'N'),
            ("e3", 'R'),
            ("e6", 'c'),
            ("d9", 'k'),
        ],
        Color::Red,
    );
    assert!(moves_from(&pos, "e2").is_empty());
    assert_eq!(moves_from(&pos, "e3"), names(&["e4", "e5", "e6"]));
    // d0 faces the king on d9; e1 keeps both screens.
    assert_eq!(moves_from(&pos, "e0"), names(&["e1", "f0"]));

    //   7 . . . . c . . . .      Screens: our chariot e1 and a black horse e4. Capturing
    //   4 . . . . n . . . .      the horse would leave the chariot as the only screen:
    //   1 . . . . R . . . .      illegal. The chariot may only move to e2, e3.
    //   0 . . . . K . . . .
    let pos = setup(
        &[
            ("e0", 'K'),
            ("e1", 'R'),
            ("e4", 'n'),
            ("e7", 'c'),
            ("f9", 'k'),
        ],
        Color::Red,
    );
    assert_eq!(moves_from(&pos, "e1"), names(&["e2", "e3"]));
    assert!(!pos.is_legal(mv("e1e4")));
    assert_eq!(moves_from(&pos, "e0"), names(&["d0"]));
}

#[test]
fn horse_leg_discovered_check_and_leg_pin() {
    //   9 . . . . k . . . .      The red horse on g8 attacks e9 through its leg f8, which
    //   8 . . . . . R N . .      our chariot blocks. Moving the chariot down the f-file
    //   0 . . . K . . . . .      discovers the horse's check.
    let mut pos = setup(
        &[("d0", 'K'), ("f8", 'R'), ("g8", 'N'), ("e9", 'k')],
        Color::Red,
    );
    let m = mv("f8f5");
    assert!(pos.is_legal(m));
    assert!(pos.gives_check(m));
    pos.make_move(m);
    assert!(pos.in_check());
    assert_eq!(square_set(pos.checkers()), [sq("g8")].into_iter().collect());
    pos.unmake_move(m);

    //   9 . . . k . . . . .      The black horse on g1 would check e0 through its leg f1,
    //   1 . . . . . R n . .      where our chariot stands: the chariot may only capture
    //   0 . . . . K . . . .      the horse.
    let pos = setup(
        &[("e0", 'K'), ("f1", 'R'), ("g1", 'n'), ("d9", 'k')],
        Color::Red,
    );
    assert_eq!(moves_from(&pos, "f1"), names(&["g1"]));
}

#[test]
fn stalemate_is_a_position_without_moves() {
    //   9 . . . . k . . . .      Red is not in check, but e0 faces the black king and
    //   1 r . . . . . . . .      d1 is on the chariot's rank: no legal move (Red lost).
    //   0 . . . K . . . . .
    let pos = setup(&[("d0", 'K'), ("a1", 'r'), ("e9", 'k')], Color::Red);
    assert!(!pos.in_check());
    assert!(pos.legal_moves().is_empty());
    assert!(!pos.has_legal_move());

    //   Checkmate for comparison: the chariot on d5 checks down the d-file, e0 faces e9.
    let pos = setup(
        &[("d0", 'K'), ("d5", 'r'), ("a1", 'r'), ("e9", 'k')],
        Color::Red,
    );
    assert!(pos.in_check());
    assert!(pos.legal_moves().is_empty());
}

#[test]
fn soldiers_move_sideways_only_after_the_river() {
    //   9 P . . . . k . . .      Red soldiers: c3 and e4 (own half) only forward; c5
    //   5 . . P . . . . . .      (crossed) forward and sideways; a9 (last rank) only
    //   4 . . . . P . . . .      sideways to b9. Never backwards.
    //   3 . . P . . . . . .
    //   0 . . . K . . . . .
    let pos = setup(
        &[
            ("d0", 'K'),
            ("c3", 'P'),
            ("e4", 'P'),
            ("c5", 'P'),
            ("a9", 'P'),
            ("f9", 'k'),
        ],
        Color::Red,
    );
    assert_eq!(moves_from(&pos, "c3"), names(&["c4"]));
    assert_eq!(moves_from(&pos, "e4"), names(&["e5"]));
    assert_eq!(moves_from(&pos, "c5"), names(&["c6", "b5", "d5"]));
    assert_eq!(moves_from(&pos, "a9"), names(&["b9"]));

    //   Black soldiers mirror it: g6 (own half) only to g5; g4 (crossed) to g3, f4, h4.
    let pos = setup(
        &[("d0", 'K'), ("g6", 'p'), ("g4", 'p'), ("f9", 'k')],
        Color::Black,
    );
    assert_eq!(moves_from(&pos, "g6"), names(&["g5"]));
    assert_eq!(moves_from(&pos, "g4"), names(&["g3", "f4", "h4"]));
}

#[test]
fn start_position_and_known_counts() {
    let mut pos = Position::startpos();
    let mut rng = Rng::new(11);
    let moves = check_position(&mut pos, &mut rng, &mut Stats::default());
    assert_eq!(moves.len(), 44);
    // The known depth-2 count, by the oracle alone and by the engine's perft.
    let slow = SlowBoard::from_position(&pos);
    let total: usize = slow
        .legal_moves()
        .iter()
        .map(|m| {
            slow.apply(m.from().index(), m.to().index())
                .legal_moves()
                .len()
        })
        .sum();
    assert_eq!(total, 1920);
    assert_eq!(jiang::perft::perft(&mut pos, 2), 1920);
    assert_eq!(slow_perft(&slow, 3), 79_666);
    assert_eq!(jiang::perft::perft(&mut pos, 3), 79_666);
}

/// perft by the oracle alone.
fn slow_perft(b: &SlowBoard, depth: u32) -> u64 {
    let moves = b.legal_moves();
    if depth <= 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|m| slow_perft(&b.apply(m.from().index(), m.to().index()), depth - 1))
        .sum()
}
