//! The opening book: lookups from mirrored positions, the repetition rule, the engine's
//! variety over whole games, and book moves answered at once over UCI and UCCI.

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
