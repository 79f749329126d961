//! The opponents' layer of best-reply search (BRS, the engine's default) and BRS+:
//! between two plies of the root player, the one opponent move that hurts it most, by
//! either opponent, the other passing (BRS) or playing its best-ordered move (BRS+, kept
//! for the tests and the match runner of `tools/threechess`).

use super::{Algorithm, Searcher, INF};
use crate::movelist::{ListMove, MoveList, MAX_MOVES};
use crate::threechess::board::Status;
use crate::threechess::movegen::Gen;
use crate::threechess::types::Move;

impl Searcher<'_> {
    /// The opponents' layer of BRS and BRS+: the minimum over the moves of both
    /// opponents, each played with the other passing (BRS) or playing its best-ordered
    /// move in turn (BRS+).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn opponents_layer(
        &mut self,
        depth: i32,
        ply: usize,
        alpha: &mut i32,
        beta: &mut i32,
        pv_node: bool,
        tt_move: Option<Move>,
    ) -> (i32, Option<Move>) {
        let first = self.root.next();
        let second = self.root.prev();
        debug_assert_eq!(self.b.side_to_move(), first);
        let mut best = INF;
        let mut best_move = None;
        let mut searched = 0;
        for who in [first, second] {
            // Set up the second opponent's turn: the first passes, or (BRS+) plays its
            // best-ordered move.
            let mut setup_move = None;
            if who == second {
                if self.algo == Algorithm::BrsPlus {
                    setup_move = self.ordered_move(ply);
                }
                self.stand_ins += 1;
                match setup_move {
                    Some(m) => {
                        self.b.make_move(m);
                        if let Some(v) = self.terminal(ply + 1) {
                            // The first opponent's forced move ended the game.
                            self.b.unmake_move();
                            self.stand_ins -= 1;
                            if v < best {
                                best = v;
                                best_move = setup_move;
                                self.pv_len[ply] = 0;
                                self.update_pv(ply, setup_move.unwrap_or(Move::FILLER));
                            }
                            *beta = (*beta).min(best);
                            if *alpha >= *beta {
                                break;
                            }
                            continue;
                        }
                    }
                    None => self.b.set_side_to_move(second),
                }
            }
            let mut list = MoveList::new();
            self.b.generate(Gen::All, &mut list);
            let mut scores = [0i32; MAX_MOVES];
            self.score_moves(&list, &mut scores, tt_move, ply);
            let (mut searched_here, mut skipped) = (0, 0);
            'passes: for pass in 0..2 {
                for i in 0..list.len() {
                    let m = Self::pick(&mut list, &mut scores, i);
                    let quiet = self.b.piece_at(m.to()).is_none();
                    let reduce = i32::from(
                        depth >= 3
                            && searched >= 4
                            && quiet
                            && !pv_node
                            && scores[i] < (1 << 22) - 1,
                    );
                    self.b.make_move(m);
                    if self.takes_standing_kings_king() {
                        self.b.unmake_move();
                        continue;
                    }
                    // Opponents do not hang their own king (unless every move does).
                    if pass == 0 && self.hangs_own_king(who) {
                        self.b.unmake_move();
                        skipped += 1;
                        continue;
                    }
                    // After the first opponent's move the second passes, or (BRS+) plays
                    // its best-ordered move.
                    let mut follow = None;
                    if who == first && self.b.status() == Status::Ongoing {
                        if self.algo == Algorithm::BrsPlus {
                            follow = self.ordered_move(ply + 1);
                        }
                        match follow {
                            Some(f) => self.b.make_move(f),
                            None => self.b.set_side_to_move(self.root),
                        }
                        self.stand_ins += 1;
                    }
                    let stood_in = who == first && self.b.status() == Status::Ongoing;
                    let v = self.child(
                        depth - 1,
                        ply,
                        *alpha,
                        *beta,
                        false,
                        searched == 0,
                        reduce,
                        pv_node,
                    );
                    if follow.is_some() {
                        self.b.unmake_move();
                    }
                    if stood_in {
                        self.stand_ins -= 1;
                    }
                    // Unmake restores the player to move (and the key) after a pass too.
                    self.b.unmake_move();
                    searched += 1;
                    searched_here += 1;
                    if self.stopped {
                        break 'passes;
                    }
                    if v < best {
                        best = v;
                        best_move = Some(m);
                        let lead = match (setup_move, follow) {
                            (Some(s), _) => [Some(s), Some(m)],
                            (None, Some(f)) => [Some(m), Some(f)],
                            (None, None) => [Some(m), None],
                        };
                        self.set_pv(ply, &lead, ply + 1);
                        *beta = (*beta).min(v);
                        if *alpha >= *beta {
                            self.reward_quiet(m, depth, ply);
                            break 'passes;
                        }
                    }
                }
                if searched_here > 0 || skipped == 0 {
                    break;
                }
            }
            // Undo the set-up.
            if who == second {
                match setup_move {
                    Some(_) => self.b.unmake_move(),
                    None => self.b.set_side_to_move(first),
                }
                self.stand_ins -= 1;
            }
            if self.stopped || *alpha >= *beta {
                break;
            }
        }
        if searched == 0 && best == INF {
            if self.b.legal_moves_list().is_empty() {
                return (self.no_moves_value(first, ply), None);
            }
            // Every move was a king capture the stand-in rule leaves out.
            return (self.static_eval(), None);
        }
        (best, best_move)
    }

    /// BRS/BRS+: whether the move just made took the king of an opponent of the root
    /// player while some opponent's turn in the line was stood in for (see
    /// `stand_ins`).
    #[inline]
    pub(super) fn takes_standing_kings_king(&self) -> bool {
        self.stand_ins > 0
            && matches!(self.b.status(), Status::KingCaptured { capturer, victim }
                if capturer != self.root && victim != self.root)
    }
}
