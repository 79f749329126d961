//! The command sequences that the Xiangqi GUIs players use on Windows really send, each
//! written after the GUI's own source where it is public (cited at each test), with the
//! GUIs' habits: lines ending in CR LF, the engine in a folder of its own, a working
//! directory that may be the GUI's, paths with backslashes, spaces and Chinese names.
//!
//! `cargo test --release --test gui` runs them on the native binary; the Windows CI runs
//! the same tests on `jiang.exe` under Wine (`tests/windows/ci.sh`, through
//! `JIANG_TEST_EXE` and `JIANG_TEST_RUNNER`, see `common/engine.rs`).
//!
//! The GUIs whose source is not public (XiangQi Wizard, BHGUI, SharkChess) are
//! represented by what is known of them: XiangQi Wizard by the UCCI specification's
//! sequence and the commands xqbase's own `pikafish-proxy` (written so that XQWizard can
//! load Pikafish) forwards from it.

#[path = "common/engine.rs"]
mod engine;

use engine::{assert_legal, assert_no_panic, ms, test_exe, Engine, SLOW};
use jiang::xiangqi::{Position, START_FEN};
use std::path::{Path, PathBuf};

/// The start position as board and side only, as VinXiangQi's `Utils.BoardToFen` writes a
/// FEN (no counters).
const START_BOARD: &str = "rnbakabnr/9/1c5c1/p1p1p1p1p/9/9/P1P1P1P1P/1C5C1/9/RNBAKABNR";

/// Red takes a free chariot on the open a-file (a0a9): the move a ban must forbid.
const FREE_CHARIOT: &str = "r3k4/9/9/9/9/9/9/9/9/R2K5";

/// Words in an `info string` line that mean the engine refused or did not understand
/// something a GUI sent.
const COMPLAINTS: &[&str] = &[
    "unknown",
    "ignored",
    "needs",
    "has no choice",
    "cannot",
    "refused",
    "expected",
    "illegal",
    "out of range",
    "error",
];

