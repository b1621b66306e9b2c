//! Cache strategies of the client: what a caller may ask of the GET cache
//! (`cache: "no-store" | { maxAgeMs, staleWhileRevalidateMs, staleIfErrorMs }`,
//! Hydrogen's `CacheShort` / `CacheLong` / `CacheNone` as JS presets), checked
//! here, and the freshness decision for a stored answer. No I/O: the wasm
//! client (`src/wasm/client.rs`) keeps the answers, the clock and the requests.

use crate::error::{Error, ErrorCode, Result};

/// The members of a strategy object, in the order of [`Strategy`]'s fields.
pub const MEMBERS: [&str; 3] = ["maxAgeMs", "staleWhileRevalidateMs", "staleIfErrorMs"];

/// How long a stored answer may be used, from the moment it was stored.
/// All zero is `"no-store"`: nothing is read from or written to the cache.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Strategy {
    /// Answered from the cache without a request while younger than this.
    pub max_age_ms: u32,
    /// After `max_age_ms`, for this long more: answered at once from the cache
    /// while one request refreshes it in the background.
    pub stale_while_revalidate_ms: u32,
    /// After `max_age_ms`, for this long more: when the request fails with a
    /// network error, a timeout or a 5xx, the stored answer is given instead
    /// (and the caller is told).
    pub stale_if_error_ms: u32,
}

/// What a lookup does with a stored answer, for one caller's strategy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Use {
    /// Answer from the cache, no request.
    Fresh,
    /// Answer from the cache at once; refresh it with one request in the
    /// background unless one is in flight.
    StaleRevalidate,
    /// Send the request (the stored answer may still serve [`Strategy::serves_on_error`]).
    Miss,
}

impl Strategy {
    /// `"no-store"`.
    pub const NO_STORE: Strategy = Strategy { max_age_ms: 0, stale_while_revalidate_ms: 0, stale_if_error_ms: 0 };

    /// The strategy of the option `cacheTtlMs` (0: no cache).
    #[must_use]
    pub const fn ttl(ms: u32) -> Strategy {
        Strategy { max_age_ms: ms, stale_while_revalidate_ms: 0, stale_if_error_ms: 0 }
    }

    /// Whether answers are read from and written to the cache at all.
    #[must_use]
    pub const fn stores(&self) -> bool {
        self.max_age_ms > 0 || self.stale_while_revalidate_ms > 0 || self.stale_if_error_ms > 0
    }

    /// How long after it was stored an answer can still be of use to this
    /// strategy (the entry is swept after that).
    #[must_use]
    pub fn keep_ms(&self) -> f64 {
        f64::from(self.max_age_ms) + f64::from(self.stale_while_revalidate_ms.max(self.stale_if_error_ms))
    }

    /// The decision for an answer of age `age_ms`.
    #[must_use]
    pub fn lookup(&self, age_ms: f64) -> Use {
        let max_age = f64::from(self.max_age_ms);
        if !self.stores() || age_ms.is_nan() || age_ms < 0.0 {
            Use::Miss
        } else if age_ms < max_age {
            Use::Fresh
        } else if age_ms < max_age + f64::from(self.stale_while_revalidate_ms) {
            Use::StaleRevalidate
        } else {
            Use::Miss
        }
    }

    /// Whether an answer of age `age_ms` may be given instead of a failed request's error.
    #[must_use]
    pub fn serves_on_error(&self, age_ms: f64) -> bool {
        self.stale_if_error_ms > 0 && age_ms >= 0.0 && age_ms < f64::from(self.max_age_ms) + f64::from(self.stale_if_error_ms)
    }

    /// The strategy of a string: only `"no-store"`.
    ///
    /// # Errors
    /// `invalid_argument` naming `what` for any other string.
    pub fn from_keyword(what: &str, s: &str) -> Result<Strategy> {
        if s == "no-store" {
            return Ok(Strategy::NO_STORE);
        }
        Err(bad(what, " must be \"no-store\" or a CacheStrategy object"))
    }

