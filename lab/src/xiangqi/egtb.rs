//! `jiang-lab egtb build`: solves endgame tables with the engine's retrograde solver
//! (`jiang::xiangqi::egtb::solve`) and writes them, one file per ending, with the notes
//! their header carries (the pieces, the counts, and which of the repetition rules and
//! the 60-move rule could touch the values). Prints one line per ending: its positions,
//! results, longest mate, raw and compressed size and the time it took.

use jiang::xiangqi::egtb::ending::Ending;
use jiang::xiangqi::egtb::format::{self, Header, FLAG_RULE_DRAWS};
use jiang::xiangqi::egtb::solve::{solve_with_successors, Solved};
use jiang::xiangqi::egtb::{file_name, index, read_table};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// Usage of `jiang-lab egtb`.
pub const USAGE: &str =
    "jiang-lab egtb build ENDING|GROUP... --out DIR [--force] | probe-bench DIR\n    \
    | sample ENDING... --tables DIR [--won N] [--drawn N] [--unproved N] [--min-dtm D] [--seed S]\n    \
    | search-check ENDING|GROUP... --tables DIR [--positions N] [--seed S] [--threads T]\n    \
    | verify ENDING|GROUP... --tables DIR [--threads T]\n    \
endgame tables: solve each ending (KRK, KHKAA, KCAEKEE, KRKHA, ...; GROUP: one-attacker-N,\n    \
the endings of one attacker with at most N pieces in all, kings included; one-attacker-small\n    \
= one-attacker-5; one-attacker = all 324; two-attackers-N, an attacker on each side) and the\n    \
endings its captures lead to, and write\n    \
DIR/ENDING.jtb; tables already in DIR that check out are used, not rebuilt (--force:\n    \
rebuild them). Prints a line per ending: positions, results, longest mate, sizes, time.\n    \
probe-bench: loads DIR as the engine does and times probes of each table's positions.\n    \
verify: every position of each table checked against its successors' values through the\n    \
engine's own moves (jiang::xiangqi::egtb::verify); a line per ending, a failure on the first\n    \
inconsistency.\n    \
sample: random positions of the endings as EPD lines (FEN; c0 the table's verdict), N won\n    \
with the attacker to move (mate in D to 119 plies, default D 11) and N drawn with the\n    \
defender to move (defaults 50 each, spread over the endings), and N draws a side is not\n    \
proved to hold under the repetition rules (default 0, that side to move): test positions\n    \
for `jiang-lab match --colours a-to-move`.\n    \
search-check: N random positions of each ending (default 1,000) searched without tables\n    \
(depth 2d+4 where the table says mate in d <= 7 plies, else 6): every mate the search\n    \
proves must be a table win no shorter than the table's, every mate it suffers a table\n    \
loss, and every table mate within 7 plies found (those found by a longer mate counted);\n    \
a line per ending, the disagreements listed, a failure if there is any";

/// The endings a name stands for: one ending, or a group.
pub fn endings_of(name: &str) -> Result<Vec<Ending>, String> {
    if let Some(e) = Ending::parse(name) {
        return Ok(vec![e]);
    }
    let lower = name.to_ascii_lowercase();
    let unknown = || {
        format!(
            "'{name}' is neither an ending (KRKAA) nor a group (one-attacker-N, two-attackers-N)"
        )
    };
    let (family, max) = match lower.as_str() {
        "one-attacker" => (Ending::all(), u32::MAX),
        "one-attacker-small" => (Ending::all(), 5),
        "two-attackers" => (Ending::all_two(), u32::MAX),
        other => {
            let (family, n) = if let Some(n) = other.strip_prefix("one-attacker-") {
                (Ending::all(), n)
            } else if let Some(n) = other.strip_prefix("two-attackers-") {
                (Ending::all_two(), n)
            } else {
                return Err(unknown());
            };
            (family, n.parse::<u32>().map_err(|_| unknown())?)
        }
    };
    Ok(family
        .into_iter()
        .filter(|e| e.piece_count() <= max)
        .collect())
}