/// A folder under the system's temporary folder, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(what: &str) -> TempDir {
        use std::sync::atomic::{AtomicUsize, Ordering};
        static COUNT: AtomicUsize = AtomicUsize::new(0);
        let n = COUNT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("jiang-gui-{}-{n}-{what}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("cannot make {dir:?}: {e}"));
        TempDir(dir)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// The engine installed as a player installs it for a GUI: the binary copied into a
/// folder of its own with a book file beside it, started with another folder (the
/// GUI's) as its working directory.
struct Installed {
    engine: Engine,
    /// The engine's folder.
    engine_dir: TempDir,
    /// The GUI's folder (the working directory).
    _gui_dir: TempDir,
    /// Whether the binary is a Windows one (paths are then written the Windows way).
    windows: bool,
}

impl Installed {
    /// Installs the engine under test with `book` (a file name) beside it.
    fn new(book: &str) -> Installed {
        let exe = test_exe();
        let windows = exe.ends_with(".exe");
        let engine_dir = TempDir::new("engine");
        let gui_dir = TempDir::new("gui");
        let name = if windows { "jiang.exe" } else { "jiang" };
        let copy = engine_dir.0.join(name);
        std::fs::copy(&exe, &copy).unwrap_or_else(|e| panic!("cannot copy {exe}: {e}"));
        std::fs::write(
            engine_dir.0.join(book),
            jiang::xiangqi::book::DEFAULT_BOOK_BYTES,
        )
        .unwrap_or_else(|e| panic!("cannot write the book: {e}"));
        let engine = Engine::start_program_in(&copy.to_string_lossy(), &gui_dir.0);
        Installed {
            engine,
            engine_dir,
            _gui_dir: gui_dir,
            windows,
        }
    }

    /// `path` as the engine's platform writes it: under Wine, drive `Z:` is the Unix
    /// root and the separator a backslash.
    fn os_path(&self, path: &Path) -> String {
        let text = path.to_string_lossy();
        if self.windows {
            format!("Z:{}", text.replace('/', "\\"))
        } else {
            text.into_owned()
        }
    }
}

/// Sends a line as Windows GUIs write it, ending in CR LF.
#[track_caller]
fn send(e: &mut Engine, line: &str) {
    e.send_raw(format!("{line}\r\n").as_bytes());
}

/// Fails on any `info string` line among `lines` that says something was refused.
#[track_caller]
fn assert_no_complaint(e: &Engine, lines: &[String]) {
    for l in lines.iter().filter(|l| l.starts_with("info string")) {
        let lower = l.to_lowercase();
        if COMPLAINTS.iter().any(|w| lower.contains(w)) {
            e.fail(&format!("the engine refused a GUI's line: {l}"));
        }
    }
}

/// `isready` → `readyok`, failing on any complaint before it.
#[track_caller]
fn sync_quietly(e: &mut Engine) {
    send(e, "isready");
    let mut lines = e.read_while_waiting("readyok", SLOW, |l| l == "readyok");
    lines.pop();
    assert_no_complaint(e, &lines);
}

/// Waits for `bestmove` (never `nobestmove`), failing on complaints; returns the move,
/// its whole line and the lines before it.
#[track_caller]
fn answer(e: &mut Engine, timeout: std::time::Duration) -> (String, String, Vec<String>) {
    let (mv, lines) = e.bestmove(timeout);
    assert_no_complaint(e, &lines);
    let line = lines.last().cloned().unwrap_or_default();
    (mv, line, lines)
}

/// Fails if a `bestmove` arrives within `wait` (a ponder search must wait for the GUI).
#[track_caller]
fn assert_still_thinking(e: &mut Engine, wait: std::time::Duration, what: &str) {
    if let Some(l) = e.drain(wait).iter().find(|l| l.starts_with("bestmove")) {
        e.fail(&format!("{what}: answered '{l}' without being told"));
    }
}

/// Asserts that the search lines are UCCI's (a bare integer score, no `cp`/`mate`).
#[track_caller]
fn assert_ucci_scores(e: &Engine, lines: &[String]) {
    let scored: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info depth") && l.contains(" score "))
        .collect();
    if scored.is_empty() {
        e.fail("no 'info depth … score …' line");
    }
    for l in scored {
        let words: Vec<&str> = l.split_whitespace().collect();
        let at = words.iter().position(|w| *w == "score").unwrap_or(0);
        if words
            .get(at + 1)
            .and_then(|v| v.parse::<i32>().ok())
            .is_none()
        {
            e.fail(&format!("not a UCCI score: {l}"));
        }
    }
}

fn pos_after(fen: &str, moves: &[&str]) -> Position {
    engine::position(Some(fen), moves)
}

fn full_fen(board: &str, side: char) -> String {
    format!("{board} {side} - - 0 1")
}

/// XiangQi Wizard (象棋巫师, xqbase, closed source, UCCI only). Its sequence is the UCCI
/// 3.0 specification's (§六, the worked ponder example: `setoption usemillisec true`,
/// `position fen … - - 0 1 moves …`, `go [ponder] time T increment I`, `ponderhit` or
/// `stop`) with the options xqbase's pikafish-proxy, written for XQWizard, takes from it
/// (github.com/xqbase/eleeye, pikafish-proxy/pikafish-proxy.cpp: `setoption usebook`,
/// `setoption bookfiles` relative to the engine's folder, `setoption hashsize`,
/// `setoption threads`; everything else passed through) and `setoption newgame` on every
/// new game. XQWizard sends no `banmoves`.
#[test]
fn xqwizard_ucci() {
    let mut gui = Installed::new("xqwizard.jbk");
    let e = &mut gui.engine;
    send(e, "ucci");
    let lines = e.read_while_waiting("ucciok", SLOW, |l| l == "ucciok");
    if !lines.iter().any(|l| l.starts_with("option usemillisec ")) {
        e.fail("no 'option usemillisec' line (XQWizard then assumes seconds)");
    }
    for line in [
        "setoption usemillisec true",
        "setoption newgame",
        "setoption usebook true",
        // Relative: the engine's folder, not the working directory (the GUI's).
        "setoption bookfiles xqwizard.jbk",
        "setoption hashsize 16",
        "setoption threads 1",
    ] {
        send(e, line);
    }
    sync_quietly(e);

    // The opening, from the book beside the engine.
    send(e, &format!("position fen {}", full_fen(START_BOARD, 'w')));
    send(e, "go time 300000 increment 0");
    let (mv, _, lines) = answer(e, SLOW);
    if !lines.iter().any(|l| l.starts_with("info string book move")) {
        e.fail("the book named relative to the engine's folder was not used");
    }
    assert_legal(e, &Position::startpos(), &mv);

    // Pondering on the expected reply, then a hit.
    let played = [mv.as_str(), "h9g7"];
    let ponder_pos = pos_after(START_FEN, &played);
    let reply = ponder_pos.legal_moves().as_slice()[0];
    let ponder_moves = [played[0], played[1], &reply.to_string()];
    let moves_text = ponder_moves.join(" ");
    send(
        e,
        &format!(
            "position fen {} moves {moves_text}",
            full_fen(START_BOARD, 'w')
        ),
    );
    send(e, "go ponder time 20000 increment 0");
    assert_still_thinking(e, ms(500), "go ponder");
    send(e, "ponderhit");
    let (mv, _, lines) = answer(e, SLOW);
    assert_ucci_scores(e, &lines);
    assert_legal(e, &pos_after(START_FEN, &ponder_moves), &mv);

    // Pondering on a reply that is not played: stop, then the real position.
    send(e, "go ponder time 20000 increment 0");
    assert_still_thinking(e, ms(300), "go ponder");
    send(e, "stop");
    answer(e, ms(2000));
    send(e, "setoption usebook false");
    send(e, "setoption newgame");
    send(
        e,
        &format!(
            "position fen {} moves h2e2 h7e7",
            full_fen(START_BOARD, 'w')
        ),
    );
    send(e, "go time 20000 increment 0");
    let (mv, _, lines) = answer(e, SLOW);
    if lines.iter().any(|l| l.starts_with("info string book move")) {
        e.fail("a book move after 'setoption usebook false'");
    }
    assert_ucci_scores(e, &lines);
    assert_legal(e, &pos_after(START_FEN, &["h2e2", "h7e7"]), &mv);

    send(e, "quit");
    e.expect_line("bye", ms(3000), |l| l == "bye");
    let status = e.wait_exit(ms(5000));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit"));
    }
    assert_no_panic(e);
}

