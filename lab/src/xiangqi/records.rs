//! Game records on the command line: `convert` between the formats of
//! [`jiang::record`], and `records` (`dump` a file's games as JSON for other tools to
//! compare, `roundtrip` games through every written format, `same` the games of files
//! holding one collection in different notations, `check` whole collections: every game
//! read, every move legal, and with `--roundtrip` each game through every written format).

use crate::flags::{Flags, Spec};
use jiang::record::{self, Format, Game, Loaded, RecordError};
use std::path::Path;

/// The usage lines of `convert` and `records`.
pub const USAGE: &str = "\
jiang-lab convert IN OUT [--from FMT] [--to FMT]
    a game record from one format to another (formats from the file names or the flags:
    pgn (ICCS moves), pgn-wxf, pgn-chinese, dhtmlxq, fen are written; xqf, cbr, cbl, cbf
    are read too); every game of IN is converted
jiang-lab records dump FILE [--from FMT]
    the games of a record file as JSON lines: start, tags, every line of moves, comments
jiang-lab records roundtrip FILE... [--from FMT]
    every game written in each written format and read back; counts what came back the same
jiang-lab records same FILE... [--from FMT]
    files holding the same games in different notations: counts the games whose moves agree
jiang-lab records check PATH... [--from FMT] [--roundtrip] [--show N]
    every record file of the paths (folders searched through): counts the games read, those
    with an illegal move or damage (the first N named, 20 unless told), the moves; with
    --roundtrip each game written in each written format and read back the same";

/// Splits `IN OUT --flag value` into the leading plain arguments and the flags.
fn split_args(args: &[String]) -> (Vec<String>, &[String]) {
    let n = args.iter().take_while(|a| !a.starts_with("--")).count();
    (args[..n].to_vec(), &args[n..])
}

fn format_flag(flags: &Flags, name: &str) -> Result<Option<Format>, String> {
    let text = flags.text(name);
    if text.is_empty() {
        return Ok(None);
    }
    Format::from_name(&text)
        .map(Some)
        .ok_or_else(|| format!("--{name} {text}: not a format ({})", Format::NAMES))
}

/// Reads every game of a file: the format from `from`, else the file name, else its
/// first bytes.
pub fn read_file(
    path: &str,
    from: Option<Format>,
) -> Result<Vec<Result<Loaded, RecordError>>, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{path}: {e}"))?;
    let format = from
        .or_else(|| Format::from_path(Path::new(path)))
        .or_else(|| Format::sniff(&bytes))
        .ok_or_else(|| {
            format!(
                "{path}: cannot tell the format; name it with --from ({})",
                Format::NAMES
            )
        })?;
    Ok(record::read_all(&bytes, format))
}

/// The games of a file that could be read, the others and every warning reported on
/// stderr.
pub fn games_of(path: &str, from: Option<Format>) -> Result<Vec<Game>, String> {
    let mut games = Vec::new();
    for (i, result) in read_file(path, from)?.into_iter().enumerate() {
        match result {
            Ok(loaded) => {
                for w in &loaded.warnings {
                    eprintln!("{path}: game {}: {w}", i + 1);
                }
                games.push(loaded.game);
            }
            Err(e) => eprintln!("{path}: game {}: not read: {e}", i + 1),
        }
    }
    Ok(games)
}

