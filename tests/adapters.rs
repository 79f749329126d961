//! The course-harness adapters in `adapters/` (issue 15), tested through the engine
//! this build made: each adapter's own tests (Python `unittest`, Java with stand-ins of
//! the harness API) run here, skipped with a message when `python3` or `javac` is
//! missing. Their tests inside the real harnesses run too when `JIANG_HARNESSES` names a
//! folder of fetched harnesses (see `adapters/README.md`); otherwise they say they skip.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

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

fn report(what: &str, out: &Output) -> String {
    format!(
        "{what}: {}\n--- stdout\n{}\n--- stderr\n{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    )
}

/// Runs `python3 -m unittest` over one adapter's folder; the skips it reports are printed.
fn python_tests(adapter: &str) {
    if !available("python3", "--version") {
        eprintln!("adapters/{adapter}: skipped, python3 is not installed");
        return;
    }
    let out = Command::new("python3")
        .args(["-m", "unittest", "discover", "-v", "-s"])
        .arg(root().join("adapters").join(adapter))
        .env("JIANG", engine())
        .current_dir(root())
        .output()
        .expect("python3 runs");
    let text = report(&format!("adapters/{adapter}"), &out);
    assert!(out.status.success(), "{text}");
    // unittest writes its verbose report, skips included, on stderr.
    for line in String::from_utf8_lossy(&out.stderr).lines() {
        if line.contains("skipped") {
            eprintln!("adapters/{adapter}: {line}");
        }
    }
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
    python_tests("threechess");
}

#[test]
fn microchess_adapter_in_the_tournament() {
    python_tests("microchess");
}

/// Compiles `TeamJiang.java` with the harness stand-ins of `adapters/microchess/test/`
/// and runs its test against this build's engine, then without an engine.
#[test]
fn microchess_adapter_java() {
    if !available("javac", "-version") || !available("java", "-version") {
        eprintln!("adapters/microchess: skipped, javac/java is not installed");
        return;
    }
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
    if !available("python3", "--version") {
        eprintln!("adapters --help: skipped, python3 is not installed");
        return;
    }
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
    if !available("python3", "--version") {
        eprintln!("baroque test_outside.py: skipped, python3 is not installed");
        return;
    }
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
