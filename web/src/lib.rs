//! The web board's logic, shared by the local server (`jiang-web`, the `server` feature)
//! and the browser build (the `jiang-wasm` workspace member, which compiles this library
//! without the feature): the boards ([`sessions`]), the JSON API ([`api`]) and a search
//! from request to move ([`job`]), and game records ([`records`]). Nothing here speaks HTTP. See `web/README.md`.

#![warn(missing_docs)]

pub mod api;
pub mod job;
pub mod records;
pub mod sessions;

#[cfg(feature = "server")]
pub mod assets;
#[cfg(feature = "server")]
pub mod http;
#[cfg(feature = "server")]
pub mod search;
#[cfg(feature = "server")]
pub mod server;
