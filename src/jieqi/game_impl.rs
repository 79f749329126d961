//! Jieqi as a game of jiang: [`Rules`] for the front end, [`Game`] for the generic
//! search, and the small evaluation the search uses.
//!
//! What the search assumes: it searches the player's view of the position. Where a
//! face-down piece moves in the tree, the reveal is one deterministic draw from the
//! mover's pool, weighted by the counts ([`Position::resolved`]): one sampled chance
//! outcome per node, which decides how the piece moves further down the tree. Its value
//! is not the sample's: the evaluation values a face-down piece, and a piece the search
//! revealed by such a draw ([`DRAWN`]), at the average of its side's pool, so the search
//! does not prefer a move for the lucky kind it happened to draw — the simple
//! expectation over the reveal. Where the draw made a move decisive (a win) near the
//! root, the search checks it over every kind the pool holds ([`Game::chance_outcomes`],
//! a Star1 chance node): a mate that only a chariot would give is no mate. A face-down
//! piece the search captures stays unknown (the capturer's own knowledge is not
//! modelled), and the opponent is assumed to know no more than the position shows.

use super::position::Position;
use super::types::*;
use crate::common::{FenError, MoveError};
use crate::game::{Game, GameEnd, GenType, Outcome, Rules, MAX_CHANCE_OUTCOMES};
use crate::movelist::MoveList;

/// Values of the face-up kinds ([`Kind::ALL`] order). A revealed advisor or elephant is
/// free to roam, so it is worth more than in Xiangqi.
pub const VALUES: [i32; 7] = [1000, 450, 250, 250, 0, 470, 110];
/// A soldier across the river.
const PAWN_CROSSED: i32 = 90;

/// The average value of a side's unseen pool (a face-down piece's worth).
pub fn pool_average(pos: &Position, color: Color) -> i32 {
    let pool = pos.pool(color);
    let n: i32 = pool.iter().map(|&c| c as i32).sum();
    if n == 0 {
        return VALUES[Kind::Pawn as usize];
    }
    pool.iter()
        .zip(VALUES.iter())
        .map(|(&c, &v)| c as i32 * v)
        .sum::<i32>()
        / n
}

/// The value of the piece in cell `c` on `sq` to its side.
fn cell_value(c: Cell, sq: usize, averages: &[i32; 2]) -> i32 {
    if is_hidden(c) || c & DRAWN != 0 {
        averages[cell_color(c).index()]
    } else {
        let k = cell_kind(c) as usize;
        let mut v = VALUES[k];
        if k == Kind::Pawn as usize && !own_half(sq, cell_color(c)) {
            v += PAWN_CROSSED;
        }
        v
    }
}

/// Static evaluation from the side to move's view: material, face-down pieces at their
/// pool's average.
pub fn evaluate(pos: &Position) -> i32 {
    let averages = [
        pool_average(pos, Color::Red),
        pool_average(pos, Color::Black),
    ];
    let mut score = [0i32; 2];
    for sq in 0..SQUARES {
        let c = pos.cell(sq);
        if c != 0 {
            score[cell_color(c).index()] += cell_value(c, sq, &averages);
        }
    }
    let us = pos.side_to_move().index();
    score[us] - score[1 - us] + 10
}

fn victim_value(pos: &Position, m: Move) -> i32 {
    let c = pos.cell(m.to as usize);
    if c == 0 {
        return 0;
    }
    let averages = [
        pool_average(pos, Color::Red),
        pool_average(pos, Color::Black),
    ];
    cell_value(c, m.to as usize, &averages)
}

fn mover_value(pos: &Position, m: Move) -> i32 {
    let c = pos.cell(m.from as usize);
    if c == 0 {
        return 0;
    }
    if is_hidden(c) || c & DRAWN != 0 {
        pool_average(pos, cell_color(c))
    } else {
        VALUES[cell_kind(c) as usize]
    }
}

const EXPECTED_MOVE: &str =
    "ICCS like b2e2, files a-i, ranks 0-9, then optionally the revealed kind in the mover's case and the captured face-down kind in the victim's";