    /// The strategy of an object: its three members as numbers (`None`: absent,
    /// `undefined` or `null`, which is 0; a value that is not a number as NaN),
    /// each an integer number of milliseconds in 0..=4294967295; `others`: it has
    /// members besides them (a typo such as `maxAge`).
    ///
    /// # Errors
    /// `invalid_argument` naming `what` and the member.
    pub fn from_members(what: &str, others: bool, members: [Option<f64>; 3]) -> Result<Strategy> {
        if others {
            return Err(bad(what, " has a member other than maxAgeMs, staleWhileRevalidateMs, staleIfErrorMs"));
        }
        let mut ms = [0u32; 3];
        for ((slot, m), name) in ms.iter_mut().zip(members).zip(MEMBERS) {
            *slot = match m {
                None => 0,
                // (`as` saturates and maps NaN to 0: exactly the integers in range come back equal.)
                Some(n) if f64::from(n as u32) == n => n as u32,
                _ => return Err(bad(what, &format!(".{name} must be an integer in 0..=4294967295"))),
            };
        }
        Ok(Strategy { max_age_ms: ms[0], stale_while_revalidate_ms: ms[1], stale_if_error_ms: ms[2] })
    }
}

fn bad(what: &str, why: &str) -> Error {
    Error::invalid_argument(format!("{what}{why}"))
}

/// Whether a failed request may be answered from a stale entry
/// (`staleIfErrorMs`): a network error, a timeout or a 5xx status; never an
/// abort, a 4xx or a body that failed its checks.
#[must_use]
pub fn stale_on_error(e: &Error) -> bool {
    matches!(e.code, ErrorCode::Network | ErrorCode::Timeout) || e.status.is_some_and(|s| s >= 500)
}

/// The members of `fetchOptions` (passed to `fetch` as its second argument:
/// Next's `next: { revalidate, tags }`, Workers' `cf`, `cache`, `priority` …)
/// that would undo the request the client built, so are refused.
pub const FETCH_OPTIONS_REFUSED: [&str; 4] = ["method", "headers", "body", "signal"];

