//! How well jiang's Microchess move choices do against each kind of opponent of the
//! course's tournament, computed exactly over every start instead of played: the
//! opponent's moves are a fixed table (a rational player is drawn as the course's player
//! draws itself, one random tie-break per state, fixed for the tournament; a random or
//! capturing player is the distribution it plays by), and one backward induction gives
//! jiang's and the opponent's expected payoffs from every start for each rule jiang
//! might choose by. With the pairings among the Horde, that gives every player's expected
//! tournament total, and tournaments are simulated by drawing boards as the course's
//! `Tournament` does (`jiang-lab microchess-models [SEED] [RUNS] [--exact]`).

use jiang::microchess::opponents::{self, Floor, Model, RationalBelief};
use jiang::microchess::position::{starts, Ending, Position};
use jiang::microchess::solve::{pick, solution, Value};
use jiang::microchess::table::StateTable;
use jiang::microchess::types::Move;
use rand_xoshiro::rand_core::{RngCore, SeedableRng};
use rand_xoshiro::Xoshiro256PlusPlus;

/// The moves a player (one of the Horde, or jiang by some rule) plays in each state where
/// it is to move (bit i: the i-th legal move); it picks uniformly among them.
pub struct Player {
    /// The player's name.
    pub name: String,
    plays: StateTable<u16>,
}

/// A rational player as the course's player builds itself: backward induction under its
/// belief, each tie broken by one random draw, fixed for the whole tournament (the
/// choice of the model on each side is a separate table, as the course's player keys its
/// table by its own colour).
pub fn sampled_rational(belief: RationalBelief, seed: u64) -> Player {
    #[derive(Clone, Copy, Default)]
    struct Node {
        belief: [[f32; 2]; 2],
        plays: u16,
    }
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut pick_one = |children: &[(Move, Node)], side: usize, key: usize| -> (usize, [f32; 2]) {
        let top = children
            .iter()
            .map(|(_, c)| c.belief[side][key])
            .fold(f32::MIN, f32::max);
        let best: Vec<usize> = (0..children.len())
            .filter(|&i| children[i].1.belief[side][key] >= top - opponents::UTILITY_TOLERANCE)
            .collect();
        let i = best[(rng.next_u64() % best.len() as u64) as usize];
        (i, children[i].1.belief[side])
    };
    let nodes = StateTable::backward_induction(Node::default(), |pos, children| {
        let mut node = Node::default();
        if children.is_empty() {
            node.belief = belief.at_end(pos.ending().unwrap_or(Ending::Draw));
            return node;
        }
        let m = pos.side_to_move().index();
        let (i, mine) = pick_one(children, m, 0);
        let (_, theirs) = pick_one(children, 1 - m, 1);
        node.belief[m] = mine;
        node.belief[1 - m] = theirs;
        node.plays = 1 << i;
        node
    });
    Player {
        name: belief.name.to_string(),
        plays: nodes.map(|n| n.plays),
    }
}

/// A random mover, or the course's Monkey (the enemy king if it can, else the enemy rook,
/// else at random).
pub fn simple(capturer: bool) -> Player {
    let plays = StateTable::backward_induction(0u16, |pos, children| {
        if children.is_empty() {
            0
        } else if capturer {
            opponents::capturer_moves(pos, children)
        } else {
            opponents::all_moves(children.len())
        }
    });
    Player {
        name: if capturer { "monkey" } else { "nihilist" }.to_string(),
        plays,
    }
}

/// jiang as a [`Player`]: in every state, the move `rule` picks.
pub fn jiang(name: &str, rule: impl Fn(&Position, &[(Move, Value)]) -> usize) -> Player {
    let solution = solution();
    let plays = StateTable::backward_induction(0u16, |pos, children| {
        if children.is_empty() {
            return 0;
        }
        1 << rule(pos, &solution.move_values(pos))
    });
    Player {
        name: name.to_string(),
        plays,
    }
}

