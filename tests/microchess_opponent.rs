//! Microchess's opponent models (issue 27): each model's moves and jiang's best response
//! to it against an independent recursion, the guarantee kept whatever the weights, the
//! models told apart by their moves, and the weights learnt through the protocol
//! (`OpponentModel`, `Observe`).

use std::collections::HashMap;
use std::time::Duration;

use jiang::microchess::opponents::{self, model_table, models, Beliefs, Floor, Model};
use jiang::microchess::table::layer;
use jiang::microchess::MAX_PLIES;
use jiang::microchess::{solution, starts, Move, Position, Side, Square};

#[path = "common/engine.rs"]
mod engine;
#[path = "common/microchess.rs"]
mod microchess;
#[path = "common/rng.rs"]
mod rng;
use engine::Engine;
use rng::Rng;

type Key = ([Option<Square>; 4], u8, usize);

/// A model's moves, beliefs and jiang's best response to it by plain recursion in f64,
/// memoised by state.
struct Recursion {
    model: Model,
    floor: Floor,
    beliefs: HashMap<Key, [f64; 2]>,
    responses: HashMap<Key, f64>,
}

impl Recursion {
    fn new(model: Model, floor: Floor) -> Recursion {
        Recursion {
            model,
            floor,
            beliefs: HashMap::new(),
            responses: HashMap::new(),
        }
    }

    /// The utilities (its own, its opponent's as it believes) of the rational model on
    /// `side` when both play by its belief from `pos`.
    fn belief(&mut self, pos: &Position, side: Side) -> [f64; 2] {
        let Model::Rational(b) = self.model else {
            return [0.0; 2];
        };
        let moves = pos.legal_moves();
        if moves.is_empty() {
            let e = pos.ending().expect("over");
            return [
                f64::from(b.own.of(e, side)),
                f64::from(b.other.of(e, side.flip())),
            ];
        }
        let key = (pos.placement(), pos.plies(), side.index());
        if let Some(v) = self.beliefs.get(&key) {
            return *v;
        }
        let key_of = usize::from(pos.side_to_move() != side);
        let children: Vec<[f64; 2]> = moves
            .iter()
            .map(|&m| self.belief(&pos.after(m), side))
            .collect();
        let top = children.iter().map(|c| c[key_of]).fold(f64::MIN, f64::max);
        let best: Vec<&[f64; 2]> = children
            .iter()
            .filter(|c| c[key_of] >= top - 1e-4)
            .collect();
        let n = best.len() as f64;
        let v = [
            best.iter().map(|c| c[0]).sum::<f64>() / n,
            best.iter().map(|c| c[1]).sum::<f64>() / n,
        ];
        self.beliefs.insert(key, v);
        v
    }

    /// The moves the model plays when it is to move in `pos`, as a mask.
    fn plays(&mut self, pos: &Position) -> u16 {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        let all = ((1u32 << moves.len()) - 1) as u16;
        let mask = |keep: &dyn Fn(usize) -> bool| {
            (0..moves.len())
                .filter(|&i| keep(i))
                .fold(0u16, |m, i| m | (1 << i))
        };
        match self.model {
            Model::Uniform => all,
            Model::Capturer => {
                let them = pos.side_to_move().flip();
                for piece in [jiang::microchess::Kind::King, jiang::microchess::Kind::Rook] {
                    if let Some(sq) = pos.square_of(jiang::microchess::Piece::new(them, piece)) {
                        let m = mask(&|i| moves[i].to() == sq);
                        if m != 0 {
                            return m;
                        }
                    }
                }
                all
            }
            Model::Rational(_) => {
                let side = pos.side_to_move();
                let own: Vec<f64> = moves
                    .iter()
                    .map(|&m| self.belief(&pos.after(m), side)[0])
                    .collect();
                let top = own.iter().copied().fold(f64::MIN, f64::max);
                mask(&|i| own[i] >= top - 1e-4)
            }
        }
    }