/// The endings named by `names` (endings and groups), each once, in order; an error when
/// there is none (`command` names the subcommand in it).
fn endings_listed<S: AsRef<str>>(names: &[S], command: &str) -> Result<Vec<Ending>, String> {
    let mut endings = Vec::new();
    for name in names {
        for e in endings_of(name.as_ref())? {
            if !endings.contains(&e) {
                endings.push(e);
            }
        }
    }
    if endings.is_empty() {
        return Err(format!("egtb {command}: which endings?\n{USAGE}"));
    }
    Ok(endings)
}

/// What the repetition rules and the 60-move rule do to this table, for the header.
pub fn rules_note(s: &Solved) -> (u16, String) {
    let mut note = String::from(
        "repetition: wins and losses are exact under the Asian rules (a mate by the \
         shortest way never repeats a position). A draw (0) is held by both sides without \
         a perpetual check or chase: each can keep the draw while playing, again and \
         again, a move that neither checks nor newly attacks a piece in the chase sense.",
    );
    let mut flags = 0;
    let [strong, weak] = s.unproved_holds;
    if strong + weak > 0 {
        flags |= FLAG_RULE_DRAWS;
        note.push_str(&format!(
            " Draws a side is not proved to hold so (bytes 251-253, flag 1: its holds may \
             all check or chase perpetually, which loses): {strong} positions for the strong \
             side, {weak} for the weak side. The engine searches those instead of trusting \
             the table."
        ));
    } else {
        note.push_str(" Every draw of this table is held so by both sides.");
    }
    note.push_str(
        "\n60-move rule: not applied by the solver; wins whose mate lies beyond 120 plies \
         are counted below, and the engine searches instead of trusting a table mate that \
         the rule's count would cut off.",
    );
    (flags, note)
}

/// The header of a solved ending.
pub fn header_of(s: &Solved) -> Header {
    let e = s.ending;
    let (flags, rules) = rules_note(s);
    let name = e.to_string();
    let mut sides = name[1..].split('K');
    let strong = sides.next().unwrap_or("").to_string();
    let weak = sides.next().unwrap_or("").to_string();
    let notes = format!(
        "jiang endgame table {e}\n\
         pieces: strong side (Red as stored) K{strong}; weak side (Black as stored) K{weak}\n\
         index: scheme {scheme} (side to move, strong king on files d-e by the mirror, weak \
         king, attacker, defender combinations), {entries} entries\n\
         values: distance to mate in plies for the side to move (odd: it mates, even: it is \
         mated), 0 draw, 251-253 draw that a side is not proved to hold under the \
         repetition rules (251: the side to move, 252: the other, 253: neither), 255 no \
         position\n\
         strong side to move: {sw} wins, {sd} draws, {sl} losses\n\
         weak side to move: {ww} wins, {wd} draws, {wl} losses\n\
         longest mate: {max} plies; wins beyond 120 plies: {beyond}\n\
         {rules}\n",
        scheme = format::INDEX_SCHEME,
        entries = index::entries(e),
        sw = s.strong_to_move[0],
        sd = s.strong_to_move[1],
        sl = s.strong_to_move[2],
        ww = s.weak_to_move[0],
        wd = s.weak_to_move[1],
        wl = s.weak_to_move[2],
        max = s.max_dtm,
        beyond = s.beyond_rule60,
    );
    Header {
        ending: e,
        flags,
        max_dtm: s.max_dtm,
        notes,
    }
}

