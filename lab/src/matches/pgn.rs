//! PGN output: the tags of the Xiangqi PGN that Fairy-Stockfish and pychess read
//! (`[Variant "xiangqi"]`, `[FEN ...]`, `[SetUp "1"]`, White = the Red engine) plus the
//! runner's `Termination`, `Reason` and `ForfeitDetail`; moves in the coordinate notation
//! (Xiangqi: ICCS, `h2e2`), each with a comment `{score/depth time nodes= nps= clock=}`
//! from the engine's last info line, as cutechess-cli writes them.

use super::game::{GameRecord, MoveRecord};
use super::referee::Variant;

fn escape(s: &str) -> String {
    s.replace('\\', "\\\\").replace('"', "\\\"")
}

/// `{+0.35/12 0.105s nodes=1000 nps=9523 clock=9.9s}`.
pub fn move_comment(m: &MoveRecord) -> String {
    let mut parts = Vec::new();
    let score = match (m.info.score_mate, m.info.score_cp) {
        (Some(mate), _) => Some(format!(
            "{}M{}",
            if mate > 0 { "+" } else { "-" },
            mate.abs()
        )),
        (None, Some(cp)) => Some(format!("{:+.2}", cp as f64 / 100.0)),
        _ => None,
    };
    if score.is_some() || m.info.depth.is_some() {
        parts.push(format!(
            "{}/{}",
            score.unwrap_or_else(|| "?".into()),
            m.info
                .depth
                .map(|d| d.to_string())
                .unwrap_or_else(|| "?".into())
        ));
    }
    parts.push(format!("{:.3}s", m.elapsed_ms / 1000.0));
    if let Some(n) = m.info.nodes {
        parts.push(format!("nodes={n}"));
    }
    if let Some(n) = m.info.nps {
        parts.push(format!("nps={n}"));
    }
    if let Some(c) = m.clock_ms {
        parts.push(format!("clock={:.1}s", c / 1000.0));
    }
    if !m.flags.is_empty() {
        let mut f = m.flags.clone();
        f.sort();
        parts.push(f.join(" "));
    }
    format!("{{{}}}", parts.join(" "))
}

/// One game as PGN text (ending with a blank line).
pub fn game_to_pgn(
    rec: &GameRecord,
    event: &str,
    tc_tag: &str,
    variant: Variant,
    date: &str,
) -> String {
    let result = rec.result.map(|r| r.pgn()).unwrap_or("*");
    let mut tags: Vec<(&str, String)> = vec![
        ("Event", event.to_string()),
        ("Site", "local".to_string()),
        ("Date", date.to_string()),
        ("Round", rec.number.to_string()),
        ("White", rec.names[0].clone()),
        ("Black", rec.names[1].clone()),
        ("Result", result.to_string()),
        ("Variant", variant.name().to_string()),
        ("FEN", rec.start_fen.clone()),
        ("SetUp", "1".to_string()),
        ("TimeControl", tc_tag.to_string()),
        ("PlyCount", rec.plies().to_string()),
        ("Termination", rec.termination.name().to_string()),
        ("Reason", rec.reason.clone()),
        ("Opening", format!("#{}", rec.opening_index)),
    ];
    if !rec.detail.is_empty() {
        tags.push(("ForfeitDetail", rec.detail.clone()));
    }
    let mut out: String = tags
        .iter()
        .map(|(k, v)| format!("[{k} \"{}\"]\n", escape(v)))
        .collect();
    out.push('\n');
    let fields: Vec<&str> = rec.start_fen.split_whitespace().collect();
    let black_first = fields.get(1) == Some(&"b");
    let mut fullmove: u32 = fields.get(5).and_then(|f| f.parse().ok()).unwrap_or(1);
    let mut tokens = Vec::new();
    for (i, m) in rec.moves.iter().filter(|m| m.mv.is_some()).enumerate() {
        let red_move = (i % 2 == 0) != black_first;
        if red_move {
            tokens.push(format!("{fullmove}."));
        } else if i == 0 {
            tokens.push(format!("{fullmove}..."));
        }
        tokens.push(m.mv.clone().unwrap_or_default());
        tokens.push(move_comment(m));
        if !red_move {
            fullmove += 1;
        }
    }
    if !rec.reason.is_empty() {
        tokens.push(format!("{{{}}}", rec.reason));
    }
    tokens.push(result.to_string());
    let mut line = String::new();
    for t in tokens {
        if !line.is_empty() && line.len() + 1 + t.len() > 100 {
            out.push_str(&line);
            out.push('\n');
            line.clear();
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(&t);
    }
    if !line.is_empty() {
        out.push_str(&line);
        out.push('\n');
    }
    out.push('\n');
    out
}

/// Today's date as PGN writes it (`2026.05.01`, UTC), from seconds since the epoch.
pub fn pgn_date(unix_seconds: u64) -> String {
    // Days since 1970-01-01 to a civil date (Howard Hinnant's algorithm).
    let z = (unix_seconds / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}.{month:02}.{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::matches::game::Seat;
    use crate::matches::protocol::Info;
    use crate::matches::referee::{GameResult, Side};

    #[test]
    fn dates() {
        assert_eq!(pgn_date(0), "1970.01.01");
        assert_eq!(pgn_date(951_782_400), "2000.02.29");
        assert_eq!(pgn_date(1_767_225_600), "2026.01.01");
    }

    #[test]
    fn a_game_with_black_to_move_first() {
        let fen = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C2C4/9/RNBAKABNR b - - 1 1";
        let mut rec = GameRecord::new(3, 1, fen, Seat::B);
        rec.names = ["B".into(), "A".into()];
        let info = Info {
            depth: Some(9),
            score_cp: Some(-35),
            nodes: Some(1000),
            ..Info::default()
        };
        for (mv, side) in [("h9g7", Side::Black), ("h0g2", Side::Red)] {
            rec.moves.push(MoveRecord {
                mv: Some(mv.into()),
                side,
                elapsed_ms: 12.0,
                info: info.clone(),
                clock_ms: None,
                flags: vec![],
            });
        }
        rec.result = Some(GameResult::Draw);
        rec.reason = "max plies (2) reached".into();
        rec.termination = crate::matches::game::Termination::Adjudication;
        let pgn = game_to_pgn(&rec, "test", "-", Variant::Xiangqi, "2026.01.01");
        assert!(pgn.contains("[White \"B\"]\n[Black \"A\"]\n[Result \"1/2-1/2\"]"));
        assert!(pgn.contains("[PlyCount \"2\"]\n[Termination \"adjudication\"]"));
        assert!(pgn.lines().all(|l| l.len() <= 100), "{pgn}");
        let body = pgn.split("\n\n").nth(1).unwrap().replace('\n', " ");
        assert_eq!(
            body.trim(),
            "1... h9g7 {-0.35/9 0.012s nodes=1000} 2. h0g2 {-0.35/9 0.012s nodes=1000} \
             {max plies (2) reached} 1/2-1/2"
        );
    }
}
