//! The match's report: the JSON summary (`--json`: the settings, W/D/L, Elo, SPRT, the
//! figures of each engine and every game with every move) and the summary printed at the
//! end. The JSON keeps the names of the independent runner `xqmatch`'s (`result_A`,
//! `per_engine`, `game_list`, ...), so that scripts read either.

use super::engine::EngineSpec;
use super::engine::{Ranks, TimeUnitChoice};
use super::game::{Forfeit, GameRecord, MoveRecord, Seat};
use super::runner::{counted, EngineTally, Match, MatchState};
use super::schedule::Colours;
use super::stats::{format_elo, median, pentanomial, SPRT_MODEL};
use serde_json::{json, Map, Value};
use std::path::Path;

/// A float for the JSON: rounded to 4 decimals, infinities as `"inf"`/`"-inf"`, NaN as
/// null.
pub fn num(x: f64) -> Value {
    if x.is_nan() {
        Value::Null
    } else if x == f64::INFINITY {
        json!("inf")
    } else if x == f64::NEG_INFINITY {
        json!("-inf")
    } else {
        json!((x * 10_000.0).round() / 10_000.0)
    }
}

fn opt_num(x: Option<f64>) -> Value {
    x.map(num).unwrap_or(Value::Null)
}

fn round1(x: f64) -> Value {
    json!((x * 10.0).round() / 10.0)
}

/// `2026-05-01T12:00:00Z`.
pub fn iso_utc(unix: u64) -> String {
    let date = super::pgn::pgn_date(unix).replace('.', "-");
    let t = unix % 86_400;
    format!("{date}T{:02}:{:02}:{:02}Z", t / 3600, t % 3600 / 60, t % 60)
}

fn spec_json(spec: &EngineSpec) -> Value {
    let options: Map<String, Value> = spec
        .options
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "name": spec.name,
        "cmd": spec.argv().join(" "),
        "dir": spec.dir.as_ref().map(|d| d.display().to_string()),
        "proto": spec.dialect.name(),
        "options": options,
        "ranks": match spec.ranks { Ranks::Auto => json!("auto"), Ranks::Zero => json!(0), Ranks::One => json!(1) },
        "timeunit": match spec.time_unit { TimeUnitChoice::Auto => "auto", TimeUnitChoice::Millis => "ms", TimeUnitChoice::Seconds => "s" },
        "movetime": if spec.native_movetime { "native" } else { "time" },
        "restart": spec.restart,
    })
}

fn mean(v: &[f64]) -> Option<f64> {
    (!v.is_empty()).then(|| v.iter().sum::<f64>() / v.len() as f64)
}

fn tally_json(t: &EngineTally) -> Value {
    let ms = &t.move_ms;
    let max = ms
        .iter()
        .copied()
        .fold(None, |m: Option<f64>, x| Some(m.map_or(x, |m| m.max(x))));
    json!({
        "name": t.name,
        "wins": t.wdl.wins,
        "draws": t.wdl.draws,
        "losses": t.wdl.losses,
        "illegal_moves": t.forfeits_of(Forfeit::Illegal),
        "time_losses": t.forfeits_of(Forfeit::Time),
        "crashes": t.forfeits_of(Forfeit::Crash),
        "bad_replies": t.forfeits_of(Forfeit::Protocol),
        "resignations": t.forfeits_of(Forfeit::Resign),
        "moves": t.moves,
        "time_samples": ms.len(),
        "max_move_ms": max.map(round1),
        "median_move_ms": median(ms).map(round1),
        "mean_move_ms": mean(ms).map(round1),
        "mean_move_ms_plies_1_40": mean(&t.move_ms_by_phase[0]).map(round1),
        "mean_move_ms_after_40": mean(&t.move_ms_by_phase[1]).map(round1),
        "longest_move": t.longest.map(|(ms, game, ply)| json!({"ms": (ms * 10.0).round() / 10.0, "game": game, "ply": ply})),
        "avg_depth": mean(&t.depths).map(|d| (d * 100.0).round() / 100.0),
        "avg_nps": mean(&t.nps).map(|n| n as u64),
        "moves_with_depth": t.depths.len(),
        "moves_with_nps": t.nps.len(),
        "clock_left_at_end_ms": if t.clock_left.is_empty() { Value::Null } else { json!({
            "median": median(&t.clock_left).map(|x| x.round()),
            "mean": mean(&t.clock_left).map(|x| x.round()),
            "min": t.clock_left.iter().copied().fold(f64::INFINITY, f64::min).round(),
        })},
    })
}

