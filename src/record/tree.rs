//! The move tree of a record: a root (the start position) and, under every node, the
//! moves that were played or considered from there; the first child continues the line,
//! the others are its variations.
//!
//! Nodes live in one vector and name each other by index, so that neither a long game nor
//! a deep tree needs recursion to build, walk or drop.

use crate::xiangqi::{Move, Position};

/// A node's index in its [`GameTree`].
pub type NodeId = usize;

/// A move's assessment, PGN's numeric annotation glyphs 1 to 6.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Nag {
    /// `!` ($1)
    Good,
    /// `?` ($2)
    Mistake,
    /// `!!` ($3)
    Brilliant,
    /// `??` ($4)
    Blunder,
    /// `!?` ($5)
    Interesting,
    /// `?!` ($6)
    Dubious,
}

impl Nag {
    /// The glyph's PGN number.
    pub fn number(self) -> u8 {
        match self {
            Nag::Good => 1,
            Nag::Mistake => 2,
            Nag::Brilliant => 3,
            Nag::Blunder => 4,
            Nag::Interesting => 5,
            Nag::Dubious => 6,
        }
    }

    /// The glyph of a PGN number 1..=6.
    pub fn from_number(n: u32) -> Option<Nag> {
        Some(match n {
            1 => Nag::Good,
            2 => Nag::Mistake,
            3 => Nag::Brilliant,
            4 => Nag::Blunder,
            5 => Nag::Interesting,
            6 => Nag::Dubious,
            _ => return None,
        })
    }

    /// The suffix as written after a move.
    pub fn suffix(self) -> &'static str {
        match self {
            Nag::Good => "!",
            Nag::Mistake => "?",
            Nag::Brilliant => "!!",
            Nag::Blunder => "??",
            Nag::Interesting => "!?",
            Nag::Dubious => "?!",
        }
    }

    /// The glyph of a suffix (`!`, `?`, `!!`, `??`, `!?`, `?!`).
    pub fn from_suffix(s: &str) -> Option<Nag> {
        Some(match s {
            "!" => Nag::Good,
            "?" => Nag::Mistake,
            "!!" => Nag::Brilliant,
            "??" => Nag::Blunder,
            "!?" => Nag::Interesting,
            "?!" => Nag::Dubious,
            _ => return None,
        })
    }
}

/// One node: the move that leads to it (none at the root) and what was said about it.
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The move played to reach this node; `None` for the root.
    pub mv: Option<Move>,
    /// The comment after the move (at the root: the comment on the whole game).
    pub comment: String,
    /// The move's assessment, if any.
    pub nag: Option<Nag>,
    /// The node this one hangs from (the root's is itself).
    pub parent: NodeId,
    /// The moves from here: the first continues the line, the others are variations.
    pub children: Vec<NodeId>,
}

/// The move tree of a record. Node 0 is the root.
#[derive(Clone, Debug, PartialEq)]
pub struct GameTree {
    nodes: Vec<Node>,
}

impl Default for GameTree {
    fn default() -> Self {
        Self::new()
    }
}

impl GameTree {
    /// The root's index.
    pub const ROOT: NodeId = 0;

    /// A tree with only its root.
    pub fn new() -> GameTree {
        GameTree {
            nodes: vec![Node {
                mv: None,
                comment: String::new(),
                nag: None,
                parent: 0,
                children: Vec::new(),
            }],
        }
    }

    /// Nodes in the tree, the root included.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree holds no move.
    pub fn is_empty(&self) -> bool {
        self.nodes.len() == 1
    }

    /// A node (the root for an index out of range).
    pub fn node(&self, id: NodeId) -> &Node {
        self.nodes.get(id).unwrap_or(&self.nodes[0])
    }

    /// A node to change; `None` for an index out of range.
    pub fn node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        self.nodes.get_mut(id)
    }

    /// Adds `mv` under `parent` (after its other children) and returns the new node; a
    /// child with the same move is returned instead of adding a second one.
    pub fn add_move(&mut self, parent: NodeId, mv: Move) -> NodeId {
        let parent = if parent < self.nodes.len() { parent } else { 0 };
        if let Some(&existing) = self.nodes[parent]
            .children
            .iter()
            .find(|&&c| self.nodes[c].mv == Some(mv))
        {
            return existing;
        }
        let id = self.nodes.len();
        self.nodes.push(Node {
            mv: Some(mv),
            comment: String::new(),
            nag: None,
            parent,
            children: Vec::new(),
        });
        self.nodes[parent].children.push(id);
        id
    }

    /// Appends text to a node's comment (a new paragraph if it has one already).
    pub fn add_comment(&mut self, id: NodeId, text: &str) {
        let text = text.trim();
        if text.is_empty() {
            return;
        }
        if let Some(node) = self.nodes.get_mut(id) {
            if !node.comment.is_empty() {
                node.comment.push('\n');
            }
            node.comment.push_str(text);
        }
    }

    /// The main line: the nodes reached by always taking the first child, root excluded.
    pub fn main_line(&self) -> Vec<NodeId> {
        self.line_from(Self::ROOT)
    }

    /// The line from `id` on (excluded) by first children.
    pub fn line_from(&self, id: NodeId) -> Vec<NodeId> {
        let mut line = Vec::new();
        let mut at = id;
        while let Some(&next) = self.node(at).children.first() {
            line.push(next);
            at = next;
        }
        line
    }

    /// The nodes from the root (excluded) down to `id` (included).
    pub fn path_to(&self, id: NodeId) -> Vec<NodeId> {
        let mut path = Vec::new();
        let mut at = id.min(self.nodes.len() - 1);
        while at != Self::ROOT {
            path.push(at);
            at = self.nodes[at].parent;
        }
        path.reverse();
        path
    }

    /// The position at `id`, the moves from `start` played (they are legal: the readers
    /// only add legal moves).
    pub fn position_at(&self, start: &Position, id: NodeId) -> Position {
        let mut pos = start.clone();
        for n in self.path_to(id) {
            if let Some(m) = self.nodes[n].mv {
                pos.make_move(m);
            }
        }
        pos
    }

    /// Number of plies from the root to `id`.
    pub fn ply(&self, id: NodeId) -> usize {
        self.path_to(id).len()
    }

    /// Whether `id` is the first child of its parent (it continues its line).
    pub fn is_first_child(&self, id: NodeId) -> bool {
        id != Self::ROOT && self.node(self.node(id).parent).children.first() == Some(&id)
    }

    /// Every node in depth-first order (children in order), the root first.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::with_capacity(self.nodes.len());
        let mut stack = vec![Self::ROOT];
        while let Some(id) = stack.pop() {
            out.push(id);
            for &c in self.nodes[id].children.iter().rev() {
                stack.push(c);
            }
        }
        out
    }

    /// Every line from the root to a leaf, as ICCS moves, in depth-first order (the main
    /// line first): what two readers must agree on.
    pub fn lines_iccs(&self) -> Vec<Vec<String>> {
        self.preorder()
            .into_iter()
            .filter(|&id| self.nodes[id].children.is_empty() && id != Self::ROOT)
            .map(|leaf| {
                self.path_to(leaf)
                    .into_iter()
                    .filter_map(|n| self.nodes[n].mv.map(|m| m.to_string()))
                    .collect()
            })
            .collect()
    }

    /// How deep variations nest at `id`: the number of nodes on its path that are not
    /// their parent's first child.
    pub fn nesting(&self, id: NodeId) -> usize {
        self.path_to(id)
            .into_iter()
            .filter(|&n| !self.is_first_child(n))
            .count()
    }
}
