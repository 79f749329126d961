//! 10,000 malformed requests on raw TCP streams: random bytes, broken request lines and headers,
//! lying lengths, huge headers, random paths and bodies. The server must keep answering,
//! and every well-formed API request must get a 2xx/4xx JSON answer, never a 5xx.

mod common;
use common::*;
use std::io::{Read, Write};
use std::net::{Shutdown, TcpStream};
use std::time::Duration;

/// Sends raw bytes, closes the writing side, reads whatever comes back.
fn send_raw(addr: &str, bytes: &[u8]) -> Vec<u8> {
    let Ok(mut s) = TcpStream::connect(addr) else {
        panic!("the server stopped accepting connections");
    };
    s.set_read_timeout(Some(Duration::from_secs(5))).ok();
    s.set_write_timeout(Some(Duration::from_secs(5))).ok();
    let _ = s.write_all(bytes);
    let _ = s.shutdown(Shutdown::Write);
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    out
}

fn random_text(rng: &mut Rng, len: usize, alphabet: &[u8]) -> Vec<u8> {
    (0..len)
        .map(|_| alphabet[rng.below(alphabet.len())])
        .collect()
}

const PATHS: [&str; 10] = [
    "/api/sessions",
    "/api/sessions/x/move",
    "/api/games",
    "/api/sessions/ID",
    "/api/sessions/ID/move",
    "/api/sessions/ID/position",
    "/api/sessions/ID/go",
    "/api/sessions/ID/undo",
    "/api/sessions/ID/events",
    "/api/sessions/ID/stop",
];

#[test]
fn malformed_requests_never_stop_the_server() {
    let mut server = Server::start();
    let st = server.create("xiangqi");
    let id = st["id"].as_str().unwrap().to_string();
    let mut rng = Rng(0xdead_beef_1234);
    let json_bits: &[u8] = b"{}[]\":,0123456789truefalsenull gamemovefenxiangqi\\u00";
    for n in 0..10_000 {
        let kind = rng.below(8);
        let bytes: Vec<u8> = match kind {
            0 => {
                let len = rng.below(2000);
                (0..len).map(|_| rng.below(256) as u8).collect()
            }
            1 => {
                let mut v = b"GET ".to_vec();
                let len = rng.below(300);
                v.extend(random_text(&mut rng, len, b"/%.?#&=abc\x00\xff \t"));
                v.extend(b" HTTP/1.1\r\n\r\n");
                v
            }
            2 => {
                let len = rng.below(100_000);
                format!("POST /api/sessions HTTP/1.1\r\nContent-Length: {len}\r\n\r\n{{\"game\":")
                    .into_bytes()
            }
            3 => {
                let mut v = b"GET / HTTP/1.1\r\nX-Big: ".to_vec();
                v.extend(vec![b'a'; rng.below(200_000)]);
                v.extend(b"\r\n\r\n");
                v
            }
            4 => {
                let methods = [
                    "GET", "POST", "PUT", "DELETE", "PATCH", "OPTIONS", "BREW", "",
                ];
                let m = methods[rng.below(methods.len())];
                let v = ["HTTP/1.1", "HTTP/1.0", "HTTP/9.9", "", "FOO"][rng.below(5)];
                format!("{m} /api/games {v}\r\n\r\n").into_bytes()
            }
            5 => b"POST /api/sessions HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nxx\r\n"
                .to_vec(),
            _ => {
                // Well-formed HTTP with a random JSON-ish body to a real endpoint.
                let path = PATHS[rng.below(PATHS.len())].replace("ID", &id);
                let len = rng.below(200);
                let body = random_text(&mut rng, len, json_bits);
                let method = ["POST", "GET", "DELETE"][rng.below(3)];
                if method == "DELETE" || path.ends_with("/go") {
                    // Keep the board and the machine for the rest of the run.
                    continue;
                }
                let mut v = format!(
                    "{method} {path} HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: {}\r\n\r\n",
                    body.len()
                )
                .into_bytes();
                v.extend(&body);
                let answer = send_raw(&server.addr, &v);
                let (status, text) = parse_response(&answer);
                if path.ends_with("/events") && method == "GET" {
                    assert!(status == 409 || status == 200, "events: {status}");
                    continue;
                }
                assert!(
                    (200..300).contains(&status) || (400..500).contains(&status),
                    "{method} {path} {:?}: status {status} {text}",
                    String::from_utf8_lossy(&body)
                );
                assert!(
                    serde_json::from_str::<serde_json::Value>(&text).is_ok(),
                    "{text}"
                );
                continue;
            }
        };
        send_raw(&server.addr, &bytes);
        if n % 1000 == 0 {
            assert!(server.alive(), "the server died after {n} requests");
            assert_eq!(
                server.request("GET", "/api/games", None).0,
                200,
                "after {n}"
            );
        }
    }
    assert!(server.alive());
    assert_eq!(server.request("GET", "/", None).0, 200);
    let (status, st) = server.json("GET", &format!("/api/sessions/{id}"), None);
    assert_eq!(status, 200);
    assert!(st["fen"].is_string());
}
