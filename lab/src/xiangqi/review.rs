//! `jiang-lab review GAME`: jiang's search on every position of a game's main line, the
//! moves marked by how much of the mover's winning chances they gave away, an annotated
//! PGN and a graph of the game.
//!
//! The rules of judging (the loss of winning chances under jiang's WDL model, the marks
//! `?!` `?` `??` from 0.10, 0.20, 0.30, lichess's accuracy formula, the deciding moments)
//! are the engine library's `jiang::record::review`, which the web board's review uses
//! too; this command does the searching and the writing.

use super::records::games_of;
use crate::flags::{Flags, Spec};
use jiang::engine::{Engine, Event, EventSink};
use jiang::record::notation::{write_move, Notation};
use jiang::record::review::{self as judging, Judgement};
pub use jiang::record::review::{accuracy, expectation, mark};
use jiang::record::{pgn, Game, GameTree, Nag, NodeId};
use jiang::request::SearchRequest;
use jiang::time::Clock;
use jiang::xiangqi::{Color, Move, Position};
use std::io::Write;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// The usage lines of `review`.
pub const USAGE: &str = "\
jiang-lab review GAME [--movetime MS | --depth D] [--out FILE.pgn] [--svg FILE.svg]
    [--notation iccs|wxf|chinese] [--game N] [--hash MB] [--threads N]
    jiang's search on every position of GAME's main line (any record format; the N-th
    game of a file, from 1): an annotated PGN (score and best line at each move, ?! ? ??
    by the loss of winning chances, each side's accuracy) to --out or stdout, and the
    graph of the score to --svg";

/// What the search said about one position.
#[derive(Clone, Debug)]
pub struct Verdict {
    /// Score, internal units, from the side to move's view.
    pub score: i32,
    /// The principal variation, ICCS.
    pub pv: Vec<String>,
    /// Depth reached.
    pub depth: i32,
}

/// One reviewed move: its node in the game tree and how the shared rules judged it.
#[derive(Clone, Debug)]
pub struct MoveReview {
    /// Its node in the game tree.
    pub node: NodeId,
    /// The mover's expected score before and after, the loss, the mark, Red's chances.
    pub judged: Judgement,
}

/// A score as players read it, from Red's view: `+0.42` (soldiers), `#5` / `#-3`.
pub fn score_text(red_score: i32) -> String {
    match jiang::report::Score::from_internal(red_score) {
        jiang::report::Score::Mate(n) => format!("#{n}"),
        jiang::report::Score::Cp(cp) => format!("{:+.2}", f64::from(cp) / 100.0),
    }
}

struct Limits {
    movetime: Option<u64>,
    depth: Option<i32>,
}

/// Searches one position.
fn search(
    engine: &mut Engine,
    fen: &str,
    moves: &[String],
    limits: &Limits,
) -> Result<Verdict, String> {
    let moves: Vec<&str> = moves.iter().map(String::as_str).collect();
    engine
        .set_position(Some(fen), &moves)
        .map_err(|e| e.to_string())?;
    engine.wait_ready();
    let last: Arc<Mutex<Option<Verdict>>> = Arc::new(Mutex::new(None));
    let seen = Arc::clone(&last);
    let sink: EventSink = Arc::new(move |event: Event<'_>| {
        if let Event::Info(info) = event {
            if info.multipv <= 1 && !info.pv.is_empty() {
                if let Ok(mut l) = seen.lock() {
                    *l = Some(Verdict {
                        score: info.raw_score,
                        pv: info.pv.clone(),
                        depth: info.depth,
                    });
                }
            }
        }
    });
    let go = SearchRequest {
        clock: Clock {
            move_time: limits.movetime.map(Duration::from_millis),
            ..Clock::default()
        },
        depth: limits.depth,
        ..SearchRequest::default()
    };
    engine.go(&go, sink);
    engine.wait();
    let outcome = engine.take_outcome();
    let info = last.lock().ok().and_then(|l| l.clone());
    match (info, outcome) {
        (Some(v), _) => Ok(v),
        (None, Some(o)) => Ok(Verdict {
            score: o.answer.score,
            pv: o.answer.best.into_iter().collect(),
            depth: o.answer.depth,
        }),
        (None, None) => Err("the search gave no answer".into()),
    }
}

