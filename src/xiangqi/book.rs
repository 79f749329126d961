//! The default Xiangqi opening book, embedded in the binary (`OwnBook` / UCCI `usebook`
//! use it unless `BookFile` / `bookfiles` names another). It was built by jiang itself
//! (never from another project's book or games) with:
//!
//! ```text
//! nice -n 5 cargo run --release -p jiang-lab -- book build src/xiangqi/book.jbk \
//!     --nodes 40000 --positions 6000 --seed 1
//! ```
//!
//! (defaults otherwise: 4 lines searched per position, moves within 40 units of the best
//! kept, weights a softmax at temperature 15, 12 units per ply, at most 24 plies deep).
//! About 4 minutes of one core; `jiang-lab book show src/xiangqi/book.jbk [FEN]` shows
//! what it holds.
//!
//! The format is `crate::book`'s.

use crate::book::Book;
use once_cell::sync::Lazy;
use std::borrow::Cow;
use std::sync::Arc;

/// The book's bytes.
pub static DEFAULT_BOOK_BYTES: &[u8] = include_bytes!("book.jbk");

static DEFAULT_BOOK: Lazy<Option<Arc<Book>>> =
    Lazy::new(
        || match Book::from_bytes(Cow::Borrowed(DEFAULT_BOOK_BYTES)) {
            Ok(b) => Some(Arc::new(b)),
            Err(e) => {
                log::error!("the embedded Xiangqi book: {e}");
                None
            }
        },
    );

/// The embedded book.
pub fn default_book() -> Option<Arc<Book>> {
    DEFAULT_BOOK.clone()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_embedded_book_reads() {
        let book = super::default_book().expect("the embedded book is a book");
        assert_eq!(book.game(), "xiangqi");
    }
}