/// Solves `targets` (and what they capture into) and writes every table solved to
/// `out`; tables already in `out` are used unless `force`. Returns the report lines.
pub fn build(targets: &[Ending], out: &Path, force: bool) -> Result<Vec<String>, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut tables: HashMap<Ending, Vec<u8>> = HashMap::new();
    if !force {
        // What a capture may need, if already built.
        let mut needed: Vec<Ending> = targets.to_vec();
        let mut i = 0;
        while i < needed.len() {
            for s in needed[i].successors() {
                if !needed.contains(&s) {
                    needed.push(s);
                }
            }
            i += 1;
        }
        for e in needed {
            let path = out.join(file_name(e));
            if path.exists() {
                match read_table(&path) {
                    Ok(t) if t.ending() == e => {
                        tables.insert(e, t.values());
                    }
                    Ok(_) => log::warn!("{}: another ending inside; rebuilding", path.display()),
                    Err(err) => log::warn!("{}: {err}; rebuilding", path.display()),
                }
            }
        }
    }
    let mut lines = Vec::new();
    let mut failure = None;
    solve_with_successors(targets, &mut tables, |s, took| {
        if failure.is_some() {
            return;
        }
        let bytes = format::encode(&header_of(s), &s.values);
        let path: PathBuf = out.join(file_name(s.ending));
        if let Err(e) = std::fs::write(&path, &bytes) {
            failure = Some(format!("{}: {e}", path.display()));
            return;
        }
        let positions: u64 = s.strong_to_move.iter().chain(&s.weak_to_move).sum();
        let line = format!(
            "{:<10} positions {:>10}  strong to move W/D/L {}/{}/{}  weak to move W/D/L {}/{}/{}  \
             longest mate {:>3} plies  beyond 120: {}  draws unproved for strong/weak {}/{}  \
             raw {} B  file {} B  {:.2} s",
            s.ending.to_string(),
            positions,
            s.strong_to_move[0],
            s.strong_to_move[1],
            s.strong_to_move[2],
            s.weak_to_move[0],
            s.weak_to_move[1],
            s.weak_to_move[2],
            s.max_dtm,
            s.beyond_rule60,
            s.unproved_holds[0],
            s.unproved_holds[1],
            s.values.len(),
            bytes.len(),
            took.as_secs_f64()
        );
        log::info!("{line}");
        lines.push(line);
    })
    .map_err(|e| e.to_string())?;
    match failure {
        Some(e) => Err(e),
        None => Ok(lines),
    }
}

/// `jiang-lab egtb ARGS`.
pub fn run(args: &[String]) -> Result<(), String> {
    match args.first().map(String::as_str) {
        Some("build") => {}
        Some("probe-bench") => {
            let dir = args
                .get(1)
                .ok_or_else(|| format!("egtb probe-bench DIR\n{USAGE}"))?;
            for line in probe_bench(Path::new(dir))? {
                println!("{line}");
            }
            return Ok(());
        }
        Some("search-check") => {
            for line in search_check(&args[1..])? {
                println!("{line}");
            }
            return Ok(());
        }
        Some("verify") => {
            for line in verify(&args[1..])? {
                println!("{line}");
            }
            return Ok(());
        }
        Some("sample") => {
            for line in sample(&args[1..])? {
                println!("{line}");
            }
            return Ok(());
        }
        Some("--help") => {
            println!("{USAGE}");
            return Ok(());
        }
        _ => {
            return Err(format!(
                "egtb: build, probe-bench, sample, search-check or verify?\n{USAGE}"
            ))
        }
    }
    let mut targets = Vec::new();
    let mut out = None;
    let mut force = false;
    let mut it = args[1..].iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(it.next().ok_or("--out needs a directory")?)),
            "--force" => force = true,
            "--help" => {
                println!("{USAGE}");
                return Ok(());
            }
            name => {
                for e in endings_of(name)? {
                    if !targets.contains(&e) {
                        targets.push(e);
                    }
                }
            }
        }
    }
    let out = out.ok_or_else(|| format!("egtb build: --out DIR is needed\n{USAGE}"))?;
    if targets.is_empty() {
        return Err(format!("egtb build: which endings?\n{USAGE}"));
    }
    for line in build(&targets, &out, force)? {
        println!("{line}");
    }
    Ok(())
}

