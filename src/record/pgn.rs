//! PGN for Xiangqi: tags, then the moves in ICCS, WXF or Chinese notation (any mix is
//! read, each move by its shape: see [`super::notation`]), with `{comments}`, `;` line
//! comments, `(variations)` nested in any depth up to [`super::MAX_NESTING`], the
//! assessments `!` `?` `!!` `??` `!?` `?!` and `$1`..`$6`, and a result. A file may hold
//! several games. The start position is the `FEN` tag's, else the standard one.
//!
//! Written: the tags (`Game "Chinese Chess"` first, then the game's, `FEN` when the game
//! does not start from the standard position, `Format` naming the notation: `ICCS` with
//! moves as `H2-E2`, `WXF`, or `Chinese`), the moves numbered, comments and variations,
//! the result.

use super::error::{ErrorKind, Place, RecordError};
use super::notation::{read_move, write_iccs_pgn, write_move, Notation};
use super::tree::{GameTree, Nag, NodeId};
use super::{Game, Loaded, MAX_LINE_PLIES, MAX_NESTING, MAX_NODES};
use crate::xiangqi::{Color, Position, START_FEN};

/// One lexical piece of PGN.
#[derive(Clone, Debug, PartialEq)]
enum Token {
    Tag(String, String),
    Comment(String),
    Open,
    Close,
    Nag(u32),
    Result(String),
    Word(String),
}

/// Splits PGN text into tokens with their places; move numbers are dropped.
fn tokenize(text: &str) -> Vec<(Token, Place)> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut line, mut column) = (1usize, 1usize);
    let mut i = 0;
    // Advances over chars[i], keeping the place.
    macro_rules! bump {
        () => {{
            if chars[i] == '\n' {
                line += 1;
                column = 1;
            } else {
                column += 1;
            }
            i += 1;
        }};
    }
    let is_delimiter = |c: char| c.is_whitespace() || "{}()[];".contains(c);
    while i < chars.len() {
        let c = chars[i];
        let place = Place::Line { line, column };
        if c.is_whitespace() {
            bump!();
            continue;
        }
        match c {
            '{' => {
                bump!();
                let mut s = String::new();
                while i < chars.len() && chars[i] != '}' {
                    s.push(chars[i]);
                    bump!();
                }
                if i < chars.len() {
                    bump!();
                }
                out.push((Token::Comment(s), place));
            }
            ';' => {
                let mut s = String::new();
                while i < chars.len() && chars[i] != '\n' {
                    s.push(chars[i]);
                    bump!();
                }
                out.push((Token::Comment(s[1..].to_string()), place));
            }
            '(' => {
                bump!();
                out.push((Token::Open, place));
            }
            ')' => {
                bump!();
                out.push((Token::Close, place));
            }
            '[' => {
                bump!();
                let mut inner = String::new();
                let mut quoted = false;
                while i < chars.len() && (quoted || chars[i] != ']') && chars[i] != '\n' {
                    if chars[i] == '"' {
                        quoted = !quoted;
                    }
                    if chars[i] == '\\' && quoted && i + 1 < chars.len() {
                        bump!();
                    }
                    inner.push(chars[i]);
                    bump!();
                }
                if i < chars.len() && chars[i] == ']' {
                    bump!();
                }
                let inner = inner.trim();
                let (name, value) = inner.split_once(char::is_whitespace).unwrap_or((inner, ""));
                let value = value.trim();
                let value = value.strip_prefix('"').unwrap_or(value);
                let value = value.strip_suffix('"').unwrap_or(value);
                out.push((Token::Tag(name.to_string(), value.to_string()), place));
            }
            ']' | '}' => bump!(),
            _ => {
                let mut s = String::new();
                while i < chars.len() && !is_delimiter(chars[i]) {
                    s.push(chars[i]);
                    bump!();
                }
                push_word(&s, place, &mut out);
            }
        }
    }
    out
}

