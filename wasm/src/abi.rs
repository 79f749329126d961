//! The module's exports and imports (browser build only): C ABI functions over the
//! module's memory. Every export that answers leaves a JSON text in the reply buffer
//! (read it at `jiang_reply_ptr()`, `jiang_reply_len()` bytes, before the next call) and
//! returns an HTTP-like status (200 ok, 4xx refused). Input strings are UTF-8 the page
//! wrote into memory from `jiang_alloc` (and frees with `jiang_free`); bad UTF-8 is a 400,
//! never a trap.
//!
//! | export | role |
//! | --- | --- |
//! | `jiang_alloc(len) -> ptr`, `jiang_free(ptr, len)` | memory for the page's strings (null: no memory) |
//! | `jiang_reply_ptr()`, `jiang_reply_len()` | the last answer |
//! | `jiang_request(method, path, body) -> status` | one API request, as the server's `/api/PATH` ([`PageBoards::request`]) |
//! | `jiang_take_job() -> status` | the next search asked for (200, a job) or none (204, `null`) |
//! | `jiang_finish(text) -> status` | the end of a search ([`PageBoards::finish`]) |
//! | `jiang_worker_init(hash_mb, network) -> status` | this instance becomes a search worker |
//! | `jiang_search(job) -> status` | runs a job to its end; events through `jiang_event` |
//! | `jiang_bench(depth) -> status` | the library's bench |
//! | `jiang_selftest() -> status` | the `simd128` kernels against the portable loops |
//! | `jiang_record(name, bytes, game) -> status` | a game record file read: its game number `game` as JSON ([`jiang_web::records::read_json`]); 422 naming the place for a file that cannot be read |
//!
//! Imports (module `env`): `jiang_now_ms() -> f64` (see `jiang::common::clock`) and
//! `jiang_event(name_ptr, name_len, data_ptr, data_len)`, called during `jiang_search`
//! with each event's name (`info`, `note`, `answer`) and JSON data; the page must not
//! call back into the module from it.
//!
//! Natively (for `cargo test`) the module compiles too, with `jiang_event` a function
//! that drops the event: the tests call the exports as the page does.

use crate::{worker, PageBoards, SearchWorker};
use serde_json::json;
use std::sync::{Mutex, MutexGuard, OnceLock};

#[cfg(target_arch = "wasm32")]
#[link(wasm_import_module = "env")]
extern "C" {
    fn jiang_event(name_ptr: *const u8, name_len: usize, data_ptr: *const u8, data_len: usize);
}

/// Natively there is no page to hear a search's events.
#[cfg(not(target_arch = "wasm32"))]
unsafe fn jiang_event(
    _name_ptr: *const u8,
    _name_len: usize,
    _data_ptr: *const u8,
    _data_len: usize,
) {
}

static REPLY: Mutex<Vec<u8>> = Mutex::new(Vec::new());
static BOARD: OnceLock<PageBoards> = OnceLock::new();
static WORKER: Mutex<Option<SearchWorker>> = Mutex::new(None);

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn board() -> &'static PageBoards {
    BOARD.get_or_init(PageBoards::new)
}

/// Keeps `text` as the reply; returns `status`.
fn answer(status: u16, text: String) -> u32 {
    *lock(&REPLY) = text.into_bytes();
    u32::from(status)
}

fn refuse(status: u16, why: &str) -> u32 {
    answer(status, json!({ "error": why }).to_string())
}

/// The string the page wrote at `ptr`, `len` bytes.
///
/// # Safety
/// `ptr..ptr + len` lies in the module's memory (the page got it from `jiang_alloc`).
unsafe fn text<'a>(ptr: *const u8, len: usize) -> Option<&'a str> {
    if len == 0 {
        return Some("");
    }
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller's promise.
    std::str::from_utf8(unsafe { std::slice::from_raw_parts(ptr, len) }).ok()
}

/// `len` bytes for the page to write into; null when no memory can be had.
#[no_mangle]
pub extern "C" fn jiang_alloc(len: usize) -> *mut u8 {
    if len == 0 {
        return std::ptr::NonNull::<u8>::dangling().as_ptr();
    }
    match std::alloc::Layout::array::<u8>(len) {
        // SAFETY: a layout of non-zero size.
        Ok(layout) => unsafe { std::alloc::alloc(layout) },
        Err(_) => std::ptr::null_mut(),
    }
}

/// Frees what `jiang_alloc(len)` gave.
///
/// # Safety
/// `ptr` came from `jiang_alloc(len)` with this `len` and is freed once.
#[no_mangle]
pub unsafe extern "C" fn jiang_free(ptr: *mut u8, len: usize) {
    if ptr.is_null() || len == 0 {
        return;
    }
    if let Ok(layout) = std::alloc::Layout::array::<u8>(len) {
        // SAFETY: the caller's promise: allocated with this layout, freed once.
        unsafe { std::alloc::dealloc(ptr, layout) }
    }
}

/// Where the last answer lies.
#[no_mangle]
pub extern "C" fn jiang_reply_ptr() -> *const u8 {
    lock(&REPLY).as_ptr()
}

/// The last answer's length, bytes.
#[no_mangle]
pub extern "C" fn jiang_reply_len() -> usize {
    lock(&REPLY).len()
}

