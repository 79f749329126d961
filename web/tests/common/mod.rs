//! A `jiang-web` server started on a free port for one test, and a minimal HTTP client
//! over a raw TCP stream (the tests need no HTTP library).

#![allow(dead_code)]

use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// The server process; killed when dropped.
pub struct Server {
    child: Child,
    pub addr: String,
}

impl Server {
    /// Starts `jiang-web --port 0` and reads the address it prints.
    pub fn start() -> Server {
        Server::start_with(&[])
    }

    /// Starts `jiang-web --port 0 ARGS`.
    pub fn start_with(args: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_jiang-web"))
            .args(["--port", "0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start jiang-web");
        let stdout = child.stdout.take().expect("stdout");
        let mut line = String::new();
        BufReader::new(stdout)
            .read_line(&mut line)
            .expect("read the address");
        let addr = line
            .split("http://")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("no address in {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The server's resident memory, KiB (Linux), if it can be read.
    pub fn resident_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Whether the process is still running.
    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }

    /// Sends one request; returns the status and the body (chunked bodies decoded).
    pub fn request(&self, method: &str, path: &str, body: Option<&str>) -> (u16, String) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(120))).ok();
        let body = body.unwrap_or("");
        let req = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.addr,
            body.len()
        );
        s.write_all(req.as_bytes()).expect("send");
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        parse_response(&raw)
    }

    /// Sends raw bytes as the body; returns the status and the parsed JSON answer.
    pub fn bytes(&self, method: &str, path: &str, body: &[u8]) -> (u16, Value) {
        let mut s = TcpStream::connect(&self.addr).expect("connect");
        s.set_read_timeout(Some(Duration::from_secs(120))).ok();
        let head = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/octet-stream\r\nContent-Length: {}\r\n\r\n",
            self.addr,
            body.len()
        );
        s.write_all(head.as_bytes()).expect("send");
        // The server may answer (a refusal) before reading all of a large body.
        let _ = s.write_all(body);
        let mut raw = Vec::new();
        let _ = s.read_to_end(&mut raw);
        let (status, answer) = parse_response(&raw);
        let value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {answer:?}"));
        (status, value)
    }

    /// A JSON request; returns the status and the parsed body.
    pub fn json(&self, method: &str, path: &str, body: Option<Value>) -> (u16, Value) {
        let text = body.map(|b| b.to_string());
        let (status, answer) = self.request(method, path, text.as_deref());
        let value = serde_json::from_str(&answer)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {answer:?}"));
        (status, value)
    }

    /// Creates a session of `game`; returns its state.
    pub fn create(&self, game: &str) -> Value {
        let (status, st) = self.json(
            "POST",
            "/api/sessions",
            Some(serde_json::json!({ "game": game })),
        );
        assert_eq!(status, 201, "create {game}: {st}");
        st
    }

    /// Reads a session's event stream to its end; returns the events (name, data).
    pub fn events(&self, id: &str) -> Vec<(String, Value)> {
        let (status, text) = self.request("GET", &format!("/api/sessions/{id}/events"), None);
        assert_eq!(status, 200, "events: {text}");
        let mut out = Vec::new();
        for block in text.split("\n\n") {
            let mut name = None;
            let mut data = None;
            for line in block.lines() {
                if let Some(n) = line.strip_prefix("event: ") {
                    name = Some(n.to_string());
                } else if let Some(d) = line.strip_prefix("data: ") {
                    data = serde_json::from_str(d).ok();
                }
            }
            if let (Some(n), Some(d)) = (name, data) {
                out.push((n, d));
            }
        }
        out
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Status and body of a raw HTTP response (chunks decoded as bytes, so that a chunk may
/// end inside a character).
pub fn parse_response(raw: &[u8]) -> (u16, String) {
    let Some(split) = raw.windows(4).position(|w| w == b"\r\n\r\n") else {
        return (0, String::from_utf8_lossy(raw).to_string());
    };
    let head = String::from_utf8_lossy(&raw[..split]).to_string();
    let body = &raw[split + 4..];
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    if !chunked {
        return (status, String::from_utf8_lossy(body).to_string());
    }
    let mut out = Vec::new();
    let mut rest = body;
    while let Some(eol) = rest.windows(2).position(|w| w == b"\r\n") {
        let size = String::from_utf8_lossy(&rest[..eol]).to_string();
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        let after = &rest[eol + 2..];
        if n == 0 || after.len() < n {
            break;
        }
        out.extend_from_slice(&after[..n]);
        rest = &after[n..];
        while rest.starts_with(b"\r\n") {
            rest = &rest[2..];
        }
    }
    (status, String::from_utf8_lossy(&out).to_string())
}

/// A small deterministic generator (xorshift) for random movers.
pub struct Rng(pub u64);

impl Rng {
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// The legal moves of a state.
pub fn legal(st: &Value) -> Vec<String> {
    st["legal"]
        .as_array()
        .expect("legal moves")
        .iter()
        .map(|m| m.as_str().expect("a move").to_string())
        .collect()
}

pub const GAMES: [&str; 5] = [
    "xiangqi",
    "microchess",
    "fairychess",
    "baroque",
    "threechess",
];
