//! Static evaluation, one score per player (centipawns), and the scores the searches use.
//!
//! Each player's own score [`player_terms`] adds up
//! * material: P 100, N 300, B 325, R 500, Q 950 (the reference's 1/3/3/5/9 scaled; the
//!   bishop's forking rays across the centre are worth a little more than a knight);
//! * pawns: advancing towards the centre and on into another section towards its rank 1,
//!   where they promote;
//! * development: knights, bishops and queens off the back rank, nearer the centre;
//! * king exposure: a king off its back rank, enemy attacks on the squares around it,
//!   own pieces sheltering it;
//! * the threat of the other two: a piece an enemy attacks is in danger, more so if no
//!   own piece defends it, most if the attacker moves before its owner does;
//! * activity: attacks on the squares around the enemy kings, and mobility.
//!
//! The searches compare players by [`relative`]: a player's score minus the mean of the
//! other two (the three relative scores add up to 0). [`view`] adds what a king en prise
//! means to one player (attacked by a player who moves before the king's owner does):
//! its own king is about to be lost, an opponent's king attacked by it about to be won,
//! and an opponent's king attacked by the other opponent about to end the game with
//! nothing for it (see [`OTHER_CAPTURE`]).

use super::board::Board;
use super::geometry::KING_TARGETS;
use super::types::{squares_of, Kind, Player, Square, Squares};
use std::fmt;

/// Material values (centipawns) by [`Kind::index`]; the king's is not counted (a
/// captured king ends the game).
pub const VALUES: [i32; 6] = [100, 300, 325, 500, 950, 0];

/// The evaluation's tunable weights (the searches take them from their settings, so that
/// matches can set variants against each other).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Params {
    /// Material values (centipawns) by [`Kind::index`]; the king's entry is unused.
    pub values: [i32; 6],
}

/// The weights jiang plays with.
pub const DEFAULT_PARAMS: Params = Params { values: VALUES };

impl Default for Params {
    fn default() -> Self {
        DEFAULT_PARAMS
    }
}

impl Params {
    /// Reads `P,N,B,R,Q` material values (centipawns), e.g. `100,300,300,500,900`.
    pub fn parse_values(text: &str) -> Result<Params, ValuesError> {
        let bad = |reason| ValuesError {
            text: text.to_string(),
            reason,
        };
        let v: Vec<i32> = text
            .split(',')
            .map(|x| x.trim().parse::<i32>())
            .collect::<Result<_, _>>()
            .map_err(|e| bad(ValuesFault::NotANumber(e)))?;
        if v.len() != 5 || v.iter().any(|&x| !(0..=10_000).contains(&x)) {
            return Err(bad(ValuesFault::NotFiveInRange));
        }
        Ok(Params {
            values: [v[0], v[1], v[2], v[3], v[4], 0],
        })
    }
}

/// Why a text is not `P,N,B,R,Q` material values; `Display` gives one line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValuesError {
    /// The text given.
    pub text: String,
    /// What is wrong with it.
    pub reason: ValuesFault,
}

/// What is wrong with material values ([`ValuesError`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValuesFault {
    /// A value that is not a whole number.
    NotANumber(std::num::ParseIntError),
    /// Not five values, or one outside `0..=10000`.
    NotFiveInRange,
}

impl fmt::Display for ValuesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = &self.text;
        match &self.reason {
            ValuesFault::NotANumber(e) => write!(f, "bad material values `{text}`: {e}"),
            ValuesFault::NotFiveInRange => write!(
                f,
                "material values `{text}`: five numbers 0..=10000 (P,N,B,R,Q) expected"
            ),
        }
    }
}

impl std::error::Error for ValuesError {}

/// Value of a kind for ordering and exchanges, the king's high.
pub const ORDER_VALUES: [i32; 6] = [100, 300, 325, 500, 950, 4000];

/// What a king capture between the two other players is worth to the third (whose score
/// is then 0 while it might have won): the search's value of that ending.
pub const OTHER_CAPTURE: i32 = -2000;
/// A player's own king en prise: nearly lost.
const OWN_KING_EN_PRISE: i32 = 12_000;
/// An opponent's king en prise to the player: nearly won.
const ENEMY_KING_EN_PRISE: i32 = 8_000;
/// An opponent's king en prise to the other opponent: the game is about to end without
/// the player winning.
const OTHER_KING_EN_PRISE: i32 = -OTHER_CAPTURE * 3 / 4;
/// Penalty per enemy attack on a square next to the king (or the king's own square).
const KING_ZONE_ATTACK: i32 = 12;
/// Bonus per own piece next to the king.
const KING_SHELTER: i32 = 8;
/// Penalty per rank the king stands above its back rank.
const KING_ADVANCED: i32 = 25;
/// Penalty for a king outside its own section.
const KING_ABROAD: i32 = 80;
/// Bonus per own attack on a square next to an enemy king (or the king's own square).
const KING_ATTACK: i32 = 15;
/// Bonus per square attacked that holds no own piece.
const MOBILITY: i32 = 2;