fn progress(done: usize, total: usize, started: Instant, per_position: Option<Duration>) {
    let width = 30;
    let filled = (done * width).checked_div(total).unwrap_or(width);
    let elapsed = started.elapsed();
    let left = match (per_position, done) {
        (Some(p), _) => p * (total - done) as u32,
        (None, 0) => Duration::ZERO,
        (None, d) => elapsed / d as u32 * (total - done) as u32,
    };
    let mmss = |d: Duration| format!("{}:{:02}", d.as_secs() / 60, d.as_secs() % 60);
    eprint!(
        "\r[{}{}] {done}/{total} positions, {} elapsed, {} left   ",
        "#".repeat(filled),
        ".".repeat(width - filled),
        mmss(elapsed),
        mmss(left)
    );
    let _ = std::io::stderr().flush();
}

/// The PV (ICCS, from `pos`) in `notation`, as far as its moves are legal.
fn line_text(pos: &Position, pv: &[String], notation: Notation, max: usize) -> String {
    let mut p = pos.clone();
    let mut words = Vec::new();
    for m in pv.iter().take(max) {
        let Ok(mv) = Move::parse(m) else { break };
        if !p.is_legal(mv) {
            break;
        }
        words.push(match notation {
            Notation::Iccs => mv.to_string(),
            other => write_move(&p, mv, other),
        });
        p.make_move(mv);
    }
    words.join(" ")
}

/// Reviews the main line of `game`: the verdict of every position, then the moves marked.
fn review_game(
    game: &mut Game,
    limits: &Limits,
    hash: &str,
    threads: &str,
    notation: Notation,
) -> Result<Vec<MoveReview>, String> {
    let line = game.tree.main_line();
    let start = game.start_position();
    let mut engine = Engine::new();
    engine.set_option("Hash", hash).map_err(|e| e.to_string())?;
    engine
        .set_option("Threads", threads)
        .map_err(|e| e.to_string())?;
    engine.new_game();
    let iccs: Vec<String> = game.main_line_iccs();
    let total = line.len() + 1;
    let started = Instant::now();
    let per = limits.movetime.map(Duration::from_millis);
    let mut verdicts = Vec::with_capacity(total);
    let mut positions = Vec::with_capacity(total);
    let mut pos = start.clone();
    for i in 0..total {
        progress(i, total, started, per);
        let verdict = if pos.legal_moves().is_empty() {
            // No move: the side to move has lost (checkmated or stalemated).
            Verdict {
                score: -jiang::tt::MATE,
                pv: Vec::new(),
                depth: 0,
            }
        } else {
            search(&mut engine, &game.start_fen, &iccs[..i], limits)?
        };
        verdicts.push(verdict);
        positions.push(pos.clone());
        if let Some(m) = iccs.get(i).and_then(|m| Move::parse(m).ok()) {
            pos.make_move(m);
        }
    }
    progress(total, total, started, per);
    eprintln!();

    let moves: Vec<Move> = iccs.iter().filter_map(|m| Move::parse(m).ok()).collect();
    let judged_verdicts: Vec<judging::Verdict> = verdicts
        .iter()
        .map(|v| judging::Verdict {
            score: v.score,
            best: v.pv.first().and_then(|m| Move::parse(m).ok()),
        })
        .collect();
    let judged = judging::judge(&start, &moves, &judged_verdicts);
    let mut reviews = Vec::new();
    for (i, (&node, j)) in line.iter().zip(&judged).enumerate() {
        let (p, next) = (&positions[i], &positions[i + 1]);
        let Judgement { loss, nag, .. } = *j;
        let best = verdicts[i].pv.first().map(String::as_str);
        reviews.push(MoveReview { node, judged: *j });
        // The comment: the score after the move, and the better move when it was not.
        let red_score = |v: &Verdict, p: &Position| {
            if p.side_to_move() == Color::Red {
                v.score
            } else {
                -v.score
            }
        };
        let after_score = red_score(&verdicts[i + 1], next);
        let mut text = format!(
            "jiang {} (d{})",
            score_text(after_score),
            verdicts[i + 1].depth
        );
        if best.is_some_and(|b| b != iccs[i]) && loss > 0.0 {
            let best_score = red_score(&verdicts[i], p);
            text.push_str(&format!(
                "; best {} {}",
                score_text(best_score),
                line_text(p, &verdicts[i].pv, notation, 6)
            ));
        } else if !verdicts[i + 1].pv.is_empty() {
            text.push_str(&format!(
                "; {}",
                line_text(next, &verdicts[i + 1].pv, notation, 6)
            ));
        }
        game.tree.add_comment(node, &text);
        if let Some(n) = game.tree.node_mut(node) {
            n.nag = nag.or(n.nag);
        }
    }
    Ok(reviews)
}