    /// jiang's expected payoff on `side`, keeping above its floor and answering the model
    /// (which never slips).
    fn response(&mut self, pos: &Position, side: Side) -> f64 {
        let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
        if moves.is_empty() {
            return f64::from(pos.ending().expect("over").payoffs()[side.index()]);
        }
        let key = (pos.placement(), pos.plies(), side.index());
        if let Some(v) = self.responses.get(&key) {
            return *v;
        }
        let v = if pos.side_to_move() == side {
            let s = side.index();
            let best = moves
                .iter()
                .map(|&m| solution().value(&pos.after(m)).guaranteed[s])
                .max()
                .expect("moves");
            // The floor, written out: a forced win kept, else a draw at least where
            // one can be had.
            let least = if best == 3 {
                3
            } else if self.floor == Floor::NoLoss {
                best.min(1)
            } else {
                best
            };
            let keeping: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&m| solution().value(&pos.after(m)).guaranteed[s] >= least)
                .collect();
            keeping
                .iter()
                .map(|&m| self.response(&pos.after(m), side))
                .fold(f64::MIN, f64::max)
        } else {
            let plays = self.plays(pos);
            let k = f64::from(plays.count_ones());
            let mut sum = 0.0;
            for (i, &m) in moves.iter().enumerate() {
                if plays & (1 << i) != 0 {
                    sum += self.response(&pos.after(m), side) / k;
                }
            }
            sum
        };
        self.responses.insert(key, v);
        v
    }
}

/// A position a few random plies from a random start.
fn random_position(rng: &mut Rng, all: &[Position], min: usize, spread: usize) -> Position {
    let mut pos = all[rng.below(all.len())];
    for _ in 0..min + rng.below(spread) {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        pos = pos.after(
            moves
                .iter()
                .copied()
                .nth(rng.below(moves.len()))
                .expect("a move"),
        );
    }
    pos
}

#[test]
fn model_tables_match_a_recursion() {
    let all: Vec<Position> = starts().collect();
    // Every model with the guarantee kept; three with RiskTies' floor.
    let cases = models()
        .into_iter()
        .enumerate()
        .map(|(i, m)| (i, m, Floor::Guarantee))
        .chain(
            ["uniform", "scrapper", "optimist"]
                .iter()
                .map(|name| opponents::model_index(name).expect("model"))
                .map(|i| (i, models()[i], Floor::NoLoss)),
        );
    for (index, model, floor) in cases {
        let table = model_table(index, floor);
        let mut rng = Rng::new(27 + index as u64);
        let mut recursion = Recursion::new(model, floor);
        for _ in 0..50 {
            let pos = random_position(&mut rng, &all, 6, 14);
            if pos.legal_moves().is_empty() {
                continue;
            }
            assert_eq!(
                table.plays(&pos),
                recursion.plays(&pos),
                "{}: moves in {}",
                model.name(),
                pos.to_fen()
            );
            for side in [Side::White, Side::Black] {
                let want = recursion.response(&pos, side);
                let got = table.response(&pos, side);
                assert!(
                    (got - want).abs() < 1e-3,
                    "{} {floor:?} {side:?} {}: table {got}, recursion {want}",
                    model.name(),
                    pos.to_fen()
                );
            }
        }
    }
}

/// Whatever the weights, the chooser's move keeps the mover's guarantee.
#[test]
fn every_weighting_keeps_the_guarantee() {
    let sol = solution();
    let n = models().len();
    for (what, weights) in [
        ("scrapper", opponents::only("scrapper")),
        ("capturer", opponents::only("capturer")),
        ("even", vec![1.0 / n as f64; n]),
    ] {
        microchess::assert_choice_secures_the_guarantee(what, |pos| {
            let options = sol.move_values(pos);
            options[opponents::pick_against(pos, &options, &weights, Floor::Guarantee)].0
        });
    }
}

