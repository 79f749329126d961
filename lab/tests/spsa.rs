//! `jiang-lab spsa` with the test engine `tests/fake_engine.py --mode weak` (it needs
//! `python3`; without it the engine cannot start and these tests fail), whose option
//! `Skill Level` below 10 makes it lose every game: the tuner must push the value up,
//! the same way for a seed whatever the concurrency, and a checkpoint must resume a run.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn lab(args: &[String]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jiang-lab"))
        .args(args)
        .output()
        .expect("jiang-lab runs")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jiang-lab-spsa-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn engine() -> String {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fake_engine.py");
    format!("cmd=python3 {} --mode weak", script.display())
}

fn spsa(extra: &[&str]) -> (String, i32) {
    let mut args = vec![
        "spsa".to_string(),
        "--engine".into(),
        "name=fake".into(),
        engine(),
    ];
    args.extend(extra.iter().map(|s| s.to_string()));
    let out = lab(&args);
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.code().is_some(),
        "stderr: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        stdout + &String::from_utf8_lossy(&out.stderr),
        out.status.code().unwrap_or(-1),
    )
}

/// The final value of `Skill Level` the run printed.
fn final_value(out: &str) -> f64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("games: "))
        .unwrap_or_else(|| panic!("no final line in:\n{out}"));
    let v = line.rsplit("Skill Level=").next().unwrap();
    v.trim().parse().unwrap_or_else(|_| panic!("{line}"))
}

#[test]
fn the_tuner_pushes_a_losing_parameter_up_and_resumes() {
    let dir = scratch("up");
    let params = dir.join("params.csv");
    std::fs::write(
        &params,
        "# the fake engine loses below 10\nSkill Level,9,0,20,2,0.05\n",
    )
    .unwrap();
    let p = params.to_str().unwrap();
    let base = [
        "--params",
        p,
        "--iterations",
        "8",
        "--nodes",
        "10",
        "--seed",
        "3",
    ];
    let (out, code) = spsa(&base);
    assert_eq!(code, 0, "{out}");
    let one = final_value(&out);
    assert!(one > 9.3, "Skill Level went from 9 to {one}:\n{out}");
    assert!(out.contains("faults"), "{out}");

    // The same seed with two iterations at a time: iterations are drawn from the same
    // state in rounds, so the path differs but the direction does not.
    let mut two = base.to_vec();
    two.extend(["--concurrency", "2"]);
    let (out2, code) = spsa(&two);
    assert_eq!(code, 0, "{out2}");
    assert!(final_value(&out2) > 9.3, "{out2}");

    // A checkpoint: 4 iterations, then the same command with 8 goes on from 4 and ends
    // where the run of 8 in one go ended.
    let cp = dir.join("run.json");
    let cp = cp.to_str().unwrap();
    let mut half = base.to_vec();
    half[3] = "4";
    half.extend(["--checkpoint", cp]);
    // A run of 4 with the 8-iteration gains is not the same run: refused on resume.
    let (out_half, code) = spsa(&half);
    assert_eq!(code, 0, "{out_half}");
    let mut full = base.to_vec();
    full.extend(["--checkpoint", cp]);
    let (refused, code) = spsa(&full);
    assert_eq!(code, 2, "other gains must be refused: {refused}");
    assert!(refused.contains("checkpoint"), "{refused}");
    // Interrupting is modelled by a checkpoint of the same run written part-way.
    let cp2 = dir.join("run2.json");
    let cp2 = cp2.to_str().unwrap();
    let mut resumable = base.to_vec();
    resumable.extend(["--checkpoint", cp2]);
    let (first, code) = spsa(&resumable);
    assert_eq!(code, 0, "{first}");
    let text = std::fs::read_to_string(cp2).unwrap();
    let mut state: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(state["k"], 8);
    let history = state["history"].as_array().unwrap().clone();
    assert_eq!(history.len(), 8);
    // Roll the checkpoint back to iteration 4 and resume.
    state["k"] = 4.into();
    state["params"][0]["theta"] = history[3]["theta"][0].clone();
    state["history"] = serde_json::Value::Array(history[..4].to_vec());
    std::fs::write(cp2, serde_json::to_string(&state).unwrap()).unwrap();
    let (resumed, code) = spsa(&resumable);
    assert_eq!(code, 0, "{resumed}");
    assert!(resumed.contains("resuming"), "{resumed}");
    assert_eq!(final_value(&resumed), final_value(&first), "{resumed}");
    assert_eq!(
        final_value(&first),
        one,
        "the checkpoint does not change the run"
    );
}

#[test]
fn parameters_from_the_engine_and_bad_input() {
    let (out, code) = spsa(&["--print-params"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("Skill Level,20,0,20,1,0.002"), "{out}");
    assert!(out.contains("Hash,16,1,1024,"), "{out}");
    let (out, code) = spsa(&[
        "--tune",
        "Skill Level",
        "--iterations",
        "2",
        "--nodes",
        "10",
    ]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("start: Skill Level=20.00"), "{out}");
    let (out, code) = spsa(&["--tune", "Nonexistent", "--iterations", "2"]);
    assert_eq!(code, 2, "{out}");
    assert!(out.contains("declares no option 'Nonexistent'"), "{out}");
    let (out, code) = spsa(&["--iterations", "2"]);
    assert_eq!(code, 2, "{out}");
}