/// One move for the JSON.
pub fn move_json(m: &MoveRecord) -> Value {
    let mut d = Map::new();
    d.insert("move".into(), json!(m.mv));
    d.insert("side".into(), json!(m.side.key()));
    d.insert("ms".into(), round1(m.elapsed_ms));
    let i = &m.info;
    for (k, v) in [
        ("depth", i.depth),
        ("seldepth", i.seldepth),
        ("score_cp", i.score_cp),
        ("score_mate", i.score_mate),
    ] {
        if let Some(v) = v {
            d.insert(k.into(), json!(v));
        }
    }
    if let Some(n) = i.nodes {
        d.insert("nodes".into(), json!(n));
    }
    if let Some(n) = i.nodes_per_second() {
        d.insert("nps".into(), json!(n));
    }
    if let Some(c) = m.clock_ms {
        d.insert("clock_ms".into(), json!(c as i64));
    }
    if !m.flags.is_empty() {
        let mut f = m.flags.clone();
        f.sort();
        d.insert("flags".into(), json!(f));
    }
    Value::Object(d)
}

/// One game for the JSON.
pub fn game_json(r: &GameRecord) -> Value {
    json!({
        "game": r.number,
        "opening": r.opening_index,
        "fen": r.start_fen,
        "red": r.names[0],
        "black": r.names[1],
        "result": r.result.map(|x| x.pgn()).unwrap_or("*"),
        "reason": r.reason,
        "kind": r.termination.name(),
        "forfeit": r.forfeit.map(|(side, how)| json!({
            "side": side.key(),
            "engine": r.names[usize::from(side == super::referee::Side::Black)],
            "category": how.name(),
        })),
        "detail": r.detail,
        "plies": r.plies(),
        "final_fen": r.final_fen,
        "duration_s": (r.duration_s * 100.0).round() / 100.0,
        "clock_left_ms": r.clock_left_ms.map(|c| json!({"red": c[0].round(), "black": c[1].round()})),
        "moves": r.moves.iter().map(move_json).collect::<Vec<_>>(),
    })
}

/// The summary of the games in `st`.
pub fn summary(m: &Match, st: &MatchState) -> Value {
    let cfg = &m.config;
    let wdl = st.tally[0].wdl;
    let est = wdl.estimate();
    let mut pairs = Vec::new();
    for (&n, g1) in &st.results {
        // Game pairs exist only when openings are played with colours swapped.
        if n % 2 == 1 && cfg.colours == Colours::Pairs {
            if let Some(g2) = st.results.get(&(n + 1)) {
                if let (Some(a), Some(b)) = (g1.score_of(Seat::A), g2.score_of(Seat::A)) {
                    pairs.push((a, b));
                }
            }
        }
    }
    let sprt = cfg.sprt.map(|s| {
        let state = s.state(&wdl);
        json!({
            "elo0": s.elo0, "elo1": s.elo1, "alpha": s.alpha, "beta": s.beta,
            "llr": num(state.llr), "lower": num(state.lower), "upper": num(state.upper),
            "verdict": state.verdict.map(|h1| if h1 { "H1" } else { "H0" }),
            "model": SPRT_MODEL,
        })
    });
    let mut engines = Map::new();
    for (i, key) in ["A", "B"].into_iter().enumerate() {
        let mut e = spec_json(&cfg.specs[i]);
        if let Value::Object(o) = &mut e {
            o.insert("id_name".into(), json!(st.engine_ids[i]));
            o.insert("notes".into(), json!(st.engine_notes[i]));
        }
        engines.insert(key.into(), e);
    }
    let mut terminations: Vec<(&String, &u32)> = st.terminations.iter().collect();
    terminations.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let term: Map<String, Value> = terminations
        .into_iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    json!({
        "tool": "jiang-lab match",
        "version": env!("CARGO_PKG_VERSION"),
        "started": iso_utc(m.started_unix()),
        "elapsed_s": (m.elapsed_s() * 10.0).round() / 10.0,
        "engines": engines,
        "settings": {
            "variant": cfg.game.variant.name(),
            "games_requested": cfg.games,
            "time_control": cfg.game.tc.describe(),
            "max_move_ms": cfg.game.tc.max_move_ms,
            "margin_ms": cfg.game.tc.margin_ms,
            "draw_plies": cfg.game.draw_plies,
            "no_capture_plies": cfg.game.no_capture_plies,
            "honour_resign": cfg.game.honour_resign,
            "openings": cfg.openings_path,
            "openings_count": cfg.openings.len(),
            "concurrency": cfg.concurrency,
            "referee": "jiang's rules library",
        },
        "games": wdl.games(),
        "aborted_games": st.aborted_games,
        "stop_reason": st.stop_reason,
        "result_A": {"wins": wdl.wins, "draws": wdl.draws, "losses": wdl.losses},
        "score_A": opt_num(est.map(|e| e.score)),
        "elo_A_minus_B": opt_num(est.map(|e| e.elo)),
        "elo_error95": opt_num(est.map(|e| e.error95)),
        "elo_interval95": est.map(|e| vec![num(e.low), num(e.high)]).unwrap_or_else(|| vec![Value::Null, Value::Null]),
        "los": opt_num(est.and_then(|e| e.los)),
        "draw_ratio": opt_num(est.map(|e| e.draw_ratio)),
        "pentanomial_A": {"counts_LL_to_WW": pentanomial(&pairs), "pairs": pairs.len()},
        "sprt": sprt,
        "per_engine": {"A": tally_json(&st.tally[0]), "B": tally_json(&st.tally[1])},
        "terminations": term,
        "game_list": counted(st).map(game_json).collect::<Vec<_>>(),
    })
}