/// The evaluation terms of one player.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Terms {
    /// Material on the board.
    pub material: i32,
    /// Pawn advancement.
    pub pawns: i32,
    /// Piece development and centralisation.
    pub development: i32,
    /// King exposure (negative is exposed).
    pub king: i32,
    /// Pieces under threat (negative).
    pub threats: i32,
    /// Attacks on the squares around the enemy kings, and mobility.
    pub activity: i32,
}

impl Terms {
    /// Sum of the terms.
    pub fn total(&self) -> i32 {
        self.material + self.pawns + self.development + self.king + self.threats + self.activity
    }
}

/// How far a pawn has come (0 on its own rank 2 … 9 one step from promotion).
#[inline(always)]
fn pawn_progress(p: Player, sq: Square) -> i32 {
    if sq.section() == p {
        sq.rank() as i32 - 1
    } else {
        3 + (3 - sq.rank() as i32) * 2
    }
}

/// Attacks of the three players, computed once per evaluation.
#[derive(Clone, Copy)]
pub struct Attacks {
    /// Squares each player attacks.
    pub by: [Squares; 3],
}

impl Attacks {
    /// The attack sets of the position.
    pub fn of(b: &Board) -> Attacks {
        Attacks {
            by: [
                b.attacks_of(Player::Blue),
                b.attacks_of(Player::Green),
                b.attacks_of(Player::Red),
            ],
        }
    }
}

/// Whether `enemy` moves before `p` from a position where `to_move` is to move.
#[inline(always)]
fn moves_before(enemy: Player, p: Player, to_move: Player) -> bool {
    let order = |x: Player| (x.index() + 3 - to_move.index()) % 3;
    order(enemy) < order(p)
}

/// How near the centre a piece stands: its rank in its own section, 3 abroad.
#[inline(always)]
fn near_centre(p: Player, sq: Square) -> i32 {
    if sq.section() == p {
        sq.rank() as i32
    } else {
        3
    }
}

/// The terms of player `p`.
pub fn player_terms(b: &Board, p: Player, att: &Attacks, params: &Params) -> Terms {
    let mut t = Terms::default();
    let own = b.occupied_by(p);
    for kind in [
        Kind::Pawn,
        Kind::Knight,
        Kind::Bishop,
        Kind::Rook,
        Kind::Queen,
    ] {
        t.material += b.pieces(p, kind).count_ones() as i32 * params.values[kind.index()];
    }
    for sq in squares_of(b.pieces(p, Kind::Pawn)) {
        t.pawns += pawn_progress(p, sq) * 12;
    }
    for sq in squares_of(b.pieces(p, Kind::Knight) | b.pieces(p, Kind::Bishop)) {
        t.development += near_centre(p, sq) * 10;
    }
    for sq in squares_of(b.pieces(p, Kind::Queen)) {
        t.development += near_centre(p, sq) * 4;
    }
    // Threats: pieces the enemies attack; the worst of those attacked by an enemy that
    // moves before their owner counts in full.
    let (e1, e2) = (p.next(), p.prev());
    let to_move = b.side_to_move();
    let first_att = |q: Player| {
        if moves_before(q, p, to_move) {
            att.by[q.index()]
        } else {
            0
        }
    };
    let attacked_first = first_att(e1) | first_att(e2);
    let enemy_att = att.by[e1.index()] | att.by[e2.index()];
    let own_att = att.by[p.index()];
    let mut worst_threat = 0;
    for sq in squares_of(own & enemy_att & !b.pieces(p, Kind::King)) {
        let Some(piece) = b.piece_at(sq) else {
            continue;
        };
        let value = params.values[piece.kind().index()];
        let loss = if own_att & sq.bit() != 0 {
            value / 8
        } else {
            value / 2
        };
        if attacked_first & sq.bit() != 0 {
            worst_threat = worst_threat.max(loss);
        }
        t.threats -= loss / 4;
    }
    t.threats -= worst_threat;
    if let Some(k) = b.king(p) {
        if k.section() != p {
            t.king -= KING_ABROAD;
        } else {
            t.king -= k.rank() as i32 * KING_ADVANCED;
        }
        let zone = KING_TARGETS[k.index()] | k.bit();
        t.king -= ((att.by[e1.index()] & zone).count_ones()
            + (att.by[e2.index()] & zone).count_ones()) as i32
            * KING_ZONE_ATTACK;
        t.king += (KING_TARGETS[k.index()] & own).count_ones() as i32 * KING_SHELTER;
    }
    for e in [e1, e2] {
        if let Some(k) = b.king(e) {
            let zone = KING_TARGETS[k.index()] | k.bit();
            t.activity += (own_att & zone).count_ones() as i32 * KING_ATTACK;
        }
    }
    t.activity += (own_att & !own).count_ones() as i32 * MOBILITY;
    t
}

