//! The learned evaluation: a small NNUE-style network trained by `jiang-lab train` on
//! positions from `jiang-lab datagen` (the `lab/` workspace member).
//!
//! # Architecture
//!
//! * **Inputs**: for each of the two points of view (Red's and Black's), one feature per
//!   piece: (own or enemy, kind, square), the square seen from that side (Black's view
//!   mirrors the ranks), [`INPUTS`] = 2 × 7 × 90 features.
//!   A *king-relative* network (king buckets > 1 in its file) has one such set of
//!   features per palace square of the view's own king ([`king_bucket`]): either one per
//!   square ([`KING_SQUARE_BUCKETS`]), or the nine folded to six ([`KING_BUCKETS`]), a
//!   king on the right-hand file then mirroring the whole board left to right for that
//!   view. A king move into another bucket recomputes that view's accumulator; every
//!   other move updates it incrementally as before.
//! * **Hidden layer**: [`HIDDEN`] neurons per point of view, shared weights, kept as an
//!   *accumulator* (the sum of the active features' weight rows) that `make_move` updates
//!   incrementally: a move subtracts the moved piece's old feature (and the captured
//!   piece's) and adds its new one.
//! * **Activation**: squared clipped ReLU, `clamp(x, 0, 1)²`.
//! * **Output**: one neuron over both halves, the side to move's first; times
//!   [`SCALE`] it is the evaluation in the hand-written evaluation's units (a horse ≈ 400).
//!   A network may have [`OUTPUT_BUCKETS`] output neurons instead of one, chosen by the
//!   number of pieces on the board ([`output_bucket`]): the opening, the middlegame and
//!   the endgame weigh the same hidden features differently, at the cost of a few
//!   thousand weights and no extra work per evaluation.
//!
//! # Quantisation
//!
//! The first layer's weights and the accumulator are `i16` scaled by [`QA`], the output
//! weights `i16` scaled by [`QB`] (the trainer clips them so that `x · w` fits in `i16`
//! for `x ≤ QA`), the output bias `i32` scaled by `QA · QB`.
//!
//! # File format (little endian)
//!
//! `JIANGNN1`, `u32` hidden size, `i16` first-layer weights (feature-major), `i16` first-layer
//! biases, `i16` output weights (side to move's half first), `i32` output bias.
//!
//! `JIANGNN2` (output buckets): the same with `u32` bucket count after the hidden size, then
//! each bucket's output weights (both halves), then each bucket's `i32` output bias.
//!
//! `JIANGNN3` (king-relative, format version 3): `u32` hidden size, `u32` output buckets,
//! `u32` king buckets (1, [`KING_BUCKETS`] or [`KING_SQUARE_BUCKETS`]), then the weights
//! as in `JIANGNN2` (the first layer has one row per king bucket and feature,
//! bucket-major), then a `u64` FNV-1a hash of every byte before it, so a damaged file is
//! refused rather than played.
//!
//! The default network is embedded in the binary ([`EMBEDDED`]). For trying other networks
//! without rebuilding, the environment variable `JIANG_EVALFILE` names a file to load
//! instead (a development aid: a bad file is reported on stderr and the embedded network
//! is used).
//!
//! The browser build (`wasm32`) carries no network: the page fetches the file once (the
//! browser keeps it) and hands it over with `provide_network` before the first search.
//! Its vector kernels are WebAssembly's `simd128` when the build enables that feature
//! (`-C target-feature=+simd128`, as `.cargo/config.toml` does), the portable loops
//! otherwise; [`kernels_agree`] checks every kernel in use against the portable loops.

// Index loops over parallel arrays (weights, gradients, moments) read best as they are.
#![allow(clippy::needless_range_loop)]

use super::mirror::mirror_square;
use super::position::Position;
use super::types::{Color, Piece, PieceKind, Square};
use once_cell::sync::Lazy;

/// Number of input features per point of view.
pub const INPUTS: usize = 2 * 7 * 90;
/// Hidden neurons per point of view.
pub const HIDDEN: usize = 256;
/// Scale of the first layer (weights, biases, accumulator): 1.0 = `QA`.
pub const QA: i32 = 255;
/// Scale of the output weights: 1.0 = `QB`.
pub const QB: i32 = 64;
/// Evaluation units per unit of the network's output (the sigmoid's scale in training).
pub const SCALE: i32 = 400;
/// File magic of a network with one output neuron.
pub const MAGIC: &[u8; 8] = b"JIANGNN1";
/// File magic of a network with output buckets.
pub const MAGIC_BUCKETS: &[u8; 8] = b"JIANGNN2";
/// Output buckets of a bucketed network.
pub const OUTPUT_BUCKETS: usize = 8;
/// File magic of a king-relative network (format version 3).
pub const MAGIC_KING: &[u8; 8] = b"JIANGNN3";
/// King buckets of a mirrored king-relative network: the own king's palace square, its
/// file folded by mirroring (three ranks × the centre file or a side file).
pub const KING_BUCKETS: usize = 6;
/// King buckets of an unmirrored king-relative network: one per palace square.
pub const KING_SQUARE_BUCKETS: usize = 9;

/// The king bucket of `view` with its king on `king` in a network of `buckets` king
/// buckets ([`KING_BUCKETS`] or [`KING_SQUARE_BUCKETS`]), and whether that view mirrors
/// the board left to right (six buckets: its king stands on the right-hand palace file).
/// The engine and the trainers share this rule.
#[inline(always)]
pub fn king_bucket(view: Color, king: Square, buckets: usize) -> (usize, bool) {
    let rank = if view == Color::Red {
        king.rank()
    } else {
        9 - king.rank()
    };
    // Kings keep to the palace; clamping keeps any other square in range all the same.
    let rank = usize::from(rank.min(2));
    let file = usize::from(king.file()).clamp(3, 5);
    if buckets == KING_SQUARE_BUCKETS {
        return (rank * 3 + file - 3, false);
    }
    (rank * 2 + usize::from(file == 4), file > 4)
}