/// A word: a NAG, a result, a move number (possibly glued to a move), or a move.
fn push_word(word: &str, place: Place, out: &mut Vec<(Token, Place)>) {
    if let Some(n) = word.strip_prefix('$') {
        if let Ok(n) = n.parse() {
            out.push((Token::Nag(n), place));
        }
        return;
    }
    if matches!(word, "1-0" | "0-1" | "1/2-1/2" | "*" | "½-½") {
        let r = if word == "½-½" { "1/2-1/2" } else { word };
        out.push((Token::Result(r.to_string()), place));
        return;
    }
    // A move number: digits (ASCII or full width) then dots, '…' or '、'.
    let digits = word
        .chars()
        .take_while(|c| c.is_ascii_digit() || ('０'..='９').contains(c))
        .count();
    if digits > 0 {
        let rest: String = word.chars().skip(digits).collect();
        let after_dots = rest.trim_start_matches(['.', '…', '、', '．', '。']);
        let dotted = after_dots.len() < rest.len();
        let glued_digit = after_dots
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit());
        if dotted && !glued_digit {
            if !after_dots.is_empty() {
                let column = match place {
                    Place::Line { line, column } => Place::Line {
                        line,
                        column: column + word.chars().count() - after_dots.chars().count(),
                    },
                    p => p,
                };
                push_word(after_dots, column, out);
            }
            return;
        }
        if rest.is_empty() {
            return; // a bare number
        }
    }
    out.push((Token::Word(word.to_string()), place));
}

/// A move word's assessment suffix and check marks, split off.
fn split_suffix(word: &str) -> (&str, Option<Nag>) {
    let base = word.trim_end_matches(['!', '?']);
    let nag = Nag::from_suffix(&word[base.len()..]);
    let base = base.trim_end_matches('#');
    // A trailing '+' is a check mark only after ICCS (WXF moves end in a digit).
    let base = if base.len() == 5 && base.is_ascii() && base.ends_with('+') {
        &base[..4]
    } else {
        base
    };
    (base, nag)
}

/// One line being read: its last node, its position there, whether it already ended
/// (an illegal move), and a comment waiting for the line's first move.
struct Line {
    node: NodeId,
    pos: Position,
    dead: bool,
    fresh: bool,
    pending: String,
}

/// Reads every game of a PGN text.
pub fn read_games(text: &str) -> Vec<Result<Loaded, RecordError>> {
    let tokens = tokenize(text);
    let mut games = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        // A game: its tags, then everything up to the next tag after move text.
        let start = i;
        while i < tokens.len() && matches!(tokens[i].0, Token::Tag(..)) {
            i += 1;
        }
        while i < tokens.len() && !matches!(tokens[i].0, Token::Tag(..)) {
            i += 1;
        }
        let game_tokens = &tokens[start..i];
        if game_tokens
            .iter()
            .any(|(t, _)| !matches!(t, Token::Comment(_)))
        {
            games.push(read_game(game_tokens));
        }
    }
    if games.is_empty() {
        games.push(Err(RecordError::new(Place::Nowhere, ErrorKind::NoGame)));
    }
    games
}

/// Reads the first game of a PGN text.
pub fn read(text: &str) -> Result<Loaded, RecordError> {
    read_games(text)
        .into_iter()
        .next()
        .unwrap_or_else(|| Err(RecordError::new(Place::Nowhere, ErrorKind::NoGame)))
}

