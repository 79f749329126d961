//! The engine's clock: [`Instant`] (a moment, and the time since) and [`seed`] (a number
//! that differs from one call to the next, for the weaker levels' choices).
//!
//! Natively these are the standard library's. In the browser build
//! (`wasm32-unknown-unknown`) the standard library has no clock (`Instant::now` and
//! `SystemTime::now` panic there), so the page provides one: the module that
//! instantiates the engine imports `env.jiang_now_ms`, a function returning milliseconds
//! from a fixed origin as an `f64` (the page's `performance.now()`). Code that runs in
//! the browser uses this module's [`Instant`] instead of `std::time::Instant`; the API is
//! the part of std's the engine uses.

#[cfg(not(target_arch = "wasm32"))]
pub use std::time::Instant;

/// A number for seeding a random choice that differs from one call to the next (the
/// wall clock's nanoseconds; in the browser, the page clock's).
pub fn seed() -> u64 {
    #[cfg(not(target_arch = "wasm32"))]
    {
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64)
    }
    #[cfg(target_arch = "wasm32")]
    {
        (page::now_ms() * 1_000_000.0) as u64
    }
}

#[cfg(target_arch = "wasm32")]
pub use page::Instant;

#[cfg(target_arch = "wasm32")]
mod page {
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds since a fixed origin (the page's `performance.now()`).
        fn jiang_now_ms() -> f64;
    }

    /// The page's clock, never going back (a NaN or a smaller reading counts as no time).
    pub fn now_ms() -> f64 {
        // SAFETY: an imported function without arguments returning a number; the page
        // provides it when it instantiates the module.
        let ms = unsafe { jiang_now_ms() };
        if ms.is_finite() {
            ms.max(0.0)
        } else {
            0.0
        }
    }

    /// A moment on the page's clock (milliseconds, fractional).
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            Instant(now_ms())
        }

        /// The time since this moment (zero if the clock went back).
        pub fn elapsed(&self) -> Duration {
            Instant::now().duration_since(*self)
        }

        /// The time from `earlier` to this moment (zero if `earlier` is later).
        pub fn duration_since(&self, earlier: Instant) -> Duration {
            // Both readings are finite and at least 0 (see `now_ms`): never NaN nor
            // negative; a span beyond `Duration`'s range saturates.
            Duration::try_from_secs_f64(((self.0 - earlier.0) / 1000.0).max(0.0))
                .unwrap_or(Duration::MAX)
        }
    }
}