/// `convert IN OUT [--from FMT] [--to FMT]`.
pub fn convert(args: &[String]) -> Result<(), String> {
    let (plain, rest) = split_args(args);
    let [input, output] = plain.as_slice() else {
        return Err("convert needs IN and OUT".into());
    };
    let flags = Flags::parse(rest, &Spec::new(USAGE).options(&["from", "to"]))?;
    let from = format_flag(&flags, "from")?;
    let to = match format_flag(&flags, "to")? {
        Some(f) => f,
        None => Format::from_path(Path::new(output)).ok_or_else(|| {
            format!("{output}: cannot tell the format to write; name it with --to")
        })?,
    };
    if !to.writable() {
        return Err(format!(
            "{} is read only: write pgn, pgn-wxf, pgn-chinese, dhtmlxq or fen",
            to.name()
        ));
    }
    let games = games_of(input, from)?;
    if games.is_empty() {
        return Err(format!("{input}: no game could be read"));
    }
    let mut text = String::new();
    for g in &games {
        text.push_str(&record::write(g, to).map_err(|e| e.to_string())?);
    }
    std::fs::write(output, text).map_err(|e| format!("{output}: {e}"))?;
    eprintln!(
        "{input}: {} game(s) written to {output} as {}",
        games.len(),
        to.name()
    );
    Ok(())
}

/// A JSON string literal.
pub fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The comments of a game keyed by the ICCS moves leading to them (`""` for the game's).
pub fn comments(game: &Game) -> Vec<(String, String)> {
    let tree = &game.tree;
    tree.preorder()
        .into_iter()
        .filter(|&id| !tree.node(id).comment.is_empty())
        .map(|id| {
            let path: Vec<String> = tree
                .path_to(id)
                .into_iter()
                .filter_map(|n| tree.node(n).mv.map(|m| m.to_string()))
                .collect();
            (path.join(" "), tree.node(id).comment.clone())
        })
        .collect()
}

fn dump_json(loaded: &Result<Loaded, RecordError>) -> String {
    let list = |items: Vec<String>| format!("[{}]", items.join(","));
    match loaded {
        Err(e) => format!("{{\"ok\":false,\"error\":{}}}", json_string(&e.to_string())),
        Ok(l) => {
            let g = &l.game;
            let tags = g
                .tags
                .iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), json_string(v)))
                .collect::<Vec<_>>()
                .join(",");
            let lines = g
                .tree
                .lines_iccs()
                .into_iter()
                .map(|line| list(line.iter().map(|m| json_string(m)).collect()))
                .collect();
            let comments = comments(g)
                .into_iter()
                .map(|(p, t)| {
                    format!(
                        "{{\"path\":{},\"text\":{}}}",
                        json_string(&p),
                        json_string(&t)
                    )
                })
                .collect();
            let warnings = l
                .warnings
                .iter()
                .map(|w| json_string(&w.to_string()))
                .collect();
            format!(
                "{{\"ok\":true,\"fen\":{},\"tags\":{{{tags}}},\"lines\":{},\"comments\":{},\"warnings\":{}}}",
                json_string(&g.start_fen),
                list(lines),
                list(comments),
                list(warnings)
            )
        }
    }
}

/// What two readings of a game must share to be the same game.
fn same_game(a: &Game, b: &Game, with_comments: bool) -> Result<(), String> {
    if a.start_fen != b.start_fen {
        return Err(format!("start {} / {}", a.start_fen, b.start_fen));
    }
    let (la, lb) = (a.tree.lines_iccs(), b.tree.lines_iccs());
    if la != lb {
        let first = la
            .iter()
            .zip(&lb)
            .position(|(x, y)| x != y)
            .unwrap_or(la.len().min(lb.len()));
        return Err(format!(
            "{} / {} lines, line {} differs",
            la.len(),
            lb.len(),
            first + 1
        ));
    }
    if with_comments && comments(a) != comments(b) {
        return Err("comments differ".into());
    }
    Ok(())
}

/// `records dump|roundtrip|same ...`.
pub fn run(args: &[String]) -> Result<(), String> {
    let Some((job, rest)) = args.split_first() else {
        return Err("records: dump, roundtrip, same or check".into());
    };
    let (files, flag_args) = split_args(rest);
    let spec = Spec::new(USAGE).options(&["from", "show"]);
    let flags = if job == "check" {
        Flags::parse(flag_args, &spec.switches(&["roundtrip"]))?
    } else {
        Flags::parse(flag_args, &spec)?
    };
    let from = format_flag(&flags, "from")?;
    if files.is_empty() {
        return Err(format!("records {job}: needs files"));
    }
    match job.as_str() {
        "dump" => {
            for f in &files {
                for game in read_file(f, from)? {
                    println!("{}", dump_json(&game));
                }
            }
            Ok(())
        }
        "roundtrip" => roundtrip(&files, from),
        "same" => same(&files, from),
        "check" => check(
            &files,
            from,
            flags.is_set("roundtrip"),
            flags.get("show", 20)?,
        ),
        other => Err(format!("records {other}: dump, roundtrip, same or check")),
    }
}