/// Each player's own score (blue, green, red).
pub fn absolute(b: &Board) -> [i32; 3] {
    let att = Attacks::of(b);
    Player::ALL.map(|p| player_terms(b, p, &att, &DEFAULT_PARAMS).total())
}

/// For each player, the enemy about to capture its king: one that attacks it and moves
/// before its owner does (the earliest in turn order).
pub fn kings_en_prise(b: &Board, att: &Attacks) -> [Option<Player>; 3] {
    let to_move = b.side_to_move();
    Player::ALL.map(|p| {
        let k = b.king(p)?;
        let mut first: Option<Player> = None;
        for q in [p.next(), p.prev()] {
            if att.by[q.index()] & k.bit() != 0
                && moves_before(q, p, to_move)
                && first.is_none_or(|f| moves_before(q, f, to_move))
            {
                first = Some(q);
            }
        }
        first
    })
}

/// The score of the position from player `p`'s view: its [`relative`] score plus what
/// the kings en prise mean to it.
#[inline]
fn view_of(p: Player, rel: &[i32; 3], en_prise: &[Option<Player>; 3]) -> i32 {
    let mut v = rel[p.index()];
    if en_prise[p.index()].is_some() {
        v -= OWN_KING_EN_PRISE;
    }
    for o in [p.next(), p.prev()] {
        match en_prise[o.index()] {
            Some(q) if q == p => v += ENEMY_KING_EN_PRISE,
            Some(_) => v -= OTHER_KING_EN_PRISE,
            None => {}
        }
    }
    v
}

/// The position's score from each player's view (blue, green, red).
pub fn views(b: &Board) -> [i32; 3] {
    views_with(b, &DEFAULT_PARAMS)
}

/// [`views`] with other weights.
pub fn views_with(b: &Board, params: &Params) -> [i32; 3] {
    let att = Attacks::of(b);
    let abs = Player::ALL.map(|p| player_terms(b, p, &att, params).total());
    let rel = relative(abs);
    let en_prise = kings_en_prise(b, &att);
    Player::ALL.map(|p| view_of(p, &rel, &en_prise))
}

/// The position's score from player `p`'s view.
#[inline]
pub fn view(b: &Board, p: Player) -> i32 {
    views(b)[p.index()]
}

/// [`view`] with other weights.
#[inline]
pub fn view_with(b: &Board, p: Player, params: &Params) -> i32 {
    views_with(b, params)[p.index()]
}

/// Each player's score minus the mean of the other two's.
#[inline]
pub fn relative(abs: [i32; 3]) -> [i32; 3] {
    let [a, b, c] = abs;
    [a - (b + c) / 2, b - (a + c) / 2, c - (a + b) / 2]
}

/// The relative scores of a position (blue, green, red).
pub fn evaluate(b: &Board) -> [i32; 3] {
    relative(absolute(b))
}

/// The evaluation explained, for the `eval` command.
pub fn report(b: &Board) -> String {
    let att = Attacks::of(b);
    let mut s = String::from("player   material  pawns  develop  king  threats  activity  total\n");
    let mut abs = [0; 3];
    for p in Player::ALL {
        let t = player_terms(b, p, &att, &DEFAULT_PARAMS);
        abs[p.index()] = t.total();
        s.push_str(&format!(
            "{:<7} {:>9} {:>6} {:>8} {:>5} {:>8} {:>9} {:>6}\n",
            p.name(),
            t.material,
            t.pawns,
            t.development,
            t.king,
            t.threats,
            t.activity,
            t.total()
        ));
    }
    let rel = relative(abs);
    s.push_str(&format!(
        "relative (own minus the others' mean): blue {} green {} red {}\n",
        rel[0], rel[1], rel[2]
    ));
    for (p, q) in Player::ALL.into_iter().zip(kings_en_prise(b, &att)) {
        if let Some(q) = q {
            s.push_str(&format!("{p}'s king is en prise to {q}\n"));
        }
    }
    let v = views(b);
    s.push_str(&format!(
        "each player's view (relative and kings en prise): blue {} green {} red {}\n",
        v[0], v[1], v[2]
    ));
    s
}
