//! The opening book: lookups from mirrored positions, the repetition rule, the engine's
//! variety over whole games, and book moves answered at once over UCI and UCCI; ElephantEye's
//! `BOOK.DAT` read as ElephantEye's own book and code have it (facts of its repository).

#[path = "common/engine.rs"]
mod engine;

use jiang::book::{self, Book, BookEntry, BookKey, Variety};
use jiang::engine::{Engine as EngineCore, Event};
use jiang::game::{Game, Rules};
use jiang::request::{BookRequest, SearchRequest};
use jiang::search::book_move::book_move;
use jiang::xiangqi::{Move, Position};
use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

fn after(moves: &[&str]) -> Position {
    let mut pos = Position::startpos();
    for m in moves {
        pos.play(pos.parse_legal_move(m).unwrap());
    }
    pos
}

/// A book holding `moves` (with weights) for `pos`, stored the canonical way.
fn book_for(pos: &Position, moves: &[(&str, u16)]) -> BookRequest {
    let key = BookKey::new(pos.key(), Game::mirrored_key(pos));
    let mut records: Vec<(u64, BookEntry)> = moves
        .iter()
        .map(|(m, weight)| {
            let m = pos.parse_legal_move(m).unwrap();
            let stored = if key.mirrored {
                <Position as Game>::mirror_move(m)
            } else {
                m
            };
            (
                key.key,
                BookEntry {
                    mv: <Position as Game>::move_to_u16(stored),
                    weight: *weight,
                    score: 0,
                    depth: 1,
                },
            )
        })
        .collect();
    let bytes = book::encode("xiangqi", &mut records);
    BookRequest {
        book: Arc::new(Book::from_bytes(Cow::Owned(bytes)).unwrap()),
        variety: Variety::Best,
    }
}

fn probe(pos: &Position, book: &BookRequest) -> Option<String> {
    book_move(pos, book, &SearchRequest::<Move>::default(), 12345).map(|(m, _)| m.to_string())
}

#[test]
fn mirrored_positions_find_the_mirrored_move() {
    let left = after(&["h2e2", "h9g7"]);
    let right = after(&["b2e2", "b9c7"]);
    assert_ne!(left.key(), right.key());
    let book = book_for(&left, &[("h0g2", 10)]);
    assert_eq!(probe(&left, &book).as_deref(), Some("h0g2"));
    assert_eq!(probe(&right, &book).as_deref(), Some("b0c2"));
    // Stored from the other side, read from both.
    let book = book_for(&right, &[("b0c2", 10)]);
    assert_eq!(probe(&left, &book).as_deref(), Some("h0g2"));
    // A book of another game is not read.
    let mut other = book_for(&left, &[("h0g2", 10)]);
    let mut records: Vec<(u64, BookEntry)> = (0..other.book.len())
        .map(|i| other.book.record(i))
        .collect();
    other.book =
        Arc::new(Book::from_bytes(Cow::Owned(book::encode("fairychess", &mut records))).unwrap());
    assert_eq!(probe(&left, &other), None);
}

#[test]
fn a_book_move_that_would_repeat_is_not_played() {
    // Horses out and back twice: the start position again, for the third time.
    let shuffle = [
        "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9",
    ];
    let pos = after(&shuffle);
    let book = book_for(&pos, &[("h0g2", 100), ("h2e2", 1)]);
    // h0g2 repeats the position after ply 1 and 5: the next book move is played.
    assert_eq!(probe(&pos, &book).as_deref(), Some("h2e2"));
    let only_repeat = book_for(&pos, &[("h0g2", 100)]);
    assert_eq!(probe(&pos, &only_repeat), None);
    // From the start position itself, nothing repeats.
    assert_eq!(
        probe(
            &Position::startpos(),
            &book_for(&Position::startpos(), &[("h0g2", 1)])
        )
        .as_deref(),
        Some("h0g2")
    );
    // Banned moves are skipped too.
    let limits = SearchRequest::<Move> {
        banned: vec![pos.parse_legal_move("h2e2").unwrap()],
        ..SearchRequest::default()
    };
    assert!(book_move(&pos, &book, &limits, 1).is_none());
}

