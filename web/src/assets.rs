//! The page and its scripts and style, built into the binary: the server serves these
//! and nothing else from its side (no file system access). The same files, with the
//! WebAssembly engine beside them, make the static bundle (`web/build-static.sh`).

/// A script of the page: (path, file contents).
macro_rules! script {
    ($name:literal) => {
        (
            concat!("/", $name),
            "text/javascript; charset=utf-8",
            include_str!(concat!("../assets/", $name)),
        )
    };
}

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
    script!("app.js"),
    script!("boards.js"),
    script!("i18n.js"),
    script!("backend.js"),
    script!("local.js"),
    script!("jiang-wasm.js"),
    script!("engine-worker.js"),
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
