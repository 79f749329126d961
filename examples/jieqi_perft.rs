//! Jieqi perft for the cross-check (`tools/jieqi/crosscheck.mjs`): reads lines
//! `DEPTH FEN` from standard input and prints, for each, `perft chance view` (the
//! `perft` command's count, each move once; the chance tree; the player's-view count),
//! or `error REASON` for a FEN jiang refuses.

use jiang::game::Rules;
use jiang::jieqi::{perft_chance, perft_view, Position};
use std::io::{self, BufRead, Write};

fn main() {
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let line = line.trim();
        if line.is_empty() {
            continue;
        }
        let (depth, fen) = line.split_once(' ').unwrap_or((line, ""));
        let Ok(depth) = depth.parse::<u32>() else {
            let _ = writeln!(out, "error bad depth '{depth}'");
            continue;
        };
        match Position::from_fen(fen) {
            Ok(mut pos) => {
                pos.reserve(depth as usize + 1);
                let plain = jiang::perft::perft(&mut pos, depth);
                let chance = perft_chance(&mut pos, depth);
                let view = perft_view(&mut pos, depth);
                let _ = writeln!(out, "{plain} {chance} {view}");
            }
            Err(e) => {
                let _ = writeln!(out, "error {e}");
            }
        }
        let _ = out.flush();
    }
}