/// Plays one of the engine's moves in process at a tiny node budget; returns the move
/// and whether it came from the book.
fn engine_move(e: &mut EngineCore, moves: &[String]) -> (String, bool) {
    let texts: Vec<&str> = moves.iter().map(String::as_str).collect();
    e.set_position(None, &texts).unwrap();
    let from_book = Arc::new(Mutex::new(false));
    let seen = Arc::clone(&from_book);
    let sink: jiang::engine::EventSink = Arc::new(move |ev: Event<'_>| {
        if let Event::Note(n) = ev {
            if n.starts_with("book move") {
                *seen.lock().unwrap() = true;
            }
        }
    });
    let go = SearchRequest {
        nodes: Some(500),
        ..SearchRequest::default()
    };
    e.go(&go, sink);
    e.wait();
    let answer = e.take_outcome().unwrap().answer;
    let b = *from_book.lock().unwrap();
    (answer.best.unwrap(), b)
}

#[test]
fn twenty_self_play_games_open_in_many_ways() {
    let mut e = EngineCore::new();
    e.set_option("OwnBook", "true").unwrap();
    let mut openings = HashSet::new();
    let mut book_moves = 0;
    for _ in 0..20 {
        e.new_game();
        let mut moves = Vec::new();
        // Four moves each.
        for _ in 0..8 {
            let (m, from_book) = engine_move(&mut e, &moves);
            book_moves += usize::from(from_book);
            moves.push(m);
        }
        openings.insert(moves.join(" "));
    }
    assert!(book_moves >= 20 * 4, "{book_moves} book moves in 20 games");
    assert!(
        openings.len() >= 10,
        "{} different openings: {openings:?}",
        openings.len()
    );
    // The book off (the default), every game opens the same way: two new games (a search
    // within one game may differ from the one before it, which filled the hash table).
    let mut plain = EngineCore::new();
    plain.new_game();
    let (first, from_book) = engine_move(&mut plain, &[]);
    assert!(!from_book);
    plain.new_game();
    let (again, _) = engine_move(&mut plain, &[]);
    assert_eq!(first, again);
}

#[test]
fn best_variety_always_plays_the_same_book_move() {
    let mut e = EngineCore::new();
    e.set_option("OwnBook", "true").unwrap();
    e.set_option("BookVariety", "best").unwrap();
    let firsts: HashSet<String> = (0..5).map(|_| engine_move(&mut e, &[]).0).collect();
    assert_eq!(firsts.len(), 1, "{firsts:?}");
    assert!(e.set_option("BookFile", "/nonexistent/book.jbk").is_err());
}

#[test]
fn analysis_does_not_use_the_book() {
    let mut e = EngineCore::new();
    e.set_option("OwnBook", "true").unwrap();
    let notes = Arc::new(Mutex::new(Vec::<String>::new()));
    let seen = Arc::clone(&notes);
    let sink: jiang::engine::EventSink = Arc::new(move |ev: Event<'_>| {
        if let Event::Note(n) = ev {
            seen.lock().unwrap().push(n.to_string());
        }
    });
    let go = SearchRequest {
        infinite: true,
        ..SearchRequest::default()
    };
    e.go(&go, sink);
    std::thread::sleep(Duration::from_millis(100));
    e.stop_and_wait();
    let notes = notes.lock().unwrap();
    assert!(!notes.iter().any(|n| n.contains("book")), "{notes:?}");
}

/// `go movetime 1000` answered from the book: the `info string`, then `bestmove`, at once.
fn book_answer(e: &mut engine::Engine, setup: &[&str]) -> (String, Vec<String>, Duration) {
    for line in setup {
        e.send(line);
    }
    e.sync(engine::SLOW);
    e.send("position startpos moves h2e2");
    let t = Instant::now();
    e.send("go movetime 1000");
    let (mv, lines) = e.bestmove(engine::SLOW);
    (mv, lines, t.elapsed())
}