/// Index of the input feature of `piece` on `sq` seen from `view`'s side, in a
/// king-relative network of `buckets` king buckets, `view`'s king being on `king`.
#[inline(always)]
pub fn king_feature(view: Color, piece: Piece, sq: Square, king: Square, buckets: usize) -> usize {
    let (bucket, mirror) = king_bucket(view, king, buckets);
    let sq = if mirror { mirror_square(sq) } else { sq };
    bucket * INPUTS + feature(view, piece, sq)
}

/// FNV-1a, 64 bits: the check of a `JIANGNN3` file.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// The output (of a network with `buckets` outputs: 1 or [`OUTPUT_BUCKETS`]) that evaluates
/// a position with `pieces` pieces on the board (kings included): four piece counts a
/// bucket, from bare kings to the full 32. The engine and the trainers share this rule.
#[inline(always)]
pub fn output_bucket(buckets: usize, pieces: u32) -> usize {
    if buckets == 1 {
        0
    } else {
        (pieces.saturating_sub(2) as usize / 4).min(OUTPUT_BUCKETS - 1)
    }
}

/// The network built into the binary.
#[cfg(not(target_arch = "wasm32"))]
pub static EMBEDDED: &[u8] = include_bytes!("default.nnue");
/// The browser build embeds no network (the page provides it, see `provide_network`).
#[cfg(target_arch = "wasm32")]
pub static EMBEDDED: &[u8] = &[];

/// The embedded network's name: `nn-` and the first 12 hex digits of the SHA-256 of its
/// bytes (computed by the build script), as Stockfish-family engines name networks.
pub const EMBEDDED_ID: &str = env!("JIANG_NETWORK_ID");

/// Whether searches use the network unless told otherwise (`UseNNUE`): the embedded
/// network beats the hand-written evaluation (see docs/training.md and docs/strength.md).
pub const DEFAULT_ENABLED: bool = true;

/// Which evaluation a search uses, as `bench` and data generation name it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The network (`nnue`).
    Network,
    /// The hand-written evaluation (`hce`).
    HandWritten,
}

impl Evaluation {
    /// The evaluation called `name` (`nnue` or `hce`); `None` for any other name.
    pub fn named(name: &str) -> Option<Evaluation> {
        match name {
            "nnue" => Some(Evaluation::Network),
            "hce" => Some(Evaluation::HandWritten),
            _ => None,
        }
    }

    /// Whether it is the network.
    pub fn uses_network(self) -> bool {
        self == Evaluation::Network
    }
}

/// Index of the input feature of `piece` on `sq` seen from `view`'s side.
#[inline(always)]
pub fn feature(view: Color, piece: Piece, sq: Square) -> usize {
    let own = usize::from(piece.color() != view);
    let sq = if view == Color::Red {
        sq
    } else {
        sq.flip_rank()
    };
    (own * 7 + piece.kind().index()) * 90 + sq.index()
}

/// One hidden layer row (also the accumulator of one point of view), cache aligned.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Row(pub [i16; HIDDEN]);

/// The accumulators of both points of view, indexed by [`Color::index`].
#[derive(Clone, Copy)]
#[repr(C, align(64))]
pub struct Accumulator(pub [Row; 2]);

/// Why bytes are not a network this build can use; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NetworkError {
    /// The file could not be read (its path and the system's reason).
    Io(String),
    /// Neither magic (`JIANGNN1`, `JIANGNN2`).
    BadMagic,
    /// Ends inside the header.
    TooShort,
    /// Another number of output buckets than this build's (the file's).
    Buckets(usize),
    /// Another number of hidden neurons than this build's (the file's).
    Hidden(usize),
    /// A king-relative file whose hash does not match its bytes.
    Hash,
    /// Another number of king buckets than 1, [`KING_BUCKETS`] or [`KING_SQUARE_BUCKETS`]
    /// (the file's).
    KingBuckets(usize),
    /// Not the length the header implies.
    Length {
        /// Bytes after the magic.
        found: usize,
        /// Bytes expected.
        expected: usize,
    },
    /// The browser build was handed a network after its first evaluation.
    InUse,
}

impl std::fmt::Display for NetworkError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NetworkError::Io(e) => f.write_str(e),
            NetworkError::BadMagic => write!(f, "not a jiang network (bad magic)"),
            NetworkError::InUse => write!(f, "the engine's network is in use already"),
            NetworkError::TooShort => write!(f, "network file too short"),
            NetworkError::Hash => write!(f, "network file damaged (its hash does not match)"),
            NetworkError::KingBuckets(n) => {
                write!(
                    f,
                    "network has {n} king buckets, this build reads 1, {KING_BUCKETS} or {KING_SQUARE_BUCKETS}"
                )
            }
            NetworkError::Buckets(n) => {
                write!(
                    f,
                    "network has {n} output buckets, this build {OUTPUT_BUCKETS}"
                )
            }
            NetworkError::Hidden(n) => {
                write!(f, "network has {n} hidden neurons, this build {HIDDEN}")
            }
            NetworkError::Length { found, expected } => write!(
                f,
                "network file has {found} bytes after the magic, {expected} expected"
            ),
        }
    }
}

impl std::error::Error for NetworkError {}

/// A quantised network.
pub struct Network {
    /// 1 for (piece, square) inputs, [`KING_BUCKETS`] or [`KING_SQUARE_BUCKETS`] for
    /// king-relative ones.
    pub king_buckets: usize,
    /// First-layer weights, one row per feature (per king bucket and feature).
    pub w1: Box<[Row]>,
    /// First-layer biases.
    pub b1: Row,
    /// Output weights per output bucket (one, or [`OUTPUT_BUCKETS`]): the side to move's
    /// half, then the other side's.
    pub w2: Vec<[Row; 2]>,
    /// Output bias per output bucket (scaled by `QA · QB`).
    pub b2: Vec<i32>,
}