/// VinXiangQi (github.com/Vincentzyx/VinXiangQi, .NET): `EngineHelper.Init` writes `uci`
/// and `ucci` at once and switches to the UCCI form of `setoption` (`setoption KEY
/// VALUE`) only once it has read `ucciok`, so options may come in either form; the keys
/// are the names its `EngineSettingsForm` read from the `option name …` lines (UCI names,
/// some of several words). `StartAnalyze` sends `position fen <board> <side>` (the FEN of
/// `Utils.BoardToFen`, board and side only), `banmoves …` when it has some, `go movetime
/// T depth D`; `StartAnalyzePonder` the same with `go ponder`, then `ponderhit`, or
/// `stop` on a miss. It reads a `bestmove` line of more than two words as `bestmove M
/// ponder P` (`args[3]`), and ends the engine with `Process.Kill`.
#[test]
fn vinxiangqi() {
    let mut gui = Installed::new("book.jbk");
    let e = &mut gui.engine;
    send(e, "uci");
    send(e, "ucci");
    // Options sent as soon as the first `option` line arrived, before `ucciok`.
    e.read_while_waiting("an option line", SLOW, |l| l.starts_with("option "));
    send(e, "setoption name Threads value 1");
    e.read_while_waiting("ucciok", SLOW, |l| l == "ucciok");
    for line in [
        "setoption Threads 1",
        "setoption Hash 32",
        "setoption Move Overhead 30",
        "setoption Skill Level 20",
        "setoption UCI_LimitStrength false",
        "setoption Clear Hash ",
    ] {
        send(e, line);
    }
    sync_quietly(e);

    let check_bestmove_line = |e: &Engine, line: &str| {
        let words = line.split_whitespace().count();
        if words == 3 {
            e.fail(&format!(
                "VinXiangQi reads word 4 of a 3-word bestmove line: {line}"
            ));
        }
    };

    // An analysis with a banned move: the free chariot may not be taken.
    send(e, &format!("position fen {FREE_CHARIOT} w"));
    send(e, "banmoves a0a9");
    send(e, "go movetime 500 depth 30");
    let (mv, line, _) = answer(e, SLOW);
    check_bestmove_line(e, &line);
    assert_legal(e, &pos_after(&full_fen(FREE_CHARIOT, 'w'), &[]), &mv);
    if mv == "a0a9" {
        e.fail("the banned move a0a9 was played");
    }

    // Pondering: a hit, then a miss.
    send(e, &format!("position fen {START_BOARD} b"));
    send(e, "go ponder movetime 500 depth 30");
    assert_still_thinking(e, ms(800), "go ponder movetime 500");
    send(e, "ponderhit");
    let (mv, line, _) = answer(e, ms(3000));
    check_bestmove_line(e, &line);
    assert_legal(e, &pos_after(&full_fen(START_BOARD, 'b'), &[]), &mv);
    send(e, &format!("position fen {START_BOARD} w"));
    send(e, "go ponder movetime 500 depth 30");
    assert_still_thinking(e, ms(300), "go ponder movetime 500");
    send(e, "stop");
    let (mv, line, _) = answer(e, ms(2000));
    check_bestmove_line(e, &line);
    assert_legal(e, &Position::startpos(), &mv);
    assert_no_panic(e);
    // VinXiangQi kills the process; the harness does the same on drop.
}

