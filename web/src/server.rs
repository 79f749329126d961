//! HTTP plumbing: requests from [`crate::http`] (a thread per connection), their size
//! bounded, the embedded assets served, `/api/...` handed to [`crate::api`], and
//! server-sent-event streams of searches kept open.

use crate::api::{self, MAX_BODY};
use crate::assets;
use crate::http::{Exchange, HttpServer};
use crate::records;
use crate::search::Searches;
use crate::sessions::{lock, Store};
use std::io::Write;
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// Most event streams open at once (each holds a connection while its search runs).
const MAX_STREAMS: usize = 8;
/// How often an idle event stream checks that its search is still going.
const STREAM_POLL: Duration = Duration::from_secs(1);

/// The server and everything it serves.
pub struct WebServer {
    http: HttpServer,
    handler: Arc<Handler>,
}

/// What answers the requests.
struct Handler {
    store: Arc<Store>,
    searches: Arc<Searches>,
    streams: Arc<AtomicUsize>,
}

impl WebServer {
    /// Listens on `host:port` (port 0: any free one).
    pub fn bind(host: IpAddr, port: u16) -> Result<WebServer, String> {
        let http = HttpServer::bind(SocketAddr::new(host, port)).map_err(|e| e.to_string())?;
        Ok(WebServer {
            http,
            handler: Arc::new(Handler {
                store: Arc::new(Store::new()),
                searches: Arc::new(Searches::new()),
                streams: Arc::new(AtomicUsize::new(0)),
            }),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> String {
        match self.http.local_addr() {
            Ok(a) => a.to_string(),
            Err(_) => "unknown".into(),
        }
    }

    /// Answers requests until the process ends.
    pub fn run(self) {
        let janitor = Arc::clone(&self.handler.store);
        let spawned = std::thread::Builder::new()
            .name("expiry".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_secs(30));
                janitor.expire();
            });
        if let Err(e) = spawned {
            log::warn!("no expiry thread ({e}); idle sessions expire when new ones are made");
        }
        let handler = self.handler;
        self.http
            .run(body_limit, move |request| handler.answer(request));
    }
}

/// The largest body read for a request target: a game record file, or a JSON request.
fn body_limit(url: &str) -> usize {
    if url.split(['?', '#']).next() == Some("/api/record") {
        records::MAX_RECORD_BYTES
    } else {
        MAX_BODY
    }
}

impl Handler {
    fn answer(&self, request: &mut Exchange<'_>) {
        let method = request.method.clone();
        let url = request.url.clone();
        let path = url.split(['?', '#']).next().unwrap_or("").to_string();
        if method == "POST" && path == "/api/record" {
            return self.read_record(request, &url);
        }
        if request.declared_length.is_some_and(|n| n > MAX_BODY) {
            return respond_json(
                request,
                413,
                &serde_json::json!({ "error": "request body too large" }),
            );
        }
        let body = std::mem::take(&mut request.body);
        if body.len() > MAX_BODY {
            return respond_json(
                request,
                413,
                &serde_json::json!({ "error": "request body too large" }),
            );
        }
        let Ok(body) = String::from_utf8(body) else {
            return respond_json(
                request,
                400,
                &serde_json::json!({ "error": "the body is not UTF-8" }),
            );
        };
        if let Some(api_path) = path.strip_prefix("/api/") {
            if method == "GET" {
                if let Some(id) = api_path
                    .strip_prefix("sessions/")
                    .and_then(|p| p.strip_suffix("/events"))
                {
                    return self.stream(request, id);
                }
            }
            let (status, value) =
                api::handle(&self.store, &self.searches, &method, api_path, &body);
            return respond_json(request, status, &value);
        }
        if method != "GET" && method != "HEAD" {
            return respond_json(
                request,
                405,
                &serde_json::json!({ "error": "method not allowed" }),
            );
        }
        match assets::find(&path) {
            Some((kind, text)) => request.respond(
                200,
                &[
                    ("Content-Type", kind),
                    ("Cache-Control", "no-cache"),
                    ("X-Content-Type-Options", "nosniff"),
                    (
                        "Content-Security-Policy",
                        "default-src 'self'; style-src 'self' 'unsafe-inline'",
                    ),
                ],
                text.as_bytes(),
            ),
            None => respond_json(request, 404, &serde_json::json!({ "error": "not found" })),
        }
    }

