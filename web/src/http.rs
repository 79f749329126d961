//! A small HTTP/1.1 server: one thread per connection, keep-alive, `Content-Length`
//! bodies, bounded heads, bodies and connections. It replaced `tiny_http`, whose shared
//! pool of connection threads could leave a new connection waiting behind browsers'
//! idle keep-alive connections: headless Chromium's first page load hung on one script
//! in about a third of fresh starts (`web/tests/browser.sh`).

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Longest request head (request line and headers), bytes.
const MAX_HEAD: usize = 32 * 1024;
/// Most connections served at once; more are answered 503 and closed.
const MAX_CONNECTIONS: usize = 256;
/// How long a connection may sit idle between requests, or stall inside one.
const IDLE: Duration = Duration::from_secs(30);

/// One request, answered through [`Exchange::respond`] or taken over as a raw stream
/// ([`Exchange::with_stream`]).
pub struct Exchange<'a> {
    /// `GET`, `POST`, ... as sent.
    pub method: String,
    /// The request target: path, query and fragment as sent.
    pub url: String,
    /// The body (empty when there was none or it was larger than the server's limit for
    /// this target: then [`Exchange::declared_length`] is over the limit).
    pub body: Vec<u8>,
    /// The `Content-Length` the client declared.
    pub declared_length: Option<usize>,
    stream: &'a mut TcpStream,
    keep_alive: bool,
    answered: bool,
}

impl Exchange<'_> {
    /// Sends a whole response: status, extra headers, body (not for `HEAD`).
    pub fn respond(&mut self, status: u16, headers: &[(&str, &str)], body: &[u8]) {
        let mut head = format!("HTTP/1.1 {status} {}\r\n", reason(status));
        for (name, value) in headers {
            head.push_str(&format!("{name}: {value}\r\n"));
        }
        let connection = if self.keep_alive {
            "keep-alive"
        } else {
            "close"
        };
        head.push_str(&format!(
            "Content-Length: {}\r\nConnection: {connection}\r\n\r\n",
            body.len()
        ));
        let sent = self
            .stream
            .write_all(head.as_bytes())
            .and_then(|_| {
                if self.method == "HEAD" {
                    Ok(())
                } else {
                    self.stream.write_all(body)
                }
            })
            .and_then(|_| self.stream.flush());
        if let Err(e) = sent {
            log::debug!("answering {}: {e}", self.url);
            self.keep_alive = false;
        }
        self.answered = true;
    }

    /// Runs `write` on the connection for a response it writes itself (an event
    /// stream, with its own head); the connection is closed afterwards.
    pub fn with_stream(&mut self, write: impl FnOnce(&mut TcpStream)) {
        self.keep_alive = false;
        self.answered = true;
        write(self.stream);
    }
}

/// A listening server; [`HttpServer::run`] serves until the process ends.
pub struct HttpServer {
    listener: TcpListener,
}