#[test]
fn book_moves_are_answered_at_once_over_uci_and_ucci() {
    let mut e = engine::Engine::start();
    e.send("uci");
    let hello = e.read_while_waiting("uciok", engine::SLOW, |l| l == "uciok");
    for wanted in [
        "option name OwnBook type check default false",
        "option name BookFile type string default <empty>",
        "option name BookVariety type combo default weighted var best var weighted var wide",
    ] {
        assert!(hello.iter().any(|l| l == wanted), "{wanted}: {hello:?}");
    }
    let (mv, lines, took) = book_answer(&mut e, &["setoption name OwnBook value true"]);
    println!("UCI book move {mv} in {} ms", took.as_millis());
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    assert!(took < Duration::from_millis(300), "{took:?}");

    let mut e = engine::Engine::start();
    e.send("ucci");
    let hello = e.read_while_waiting("ucciok", engine::SLOW, |l| l == "ucciok");
    for wanted in [
        "option usebook type check default false",
        "option bookfiles type string default <empty>",
    ] {
        assert!(hello.iter().any(|l| l == wanted), "{wanted}: {hello:?}");
    }
    let (mv, lines, took) = book_answer(&mut e, &["setoption usebook true"]);
    println!("UCCI book move {mv} in {} ms", took.as_millis());
    assert!(
        lines.iter().any(|l| l.starts_with("info string book move")),
        "{lines:?}"
    );
    assert!(took < Duration::from_millis(300), "{took:?}");
    // Off again: a search.
    let (_, lines, _) = book_answer(&mut e, &["setoption usebook false"]);
    assert!(!lines.iter().any(|l| l.contains("book move")), "{lines:?}");
}

// ElephantEye's BOOK.DAT, written here the way ElephantEye's book maker writes it.

/// A book in ElephantEye's layout holding `moves` (position, move, weight). Each position
/// is stored as ElephantEye's book maker stores it (the position or its mirror image,
/// whichever has the smaller lock), or under its own lock when `as_is`.
fn eleeye_bytes(moves: &[(&Position, &str, u16)], as_is: bool) -> Vec<u8> {
    use jiang::xiangqi::eleeye;
    let mut records: Vec<(u32, u16, u16)> = moves
        .iter()
        .map(|(pos, m, weight)| {
            let m = pos.parse_legal_move(m).unwrap();
            let (own, mirrored) = (eleeye::lock(pos, false), eleeye::lock(pos, true));
            if as_is || own <= mirrored {
                (own, eleeye::move_to_code(m), *weight)
            } else {
                let m = <Position as Game>::mirror_move(m);
                (mirrored, eleeye::move_to_code(m), *weight)
            }
        })
        .collect();
    book::elephanteye::encode(&mut records)
}

fn eleeye_request(bytes: Vec<u8>, variety: Variety) -> BookRequest {
    BookRequest {
        book: Arc::new(Book::from_elephanteye_bytes(Cow::Owned(bytes)).unwrap()),
        variety,
    }
}

#[test]
fn elephanteye_books_are_read_with_their_mirror_lookup() {
    let start = Position::startpos();
    let left = after(&["h2e2", "h9g7"]);
    let right = after(&["b2e2", "b9c7"]);
    let bytes = eleeye_bytes(&[(&start, "h2e2", 3), (&right, "b0c2", 5)], false);
    let book = eleeye_request(bytes, Variety::Best);
    assert_eq!(book.book.game(), "xiangqi");
    assert_eq!(probe(&start, &book).as_deref(), Some("h2e2"));
    // One of the two is stored, the other is found as its mirror image.
    assert_eq!(probe(&right, &book).as_deref(), Some("b0c2"));
    assert_eq!(probe(&left, &book).as_deref(), Some("h0g2"));
    assert_eq!(probe(&after(&["h2e2"]), &book), None);
    // ElephantEye looks the position's own lock up first: a position stored under its
    // own lock is found whichever of the two locks is smaller, and from its mirror image.
    for (stored, other, mv, mirrored_mv) in [
        (&left, &right, "h0g2", "b0c2"),
        (&right, &left, "b0c2", "h0g2"),
    ] {
        let book = eleeye_request(eleeye_bytes(&[(stored, mv, 1)], true), Variety::Best);
        assert_eq!(probe(stored, &book).as_deref(), Some(mv));
        assert_eq!(probe(other, &book).as_deref(), Some(mirrored_mv));
    }
}