/// Reads `text` as a move of `pos` and checks it.
pub fn parse_legal_move(pos: &Position, text: &str) -> Result<Move, MoveError> {
    let malformed = || MoveError::Malformed {
        text: text.to_string(),
        game: "jieqi",
        expected: EXPECTED_MOVE,
    };
    let b = text.as_bytes();
    if !(4..=6).contains(&b.len()) || !text.is_ascii() {
        return Err(malformed());
    }
    let sq = |f: u8, r: u8| -> Option<usize> {
        if (b'a'..=b'i').contains(&f) && r.is_ascii_digit() {
            Some(((r - b'0') as usize) * 9 + (f - b'a') as usize)
        } else {
            None
        }
    };
    let from = sq(b[0], b[1]).ok_or_else(malformed)?;
    let to = sq(b[2], b[3]).ok_or_else(malformed)?;
    let us = pos.side_to_move();
    let mut m = Move::bare(from, to, us);
    for &c in &b[4..] {
        let c = c as char;
        let kind = Kind::from_letter(c).ok_or_else(malformed)? as u8;
        let mine = c.is_ascii_uppercase() == (us == Color::Red);
        if mine && m.reveal == NONE && m.capt == NONE {
            m.reveal = kind;
        } else if !mine && m.capt == NONE {
            m.capt = kind;
        } else {
            return Err(malformed());
        }
    }
    if let Some(end) = pos.game_end() {
        return Err(MoveError::GameOver {
            text: text.to_string(),
            end: end.to_string(),
        });
    }
    if !pos.is_legal_bare(m) {
        return Err(MoveError::Illegal(text.to_string()));
    }
    if !pos.letters_fit(m) {
        return Err(MoveError::IllegalBecause {
            text: text.to_string(),
            reason: "the reveal or captured kind is not a face-down piece's possible kind here"
                .to_string(),
        });
    }
    Ok(m)
}

impl Position {
    /// The legal moves as a player sees them (bare); none once a position has occurred
    /// three times.
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.game_end_by_repetition() {
            return Vec::new();
        }
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        list.iter().copied().collect()
    }

    /// Whether the game is drawn by repetition (the third occurrence).
    pub fn game_end_by_repetition(&self) -> bool {
        self.repetitions() >= 2
    }

    /// How the game stands: no legal move loses (checkmate or stalemate, as in Xiangqi);
    /// then the rules of [`super::rules`]: the 60-move rule, the third occurrence of a
    /// position judged by the Asian rules, dead material.
    pub fn game_end(&self) -> Option<GameEnd> {
        let mut list = MoveList::new();
        self.generate(GenType::All, &mut list);
        if !list.is_empty() {
            return self.rule_end();
        }
        let loser = self.side_to_move();
        let winner = loser.flip();
        let how = if self.in_check() {
            "mates"
        } else {
            "stalemates"
        };
        Some(GameEnd {
            result: if winner == Color::Red { "1-0" } else { "0-1" }.to_string(),
            reason: format!("{} {how}", winner.name()),
            winner: Some(winner.index()),
        })
    }

    /// The board for a person: face-down pieces as `X`/`x`, then what the position knows.
    pub fn diagram(&self) -> String {
        let mut s = String::from("   +---------------------------+\n");
        for rank in (0..10).rev() {
            s.push_str(&format!(" {rank} |"));
            for file in 0..9 {
                let c = self.cell(rank * 9 + file);
                let letter = if c == 0 {
                    '.'
                } else if is_hidden(c) {
                    match cell_color(c) {
                        Color::Red => 'X',
                        Color::Black => 'x',
                    }
                } else {
                    Kind::from_index(cell_kind(c)).letter_of(cell_color(c))
                };
                s.push_str(&format!(" {letter} "));
            }
            s.push_str("|\n");
        }
        s.push_str("   +---------------------------+\n");
        s.push_str("     a  b  c  d  e  f  g  h  i\n\n");
        s.push_str(&format!(
            "Side to move: {}\n",
            self.side_to_move().name().to_lowercase()
        ));
        s.push_str(&format!("FEN: {}\n", self.to_fen()));
        s.push_str(&format!("Key: {:016X}\n", self.key()));
        s.push_str(&format!(
            "Knowledge: {}\n",
            if self.is_full_information() {
                "full (every face-down piece's kind is known)"
            } else {
                "a player's view (face-down pieces unknown, the pools unseen)"
            }
        ));
        let counts = |c: [u8; 7], color: Color| -> String {
            let t: String = Kind::ALL
                .iter()
                .filter(|k| c[**k as usize] > 0)
                .map(|k| format!("{}{}", k.letter_of(color), c[*k as usize]))
                .collect();
            if t.is_empty() {
                "-".to_string()
            } else {
                t
            }
        };
        for color in Color::ALL {
            s.push_str(&format!(
                "{} unseen: {}; face-down pieces of {} captured and known: {}\n",
                color.name(),
                counts(self.pool(color), color),
                color.name(),
                counts(self.captured_hidden(color), color)
            ));
        }
        if self.in_check() {
            s.push_str("In check\n");
        }
        s
    }

    /// The position as FEN.
    pub fn to_fen(&self) -> String {
        super::fen::to_fen(self)
    }
}