impl Network {
    /// Reads a network file (any of the three formats).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        let word = |b: &[u8], at: usize| {
            b.get(at..at + 4)
                .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize)
                .ok_or(NetworkError::TooShort)
        };
        let (body, buckets, king_buckets, header) =
            if let Some(body) = bytes.strip_prefix(MAGIC.as_slice()) {
                (body, 1, 1, 4)
            } else if let Some(body) = bytes.strip_prefix(MAGIC_BUCKETS.as_slice()) {
                (body, word(body, 4)?, 1, 8)
            } else if let Some(rest) = bytes.strip_prefix(MAGIC_KING.as_slice()) {
                let split = bytes.len().checked_sub(8).filter(|&n| n >= 8 + 12);
                let Some(split) = split else {
                    return Err(NetworkError::TooShort);
                };
                let stored = u64::from_le_bytes(bytes[split..].try_into().unwrap_or([0; 8]));
                if fnv1a(&bytes[..split]) != stored {
                    return Err(NetworkError::Hash);
                }
                let body = &rest[..rest.len() - 8];
                (body, word(body, 4)?, word(body, 8)?, 12)
            } else {
                return Err(NetworkError::BadMagic);
            };
        // `JIANGNN2` always has buckets; `JIANGNN3` may have one output or buckets.
        let one_allowed = !bytes.starts_with(MAGIC_BUCKETS);
        if buckets != OUTPUT_BUCKETS && !(one_allowed && buckets == 1) {
            return Err(NetworkError::Buckets(buckets));
        }
        if ![1, KING_BUCKETS, KING_SQUARE_BUCKETS].contains(&king_buckets) {
            return Err(NetworkError::KingBuckets(king_buckets));
        }
        let inputs = king_buckets * INPUTS;
        let expected = header + 2 * (inputs * HIDDEN + HIDDEN + buckets * 2 * HIDDEN) + 4 * buckets;
        if body.len() != expected {
            return Err(NetworkError::Length {
                found: body.len(),
                expected,
            });
        }
        let hidden = word(body, 0)?;
        if hidden != HIDDEN {
            return Err(NetworkError::Hidden(hidden));
        }
        let weights_end = body.len() - 4 * buckets;
        let mut words = body[header..weights_end]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut row = || {
            let mut r = Row([0; HIDDEN]);
            for v in r.0.iter_mut() {
                *v = words.next().unwrap_or(0);
            }
            r
        };
        let w1: Box<[Row]> = (0..inputs).map(|_| row()).collect();
        let b1 = row();
        let w2 = (0..buckets).map(|_| [row(), row()]).collect();
        let b2 = body[weights_end..]
            .chunks_exact(4)
            .map(|t| i32::from_le_bytes([t[0], t[1], t[2], t[3]]))
            .collect();
        Ok(Network {
            king_buckets,
            w1,
            b1,
            w2,
            b2,
        })
    }

    /// The file form of the network: `JIANGNN3` for a king-relative one, else `JIANGNN1`
    /// (one output neuron) or `JIANGNN2`.
    pub fn to_bytes(&self) -> Vec<u8> {
        let buckets = self.w2.len();
        let king = self.king_buckets != 1;
        let mut out = if king {
            MAGIC_KING.to_vec()
        } else if buckets == 1 {
            MAGIC.to_vec()
        } else {
            MAGIC_BUCKETS.to_vec()
        };
        out.extend_from_slice(&(HIDDEN as u32).to_le_bytes());
        if king || buckets != 1 {
            out.extend_from_slice(&(buckets as u32).to_le_bytes());
        }
        if king {
            out.extend_from_slice(&(self.king_buckets as u32).to_le_bytes());
        }
        let rows = self
            .w1
            .iter()
            .chain(std::iter::once(&self.b1))
            .chain(self.w2.iter().flatten());
        for r in rows {
            for v in r.0 {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        for b in &self.b2 {
            out.extend_from_slice(&b.to_le_bytes());
        }
        if king {
            let hash = fnv1a(&out);
            out.extend_from_slice(&hash.to_le_bytes());
        }
        out
    }

    /// The first-layer row of `piece` on `sq` for `view`, whose king is on `king`.
    #[inline(always)]
    pub fn row(&self, view: Color, piece: Piece, sq: Square, king: Square) -> &Row {
        let f = if self.king_buckets == 1 {
            feature(view, piece, sq)
        } else {
            king_feature(view, piece, sq, king, self.king_buckets)
        };
        &self.w1[f]
    }

    /// `view`'s accumulator of the pieces of `board`, its king on `king`.
    fn refresh_view(&self, view: Color, board: &[Option<Piece>; 90], king: Square) -> Row {
        let mut acc = self.b1;
        for (i, p) in board.iter().enumerate() {
            if let Some(p) = *p {
                let sq = Square::from_index_unchecked(i);
                add_row(&mut acc, self.row(view, p, sq, king));
            }
        }
        acc
    }

    /// The accumulator of `pos`, computed from scratch.
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator([self.b1; 2]);
        for view in Color::ALL {
            let king = pos.king_square(view);
            for sq in pos.occupied() {
                if let Some(p) = pos.piece_at(sq) {
                    add_row(&mut acc.0[view.index()], self.row(view, p, sq, king));
                }
            }
        }
        acc
    }

    /// The evaluation of an accumulator for `stm` to move with `pieces` pieces on the
    /// board, in evaluation units.
    #[inline]
    pub fn evaluate(&self, acc: &Accumulator, stm: Color, pieces: u32) -> i32 {
        let bucket = output_bucket(self.w2.len(), pieces);
        let us = &acc.0[stm.index()];
        let them = &acc.0[stm.flip().index()];
        let w2 = &self.w2[bucket];
        let sum = simd::screlu_dot(us, &w2[0]) + simd::screlu_dot(them, &w2[1]);
        let out = sum / i64::from(QA) + i64::from(self.b2[bucket]);
        (out * i64::from(SCALE) / i64::from(QA * QB)) as i32
    }
}

/// The learned evaluation of `pos` (whose accumulators are `stack`), from the side to
/// move's view, within the hand-written evaluation's bounds.
#[inline]
pub fn evaluate(pos: &Position, stack: &AccumulatorStack) -> i32 {
    let v = NETWORK.evaluate(stack.top(), pos.side_to_move(), pos.occupied().count());
    v.clamp(-super::eval::MAX_EVAL, super::eval::MAX_EVAL)
}