impl HttpServer {
    /// Listens on `addr` (port 0: any free one).
    pub fn bind(addr: SocketAddr) -> io::Result<HttpServer> {
        Ok(HttpServer {
            listener: TcpListener::bind(addr)?,
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Accepts connections and serves each on its own thread with `handler`; a body is
    /// read when it is at most `body_limit(url)` bytes.
    pub fn run<H>(self, body_limit: fn(&str) -> usize, handler: H)
    where
        H: Fn(&mut Exchange<'_>) + Send + Sync + 'static,
    {
        let handler = Arc::new(handler);
        let open = Arc::new(AtomicUsize::new(0));
        for conn in self.listener.incoming() {
            let mut stream = match conn {
                Ok(s) => s,
                Err(e) => {
                    log::warn!("accepting a connection: {e}");
                    std::thread::sleep(Duration::from_millis(10));
                    continue;
                }
            };
            if open.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                open.fetch_sub(1, Ordering::SeqCst);
                let _ = stream.write_all(
                    b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                );
                continue;
            }
            let (handler, open) = (Arc::clone(&handler), Arc::clone(&open));
            let spawned = std::thread::Builder::new()
                .name("http-conn".into())
                .spawn(move || {
                    serve_connection(stream, body_limit, &*handler);
                    open.fetch_sub(1, Ordering::SeqCst);
                });
            if let Err(e) = spawned {
                log::error!("no thread for a connection: {e}");
            }
        }
    }
}

/// A request head, parsed.
struct Head {
    method: String,
    url: String,
    content_length: Option<usize>,
    chunked: bool,
    keep_alive: bool,
}

/// Why a head cannot be served.
enum HeadError {
    /// The connection ended or went idle before a request began: close quietly.
    Closed,
    /// A bad request: answer this status and close.
    Bad(u16, &'static str),
}

fn serve_connection(
    stream: TcpStream,
    body_limit: fn(&str) -> usize,
    handler: &dyn Fn(&mut Exchange<'_>),
) {
    let _ = stream.set_read_timeout(Some(IDLE));
    let _ = stream.set_write_timeout(Some(IDLE));
    let _ = stream.set_nodelay(true);
    let Ok(mut writer) = stream.try_clone() else {
        return;
    };
    let mut reader = BufReader::new(stream);
    loop {
        let head = match read_head(&mut reader) {
            Ok(h) => h,
            Err(HeadError::Closed) => return,
            Err(HeadError::Bad(status, why)) => {
                let body = format!("{{\"error\":\"{why}\"}}");
                let _ = writer.write_all(
                    format!(
                        "HTTP/1.1 {status} {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                        reason(status),
                        body.len()
                    )
                    .as_bytes(),
                );
                return;
            }
        };
        let mut keep_alive = head.keep_alive;
        let mut body = Vec::new();
        if head.chunked {
            // Not needed by the page; refuse rather than guess where the body ends.
            keep_alive = false;
        } else if let Some(n) = head.content_length {
            if n <= body_limit(&head.url) {
                if (&mut reader).take(n as u64).read_to_end(&mut body).is_err() || body.len() < n {
                    return;
                }
            } else {
                // The handler refuses it by its declared length; the rest is not read.
                keep_alive = false;
            }
        }
        if head.chunked {
            let why = b"{\"error\":\"chunked request bodies are not supported\"}";
            let _ = writer.write_all(
                format!(
                    "HTTP/1.1 411 Length Required\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    why.len()
                )
                .as_bytes(),
            );
            let _ = writer.write_all(why);
            return;
        }
        let mut exchange = Exchange {
            method: head.method,
            url: head.url,
            body,
            declared_length: head.content_length,
            stream: &mut writer,
            keep_alive,
            answered: false,
        };
        handler(&mut exchange);
        if !(exchange.answered && exchange.keep_alive) {
            let _ = writer.shutdown(std::net::Shutdown::Both);
            return;
        }
    }
}

fn read_head(reader: &mut BufReader<TcpStream>) -> Result<Head, HeadError> {
    let mut lines = Vec::new();
    let mut total = 0usize;
    loop {
        let mut line = Vec::new();
        let n = reader
            .by_ref()
            .take((MAX_HEAD - total + 1) as u64)
            .read_until(b'\n', &mut line)
            .map_err(|_| HeadError::Closed)?;
        if n == 0 {
            return Err(if lines.is_empty() {
                HeadError::Closed
            } else {
                HeadError::Bad(400, "the request ends inside its head")
            });
        }
        total += n;
        if total > MAX_HEAD {
            return Err(HeadError::Bad(431, "request head too large"));
        }
        while line.last().is_some_and(|b| *b == b'\n' || *b == b'\r') {
            line.pop();
        }
        if line.is_empty() {
            if lines.is_empty() {
                continue; // blank lines before a request are allowed
            }
            break;
        }
        lines.push(line);
    }
    let first = String::from_utf8_lossy(&lines[0]).into_owned();
    let mut parts = first.split(' ');
    let (Some(method), Some(url), Some(version), None) =
        (parts.next(), parts.next(), parts.next(), parts.next())
    else {
        return Err(HeadError::Bad(400, "malformed request line"));
    };
    if method.is_empty() || !method.bytes().all(|b| b.is_ascii_uppercase()) || !url.starts_with('/')
    {
        return Err(HeadError::Bad(400, "malformed request line"));
    }
    let http10 = match version {
        "HTTP/1.1" => false,
        "HTTP/1.0" => true,
        _ => return Err(HeadError::Bad(505, "HTTP version not supported")),
    };
    let mut head = Head {
        method: method.to_string(),
        url: url.to_string(),
        content_length: None,
        chunked: false,
        keep_alive: !http10,
    };
    for raw in &lines[1..] {
        let text = String::from_utf8_lossy(raw);
        let Some((name, value)) = text.split_once(':') else {
            return Err(HeadError::Bad(400, "malformed header"));
        };
        let value = value.trim();
        match name.trim().to_ascii_lowercase().as_str() {
            "content-length" => {
                let n = value
                    .parse()
                    .map_err(|_| HeadError::Bad(400, "bad Content-Length"))?;
                if head.content_length.is_some_and(|m| m != n) {
                    return Err(HeadError::Bad(400, "two Content-Lengths"));
                }
                head.content_length = Some(n);
            }
            "transfer-encoding" => head.chunked = !value.eq_ignore_ascii_case("identity"),
            "connection" => {
                let v = value.to_ascii_lowercase();
                if v.contains("close") {
                    head.keep_alive = false;
                } else if v.contains("keep-alive") {
                    head.keep_alive = true;
                }
            }
            _ => {}
        }
    }
    Ok(head)
}

/// The reason phrase of the statuses the server sends.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        201 => "Created",
        204 => "No Content",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        429 => "Too Many Requests",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}