/// perft of the chance tree: every chance outcome of every move is a branch
/// ([`Position::outcomes`]: in a player's view a face-down piece's move once per distinct
/// kind of its pool, a capture of a face-down piece once per distinct kind of the
/// victim's pool), the leaves counted at `depth`. With full information it is the
/// ordinary perft (one outcome per move). Allocates nothing.
pub fn perft_chance(pos: &mut Position, depth: u32) -> u64 {
    walk(pos, depth, false)
}

/// perft over the moves as a player sees them: the last ply counts each legal move once
/// (a face-down piece's move is one move, whatever it turns out to be); the plies above
/// branch on the chance outcomes as [`perft_chance`] does.
pub fn perft_view(pos: &mut Position, depth: u32) -> u64 {
    walk(pos, depth, true)
}

fn walk(pos: &mut Position, depth: u32, view: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut list = MoveList::new();
    pos.generate(GenType::All, &mut list);
    if view && depth == 1 {
        return list.len() as u64;
    }
    let mut n = 0;
    for &m in list.iter() {
        let (outs, k) = pos.outcomes(m);
        if depth == 1 {
            n += k as u64;
            continue;
        }
        for &o in &outs[..k] {
            pos.make_move(o);
            n += walk(pos, depth - 1, view);
            pos.unmake_move();
        }
    }
    n
}

impl Rules for Position {
    type Move = Move;
    type Undo = ();
    const NAME: &'static str = "jieqi";
    const PLAYERS: &'static [&'static str] = &["red", "black"];

    fn start_position() -> Self {
        super::fen::from_fen(super::fen::START_FEN).unwrap_or_else(|_| unreachable!())
    }
    fn from_fen(fen: &str) -> Result<Self, FenError> {
        super::fen::from_fen(fen)
    }
    fn to_fen(&self) -> String {
        Position::to_fen(self)
    }
    fn player_to_move(&self) -> usize {
        self.side_to_move().index()
    }
    fn legal_moves(&self) -> Vec<Move> {
        Position::legal_moves(self)
    }
    fn parse_legal_move(&self, text: &str) -> Result<Move, MoveError> {
        parse_legal_move(self, text)
    }
    /// A move of a face-down piece without its reveal is revealed by the position:
    /// its known kind (full information), else a deterministic draw from the pool.
    fn play(&mut self, m: Move) {
        self.make_move(m);
    }
    fn plies_played(&self) -> usize {
        Position::plies_played(self)
    }
    fn game_end(&self) -> Option<GameEnd> {
        Position::game_end(self)
    }
    fn diagram(&self) -> String {
        Position::diagram(self)
    }
    fn eval_report(&self) -> String {
        format!(
            "material (face-down pieces at their pool's average: red {}, black {}): {} for the side to move\n",
            pool_average(self, Color::Red),
            pool_average(self, Color::Black),
            evaluate(self)
        )
    }
    fn reserve(&mut self, plies: usize) {
        self.reserve_history(plies);
    }
    /// Each legal move once, as a player sees it, revealed as [`Position::resolved`]
    /// says: with full information the true kinds (the deterministic full-information
    /// perft), in a player's view one deterministic draw from the pool per move (the
    /// chance nodes not expanded). The expanded chance tree is [`perft_chance`].
    fn perft_moves(&self, list: &mut MoveList<Move>) {
        if self.game_end_by_repetition() {
            return;
        }
        self.generate(GenType::All, list);
    }
    fn perft_make(&mut self, m: Move) {
        self.make_move(m);
    }
    fn perft_unmake(&mut self, _m: Move, _: ()) {
        self.unmake_move();
    }
}