/// The most any player can get against `opponent` knowing its every move (its random
/// tie-breaks included): the best response to it, as a [`Player`], among the moves above
/// `floor` (`None`: any move, guarantee or not).
pub fn ceiling(opponent: &Player, floor: Option<Floor>) -> Player {
    let solution = solution();
    // Per state: the best responder's expected payoff on each side (White first), and its
    // move when it is to move.
    let nodes = StateTable::backward_induction(([0.0f32; 2], 0u16), |pos, children| {
        if children.is_empty() {
            let payoffs = pos.ending().unwrap_or(Ending::Draw).payoffs();
            return (payoffs.map(f32::from), 0);
        }
        let m = pos.side_to_move().index();
        let guarantees: Vec<u8> = solution
            .move_values(pos)
            .iter()
            .map(|(_, v)| v.guaranteed[m])
            .collect();
        let best = guarantees.iter().copied().max().unwrap_or(0);
        let least = floor.map_or(0, |f| f.least(best));
        let mut v = [0.0f32; 2];
        let mut choice = None;
        for (i, (_, c)) in children.iter().enumerate() {
            if guarantees[i] >= least && choice.is_none_or(|(_, top)| c.0[m] > top) {
                choice = Some((i, c.0[m]));
            }
        }
        let (chosen, top) = choice.unwrap_or((0, 0.0));
        v[m] = top;
        let plays = opponent.plays.get(pos);
        let count = plays.count_ones().max(1) as f32;
        v[1 - m] = children
            .iter()
            .enumerate()
            .filter(|(i, _)| plays & (1 << i) != 0)
            .map(|(_, (_, c))| c.0[1 - m] / count)
            .sum();
        (v, 1 << chosen)
    });
    Player {
        name: "ceiling".to_string(),
        plays: nodes.map(|(_, plays)| plays),
    }
}

/// For every start (in [`starts`] order), the expected payoffs of a series' mirror pair:
/// `a`'s and `b`'s with `a` White, then `a`'s and `b`'s with `b` White.
pub fn pair(a: &Player, b: &Player) -> Vec<[f32; 4]> {
    let table = StateTable::backward_induction([0.0f32; 4], |pos, children| {
        if children.is_empty() {
            let p = pos
                .ending()
                .unwrap_or(Ending::Draw)
                .payoffs()
                .map(f32::from);
            return [p[0], p[1], p[1], p[0]];
        }
        let m = pos.side_to_move().index();
        let mean = |player: &Player| -> [f32; 4] {
            let plays = player.plays.get(pos);
            let count = plays.count_ones().max(1) as f32;
            let mut v = [0.0f32; 4];
            for (i, (_, c)) in children.iter().enumerate() {
                if plays & (1 << i) != 0 {
                    for (t, x) in v.iter_mut().zip(c) {
                        *t += x / count;
                    }
                }
            }
            v
        };
        // Slots 0, 1: `a` plays White; slots 2, 3: `b` plays White.
        let (white_first, black_first) = if m == 0 {
            (mean(a), mean(b))
        } else {
            (mean(b), mean(a))
        };
        [
            white_first[0],
            white_first[1],
            black_first[2],
            black_first[3],
        ]
    });
    starts().map(|s| table.get(&s)).collect()
}

/// The course's Horde as the tournament builds it (rational players drawn with `seed`).
pub fn horde(seed: u64) -> Vec<Player> {
    let mut players = vec![simple(true), simple(false)];
    for (i, belief) in opponents::RATIONAL_BELIEFS.iter().enumerate() {
        players.push(sampled_rational(*belief, seed.wrapping_add(i as u64)));
    }
    players
}

/// The weights of [`opponents::models`] that name `player`'s model.
fn known_weights(player: &Player) -> Vec<f64> {
    let target = match player.name.as_str() {
        "nihilist" => "uniform",
        "monkey" => "capturer",
        other => other,
    };
    opponents::models()
        .iter()
        .map(|m: &Model| if m.name() == target { 1.0 } else { 0.0 })
        .collect()
}