fn read_game(tokens: &[(Token, Place)]) -> Result<Loaded, RecordError> {
    let mut game = Game::new(START_FEN.to_string());
    let mut start = Position::startpos();
    let mut warnings = Vec::new();
    let mut body = 0;
    for (t, place) in tokens {
        let Token::Tag(name, value) = t else {
            break;
        };
        body += 1;
        if name.eq_ignore_ascii_case("FEN") {
            start = Position::from_fen(value)
                .map_err(|e| RecordError::new(*place, ErrorKind::Position(e)))?;
            game.start_fen = start.to_fen();
        } else if !name.is_empty() {
            game.set_tag(name, value);
        }
    }
    let mut line = Line {
        node: GameTree::ROOT,
        pos: start.clone(),
        dead: false,
        fresh: false,
        pending: String::new(),
    };
    let mut outer: Vec<Line> = Vec::new();
    for (t, place) in &tokens[body..] {
        match t {
            Token::Tag(..) => {}
            Token::Comment(c) => {
                if line.dead {
                    continue;
                }
                if line.fresh {
                    if !line.pending.is_empty() {
                        line.pending.push('\n');
                    }
                    line.pending.push_str(c.trim());
                } else {
                    game.tree.add_comment(line.node, c);
                }
            }
            Token::Nag(n) => {
                if let (false, false, Some(node)) =
                    (line.dead, line.fresh, game.tree.node_mut(line.node))
                {
                    if line.node != GameTree::ROOT {
                        node.nag = Nag::from_number(*n).or(node.nag);
                    }
                }
            }
            Token::Open => {
                let parent = game.tree.node(line.node).parent;
                let dead = line.dead || line.node == GameTree::ROOT || outer.len() >= MAX_NESTING;
                if !line.dead && outer.len() >= MAX_NESTING {
                    warnings.push(RecordError::new(
                        *place,
                        ErrorKind::TooLarge(format!(
                            "variations nested deeper than {MAX_NESTING}; this one is skipped"
                        )),
                    ));
                }
                if !line.dead && line.node == GameTree::ROOT {
                    warnings.push(RecordError::malformed(
                        *place,
                        "a variation before any move; it is skipped",
                    ));
                }
                let pos = if dead {
                    start.clone()
                } else {
                    game.tree.position_at(&start, parent)
                };
                let inner = Line {
                    node: parent,
                    pos,
                    dead,
                    fresh: true,
                    pending: String::new(),
                };
                outer.push(std::mem::replace(&mut line, inner));
            }
            Token::Close => match outer.pop() {
                Some(l) => line = l,
                None => warnings.push(RecordError::malformed(*place, "')' without '('; ignored")),
            },
            Token::Result(r) => {
                if game.tag("Result").is_none_or(|v| v.is_empty() || v == "*") {
                    game.set_tag("Result", r);
                }
                break;
            }
            Token::Word(w) => {
                if line.dead {
                    continue;
                }
                let (text, nag) = split_suffix(w);
                if game.tree.len() > MAX_NODES || game.tree.ply(line.node) >= MAX_LINE_PLIES {
                    warnings.push(RecordError::new(
                        *place,
                        ErrorKind::TooLarge(format!(
                            "more than {MAX_NODES} moves or {MAX_LINE_PLIES} plies in a line"
                        )),
                    ));
                    line.dead = true;
                    continue;
                }
                match read_move(&line.pos, text) {
                    Ok(m) => {
                        line.pos.make_move(m);
                        line.node = game.tree.add_move(line.node, m);
                        if let Some(node) = game.tree.node_mut(line.node) {
                            node.nag = nag.or(node.nag);
                        }
                        if line.fresh {
                            line.fresh = false;
                            let pending = std::mem::take(&mut line.pending);
                            game.tree.add_comment(line.node, &pending);
                        }
                    }
                    Err(reason) => {
                        let rest = if outer.is_empty() {
                            "the game"
                        } else {
                            "this variation"
                        };
                        warnings.push(RecordError::bad_move(
                            *place,
                            w.as_str(),
                            format!("{reason}; {rest} ends here"),
                        ));
                        line.dead = true;
                    }
                }
            }
        }
    }
    if !outer.is_empty() {
        warnings.push(RecordError::malformed(
            Place::Nowhere,
            format!("{} variation(s) not closed with ')'", outer.len()),
        ));
    }
    Ok(Loaded { game, warnings })
}