/// Loads `dir` into the engine's table set and times `egtb::probe` on up to 20,000
/// positions of each table (every n-th index value that is a position): one line per
/// table with the nanoseconds a probe took on average, then the load itself.
pub fn probe_bench(dir: &Path) -> Result<Vec<String>, String> {
    use jiang::xiangqi::egtb::{load_paths, probe};
    use jiang::xiangqi::Position;
    let t0 = std::time::Instant::now();
    let report = load_paths(&dir.display().to_string());
    let load = t0.elapsed();
    for (path, why) in &report.refused {
        log::warn!("{path} refused: {why}");
    }
    let mut lines = Vec::new();
    let mut all_ns = 0.0;
    let mut all_n = 0usize;
    for name in &report.loaded {
        let Some(e) = Ending::parse(name) else {
            continue;
        };
        let n = index::entries(e);
        let step = (n / 20_000).max(1);
        let positions: Vec<Position> = (0..n)
            .step_by(step)
            .filter_map(|i| index::placement(e, i))
            .filter_map(|p| Position::from_pieces(p.pieces(), p.side).ok())
            .collect();
        let t = std::time::Instant::now();
        let mut found = 0usize;
        for _ in 0..5 {
            for p in &positions {
                found += usize::from(probe(p).is_some());
            }
        }
        let ns = t.elapsed().as_nanos() as f64 / (5 * positions.len().max(1)) as f64;
        if found != 5 * positions.len() {
            return Err(format!(
                "{e}: {} of {} probes found nothing",
                5 * positions.len() - found,
                5 * positions.len()
            ));
        }
        all_ns += ns * positions.len() as f64;
        all_n += positions.len();
        lines.push(format!(
            "{e:<10} {:>6} positions  {ns:>7.0} ns a probe",
            positions.len()
        ));
    }
    lines.push(format!(
        "{} tables loaded in {:.2} s ({} refused); {:.0} ns a probe on average",
        report.loaded.len(),
        load.as_secs_f64(),
        report.refused.len(),
        all_ns / all_n.max(1) as f64
    ));
    Ok(lines)
}

/// `egtb sample ARGS`: the EPD lines of random won and drawn positions (see [`USAGE`]).
pub fn sample(args: &[String]) -> Result<Vec<String>, String> {
    use jiang::xiangqi::egtb::format::TbValue;
    use jiang::xiangqi::Position;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut endings = Vec::new();
    let mut tables = None;
    let (mut won, mut drawn, mut min_dtm, mut seed) = (50usize, 50usize, 11u16, 1u64);
    let mut unproved = 0usize;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "--tables" => tables = Some(PathBuf::from(value("--tables")?)),
            "--won" => won = parse_number(value("--won")?, "--won")?,
            "--drawn" => drawn = parse_number(value("--drawn")?, "--drawn")?,
            "--unproved" => unproved = parse_number(value("--unproved")?, "--unproved")?,
            "--min-dtm" => min_dtm = parse_number(value("--min-dtm")?, "--min-dtm")?,
            "--seed" => seed = parse_number(value("--seed")?, "--seed")?,
            name => endings.extend(endings_of(name)?),
        }
    }
    let dir = tables.ok_or_else(|| format!("egtb sample: --tables DIR is needed\n{USAGE}"))?;
    if endings.is_empty() {
        return Err(format!("egtb sample: which endings?\n{USAGE}"));
    }
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let mut lines = Vec::new();
    let k = endings.len();
    for (n, &e) in endings.iter().enumerate() {
        let path = dir.join(file_name(e));
        let table = read_table(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        // This ending's share of each kind: the first endings take the remainders.
        let share = |total: usize| total / k + usize::from(n < total % k);
        let (mut want_won, mut want_drawn) = (share(won), share(drawn));
        let mut want_unproved = share(unproved);
        let size = index::entries(e);
        let mut tries = 0usize;
        while (want_won > 0 || want_drawn > 0 || want_unproved > 0)
            && tries < 200 * size.min(1 << 20)
        {
            tries += 1;
            let i = (rng.next_u64() % size as u64) as usize;
            let (Some(p), Some(v)) = (index::placement(e, i), table.value(i)) else {
                continue;
            };
            // A placement has the strong side as Red.
            let attacker_to_move = p.side == jiang::xiangqi::types::Color::Red;
            let keep = match v {
                TbValue::Win(d) => attacker_to_move && d >= min_dtm && d < 120 && want_won > 0,
                TbValue::Draw => !attacker_to_move && want_drawn > 0,
                TbValue::RuleDraw { mover_holds, .. } => !mover_holds && want_unproved > 0,
                TbValue::Loss(_) => false,
            };
            if !keep {
                continue;
            }
            let Ok(pos) = Position::from_pieces(p.pieces(), p.side) else {
                continue;
            };
            match v {
                TbValue::Win(_) => want_won -= 1,
                TbValue::RuleDraw { .. } => want_unproved -= 1,
                _ => want_drawn -= 1,
            }
            lines.push(format!("{} ; c0 \"{e} {v}\"", pos.to_fen()));
        }
        if want_won > 0 || want_drawn > 0 || want_unproved > 0 {
            return Err(format!(
                "{e}: found too few positions ({want_won} won, {want_drawn} drawn and \
                 {want_unproved} unproved draws missing)"
            ));
        }
    }
    Ok(lines)
}

