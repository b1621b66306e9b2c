//! The cart's cross-tab lock without Web Locks: a lease in `localStorage`,
//! `{ owner, until }` (issue 41: its rules here, pure, so the browser's
//! `src/wasm/lock.rs` and the simulation's lock run the same ones).
//!
//! The lock is a courtesy, not a safeguard (docs/ARCHITECTURE.md "The
//! checkout simulation"): the conditional writes of the checkout record keep
//! a payment from being made twice without it; the lock tells a second tab's
//! buyer that the checkout is in progress in another tab before they enter a
//! card. So a lease that runs out under a tab whose timers are frozen, and is
//! taken by another tab, costs at worst a card entered for nothing.

/// How long a lease lasts without renewal (ms); its holder renews it every
/// third of that while it holds the lock.
pub const LEASE_MS: u32 = 15_000;

/// Who the lease stored now gives the lock to, as seen by page `me`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Holder {
    /// Nobody: no lease, or one that ran out (its holder's timers were frozen,
    /// or the holder went away without `pagehide`).
    Nobody,
    /// This page: its lease, not run out.
    Me,
    /// Another page's live lease: the lock is refused.
    Other,
}

/// The holder the stored lease (`owner`, `until`, ms since the epoch) names
/// at `now`, as seen by page `me`.
#[must_use]
pub fn holder<O: PartialEq>(stored: Option<(O, f64)>, me: O, now: f64) -> Holder {
    match stored {
        Some((owner, until)) if until > now => {
            if owner == me {
                Holder::Me
            } else {
                Holder::Other
            }
        }
        _ => Holder::Nobody,
    }
}

/// When a lease taken or renewed at `now` runs out.
#[must_use]
pub fn until(now: f64) -> f64 {
    now + f64::from(LEASE_MS)
}

/// Whether page `me` may write its lease over the stored one (renew it, or
/// let it go): only over nothing or its own, never over another tab's lease,
/// live or run out (that tab took it when this page's lease ran out).
#[must_use]
pub fn mine_or_none<O: PartialEq>(stored: Option<(O, f64)>, me: O) -> bool {
    stored.is_none_or(|(owner, _)| owner == me)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_runs_out_under_a_frozen_holder_and_then_is_the_other_tabs() {
        let a = Some(("tab-a", until(0.0)));
        assert_eq!(holder(a, "tab-a", 14_999.0), Holder::Me);
        assert_eq!(holder(a, "tab-b", 14_999.0), Holder::Other, "refused while live");
        assert_eq!(holder(a, "tab-b", 15_000.0), Holder::Nobody, "run out: B takes it");
        assert_eq!(holder(a, "tab-a", 15_000.0), Holder::Nobody, "A holds nothing any more");
        let b = Some(("tab-b", until(15_000.0)));
        assert!(!mine_or_none(b, "tab-a"), "A's renewal or release never writes over B's lease");
        assert!(mine_or_none(b, "tab-b") && mine_or_none(None, "tab-a"));
    }
}
