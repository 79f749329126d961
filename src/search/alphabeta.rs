//! One search thread: iterative deepening, root search, PVS and quiescence.

use super::chance::{ChanceStep, ChanceWindow};
use super::history::{history_bonus, History, MAX_PLY};
use super::picker::MovePicker;
use super::stats::stat;
use super::{InfoCallback, Score, ScoreBound, SearchInfo, SearchResult, Shared, INFINITY};
use crate::game::{Game, GenType, Outcome, MAX_CHANCE_OUTCOMES};
use crate::movelist::MoveList;
use crate::tt::{Bound, TtEntry, MATE, MATE_BOUND};
use std::sync::atomic::Ordering;

use super::params::{self, lmr};
use super::timeman::IterationClock;

/// On a clock, a search with one legal move stops after this depth.
const FORCED_MOVE_DEPTH: i32 = 6;

/// The score from which the search treats the game as decided (`Game::DECIDED_SCORE`, at
/// most a mate score).
#[inline(always)]
fn decided_score<G: Game>() -> i32 {
    G::DECIDED_SCORE.min(MATE_BOUND)
}

/// Reverse futility margin: a static eval this far above beta at low depth fails high.
#[inline(always)]
fn rfp_margin(depth: i32, improving: bool) -> i32 {
    params::rfp_margin() * depth
        - if improving {
            params::rfp_improving()
        } else {
            0
        }
}

/// Futility margin for quiet moves at low depth.
#[inline(always)]
fn futility_margin(depth: i32) -> i32 {
    params::futility_base() + params::futility_per_depth() * depth
}

/// Quiet moves searched before the rest are pruned (late-move pruning).
#[inline(always)]
fn lmp_count(depth: i32, improving: bool) -> usize {
    let base = params::lmp_base() + depth * depth;
    (if improving { base } else { base / 2 + 1 }) as usize
}

/// The entry's move, if it is legal here (a key collision can bring any move).
#[inline(always)]
fn legal_tt_move<G: Game>(pos: &G, e: TtEntry) -> Option<G::Move> {
    G::move_from_u16(e.mv).filter(|&m| pos.is_legal(m))
}

/// Score of a rule outcome at `ply`; `draw` is the draw score for the side to move.
#[inline(always)]
fn outcome_score(o: Outcome, ply: usize, draw: i32) -> i32 {
    match o {
        Outcome::Draw => draw,
        Outcome::Win => MATE - ply as i32,
        Outcome::Loss => -(MATE - ply as i32),
    }
}

#[derive(Clone, Copy)]
struct Frame<M> {
    eval: i32,
    /// The move played from this ply (None for a null move).
    mv: Option<M>,
    /// History index of that move (for counter-moves).
    hist_idx: usize,
    /// A move to leave out (singular-extension verification search).
    excluded: Option<M>,
}

struct RootMove<M> {
    mv: M,
    score: i32,
    /// What `score` is: exact, or a bound from the window it was searched with.
    bound: ScoreBound,
    prev_score: i32,
    pv: Vec<M>,
}

/// A search thread.
pub(crate) struct Searcher<'a, G: Game> {
    shared: &'a Shared<'a, G::Move>,
    id: usize,
    nodes: u64,
    seldepth: usize,
    stopped: bool,
    hist: &'a mut History<G>,
    stack: Vec<Frame<G::Move>>,
    pv: Vec<[Option<G::Move>; MAX_PLY + 1]>,
    pv_len: [usize; MAX_PLY + 2],
    root_moves: Vec<RootMove<G::Move>>,
    root_depth: i32,
    /// Side to move at the root (contempt is from its point of view).
    root_side: usize,
}

