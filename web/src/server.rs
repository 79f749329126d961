//! HTTP plumbing: a fixed pool of worker threads takes requests from `tiny_http`, bounds
//! their size, serves the embedded assets, hands `/api/...` to [`crate::api`] and keeps
//! server-sent-event streams of searches open.

use crate::api::{self, MAX_BODY};
use crate::assets;
use crate::records;
use crate::search::Searches;
use crate::sessions::{lock, Store};
use std::io::{Read, Write};
use std::net::{IpAddr, SocketAddr};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;
use tiny_http::{Header, Method, Request, Response, Server};

/// Threads answering requests.
const WORKERS: usize = 16;
/// Most event streams open at once (each holds a worker while its search runs).
const MAX_STREAMS: usize = 8;
/// How often an idle event stream checks that its search is still going.
const STREAM_POLL: Duration = Duration::from_secs(1);

/// The server and everything it serves.
pub struct WebServer {
    http: Arc<Server>,
    store: Arc<Store>,
    searches: Arc<Searches>,
    streams: Arc<AtomicUsize>,
}

impl WebServer {
    /// Listens on `host:port` (port 0: any free one).
    pub fn bind(host: IpAddr, port: u16) -> Result<WebServer, String> {
        let http = Server::http(SocketAddr::new(host, port)).map_err(|e| e.to_string())?;
        Ok(WebServer {
            http: Arc::new(http),
            store: Arc::new(Store::new()),
            searches: Arc::new(Searches::new()),
            streams: Arc::new(AtomicUsize::new(0)),
        })
    }

    /// The address it listens on.
    pub fn local_addr(&self) -> String {
        match self.http.server_addr().to_ip() {
            Some(a) => a.to_string(),
            None => "unknown".into(),
        }
    }

    /// Answers requests until the process ends.
    pub fn run(self) {
        let this = Arc::new(self);
        let janitor = Arc::clone(&this.store);
        let spawned = std::thread::Builder::new()
            .name("expiry".into())
            .spawn(move || loop {
                std::thread::sleep(Duration::from_secs(30));
                janitor.expire();
            });
        if let Err(e) = spawned {
            log::warn!("no expiry thread ({e}); idle sessions expire when new ones are made");
        }
        let mut workers = Vec::new();
        for n in 0..WORKERS {
            let me = Arc::clone(&this);
            match std::thread::Builder::new()
                .name(format!("http-{n}"))
                .spawn(move || me.serve())
            {
                Ok(h) => workers.push(h),
                Err(e) => log::error!("cannot start worker {n}: {e}"),
            }
        }
        for w in workers {
            let _ = w.join();
        }
    }

    fn serve(&self) {
        loop {
            match self.http.recv() {
                Ok(request) => self.answer(request),
                Err(e) => log::warn!("receiving a request: {e}"),
            }
        }
    }

    fn answer(&self, mut request: Request) {
        let method = request.method().clone();
        let url = request.url().to_string();
        let path = url.split(['?', '#']).next().unwrap_or("").to_string();
        if method == Method::Post && path == "/api/record" {
            return self.read_record(request, &url);
        }
        if request.body_length().is_some_and(|n| n > MAX_BODY) {
            return respond_json(
                request,
                413,
                &serde_json::json!({ "error": "request body too large" }),
            );
        }
        let mut body = Vec::new();
        let read = request
            .as_reader()
            .take(MAX_BODY as u64 + 1)
            .read_to_end(&mut body);
        if read.is_err() {
            return respond_json(
                request,
                400,
                &serde_json::json!({ "error": "unreadable body" }),
            );
        }
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
            if method == Method::Get {
                if let Some(id) = api_path
                    .strip_prefix("sessions/")
                    .and_then(|p| p.strip_suffix("/events"))
                {
                    return self.stream(request, id);
                }
            }
            let (status, value) = api::handle(
                &self.store,
                &self.searches,
                method.as_str(),
                api_path,
                &body,
            );
            return respond_json(request, status, &value);
        }
        if method != Method::Get && method != Method::Head {
            return respond_json(
                request,
                405,
                &serde_json::json!({ "error": "method not allowed" }),
            );
        }
        match assets::find(&path) {
            Some((kind, text)) => {
                let response = Response::from_string(text)
                    .with_header(header("Content-Type", kind))
                    .with_header(header("Cache-Control", "no-cache"))
                    .with_header(header("X-Content-Type-Options", "nosniff"))
                    .with_header(header(
                        "Content-Security-Policy",
                        "default-src 'self'; style-src 'self' 'unsafe-inline'",
                    ));
                if let Err(e) = request.respond(response) {
                    log::debug!("answering {path}: {e}");
                }
            }
            None => respond_json(request, 404, &serde_json::json!({ "error": "not found" })),
        }
    }

    /// `POST /api/record?name=FILE&game=N`: the body is a record file's bytes (any
    /// format jiang reads, told by the name's extension or the bytes), the answer its
    /// game N (from 0) as [`crate::records::read_json`] gives it.
    fn read_record(&self, mut request: Request, url: &str) {
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
        if request.body_length().is_some_and(|n| n > limit) {
            return respond_json(request, 413, &too_large);
        }
        let mut body = Vec::new();
        if request
            .as_reader()
            .take(limit as u64 + 1)
            .read_to_end(&mut body)
            .is_err()
        {
            return respond_json(
                request,
                400,
                &serde_json::json!({ "error": "unreadable body" }),
            );
        }
        if body.len() > limit {
            return respond_json(request, 413, &too_large);
        }
        let (status, value) = records::read_json(&name, &body, index);
        respond_json(request, status, &value)
    }

    /// `GET /api/sessions/ID/events`: the session's latest search as server-sent events
    /// (`info`, `note`, `answer`, then `done` or `failed`), from its start; the stream
    /// closes after the last.
    fn stream(&self, request: Request, id: &str) {
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
        let mut out = request.into_writer();
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
        self.streams.fetch_sub(1, Ordering::SeqCst);
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

fn header(name: &str, value: &str) -> Header {
    Header::from_bytes(name.as_bytes(), value.as_bytes())
        .unwrap_or_else(|_| Header::from_bytes(&b"X-Invalid"[..], &b"1"[..]).expect("valid header"))
}

fn respond_json(request: Request, status: u16, value: &serde_json::Value) {
    let response = Response::from_string(value.to_string())
        .with_status_code(status)
        .with_header(header("Content-Type", "application/json"))
        .with_header(header("Cache-Control", "no-store"));
    if let Err(e) = request.respond(response) {
        log::debug!("answering: {e}");
    }
}
