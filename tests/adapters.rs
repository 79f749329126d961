//! The course-harness adapters in `adapters/` (issue 15), tested through the engine
//! this build made: each adapter's own tests (Python `unittest`, Java with stand-ins of
//! the harness API), and their tests inside the real harnesses, found through
//! `JIANG_HARNESSES` (a folder of fetched harnesses, see `adapters/README.md`); without
//! it, the tests fetch them into the target folder first (`adapters/fetch_harnesses.sh`,
//! public repositories, so a fresh clone runs them with nothing set).
//!
//! A test that cannot run what it is about never passes silently: a missing `python3`,
//! `javac` or `java` fails; a part that needs a course harness that could not be fetched
//! (the machine cannot reach GitHub) is skipped, said on stderr and counted, one line a
//! skip, in `JIANG_SKIP_LOG` (default `target/tmp/test-skips.txt`), which `.ci/run`
//! prints in its summary line (`N passed, M failed, K skipped`). With
//! `JIANG_REQUIRE_HARNESSES=1` such a skip is a failure instead.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Set to 1 to fail, rather than skip (counted), what needs a course harness that is not
/// there.
const REQUIRE_HARNESSES: &str = "JIANG_REQUIRE_HARNESSES";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn engine() -> &'static str {
    env!("CARGO_BIN_EXE_jiang")
}

fn available(program: &str, version_flag: &str) -> bool {
    Command::new(program)
        .arg(version_flag)
        .output()
        .map(|o| o.status.success())
        .unwrap_or(false)
}

/// Fails unless `program` runs: the test cannot test anything without it.
fn require(program: &str, version_flag: &str) {
    assert!(
        available(program, version_flag),
        "{program} is not installed: this test cannot run without it (.ci/run installs it)"
    );
}

/// `what` could not run because a course harness is missing: a skip, said on stderr and
/// counted in the skip log; a failure when [`REQUIRE_HARNESSES`] is 1.
fn harness_missing(what: &str) {
    assert!(
        std::env::var(REQUIRE_HARNESSES).as_deref() != Ok("1"),
        "{what}\nFetch the harnesses (adapters/fetch_harnesses.sh) and set JIANG_HARNESSES"
    );
    eprintln!("SKIPPED: {what}");
    let log = std::env::var_os("JIANG_SKIP_LOG").map_or_else(
        || PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("test-skips.txt"),
        PathBuf::from,
    );
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(&log)
        .unwrap_or_else(|e| panic!("skip log {}: {e}", log.display()));
    writeln!(file, "{what}").unwrap_or_else(|e| panic!("skip log {}: {e}", log.display()));
}

/// The folder of the course harnesses: `JIANG_HARNESSES`, or the target folder's
/// `harnesses/`, fetched there once by `adapters/fetch_harnesses.sh` (a harness that could
/// not be fetched is missing, and its test says so: [`harness_missing`]).
fn harnesses() -> &'static Path {
    static DIR: std::sync::OnceLock<PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        if let Some(dir) = std::env::var_os("JIANG_HARNESSES") {
            return PathBuf::from(dir);
        }
        let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("harnesses");
        let fetched = Command::new("bash")
            .arg(root().join("adapters/fetch_harnesses.sh"))
            .arg(&dir)
            .status();
        if !matches!(fetched, Ok(s) if s.success()) {
            eprintln!(
                "adapters/fetch_harnesses.sh: not every harness could be fetched ({fetched:?})"
            );
        }
        dir
    })
}