/// The formats a game is written in and read back from.
fn written_formats() -> [Format; 5] {
    use jiang::record::Notation;
    [
        Format::Pgn(Notation::Iccs),
        Format::Pgn(Notation::Wxf),
        Format::Pgn(Notation::Chinese),
        Format::DhtmlXq,
        Format::FenMoves,
    ]
}

/// Writes `game` in `format` and reads it back: the same game (start, every line, every
/// comment; the main line for FEN and moves), without warnings.
fn round_trip(game: &Game, format: Format) -> Result<(), String> {
    let text = record::write(game, format).map_err(|e| format!("not written: {e}"))?;
    match record::read(text.as_bytes(), format) {
        Err(e) => Err(format!("not read back: {e}")),
        Ok(l) if !l.warnings.is_empty() => {
            Err(format!("read back with warnings: {}", l.warnings[0]))
        }
        Ok(l) if format == Format::FenMoves => {
            if l.game.main_line_iccs() == game.main_line_iccs()
                && l.game.start_fen == game.start_fen
            {
                Ok(())
            } else {
                Err("main line differs".into())
            }
        }
        Ok(l) => same_game(game, &l.game, true),
    }
}

fn roundtrip(files: &[String], from: Option<Format>) -> Result<(), String> {
    let formats = written_formats();
    let (mut games, mut moves, mut failures) = (0usize, 0usize, 0usize);
    let mut agree = vec![0usize; formats.len()];
    for f in files {
        for (i, game) in games_of(f, from)?.into_iter().enumerate() {
            games += 1;
            moves += game.tree.len() - 1;
            for (k, &format) in formats.iter().enumerate() {
                match round_trip(&game, format) {
                    Ok(()) => agree[k] += 1,
                    Err(e) => {
                        failures += 1;
                        if failures <= 20 {
                            eprintln!("{f}: game {}: {}: {e}", i + 1, format.name());
                        }
                    }
                }
            }
        }
    }
    println!("games {games}, moves {moves}");
    for (k, format) in formats.iter().enumerate() {
        println!(
            "{}: {} of {games} written and read back the same",
            format.name(),
            agree[k]
        );
    }
    if failures > 0 {
        return Err(format!("{failures} round trips differ"));
    }
    Ok(())
}

/// The record files of `paths`: a file as given, a folder searched through (every file
/// whose name tells a format, in name order); `--from` takes every file of a folder.
fn record_files(paths: &[String], from: Option<Format>) -> Result<Vec<String>, String> {
    let mut files = Vec::new();
    for p in paths {
        let path = Path::new(p);
        if !path.is_dir() {
            files.push(p.clone());
            continue;
        }
        let mut stack = vec![path.to_path_buf()];
        let mut found = Vec::new();
        while let Some(dir) = stack.pop() {
            let entries = std::fs::read_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
            for entry in entries {
                let entry = entry.map_err(|e| format!("{}: {e}", dir.display()))?;
                let child = entry.path();
                if child.is_dir() {
                    stack.push(child);
                } else if from.is_some() || Format::from_path(&child).is_some() {
                    found.push(child.to_string_lossy().into_owned());
                }
            }
        }
        found.sort();
        files.extend(found);
    }
    Ok(files)
}

/// What `records check` counts.
#[derive(Debug, Default)]
struct Census {
    files: usize,
    files_unread: usize,
    games: usize,
    games_unread: usize,
    games_damaged: usize,
    games_clean: usize,
    moves: usize,
    main_line_plies: usize,
    shown: usize,
}