impl<'a, G: Game> Searcher<'a, G> {
    pub fn new(shared: &'a Shared<'a, G::Move>, id: usize, hist: &'a mut History<G>) -> Self {
        Searcher {
            shared,
            id,
            nodes: 0,
            seldepth: 0,
            stopped: false,
            hist,
            stack: vec![
                Frame {
                    eval: 0,
                    mv: None,
                    hist_idx: 0,
                    excluded: None,
                };
                MAX_PLY + 4
            ],
            pv: vec![[None; MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: [0; MAX_PLY + 2],
            root_moves: Vec::new(),
            root_depth: 0,
            root_side: 0,
        }
    }

    /// Draw score for the side to move in `pos`: contempt counts against the root side.
    #[inline(always)]
    fn draw_score(&self, pos: &G) -> i32 {
        let c = self.shared.limits.contempt;
        if pos.side_index() == self.root_side {
            -c
        } else {
            c
        }
    }

    /// Counts a node and checks, every 512 nodes (main thread), the clock and node limit;
    /// every 16 during a search's first 4096 nodes, which can be slow: a fresh large hash
    /// table is faulted in by its first probes (the self-play soak saw a first Baroque
    /// `go movetime 50` take 250 ms on a loaded machine, 337 nodes in its first 50 ms).
    #[inline(always)]
    fn tick(&mut self) {
        self.nodes += 1;
        if self.nodes & 511 == 0 || (self.nodes < 4096 && self.nodes & 15 == 0) {
            self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if self.id == 0 {
                let c = self.shared.control;
                if !c.pondering() && c.elapsed_ms() >= c.hard_ms() {
                    c.stop();
                }
            }
        }
        if self.id == 0 {
            if let Some(limit) = self.shared.limits.nodes {
                if self.nodes >= limit {
                    self.shared.control.stop();
                }
            }
        }
    }

    #[inline(always)]
    fn should_stop(&mut self) -> bool {
        if !self.stopped && self.shared.control.stopped() {
            self.stopped = true;
        }
        self.stopped
    }

    fn total_nodes(&self) -> u64 {
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        self.shared.total_nodes()
    }

    fn info(&self, depth: i32, score: i32, bound: ScoreBound) -> SearchInfo<G::Move> {
        self.line_info(depth, 0, score, bound)
    }

    /// The report of MultiPV line `k` (0-based).
    fn line_info(
        &self,
        depth: i32,
        k: usize,
        score: i32,
        bound: ScoreBound,
    ) -> SearchInfo<G::Move> {
        let nodes = self.total_nodes();
        let time_ms = self.shared.control.elapsed_ms();
        SearchInfo {
            depth,
            seldepth: self.seldepth,
            score: Score::from_internal(score),
            raw_score: score,
            bound,
            nodes,
            time_ms,
            nps: nodes * 1000 / time_ms.max(1),
            hashfull: self.shared.tt.hashfull(),
            pv: self
                .root_moves
                .get(k)
                .map(|r| r.pv.clone())
                .unwrap_or_default(),
            multipv: k + 1,
        }
    }

    /// Iterative deepening. Returns the best move of the last completed iteration (or the
    /// best so far of an interrupted one, or the first legal move).
    pub fn iterative_deepening(
        &mut self,
        pos: &mut G,
        on_info: Option<InfoCallback<'_, G::Move>>,
    ) -> SearchResult<G::Move> {
        pos.reserve(MAX_PLY + 8);
        pos.prepare_search(MAX_PLY + 8);
        self.root_side = pos.side_index();
        let limits = self.shared.limits;
        let mut legal = MoveList::new();
        pos.generate(GenType::All, &mut legal);
        self.root_moves = legal
            .iter()
            .filter(|m| limits.search_moves.is_empty() || limits.search_moves.contains(m))
            .filter(|m| !limits.banned.contains(m))
            .map(|&m| RootMove {
                mv: m,
                score: -INFINITY,
                bound: ScoreBound::Exact,
                prev_score: -INFINITY,
                pv: vec![m],
            })
            .collect();
        if self.root_moves.is_empty() {
            // No legal move: what that means is the game's to say (Xiangqi: lost, mate or
            // stalemate; Baroque: a draw). Legal moves, all of them banned: 0.
            let score = if legal.is_empty() {
                outcome_score(pos.no_moves_outcome(), 0, self.draw_score(pos))
            } else {
                0
            };
            if self.id == 0 {
                self.shared.control.stop();
            }
            return SearchResult {
                best_move: None,
                ponder_move: None,
                score,
                depth: 0,
                nodes: 0,
                pv: Vec::new(),
                lines: Vec::new(),
            };
        }
        // Order the first iteration by capture value and the TT move.
        let tt_move = self
            .shared
            .tt
            .probe(pos.key(), 0)
            .and_then(|e| G::move_from_u16(e.mv));
        for r in self.root_moves.iter_mut() {
            r.prev_score = if Some(r.mv) == tt_move {
                INFINITY
            } else if pos.is_capture(r.mv) {
                pos.capture_order(r.mv)
            } else {
                -INFINITY + 1
            };
        }
        self.root_moves.sort_by_key(|r| -r.prev_score);

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as i32 - 4)
            .clamp(1, MAX_PLY as i32 - 4);
        let control = self.shared.control;
        let mut completed_depth = 0;
        let mut best_score = -INFINITY;
        let mut iteration_clock = IterationClock::new(self.shared.previous_score);
        let mut last_best = self.root_moves[0].mv;
        let mut prev_iter_score = 0;
        let mut depth = 1 + (self.id as i32 % 2);
        while depth <= max_depth {
            self.root_depth = depth;
            self.seldepth = 0;
            let lines = limits.multipv.clamp(1, self.root_moves.len());
            for k in 0..lines {
                // Aspiration window around the line's previous score.
                let prev = if k == 0 {
                    best_score
                } else {
                    self.root_moves[k].prev_score
                };
                self.search_line(pos, depth, k, prev, on_info);
                if self.stopped {
                    break;
                }
            }
            if !self.stopped {
                // Later lines searched with their own windows may score a little above
                // earlier ones: order the reported lines by score.
                self.root_moves[..lines].sort_by_key(|r| -r.score);
            }
            if self.stopped && self.root_moves[0].score == -INFINITY {
                // Nothing from this iteration: keep the previous order's best.
                break;
            }
            for r in self.root_moves.iter_mut() {
                r.prev_score = r.score;
            }
            if !self.stopped {
                completed_depth = depth;
                best_score = self.root_moves[0].score;
            } else if self.root_moves[0].score > -INFINITY {
                // An interrupted iteration's best move was fully searched: trust it.
                best_score = self.root_moves[0].score;
            }
            if self.id != 0 {
                if self.stopped {
                    break;
                }
                depth += 1;
                continue;
            }
            if let Some(f) = on_info {
                if !self.stopped || completed_depth == 0 {
                    f(&self.info(depth, best_score, ScoreBound::Exact));
                    if !self.stopped {
                        for k in 1..limits.multipv.min(self.root_moves.len()) {
                            f(&self.line_info(
                                depth,
                                k,
                                self.root_moves[k].score,
                                ScoreBound::Exact,
                            ));
                        }
                    }
                }
            }
            if self.stopped {
                // The interrupted iteration's best move, fully searched, is what will be
                // played: if it changed the move or its score (a mate found late, a
                // fail-low), say so, as the line of the move played. A GUI shows it, and
                // a mate found here would otherwise go unannounced. `last_best` and
                // `prev_iter_score` still hold the last completed (reported) iteration's.
                let best = &self.root_moves[0];
                if completed_depth > 0
                    && best.score > -INFINITY
                    && (best.mv, best.score) != (last_best, prev_iter_score)
                {
                    if let Some(f) = on_info {
                        f(&self.info(depth, best.score, best.bound));
                    }
                }
                break;
            }
            // `go mate N`: a mate short enough is what was asked for.
            if let Some(n) = limits.mate.map(|n| n.min(1000) as i32) {
                if best_score >= MATE_BOUND && (MATE - best_score + 1) / 2 <= n {
                    break;
                }
            }
            // Time management between iterations.
            let best = self.root_moves[0].mv;
            iteration_clock.record(depth, best != last_best, best_score);
            last_best = best;
            if !limits.infinite && !control.pondering() {
                let soft = control.soft_ms();
                if soft != u64::MAX {
                    // With one legal move there is nothing to choose: a few iterations
                    // give the GUI a score and a ponder move.
                    let forced = self.root_moves.len() == 1 && depth >= FORCED_MOVE_DEPTH;
                    if forced
                        || iteration_clock.should_stop(
                            depth,
                            control.elapsed_ms(),
                            soft,
                            control.hard_ms(),
                        )
                    {
                        break;
                    }
                }
                // A found mate ends the search early only when nothing shorter can
                // exist (mate in one): a longer one may hide a shorter one that pruning
                // and reductions kept out of sight, and the next iterations find it.
                if best_score == MATE - 1 {
                    break;
                }
            }
            prev_iter_score = best_score;
            depth += 1;
        }
        // The main thread's end stops the helpers; an infinite or ponder search that ran
        // out of depths (every root move scored by a solved table, say) waits for `stop`
        // or `ponderhit` with them instead (`search::search` waits).
        if self.id == 0 && !(limits.infinite || control.pondering()) {
            control.stop();
        }
        // Publish the exact count (the counter is otherwise updated every 512 nodes).
        self.shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let best = &self.root_moves[0];
        SearchResult {
            best_move: Some(best.mv),
            ponder_move: best.pv.get(1).copied(),
            score: best_score,
            depth: completed_depth,
            nodes: self.nodes,
            pv: best.pv.clone(),
            lines: self.root_moves[..limits.multipv.clamp(1, self.root_moves.len())]
                .iter()
                .filter(|r| r.prev_score > -INFINITY)
                .map(|r| (r.mv, r.prev_score))
                .collect(),
        }
    }

    /// One line of an iteration: an aspiration search of the root moves from `k` on,
    /// around `prev`, widened until the score falls inside the window; leaves them sorted.
    fn search_line(
        &mut self,
        pos: &mut G,
        depth: i32,
        k: usize,
        prev: i32,
        on_info: Option<InfoCallback<'_, G::Move>>,
    ) {
        let control = self.shared.control;
        let mut delta = params::aspiration_delta();
        let (mut alpha, mut beta) =
            if depth >= params::aspiration_min_depth() && prev.abs() < MATE_BOUND {
                ((prev - delta).max(-INFINITY), (prev + delta).min(INFINITY))
            } else {
                (-INFINITY, INFINITY)
            };
        loop {
            let score = self.search_root(pos, depth, alpha, beta, k);
            self.root_moves[k..].sort_by_key(|r| -r.score);
            if self.should_stop() {
                break;
            }
            let bound = match ScoreBound::in_window(score, alpha, beta) {
                ScoreBound::Exact => break,
                bound => bound,
            };
            if let (Some(f), 0) = (on_info, self.id) {
                if control.elapsed_ms() > 1000 {
                    f(&self.line_info(depth, k, score, bound));
                }
            }
            if bound == ScoreBound::Upper {
                beta = (alpha + beta) / 2;
                alpha = (score - delta).max(-INFINITY);
            } else {
                beta = (score + delta).min(INFINITY);
            }
            delta += delta / 2 + params::aspiration_growth();
        }
    }

    /// Searches the root moves from index `first` on (earlier ones are the lines already
    /// reported in a MultiPV search).
    fn search_root(
        &mut self,
        pos: &mut G,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        first: usize,
    ) -> i32 {
        let mut best = -INFINITY;
        self.pv_len[0] = 0;
        let in_check = pos.in_check();
        for i in first..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            if let (Some(f), 0) = (self.shared.on_currmove, self.id) {
                if self.shared.control.elapsed_ms() >= super::CURRMOVE_AFTER_MS {
                    f(depth, m, i + 1);
                }
            }
            let gives_check = pos.gives_check(m);
            let is_capture = pos.is_capture(m);
            let new_depth = depth - 1 + i32::from(gives_check);
            // An empty continuation unless a PV search of this move writes one: a move
            // that fails high in its null-window search must not inherit another
            // move's line (it became an illegal ponder move).
            self.pv_len[1] = 1;
            self.play(pos, 0, m);
            let mut score;
            if i == first {
                score = -self.negamax::<true>(pos, new_depth, -beta, -alpha, 1, false);
            } else {
                let mut r = 0;
                let n = i - first;
                if depth >= params::lmr_min_depth()
                    && n >= params::root_lmr_min_moves() as usize
                    && !in_check
                    && !gives_check
                    && !is_capture
                {
                    // One ply less once the best line is decided: a quiet late move
                    // can then only matter by mating, which needs the depth.
                    let decided = alpha >= decided_score::<G>();
                    r = (lmr(depth, n) - 1 - i32::from(decided)).clamp(0, new_depth - 1);
                }
                score = -self.negamax::<false>(pos, new_depth - r, -alpha - 1, -alpha, 1, true);
                if score > alpha && r > 0 {
                    score = -self.negamax::<false>(pos, new_depth, -alpha - 1, -alpha, 1, true);
                }
                if score > alpha && score < beta {
                    score = -self.negamax::<true>(pos, new_depth, -beta, -alpha, 1, false);
                }
            }
            pos.unmake_move(m);
            score = self.checked_chance::<true>(pos, 0, m, new_depth, alpha, beta, score);
            if self.should_stop() {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == first || score > alpha {
                rm.score = score;
                rm.bound = ScoreBound::in_window(score, alpha, beta);
                rm.pv.clear();
                rm.pv.push(m);
                for p in 1..self.pv_len[1] {
                    match self.pv[1][p] {
                        Some(pm) => rm.pv.push(pm),
                        None => break,
                    }
                }
            } else {
                // Not better: keep it below the best, in search order.
                rm.score = -INFINITY;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// The score `m` got at `ply` (searched with `alpha`, `beta`), checked where it is a
    /// win in a PV node within `chance_plies` of the root and `m` is a chance event
    /// (Jieqi: a face-down piece whose kind nobody knows): the search decided the event
    /// by one draw of its own, and a mate that only that draw gives (a chariot in one
    /// case of eight) is no mate of the move. Its score becomes the weighted mean over
    /// every outcome ([`Searcher::chance_node`]); other moves keep the score their draw
    /// gave (measured: expanding every chance event of a PV node cost more than it
    /// brought, `docs/MEASUREMENTS.md`, "Jieqi"). Nothing at all for games without
    /// chance events.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn checked_chance<const PV: bool>(
        &mut self,
        pos: &mut G,
        ply: usize,
        m: G::Move,
        depth: i32,
        alpha: i32,
        beta: i32,
        score: i32,
    ) -> i32 {
        if !(G::HAS_CHANCE
            && PV
            && score > alpha
            && score >= params::chance_win()
            && ply < params::chance_plies() as usize
            && !self.stopped)
        {
            return score;
        }
        let mut outcomes = [(m, 0u32); MAX_CHANCE_OUTCOMES];
        let n = pos.chance_outcomes(m, &mut outcomes);
        if n <= 1 {
            return score;
        }
        self.chance_node(pos, ply, m, &outcomes[..n], depth, alpha, beta)
    }

    /// The score of the chance event `m` from the mover's view: the weighted mean of its
    /// outcomes' scores, each counted within plus or minus `chance_win`, by Star1
    /// ([`ChanceWindow`]). The line below it is not reported: it depends on the outcome.
    #[allow(clippy::too_many_arguments)]
    fn chance_node(
        &mut self,
        pos: &mut G,
        ply: usize,
        m: G::Move,
        outcomes: &[(G::Move, u32)],
        depth: i32,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        stat!(ChanceNode);
        self.stack[ply].mv = Some(m);
        self.stack[ply].hist_idx = pos.history_index(m);
        let total = outcomes.iter().map(|&(_, w)| u64::from(w.max(1))).sum();
        let mut node = ChanceWindow::new(alpha, beta, params::chance_win(), total, INFINITY);
        let mut score = None;
        for &(o, w) in outcomes {
            let (a, b) = match node.next(w) {
                ChanceStep::Search(a, b) => (a, b),
                ChanceStep::Done(bound) => {
                    score = Some(bound);
                    break;
                }
            };
            self.make(pos, o);
            let v = -self.negamax::<true>(pos, depth, -b, -a, ply + 1, false);
            pos.unmake_move(o);
            if self.stopped {
                return 0;
            }
            if let Some(bound) = node.record(v) {
                score = Some(bound);
                break;
            }
        }
        self.pv_len[ply + 1] = ply + 1;
        score.unwrap_or_else(|| node.mean_score())
    }

    fn update_pv(&mut self, ply: usize, m: G::Move) {
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        self.pv[ply][ply] = Some(m);
        for p in ply + 1..child_len {
            self.pv[ply][p] = self.pv[ply + 1][p];
        }
        self.pv_len[ply] = child_len;
    }

    /// Plays `m` from `ply`, recording it and its history index in the stack (the
    /// children's continuation history and null-move rule read them).
    #[inline(always)]
    fn play(&mut self, pos: &mut G, ply: usize, m: G::Move) {
        self.stack[ply].mv = Some(m);
        self.stack[ply].hist_idx = pos.history_index(m);
        self.make(pos, m);
    }

    /// Makes `m` (quiescence, which keeps no stack, calls this directly).
    #[inline(always)]
    fn make(&self, pos: &mut G, m: G::Move) {
        // The child probes the table first thing: start loading its bucket now, so the
        // memory latency overlaps making the move (where the game knows the key before)
        // and the child's entry checks.
        match pos.key_after(m) {
            Some(key) => {
                self.shared.tt.prefetch(key);
                pos.make_move(m);
            }
            None => {
                pos.make_move(m);
                self.shared.tt.prefetch(pos.key());
            }
        }
    }

    /// Bookkeeping on entering any node: counts it, and returns a score when the node
    /// ends here (search stopped, game over by rule, maximum ply reached).
    #[inline(always)]
    fn enter_node(&mut self, pos: &G, ply: usize) -> Option<i32> {
        self.tick();
        if self.should_stop() {
            return Some(0);
        }
        self.seldepth = self.seldepth.max(ply);
        if let Some(o) = pos.rule_outcome(ply, self.shared.limits.judge_repetitions) {
            return Some(outcome_score(o, ply, self.draw_score(pos)));
        }
        if let Some((o, n)) = pos.solved(ply) {
            return Some(match o {
                Outcome::Draw => self.draw_score(pos) + n,
                _ => outcome_score(o, ply + n.max(0) as usize, 0),
            });
        }
        if ply >= MAX_PLY - 2 {
            return Some(if pos.in_check() { 0 } else { pos.evaluate() });
        }
        None
    }

    /// Principal variation search.
    fn negamax<const PV: bool>(
        &mut self,
        pos: &mut G,
        mut depth: i32,
        mut alpha: i32,
        mut beta: i32,
        ply: usize,
        cut_node: bool,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        if depth <= 0 {
            return self.qsearch::<PV>(pos, alpha, beta, ply, 0);
        }
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        stat!(Nodes);
        #[cfg(feature = "search-stats")]
        super::stats::depth_node(depth);
        let in_check = pos.in_check();
        // Mate distance pruning.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        let excluded = self.stack[ply].excluded;
        let key = pos.key();
        let tt = self.shared.tt.probe(key, ply);
        let tt_move = tt.and_then(|e| legal_tt_move(pos, e));
        if let Some(e) = tt {
            stat!(TtHit);
            if !PV && excluded.is_none() && e.depth >= depth && e.cuts(alpha, beta) {
                stat!(TtCut);
                return e.score;
            }
        }

        let static_eval = if in_check {
            -INFINITY
        } else {
            tt.map_or_else(|| pos.evaluate(), |e| e.eval)
        };
        let eval = if in_check {
            -INFINITY
        } else {
            // A TT score is a better estimate when its bound points the right way.
            match tt {
                Some(e)
                    if e.score.abs() < MATE_BOUND
                        && ((e.bound == Bound::Lower && e.score > static_eval)
                            || (e.bound == Bound::Upper && e.score < static_eval)) =>
                {
                    e.score
                }
                _ => static_eval,
            }
        };
        self.stack[ply].eval = eval;
        let improving = !in_check && ply >= 2 && eval > self.stack[ply - 2].eval;

        // The cuts below trust the static evaluation against beta: not in a decided
        // window (`Game::DECIDED_SCORE`), nor in a mate window.
        let decided = decided_score::<G>();
        if !PV && !in_check && excluded.is_none() && beta.abs() < decided {
            // Reverse futility pruning.
            if depth <= params::rfp_max_depth() && eval - rfp_margin(depth, improving) >= beta {
                stat!(Rfp);
                return eval;
            }
            // Null-move pruning.
            if depth >= params::nmp_min_depth()
                && eval >= beta
                && self.stack[ply - 1].mv.is_some()
                && pos.null_move_allowed()
            {
                stat!(NullTry);
                // A large reduction: the null move only has to show that the side to
                // move stays above beta even after passing (was 3 + depth / 4, at most
                // +3 for the margin; see MEASUREMENTS, issue 24).
                let r = params::nmp_base_reduction()
                    + depth / params::nmp_depth_divisor()
                    + ((eval - beta) / params::nmp_eval_divisor())
                        .min(params::nmp_max_eval_reduction());
                self.stack[ply].mv = None;
                pos.make_null_move();
                let v =
                    -self.negamax::<false>(pos, depth - r, -beta, -beta + 1, ply + 1, !cut_node);
                pos.unmake_null_move();
                if self.stopped {
                    return 0;
                }
                if v >= beta {
                    stat!(NullCut);
                    return if v >= MATE_BOUND { beta } else { v };
                }
            }
        }

        // ProbCut: a good capture whose reduced search beats beta by a margin
        // would almost surely beat beta at full depth too; a quiescence search first
        // drops most candidates cheaply.
        let probcut_beta = beta + params::probcut_margin();
        let probcut_depth = depth - params::probcut_reduction();
        if !PV
            && !in_check
            && excluded.is_none()
            && depth >= params::probcut_min_depth()
            && beta.abs() < decided
            && !tt.is_some_and(|e| e.depth > probcut_depth && e.score < probcut_beta)
        {
            let mut picker = MovePicker::<G>::new_qsearch(pos, tt_move, false);
            while let Some(m) = picker.next(pos, self.hist) {
                // Only captures that win enough by exchange to get near the margin.
                if !pos.see_ge(m, probcut_beta - static_eval) {
                    continue;
                }
                stat!(ProbCutTry);
                self.play(pos, ply, m);
                let mut v =
                    -self.qsearch::<false>(pos, -probcut_beta, -probcut_beta + 1, ply + 1, 0);
                if v >= probcut_beta {
                    v = -self.negamax::<false>(
                        pos,
                        probcut_depth,
                        -probcut_beta,
                        -probcut_beta + 1,
                        ply + 1,
                        !cut_node,
                    );
                }
                pos.unmake_move(m);
                if self.stopped {
                    return 0;
                }
                if v >= probcut_beta {
                    stat!(ProbCut);
                    self.shared.tt.store(
                        key,
                        ply,
                        G::move_to_u16(m),
                        v,
                        static_eval,
                        probcut_depth + 1,
                        Bound::Lower,
                    );
                    return v;
                }
            }
        }

        // Internal iterative reduction: without a TT move this node is likely less
        // important than it looks, and searching it shallower first is cheap.
        if tt_move.is_none() && depth >= params::iir_min_depth() && (PV || cut_node) {
            depth -= 1;
        }

        let prev_idx = if ply > 0 && self.stack[ply - 1].mv.is_some() {
            Some(self.stack[ply - 1].hist_idx)
        } else {
            None
        };
        let prev2_idx = if ply > 1 && self.stack[ply - 2].mv.is_some() {
            Some(self.stack[ply - 2].hist_idx)
        } else {
            None
        };
        let cont = [prev_idx, prev2_idx];
        let counter = prev_idx.and_then(|i| self.hist.counter(i));
        let killers = self.hist.killers[ply];
        let mut picker = MovePicker::<G>::new(in_check, tt_move, killers, counter, cont);
        let side = pos.side_index();
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut moves_searched = 0usize;
        let mut quiets_tried: [Option<G::Move>; 32] = [None; 32];
        let mut n_quiets = 0;
        let original_alpha = alpha;

        while let Some(m) = picker.next(pos, self.hist) {
            if Some(m) == excluded {
                continue;
            }
            let is_capture = pos.is_capture(m);
            let gives_check = pos.gives_check(m);
            let is_killer = killers.contains(&Some(m));

            // History score of a quiet move (ordering, pruning and reductions).
            let hist = if is_capture {
                0
            } else {
                self.hist.ordering_score(side, pos.history_index(m), &cont)
            };
            if best_score > -MATE_BOUND && !in_check {
                if !is_capture && !gives_check {
                    if moves_searched >= lmp_count(depth, improving) {
                        stat!(Lmp);
                        picker.skip_quiets = true;
                        continue;
                    }
                    // The depth this move would get after its late-move reduction: the
                    // pruning below looks that far, not at the full depth.
                    let lmr_depth = (depth - 1 - lmr(depth, moves_searched + 1)
                        + hist / params::lmr_history_divisor())
                    .max(0);
                    // History pruning: a quiet move that has kept failing here is skipped
                    // at shallow depth.
                    if lmr_depth < params::history_prune_max_depth()
                        && hist < -params::history_prune_margin() * depth
                    {
                        stat!(HistPrune);
                        continue;
                    }
                    // Futility: this quiet move cannot lift a hopeless eval to alpha. Skip
                    // only this move: a later quiet move may give check. Not when alpha is
                    // a mate (no eval reaches it, so every quiet move would go, but in
                    // Xiangqi a quiet move that gives no check can mate by leaving no
                    // legal move).
                    if lmr_depth <= params::futility_max_depth()
                        && alpha < MATE_BOUND
                        && eval + futility_margin(lmr_depth) <= alpha
                        && !is_killer
                    {
                        stat!(Futility);
                        continue;
                    }
                    // A quiet move that hands material away by the exchange on its square.
                    if lmr_depth <= params::see_quiet_max_depth()
                        && !pos.see_ge(m, -params::see_quiet_margin() * lmr_depth * lmr_depth)
                    {
                        stat!(SeeQuiet);
                        continue;
                    }
                } else if is_capture
                    && depth <= params::see_capture_max_depth()
                    && !pos.see_ge(m, -params::see_capture_margin() * depth)
                {
                    stat!(SeeCapture);
                    continue;
                }
            }

            // Check extension, limited so that checking sequences cannot run away.
            let mut extension =
                i32::from(gives_check && ply < 2 * self.root_depth as usize && pos.see_ge(m, 0));
            if extension > 0 {
                stat!(CheckExt);
            }
            // Singular extension: if every other move fails well below the TT move's
            // score, the TT move is forced and deserves a deeper look. If even without it
            // the node fails high, cut (multi-cut).
            if let Some(e) = tt {
                if Some(m) == tt_move
                    && excluded.is_none()
                    && depth >= params::singular_min_depth()
                    && e.depth >= depth - params::singular_tt_depth_margin()
                    && matches!(e.bound, Bound::Lower | Bound::Exact)
                    && e.score.abs() < MATE_BOUND
                    && ply < 2 * self.root_depth as usize
                {
                    stat!(SingularTry);
                    let s_beta = e.score - params::singular_margin() * depth;
                    self.stack[ply].excluded = Some(m);
                    let v = self.negamax::<false>(
                        pos,
                        (depth - 1) / 2,
                        s_beta - 1,
                        s_beta,
                        ply,
                        cut_node,
                    );
                    self.stack[ply].excluded = None;
                    if self.stopped {
                        return 0;
                    }
                    if v < s_beta {
                        stat!(SingularExt);
                        extension = 1;
                    } else if s_beta >= beta {
                        stat!(MultiCut);
                        return s_beta;
                    }
                }
            }
            let new_depth = depth - 1 + extension;
            if PV {
                // As at the root: no stale continuation for a null-window fail-high.
                self.pv_len[ply + 1] = ply + 1;
            }
            self.play(pos, ply, m);
            let mut score;
            if moves_searched == 0 {
                score = -self.negamax::<PV>(pos, new_depth, -beta, -alpha, ply + 1, false);
            } else {
                let mut r = 0;
                if depth >= params::lmr_min_depth()
                    && moves_searched > 2 * usize::from(PV)
                    && !is_capture
                {
                    r = lmr(depth, moves_searched);
                    r -= i32::from(PV);
                    r -= i32::from(is_killer || Some(m) == counter);
                    r -= i32::from(gives_check);
                    r -= i32::from(in_check);
                    r += i32::from(!improving);
                    // An expected cut node gets one more ply of reduction, but not
                    // once alpha is a mate: there the side to move only looks for a
                    // shorter mate, most of its moves fail low rather than cut, and
                    // the shorter mate runs through the moves this would cut short.
                    r += i32::from(cut_node && alpha < MATE_BOUND);
                    r -= hist / params::lmr_history_divisor();
                    r = r.clamp(0, new_depth - 1);
                    if r > 0 {
                        stat!(LmrSearch);
                    }
                }
                score =
                    -self.negamax::<false>(pos, new_depth - r, -alpha - 1, -alpha, ply + 1, true);
                if score > alpha && r > 0 {
                    stat!(LmrResearch);
                    score = -self.negamax::<false>(
                        pos,
                        new_depth,
                        -alpha - 1,
                        -alpha,
                        ply + 1,
                        !cut_node,
                    );
                }
                if PV && score > alpha && score < beta {
                    score = -self.negamax::<true>(pos, new_depth, -beta, -alpha, ply + 1, false);
                }
            }
            pos.unmake_move(m);
            score = self.checked_chance::<PV>(pos, ply, m, new_depth, alpha, beta, score);
            if self.stopped {
                return 0;
            }
            moves_searched += 1;

            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        stat!(Cut);
                        if moves_searched == 1 {
                            stat!(FirstMoveCut);
                        }
                        if !is_capture {
                            let bonus = history_bonus(depth);
                            let idx = self.stack[ply].hist_idx;
                            self.hist.update_quiet_stats(side, idx, &cont, bonus);
                            for q in quiets_tried[..n_quiets].iter().flatten() {
                                let idx = pos.history_index(*q);
                                self.hist.update_quiet_stats(side, idx, &cont, -bonus);
                            }
                            self.hist.add_killer(ply, m);
                            if let Some(pi) = prev_idx {
                                self.hist.set_counter(pi, m);
                            }
                        }
                        break;
                    }
                    alpha = score;
                }
            }
            if !is_capture && n_quiets < quiets_tried.len() {
                quiets_tried[n_quiets] = Some(m);
                n_quiets += 1;
            }
        }

        if moves_searched == 0 {
            if excluded.is_some() {
                // Only the excluded move: it is singular.
                return alpha;
            }
            // No legal move (pruning only starts after one move): the game says what that
            // means.
            return outcome_score(pos.no_moves_outcome(), ply, self.draw_score(pos));
        }
        if excluded.is_some() {
            // A verification search: its result is not this node's value.
            return best_score;
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The raw static evaluation, not the TT-adjusted estimate: adjusting it again on
        // every probe would drift.
        let stored_eval = if in_check { 0 } else { static_eval };
        self.shared.tt.store(
            key,
            ply,
            best_move.map_or(0, G::move_to_u16),
            best_score,
            stored_eval,
            depth,
            bound,
        );
        best_score
    }

    /// Quiescence search: captures (with stand-pat), or all evasions when in check.
    fn qsearch<const PV: bool>(
        &mut self,
        pos: &mut G,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        qdepth: usize,
    ) -> i32 {
        if PV {
            self.pv_len[ply] = ply;
        }
        if let Some(score) = self.enter_node(pos, ply) {
            return score;
        }
        stat!(QNodes);
        let in_check = pos.in_check() && qdepth < G::QSEARCH_EVASION_PLIES;
        let key = pos.key();
        let tt = self.shared.tt.probe(key, ply);
        if let Some(e) = tt {
            if !PV && e.cuts(alpha, beta) {
                return e.score;
            }
        }
        let tt_move = tt.and_then(|e| legal_tt_move(pos, e));

        let mut best_score;
        let stand_pat;
        if in_check {
            best_score = -INFINITY;
            stand_pat = -INFINITY;
        } else {
            stand_pat = tt.map_or_else(|| pos.evaluate(), |e| e.eval);
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            best_score = stand_pat;
        }

        let mut picker = MovePicker::<G>::new_qsearch(pos, tt_move, in_check);
        let mut best_move = None;
        let mut moves = 0;
        let original_alpha = alpha;
        while let Some(m) = picker.next(pos, self.hist) {
            moves += 1;
            if !in_check {
                // Delta pruning: even winning this piece cannot lift us to alpha.
                if stand_pat + pos.captured_value(m) + params::qsearch_delta_margin() <= alpha
                    && !pos.gives_check(m)
                {
                    stat!(QDelta);
                    continue;
                }
                if !pos.see_ge(m, 0) {
                    stat!(QSee);
                    continue;
                }
            }
            self.make(pos, m);
            let score = -self.qsearch::<PV>(pos, -beta, -alpha, ply + 1, qdepth + 1);
            pos.unmake_move(m);
            if self.stopped {
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(m);
                    if PV {
                        self.update_pv(ply, m);
                    }
                    if score >= beta {
                        break;
                    }
                    alpha = score;
                }
            }
        }
        if in_check && moves == 0 {
            // Every evasion was tried: no legal move.
            return outcome_score(pos.no_moves_outcome(), ply, self.draw_score(pos));
        }
        let bound = if best_score >= beta {
            Bound::Lower
        } else if PV && best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(
            key,
            ply,
            best_move.map_or(0, G::move_to_u16),
            best_score,
            if in_check { 0 } else { stand_pat },
            0,
            bound,
        );
        best_score
    }
}