impl Game for Position {
    /// By the mover's side, its class (7 face-up kinds, then 7 for a face-down piece by
    /// how it moves) and the target square, as Xiangqi's piece-to index. The search keeps
    /// a continuation table of `HISTORY_SIZE²` entries per thread and halves it before
    /// every search: an index by from and to squares (16,200 entries) made that 525 MB,
    /// and each `go` after the first spent 0.5-0.8 s halving it.
    const HISTORY_SIZE: usize = 2 * 14 * 90;

    const HAS_CHANCE: bool = true;

    #[inline(always)]
    fn key(&self) -> u64 {
        Position::key(self)
    }
    /// A move of a face-down piece whose kind the side to move does not know: one
    /// outcome per kind in its pool, weighed by the count. The capture of an unknown
    /// face-down piece is left unknown (the capturer's knowledge is not modelled).
    fn chance_outcomes(&self, m: Move, out: &mut [(Move, u32); MAX_CHANCE_OUTCOMES]) -> usize {
        self.reveal_outcomes(m, out)
    }
    #[inline(always)]
    fn side_index(&self) -> usize {
        self.side_to_move().index()
    }
    #[inline(always)]
    fn in_check(&self) -> bool {
        Position::in_check(self)
    }
    #[inline(always)]
    fn generate(&self, gen: GenType, list: &mut MoveList<Move>) {
        Position::generate(self, gen, list)
    }
    #[inline(always)]
    fn is_legal(&self, m: Move) -> bool {
        m.reveal == NONE && m.capt == NONE && self.is_legal_bare(m)
    }
    #[inline(always)]
    fn is_capture(&self, m: Move) -> bool {
        self.cell(m.to as usize) != 0
    }
    fn gives_check(&self, m: Move) -> bool {
        self.gives_check_bare(m)
    }
    #[inline(always)]
    fn make_move(&mut self, m: Move) {
        Position::make_move_search(self, m)
    }
    #[inline(always)]
    fn unmake_move(&mut self, _m: Move) {
        Position::unmake_move(self)
    }
    #[inline(always)]
    fn make_null_move(&mut self) {
        Position::make_null_move(self)
    }
    #[inline(always)]
    fn unmake_null_move(&mut self) {
        Position::unmake_move(self)
    }
    fn null_move_allowed(&self) -> bool {
        !self.last_was_null()
    }
    #[inline(always)]
    fn evaluate(&self) -> i32 {
        evaluate(self)
    }
    /// The victim's value less the mover's when the opponent then attacks the square.
    fn see_ge(&self, m: Move, threshold: i32) -> bool {
        let mut gain = victim_value(self, m);
        if self.to_square_attacked_after(m) {
            gain -= mover_value(self, m);
        }
        gain >= threshold
    }
    fn capture_order(&self, m: Move) -> i32 {
        victim_value(self, m) * 16 - mover_value(self, m) / 64
    }
    fn captured_value(&self, m: Move) -> i32 {
        victim_value(self, m)
    }
    #[inline(always)]
    fn history_index(&self, m: Move) -> usize {
        let cell = self.cell(m.from as usize);
        let class = if is_hidden(cell) {
            7 + START_KIND[m.from as usize] as usize
        } else {
            cell_kind(cell) as usize
        };
        (self.side_to_move().index() * 14 + class) * 90 + m.to as usize
    }
    #[inline(always)]
    fn move_to_u16(m: Move) -> u16 {
        // Bit 15: the mover is Black.
        1 + m.from as u16 * 90 + m.to as u16 + if m.red { 0 } else { 1 << 14 }
    }
    #[inline(always)]
    fn move_from_u16(v: u16) -> Option<Move> {
        let red = v & (1 << 14) == 0;
        let x = (v & !(1 << 14)).checked_sub(1)? as usize;
        let (from, to) = (x / 90, x % 90);
        if from >= SQUARES {
            return None;
        }
        let color = if red { Color::Red } else { Color::Black };
        Some(Move::bare(from, to, color))
    }
    fn rule_outcome(&self, ply: usize, judge_repetitions: bool) -> Option<Outcome> {
        Position::rule_outcome(self, ply, judge_repetitions)
    }
}