#[test]
fn elephanteye_moves_go_through_the_same_checks_and_weights() {
    // The repetition rule and banned moves, as for jiang's books.
    let shuffle = [
        "h0g2", "h9g7", "g2h0", "g7h9", "h0g2", "h9g7", "g2h0", "g7h9",
    ];
    let pos = after(&shuffle);
    let book = eleeye_request(
        eleeye_bytes(&[(&pos, "h0g2", 100), (&pos, "h2e2", 1)], false),
        Variety::Best,
    );
    assert_eq!(probe(&pos, &book).as_deref(), Some("h2e2"));
    let limits = SearchRequest::<Move> {
        banned: vec![pos.parse_legal_move("h2e2").unwrap()],
        ..SearchRequest::default()
    };
    assert!(book_move(&pos, &book, &limits, 1).is_none());
    // A move that is not legal here (a lock collision, or a corrupt record) is skipped.
    let start = Position::startpos();
    let mut records = vec![
        (
            jiang::xiangqi::eleeye::lock(&start, false),
            book::elephanteye::move_code((4, 0), (4, 5)),
            1000,
        ),
        (
            jiang::xiangqi::eleeye::lock(&start, false),
            jiang::xiangqi::eleeye::move_to_code(start.parse_legal_move("c3c4").unwrap()),
            1,
        ),
    ];
    let book = eleeye_request(book::elephanteye::encode(&mut records), Variety::Best);
    assert_eq!(probe(&start, &book).as_deref(), Some("c3c4"));
    // The file's values are the weights: 3 to 1.
    let book = eleeye_request(
        eleeye_bytes(&[(&start, "h2e2", 3), (&start, "b0c2", 1)], false),
        Variety::Weighted,
    );
    let n = 400;
    let centre = (0..n)
        .filter(|&i| {
            let (m, entry) = book_move(
                &start,
                &book,
                &SearchRequest::default(),
                jiang::search::book_move::mix(i),
            )
            .unwrap();
            assert_eq!(
                (entry.score, entry.depth),
                (0, 0),
                "no score in this format"
            );
            m.to_string() == "h2e2"
        })
        .count();
    assert!((240..=360).contains(&centre), "h2e2 {centre} times of {n}");
}

/// A fresh folder for this test's files.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("jiang-book-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn an_elephanteye_book_file_is_played_and_a_bad_one_refused() {
    let dir = scratch("eleeye");
    let start = Position::startpos();
    let after_centre = after(&["h2e2"]);
    let good = eleeye_bytes(&[(&start, "c3c4", 7), (&after_centre, "b9c7", 2)], false);
    let good_path = dir.join("BOOK.DAT");
    std::fs::write(&good_path, &good).unwrap();
    let truncated = dir.join("truncated.dat");
    std::fs::write(&truncated, &good[..good.len() - 3]).unwrap();
    let unsorted = dir.join("unsorted.dat");
    let mut bytes = good[8..].to_vec();
    bytes.extend_from_slice(&good[..8]);
    std::fs::write(&unsorted, &bytes).unwrap();
    // Without jiang's magic and not named .dat: refused as a jiang book.
    let no_extension = dir.join("book.bin");
    std::fs::write(&no_extension, &good).unwrap();

    // In process: the engine plays the book's moves.
    let mut core = EngineCore::new();
    core.set_option("OwnBook", "true").unwrap();
    core.set_option("BookFile", good_path.to_str().unwrap())
        .unwrap();
    assert_eq!(engine_move(&mut core, &[]), ("c3c4".to_string(), true));
    let after_moves = vec!["h2e2".to_string()];
    assert_eq!(
        engine_move(&mut core, &after_moves),
        ("b9c7".to_string(), true)
    );
    assert!(core
        .set_option("BookFile", no_extension.to_str().unwrap())
        .unwrap_err()
        .to_string()
        .contains("not a jiang book: wrong magic (an ElephantEye BOOK.DAT is read only"));

    // Over UCCI: the book move with its line; a bad file gets one line and changes
    // nothing.
    let mut e = engine::Engine::start();
    e.send("ucci");
    e.read_while_waiting("ucciok", engine::SLOW, |l| l == "ucciok");
    e.send("setoption usebook true");
    e.send(&format!("setoption bookfiles {}", good_path.display()));
    assert_eq!(e.sync(engine::SLOW), Vec::<String>::new());
    let play = |e: &mut engine::Engine| {
        e.send("position startpos");
        e.send("go depth 3");
        e.bestmove(engine::SLOW)
    };
    let (mv, lines) = play(&mut e);
    assert_eq!(mv, "c3c4");
    assert!(
        lines.contains(&"info string book move c3c4 (weight 7)".to_string()),
        "{lines:?}"
    );
    for (bad, why) in [(&truncated, "truncated"), (&unsorted, "out of order")] {
        e.send(&format!("setoption bookfiles {}", bad.display()));
        let lines = e.sync(engine::SLOW);
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(
            lines[0].starts_with("info string not an ElephantEye book")
                && lines[0].contains(why)
                && lines[0].ends_with("the book in use is kept"),
            "{lines:?}"
        );
        let (mv, _) = play(&mut e);
        assert_eq!(mv, "c3c4", "the book in use is kept");
    }
    e.send("quit");
    e.wait_exit(engine::SLOW);
    std::fs::remove_dir_all(&dir).ok();
}

