//! The page and its script and style, built into the binary: the server serves these
//! and nothing else from its side (no file system access).

/// (path, content type, body) of every asset.
pub const ASSETS: &[(&str, &str, &str)] = &[
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/index.html",
        "text/html; charset=utf-8",
        include_str!("../assets/index.html"),
    ),
    (
        "/app.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/app.js"),
    ),
    (
        "/boards.js",
        "text/javascript; charset=utf-8",
        include_str!("../assets/boards.js"),
    ),
    (
        "/style.css",
        "text/css; charset=utf-8",
        include_str!("../assets/style.css"),
    ),
];

/// The asset at `path`, as (content type, body).
pub fn find(path: &str) -> Option<(&'static str, &'static str)> {
    ASSETS
        .iter()
        .find(|(p, _, _)| *p == path)
        .map(|(_, t, b)| (*t, *b))
}
