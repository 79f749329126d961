//! `jiang-lab jieqi-baseline [--depth D]`: a Jieqi player to measure jiang against, over
//! UCI: a plain expectimax of fixed depth (default 2 plies) over the player's view. A
//! move of a face-down piece, or a capture of one, is a chance node: its value is the
//! average over every kind the pool may reveal, weighted by the pool's counts; the
//! leaves are jiang's Jieqi material evaluation (a face-down piece at its pool's
//! average). No pruning, no quiescence, no hash table: the "shallow expectimax" of
//! issue 57, which plays the same rules and sees every chance exactly.

use jiang::game::Rules;
use jiang::jieqi::{Move, Position};
use std::io::{BufRead, Write};

const MATE: i32 = 30_000;

/// The value of `pos` for the side to move, `depth` plies deep.
fn expectimax(pos: &mut Position, depth: u32) -> i32 {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // No legal move loses (mate and stalemate alike).
        return -MATE;
    }
    if depth == 0 {
        return jiang::jieqi::game_impl::evaluate(pos);
    }
    moves
        .iter()
        .map(|&m| chance_value(pos, m, depth))
        .max()
        .unwrap_or(-MATE)
}

/// The expected value of the bare move `m` for the mover: the average over its outcomes.
fn chance_value(pos: &mut Position, m: Move, depth: u32) -> i32 {
    let (outcomes, n) = pos.outcomes(m);
    let (mut sum, mut weights) = (0i64, 0i64);
    for &o in &outcomes[..n] {
        let w = i64::from(pos.outcome_weight(o).max(1));
        pos.make_move(o);
        sum += w * i64::from(-expectimax(pos, depth - 1));
        pos.unmake_move();
        weights += w;
    }
    (sum / weights.max(1)) as i32
}

/// The best bare move of `pos`, if it has one.
fn best_move(pos: &Position, depth: u32) -> Option<Move> {
    let mut p = pos.clone();
    let mut best: Option<(i32, Move)> = None;
    for m in pos.legal_moves() {
        let v = chance_value(&mut p, m, depth.max(1));
        if best.is_none_or(|(b, _)| v > b) {
            best = Some((v, m));
        }
    }
    best.map(|(_, m)| m)
}

/// `position [startpos | fen FEN] [moves M...]`, the moves with JieqiBox's letters.
fn read_position(words: &[&str]) -> Result<Position, String> {
    let moves_at = words.iter().position(|w| *w == "moves");
    let head = &words[..moves_at.unwrap_or(words.len())];
    let mut pos = match head.first() {
        Some(&"startpos") => Position::start_position(),
        Some(&"fen") => Position::from_fen(&head[1..].join(" ")).map_err(|e| e.to_string())?,
        _ => return Err("position needs startpos or fen".into()),
    };
    for text in moves_at.map_or(&[][..], |i| &words[i + 1..]) {
        let m = pos.parse_legal_move(text).map_err(|e| e.to_string())?;
        pos.play(m);
    }
    Ok(pos)
}

/// The UCI loop on stdin and stdout.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut depth = 2u32;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--depth" => {
                depth = it
                    .next()
                    .and_then(|d| d.parse().ok())
                    .filter(|d| (1..=4).contains(d))
                    .ok_or("--depth needs 1 to 4")?
            }
            other => return Err(format!("jieqi-baseline: unknown argument '{other}'")),
        }
    }
    let stdin = std::io::stdin();
    let mut out = std::io::stdout().lock();
    let mut pos = Position::start_position();
    let say = |out: &mut std::io::StdoutLock, line: &str| {
        let _ = writeln!(out, "{line}");
        let _ = out.flush();
    };
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.first().copied() {
            Some("uci") => {
                say(
                    &mut out,
                    &format!("id name jieqi-baseline expectimax depth {depth}"),
                );
                say(&mut out, "id author the jiang developers");
                say(
                    &mut out,
                    "option name UCI_Variant type combo default jieqi var jieqi",
                );
                say(&mut out, "uciok");
            }
            Some("isready") => say(&mut out, "readyok"),
            Some("position") => match read_position(&words[1..]) {
                Ok(p) => pos = p,
                Err(e) => say(&mut out, &format!("info string position refused: {e}")),
            },
            Some("go") => {
                let text = match best_move(&pos, depth) {
                    Some(m) => {
                        let s = m.to_string();
                        s.get(..4).unwrap_or(&s).to_string()
                    }
                    None => "(none)".to_string(),
                };
                say(&mut out, &format!("bestmove {text}"));
            }
            Some("quit") => break,
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn takes_a_free_chariot_and_answers_from_the_start() {
        let pos = Position::from_fen("r3k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1").unwrap();
        assert_eq!(
            best_move(&pos, 2).map(|m| m.to_string()).as_deref(),
            Some("a0a9")
        );
        let start = Position::start_position();
        let m = best_move(&start, 2).expect("a move");
        assert!(start.legal_moves().contains(&m));
        // Reveals are averaged over the pool: the same answer whatever the call.
        assert_eq!(best_move(&start, 2), Some(m));
    }

    #[test]
    fn positions_with_revealed_moves_are_read_and_bad_ones_refused() {
        let words: Vec<&str> = "startpos moves b2b6C h7h0nP".split_whitespace().collect();
        let p = read_position(&words).unwrap();
        assert_eq!(p.plies_played(), 2);
        let bad: Vec<&str> = "startpos moves b2c3".split_whitespace().collect();
        assert!(read_position(&bad).is_err());
        assert!(read_position(&["fen", "nonsense"]).is_err());
        assert!(read_position(&[]).is_err());
    }
}