fn parse_number<T: std::str::FromStr>(text: &str, name: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{name}: '{text}' is not a number"))
}

/// What [`search_check`] found on one ending.
#[derive(Default)]
struct SearchCheck {
    positions: usize,
    table_wins: usize,
    short_wins_found: usize,
    /// Table wins within reach the search proved a win but by a longer mate.
    short_wins_longer: Vec<String>,
    search_mates: usize,
    search_mated: usize,
    /// Draws a side is not proved to hold under the repetition rules, and those of them
    /// the search (whose rule judge sees the repetitions) finds that side losing.
    rule_draws: usize,
    rule_losses_found: usize,
    disagreements: Vec<String>,
}

/// Searches `positions` random positions of `e` without tables and compares with `table`.
fn search_check_ending(
    e: Ending,
    table: &jiang::xiangqi::egtb::Table,
    positions: usize,
    seed: u64,
) -> SearchCheck {
    use jiang::request::SearchRequest;
    use jiang::search::{search, Score, SearchControl};
    use jiang::tt::TranspositionTable;
    use jiang::xiangqi::egtb::format::TbValue;
    use jiang::xiangqi::Position;
    use rand_xoshiro::rand_core::{RngCore, SeedableRng};
    let mut rng = rand_xoshiro::Xoshiro256PlusPlus::seed_from_u64(seed);
    let tt = TranspositionTable::new(16);
    let size = index::entries(e) as u64;
    let mut c = SearchCheck::default();
    let mut tries = 0u64;
    while c.positions < positions && tries < 1000 * positions as u64 + size {
        tries += 1;
        let i = (rng.next_u64() % size) as usize;
        let (Some(p), Some(v)) = (index::placement(e, i), table.value(i)) else {
            continue;
        };
        let Ok(pos) = Position::from_pieces(p.pieces(), p.side) else {
            continue;
        };
        if pos.legal_moves().is_empty() {
            continue;
        }
        c.positions += 1;
        c.table_wins += usize::from(matches!(v, TbValue::Win(_)));
        c.rule_draws += usize::from(matches!(v, TbValue::RuleDraw { .. }));
        let short_win = matches!(v, TbValue::Win(d) if d <= 7);
        // Quiet mating moves are reduced and pruned: twice the distance and more.
        let depth = match v {
            TbValue::Win(d) if d <= 7 => 2 * d as i32 + 4,
            _ => 6,
        };
        tt.clear();
        let control = SearchControl::new(None, None, false);
        let limits = SearchRequest {
            depth: Some(depth),
            ..SearchRequest::default()
        };
        let r = search(&pos, &limits, &tt, &control, &|_| {});
        let fen = pos.to_fen();
        let problem = match (Score::from_internal(r.score), v) {
            (Score::Mate(n), TbValue::Win(d)) if n > 0 => {
                c.search_mates += 1;
                let plies = 2 * n - 1;
                if plies < d as i32 {
                    Some(format!(
                        "search mate in {plies} plies, shorter than the table's {d}"
                    ))
                } else {
                    c.short_wins_found += usize::from(short_win);
                    if short_win && plies != d as i32 {
                        // Found, but not the fastest: pruning, not a contradiction.
                        c.short_wins_longer.push(format!(
                            "{e} {fen}: search mate in {plies} plies, the table's {d}"
                        ));
                    }
                    None
                }
            }
            // A repetition the rules make a loss for a side whose hold is not proved.
            (
                Score::Mate(n),
                TbValue::RuleDraw {
                    other_holds: false, ..
                },
            ) if n > 0 => {
                c.search_mates += 1;
                c.rule_losses_found += 1;
                None
            }
            (
                Score::Mate(n),
                TbValue::RuleDraw {
                    mover_holds: false, ..
                },
            ) if n <= 0 => {
                c.search_mated += 1;
                c.rule_losses_found += 1;
                None
            }
            (Score::Mate(n), v) if n > 0 => {
                c.search_mates += 1;
                Some(format!("search mate in {} plies, table {v}", 2 * n - 1))
            }
            (Score::Mate(_), v) => {
                c.search_mated += 1;
                (!matches!(v, TbValue::Loss(_))).then(|| format!("search mated, table {v}"))
            }
            (s, v) => {
                short_win.then(|| format!("table {v} not found: search {s:?} at depth {depth}"))
            }
        };
        if let Some(why) = problem {
            c.disagreements.push(format!("{e} {fen}: {why}"));
        }
    }
    c
}