/// VinXiangQi with an engine that stays in UCI (and before `ucciok` arrives): it sends
/// `banmoves` in UCI mode all the same (`EngineHelper.StartAnalyze` writes it whatever
/// the protocol).
#[test]
fn vinxiangqi_banmoves_in_uci_mode() {
    let mut gui = Installed::new("book.jbk");
    let e = &mut gui.engine;
    send(e, "uci");
    e.read_while_waiting("uciok", SLOW, |l| l == "uciok");
    send(e, &format!("position fen {FREE_CHARIOT} w"));
    send(e, "banmoves a0a9");
    send(e, "go movetime 300 depth 30");
    let (mv, _, _) = answer(e, SLOW);
    assert_legal(e, &pos_after(&full_fen(FREE_CHARIOT, 'w'), &[]), &mv);
    if mv == "a0a9" {
        e.fail("the banned move a0a9 was played in UCI mode");
    }
    assert_no_panic(e);
}

/// The UCI "Cyclone dialect" of WinBoard's UCI2WB adapter (github.com/ianfab/uci2wb,
/// UCI2WB.c) for Xiangqi: `uci`, `isready`, `ucinewgame`, position lines without the
/// word `position` (`fen <FEN> r moves …`, side `r` for Red, ` moves` even with no
/// move), `go btime B wtime W [movestogo N | winc I binc I]`, `go ponder …`, `ponderhit`,
/// `stop`, `quit`. Fairy-Stockfish also takes `startpos …` in this dialect.
#[test]
fn uci2wb_cyclone_dialect() {
    let mut gui = Installed::new("book.jbk");
    let e = &mut gui.engine;
    send(e, "uci");
    e.read_while_waiting("uciok", SLOW, |l| l == "uciok");
    send(e, "setoption name Hash value 32");
    sync_quietly(e);
    send(e, "ucinewgame");
    sync_quietly(e);
    let initial = format!("fen {START_BOARD} r");
    send(e, &format!("{initial} moves"));
    send(e, "go btime 20000 wtime 20000 movestogo 40");
    let (first, _, _) = answer(e, SLOW);
    assert_legal(e, &Position::startpos(), &first);
    let played = [first.as_str(), "h9g7"];
    let after = pos_after(START_FEN, &played);
    send(e, &format!("{initial} moves {}", played.join(" ")));
    send(e, "go btime 19000 wtime 19500 winc 100 binc 100");
    let (second, _, _) = answer(e, SLOW);
    assert_legal(e, &after, &second);
    // Pondering on the next move, then a hit.
    let reply = pos_after(START_FEN, &[played[0], played[1], &second])
        .legal_moves()
        .as_slice()[0]
        .to_string();
    let line = [played[0], played[1], &second, &reply];
    send(e, &format!("{initial} moves {}", line.join(" ")));
    send(e, "go ponder btime 19000 wtime 19000 winc 100 binc 100");
    assert_still_thinking(e, ms(400), "go ponder");
    send(e, "ponderhit");
    let (mv, _, _) = answer(e, SLOW);
    assert_legal(e, &pos_after(START_FEN, &line), &mv);
    // `startpos …` without `position`.
    send(e, "startpos moves h2e2 h9g7");
    send(e, "go btime 10000 wtime 10000 movestogo 20");
    let (mv, _, _) = answer(e, SLOW);
    assert_legal(e, &pos_after(START_FEN, &["h2e2", "h9g7"]), &mv);
    send(e, "quit");
    let status = e.wait_exit(ms(5000));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit"));
    }
    assert_no_panic(e);
}

