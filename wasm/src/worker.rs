//! The engine of a search worker: one [`Engine`] with a hash table of the page's choosing,
//! running the jobs a [`crate::PageBoards`] hands out, one at a time, to their end. In the
//! browser a search cannot hear `stop` (a worker computing reads no message), so the page
//! stops one by ending the worker and finishing the job with the best move it was told
//! of (see `web/README.md`); this side needs no stop at all.

use jiang::engine::Engine;
use jiang::xiangqi::nnue;
use jiang_web::api;
use jiang_web::job::{self, Job};
use serde_json::{json, Value};

/// Largest hash table a page may ask for, MiB (a 32-bit WebAssembly memory holds 4 GiB).
pub const MAX_HASH_MB: usize = 1024;
/// The hash table when the page names none, MiB.
pub const DEFAULT_HASH_MB: usize = 32;

/// A search worker's engine.
pub struct SearchWorker {
    engine: Engine,
    /// Whether the network is in use (else the hand-written evaluation).
    network: bool,
    hash_mb: usize,
}

impl SearchWorker {
    /// An engine with a `hash_mb` MiB table (clamped to 1..=[`MAX_HASH_MB`]; 0: the
    /// default) evaluating with the network file `network` (checked; in the browser
    /// build it becomes the engine's network, natively the embedded one stays). Without a
    /// usable file the engine evaluates by hand (`UseNNUE` off) and says why.
    pub fn new(hash_mb: usize, network: Option<&[u8]>) -> (SearchWorker, Value) {
        let hash = if hash_mb == 0 {
            DEFAULT_HASH_MB
        } else {
            hash_mb.clamp(1, MAX_HASH_MB)
        };
        // In the browser the engine starts with a token table (see the library's
        // `DEFAULT_HASH_MB`): the one asked for is made once, here. A WebAssembly memory
        // never shrinks, so the page changes the size by starting new workers.
        let mut engine = Engine::new();
        let mut notes = Vec::new();
        let hash_mb = if hash == engine.settings.hash_mb {
            hash
        } else {
            match engine.set_hash(hash) {
                Ok(mb) => mb,
                Err(e) => {
                    notes.push(e.to_string());
                    engine.settings.hash_mb
                }
            }
        };
        let network_ok = match network.map(take_network) {
            Some(Ok(())) => true,
            Some(Err(e)) => {
                notes.push(format!("network not used: {e}"));
                false
            }
            None => {
                notes.push("no network given: hand-written evaluation".into());
                false
            }
        };
        if !network_ok {
            if let Err(e) = engine.set_option("UseNNUE", "false") {
                notes.push(e.to_string());
            }
        }
        let report = json!({
            "hash_mb": hash_mb,
            "network": network_ok,
            "simd128": cfg!(target_feature = "simd128"),
            "notes": notes,
        });
        let mut worker = SearchWorker {
            engine,
            network: network_ok,
            hash_mb,
        };
        worker.warm_up();
        (worker, report)
    }

    /// A depth-1 search of the Xiangqi start position, its events dropped: what a first
    /// search sets up lazily (the network's weights, the book, the tables) is ready
    /// before the page's first `go`, which then answers at once.
    fn warm_up(&mut self) {
        let job = Job {
            session: String::new(),
            game: "xiangqi".into(),
            // Out of the book, so that the search itself runs.
            start_fen: jiang::bench::POSITIONS.get(1).map(|f| f.to_string()),
            moves: Vec::new(),
            version: 0,
            ask: job::SearchAsk {
                move_time: std::time::Duration::from_millis(100),
                nodes: None,
                depth: Some(1),
                lines: 1,
                skill: job::MAX_SKILL,
                play: false,
            },
        };
        if job::start_search(&mut self.engine, &job, job::event_sink(|_, _| {})).is_ok() {
            self.engine.wait();
            self.engine.take_outcome();
        }
    }

    /// The hash table's size, MiB.
    pub fn hash_mb(&self) -> usize {
        self.hash_mb
    }

    /// Runs the job `job_text` (a [`Job`] as JSON) to its end, its events (`info`,
    /// `note`, `answer`) to `emit` as (name, JSON data). Returns (200, the answer as
    /// JSON) or a refusal ((400, why) for a bad job, (422, why) for one the engine
    /// cannot set up); the engine stays usable either way.
    pub fn search(
        &mut self,
        job_text: &str,
        emit: impl Fn(&'static str, String) + Send + Sync + 'static,
    ) -> (u16, String) {
        let job = match Job::from_json(job_text) {
            Ok(j) => j,
            Err(e) => return (400, json!({ "error": e }).to_string()),
        };
        if let Err(e) = job::start_search(&mut self.engine, &job, job::event_sink(emit)) {
            return (422, json!({ "error": e }).to_string());
        }
        self.engine.wait();
        match self.engine.take_outcome() {
            Some(outcome) => (200, api::answer_json(&outcome.answer).to_string()),
            None => (
                500,
                json!({ "error": "the search ended without an answer" }).to_string(),
            ),
        }
    }

    /// The library's bench (its positions to `depth`, one thread, the network if in
    /// use): `{"nodes", "ms", "nps", "network"}`. The node count is the same signature as
    /// the native `jiang bench` at the same depth.
    pub fn bench(&self, depth: i32) -> Value {
        let report = jiang::bench::run(depth.clamp(1, 30), self.network, &mut |_| {});
        json!({
            "nodes": report.nodes,
            "ms": report.ms,
            "nps": report.nps(),
            "network": self.network,
            "depth": depth.clamp(1, 30),
        })
    }
}

/// Makes `bytes` the engine's network (browser build) or checks them (natively, where
/// the embedded network is used).
fn take_network(bytes: &[u8]) -> Result<(), nnue::NetworkError> {
    #[cfg(target_arch = "wasm32")]
    {
        nnue::provide_network(bytes)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        nnue::Network::from_bytes(bytes).map(|_| ())
    }
}

/// The self-test of the vector kernels in use (`simd128` in the browser build) against
/// the portable loops, on the network in use: `{"kernels_agree", "simd128"}`.
pub fn selftest() -> Value {
    let net = &*nnue::NETWORK;
    let positions = [
        jiang::xiangqi::Position::startpos(),
        jiang::xiangqi::Position::from_fen(
            "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        )
        .unwrap_or_else(|_| jiang::xiangqi::Position::startpos()),
    ];
    json!({
        "kernels_agree": positions.iter().all(|p| nnue::kernels_agree(net, p)),
        "simd128": cfg!(target_feature = "simd128"),
    })
}