fn report(what: &str, out: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `python3 -m unittest` over one adapter's folder; each test it skipped (a harness
/// not found, or Java missing for it) goes to [`harness_missing`].
fn python_tests(adapter: &str) {
    require("python3", "--version");
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-v", "-s"])
        .arg(root().join("adapters").join(adapter))
        .env("JIANG", engine())
        .env("JIANG_HARNESSES", harnesses())
        .current_dir(root())
        .output()
        .expect("python3 runs");
    let text = report(&format!("adapters/{adapter}"), &out);
    assert!(out.status.success(), "{text}");
    // unittest writes its verbose report, skips included, on stderr: one line a test,
    // `name (module.Class.name) ... ok` or `... skipped 'why'`.
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut ran = 0;
    for line in stderr.lines().filter(|l| l.contains(" ... ")) {
        if let Some((test, why)) = line.split_once(" ... skipped ") {
            harness_missing(&format!("adapters/{adapter}: {test} skipped: {why}"));
        } else {
            ran += 1;
        }
    }
    assert!(
        ran + stderr.matches(" ... skipped ").count() > 0,
        "no test found: {text}"
    );
}

#[test]
fn alphachess_adapter() {
    python_tests("alphachess");
}

#[test]
fn cs3243_adapter() {
    python_tests("cs3243");
}

#[test]
fn baroque_adapter_with_the_game_master() {
    python_tests("baroque");
}

#[test]
fn threechess_adapter_in_the_harness() {
    // The folder's one test plays a game inside the harness (JIANG_HARNESSES).
    python_tests("threechess");
}

#[test]
fn microchess_adapter_in_the_tournament() {
    // The folder's one test runs a tournament inside the harness (JIANG_HARNESSES).
    python_tests("microchess");
}

/// Compiles `TeamJiang.java` with the harness stand-ins of `adapters/microchess/test/`
/// and runs its test against this build's engine, then without an engine.
#[test]
fn microchess_adapter_java() {
    require("javac", "-version");
    require("java", "-version");
    let dir = root().join("adapters/microchess");
    let classes = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("adapters-microchess");
    std::fs::create_dir_all(&classes).expect("class folder");
    let mut sources = vec![dir.join("TeamJiang.java")];
    for entry in std::fs::read_dir(dir.join("test")).expect("adapters/microchess/test") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "java") {
            sources.push(path);
        }
    }
    let out = Command::new("javac")
        .arg("-d")
        .arg(&classes)
        .args(&sources)
        .output()
        .expect("javac runs");
    assert!(out.status.success(), "{}", report("javac", &out));
    for (engine, args) in [
        (engine(), vec![]),
        ("/nonexistent/jiang", vec!["no-engine"]),
    ] {
        let out = Command::new("java")
            .arg("-cp")
            .arg(&classes)
            .arg("TestTeamJiang")
            .args(&args)
            .env("JIANG", engine)
            .output()
            .expect("java runs");
        assert!(
            out.status.success(),
            "{}",
            report(&format!("TestTeamJiang {args:?}"), &out)
        );
    }
}

/// Every Python script under `adapters/` (at any depth) answers `--help` (issue 27): exit status 0, a
/// text on stdout, no traceback. Scripts that are modules for a harness print what they
/// are; the runners print their usage; the test files, unittest's.
#[test]
fn every_adapter_script_takes_help() {
    require("python3", "--version");
    let mut scripts = Vec::new();
    let mut folders = vec![root().join("adapters")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).expect("adapters folder") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "py") {
                scripts.push(path);
            }
        }
    }
    scripts.sort();
    assert!(scripts.len() >= 10, "found only {scripts:?}");
    for script in &scripts {
        let out = Command::new("python3")
            .arg(script)
            .arg("--help")
            // The engine must not be needed: a missing one shows a script that starts it.
            .env("JIANG", "/nonexistent/jiang")
            .current_dir(root())
            .output()
            .expect("python3 runs");
        let text = report(&format!("{} --help", script.display()), &out);
        assert!(out.status.success(), "{text}");
        assert!(!out.stdout.is_empty(), "{text}");
        assert!(
            !String::from_utf8_lossy(&out.stderr).contains("Traceback"),
            "{text}"
        );
    }
}

/// The Baroque runner for published agents reads the game master's output, the Diogenes
/// shim applies the course's pincer rule, and the player answers in time when jiang is
/// late: `adapters/baroque/test_outside.py` (stand-ins only; no agent, harness or engine).
#[test]
fn baroque_outside_agents_runner_unit_tests() {
    require("python3", "--version");
    let out = Command::new("python3")
        .arg(root().join("adapters/baroque/test_outside.py"))
        .current_dir(root())
        .output()
        .expect("python3 runs");
    let text = report("adapters/baroque/test_outside.py", &out);
    assert!(out.status.success(), "{text}");
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("OK"),
        "{text}"
    );
}