/// The expected tournament of jiang (by each rule) and the Horde: every player's expected
/// total, and over `runs` simulated tournaments (boards drawn as the course draws them,
/// each mirror pair scored by its expected payoffs) how often jiang is first and by how
/// much (`jiang-lab microchess-models [SEED] [RUNS]`).
pub fn report(seed: u64, runs: u32, exact: bool) -> Vec<String> {
    let horde = horde(seed);
    // Each rule: its name and jiang's player against an opponent.
    type Rule = Box<dyn Fn(&Player) -> Player>;
    let against = |weights: fn(&Player) -> Vec<f64>, floor: Floor| -> Rule {
        Box::new(move |opponent: &Player| {
            let w = weights(opponent);
            jiang("model", move |pos, c| {
                opponents::pick_against(pos, c, &w, floor)
            })
        })
    };
    let mut rules: Vec<(&str, Rule)> = vec![
        (
            "the solution's rule (a random opponent, guarantee kept)",
            Box::new(|_: &Player| jiang("solution", |pos, c| pick(c, pos.side_to_move()))),
        ),
        (
            "the maximin model (guarantee kept)",
            against(|_| opponents::only("pessimist"), Floor::Guarantee),
        ),
        (
            "the opponent's model (guarantee kept)",
            against(known_weights, Floor::Guarantee),
        ),
        (
            "the opponent's model (RiskTies: no loss that could be avoided)",
            against(known_weights, Floor::NoLoss),
        ),
    ];
    if exact {
        rules.push((
            "every move of the opponent known (guarantee kept)",
            Box::new(|o: &Player| ceiling(o, Some(Floor::Guarantee))),
        ));
        rules.push((
            "every move of the opponent known (no loss that could be avoided)",
            Box::new(|o: &Player| ceiling(o, Some(Floor::NoLoss))),
        ));
        rules.push((
            "every move of the opponent known (guarantee or not)",
            Box::new(|o: &Player| ceiling(o, None)),
        ));
    }
    // Pairs among the Horde do not depend on jiang.
    let n = horde.len();
    let mut values: Vec<Vec<Vec<[f32; 4]>>> = vec![vec![Vec::new(); n + 1]; n + 1];
    for i in 0..n {
        for j in i + 1..n {
            values[i + 1][j + 1] = pair(&horde[i], &horde[j]);
        }
    }
    let names: Vec<String> = std::iter::once("jiang".to_string())
        .chain(horde.iter().map(|p| p.name.clone()))
        .collect();
    let mut lines = Vec::new();
    for (rule_name, rule) in rules {
        for (j, opponent) in horde.iter().enumerate() {
            values[0][j + 1] = pair(&rule(opponent), opponent);
        }
        lines.push(format!("jiang by {rule_name}:"));
        let per: Vec<String> = (0..n)
            .map(|j| {
                let v = &values[0][j + 1];
                let k = v.len() as f64;
                let mine = v.iter().map(|x| f64::from(x[0] + x[2]) / 2.0).sum::<f64>() / k;
                let theirs = v.iter().map(|x| f64::from(x[1] + x[3]) / 2.0).sum::<f64>() / k;
                format!("{} {mine:.3}/{theirs:.3}", horde[j].name)
            })
            .collect();
        lines.push(format!(
            "  against each (jiang/opponent): {}",
            per.join(", ")
        ));
        lines.extend(simulate(&names, &values, runs, seed));
    }
    lines
}

/// Expected totals and simulated tournaments from the pair values (`values[i][j]`, i < j).
fn simulate(names: &[String], values: &[Vec<Vec<[f32; 4]>>], runs: u32, seed: u64) -> Vec<String> {
    let n = names.len();
    let mut expected = vec![0.0f64; n];
    for i in 0..n {
        for j in i + 1..n {
            let v = &values[i][j];
            let k = v.len() as f64;
            expected[i] += v.iter().map(|x| f64::from(x[0] + x[2]) / 2.0).sum::<f64>() / k;
            expected[j] += v.iter().map(|x| f64::from(x[1] + x[3]) / 2.0).sum::<f64>() / k;
        }
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|a, b| expected[*b].total_cmp(&expected[*a]));
    let mut lines = vec![format!(
        "  expected totals: {}",
        order
            .iter()
            .map(|&i| format!("{} {:.3}", names[i], expected[i]))
            .collect::<Vec<_>>()
            .join(", ")
    )];
    let mut rng = Xoshiro256PlusPlus::seed_from_u64(seed ^ 0x5eed);
    let (mut first, mut margins, mut over) = (0u32, Vec::new(), 0u32);
    for _ in 0..runs {
        let mut total = vec![0.0f64; n];
        for i in 0..n {
            for j in i + 1..n {
                let v = &values[i][j];
                let mut boards = 38;
                while rng.next_u64() & 1 == 1 {
                    boards += 1;
                }
                let (mut a, mut b) = (0.0f64, 0.0f64);
                for _ in 0..boards {
                    let x = v[(rng.next_u64() % v.len() as u64) as usize];
                    a += f64::from(x[0] + x[2]);
                    b += f64::from(x[1] + x[3]);
                }
                total[i] += a / (2.0 * f64::from(boards));
                total[j] += b / (2.0 * f64::from(boards));
            }
        }
        let second = total[1..].iter().copied().fold(f64::MIN, f64::max);
        let margin = total[0] - second;
        first += u32::from(margin > 0.0);
        over += u32::from(margin >= 0.3);
        margins.push(margin);
    }
    let mean = margins.iter().sum::<f64>() / f64::from(runs.max(1));
    let sd =
        (margins.iter().map(|m| (m - mean).powi(2)).sum::<f64>() / f64::from(runs.max(1))).sqrt();
    lines.push(format!(
        "  {runs} simulated tournaments: jiang first in {first}, margin over the second {mean:+.3} on average (s.d. {sd:.3}), +0.3 or more in {over}"
    ));
    lines
}