/// Writes a game as PGN with its moves in `notation`.
pub fn write(game: &Game, notation: Notation) -> String {
    let mut out = String::new();
    let quote = |v: &str| v.replace('\\', "\\\\").replace('"', "\\\"");
    if game.tag("Game").is_none() {
        out.push_str("[Game \"Chinese Chess\"]\n");
    }
    for (name, value) in &game.tags {
        if name.eq_ignore_ascii_case("Format") || name.eq_ignore_ascii_case("Result") {
            continue;
        }
        out.push_str(&format!("[{name} \"{}\"]\n", quote(value)));
    }
    out.push_str(&format!("[Result \"{}\"]\n", game.result()));
    if !game.from_start_position() {
        out.push_str(&format!("[FEN \"{}\"]\n", game.start_fen));
    }
    let format = match notation {
        Notation::Iccs => "ICCS",
        Notation::Wxf => "WXF",
        Notation::Chinese => "Chinese",
    };
    out.push_str(&format!("[Format \"{format}\"]\n\n"));
    let mut words = Vec::new();
    let root = game.tree.node(GameTree::ROOT);
    if !root.comment.is_empty() {
        words.push(comment(&root.comment));
    }
    if let Some(&first) = root.children.first() {
        write_line(game, &game.start_position(), first, notation, &mut words);
    }
    words.push(game.result().to_string());
    let words = join_parentheses(words);
    // Wrap at about 80 characters (comments are kept whole).
    let mut width = 0;
    for (i, w) in words.iter().enumerate() {
        let len = w.chars().count();
        if i > 0 {
            if width + 1 + len > 80 {
                out.push('\n');
                width = 0;
            } else {
                out.push(' ');
                width += 1;
            }
        }
        out.push_str(w);
        width += len;
    }
    out.push_str("\n\n");
    out
}

fn comment(text: &str) -> String {
    format!("{{{}}}", text.replace('}', ")"))
}

/// Writes the line that starts with `first` (from `pos`), with the variations of each of
/// its moves after the move.
fn write_line(
    game: &Game,
    pos: &Position,
    first: NodeId,
    notation: Notation,
    words: &mut Vec<String>,
) {
    let tree = &game.tree;
    let mut pos = pos.clone();
    let mut id = first;
    let mut number_black = true;
    loop {
        let node = tree.node(id);
        let Some(m) = node.mv else { break };
        let number = pos.fullmove();
        let mut word = match pos.side_to_move() {
            Color::Red => format!("{number}. "),
            Color::Black if number_black => format!("{number}... "),
            Color::Black => String::new(),
        };
        word.push_str(&match notation {
            Notation::Iccs => write_iccs_pgn(m),
            other => write_move(&pos, m, other),
        });
        if let Some(nag) = node.nag {
            word.push_str(nag.suffix());
        }
        words.push(word);
        number_black = false;
        if !node.comment.is_empty() {
            words.push(comment(&node.comment));
            number_black = true;
        }
        let parent = tree.node(node.parent);
        if tree.is_first_child(id) {
            for &alt in &parent.children[1..] {
                words.push("(".into());
                write_line(game, &pos, alt, notation, words);
                words.push(")".into());
                number_black = true;
            }
        }
        pos.make_move(m);
        match node.children.first() {
            Some(&next) => id = next,
            None => break,
        }
    }
}

/// `(` and `)` glued to the words inside them: `(2. C8.5 H2+3)`.
fn join_parentheses(words: Vec<String>) -> Vec<String> {
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut open = false;
    for w in words {
        if w == ")" {
            match out.last_mut() {
                Some(last) => last.push(')'),
                None => out.push(w),
            }
        } else if open {
            if let Some(last) = out.last_mut() {
                last.push_str(&w);
            }
            open = w == "(";
        } else {
            open = w == "(";
            out.push(w);
        }
    }
    out
}