/// `egtb search-check ARGS` (see [`USAGE`]): the check (b), the search without
/// tables against the tables.
pub fn search_check(args: &[String]) -> Result<Vec<String>, String> {
    use crate::flags::{Flags, Spec};
    const SPEC: Spec = Spec::new(USAGE)
        .options(&["tables", "positions", "seed", "threads"])
        .args(usize::MAX);
    let f = Flags::parse(args, &SPEC)?;
    let dir = PathBuf::from(
        f.optional::<String>("tables")?
            .ok_or_else(|| format!("egtb search-check: --tables DIR is needed\n{USAGE}"))?,
    );
    let positions: usize = f.get("positions", 1000)?;
    let seed: u64 = f.get("seed", 1)?;
    let threads = f.get::<usize>("threads", 1)?.max(1);
    let endings = endings_listed(f.args(), "search-check")?;
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    let failure = std::sync::Mutex::new(None::<String>);
    let started = std::time::Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&e) = endings.get(n) else { break };
                let path = dir.join(file_name(e));
                let table = match read_table(&path) {
                    Ok(t) => t,
                    Err(err) => {
                        if let Ok(mut f) = failure.lock() {
                            *f = Some(format!("{}: {err}", path.display()));
                        }
                        break;
                    }
                };
                let t = std::time::Instant::now();
                let c = search_check_ending(e, &table, positions, seed ^ (n as u64) << 32);
                log::info!(
                    "{e}: {} positions, {} disagreements, {:.1} s",
                    c.positions,
                    c.disagreements.len(),
                    t.elapsed().as_secs_f64()
                );
                if let Ok(mut r) = results.lock() {
                    r.push((n, e, c, t.elapsed()));
                }
            });
        }
    });
    if let Some(e) = failure.into_inner().unwrap_or(None) {
        return Err(e);
    }
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| r.0);
    let mut lines = Vec::new();
    let mut total = SearchCheck::default();
    for (_, e, c, took) in &results {
        lines.push(format!(
            "{:<10} positions {:>5}  table wins {:>5}  short wins found {:>4} ({} by a longer mate)  \
             search mates {:>5}  search mated {:>5}  rule draws {} (lost by the rules in the \
             search {})  disagreements {}  {:.1} s",
            e.to_string(),
            c.positions,
            c.table_wins,
            c.short_wins_found,
            c.short_wins_longer.len(),
            c.search_mates,
            c.search_mated,
            c.rule_draws,
            c.rule_losses_found,
            c.disagreements.len(),
            took.as_secs_f64()
        ));
        total.positions += c.positions;
        total.table_wins += c.table_wins;
        total.short_wins_found += c.short_wins_found;
        total
            .short_wins_longer
            .extend(c.short_wins_longer.iter().cloned());
        total.search_mates += c.search_mates;
        total.search_mated += c.search_mated;
        total.rule_draws += c.rule_draws;
        total.rule_losses_found += c.rule_losses_found;
        total.disagreements.extend(c.disagreements.iter().cloned());
    }
    let short_of = results.iter().filter(|r| r.2.positions < positions).count();
    lines.push(format!(
        "{} endings, {} positions ({} endings with fewer than {positions}: too few legal \
         positions), table wins {}, table wins within 7 plies found {} ({} by a longer mate than \
         the table's), search mates {}, search mated {}, rule draws {} (lost by the rules in \
         the search {}), disagreements {}, {:.0} s",
        results.len(),
        total.positions,
        short_of,
        total.table_wins,
        total.short_wins_found,
        total.short_wins_longer.len(),
        total.search_mates,
        total.search_mated,
        total.rule_draws,
        total.rule_losses_found,
        total.disagreements.len(),
        started.elapsed().as_secs_f64()
    ));
    for l in total.short_wins_longer.iter().take(10) {
        lines.push(format!("longer mate: {l}"));
    }
    if !total.disagreements.is_empty() {
        for d in total.disagreements.iter().take(50) {
            lines.push(format!("disagreement: {d}"));
        }
        for l in &lines {
            println!("{l}");
        }
        return Err(format!("{} disagreements", total.disagreements.len()));
    }
    Ok(lines)
}