/// Writes the JSON through a temporary file and a rename: the file is always whole.
pub fn write_json(path: &Path, summary: &Value) -> std::io::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let text = serde_json::to_string_pretty(summary).unwrap_or_default();
    std::fs::write(&tmp, text + "\n")?;
    std::fs::rename(&tmp, path)
}

fn text(v: &Value) -> String {
    match v {
        Value::Null => "-".into(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

fn f(v: &Value, decimals: usize) -> String {
    match v.as_f64() {
        Some(x) => format!("{x:.decimals$}"),
        None => text(v),
    }
}

/// The summary as text (what `jiang-lab match` prints at the end).
pub fn summary_text(s: &Value) -> String {
    let mut out = String::new();
    let e = |k: &str| &s["engines"][k];
    let (pa, pb) = (&s["per_engine"]["A"], &s["per_engine"]["B"]);
    out.push_str("\n=== jiang-lab match summary ===\n");
    for k in ["A", "B"] {
        out.push_str(&format!(
            "{k}: {}  ({}, {})\n",
            text(&e(k)["name"]),
            text(&e(k)["proto"]),
            text(&e(k)["id_name"])
        ));
    }
    let st = &s["settings"];
    if st["variant"] != "xiangqi" {
        out.push_str(&format!("Variant: {}\n", text(&st["variant"])));
    }
    out.push_str(&format!(
        "Time control: {}; max-move-ms {} (+{} ms margin); referee: jiang's rules library\n",
        text(&st["time_control"]),
        text(&st["max_move_ms"]),
        text(&st["margin_ms"])
    ));
    let aborted = s["aborted_games"].as_u64().unwrap_or(0);
    out.push_str(&format!(
        "Games: {} finished ({} requested{}){}\n",
        text(&s["games"]),
        text(&st["games_requested"]),
        if aborted > 0 {
            format!(", {aborted} aborted")
        } else {
            String::new()
        },
        match s["stop_reason"].as_str() {
            Some(r) => format!("; stopped: {r}"),
            None => String::new(),
        }
    ));
    let r = &s["result_A"];
    if s["games"].as_u64().unwrap_or(0) > 0 {
        let pct = |v: &Value| {
            v.as_f64()
                .map(|x| format!("{:.1}%", 100.0 * x))
                .unwrap_or("-".into())
        };
        out.push_str(&format!(
            "Result for A ({}): W {} / D {} / L {}   score {}   draw ratio {}\n",
            text(&e("A")["name"]),
            r["wins"],
            r["draws"],
            r["losses"],
            pct(&s["score_A"]),
            pct(&s["draw_ratio"])
        ));
        let as_f = |v: &Value| match v {
            Value::String(x) if x == "inf" => f64::INFINITY,
            Value::String(x) if x == "-inf" => f64::NEG_INFINITY,
            _ => v.as_f64().unwrap_or(f64::NAN),
        };
        out.push_str(&format!(
            "Elo A - B: {} (95%)",
            format_elo(as_f(&s["elo_A_minus_B"]), as_f(&s["elo_error95"]))
        ));
        if let Some(los) = s["los"].as_f64() {
            out.push_str(&format!("   LOS {:.1}%", 100.0 * los));
        }
        out.push('\n');
        let pn = &s["pentanomial_A"];
        if pn["pairs"].as_u64().unwrap_or(0) > 0 {
            out.push_str(&format!(
                "Pentanomial for A over {} complete pairs [0, 0.5, 1, 1.5, 2]: {}\n",
                pn["pairs"], pn["counts_LL_to_WW"]
            ));
        }
    }
    if let Some(sp) = s["sprt"].as_object() {
        let verdict = match sp["verdict"].as_str() {
            Some("H1") => "H1 accepted (elo >= elo1)",
            Some("H0") => "H0 accepted (elo <= elo0)",
            _ => "inconclusive",
        };
        out.push_str(&format!(
            "SPRT elo0={} elo1={} alpha={} beta={}: LLR {}, bounds [{}, {}] -> {verdict}\n   ({})\n",
            sp["elo0"],
            sp["elo1"],
            sp["alpha"],
            sp["beta"],
            f(&sp["llr"], 3),
            f(&sp["lower"], 3),
            f(&sp["upper"], 3),
            text(&sp["model"])
        ));
    }
    if let Some(t) = s["terminations"].as_object() {
        if !t.is_empty() {
            let parts: Vec<String> = t.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            out.push_str(&format!("Terminations: {}\n", parts.join(", ")));
        }
    }
    let longest = |p: &Value| match p["longest_move"].as_object() {
        Some(l) => format!("{} (g{} p{})", f(&l["ms"], 0), l["game"], l["ply"]),
        None => "-".into(),
    };
    let clock = |p: &Value| f(&p["clock_left_at_end_ms"]["median"], 0);
    type Row<'a> = (&'a str, Box<dyn Fn(&Value) -> String>);
    let rows: Vec<Row> = vec![
        (
            "wins / draws / losses",
            Box::new(|p: &Value| format!("{} / {} / {}", p["wins"], p["draws"], p["losses"])),
        ),
        (
            "illegal moves",
            Box::new(|p: &Value| text(&p["illegal_moves"])),
        ),
        ("time losses", Box::new(|p: &Value| text(&p["time_losses"]))),
        ("crashes", Box::new(|p: &Value| text(&p["crashes"]))),
        ("bad replies", Box::new(|p: &Value| text(&p["bad_replies"]))),
        (
            "resignations",
            Box::new(|p: &Value| text(&p["resignations"])),
        ),
        ("moves played", Box::new(|p: &Value| text(&p["moves"]))),
        (
            "max time/move (ms)",
            Box::new(|p: &Value| f(&p["max_move_ms"], 0)),
        ),
        ("longest move (game, ply)", Box::new(longest)),
        (
            "median time/move (ms)",
            Box::new(|p: &Value| f(&p["median_move_ms"], 0)),
        ),
        (
            "mean time/move (ms)",
            Box::new(|p: &Value| f(&p["mean_move_ms"], 0)),
        ),
        (
            "mean ms, plies 1-40",
            Box::new(|p: &Value| f(&p["mean_move_ms_plies_1_40"], 0)),
        ),
        (
            "mean ms, plies 41-",
            Box::new(|p: &Value| f(&p["mean_move_ms_after_40"], 0)),
        ),
        ("clock left at end (median ms)", Box::new(clock)),
        ("avg depth", Box::new(|p: &Value| f(&p["avg_depth"], 2))),
        ("avg nps", Box::new(|p: &Value| text(&p["avg_nps"]))),
    ];
    let width = text(&pa["name"]).len().max(text(&pb["name"]).len()).max(16);
    out.push_str(&format!(
        "{:<30} {:>width$} {:>width$}\n",
        "per engine",
        text(&pa["name"]),
        text(&pb["name"])
    ));
    for (label, row) in rows {
        out.push_str(&format!(
            "{label:<30} {:>width$} {:>width$}\n",
            row(pa),
            row(pb)
        ));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_numbers_and_times() {
        assert_eq!(num(1.234_567), json!(1.2346));
        assert_eq!(num(f64::INFINITY), json!("inf"));
        assert_eq!(num(f64::NAN), Value::Null);
        assert_eq!(iso_utc(1_767_225_600 + 3661), "2026-01-01T01:01:01Z");
    }
}
