//! `bench`: a fixed set of positions searched to a fixed depth, one thread, a fresh hash
//! table per position. The node total is a signature of the search's behaviour: it
//! changes only when the search or evaluation changes; the time gives nodes per second.

use crate::common::clock::Instant;
use crate::request::SearchRequest;
use crate::search::{self, SearchControl};
use crate::tt::TranspositionTable;
use crate::xiangqi::{Move, Position};

/// Default bench depth.
pub const DEFAULT_DEPTH: i32 = 13;
/// Hash size used by bench, MiB.
pub const BENCH_HASH_MB: usize = 16;

/// The bench positions: the public perft positions, opening positions after a few random
/// plies, middlegames and endgames.
pub const POSITIONS: &[&str] = &[
    "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR w - - 0 1",
    "r1ba1a3/4kn3/2n1b4/pNp1p1p1p/4c4/6P2/P1P2R2P/1CcC5/9/2BAKAB2 w - - 0 1",
    "1cbak4/9/n2a5/2p1p3p/5cp2/2n2N3/6PCP/3AB4/2C6/3A1K1N1 w - - 0 1",
    "5a3/3k5/3aR4/9/5r3/5n3/9/3A1A3/5K3/2BC2B2 w - - 0 1",
    "CRN1k1b2/3ca4/4ba3/9/2nr5/9/9/4B4/4A4/4KA3 w - - 0 1",
    "R1N1k1b2/9/3aba3/9/2nr5/2B6/9/4B4/4A4/4KA3 w - - 0 1",
    "C1nNk4/9/9/9/9/9/n1pp5/B3C4/9/3A1K3 w - - 0 1",
    "4ka3/4a4/9/9/4N4/p8/9/4C3c/7n1/2BK5 w - - 0 1",
    "2b1ka3/9/b3N4/4n4/9/9/9/4C4/2p6/2BK5 w - - 0 1",
    "1C2ka3/9/C1Nab1n2/p3p3p/6p2/9/P3P3P/3AB4/3p2c2/c1BAK4 w - - 0 1",
    "CnN1k1b2/c3a4/4ba3/9/2nr5/9/9/4C4/4A4/4KA3 w - - 0 1",
    "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
    "1rbaka2R/5r3/6n2/2p1p1p2/4P1bP1/PpC3Bc1/1nPR2P2/2N2AN2/1c2K1p2/2BAC4 w - - 0 1",
    "4kcP1N/8n/3rb4/9/9/9/9/3p1A3/4K4/5CB2 w - - 0 1",
    "rnbaka1nr/9/1c2b4/p1p1p1p1p/9/9/P1P1P1PcP/NC5C1/3KA4/R1B2ABNR w - - 8 5",
    "rnbakabnr/9/4c4/p1p1p1p1p/9/6P2/P1P1P2cP/4C1N1C/9/RNBAKAB1R b - - 7 4",
    "rn1akabnr/9/1c2b2c1/p1p3p2/4p3p/9/P1P1P1PCP/9/R2C5/1NBAKABNR b - - 7 4",
    "rnb1kabnr/4a4/7c1/p1p1p1p2/8p/1c4P2/P1P1P3P/1C5CR/4A4/RNBAK1BN1 w - - 6 4",
    "rnbaka2r/9/1c2b3n/p1p1p1pcp/9/1C5C1/P1P1P1P1P/B8/9/RN1AKABNR b - - 7 4",
    "rnbak1bnr/4a4/1c7/p1p5p/1C2p1C2/9/P1P1P1P1P/9/7c1/RNBAKABNR b - - 2 4",
    "1Cbaka1nr/9/r6cb/p1p1p1p1p/9/9/PcP1P1P1P/7C1/2N1K4/R1BA1ABNR b - - 2 4",
    "1nbakabn1/rC7/2c4cr/p1p1p1pCp/9/9/P1P1P1P1P/R8/9/1NBAKABNR w - - 8 5",
    "r1bakabr1/9/1cn3nc1/p1p1p1p1p/9/2P6/P3P1P1P/1CN3NC1/9/R1BAKAB1R w - - 4 5",
    "2bakab2/9/2n1c1n2/p3p3p/2p3p2/9/P1P3P1P/2N1C1N2/9/2BAKAB2 w - - 0 12",
    "3ak1b2/4a4/4b4/p3N3p/9/6p2/P8/4B4/4A4/2BAK4 w - - 0 30",
    "3k5/9/9/9/9/9/9/9/4A4/3AK2R1 w - - 0 50",
    "4ka3/4a4/9/9/2P6/9/9/9/9/3K5 w - - 0 60",
    "2bak4/4a4/4b4/9/9/4N4/9/9/4A4/3AK4 w - - 0 70",
    "3aka3/9/4b4/9/9/2C6/9/4B4/4A4/3AK4 b - - 0 40",
    "r3kab2/4a4/2n1b4/p3p1R1p/2p3p2/9/P1P1P1P1P/2N1C4/9/1RBAKAB2 b - - 0 15",
    "4k4/4a4/4ba3/9/6r2/9/9/4B4/2R1A4/4KA3 w - - 0 45",
    "2ba1k3/4a4/4b4/2P3P2/9/9/9/9/4A4/3AK4 w - - 0 55",
];

/// Result of a bench run.
pub struct BenchReport {
    /// Total nodes (the signature).
    pub nodes: u64,
    /// Total milliseconds.
    pub ms: u64,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        self.nodes * 1000 / self.ms.max(1)
    }
}

/// Searches every bench position to `depth` with a fresh 16 MiB table, evaluating with
/// the network or the hand-written evaluation (`use_network`); `progress` gets a line
/// per position.
pub fn run(depth: i32, use_network: bool, progress: &mut dyn FnMut(&str)) -> BenchReport {
    let tt = TranspositionTable::new(BENCH_HASH_MB);
    let start = Instant::now();
    let mut nodes = 0;
    for (i, fen) in POSITIONS.iter().enumerate() {
        let mut pos = match Position::from_fen(fen) {
            Ok(p) => p,
            Err(e) => {
                progress(&format!("position {}: bad FEN ({e}), skipped", i + 1));
                continue;
            }
        };
        pos.set_use_network(use_network);
        tt.clear();
        let limits = SearchRequest::<Move> {
            depth: Some(depth),
            ..SearchRequest::default()
        };
        let control = SearchControl::new(None, None, false);
        let r = search::search(&pos, &limits, &tt, &control, &|_| {});
        nodes += r.nodes;
        progress(&format!(
            "position {:2}/{}: {:>10} nodes  best {}  {}",
            i + 1,
            POSITIONS.len(),
            r.nodes,
            r.best_move.map_or("(none)".to_string(), |m| m.to_string()),
            fen
        ));
    }
    BenchReport {
        nodes,
        ms: start.elapsed().as_millis() as u64,
    }
}
