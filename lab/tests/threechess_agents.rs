//! The reference's sample agents (`jiang_lab::threechess::agents`): the greedy one takes
//! the most valuable piece, the random one moves legally, and the engine's opponent model
//! tells them apart by the greed it observes.

use jiang::threechess::search::observed_greed;
use jiang::threechess::{Board, Kind, Move, Player, Square};
use jiang_lab::threechess::agents::{Agent, GreedyAgent, RandomAgent};

/// No evidence: every player equally likely greedy or random.
const EVEN: [f64; 3] = [0.5; 3];

fn mv(text: &str) -> Move {
    Move::parse(text).unwrap()
}

#[test]
fn observed_greed_tells_the_greedy_agent_from_the_random_one() {
    assert_eq!(observed_greed(&Board::startpos()), EVEN, "no evidence yet");
    // The first of these seeds' games that lasts long enough to tell (a greedy agent
    // often takes a random one's king early).
    let b = (1..100u64)
        .map(|seed| {
            let mut agents: [Box<dyn Agent>; 3] = [
                Box::new(GreedyAgent::new(seed)),
                Box::new(RandomAgent::new(seed + 100)),
                Box::new(RandomAgent::new(seed + 200)),
            ];
            let mut b = Board::startpos();
            while !b.finished() && b.plies() < 120 {
                let m = agents[b.side_to_move().index()].choose(&b).expect("a move");
                b.make_move(m);
            }
            b
        })
        .find(|b| b.plies() >= 45)
        .expect("a long game");
    let greed = observed_greed(&b);
    assert!(greed[Player::Blue.index()] > 0.75, "{greed:?}");
    assert!(greed[Player::Green.index()] < 0.35, "{greed:?}");
    assert!(greed[Player::Red.index()] < 0.35, "{greed:?}");
}

#[test]
fn greedy_takes_the_most_valuable_piece_and_random_moves_legally() {
    // Blue's queen on BD4 can take a Green knight (GF4), a Green pawn (GE2, shielding
    // Green's king) or a Red queen (RD4).
    let b = Board::from_fen("3bQ4/8/8/4bK3|5gN2/8/4gP3/4gK3|3rQ4/8/8/4rK3 b").unwrap();
    let mut greedy = GreedyAgent::new(1);
    for _ in 0..20 {
        assert_eq!(greedy.choose(&b), Some(mv("BD4RD4")));
    }
    // With no capture, any legal move; random agents only ever move legally.
    let start = Board::startpos();
    let mut random = RandomAgent::new(2);
    let mut seen = std::collections::HashSet::new();
    for _ in 0..400 {
        let m = random.choose(&start).unwrap();
        assert!(start.is_legal(m));
        seen.insert(m);
        let g = greedy.choose(&start).unwrap();
        assert!(start.is_legal(g));
    }
    // It reaches every one of Blue's 20 first moves.
    assert_eq!(seen.len(), 20);
    // The greedy agent takes a king whenever it can (40 beats a queen's 9).
    let b = Board::from_fen("3bQ4/8/8/4bK3|5gN2/8/4gP3/4gK3|3rK4/8/8/8 b").unwrap();
    let r = b.piece_at(Square::parse("RD4").unwrap()).unwrap();
    assert_eq!(r.kind(), Kind::King);
    assert_eq!(greedy.choose(&b), Some(mv("BD4RD4")));
}
