//! The cross-tab lock as the browser gives it (`src/wasm/lock.rs`): a Web Lock
//! (`navigator.locks.request(name, { ifAvailable: true })`, freed by the
//! browser when the tab goes away) or, without Web Locks, a localStorage lease
//! of [`lease::LEASE_MS`] renewed by a timer while held, which expires under a tab
//! whose timers are frozen and is then taken by another tab while the frozen
//! tab still believes it holds it.

use crate::checkout::lease::{self, Holder};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LockKind {
    WebLocks,
    Lease,
}

#[derive(Debug, Clone)]
pub struct Lock {
    pub kind: LockKind,
    /// The holding tab instance and, for a lease, when it runs out.
    holder: Option<(u32, u64)>,
}

impl Lock {
    pub const fn new(kind: LockKind) -> Self {
        Self { kind, holder: None }
    }

    /// Who holds it at `now` (an expired lease is held by nobody).
    pub fn holder(&self, now: u64) -> Option<u32> {
        match (self.kind, self.holder) {
            (_, None) => None,
            (LockKind::WebLocks, Some((tab, _))) => Some(tab),
            // The browser's own rule (`src/wasm/lock.rs`): `lease::holder`.
            (LockKind::Lease, Some((tab, until))) => (lease::holder(Some((tab, until as f64)), tab, now as f64) == Holder::Me).then_some(tab),
        }
    }

    /// `ifAvailable`: taken by `tab` (or already its own), or refused at once.
    pub fn try_acquire(&mut self, tab: u32, now: u64) -> bool {
        match self.holder(now) {
            Some(t) if t != tab => false,
            _ => {
                self.holder = Some((tab, lease::until(now as f64) as u64));
                true
            }
        }
    }

    /// Let go (only by its holder; a tab whose lease was taken lets nothing go).
    pub fn release(&mut self, tab: u32) {
        if self.holder.is_some_and(|(t, _)| t == tab) {
            self.holder = None;
        }
    }

    /// The holder's renewal timer ran (a lease only; a frozen tab's does not).
    pub fn renew(&mut self, tab: u32, now: u64) {
        if self.kind == LockKind::Lease {
            if let Some((t, until)) = &mut self.holder {
                if *t == tab && now < *until {
                    *until = lease::until(now as f64) as u64;
                }
            }
        }
    }

    /// The tab went away: a Web Lock is freed by the browser; a lease is let
    /// go on `pagehide` when `orderly`, else it runs out by itself.
    pub fn tab_gone(&mut self, tab: u32, orderly: bool) {
        if self.kind == LockKind::WebLocks || orderly {
            self.release(tab);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lease_runs_out_under_a_frozen_holder_and_is_taken() {
        let mut l = Lock::new(LockKind::Lease);
        assert!(l.try_acquire(1, 0));
        assert!(!l.try_acquire(2, 10_000));
        l.renew(1, 10_000);
        assert!(!l.try_acquire(2, 20_000), "renewed at 10 s: held until 25 s");
        assert!(l.try_acquire(2, 25_000));
        l.release(1);
        assert_eq!(l.holder(25_001), Some(2), "the old holder lets nothing go");
    }

    #[test]
    fn a_web_lock_is_held_until_released_or_the_tab_is_gone() {
        let mut l = Lock::new(LockKind::WebLocks);
        assert!(l.try_acquire(1, 0));
        assert!(!l.try_acquire(2, 1_000_000));
        l.tab_gone(1, false);
        assert!(l.try_acquire(2, 1_000_000));
    }
}