/// The options public-Xiangqi reads from `option name … type … default …` lines, its way
/// (`Engine.test`: split on the words `name`, `type`, `default`; key = part 1, value =
/// the first word of part 3; lines with `Threads` or `Hash` skipped).
fn public_xiangqi_options(lines: &[String]) -> Vec<(String, String)> {
    lines
        .iter()
        .filter(|l| {
            l.starts_with("option")
                && l.contains("name")
                && l.contains("type")
                && l.contains("default")
                && !l.contains("Threads")
                && !l.contains("Hash")
        })
        .filter_map(|l| {
            let parts: Vec<&str> = l
                .split("name")
                .flat_map(|p| p.split("type"))
                .flat_map(|p| p.split("default"))
                .collect();
            let key = parts.get(1)?.trim().to_string();
            let value = parts
                .get(3)?
                .split_whitespace()
                .next()
                .unwrap_or("")
                .to_string();
            Some((key, value))
        })
        .collect()
}

/// The options public-Xiangqi's "add engine" dialog reads (a first process, `uci`).
fn public_xiangqi_probe() -> Vec<(String, String)> {
    let mut probe = Installed::new("book.jbk");
    let e = &mut probe.engine;
    send(e, "uci");
    let lines = e.read_while_waiting("uciok", SLOW, |l| l == "uciok");
    let options = public_xiangqi_options(&lines);
    if options.len() < 10 {
        e.fail(&format!("public-Xiangqi would read only {options:?}"));
    }
    options
}

/// public-Xiangqi (github.com/sojourners/public-Xiangqi, Java;
/// src/main/java/com/sojourners/chess/enginee/Engine.java), as it detects jiang: `uci`
/// answers `uciok`, so UCI; then every option it read, at its default, as `setoption name
/// K value V`; before each analysis `stop` and, when changed, `setoption name Threads
/// value N` and `setoption name Hash value N`; `position fen <FEN> w - - 0 1 moves …`;
/// `go depth D`, `go movetime T` or `go infinite`; `quit`. It shows only `info` lines
/// that contain `nps`, and reads `bestmove M [ponder P]`.
#[test]
fn public_xiangqi_uci() {
    let options = public_xiangqi_probe();
    let mut gui = Installed::new("book.jbk");
    let e = &mut gui.engine;
    send(e, "uci");
    e.read_while_waiting("uciok", SLOW, |l| l == "uciok");
    for (key, value) in &options {
        send(e, &format!("setoption name {key} value {value}"));
    }
    send(e, "isready");
    let lines = e.read_while_waiting("readyok", SLOW, |l| l == "readyok");
    // Options of other games are kept and said so; nothing may be refused.
    let refused: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string") && !l.contains("kept for when it is played"))
        .collect();
    if !refused.is_empty() {
        e.fail(&format!("options at their defaults refused: {refused:?}"));
    }
    let fen = full_fen(START_BOARD, 'w');
    send(e, "stop");
    send(e, "setoption name Threads value 2");
    send(e, "setoption name Hash value 16");
    send(e, &format!("position fen {fen} moves h2e2 h9g7"));
    send(e, "go movetime 500");
    let (mv, _, lines) = answer(e, SLOW);
    assert_legal(e, &pos_after(START_FEN, &["h2e2", "h9g7"]), &mv);
    if !lines
        .iter()
        .any(|l| l.contains("nps") && l.contains(" pv "))
    {
        e.fail("no info line with both nps and pv: public-Xiangqi would show nothing");
    }
    send(e, "stop");
    send(e, &format!("position fen {fen} moves h2e2"));
    send(e, "go infinite");
    e.expect_line("a search line", SLOW, |l| {
        l.contains("nps") && l.contains(" pv ")
    });
    send(e, "stop");
    let (mv, _, _) = answer(e, ms(2000));
    assert_legal(e, &pos_after(START_FEN, &["h2e2"]), &mv);
    send(e, "stop");
    send(e, &format!("position fen {fen}"));
    send(e, "go depth 6");
    let (mv, _, _) = answer(e, SLOW);
    assert_legal(e, &Position::startpos(), &mv);
    send(e, "quit");
    let status = e.wait_exit(ms(5000));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit"));
    }
    assert_no_panic(e);
}

