//! The server's HTTP layer: requests on one kept-alive connection are answered in turn,
//! and a new connection is served at once however many idle keep-alive connections a
//! browser holds open (the pool of the HTTP library used before could leave it waiting:
//! the first page load of headless Chromium hung on one script about a third of the time).

mod common;

use common::{parse_response, Server};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// Reads one response with a `Content-Length` body from `reader`.
fn read_response(reader: &mut BufReader<TcpStream>) -> (u16, String) {
    let mut head = Vec::new();
    loop {
        let mut line = String::new();
        reader.read_line(&mut line).expect("read a head line");
        assert!(!line.is_empty(), "the connection closed inside a response");
        head.extend_from_slice(line.as_bytes());
        if line == "\r\n" {
            break;
        }
    }
    let text = String::from_utf8_lossy(&head).to_string();
    let length: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("Content-Length: "))
        .and_then(|v| v.trim().parse().ok())
        .expect("a Content-Length");
    let mut body = vec![0; length];
    reader.read_exact(&mut body).expect("the body");
    head.extend_from_slice(&body);
    parse_response(&head)
}

#[test]
fn one_connection_carries_several_requests() {
    let s = Server::start();
    let stream = TcpStream::connect(&s.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let mut writer = stream.try_clone().unwrap();
    let mut reader = BufReader::new(stream);
    for path in ["/api/games", "/app.js", "/api/nothing-here", "/"] {
        write!(writer, "GET {path} HTTP/1.1\r\nHost: x\r\n\r\n").unwrap();
        let (status, body) = read_response(&mut reader);
        let expected = if path == "/api/nothing-here" {
            404
        } else {
            200
        };
        assert_eq!(status, expected, "{path}: {body}");
        assert!(!body.is_empty(), "{path}");
    }
}

#[test]
fn idle_keep_alive_connections_do_not_hold_up_a_new_one() {
    let s = Server::start();
    // Twenty connections that each had one request answered and now sit idle.
    let mut idle = Vec::new();
    for _ in 0..20 {
        let stream = TcpStream::connect(&s.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut writer = stream.try_clone().unwrap();
        let mut reader = BufReader::new(stream);
        writer
            .write_all(b"GET /style.css HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        assert_eq!(read_response(&mut reader).0, 200);
        idle.push((writer, reader));
    }
    // And twenty more that opened and sent nothing yet (browsers' speculative sockets).
    let silent: Vec<TcpStream> = (0..20)
        .map(|_| TcpStream::connect(&s.addr).unwrap())
        .collect();
    let t = Instant::now();
    let (status, body) = s.request("GET", "/api/games", None);
    assert_eq!(status, 200, "{body}");
    assert!(
        t.elapsed() < Duration::from_secs(5),
        "a new connection waited {:?}",
        t.elapsed()
    );
    drop(silent);
    // The idle ones are still served.
    for (writer, reader) in &mut idle {
        writer
            .write_all(b"GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
            .unwrap();
        assert_eq!(read_response(reader).0, 200);
    }
}
