//! The principal variation: the triangular PV table the searches fill, and the line
//! reported to the front end (its legal prefix in turn order: BRS's lines contain
//! passes, BRS+'s moves out of turn).

use super::{Algorithm, Searcher, MAX_PLY, WIN};
use crate::threechess::board::Status;
use crate::threechess::eval;
use crate::threechess::types::Move;

impl Searcher<'_> {
    pub(super) fn update_pv(&mut self, ply: usize, m: Move) {
        self.set_pv(ply, &[Some(m), None], ply + 1);
    }

    /// PV at `ply` = `lead` moves, then the PV of `child_ply`.
    pub(super) fn set_pv(&mut self, ply: usize, lead: &[Option<Move>; 2], child_ply: usize) {
        let mut n = 0;
        for m in lead.iter().flatten() {
            self.pv[ply][n] = *m;
            n += 1;
        }
        let child_len = if child_ply <= MAX_PLY {
            self.pv_len[child_ply]
        } else {
            0
        };
        for k in 0..child_len {
            if n >= MAX_PLY {
                break;
            }
            self.pv[ply][n] = self.pv[child_ply][k];
            n += 1;
        }
        self.pv_len[ply] = n;
    }

    /// The reportable line (the legal prefix of the PV in turn order) and the three
    /// scores at the end of the full PV.
    pub(super) fn report_line(&self, full_pv: &[Move]) -> (Vec<Move>, [i32; 3]) {
        let mut b = self.b.clone();
        let mut legal_prefix = Vec::new();
        let mut legal = true;
        for &m in full_pv {
            let Some(owner) = b.piece_at(m.from()).map(|p| p.player()) else {
                break;
            };
            if owner != b.side_to_move() {
                legal = false;
                b.set_side_to_move(owner);
            }
            if !b.is_legal(m) {
                break;
            }
            b.make_move(m);
            if legal {
                legal_prefix.push(m);
            }
        }
        // In BRS the other opponent passes after an opponent's move: the line's last
        // position has the root player to move, as the search evaluated it.
        let last_mover = b
            .last_move()
            .and_then(|m| b.piece_at(m.to()))
            .map(|p| p.player());
        if self.algo == Algorithm::Brs
            && b.status() == Status::Ongoing
            && last_mover.is_some_and(|p| p != self.root)
        {
            b.set_side_to_move(self.root);
        }
        let scores = match b.status() {
            Status::KingCaptured { capturer, victim } => {
                let mut v = [eval::OTHER_CAPTURE; 3];
                v[capturer.index()] = WIN - full_pv.len() as i32;
                v[victim.index()] = -(WIN - full_pv.len() as i32);
                v
            }
            Status::Ongoing => eval::views_with(&b, &self.settings.params),
        };
        (legal_prefix, scores)
    }
}
