//! Sample positions and moves of every game jiang plays, made with the library, so the
//! fuzzer follows `jiang::games::VARIANTS` as games are added.

use crate::rng::Rng;

/// One random game: the FEN before each ply and the legal moves there.
pub struct SampleGame {
    /// `fens[i]`: the position after `i` plies (`fens[0]` is the start).
    pub fens: Vec<String>,
    /// `moves[i]` leads from `fens[i]` to `fens[i + 1]`.
    pub moves: Vec<String>,
    /// `legal[i]`: the legal moves in `fens[i]`.
    pub legal: Vec<Vec<String>>,
}

/// What the fuzzer knows about one game.
pub struct GameInfo {
    /// The protocol name (`UCI_Variant`).
    pub name: &'static str,
    /// Whether CECP offers it (`variant NAME`).
    pub xboard: bool,
    /// The `go` keywords of each player's time and increment.
    pub clock_keys: Vec<(&'static str, &'static str)>,
    /// Random games from the start position.
    pub samples: Vec<SampleGame>,
}

/// FENs of no game jiang plays (or malformed ones of Xiangqi).
pub const FOREIGN_FENS: &[&str] = &[
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "8/8/8/8/8/8/8/8 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/9/RNBAKABNR w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9 w - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR x - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - -5 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 99999999999999999999 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNQ w - - 0 1",
    "kkkkkkkkk/9/9/9/9/9/9/9/9/KKKKKKKKK w - - 0 1",
    "4k4/9/9/9/9/9/9/9/9/4K4 w - - 0 1",
    "3k5/9/9/9/9/9/9/9/9/4K4 b - - 0 1",
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR",
    "rnbakabnr/99/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "//////// w",
    "4k3/8/8/8/8/8/8/4K3 b - - 3 17",
    "2R1/3r/Kk2/4 w - - 0 1",
    "1k3/5/5/5/5/K4 w - - 0 1",
    "r w - - 0 1",
    "w",
    "-",
];

/// Moves of no game jiang plays, or of other games, or not moves at all.
pub const FOREIGN_MOVES: &[&str] = &[
    "e2e4",
    "e7e8q",
    "O-O",
    "P@e4",
    "BE2BE4",
    "RD8RD5",
    "a10b9",
    "0000",
    "(none)",
    "h2e2h2e2",
    "z9z9",
    "a0",
    "a0a0",
    "i9i0",
    "h2-e2",
    "H2E2",
    "h2e",
    "1234",
    "e1g1",
    "a1a8",
    "b1c3",
    "d4d2c",
    "j0j1",
    "a-1a0",
    "ｈ２ｅ２",
];

/// Plays `count` random games of `name` of up to `plies` plies each.
fn sample_games(name: &str, rng: &mut Rng, count: usize, plies: usize) -> Vec<SampleGame> {
    let mut out = Vec::new();
    for _ in 0..count {
        let Some(mut session) = jiang::games::new_session(name) else {
            break;
        };
        let mut game = SampleGame {
            fens: vec![session.fen()],
            moves: Vec::new(),
            legal: Vec::new(),
        };
        for _ in 0..plies {
            let legal = session.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[rng.below(legal.len())].clone();
            game.legal.push(legal);
            if session.play(&m).is_err() {
                break;
            }
            game.moves.push(m);
            game.fens.push(session.fen());
        }
        game.legal.push(session.legal_moves());
        out.push(game);
    }
    out
}

/// Every game in `jiang::games::VARIANTS`, with random sample games from `seed`.
pub fn all_games(seed: u64) -> Vec<GameInfo> {
    let mut rng = Rng::new(seed ^ 0x6a69_616e_6761_6d65);
    let xboard = jiang::protocol::cecp::xboard_variants();
    jiang::games::VARIANTS
        .iter()
        .map(|&name| {
            let session = jiang::games::new_session(name).expect("a listed game starts");
            GameInfo {
                name,
                xboard: xboard.contains(&name),
                clock_keys: session.clock_keys().to_vec(),
                samples: sample_games(name, &mut rng, 6, 70),
            }
        })
        .collect()
}