/// Checks the member names of `fetchOptions`.
///
/// # Errors
/// `invalid_argument` for a member in [`FETCH_OPTIONS_REFUSED`].
pub fn check_fetch_options<'a>(keys: impl IntoIterator<Item = &'a str>) -> Result<()> {
    for k in keys {
        if FETCH_OPTIONS_REFUSED.contains(&k) {
            return Err(Error::invalid_argument(format!("fetchOptions.{k} is the client's own (pass a signal as callOptions.signal)")));
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const SHORT: Strategy = Strategy { max_age_ms: 1_000, stale_while_revalidate_ms: 9_000, stale_if_error_ms: 0 };

    #[test]
    fn ttl_is_max_age_only() {
        let s = Strategy::ttl(30_000);
        assert_eq!(s.lookup(0.0), Use::Fresh);
        assert_eq!(s.lookup(29_999.0), Use::Fresh);
        assert_eq!(s.lookup(30_000.0), Use::Miss);
        assert!(!s.serves_on_error(1.0));
        assert_eq!(s.keep_ms(), 30_000.0);
        assert!(!Strategy::ttl(0).stores());
    }

    #[test]
    fn fresh_then_stale_while_revalidate_then_miss() {
        assert_eq!(SHORT.lookup(999.0), Use::Fresh);
        assert_eq!(SHORT.lookup(1_000.0), Use::StaleRevalidate);
        assert_eq!(SHORT.lookup(9_999.0), Use::StaleRevalidate);
        assert_eq!(SHORT.lookup(10_000.0), Use::Miss);
        assert_eq!(SHORT.keep_ms(), 10_000.0);
        // A clock that went back is not a fresh answer.
        assert_eq!(SHORT.lookup(-5.0), Use::Miss);
        assert_eq!(SHORT.lookup(f64::NAN), Use::Miss);
    }

    #[test]
    fn stale_if_error_window() {
        let s = Strategy { max_age_ms: 100, stale_while_revalidate_ms: 0, stale_if_error_ms: 1_000 };
        assert_eq!(s.lookup(150.0), Use::Miss, "past max-age without SWR: a request");
        assert!(s.serves_on_error(150.0));
        assert!(s.serves_on_error(1_099.0));
        assert!(!s.serves_on_error(1_100.0));
        assert_eq!(s.keep_ms(), 1_100.0);
        // The longer window decides how long the entry is kept.
        let both = Strategy { stale_while_revalidate_ms: 5_000, ..s };
        assert_eq!(both.keep_ms(), 5_100.0);
    }

    #[test]
    fn no_store_reads_and_writes_nothing() {
        let s = Strategy::from_keyword("cache", "no-store").unwrap();
        assert!(!s.stores());
        assert_eq!(s.lookup(0.0), Use::Miss);
        assert!(!s.serves_on_error(0.0));
        // Only stale-if-error still stores (for errors), answering every call from the network.
        let sie = Strategy { stale_if_error_ms: 10, ..Strategy::NO_STORE };
        assert!(sie.stores());
        assert_eq!(sie.lookup(0.0), Use::Miss);
        assert!(sie.serves_on_error(0.0));
    }

    #[test]
    fn options_are_checked() {
        let (absent, number, other): (Option<f64>, fn(f64) -> Option<f64>, Option<f64>) = (None, Some, Some(f64::NAN));
        assert_eq!(Strategy::from_members("cache", false, [number(1_000.0), number(9_000.0), absent]).unwrap(), SHORT);
        assert_eq!(Strategy::from_members("cache", false, [absent; 3]).unwrap(), Strategy::NO_STORE);
        assert_eq!(Strategy::from_members("c", false, [number(4_294_967_295.0), absent, absent]).unwrap().max_age_ms, u32::MAX);
        for (m, member) in [
            ([number(-1.0), absent, absent], "maxAgeMs"),
            ([absent, number(1.5), absent], "staleWhileRevalidateMs"),
            ([absent, absent, other], "staleIfErrorMs"),
            ([number(4_294_967_296.0), absent, absent], "maxAgeMs"),
            ([number(f64::NAN), absent, absent], "maxAgeMs"),
            ([number(f64::INFINITY), absent, absent], "maxAgeMs"),
        ] {
            let e = Strategy::from_members("options.cache", false, m).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument);
            assert_eq!(e.message, format!("options.cache.{member} must be an integer in 0..=4294967295"));
        }
        let e = Strategy::from_members("cache", true, [absent; 3]).unwrap_err();
        assert!(e.message.starts_with("cache has a member other than maxAgeMs"), "{}", e.message);
        let e = Strategy::from_keyword("cache", "no-cache").unwrap_err();
        assert!(e.message.contains("must be \"no-store\" or"), "{}", e.message);
    }

    #[test]
    fn which_errors_serve_stale() {
        use ErrorCode::*;
        let e = |code, status: Option<u16>| Error { status, ..Error::new(code, "x") };
        assert!(stale_on_error(&e(Network, None)));
        assert!(stale_on_error(&e(Timeout, None)));
        assert!(stale_on_error(&e(Internal, Some(500))));
        assert!(stale_on_error(&e(Http, Some(503))));
        assert!(stale_on_error(&e(ProcessorError, Some(502))));
        assert!(!stale_on_error(&e(Aborted, None)));
        assert!(!stale_on_error(&e(NotFound, Some(404))));
        assert!(!stale_on_error(&e(RateLimited, Some(429))));
        assert!(!stale_on_error(&e(Decode, Some(200))));
    }

    #[test]
    fn fetch_options_keep_the_request() {
        assert!(check_fetch_options(["next", "cf", "cache", "priority"]).is_ok());
        for k in FETCH_OPTIONS_REFUSED {
            let e = check_fetch_options(["next", k]).unwrap_err();
            assert!(e.message.starts_with(&format!("fetchOptions.{k} ")), "{}", e.message);
        }
    }
}