/// The network in use: `JIANG_EVALFILE` if set and valid, else the embedded one (in the
/// browser build: the one the page provided).
pub static NETWORK: Lazy<Network> = Lazy::new(load_network);

#[cfg(not(target_arch = "wasm32"))]
fn load_network() -> Network {
    if let Ok(path) = std::env::var("JIANG_EVALFILE") {
        match std::fs::read(&path)
            .map_err(|e| NetworkError::Io(e.to_string()))
            .and_then(|b| Network::from_bytes(&b))
        {
            Ok(n) => {
                log::info!("network loaded from {path}");
                return n;
            }
            Err(e) => log::warn!("JIANG_EVALFILE {path}: {e}; using the embedded network"),
        }
    }
    Network::from_bytes(EMBEDDED).expect("the embedded network is valid (checked by a test)")
}

/// The network the page handed over, until [`NETWORK`] takes it.
#[cfg(target_arch = "wasm32")]
static PROVIDED: std::sync::Mutex<Option<Network>> = std::sync::Mutex::new(None);

/// Browser build: the page's network, or, if it gave none, one of zeros (every position
/// evaluates to 0). The engine switches `UseNNUE` off when it has no network, so this
/// fallback only keeps a mistake from becoming a crash.
#[cfg(target_arch = "wasm32")]
fn load_network() -> Network {
    let provided = PROVIDED.lock().unwrap_or_else(|e| e.into_inner()).take();
    provided.unwrap_or_else(|| {
        log::warn!("no network was provided; evaluating every position as 0");
        Network {
            king_buckets: 1,
            w1: vec![Row([0; HIDDEN]); INPUTS].into_boxed_slice(),
            b1: Row([0; HIDDEN]),
            w2: vec![[Row([0; HIDDEN]); 2]],
            b2: vec![0],
        }
    })
}

/// Browser build: hands over the network file's bytes (checked) before the first search.
/// Refused once [`NETWORK`] is in use: the network of a running engine never changes.
#[cfg(target_arch = "wasm32")]
pub fn provide_network(bytes: &[u8]) -> Result<(), NetworkError> {
    if Lazy::get(&NETWORK).is_some() {
        return Err(NetworkError::InUse);
    }
    let net = Network::from_bytes(bytes)?;
    *PROVIDED.lock().unwrap_or_else(|e| e.into_inner()) = Some(net);
    Ok(())
}

/// Whether every vector kernel in use (AVX2, `simd128`) gives exactly what the portable
/// loops give: on `pos`'s accumulators against `net`'s output rows, on `net`'s first-layer
/// rows (accumulator updates), and on rows of extreme values. For the tests and the
/// browser build's self-test.
pub fn kernels_agree(net: &Network, pos: &Position) -> bool {
    let acc = net.refresh(pos);
    // Extreme and pseudo-random rows (output weights within the trainer's ±127 clip).
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut wild = Row([0; HIDDEN]);
    let mut weights = Row([0; HIDDEN]);
    for i in 0..HIDDEN {
        wild.0[i] = match i % 4 {
            0 => i16::MAX,
            1 => i16::MIN,
            _ => next() as i16,
        };
        weights.0[i] = (next() % 255) as i16 - 127;
    }
    let inputs = [acc.0[0], acc.0[1], wild, net.b1];
    let outputs = net.w2.iter().flatten().chain(std::iter::once(&weights));
    for w in outputs {
        for x in &inputs {
            if simd::screlu_dot(x, w) != simd::screlu_dot_portable(x, w) {
                return false;
            }
        }
    }
    for k in 0..64 {
        let row = |r: u64| &net.w1[(r % net.w1.len() as u64) as usize];
        let (add, sub, sub2) = (row(next()), row(next()), row(next()));
        let prev = if k % 2 == 0 { &wild } else { &acc.0[0] };
        let (mut fast, mut plain) = (Row([0; HIDDEN]), Row([0; HIDDEN]));
        simd::add_sub(prev, &mut fast, add, sub);
        simd::add_sub_portable(prev, &mut plain, add, sub);
        if fast.0 != plain.0 {
            return false;
        }
        simd::add_sub_sub(prev, &mut fast, add, sub, sub2);
        simd::add_sub_sub_portable(prev, &mut plain, add, sub, sub2);
        if fast.0 != plain.0 {
            return false;
        }
    }
    true
}

#[inline(always)]
fn add_row(acc: &mut Row, w: &Row) {
    for (a, b) in acc.0.iter_mut().zip(w.0.iter()) {
        *a = a.wrapping_add(*b);
    }
}

/// The accumulators of a search: one per ply since the root, updated by make/unmake.
/// Allocated once (when a search starts) with a slot per ply, so that a move writes its
/// accumulator straight into the next slot; a push beyond that room (prevented by the
/// position's history reserve) grows the stack instead.
#[derive(Clone)]
pub struct AccumulatorStack {
    stack: Vec<Accumulator>,
    /// Index of the current accumulator.
    top: usize,
}

impl AccumulatorStack {
    /// A stack for `pos` with room for `plies` moves.
    pub fn new(pos: &Position, plies: usize) -> AccumulatorStack {
        AccumulatorStack {
            stack: vec![NETWORK.refresh(pos); plies + 1],
            top: 0,
        }
    }

    /// The current accumulator.
    #[inline(always)]
    pub fn top(&self) -> &Accumulator {
        &self.stack[self.top]
    }

    /// The slots of the current accumulator and of the next one (made if needed).
    #[inline(always)]
    fn current_and_next(&mut self) -> (&Accumulator, &mut Accumulator) {
        if self.top + 1 == self.stack.len() {
            let top = self.stack[self.top];
            self.stack.push(top);
        }
        let (done, rest) = self.stack.split_at_mut(self.top + 1);
        self.top += 1;
        (&done[self.top - 1], &mut rest[0])
    }

