//! The default Xiangqi opening book, embedded in the binary (`OwnBook` / UCCI `usebook`
//! use it unless `BookFile` / `bookfiles` names another). It was built by jiang itself
//! (never from another project's book or games) with:
//!
//! ```text
//! BUILD COMMAND
//! ```
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