/// With RiskTies' floor, whatever the weights, jiang never loses a game its position does
/// not lose by force and never gives up a forced win: it secures 3 where it is guaranteed
/// 3, at least 1 where it is guaranteed 1 or 2; and the floor is used (somewhere it
/// secures less than a guaranteed tie).
#[test]
fn risking_ties_never_risks_a_loss() {
    let sol = solution();
    for name in ["optimist", "uniform"] {
        let weights = opponents::only(name);
        let table = microchess::secured(|pos| {
            let options = sol.move_values(pos);
            options[opponents::pick_against(pos, &options, &weights, Floor::NoLoss)].0
        });
        let mut traded = 0;
        for plies in 0..=MAX_PLIES {
            for pos in layer(plies) {
                let (got, sure) = (table.get(&pos), sol.value(&pos).guaranteed);
                for side in 0..2 {
                    let least = if sure[side] == 2 { 1 } else { sure[side] };
                    assert!(
                        got[side] >= least,
                        "{name}: {} side {side}: {got:?} of {sure:?}",
                        pos.to_fen()
                    );
                    traded += usize::from(got[side] < sure[side]);
                }
            }
        }
        assert!(traded > 0, "{name}: no guaranteed tie was ever risked");
    }
}

/// Each model, observed over a few games against a random mover, is the likeliest one.
#[test]
fn observed_models_are_told_apart() {
    let all: Vec<Position> = starts().collect();
    for (index, model) in models().into_iter().enumerate() {
        let table = model_table(index, Floor::Guarantee);
        let mut rng = Rng::new(100 + index as u64);
        let mut beliefs = Beliefs::default();
        for game in 0..20 {
            let mut pos = all[rng.below(all.len())];
            // The model plays White in even games, Black in odd ones.
            let model_side = if game % 2 == 0 {
                Side::White
            } else {
                Side::Black
            };
            loop {
                let moves: Vec<Move> = pos.legal_moves().iter().copied().collect();
                if moves.is_empty() {
                    break;
                }
                let i = if pos.side_to_move() == model_side {
                    let plays = table.plays(&pos);
                    let chosen: Vec<usize> =
                        (0..moves.len()).filter(|i| plays & (1 << i) != 0).collect();
                    let i = chosen[rng.below(chosen.len())];
                    beliefs.observe(&pos, i);
                    i
                } else {
                    rng.below(moves.len())
                };
                pos = pos.after(moves[i]);
            }
        }
        let weights = beliefs.weights(Floor::Guarantee);
        let top = weights.iter().copied().fold(f64::MIN, f64::max);
        assert!(
            weights[index] >= top - 1e-9,
            "{}: weights {weights:?} after {} moves",
            model.name(),
            beliefs.observed()
        );
        assert!(
            beliefs.observed() >= 20,
            "{}: {} moves",
            model.name(),
            beliefs.observed()
        );
    }
}

/// The likeliest model and its weight the engine reports after `go` in `fen`, and the
/// moves observed.
fn reported(e: &mut Engine, fen: &str) -> (String, f64, u32) {
    e.send(&format!("position fen {fen}"));
    e.send("go");
    let (_, lines) = e.bestmove(Duration::from_secs(10));
    let note = lines
        .iter()
        .find(|l| l.contains(" opponent "))
        .unwrap_or_else(|| e.fail("no opponent model in the note"));
    let words: Vec<&str> = note.split_whitespace().collect();
    let at = words
        .iter()
        .position(|w| *w == "opponent")
        .expect("opponent")
        + 1;
    (
        words[at].to_string(),
        words[at + 1].parse().expect("weight"),
        words[at + 3].parse().expect("count"),
    )
}