/// public-Xiangqi with the protocol set to `ucci` in its engine dialog (a text field):
/// the options it read from the UCI lines go out in the UCCI form with their UCI names
/// (`setoption Skill Level 20`), and before each analysis `stop` (idle: UCCI answers
/// `nobestmove`, which its reader skips), `setoption Threads N`, `setoption Hash N`.
#[test]
fn public_xiangqi_ucci() {
    let options = public_xiangqi_probe();
    let mut gui = Installed::new("book.jbk");
    let e = &mut gui.engine;
    send(e, "ucci");
    e.read_while_waiting("ucciok", SLOW, |l| l == "ucciok");
    for (key, value) in &options {
        // A UCCI game is Xiangqi; the variant option is the one it may refuse.
        if key != "UCI_Variant" || value == "xiangqi" {
            send(e, &format!("setoption {key} {value}"));
        }
    }
    send(e, "isready");
    let lines = e.read_while_waiting("readyok", SLOW, |l| l == "readyok");
    let refused: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string") && !l.contains("kept for when it is played"))
        .collect();
    if !refused.is_empty() {
        e.fail(&format!("options at their defaults refused: {refused:?}"));
    }
    send(e, "stop");
    e.expect_line("nobestmove (idle stop)", SLOW, |l| l == "nobestmove");
    send(e, "setoption Threads 2");
    send(e, "setoption Hash 16");
    sync_quietly(e);
    let fen = full_fen(START_BOARD, 'w');
    send(e, &format!("position fen {fen} moves b2e2 b9c7"));
    send(e, "go depth 6");
    let (mv, _, lines) = answer(e, SLOW);
    assert_ucci_scores(e, &lines);
    assert_legal(e, &pos_after(START_FEN, &["b2e2", "b9c7"]), &mv);
    send(e, "stop");
    send(e, &format!("position fen {fen}"));
    send(e, "go movetime 300");
    let (mv, _, _) = answer(e, SLOW);
    assert_legal(e, &Position::startpos(), &mv);
    send(e, "quit");
    e.expect_line("bye", ms(3000), |l| l == "bye");
    let status = e.wait_exit(ms(5000));
    if !status.success() {
        e.fail(&format!("exit status {status} after quit"));
    }
    assert_no_panic(e);
}

/// A book path as a Windows user has them: a drive letter, backslashes, spaces (two in a
/// row) and Chinese in the folder name, in UCI's `setoption name BookFile value …` and in
/// UCCI's `setoption bookfiles …` (a `;`-separated list whose first file is missing).
#[test]
fn book_paths_with_spaces_backslashes_and_chinese() {
    let mut gui = Installed::new("book.jbk");
    let folder = gui.engine_dir.0.join("象棋  books");
    std::fs::create_dir_all(&folder).unwrap_or_else(|e| panic!("cannot make {folder:?}: {e}"));
    std::fs::write(
        folder.join("my book.jbk"),
        jiang::xiangqi::book::DEFAULT_BOOK_BYTES,
    )
    .unwrap_or_else(|e| panic!("cannot write the book: {e}"));
    let path = gui.os_path(&folder.join("my book.jbk"));
    let missing = gui.os_path(&folder.join("missing.jbk"));
    let e = &mut gui.engine;

    send(e, "uci");
    e.read_while_waiting("uciok", SLOW, |l| l == "uciok");
    send(e, "setoption name OwnBook value true");
    send(e, &format!("setoption name BookFile value {path}"));
    sync_quietly(e);
    send(e, "position startpos");
    send(e, "go movetime 2000");
    let (_, _, lines) = answer(e, SLOW);
    if !lines.iter().any(|l| l.starts_with("info string book move")) {
        e.fail(&format!("the book at {path} was not used"));
    }

    send(e, "ucci");
    e.read_while_waiting("ucciok", SLOW, |l| l == "ucciok");
    send(e, "setoption usebook true");
    send(e, &format!("setoption bookfiles {missing};{path}"));
    sync_quietly(e);
    send(e, "position startpos");
    send(e, "go time 60000 increment 0");
    let (_, _, lines) = answer(e, SLOW);
    if !lines.iter().any(|l| l.starts_with("info string book move")) {
        e.fail(&format!("the book list '{missing};{path}' was not used"));
    }
    // A file that is not there is said so, with its name intact.
    send(e, &format!("setoption bookfiles {missing}"));
    send(e, "isready");
    let lines = e.read_while_waiting("readyok", SLOW, |l| l == "readyok");
    if !lines
        .iter()
        .any(|l| l.starts_with("info string") && l.contains(&missing))
    {
        e.fail(&format!("no message naming {missing}"));
    }
    assert_no_panic(e);
}