// Facts of ElephantEye's own book: its `BOOK/BOOK.DAT` (12,081 records) and its own code
// (`eleeye/position.cpp`, `eleeye/book.cpp`, `GetBookMoves`) in the public repository
// <https://github.com/xqbase/eleeye>, read outside this repository: each position's
// `dwLock1` and its mirror image's, the records the file holds, and the moves and values
// ElephantEye's probe answers. A wrong key table, square code or mirror lookup in jiang
// disagrees with them.

/// Positions (moves from the start), their lock and their mirror image's lock as
/// ElephantEye computes them.
const ELEEYE_LOCKS: &[(&[&str], u32, u32)] = &[
    (&[], 0x0526_56d5, 0x0526_56d5),
    (&["h2e2"], 0xeb50_5d7d, 0x5396_644f),
    (&["b2e2"], 0x5396_644f, 0xeb50_5d7d),
    (&["h2e2", "h9g7"], 0xdf3a_d30d, 0xf1c7_0c5a),
    (&["h2e2", "h7e7"], 0xd72f_0aa7, 0x0689_b778),
    (&["b0c2"], 0x6871_6bd2, 0x0f7e_5c9c),
    (&["c3c4"], 0x5a51_6009, 0x0c7c_a37f),
];

/// Records of `BOOK.DAT` (lock, move code, value), as the file holds them: the start
/// position's 16 and those of four other positions (three stored as their mirror image).
const ELEEYE_RECORDS: &[(u32, u16, u16)] = &[
    (0x0526_56d5, 0x8595, 546),
    (0x0526_56d5, 0x8999, 546),
    (0x0526_56d5, 0xa3c4, 18),
    (0x0526_56d5, 0xa5aa, 2),
    (0x0526_56d5, 0xa5c4, 89),
    (0x0526_56d5, 0xa6a4, 37),
    (0x0526_56d5, 0xa6aa, 42),
    (0x0526_56d5, 0xa7a4, 1473),
    (0x0526_56d5, 0xa7aa, 1473),
    (0x0526_56d5, 0xa7c5, 311),
    (0x0526_56d5, 0xa7c9, 311),
    (0x0526_56d5, 0xa8a4, 42),
    (0x0526_56d5, 0xa8aa, 37),
    (0x0526_56d5, 0xa9a4, 2),
    (0x0526_56d5, 0xa9ca, 89),
    (0x0526_56d5, 0xabca, 18),
    (0x0c7c_a37f, 0x5534, 50),
    (0x0c7c_a37f, 0x5739, 24),
    (0x0c7c_a37f, 0x5754, 4),
    (0x0c7c_a37f, 0x5954, 2),
    (0x0c7c_a37f, 0x595a, 149),
    (0x0c7c_a37f, 0x5b3a, 2),
    (0x0c7c_a37f, 0x7565, 57),
    (0x0f7e_5c9c, 0x5534, 4),
    (0x0f7e_5c9c, 0x7565, 1),
    (0x0f7e_5c9c, 0x7969, 55),
    (0x5396_644f, 0x5534, 761),
    (0x5396_644f, 0x5754, 97),
    (0x5396_644f, 0x575a, 1),
    (0x5396_644f, 0x593a, 172),
    (0xdf3a_d30d, 0x8595, 3),
    (0xdf3a_d30d, 0x8999, 61),
    (0xdf3a_d30d, 0xa9ca, 955),
];