    /// A move of `piece` from `from` to `to`, capturing `captured`; `board` and `kings`
    /// are the position after it.
    #[inline]
    pub fn push_move(
        &mut self,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
        board: &[Option<Piece>; 90],
        kings: [Square; 2],
    ) {
        self.push_move_with(&NETWORK, piece, from, to, captured, board, kings);
    }

    /// [`push_move`](Self::push_move) with the network `net`.
    #[inline]
    #[allow(clippy::too_many_arguments)]
    pub fn push_move_with(
        &mut self,
        net: &Network,
        piece: Piece,
        from: Square,
        to: Square,
        captured: Option<Piece>,
        board: &[Option<Piece>; 90],
        kings: [Square; 2],
    ) {
        let (prev, next) = self.current_and_next();
        if net.king_buckets == 1 {
            // Plain inputs (the embedded network): no king to look at.
            for view in Color::ALL {
                let v = view.index();
                let sub = &net.w1[feature(view, piece, from)];
                let add = &net.w1[feature(view, piece, to)];
                match captured {
                    Some(c) => {
                        let sub2 = &net.w1[feature(view, c, to)];
                        simd::add_sub_sub(&prev.0[v], &mut next.0[v], add, sub, sub2);
                    }
                    None => simd::add_sub(&prev.0[v], &mut next.0[v], add, sub),
                }
            }
            return;
        }
        for view in Color::ALL {
            let v = view.index();
            let king = kings[v];
            if piece.kind() == PieceKind::King
                && piece.color() == view
                && king_bucket(view, from, net.king_buckets)
                    != king_bucket(view, king, net.king_buckets)
            {
                // The view's king changed bucket: every feature of that view changes.
                next.0[v] = net.refresh_view(view, board, king);
                continue;
            }
            let sub = net.row(view, piece, from, king);
            let add = net.row(view, piece, to, king);
            match captured {
                Some(c) => {
                    let sub2 = net.row(view, c, to, king);
                    simd::add_sub_sub(&prev.0[v], &mut next.0[v], add, sub, sub2);
                }
                None => simd::add_sub(&prev.0[v], &mut next.0[v], add, sub),
            }
        }
    }

    /// A null move: the pieces stay, so the accumulator does too.
    #[inline]
    pub fn push_null(&mut self) {
        let (prev, next) = self.current_and_next();
        *next = *prev;
    }

    /// Takes back the last push.
    #[inline]
    pub fn pop(&mut self) {
        self.top = self.top.saturating_sub(1);
    }
}

/// Vector kernels: AVX2 when the CPU has it (checked once); WebAssembly `simd128` when
/// the build enables it (a compile-time choice: a browser without it refuses the module);
/// portable loops otherwise.
mod simd {
    use super::{Row, HIDDEN, QA};
    #[cfg(target_arch = "x86_64")]
    use once_cell::sync::Lazy;

    #[cfg(target_arch = "x86_64")]
    static AVX2: Lazy<bool> = Lazy::new(|| is_x86_feature_detected!("avx2"));

    /// `out = prev + add - sub`.
    #[inline(always)]
    pub fn add_sub(prev: &Row, out: &mut Row, add: &Row, sub: &Row) {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: the CPU supports AVX2 (checked above).
            return unsafe { add_sub_avx2(prev, out, add, sub) };
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        simd128::add_sub(prev, out, add, sub);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        add_sub_portable(prev, out, add, sub);
    }

    #[inline(always)]
    pub(super) fn add_sub_portable(prev: &Row, out: &mut Row, add: &Row, sub: &Row) {
        for i in 0..HIDDEN {
            out.0[i] = prev.0[i].wrapping_add(add.0[i]).wrapping_sub(sub.0[i]);
        }
    }

    /// `out = prev + add - sub - sub2`.
    #[inline(always)]
    pub fn add_sub_sub(prev: &Row, out: &mut Row, add: &Row, sub: &Row, sub2: &Row) {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: the CPU supports AVX2 (checked above).
            return unsafe { add_sub_sub_avx2(prev, out, add, sub, sub2) };
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        simd128::add_sub_sub(prev, out, add, sub, sub2);
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        add_sub_sub_portable(prev, out, add, sub, sub2);
    }

    #[inline(always)]
    pub(super) fn add_sub_sub_portable(
        prev: &Row,
        out: &mut Row,
        add: &Row,
        sub: &Row,
        sub2: &Row,
    ) {
        for i in 0..HIDDEN {
            out.0[i] = prev.0[i]
                .wrapping_add(add.0[i])
                .wrapping_sub(sub.0[i])
                .wrapping_sub(sub2.0[i]);
        }
    }