/// The `position` line JieqiBox sends (`useUciEngine.ts`, `startAnalysis` and
/// `startPonder`): the FEN at the last reveal, then the moves played since, none of which
/// revealed anything. `legacy` writes the FEN in JieqiBox's old layout (the pool before
/// the side), as it does with its "new FEN format" setting off (`convertFenFormat`).
fn jieqibox_position(base: &str, since: &[String], legacy: bool) -> String {
    let fen = if legacy {
        let f: Vec<&str> = base.split_whitespace().collect();
        // new: board side pool captured halfmove fullmove; old: board pool side - - h f
        format!("{} {} {} - - {} {}", f[0], f[2], f[1], f[4], f[5])
    } else {
        base.to_string()
    };
    if since.is_empty() {
        format!("position fen {fen}")
    } else {
        format!("position fen {fen} moves {}", since.join(" "))
    }
}

/// The outcome of the bare move `m` the GUI deals (JieqiBox turns a piece up at random
/// from the mover's unseen pieces, and tells a captured face-down piece's kind): one of
/// [`jiang::jieqi::Position::outcomes`], weighted by the pools' counts.
fn jieqibox_deal(
    view: &jiang::jieqi::Position,
    m: jiang::jieqi::Move,
    seed: &mut u64,
) -> jiang::jieqi::Move {
    let (outcomes, n) = view.outcomes(m);
    let weight = |o: &jiang::jieqi::Move| u64::from(view.outcome_weight(*o));
    let total: u64 = outcomes[..n].iter().map(weight).sum();
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    let mut pick = *seed % total.max(1);
    for o in &outcomes[..n] {
        if pick < weight(o) {
            return *o;
        }
        pick -= weight(o);
    }
    outcomes[0]
}