/// `egtb verify ARGS` (see [`USAGE`]): issue 56's check (a) on a directory of tables.
pub fn verify(args: &[String]) -> Result<Vec<String>, String> {
    use crate::flags::{Flags, Spec};
    use jiang::xiangqi::egtb::verify::check_table;
    const SPEC: Spec = Spec::new(USAGE)
        .options(&["tables", "threads"])
        .args(usize::MAX);
    let f = Flags::parse(args, &SPEC)?;
    let dir = PathBuf::from(
        f.optional::<String>("tables")?
            .ok_or_else(|| format!("egtb verify: --tables DIR is needed\n{USAGE}"))?,
    );
    let threads = f.get::<usize>("threads", 1)?.max(1);
    let endings = endings_listed(f.args(), "verify")?;
    // The tables and every table their captures lead to.
    let mut tables = HashMap::new();
    let mut needed = endings.clone();
    while let Some(e) = needed.pop() {
        if tables.contains_key(&e) {
            continue;
        }
        let path = dir.join(file_name(e));
        let table = read_table(&path).map_err(|err| format!("{}: {err}", path.display()))?;
        tables.insert(e, table);
        needed.extend(e.successors());
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let results = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let n = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(&e) = endings.get(n) else { break };
                let t = std::time::Instant::now();
                let r = check_table(&tables, e);
                if let Ok(mut all) = results.lock() {
                    all.push((n, e, r, t.elapsed()));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_default();
    results.sort_by_key(|r| r.0);
    let mut lines = Vec::new();
    let mut failures = Vec::new();
    let mut positions = 0;
    for (_, e, r, took) in results {
        match r {
            Ok([w, d, l]) => {
                positions += w + d + l;
                lines.push(format!(
                    "{:<10} consistent: {w} won, {d} drawn, {l} lost  {:.1} s",
                    e.to_string(),
                    took.as_secs_f64()
                ));
            }
            Err(why) => failures.push(why),
        }
    }
    lines.push(format!(
        "{} tables, {positions} positions checked, {} inconsistent",
        endings.len(),
        failures.len()
    ));
    if failures.is_empty() {
        Ok(lines)
    } else {
        for l in lines.iter().chain(&failures) {
            println!("{l}");
        }
        Err(format!("{} tables inconsistent", failures.len()))
    }
}
