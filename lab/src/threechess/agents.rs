//! The reference's two sample agents, rewritten from their published behaviour, as
//! opponents for matches and tests.
//!
//! * [`RandomAgent`] (the reference's `RandomAgent`): picks one of its pieces at random,
//!   one of that piece's step sequences at random and a repetition count at random (1–8
//!   for sliders, 1 otherwise), and tries again until that (start, end) is legal. It
//!   never castles (castling is no step sequence).
//! * [`GreedyAgent`] (the reference's `GreedyAgent`): walks every step sequence of every
//!   piece; if any legal move captures, it plays one of those taking the most valuable
//!   piece (P 1, N 3, B 3, R 5, Q 9, K 40: a king whenever it can), else one of all the
//!   legal moves it walked. Like the original, a move reached by several routes is
//!   proportionally more likely, and it never castles.

use jiang::threechess::board::Board;
use jiang::threechess::geometry::{KNIGHT_STEP, NONE, PAWN_STEP, RAYS, RAY_LEN, ROOK_RAYS};
use jiang::threechess::types::{squares_of, Kind, Move, Square};
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// A player that chooses moves without searching.
pub trait Agent {
    /// The agent's name.
    fn name(&self) -> &'static str;
    /// A legal move for the player to move (`None` when there is none).
    fn choose(&mut self, b: &Board) -> Option<Move>;
}

/// The ends of one step sequence repeated 1, 2, … times (index `reps - 1`), as far as the
/// board goes; the piece's step sequences are indexed as in the reference.
fn step_ends(b: &Board, from: Square, kind: Kind, seq: usize) -> &'static [u8] {
    let i = from.index();
    match kind {
        Kind::Pawn => {
            let player = b.piece_at(from).map_or(0, |p| p.player().index());
            let end = &PAWN_STEP[player][i][seq];
            if *end == NONE {
                &[]
            } else {
                std::slice::from_ref(end)
            }
        }
        Kind::Knight => {
            let end = &KNIGHT_STEP[i][seq];
            if *end == NONE {
                &[]
            } else {
                std::slice::from_ref(end)
            }
        }
        Kind::King => &RAYS[i][seq][..RAY_LEN[i][seq].min(1) as usize],
        Kind::Bishop => &RAYS[i][seq][..RAY_LEN[i][seq] as usize],
        Kind::Rook => &RAYS[i][seq + ROOK_RAYS][..RAY_LEN[i][seq + ROOK_RAYS] as usize],
        Kind::Queen => &RAYS[i][seq][..RAY_LEN[i][seq] as usize],
    }
}

/// How many step sequences a kind has in the reference (`PieceType.getSteps()`).
fn step_count(kind: Kind) -> usize {
    match kind {
        Kind::Pawn => 6,
        Kind::Knight => 16,
        Kind::Bishop => 8,
        Kind::Rook => 4,
        Kind::Queen | Kind::King => 12,
    }
}

/// How many times a kind may repeat its step (`PieceType.getStepReps()`).
fn step_reps(kind: Kind) -> usize {
    match kind {
        Kind::Bishop | Kind::Rook | Kind::Queen => 8,
        _ => 1,
    }
}

fn square(i: u8) -> Square {
    Square::new(i).unwrap_or_else(|| unreachable!("table entry {i}"))
}

/// The reference's random agent.
pub struct RandomAgent {
    rng: Xoshiro256PlusPlus,
}

impl RandomAgent {
    /// A random agent with its own seeded generator.
    pub fn new(seed: u64) -> RandomAgent {
        RandomAgent {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }

    fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }
}

impl Agent for RandomAgent {
    fn name(&self) -> &'static str {
        "random"
    }

    fn choose(&mut self, b: &Board) -> Option<Move> {
        let legal = b.legal_moves_list();
        if legal.is_empty() {
            return None;
        }
        let pieces: Vec<Square> = squares_of(b.occupied_by(b.side_to_move())).collect();
        // Rejection sampling as the original does; the cap only guards against a bug.
        for _ in 0..100_000 {
            let from = pieces[self.below(pieces.len())];
            let Some(piece) = b.piece_at(from) else {
                continue;
            };
            let kind = piece.kind();
            let seq = self.below(step_count(kind));
            let reps = 1 + self.below(step_reps(kind));
            let ends = step_ends(b, from, kind, seq);
            if let Some(&end) = ends.get(reps - 1) {
                let m = Move::new(from, square(end));
                if legal.contains(m) {
                    return Some(m);
                }
            }
        }
        Some(legal.as_slice()[self.below(legal.len())])
    }
}

/// The reference's greedy agent.
pub struct GreedyAgent {
    rng: Xoshiro256PlusPlus,
}

impl GreedyAgent {
    /// A greedy agent with its own seeded generator.
    pub fn new(seed: u64) -> GreedyAgent {
        GreedyAgent {
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
        }
    }
}

impl Agent for GreedyAgent {
    fn name(&self) -> &'static str {
        "greedy"
    }

    fn choose(&mut self, b: &Board) -> Option<Move> {
        let legal = b.legal_moves_list();
        let us = b.side_to_move();
        let mut best_value = 0;
        let mut candidates: Vec<Move> = Vec::new();
        for from in squares_of(b.occupied_by(us)) {
            let Some(piece) = b.piece_at(from) else {
                continue;
            };
            let kind = piece.kind();
            for seq in 0..step_count(kind) {
                for &end in step_ends(b, from, kind, seq).iter().take(step_reps(kind)) {
                    let m = Move::new(from, square(end));
                    if !legal.contains(m) {
                        continue;
                    }
                    if let Some(victim) = b.piece_at(m.to()) {
                        let value = victim.kind().reference_value();
                        if value > best_value {
                            candidates.clear();
                            best_value = value;
                        }
                        if value == best_value {
                            candidates.push(m);
                        }
                        break;
                    } else if best_value == 0 {
                        candidates.push(m);
                    }
                }
            }
        }
        if candidates.is_empty() {
            // Only castling is legal (the walk never finds it): take any legal move.
            return legal.iter().next().copied();
        }
        let i = (self.rng.next_u64() % candidates.len() as u64) as usize;
        Some(candidates[i])
    }
}