/// JieqiBox (Velithia/JieqiBox, the GUI made for Jieqi engines; its UCI driver is
/// `src/composables/useUciEngine.ts`, read at 3958989f): `uci`, `isready` on `uciok`,
/// the saved options (`setoption name N value V`, buttons without a value),
/// `ucinewgame` + `isready` (5 s to answer), then for each move `position fen` with its
/// own FEN (`x`/`X` face-down pieces, the pool of unseen pieces) and the moves since the
/// last reveal, and `go movetime` / `depth` / `nodes` / `wtime W btime B movestogo 1` /
/// `infinite` then `stop`, `go ponder …` with `ponderhit` or `stop`. It never sends
/// `UCI_Variant`: the FEN alone must make jiang play Jieqi. The GUI deals every reveal
/// itself; a whole game is played here, jiang on both sides, to its end by the rules
/// (at fixed nodes, so that it is one game, not a different one on each run).
#[test]
fn jieqibox() {
    use jiang::game::Rules;
    use jiang::jieqi::types::NONE;
    let mut gui = Installed::new("book.jbk");
    let e = &mut gui.engine;
    send(e, "uci");
    e.read_while_waiting("uciok", SLOW, |l| l == "uciok");
    sync_quietly(e);
    for line in [
        "setoption name Threads value 1",
        "setoption name Hash value 64",
        "setoption name MultiPV value 1",
        "setoption name Clear Hash",
    ] {
        send(e, line);
    }
    send(e, "ucinewgame");
    send(e, "isready");
    let mut lines = e.read_while_waiting("readyok", ms(5000), |l| l == "readyok");
    lines.pop();
    assert_no_complaint(e, &lines);

    // Every kind of search JieqiBox starts, each answered with a move legal where it was
    // asked: from the start (the FEN alone must make jiang play Jieqi), then after a
    // reveal and a plain move, with the FEN in JieqiBox's legacy layout.
    let start = jiang::jieqi::Position::start_position();
    let mut after = start.clone();
    for text in ["b2b6C", "h9g7"] {
        let m = after.parse_legal_move(text).unwrap();
        after.play(m);
    }
    let mut revealed = start.clone();
    revealed.play(revealed.parse_legal_move("b2b6C").unwrap());
    let later = (revealed.to_fen(), vec!["h9g7".to_string()]);
    let legal = |e: &Engine, pos: &jiang::jieqi::Position, mv: &str| {
        if !pos
            .parse_legal_move(mv)
            .is_ok_and(|m| pos.legal_moves().contains(&m))
        {
            e.fail(&format!("bestmove '{mv}' is not legal in {}", pos.to_fen()));
        }
    };
    send(e, &jieqibox_position(&start.to_fen(), &[], false));
    send(e, "go movetime 300");
    let (mv, _, lines) = answer(e, SLOW);
    if !lines.iter().any(|l| l.contains("jieqi")) {
        e.fail("jiang did not say that JieqiBox's FEN made it play Jieqi");
    }
    legal(e, &start, &mv);
    for go in [
        "go depth 5",
        "go nodes 20000",
        "go wtime 400 btime 400 movestogo 1",
    ] {
        send(e, &jieqibox_position(&later.0, &later.1, true));
        send(e, go);
        let mv = answer(e, SLOW).0;
        legal(e, &after, &mv);
    }
    // Analysis: infinite until the player stops it.
    send(e, &jieqibox_position(&later.0, &later.1, false));
    send(e, "go infinite");
    assert_still_thinking(e, ms(300), "go infinite");
    send(e, "stop");
    let mv = answer(e, ms(2000)).0;
    legal(e, &after, &mv);
    // A ponder miss (`stop`, the answer thrown away), then a hit.
    send(e, "go ponder movetime 300");
    assert_still_thinking(e, ms(400), "go ponder movetime 300");
    send(e, "stop");
    let _ = answer(e, ms(2000));
    send(e, &jieqibox_position(&later.0, &later.1, false));
    send(e, "go ponder movetime 300");
    assert_still_thinking(e, ms(400), "go ponder movetime 300");
    send(e, "ponderhit");
    let mv = answer(e, ms(3000)).0;
    legal(e, &after, &mv);

    // A whole game, jiang on both sides at a fixed number of nodes (JieqiBox's "nodes"
    // mode) after `ucinewgame`, so that it is the same game on every run and platform.
    send(e, "ucinewgame");
    sync_quietly(e);
    let mut view = start;
    let mut base = view.to_fen();
    let mut since: Vec<String> = Vec::new();
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut reveals = 0;
    let mut plies = 0;
    while view.game_end().is_none() && plies < 600 {
        send(e, &jieqibox_position(&base, &since, plies % 2 == 1));
        send(e, "go nodes 3000");
        let mv = answer(e, SLOW).0;
        legal(e, &view, &mv);
        let m = view.parse_legal_move(&mv).unwrap();
        let dealt = jieqibox_deal(&view, m, &mut seed);
        view.play(dealt);
        plies += 1;
        if dealt.reveal != NONE || dealt.capt != NONE {
            reveals += 1;
            base = view.to_fen();
            since.clear();
        } else {
            since.push(mv);
        }
    }
    let Some(end) = view.game_end() else {
        e.fail(&format!("no end after {plies} plies: {}", view.to_fen()))
    };
    eprintln!("JieqiBox game: {plies} plies, {reveals} reveals, {end}");
    if reveals < 10 {
        e.fail(&format!("only {reveals} reveals in {plies} plies"));
    }
    send(e, "quit");
    let status = e.wait_exit(SLOW);
    if !status.success() {
        e.fail(&format!("quit: exit status {status}"));
    }
    assert_no_panic(e);
}