/// One API request: `method`, `path` (below `/api/`) and `body` (JSON or empty).
///
/// # Safety
/// Each (pointer, length) pair lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn jiang_request(
    method_ptr: *const u8,
    method_len: usize,
    path_ptr: *const u8,
    path_len: usize,
    body_ptr: *const u8,
    body_len: usize,
) -> u32 {
    // SAFETY: the caller's promise, for each pair.
    let parts = unsafe {
        (
            text(method_ptr, method_len),
            text(path_ptr, path_len),
            text(body_ptr, body_len),
        )
    };
    match parts {
        (Some(method), Some(path), Some(body)) => {
            let (status, reply) = board().request(method, path, body);
            answer(status, reply)
        }
        _ => refuse(400, "the request is not UTF-8"),
    }
}

/// The next search asked for: 200 and the job, or 204 and `null`.
#[no_mangle]
pub extern "C" fn jiang_take_job() -> u32 {
    match board().take_job() {
        Some(job) => answer(200, job),
        None => answer(204, "null".into()),
    }
}

/// The end of a search (see [`PageBoards::finish`]).
///
/// # Safety
/// The (pointer, length) pair lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn jiang_finish(ptr: *const u8, len: usize) -> u32 {
    // SAFETY: the caller's promise.
    match unsafe { text(ptr, len) } {
        Some(t) => {
            let (status, reply) = board().finish(t);
            answer(status, reply)
        }
        None => refuse(400, "not UTF-8"),
    }
}

/// Makes this instance a search worker with a `hash_mb` MiB table and the network file
/// at `net_ptr` (`net_len` 0: none, the hand-written evaluation). Answers what it set up
/// (`hash_mb`, `network`, `simd128`, `notes`).
///
/// # Safety
/// The (pointer, length) pair lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn jiang_worker_init(
    hash_mb: u32,
    net_ptr: *const u8,
    net_len: usize,
) -> u32 {
    let network = if net_len == 0 || net_ptr.is_null() {
        None
    } else {
        // SAFETY: the caller's promise.
        Some(unsafe { std::slice::from_raw_parts(net_ptr, net_len) })
    };
    let (w, report) = SearchWorker::new(hash_mb as usize, network);
    *lock(&WORKER) = Some(w);
    answer(200, report.to_string())
}

fn emit(name: &'static str, data: String) {
    // SAFETY: an imported function reading the two (pointer, length) pairs during the
    // call; both strings live until it returns.
    unsafe { jiang_event(name.as_ptr(), name.len(), data.as_ptr(), data.len()) }
}

/// Runs the job `job` (JSON, from `jiang_take_job`) to its end; events through the
/// `jiang_event` import; answers the search's answer (`best`, `ponder`, `score`, `depth`,
/// `nodes`). 409 before `jiang_worker_init`.
///
/// # Safety
/// The (pointer, length) pair lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn jiang_search(ptr: *const u8, len: usize) -> u32 {
    // SAFETY: the caller's promise.
    let Some(job) = (unsafe { text(ptr, len) }) else {
        return refuse(400, "not UTF-8");
    };
    let mut guard = lock(&WORKER);
    let Some(w) = guard.as_mut() else {
        return refuse(409, "not a search worker yet (jiang_worker_init)");
    };
    let (status, reply) = w.search(job, emit);
    drop(guard);
    answer(status, reply)
}

/// The library's bench to `depth` (see [`SearchWorker::bench`]). 409 before
/// `jiang_worker_init`.
#[no_mangle]
pub extern "C" fn jiang_bench(depth: i32) -> u32 {
    let guard = lock(&WORKER);
    match guard.as_ref() {
        Some(w) => {
            let report = w.bench(depth);
            drop(guard);
            answer(200, report.to_string())
        }
        None => refuse(409, "not a search worker yet (jiang_worker_init)"),
    }
}

/// The vector kernels against the portable loops (see [`worker::selftest`]).
#[no_mangle]
pub extern "C" fn jiang_selftest() -> u32 {
    answer(200, worker::selftest().to_string())
}

/// Reads a game record file: `name` (its file name, whose extension tells the format;
/// else the bytes do), its bytes, and which game of the file (from 0). Answers the game
/// as JSON (tags, the move tree with variations and comments, each move's ICCS, WXF and
/// Chinese text, warnings with their places; see [`jiang_web::records::read_json`]), or
/// a refusal naming the place at fault. Any bytes are taken: nothing makes it trap.
///
/// # Safety
/// Each (pointer, length) pair lies in the module's memory.
#[no_mangle]
pub unsafe extern "C" fn jiang_record(
    name_ptr: *const u8,
    name_len: usize,
    bytes_ptr: *const u8,
    bytes_len: usize,
    game: u32,
) -> u32 {
    // SAFETY: the caller's promise.
    let Some(name) = (unsafe { text(name_ptr, name_len) }) else {
        return refuse(400, "the file name is not UTF-8");
    };
    let bytes: &[u8] = if bytes_len == 0 || bytes_ptr.is_null() {
        &[]
    } else {
        // SAFETY: the caller's promise.
        unsafe { std::slice::from_raw_parts(bytes_ptr, bytes_len) }
    };
    let (status, value) = jiang_web::records::read_json(name, bytes, game as usize);
    answer(status, value.to_string())
}
