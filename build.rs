//! Build script (standard library only): stamps the build with what players quote in bug
//! reports, as Stockfish's `Stockfish dev-YYYYMMDD-commit` does.
//!
//! - `JIANG_VERSION`: the crate's version and the build: `0.1.0 dev-YYYYMMDD-abcdef1`
//!   (the commit's date and short hash) from `git`, or from the environment variables
//!   `JIANG_COMMIT` and `JIANG_COMMIT_DATE` (`YYYYMMDD`) where they are set (a build from
//!   a source archive, which has no `.git`); `0.1.0` alone for a commit tagged `v0.1.0`
//!   (a release); `0.1.0 (commit unknown)` when nothing is known. A build without git
//!   still builds.
//! - `JIANG_NETWORK_ID`: `nn-` and the first 12 hex digits of the SHA-256 of the embedded
//!   network file (`sha256sum src/xiangqi/nnue/default.nnue` gives the same digits).

use std::path::Path;
use std::process::Command;

#[path = "build/sha256.rs"]
mod sha256;

const NETWORK: &str = "src/xiangqi/nnue/default.nnue";

/// The trimmed output of `git ARGS`, if git ran and succeeded.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    if !out.status.success() {
        return None;
    }
    let text = String::from_utf8(out.stdout).ok()?;
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

/// What is known of the build.
enum Build {
    /// A commit tagged `v` and the crate's version.
    Release,
    /// `dev-DATE-COMMIT`.
    Dev(String),
    /// No git and no environment variables.
    Unknown,
}

fn build_id() -> Build {
    for var in ["JIANG_COMMIT", "JIANG_COMMIT_DATE"] {
        println!("cargo:rerun-if-env-changed={var}");
    }
    let from_env = (
        std::env::var("JIANG_COMMIT").ok().filter(|v| !v.is_empty()),
        std::env::var("JIANG_COMMIT_DATE")
            .ok()
            .filter(|v| !v.is_empty()),
    );
    if let (Some(commit), Some(date)) = from_env {
        return Build::Dev(format!("dev-{date}-{commit}"));
    }
    // Only a checkout of this very package counts (not a git repository around an
    // unpacked source archive).
    let top = git(&["rev-parse", "--show-toplevel"]);
    let here = std::env::var("CARGO_MANIFEST_DIR").ok();
    let ours = match (top, here) {
        (Some(top), Some(here)) => {
            Path::new(&top).canonicalize().ok() == Path::new(&here).canonicalize().ok()
        }
        _ => false,
    };
    if !ours {
        return Build::Unknown;
    }
    // Rebuild the stamp when HEAD moves or a tag is made: HEAD itself, the branch it
    // names, packed refs, the tags' folder.
    let mut watched = vec![
        "HEAD".to_string(),
        "packed-refs".to_string(),
        "refs/tags".to_string(),
    ];
    if let Some(branch) = git(&["symbolic-ref", "-q", "HEAD"]) {
        watched.push(branch);
    }
    for name in watched {
        if let Some(path) = git(&["rev-parse", "--git-path", &name]) {
            if Path::new(&path).exists() {
                println!("cargo:rerun-if-changed={path}");
            }
        }
    }
    let tag = format!("v{}", env!("CARGO_PKG_VERSION"));
    if git(&["tag", "--points-at", "HEAD", "--list", &tag]).is_some() {
        return Build::Release;
    }
    match git(&[
        "show",
        "-s",
        "--date=format:%Y%m%d",
        "--format=%cd-%h",
        "--abbrev=7",
        "HEAD",
    ]) {
        Some(stamp) => Build::Dev(format!("dev-{stamp}")),
        None => Build::Unknown,
    }
}

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/sha256.rs");
    println!("cargo:rerun-if-changed={NETWORK}");
    let version = env!("CARGO_PKG_VERSION");
    let version = match build_id() {
        Build::Release => version.to_string(),
        Build::Dev(id) => format!("{version} {id}"),
        Build::Unknown => format!("{version} (commit unknown)"),
    };
    println!("cargo:rustc-env=JIANG_VERSION={version}");
    let network = match std::fs::read(NETWORK) {
        Ok(bytes) => format!("nn-{}", &sha256::hex(&sha256::sha256(&bytes))[..12]),
        Err(e) => panic!("cannot read the network {NETWORK}: {e}"),
    };
    println!("cargo:rustc-env=JIANG_NETWORK_ID={network}");
}
