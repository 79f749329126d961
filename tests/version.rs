//! `jiang --version` names the version, the build (commit date and hash, as Stockfish's
//! `dev-YYYYMMDD-commit`) and the embedded network (`nn-` and 12 hex digits of its
//! SHA-256), and `id name` carries the same build; the build script's SHA-256 is checked
//! against the FIPS 180-4 examples.

#[path = "../build/sha256.rs"]
mod sha256;

use std::process::Command;

#[test]
fn sha256_matches_the_standard_examples() {
    // FIPS 180-4 / NIST CSRC example values.
    let cases: [(&[u8], &str); 3] = [
        (
            b"abc",
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        ),
        (
            b"",
            "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        ),
        (
            b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
        ),
    ];
    for (input, digest) in cases {
        assert_eq!(sha256::hex(&sha256::sha256(input)), digest);
    }
    // A million 'a's: many blocks.
    assert_eq!(
        sha256::hex(&sha256::sha256(&vec![b'a'; 1_000_000])),
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    );
}

#[test]
fn version_names_the_build_and_the_network() {
    let out = Command::new(env!("CARGO_BIN_EXE_jiang"))
        .arg("--version")
        .output()
        .expect("cannot run jiang --version");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let line = text.trim_end();
    let network = format!(
        "nn-{}",
        &sha256::hex(&sha256::sha256(jiang::xiangqi::nnue::EMBEDDED))[..12]
    );
    assert_eq!(jiang::xiangqi::nnue::EMBEDDED_ID, network);
    let version = concat!("jiang ", env!("CARGO_PKG_VERSION"));
    let build = line
        .strip_prefix(version)
        .and_then(|rest| rest.strip_suffix(&format!(", network {network}")))
        .unwrap_or_else(|| panic!("'{line}' is not '{version}[ BUILD], network {network}'"));
    // Nothing for a release (a commit tagged vVERSION), ` dev-YYYYMMDD-abcdef1` from git,
    // or ` (commit unknown)` without it.
    let dev = build.strip_prefix(" dev-").and_then(|b| b.split_once('-'));
    match dev {
        Some((date, commit)) => {
            assert!(
                date.len() == 8 && date.bytes().all(|b| b.is_ascii_digit()),
                "date in '{line}'"
            );
            assert!(
                commit.len() >= 7 && commit.bytes().all(|b| b.is_ascii_hexdigit()),
                "commit in '{line}'"
            );
        }
        None => assert!(
            build.is_empty() || build == " (commit unknown)",
            "build in '{line}'"
        ),
    }
    assert_eq!(
        jiang::protocol::ENGINE_NAME,
        format!("{version}{build}"),
        "id name and --version differ"
    );
}
