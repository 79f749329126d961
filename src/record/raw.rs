//! The move trees of the binary formats (XQF, CBR), as squares read from the file, and
//! their check against the rules into a [`GameTree`].

use super::error::{ErrorKind, Place, RecordError};
use super::notation::illegal_reason;
use super::tree::{GameTree, NodeId};
use super::{Game, MAX_NESTING};
use crate::xiangqi::{Color, Move, Piece, Position, Square};

/// One move record as read: its squares (`None` when off the board), its comment and
/// where it was in the file.
#[derive(Clone, Debug, Default)]
pub(crate) struct RawNode {
    pub from: Option<Square>,
    pub to: Option<Square>,
    pub comment: String,
    pub offset: usize,
    pub children: Vec<usize>,
}

/// The records of a file, node 0 being the start position (its comment the game's).
#[derive(Clone, Debug)]
pub(crate) struct RawTree {
    pub nodes: Vec<RawNode>,
}

impl RawTree {
    pub fn new() -> RawTree {
        RawTree {
            nodes: vec![RawNode::default()],
        }
    }

    /// Adds a record under `parent`; its index.
    pub fn add(&mut self, parent: usize, node: RawNode) -> usize {
        let id = self.nodes.len();
        self.nodes.push(node);
        if let Some(p) = self.nodes.get_mut(parent) {
            p.children.push(id);
        }
        id
    }
}

/// A board as the binary formats describe it: pieces on squares.
pub(crate) struct Board {
    pub squares: [Option<Piece>; 90],
}

impl Board {
    pub fn empty() -> Board {
        Board {
            squares: [None; 90],
        }
    }

    /// The FEN of the board with `side` to move.
    pub fn fen(&self, side: Color) -> String {
        let mut fen = String::new();
        for rank in (0..10).rev() {
            let mut empty = 0;
            for file in 0..9 {
                match self.squares[rank * 9 + file] {
                    Some(p) => {
                        if empty > 0 {
                            fen.push(char::from(b'0' + empty));
                            empty = 0;
                        }
                        fen.push(p.letter());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                fen.push(char::from(b'0' + empty));
            }
            if rank > 0 {
                fen.push('/');
            }
        }
        fen.push_str(if side == Color::Red { " w" } else { " b" });
        fen
    }
}

/// Checks the records against the rules from `board` and builds the game: the side to
/// move is the colour of the first move's piece (the binary formats do not all say it;
/// `default_side` when there is no move). An illegal record is dropped with what hangs
/// from it, and a warning names its offset. `position_at` is where the board was read.
pub(crate) fn build(
    board: &Board,
    default_side: Color,
    raw: &RawTree,
    position_at: usize,
) -> Result<(Game, Vec<RecordError>), RecordError> {
    let first_side = raw.nodes[0]
        .children
        .first()
        .and_then(|&c| raw.nodes[c].from)
        .and_then(|sq| board.squares[sq.index()])
        .map(|p| p.color())
        .unwrap_or(default_side);
    let start = Position::from_fen(&board.fen(first_side))
        .map_err(|e| RecordError::new(Place::Byte(position_at), ErrorKind::Position(e)))?;
    let mut game = Game::new(start.to_fen());
    game.tree.add_comment(GameTree::ROOT, &raw.nodes[0].comment);
    let mut warnings = Vec::new();
    // (raw node, its node in the tree): children of each are checked from its position.
    let mut stack: Vec<(usize, NodeId)> = vec![(0, GameTree::ROOT)];
    while let Some((raw_id, tree_id)) = stack.pop() {
        let pos = game.tree.position_at(&start, tree_id);
        let Some(node) = raw.nodes.get(raw_id) else {
            continue;
        };
        for (i, &child) in node.children.iter().enumerate() {
            let Some(c) = raw.nodes.get(child) else {
                continue;
            };
            let text = |sq: Option<Square>| sq.map_or("off-board".to_string(), |s| s.to_string());
            let mv = match (c.from, c.to) {
                (Some(f), Some(t)) if f != t => Some(Move::new(f, t)),
                _ => None,
            };
            let refused = match mv {
                None => Some("a square off the board".to_string()),
                Some(m) if !pos.is_legal(m) => Some(illegal_reason(&pos, m).to_string()),
                Some(_) if i > 0 && game.tree.nesting(tree_id) >= MAX_NESTING => {
                    Some(format!("variations nested deeper than {MAX_NESTING}"))
                }
                Some(_) => None,
            };
            match (refused, mv) {
                (None, Some(m)) => {
                    let id = game.tree.add_move(tree_id, m);
                    game.tree.add_comment(id, &c.comment);
                    stack.push((child, id));
                }
                (reason, _) => warnings.push(RecordError::bad_move(
                    Place::Byte(c.offset),
                    format!("{}{}", text(c.from), text(c.to)),
                    format!(
                        "{}; the line ends here",
                        reason.unwrap_or_else(|| "refused".into())
                    ),
                )),
            }
        }
    }
    Ok((game, warnings))
}
