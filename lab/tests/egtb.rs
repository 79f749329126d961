//! `jiang-lab egtb build`: the command writes a table per ending and per capture
//! successor, the same bytes on every run, reuses tables already built, and refuses
//! names it does not know; `jiang-lab egtb search-check` agrees with good tables and
//! fails on a wrong one.

use std::path::PathBuf;
use std::process::Command;

fn lab() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jiang-lab"))
}

fn dir(tag: &str) -> PathBuf {
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("egtb-cli-{tag}"));
    let _ = std::fs::remove_dir_all(&d);
    d
}

#[test]
fn build_writes_deterministic_tables_with_their_successors() {
    let (a, b) = (dir("a"), dir("b"));
    for d in [&a, &b] {
        let out = lab()
            .args(["egtb", "build", "KRKA", "KPK", "--out"])
            .arg(d)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stdout).to_string();
        for name in ["KRK ", "KRKA ", "KPK "] {
            assert!(text.lines().any(|l| l.starts_with(name)), "{name}: {text}");
        }
    }
    for name in ["KRK.jtb", "KRKA.jtb", "KPK.jtb"] {
        let x = std::fs::read(a.join(name)).unwrap();
        assert_eq!(x, std::fs::read(b.join(name)).unwrap(), "{name}");
        assert!(jiang::xiangqi::egtb::read_table(&a.join(name)).is_ok());
    }
    // Built already: nothing is solved again.
    let out = lab()
        .args(["egtb", "build", "KRKA", "--out"])
        .arg(&a)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).trim().is_empty());
    // A group name stands for its endings.
    let group = jiang_lab::xiangqi::egtb::endings_of("one-attacker-4").unwrap();
    assert_eq!(group.len(), 4 * 5);
    assert!(group.iter().all(|e| e.piece_count() <= 4));
}

#[test]
fn unknown_names_are_refused() {
    let out = lab()
        .args(["egtb", "build", "KRRKA", "--out"])
        .arg(dir("bad"))
        .output()
        .unwrap();
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("KRRKA"));
}

#[test]
fn search_check_agrees_and_fails_on_a_wrong_table() {
    let d = dir("search-check");
    let built = lab()
        .args(["egtb", "build", "KRKA", "KHK", "--out"])
        .arg(&d)
        .output()
        .unwrap();
    assert!(built.status.success());
    let check = |names: &[&str]| {
        lab()
            .args(["egtb", "search-check"])
            .args(names)
            .args([
                "--positions",
                "200",
                "--seed",
                "7",
                "--threads",
                "2",
                "--tables",
            ])
            .arg(&d)
            .output()
            .unwrap()
    };
    let out = check(&["KRKA", "KRK"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let total = text
        .lines()
        .find(|l| l.contains(" endings, "))
        .unwrap_or("");
    assert!(total.starts_with("2 endings, 400 positions"), "{total}");
    assert!(total.contains("disagreements 0"), "{total}");
    // KRK's file under KHK's name: the search finds mates that table denies (KHK has
    // draws), or misses ones it claims: the check must fail.
    std::fs::copy(d.join("KRK.jtb"), d.join("KHK.jtb")).unwrap();
    let out = check(&["KHK"]);
    let text = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(!out.status.success(), "{text}");
    assert!(
        text.lines().any(|l| l.starts_with("disagreement: KHK ")),
        "{text}"
    );
}