fn judgements(reviews: &[MoveReview]) -> Vec<Judgement> {
    reviews.iter().map(|r| r.judged).collect()
}

/// Counts and accuracy of one side.
fn side_summary(reviews: &[MoveReview], side: Color) -> (f64, [usize; 3]) {
    let s = judging::side_summary(&judgements(reviews), side);
    (s.accuracy, [s.inaccuracies, s.mistakes, s.blunders])
}

/// The summary line of each side.
pub fn summary(reviews: &[MoveReview]) -> Vec<String> {
    [(Color::Red, "Red"), (Color::Black, "Black")]
        .iter()
        .map(|&(side, name)| {
            let (acc, [i, m, b]) = side_summary(reviews, side);
            format!("{name}: accuracy {acc:.1}%, {i} inaccuracies (?!), {m} mistakes (?), {b} blunders (??)")
        })
        .collect()
}

/// The deciding moments: the marked moves with the largest losses (at most three).
fn deciding(reviews: &[MoveReview]) -> Vec<usize> {
    judging::deciding(&judgements(reviews))
}

fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// The graph of Red's winning chances over the game, the marks and deciding moments on it.
pub fn svg(game: &Game, reviews: &[MoveReview], notation: Notation) -> String {
    let (w, h) = (960.0, 360.0);
    let (left, right, top, bottom) = (56.0, 20.0, 44.0, 40.0);
    let (pw, ph) = (w - left - right, h - top - bottom);
    let n = reviews.len().max(1) as f64;
    let x = |ply: f64| left + pw * ply / n;
    let y = |p: f64| top + ph * (1.0 - p);
    let first = judging::red_start(&judgements(reviews));
    let mut points = vec![(x(0.0), y(first))];
    for (i, r) in reviews.iter().enumerate() {
        points.push((x(i as f64 + 1.0), y(r.judged.red_after)));
    }
    let path: String = points
        .iter()
        .map(|(a, b)| format!("{a:.1},{b:.1}"))
        .collect::<Vec<_>>()
        .join(" ");
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"{w}\" height=\"{h}\" fill=\"#fbf7ee\"/>\n"
    );
    let title = format!(
        "{} – {}{}",
        game.tag("Red").unwrap_or("Red"),
        game.tag("Black").unwrap_or("Black"),
        game.tag("Event")
            .map(|e| format!(" · {e}"))
            .unwrap_or_default()
    );
    s.push_str(&format!(
        "<text x=\"{left}\" y=\"22\" font-size=\"15\" font-weight=\"bold\">{}</text>\n",
        xml(&title)
    ));
    s.push_str(&format!(
        "<text x=\"{}\" y=\"22\" text-anchor=\"end\" fill=\"#555\">Red's winning chances (jiang's WDL model)</text>\n",
        w - right
    ));
    // Red's area above the curve's baseline at 0, Black's below 1.
    s.push_str(&format!(
        "<rect x=\"{left}\" y=\"{top}\" width=\"{pw}\" height=\"{ph}\" fill=\"#333\" opacity=\"0.85\"/>\n<polygon points=\"{left},{} {path} {},{}\" fill=\"#c8102e\" opacity=\"0.9\"/>\n",
        y(0.0),
        x(n),
        y(0.0)
    ));
    for (p, label) in [
        (0.0, "0%"),
        (0.25, "25%"),
        (0.5, "50%"),
        (0.75, "75%"),
        (1.0, "100%"),
    ] {
        s.push_str(&format!(
            "<line x1=\"{left}\" x2=\"{x2}\" y1=\"{yp:.1}\" y2=\"{yp:.1}\" stroke=\"#fff\" stroke-opacity=\"0.35\" stroke-dasharray=\"{dash}\"/>\n<text x=\"{lx}\" y=\"{ly:.1}\" text-anchor=\"end\">{label}</text>\n",
            x2 = w - right,
            yp = y(p),
            dash = if p == 0.5 { "none" } else { "3,4" },
            lx = left - 6.0,
            ly = y(p) + 4.0
        ));
    }
    // Move numbers on the x axis.
    let step = ((n / 10.0).ceil() as usize).max(1) * 2;
    let mut ply = 0;
    while ply <= reviews.len() {
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">{}</text>\n",
            x(ply as f64),
            h - bottom + 16.0,
            ply / 2 + 1
        ));
        ply += step;
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" fill=\"#555\">move</text>\n",
        left + pw / 2.0,
        h - 6.0
    ));
    s.push_str(&format!(
        "<polyline points=\"{path}\" fill=\"none\" stroke=\"#f4c542\" stroke-width=\"1.5\"/>\n"
    ));
    // The marks.
    for (i, r) in reviews.iter().enumerate() {
        let color = match r.judged.nag {
            Some(Nag::Blunder) => "#ff2d2d",
            Some(Nag::Mistake) => "#ff9a1f",
            Some(Nag::Dubious) => "#ffe14d",
            _ => continue,
        };
        s.push_str(&format!(
            "<circle cx=\"{:.1}\" cy=\"{:.1}\" r=\"4.5\" fill=\"{color}\" stroke=\"#000\" stroke-width=\"0.8\"><title>{}</title></circle>\n",
            x(i as f64 + 1.0),
            y(r.judged.red_after),
            xml(&move_label(game, reviews, i, notation))
        ));
    }
    // The deciding moments: a line and the move.
    for (k, &i) in deciding(reviews).iter().enumerate() {
        let r = &reviews[i];
        let (cx, cy) = (x(i as f64 + 1.0), y(r.judged.red_after));
        s.push_str(&format!(
            "<line x1=\"{cx:.1}\" x2=\"{cx:.1}\" y1=\"{top}\" y2=\"{}\" stroke=\"#fff\" stroke-width=\"1\" stroke-dasharray=\"2,2\"/>\n",
            top + ph
        ));
        let ly = top + 16.0 + 15.0 * k as f64;
        let anchor = if cx > left + pw * 0.8 { "end" } else { "start" };
        let dx = if anchor == "end" { -5.0 } else { 5.0 };
        s.push_str(&format!(
            "<text x=\"{:.1}\" y=\"{ly:.1}\" text-anchor=\"{anchor}\" fill=\"#fff\" font-weight=\"bold\" stroke=\"#000\" stroke-width=\"2.5\" paint-order=\"stroke\">{} (−{:.0}%)</text>\n<circle cx=\"{cx:.1}\" cy=\"{cy:.1}\" r=\"7\" fill=\"none\" stroke=\"#fff\" stroke-width=\"2\"/>\n",
            cx + dx,
            xml(&move_label(game, reviews, i, notation)),
            r.judged.loss * 100.0
        ));
    }
    // The summary under the title.
    for (k, line) in summary(reviews).iter().enumerate() {
        s.push_str(&format!(
            "<text x=\"{}\" y=\"{}\" text-anchor=\"{}\" fill=\"#333\" font-size=\"11\">{}</text>\n",
            if k == 0 { left } else { w - right },
            38,
            if k == 0 { "start" } else { "end" },
            xml(line)
        ));
    }
    s.push_str("</svg>\n");
    s
}