impl Census {
    fn note(&mut self, show: usize, message: String) {
        self.shown += 1;
        if self.shown <= show {
            eprintln!("{message}");
        }
    }
}

/// `records check PATH... [--from FMT] [--roundtrip] [--show N]`.
fn check(paths: &[String], from: Option<Format>, trip: bool, show: usize) -> Result<(), String> {
    let files = record_files(paths, from)?;
    let formats = written_formats();
    let mut agree = vec![0usize; formats.len()];
    let mut c = Census::default();
    for f in &files {
        c.files += 1;
        let results = match read_file(f, from) {
            Ok(r) => r,
            Err(e) => {
                c.files_unread += 1;
                c.note(show, format!("not read: {e}"));
                continue;
            }
        };
        for (i, result) in results.into_iter().enumerate() {
            c.games += 1;
            let loaded = match result {
                Ok(l) => l,
                Err(e) => {
                    c.games_unread += 1;
                    c.note(show, format!("{f}: game {}: not read: {e}", i + 1));
                    continue;
                }
            };
            let game = &loaded.game;
            c.moves += game.tree.len() - 1;
            c.main_line_plies += game.main_line_iccs().len();
            if let Some(w) = loaded.warnings.first() {
                c.games_damaged += 1;
                let more = loaded.warnings.len() - 1;
                let more = if more > 0 {
                    format!(" (and {more} more)")
                } else {
                    String::new()
                };
                c.note(show, format!("{f}: game {}: {w}{more}", i + 1));
            } else {
                c.games_clean += 1;
            }
            if trip {
                for (k, &format) in formats.iter().enumerate() {
                    match round_trip(game, format) {
                        Ok(()) => agree[k] += 1,
                        Err(e) => {
                            c.note(show, format!("{f}: game {}: {}: {e}", i + 1, format.name()))
                        }
                    }
                }
            }
        }
    }
    let read = c.games - c.games_unread;
    println!(
        "files {}, not read {}; games {}, read {read}, not read {}",
        c.files, c.files_unread, c.games, c.games_unread
    );
    println!(
        "games read with every move legal and no damage {}, with an illegal move or damage {}",
        c.games_clean, c.games_damaged
    );
    println!("moves {} (main lines {} plies)", c.moves, c.main_line_plies);
    let mut trips_failed = 0;
    if trip {
        for (k, format) in formats.iter().enumerate() {
            trips_failed += read - agree[k];
            println!(
                "{}: {} of {read} written and read back the same",
                format.name(),
                agree[k]
            );
        }
    }
    if c.files_unread + c.games_unread + c.games_damaged + trips_failed > 0 {
        return Err(format!(
            "{} files and {} games not read, {} games with an illegal move or damage, {trips_failed} round trips differ",
            c.files_unread, c.games_unread, c.games_damaged
        ));
    }
    Ok(())
}

fn same(files: &[String], from: Option<Format>) -> Result<(), String> {
    let sets: Vec<Vec<Game>> = files
        .iter()
        .map(|f| games_of(f, from))
        .collect::<Result<_, _>>()?;
    let n = sets.iter().map(Vec::len).min().unwrap_or(0);
    let mut agree = 0;
    let mut moves = 0;
    for i in 0..n {
        let first = &sets[0][i];
        let mut ok = true;
        for (k, set) in sets.iter().enumerate().skip(1) {
            if let Err(e) = same_game(first, &set[i], false) {
                ok = false;
                eprintln!("game {}: {} and {}: {e}", i + 1, files[0], files[k]);
            }
        }
        if ok {
            agree += 1;
            moves += first.tree.len() - 1;
        }
    }
    println!(
        "{} files, {} games each (the fewest), {agree} read with the same moves in every file ({moves} moves)",
        files.len(),
        n
    );
    if agree < n || sets.iter().any(|s| s.len() != n) {
        return Err("the files differ".into());
    }
    Ok(())
}
