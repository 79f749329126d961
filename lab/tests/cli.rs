//! Every job of the `jiang-lab` binary starts and does its work on a tiny input: the
//! entry points stay wired to their modules (the jobs themselves take minutes to hours).

use std::path::PathBuf;
use std::process::{Command, Output};

fn lab(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jiang-lab"))
        .args(args)
        .output()
        .expect("jiang-lab runs")
}

fn stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("text")
}

/// A scratch directory of this test process.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("jiang-lab-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn datagen_then_train_one_epoch() {
    let data = stdout(&lab(&["datagen", "3", "--nodes", "1000", "--seed", "7"]));
    assert!(data.lines().count() > 0);
    for line in data.lines() {
        assert_eq!(line.split(" | ").count(), 3, "{line}");
    }
    let dir = scratch("train");
    let (data_path, net_path) = (dir.join("data.txt"), dir.join("out.nnue"));
    std::fs::write(&data_path, &data).expect("write data");
    let out = lab(&[
        "train",
        net_path.to_str().unwrap(),
        data_path.to_str().unwrap(),
        "--epochs",
        "1",
        "--threads",
        "1",
    ]);
    stdout(&out);
    let net = std::fs::read(&net_path).expect("network written");
    assert!(net.starts_with(b"JIANGNN1"));
    // The same network trained on with output buckets: every bucket starts from its output.
    let bucketed = dir.join("buckets.nnue");
    let train_buckets = |buckets: &str| {
        lab(&[
            "train",
            bucketed.to_str().unwrap(),
            data_path.to_str().unwrap(),
            "--epochs",
            "1",
            "--init",
            net_path.to_str().unwrap(),
            "--output-buckets",
            buckets,
        ])
    };
    stdout(&train_buckets("8"));
    let net = std::fs::read(&bucketed).expect("bucketed network written");
    let net = jiang::xiangqi::nnue::Network::from_bytes(&net).expect("the engine reads it");
    assert_eq!(net.w2.len(), jiang::xiangqi::nnue::OUTPUT_BUCKETS);
    assert!(!train_buckets("3").status.success());
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn tune_entries_of_the_three_games() {
    let out = lab(&[
        "tune",
        "baroque",
        "match",
        "--pairs",
        "1",
        "--nodes",
        "200",
        "--max-plies",
        "20",
    ]);
    assert!(stdout(&out).contains("of 2, score"));
    assert!(
        stdout(&lab(&["tune", "fairychess", "weights"]))
            .lines()
            .count()
            > 10
    );
    // The Xiangqi tuner needs a games file.
    assert_eq!(lab(&["tune", "xiangqi"]).status.code(), Some(2));
    assert_eq!(lab(&["tune", "chess"]).status.code(), Some(2));
}

#[test]
fn threechess_match_perft_counts_the_reference_numbers() {
    let text = stdout(&lab(&["threechess-match", "perft", "3"]));
    let counts: Vec<&str> = text
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap_or(""))
        .collect();
    assert_eq!(counts, ["20", "400", "8000"]);
}

#[test]
fn unknown_jobs_and_options_are_refused() {
    assert_eq!(lab(&["tabulate"]).status.code(), Some(2));
    assert_eq!(lab(&[]).status.code(), Some(2));
    let out = lab(&["tune", "baroque", "match", "--pair", "1"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option --pair"));
    assert!(stdout(&lab(&["--help"])).contains("jiang-lab threechess-match"));
}

#[test]
fn every_job_prints_its_usage_on_help() {
    for job in [
        &["datagen"][..],
        &["datagen", "--perturb", "x"],
        &["train"],
        &["tune"],
        &["tune", "xiangqi"],
        &["tune", "fairychess"],
        &["tune", "fairychess", "selfplay"],
        &["tune", "baroque"],
        &["tune", "baroque", "fit"],
        &["book"],
        &["book", "build"],
        &["book", "show"],
        &["census"],
        &["microchess-models"],
        &["threechess-match"],
        &["threechess-match", "fit"],
    ] {
        let args: Vec<&str> = job.iter().copied().chain(["--help"]).collect();
        let text = stdout(&lab(&args));
        let name = job
            .iter()
            .find(|w| !w.starts_with('-'))
            .copied()
            .unwrap_or("");
        assert!(
            text.contains(&format!("jiang-lab {name}")),
            "{args:?}: {text}"
        );
    }
    // Positional arguments are checked as options are.
    let out = lab(&["tune", "fairychess", "selfplay", "1", "2", "3", "imba"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unexpected argument 'imba'"));
}