/// `12... C8.5??`
fn move_label(game: &Game, reviews: &[MoveReview], i: usize, notation: Notation) -> String {
    let r = &reviews[i];
    let node = game.tree.node(r.node);
    let pos = game.tree.position_at(&game.start_position(), node.parent);
    let text = node.mv.map_or(String::new(), |m| match notation {
        Notation::Iccs => m.to_string(),
        other => write_move(&pos, m, other),
    });
    let number = pos.fullmove();
    let dots = if r.judged.side == Color::Red {
        "."
    } else {
        "..."
    };
    format!(
        "{number}{dots} {text}{}",
        r.judged.nag.map_or("", |n| n.suffix())
    )
}

/// `review GAME [flags]`.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some((path, rest)) = args.split_first().filter(|(p, _)| !p.starts_with("--")) else {
        return Err("review needs a game file".into());
    };
    let flags = Flags::parse(
        rest,
        &Spec::new(USAGE).options(&[
            "movetime", "depth", "out", "svg", "notation", "game", "hash", "threads",
        ]),
    )?;
    let depth = flags.text("depth");
    let limits = Limits {
        depth: if depth.is_empty() {
            None
        } else {
            Some(flags.get("depth", 0)?)
        },
        movetime: if depth.is_empty() || !flags.text("movetime").is_empty() {
            Some(flags.get("movetime", 1000)?)
        } else {
            None
        },
    };
    if limits.depth.is_some() && !flags.text("movetime").is_empty() {
        return Err("--movetime or --depth, not both".into());
    }
    let notation = match flags.text("notation").as_str() {
        "" | "chinese" => Notation::Chinese,
        "wxf" => Notation::Wxf,
        "iccs" => Notation::Iccs,
        other => return Err(format!("--notation {other}: iccs, wxf or chinese")),
    };
    let index: usize = flags.get("game", 1)?;
    let mut games = games_of(path, None)?;
    if index == 0 || index > games.len() {
        return Err(format!("{path}: no game {index} ({} read)", games.len()));
    }
    let mut game = games.swap_remove(index - 1);
    if game.tree.main_line().is_empty() {
        return Err(format!("{path}: the game has no moves"));
    }
    let hash = flags.text("hash");
    let threads = flags.text("threads");
    let started = Instant::now();
    let reviews = review_game(
        &mut game,
        &limits,
        if hash.is_empty() { "64" } else { &hash },
        if threads.is_empty() { "1" } else { &threads },
        notation,
    )?;
    let lines = summary(&reviews);
    let how = match (limits.depth, limits.movetime) {
        (Some(d), _) => format!("depth {d}"),
        (None, Some(ms)) => format!("{ms} ms a position"),
        _ => String::new(),
    };
    game.tree.add_comment(
        GameTree::ROOT,
        &format!("jiang review ({how}): {}", lines.join("; ")),
    );
    game.set_tag("Annotator", "jiang");
    let text = pgn::write(&game, notation);
    let out = flags.text("out");
    if out.is_empty() {
        print!("{text}");
    } else {
        std::fs::write(&out, &text).map_err(|e| format!("{out}: {e}"))?;
    }
    let svg_path = flags.text("svg");
    if !svg_path.is_empty() {
        std::fs::write(&svg_path, svg(&game, &reviews, notation))
            .map_err(|e| format!("{svg_path}: {e}"))?;
    }
    for l in &lines {
        eprintln!("{l}");
    }
    eprintln!(
        "{} moves reviewed in {:.0} s",
        reviews.len(),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_and_accuracy_follow_the_loss() {
        assert_eq!(mark(0.05), None);
        assert_eq!(mark(0.12), Some(Nag::Dubious));
        assert_eq!(mark(0.25), Some(Nag::Mistake));
        assert_eq!(mark(0.6), Some(Nag::Blunder));
        assert!((accuracy(0.0) - 100.0).abs() < 0.01);
        assert!(accuracy(0.1) < accuracy(0.05) && accuracy(1.0) < 5.0);
        assert_eq!(score_text(42), "+0.42");
        assert_eq!(score_text(-150), "-1.50");
        assert_eq!(score_text(jiang::tt::MATE - 9), "#5");
    }

    #[test]
    fn a_short_game_is_reviewed() {
        // 1. C2.5 H2+3 2. C5+4 (the central soldier) H8+7, at depth 4.
        let mut game = Game::default();
        let mut node = 0;
        for m in ["h2e2", "b9c7", "e2e6", "h9g7"] {
            node = game.tree.add_move(node, Move::parse(m).unwrap());
        }
        let limits = Limits {
            movetime: None,
            depth: Some(4),
        };
        let reviews = review_game(&mut game, &limits, "16", "1", Notation::Wxf).unwrap();
        assert_eq!(reviews.len(), 4);
        assert!(reviews
            .iter()
            .all(|r| (0.0..=1.0).contains(&r.judged.before) && r.judged.loss >= 0.0));
        let comment = &game.tree.node(game.tree.main_line()[0]).comment;
        assert!(comment.starts_with("jiang "), "{comment}");
        let text = pgn::write(&game, Notation::Wxf);
        let back = pgn::read(&text).unwrap();
        assert!(back.warnings.is_empty(), "{:?}", back.warnings);
        assert_eq!(back.game.main_line_iccs(), game.main_line_iccs());
        let picture = svg(&game, &reviews, Notation::Wxf);
        assert!(picture.starts_with("<svg") && picture.contains("polyline"));
    }
}