    // The same loops compiled for AVX2: 16 lanes a step instead of the baseline's 8.
    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_sub_avx2(prev: &Row, out: &mut Row, add: &Row, sub: &Row) {
        add_sub_portable(prev, out, add, sub);
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn add_sub_sub_avx2(prev: &Row, out: &mut Row, add: &Row, sub: &Row, sub2: &Row) {
        add_sub_sub_portable(prev, out, add, sub, sub2);
    }

    /// `Σ clamp(x, 0, QA)² · w`.
    #[inline(always)]
    pub fn screlu_dot(x: &Row, w: &Row) -> i64 {
        #[cfg(target_arch = "x86_64")]
        if *AVX2 {
            // SAFETY: the CPU supports AVX2 (checked above).
            return unsafe { screlu_dot_avx2(x, w) };
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        {
            simd128::screlu_dot(x, w)
        }
        #[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
        {
            screlu_dot_portable(x, w)
        }
    }

    pub(super) fn screlu_dot_portable(x: &Row, w: &Row) -> i64 {
        let mut sum = 0i64;
        for i in 0..HIDDEN {
            let v = i32::from(x.0[i]).clamp(0, QA);
            sum += i64::from(v * v * i32::from(w.0[i]));
        }
        sum
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn screlu_dot_avx2(x: &Row, w: &Row) -> i64 {
        use std::arch::x86_64::*;
        let zero = _mm256_setzero_si256();
        let qa = _mm256_set1_epi16(QA as i16);
        let mut acc = _mm256_setzero_si256();
        for i in (0..HIDDEN).step_by(16) {
            // SAFETY: rows hold HIDDEN i16 values; i + 16 <= HIDDEN.
            let v = _mm256_loadu_si256(x.0.as_ptr().add(i) as *const __m256i);
            let wv = _mm256_loadu_si256(w.0.as_ptr().add(i) as *const __m256i);
            let v = _mm256_min_epi16(_mm256_max_epi16(v, zero), qa);
            // v · w fits in i16 (|w| ≤ 127 by training, v ≤ 255); then · v summed in i32.
            let vw = _mm256_mullo_epi16(v, wv);
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(vw, v));
        }
        let mut lanes = [0i32; 8];
        _mm256_storeu_si256(lanes.as_mut_ptr() as *mut __m256i, acc);
        lanes.iter().map(|&l| i64::from(l)).sum()
    }

    /// The kernels in WebAssembly's 128-bit vectors (8 lanes of `i16`), the same
    /// arithmetic as the AVX2 ones: wrapping `i16` adds for the accumulator; for the
    /// output, `clamp(x)·w` as a wrapping `i16` product (it fits, see the AVX2 kernel),
    /// then `· clamp(x)` summed pairwise into `i32` lanes (`i32x4.dot_i16x8_s`).
    #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
    mod simd128 {
        use super::{Row, HIDDEN, QA};
        use core::arch::wasm32::*;

        /// Lanes of `i16` in one vector.
        const LANES: usize = 8;

        #[inline(always)]
        fn load(r: &Row, i: usize) -> v128 {
            // SAFETY: `i + LANES <= HIDDEN` at every call (the loops step by LANES below
            // HIDDEN, a multiple of LANES); unaligned loads are allowed in wasm.
            unsafe { v128_load(r.0.as_ptr().add(i).cast::<v128>()) }
        }

        #[inline(always)]
        fn store(r: &mut Row, i: usize, v: v128) {
            // SAFETY: as in `load`.
            unsafe { v128_store(r.0.as_mut_ptr().add(i).cast::<v128>(), v) }
        }

        #[inline(always)]
        pub fn add_sub(prev: &Row, out: &mut Row, add: &Row, sub: &Row) {
            for i in (0..HIDDEN).step_by(LANES) {
                let v = i16x8_sub(i16x8_add(load(prev, i), load(add, i)), load(sub, i));
                store(out, i, v);
            }
        }

        #[inline(always)]
        pub fn add_sub_sub(prev: &Row, out: &mut Row, add: &Row, sub: &Row, sub2: &Row) {
            for i in (0..HIDDEN).step_by(LANES) {
                let v = i16x8_sub(i16x8_add(load(prev, i), load(add, i)), load(sub, i));
                store(out, i, i16x8_sub(v, load(sub2, i)));
            }
        }

        #[inline(always)]
        pub fn screlu_dot(x: &Row, w: &Row) -> i64 {
            let zero = i16x8_splat(0);
            let qa = i16x8_splat(QA as i16);
            let mut acc = i32x4_splat(0);
            for i in (0..HIDDEN).step_by(LANES) {
                let v = i16x8_min(i16x8_max(load(x, i), zero), qa);
                let vw = i16x8_mul(v, load(w, i));
                acc = i32x4_add(acc, i32x4_dot_i16x8(vw, v));
            }
            i64::from(i32x4_extract_lane::<0>(acc))
                + i64::from(i32x4_extract_lane::<1>(acc))
                + i64::from(i32x4_extract_lane::<2>(acc))
                + i64::from(i32x4_extract_lane::<3>(acc))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn embedded_network_loads_and_round_trips() {
        let net = Network::from_bytes(EMBEDDED).expect("embedded network");
        assert_eq!(net.to_bytes(), EMBEDDED);
        assert!(Network::from_bytes(&EMBEDDED[..EMBEDDED.len() - 1]).is_err());
        assert!(Network::from_bytes(b"JIANGNN0").is_err());
        assert!(Network::from_bytes(b"JIANGNN2").is_err());
    }

    /// A bucketed network round-trips through its file form, and each position is
    /// evaluated by the bucket of its piece count.
    #[test]
    fn output_buckets_round_trip_and_select_by_piece_count() {
        // From the embedded network's last output: a one-output network, and a bucketed
        // one whose buckets are all copies of that output.
        let embedded = Network::from_bytes(EMBEDDED).expect("embedded network");
        let (w2, b2) = (
            embedded.w2[embedded.w2.len() - 1],
            embedded.b2[embedded.b2.len() - 1],
        );
        let single = Network {
            king_buckets: 1,
            w1: embedded.w1.clone(),
            b1: embedded.b1,
            w2: vec![w2],
            b2: vec![b2],
        };
        let single_bytes = single.to_bytes();
        assert!(single_bytes.starts_with(MAGIC));
        assert_eq!(
            Network::from_bytes(&single_bytes)
                .expect("one-output network")
                .to_bytes(),
            single_bytes
        );
        let mut net = Network {
            king_buckets: 1,
            w1: embedded.w1.clone(),
            b1: embedded.b1,
            w2: vec![w2; OUTPUT_BUCKETS],
            b2: vec![b2; OUTPUT_BUCKETS],
        };
        // Bucket 7 (30-32 pieces) gets a different bias: only full boards change.
        net.b2[7] += QA * QB;
        let bytes = net.to_bytes();
        assert!(bytes.starts_with(MAGIC_BUCKETS));
        let back = Network::from_bytes(&bytes).expect("bucketed network");
        assert_eq!(back.to_bytes(), bytes);
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        let mut wrong = bytes.clone();
        wrong[12] = 3; // bucket count
        assert!(Network::from_bytes(&wrong).is_err());

        let start = Position::startpos();
        let acc = back.refresh(&start);
        let pieces = start.occupied().count();
        assert_eq!(output_bucket(OUTPUT_BUCKETS, pieces), 7);
        assert_eq!(output_bucket(OUTPUT_BUCKETS, 2), 0);
        assert_eq!(output_bucket(OUTPUT_BUCKETS, 29), 6);
        assert_eq!(output_bucket(1, pieces), 0);
        // One unit of output more (up to the integer division's rounding).
        let diff =
            back.evaluate(&acc, Color::Red, pieces) - single.evaluate(&acc, Color::Red, pieces);
        assert!((diff - SCALE).abs() <= 1, "{diff}");
        assert_eq!(
            back.evaluate(&acc, Color::Red, 20),
            single.evaluate(&acc, Color::Red, 20)
        );
    }

    /// Every kernel in use natively (AVX2 where the CPU has it) against the portable
    /// loops; the browser build runs the same check on its `simd128` kernels
    /// (`jiang_selftest`, run under node by `wasm/tests/node_fuzz.mjs`).
    #[test]
    fn vector_kernels_agree_with_the_portable_loops() {
        assert!(kernels_agree(&NETWORK, &Position::startpos()));
        let middlegame = Position::from_fen(
            "r2akab1r/3n5/4b3n/p1p1pRp1p/9/2P3P2/P3P3c/N2C3C1/4A4/1RBAK1B2 w - - 0 1",
        )
        .expect("a legal position");
        assert!(kernels_agree(&NETWORK, &middlegame));
    }

    #[test]
    fn portable_and_vector_dot_products_agree() {
        let net = &*NETWORK;
        let pos = Position::startpos();
        let acc = net.refresh(&pos);
        for r in &acc.0 {
            for w in net.w2.iter().flatten() {
                assert_eq!(simd::screlu_dot(r, w), simd_portable(r, w));
            }
        }
        fn simd_portable(x: &Row, w: &Row) -> i64 {
            x.0.iter()
                .zip(w.0.iter())
                .map(|(&a, &b)| {
                    let v = i64::from(a).clamp(0, i64::from(QA));
                    v * v * i64::from(b)
                })
                .sum()
        }
    }
}

#[cfg(test)]
mod incremental_tests {
    use super::*;
    use crate::xiangqi::Move;

    /// Make/unmake (and null moves) keep the accumulators equal to a fresh computation.
    #[test]
    fn incremental_updates_match_a_refresh() {
        let net = &*NETWORK;
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for game in 0..20 {
            let mut pos = Position::startpos();
            // Half the games outgrow the stack's initial room (16 plies), which must grow.
            pos.set_nnue(true, if game % 2 == 0 { 200 } else { 16 });
            let mut made: Vec<Option<Move>> = Vec::new();
            for _ply in 0..120 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                if !pos.in_check() && next() % 8 == 0 {
                    pos.make_null_move();
                    made.push(None);
                } else {
                    // Prefer captures now and then, so that captured pieces are covered.
                    let caps: Vec<Move> = moves
                        .iter()
                        .copied()
                        .filter(|&m| pos.is_capture(m))
                        .collect();
                    let m = if !caps.is_empty() && next() % 2 == 0 {
                        caps[(next() % caps.len() as u64) as usize]
                    } else {
                        moves.as_slice()[(next() % moves.len() as u64) as usize]
                    };
                    pos.make_move(m);
                    made.push(Some(m));
                }
                let top = pos.nnue().expect("on").top();
                let fresh = net.refresh(&pos);
                assert!(top.0.iter().zip(fresh.0.iter()).all(|(a, b)| a.0 == b.0));
            }
            while let Some(m) = made.pop() {
                match m {
                    Some(m) => pos.unmake_move(m),
                    None => pos.unmake_null_move(),
                }
                let top = pos.nnue().expect("on").top();
                let fresh = net.refresh(&pos);
                assert!(top.0.iter().zip(fresh.0.iter()).all(|(a, b)| a.0 == b.0));
            }
        }
    }
}

#[cfg(test)]
mod king_relative_tests {
    use super::*;
    use crate::xiangqi::Move;

    /// A king-relative network of pseudo-random first-layer rows (small enough that no
    /// accumulator overflows) and the embedded network's output layer.
    fn random_king_network(seed: u64, buckets: usize) -> Network {
        let embedded = Network::from_bytes(EMBEDDED).expect("embedded network");
        let mut seed = seed;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let w1 = (0..buckets * INPUTS)
            .map(|_| {
                let mut r = Row([0; HIDDEN]);
                for v in r.0.iter_mut() {
                    *v = (next() % 61) as i16 - 30;
                }
                r
            })
            .collect();
        Network {
            king_buckets: buckets,
            w1,
            b1: embedded.b1,
            w2: embedded.w2.clone(),
            b2: embedded.b2.clone(),
        }
    }

    fn board_of(pos: &Position) -> [Option<Piece>; 90] {
        let mut board = [None; 90];
        for sq in pos.occupied() {
            board[sq.index()] = pos.piece_at(sq);
        }
        board
    }

    #[test]
    fn king_buckets_fold_the_palace_and_mirror_the_right_hand_file() {
        let sq = |s: &str| Square::parse(s).expect("a square");
        assert_eq!(king_bucket(Color::Red, sq("e0"), KING_BUCKETS), (1, false));
        assert_eq!(king_bucket(Color::Red, sq("d0"), KING_BUCKETS), (0, false));
        assert_eq!(king_bucket(Color::Red, sq("f0"), KING_BUCKETS), (0, true));
        assert_eq!(king_bucket(Color::Red, sq("f2"), KING_BUCKETS), (4, true));
        assert_eq!(
            king_bucket(Color::Black, sq("e9"), KING_BUCKETS),
            (1, false)
        );
        assert_eq!(
            king_bucket(Color::Black, sq("d7"), KING_BUCKETS),
            (4, false)
        );
        let buckets: std::collections::BTreeSet<usize> =
            ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]
                .iter()
                .map(|s| king_bucket(Color::Red, sq(s), KING_BUCKETS).0)
                .collect();
        assert_eq!(buckets.len(), KING_BUCKETS);
        let squares: std::collections::BTreeSet<(usize, bool)> =
            ["d0", "e0", "f0", "d1", "e1", "f1", "d2", "e2", "f2"]
                .iter()
                .map(|s| king_bucket(Color::Black, sq(s).flip_rank(), KING_SQUARE_BUCKETS))
                .collect();
        assert_eq!(squares.len(), KING_SQUARE_BUCKETS);
        assert!(squares
            .iter()
            .all(|&(b, mirror)| b < KING_SQUARE_BUCKETS && !mirror));
        // A piece's feature for a king on f0 is its mirror image's for a king on d0.
        let rook = Piece::new(Color::Black, PieceKind::Chariot);
        assert_eq!(
            king_feature(Color::Red, rook, sq("b7"), sq("f0"), KING_BUCKETS),
            king_feature(Color::Red, rook, sq("h7"), sq("d0"), KING_BUCKETS)
        );
    }

    #[test]
    fn a_king_relative_file_round_trips_and_a_damaged_one_is_refused() {
        let nine = random_king_network(12, KING_SQUARE_BUCKETS).to_bytes();
        let back = Network::from_bytes(&nine).expect("a network of nine king buckets");
        assert_eq!(back.king_buckets, KING_SQUARE_BUCKETS);
        assert_eq!(back.to_bytes(), nine);
        let net = random_king_network(11, KING_BUCKETS);
        let bytes = net.to_bytes();
        assert!(bytes.starts_with(MAGIC_KING));
        let back = Network::from_bytes(&bytes).expect("a king-relative network");
        assert_eq!(back.king_buckets, KING_BUCKETS);
        assert_eq!(back.to_bytes(), bytes);
        let mut damaged = bytes.clone();
        damaged[1000] ^= 1;
        assert_eq!(
            Network::from_bytes(&damaged).err(),
            Some(NetworkError::Hash)
        );
        assert!(Network::from_bytes(&bytes[..bytes.len() - 1]).is_err());
        assert!(Network::from_bytes(&bytes[..20]).is_err());
        // A header naming another count of king buckets (hash mended) is refused too.
        let mut other = bytes[..bytes.len() - 8].to_vec();
        other[16] = 3;
        let hash = fnv1a(&other);
        other.extend_from_slice(&hash.to_le_bytes());
        assert_eq!(
            Network::from_bytes(&other).err(),
            Some(NetworkError::KingBuckets(3))
        );
    }

    /// With both kings off the middle file, a king-relative network sees a position and
    /// its mirror image identically (each view mirrors by its own king).
    #[test]
    fn mirrored_positions_evaluate_alike_when_both_kings_are_off_the_middle_file() {
        let net = random_king_network(5, KING_BUCKETS);
        let fen = "2ba1k3/4a4/4b1n2/p3p3p/2r6/6R2/P3P3P/2N1C4/3K5/2BA1AB2 w - - 0 1";
        let pos = Position::from_fen(fen).expect("a legal position");
        // Each rank read right to left (runs of empty points reverse with it).
        let (board, rest) = fen.split_once(' ').expect("a FEN");
        let ranks: Vec<String> = board
            .split('/')
            .map(|r| r.chars().rev().collect())
            .collect();
        let mirrored =
            Position::from_fen(&format!("{} {rest}", ranks.join("/"))).expect("the mirror image");
        assert_eq!(
            mirrored.king_square(Color::Red),
            mirror_square(pos.king_square(Color::Red))
        );
        let pieces = pos.occupied().count();
        let (a, b) = (net.refresh(&pos), net.refresh(&mirrored));
        assert!(a.0.iter().zip(b.0.iter()).all(|(x, y)| x.0 == y.0));
        assert_eq!(
            net.evaluate(&a, Color::Red, pieces),
            net.evaluate(&b, Color::Red, pieces)
        );
        // A plain network is not mirror-blind: the property belongs to the king buckets.
        let plain = Network::from_bytes(EMBEDDED).expect("embedded network");
        let (c, d) = (plain.refresh(&pos), plain.refresh(&mirrored));
        assert!(c.0.iter().zip(d.0.iter()).any(|(x, y)| x.0 != y.0));
    }

    /// Random games with king moves: the incremental updates of a king-relative network
    /// (refreshing a view when its king changes bucket) equal a fresh computation.
    #[test]
    fn king_moves_keep_the_accumulators_exact() {
        for buckets in [KING_BUCKETS, KING_SQUARE_BUCKETS] {
            king_moves_keep_exact(&random_king_network(7, buckets));
        }
    }

    fn king_moves_keep_exact(net: &Network) {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut king_moves = 0;
        for _game in 0..12 {
            let mut pos = Position::startpos();
            let mut stack = AccumulatorStack {
                stack: vec![net.refresh(&pos)],
                top: 0,
            };
            let mut made: Vec<Move> = Vec::new();
            for _ply in 0..150 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                // Prefer king moves, the case under test.
                let kings: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|m| pos.piece_at(m.from()).map(|p| p.kind()) == Some(PieceKind::King))
                    .collect();
                let m = if !kings.is_empty() && next() % 2 == 0 {
                    king_moves += 1;
                    kings[(next() % kings.len() as u64) as usize]
                } else {
                    moves.as_slice()[(next() % moves.len() as u64) as usize]
                };
                let piece = pos.piece_at(m.from()).expect("a piece moves");
                let captured = pos.piece_at(m.to());
                pos.make_move(m);
                let kings = [pos.king_square(Color::Red), pos.king_square(Color::Black)];
                stack.push_move_with(
                    net,
                    piece,
                    m.from(),
                    m.to(),
                    captured,
                    &board_of(&pos),
                    kings,
                );
                made.push(m);
                let fresh = net.refresh(&pos);
                assert!(stack
                    .top()
                    .0
                    .iter()
                    .zip(fresh.0.iter())
                    .all(|(a, b)| a.0 == b.0));
            }
            while let Some(m) = made.pop() {
                pos.unmake_move(m);
                stack.pop();
                let fresh = net.refresh(&pos);
                assert!(stack
                    .top()
                    .0
                    .iter()
                    .zip(fresh.0.iter())
                    .all(|(a, b)| a.0 == b.0));
            }
        }
        assert!(king_moves > 100, "{king_moves} king moves");
    }
}