/// A position's book moves and their values.
type BookMoves = &'static [(&'static str, u16)];

/// What ElephantEye's `GetBookMoves` answers for each position (moves from the start):
/// its moves and their values (it sorts them by value; here in the file's order, as
/// jiang reads them), mirrored back for a position stored as its mirror image.
const ELEEYE_BOOK_MOVES: &[(&[&str], BookMoves)] = &[
    (
        &[],
        &[
            ("c3c4", 546),
            ("g3g4", 546),
            ("b0a2", 18),
            ("h2c2", 2),
            ("b0c2", 89),
            ("b2d2", 37),
            ("h2d2", 42),
            ("b2e2", 1473),
            ("h2e2", 1473),
            ("c0e2", 311),
            ("g0e2", 311),
            ("b2f2", 42),
            ("h2f2", 37),
            ("b2g2", 2),
            ("h0g2", 89),
            ("h0i2", 18),
        ],
    ),
    (
        &["h2e2"],
        &[("h9g7", 761), ("h7e7", 97), ("b7e7", 1), ("b9c7", 172)],
    ),
    (
        &["b2e2"],
        &[("b9c7", 761), ("b7e7", 97), ("h7e7", 1), ("h9g7", 172)],
    ),
    (
        &["h2e2", "h9g7"],
        &[("c3c4", 3), ("g3g4", 61), ("h0g2", 955)],
    ),
    (&["b0c2"], &[("h9g7", 4), ("g6g5", 1), ("c6c5", 55)]),
    (
        &["c3c4"],
        &[
            ("h9g7", 50),
            ("c9e7", 24),
            ("h7e7", 4),
            ("h7c7", 2),
            ("b7c7", 149),
            ("b9a7", 2),
            ("g6g5", 57),
        ],
    ),
];

#[test]
fn elephanteye_locks_and_move_codes_are_elephanteyes_own() {
    use jiang::xiangqi::eleeye;
    for &(moves, own, mirrored) in ELEEYE_LOCKS {
        let pos = after(moves);
        let got = (eleeye::lock(&pos, false), eleeye::lock(&pos, true));
        assert_eq!(
            got,
            (own, mirrored),
            "locks after {moves:?}: {:#010x} {:#010x}, ElephantEye's {own:#010x} {mirrored:#010x}",
            got.0,
            got.1
        );
    }
    // The start position's records are its legal moves, coded as ElephantEye codes them.
    let start = Position::startpos();
    let (_, start_moves) = ELEEYE_BOOK_MOVES[0];
    for (&(_, code, _), &(text, _)) in ELEEYE_RECORDS.iter().zip(start_moves) {
        let m = start.parse_legal_move(text).unwrap();
        assert_eq!(eleeye::move_to_code(m), code, "{text}");
        assert_eq!(eleeye::move_from_code(code), Some(m), "{code:#06x}");
    }
}

#[test]
fn elephanteyes_book_answers_as_elephanteye_does() {
    let mut records = ELEEYE_RECORDS.to_vec();
    let bytes = book::elephanteye::encode(&mut records);
    assert_eq!(
        records, ELEEYE_RECORDS,
        "the file's records are in ElephantEye's order"
    );
    let book = Book::from_elephanteye_bytes(Cow::Owned(bytes)).unwrap();
    for &(moves, want) in ELEEYE_BOOK_MOVES {
        let pos = after(moves);
        let (own, mirrored) = pos
            .book_keys(book.format())
            .expect("Xiangqi reads ElephantEye's keys");
        let key = book.lookup(own, mirrored);
        let got: Vec<(String, u16)> = book
            .entries(key.key)
            .map(|e| {
                let m = <Position as Game>::book_move_from_code(book.format(), e.mv)
                    .expect("a move code on the board");
                let m = if key.mirrored {
                    <Position as Game>::mirror_move(m)
                } else {
                    m
                };
                assert!(pos.is_legal(m), "{m} after {moves:?}");
                (m.to_string(), e.weight)
            })
            .collect();
        let want: Vec<(String, u16)> = want.iter().map(|&(m, w)| (m.to_string(), w)).collect();
        assert_eq!(got, want, "book moves after {moves:?}");
    }
}