    /// `POST /api/record?name=FILE&game=N`: the body is a record file's bytes (any
    /// format jiang reads, told by the name's extension or the bytes), the answer its
    /// game N (from 0) as [`crate::records::read_json`] gives it.
    fn read_record(&self, request: &mut Exchange<'_>, url: &str) {
        let query = url.split_once('?').map_or("", |(_, q)| q);
        let query = query.split('#').next().unwrap_or("");
        let mut name = String::new();
        let mut index = 0usize;
        for pair in query.split('&') {
            let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
            match k {
                "name" => name = percent_decode(v),
                "game" => match v.parse() {
                    Ok(n) => index = n,
                    Err(_) => {
                        return respond_json(
                            request,
                            400,
                            &serde_json::json!({ "error": "'game' must be a whole number" }),
                        )
                    }
                },
                _ => {}
            }
        }
        let limit = records::MAX_RECORD_BYTES;
        let too_large = serde_json::json!({ "error": format!("the file is too large (at most {limit} bytes)") });
        if request.declared_length.is_some_and(|n| n > limit) {
            return respond_json(request, 413, &too_large);
        }
        let body = std::mem::take(&mut request.body);
        if body.len() > limit {
            return respond_json(request, 413, &too_large);
        }
        let (status, value) = records::read_json(&name, &body, index);
        respond_json(request, status, &value)
    }

    /// `GET /api/sessions/ID/events`: the session's latest search as server-sent events
    /// (`info`, `note`, `answer`, then `done` or `failed`), from its start; the stream
    /// closes after the last.
    fn stream(&self, request: &mut Exchange<'_>, id: &str) {
        let Some(session) = self.store.get(id) else {
            return respond_json(
                request,
                404,
                &serde_json::json!({ "error": format!("no session '{id}'") }),
            );
        };
        let Some(feed) = lock(&session).feed.clone() else {
            return respond_json(
                request,
                409,
                &serde_json::json!({ "error": "this board has not searched" }),
            );
        };
        drop(session);
        if self.streams.fetch_add(1, Ordering::SeqCst) >= MAX_STREAMS {
            self.streams.fetch_sub(1, Ordering::SeqCst);
            return respond_json(
                request,
                429,
                &serde_json::json!({ "error": "too many event streams open" }),
            );
        }
        request.with_stream(|out| Self::send_events(out, &feed));
        self.streams.fetch_sub(1, Ordering::SeqCst);
    }

    /// Writes the feed's events to `out` as they come, until the search is done.
    fn send_events(out: &mut std::net::TcpStream, feed: &crate::sessions::SearchFeed) {
        // Chunked, so that every client sees where the stream ends even while the
        // connection stays open.
        let head = "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-cache\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n";
        let mut sent = 0;
        let mut ok = out
            .write_all(head.as_bytes())
            .and_then(|_| out.flush())
            .is_ok();
        while ok {
            let (batch, done) = {
                let mut log = lock(&feed.log);
                if sent == log.events.len() && !log.done {
                    log = feed
                        .grew
                        .wait_timeout(log, STREAM_POLL)
                        .map(|(g, _)| g)
                        .unwrap_or_else(|e| e.into_inner().0);
                }
                (log.events[sent..].to_vec(), log.done)
            };
            sent += batch.len();
            let mut text = String::new();
            for (name, data) in &batch {
                text.push_str(&format!("event: {name}\ndata: {data}\n\n"));
            }
            if text.is_empty() && !done {
                // A comment line keeps proxies awake and finds closed connections.
                text.push_str(":\n\n");
            }
            if !text.is_empty() {
                let chunk = format!("{:x}\r\n{text}\r\n", text.len());
                ok = out
                    .write_all(chunk.as_bytes())
                    .and_then(|_| out.flush())
                    .is_ok();
            }
            if done && batch.is_empty() {
                let _ = out.write_all(b"0\r\n\r\n").and_then(|_| out.flush());
                break;
            }
        }
    }
}

/// A query value's text: `%XX` escapes and `+` (a space) decoded, bad escapes kept.
fn percent_decode(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = bytes
                    .get(i + 1..i + 3)
                    .and_then(|h| std::str::from_utf8(h).ok())
                    .and_then(|h| u8::from_str_radix(h, 16).ok());
                match hex {
                    Some(b) => {
                        out.push(b);
                        i += 3;
                        continue;
                    }
                    None => out.push(b'%'),
                }
            }
            b'+' => out.push(b' '),
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn respond_json(request: &mut Exchange<'_>, status: u16, value: &serde_json::Value) {
    request.respond(
        status,
        &[
            ("Content-Type", "application/json"),
            ("Cache-Control", "no-store"),
        ],
        value.to_string().as_bytes(),
    );
}