#[test]
fn observed_moves_move_the_weights() {
    let capturer = opponents::model_index("capturer").expect("capturer");
    let pessimist = opponents::model_index("pessimist").expect("pessimist");
    // A start where the side to move can take the enemy rook but not its king: the
    // capturer takes it; a guarantee-keeping move that does not take it rules the capturer
    // out and favours the maximin player.
    let (pos, take, quiet) = starts()
        .find_map(|p| {
            let moves: Vec<Move> = p.legal_moves().iter().copied().collect();
            let plays_c = model_table(capturer, Floor::Guarantee).plays(&p);
            let plays_p = model_table(pessimist, Floor::Guarantee).plays(&p);
            let take = (0..moves.len()).find(|&i| {
                plays_c & (1 << i) != 0 && plays_c.count_ones() == 1 && plays_p & (1 << i) == 0
            })?;
            let quiet =
                (0..moves.len()).find(|&i| plays_p & (1 << i) != 0 && plays_c & (1 << i) == 0)?;
            Some((p, moves[take], moves[quiet]))
        })
        .expect("such a start");
    let observe = |m: Move| {
        format!(
            "setoption name Observe value {} {}",
            pos.to_fen(),
            pos.after(m).to_fen()
        )
    };
    let probe = pos.after(quiet).to_fen();
    let even = 1.0 / models().len() as f64;

    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", Duration::from_secs(10));
    e.send("setoption name UCI_Variant value microchess");
    e.send("setoption name OpponentModel value observed");
    e.sync(Duration::from_secs(60));
    let (_, w, n) = reported(&mut e, &probe);
    assert!(
        (w - even).abs() < 1e-3 && n == 0,
        "before any move: {w} after {n}"
    );
    for _ in 0..3 {
        e.send(&observe(take));
    }
    let (name, w, n) = reported(&mut e, &probe);
    assert!(
        name == "capturer" && w > 0.9 && n == 3,
        "after three captures: {name} {w} after {n}"
    );
    e.send("setoption name Observe value reset");
    e.send(&observe(quiet));
    let (name, w, n) = reported(&mut e, &probe);
    assert!(
        name != "capturer" && name != "uniform" && w > even && n == 1,
        "after a quiet move: {name} {w} after {n}"
    );
    // A pair of positions no move joins is refused and changes nothing.
    e.send(&format!(
        "setoption name Observe value {} {}",
        pos.to_fen(),
        pos.to_fen()
    ));
    let lines = e.sync(Duration::from_secs(10));
    assert!(
        lines.iter().any(|l| l.starts_with("info string")),
        "{lines:?}"
    );
    assert_eq!(reported(&mut e, &probe), (name, w, 1));
    // The default model is the random one; `maximin` the pessimist.
    e.send("setoption name OpponentModel value random");
    assert_eq!(reported(&mut e, &probe).0, "uniform");
    e.send("setoption name OpponentModel value maximin");
    assert_eq!(reported(&mut e, &probe).0, "pessimist");
    e.send("quit");

    // Moves observed before the model is chosen (no tables yet) are kept, without
    // waiting, and weighed once it is.
    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", Duration::from_secs(10));
    e.send("setoption name UCI_Variant value microchess");
    for _ in 0..3 {
        e.send(&observe(take));
    }
    e.send("setoption name OpponentModel value observed");
    e.sync(Duration::from_secs(60));
    let (name, w, n) = reported(&mut e, &probe);
    assert!(
        name == "capturer" && w > 0.9 && n == 3,
        "observed before the model was chosen: {name} {w} after {n}"
    );
    e.send("quit");
}

/// `RiskTies` through the protocol: where the best response to a random mover trades a
/// guaranteed tie, the engine plays that move with the option on and a move keeping the
/// tie with it off.
#[test]
fn risk_ties_through_the_protocol() {
    let sol = solution();
    let uniform = opponents::only("uniform");
    let (pos, risky) = starts()
        .find_map(|p| {
            let options = sol.move_values(&p);
            let s = p.side_to_move().index();
            let best = options.iter().map(|o| o.1.guaranteed[s]).max()?;
            let (m, v) = options[opponents::pick_against(&p, &options, &uniform, Floor::NoLoss)];
            (best == 2 && v.guaranteed[s] < 2).then_some((p, m))
        })
        .expect("a start where a tie is risked");
    let mut e = Engine::start();
    e.send("uci");
    e.read_until("uciok", Duration::from_secs(10));
    e.send("setoption name UCI_Variant value microchess");
    e.send("setoption name RiskTies value true");
    e.sync(Duration::from_secs(60));
    e.send(&format!("position fen {}", pos.to_fen()));
    e.send("go");
    let (best, _) = e.bestmove(Duration::from_secs(10));
    assert_eq!(best, risky.to_string(), "RiskTies on, {}", pos.to_fen());
    e.send("setoption name RiskTies value false");
    e.sync(Duration::from_secs(60));
    e.send(&format!("position fen {}", pos.to_fen()));
    e.send("go");
    let (best, _) = e.bestmove(Duration::from_secs(10));
    let kept = sol
        .value(&pos.after(Move::parse(&best).expect("a move")))
        .guaranteed[pos.side_to_move().index()];
    assert_eq!(kept, 2, "RiskTies off: {best} in {}", pos.to_fen());
    e.send("quit");
}
