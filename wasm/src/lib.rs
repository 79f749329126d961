//! jiang in the browser: the engine and the web board's JSON API, compiled to
//! WebAssembly (`wasm32-unknown-unknown`, `simd128`) for the page of `web/assets/`, which
//! uses it when no `jiang-web` server answers. See `web/README.md`.
//!
//! Two roles, one module: the page's thread keeps the boards ([`PageBoards`]: the same
//! requests and JSON as the server's `/api/...`), and search workers (Web Workers) run
//! the searches ([`SearchWorker`]), streaming their events to the page.
//!
//! The interface is plain C ABI functions over the module's memory (no generated glue,
//! nothing to install): strings go in as (pointer, length) of UTF-8 the page writes into
//! memory it got from the `abi` module's `jiang_alloc`; each call leaves its JSON answer in a
//! reply buffer (`jiang_reply_ptr`, `jiang_reply_len`) and returns an HTTP-like status.
//! The page provides two imports in module `env`: `jiang_now_ms() -> f64` (the clock,
//! `performance.now()`) and `jiang_event(name_ptr, name_len, data_ptr, data_len)` (a
//! search event). The same entry points compile natively, where `cargo test` drives them
//! (`tests/fuzz.rs`, `tests/records.rs`).

#![warn(missing_docs)]

pub mod board;
pub mod worker;

pub use board::PageBoards;
pub use worker::SearchWorker;

pub mod abi;
