//! One tab's copy of the checkout ([`Tab`]) and the rules of the shared
//! record it follows: what its copy is worth against the record stored now
//! ([`Tab::sync`]: current, adopt another tab's progress, write back an
//! unsettled payment, or refuse), the record a write stores ([`Tab::write`]:
//! the next revision; the write is conditional on the revision read), and
//! what follows every change of the state ([`Tab::changed`]: the listeners
//! told, the adapter shown the amount,
//! the lock let go and the form unmounted once the checkout is over, the cart
//! emptied once paid).

use std::collections::VecDeque;

use super::{Effect, Record};
use crate::checkout::crosstab::{moved_on, reconcile, Reconciled};
use crate::checkout::state::CheckoutState;
use crate::error::{Error, ErrorCode, Result};
use crate::shipping::ShippingOption;

/// One tab's (one page's) checkout: its copy of the record, the revision it
/// last read or wrote, what its adapter shows, whether it holds the cart's
/// lock. Cheap to clone; no I/O.
#[derive(Debug, Clone, PartialEq)]
pub struct Tab {
    /// This tab's copy of the checkout state.
    pub(super) state: CheckoutState,
    /// The revision of the record `state` was read from or written as
    /// (`None`: no record read or written yet).
    pub(super) revision: Option<u64>,
    /// A cart to take what was paid for out of (`options.cart`).
    pub(super) cart: bool,
    /// The amount the adapter's form shows (`None`: not mounted).
    pub(super) shown: Option<i64>,
    /// This tab holds the cart's cross-tab lock.
    pub(super) lock: bool,
    /// A payment run is under way in this tab.
    pub(super) flight: bool,
    /// This tab asked the cart to take out what this checkout paid for (the
    /// cart decides, once per checkout for every tab: `Cart::take_paid`).
    pub(super) emptied: bool,
    /// The last shipping options and the country they are for.
    pub(super) options: Option<(String, Vec<ShippingOption>)>,
}

/// What a step's look at the stored record found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Synced {
    /// The record is this tab's copy.
    Current,
    /// Another tab moved this session on; its state was taken.
    Adopted,
    /// The record is gone while this tab's payment is unsettled: the next
    /// write puts it back.
    Restore,
}

impl Tab {
    /// A fresh page's checkout: `idle`, nothing read. `cart`: a cart to
    /// empty once paid.
    #[must_use]
    pub const fn new(cart: bool) -> Self {
        Self {
            state: CheckoutState::Idle,
            revision: None,
            cart,
            shown: None,
            lock: false,
            flight: false,
            emptied: false,
            options: None,
        }
    }

    /// This tab's copy of the state (what `checkout.state` shows).
    #[must_use]
    pub const fn state(&self) -> &CheckoutState {
        &self.state
    }

    /// The revision this tab's copy was read from or written as.
    #[must_use]
    pub const fn revision(&self) -> Option<u64> {
        self.revision
    }

    /// The amount this tab's adapter form shows (`None`: not mounted).
    #[must_use]
    pub const fn shown(&self) -> Option<i64> {
        self.shown
    }

    /// Whether this tab holds the cart's lock.
    #[must_use]
    pub const fn holds_lock(&self) -> bool {
        self.lock
    }

    /// Whether a payment run is under way (a second `pay()` joins it).
    #[must_use]
    pub const fn in_flight(&self) -> bool {
        self.flight
    }

    /// `invalid_state` while a payment runs in this tab.
    pub(super) fn idle(&self, action: &str) -> Result<()> {
        if self.flight {
            return Err(Error::invalid_state(format!("cannot {action} while a payment is in progress")));
        }
        Ok(())
    }

    /// Compare this tab's copy with the record stored now: adopt another
    /// tab's progress on this session (queueing what follows a change), or
    /// refuse when the record is another checkout's or was cleared
    /// ([`reconcile`]).
    pub(super) fn sync(&mut self, stored: Option<&Record>, q: &mut VecDeque<Effect>) -> Result<Synced> {
        if let Some(r) = stored {
            if Some(r.revision) == self.revision && r.state == self.state {
                return Ok(Synced::Current);
            }
        }
        match reconcile(&self.state, stored.map(|r| &r.state))? {
            Reconciled::Current => {
                self.revision = stored.map(|r| r.revision);
                Ok(Synced::Current)
            }
            Reconciled::Restore => Ok(Synced::Restore),
            Reconciled::Adopt(theirs) => {
                self.state = theirs;
                self.revision = stored.map(|r| r.revision);
                self.changed(q);
                Ok(Synced::Adopted)
            }
        }
    }

    /// [`Self::sync`], then `step` on the copy (not yet on the tab): a
    /// refusal after adopting another tab's progress says what happened.
    pub(super) fn act<T>(&mut self, stored: Option<&Record>, q: &mut VecDeque<Effect>, step: impl FnOnce(&mut CheckoutState) -> Result<T>) -> Result<(CheckoutState, T)> {
        let adopted = self.sync(stored, q)? == Synced::Adopted;
        let mut next = self.state.clone();
        let t = step(&mut next).map_err(|e| self.refused(adopted, e))?;
        Ok((next, t))
    }

    /// [`Self::sync`], then `look` at the copy (nothing changed, nothing
    /// cloned): a refusal after adopting another tab's progress says what happened.
    pub(super) fn look<T>(&mut self, stored: Option<&Record>, q: &mut VecDeque<Effect>, look: impl FnOnce(&CheckoutState) -> Result<T>) -> Result<T> {
        let adopted = self.sync(stored, q)? == Synced::Adopted;
        look(&self.state).map_err(|e| self.refused(adopted, e))
    }

    /// A refusal of [`Self::act`]'s step (one function for every step: smaller wasm).
    fn refused(&self, adopted: bool, e: Error) -> Error {
        if adopted && e.code == ErrorCode::InvalidState {
            moved_on(&self.state, e)
        } else {
            e
        }
    }

    /// The record writing `state` over the record stored now makes: the
    /// next revision.
    pub(super) fn write(stored: Option<&Record>, state: CheckoutState) -> Box<Record> {
        let revision = stored.map_or(1, |r| r.revision.saturating_add(1));
        Box::new(Record { revision, state })
    }

    /// Ask to write this tab's copy back over the record stored now (an
    /// unsettled payment put back), applied only if that record is still
    /// there; nothing follows the answer.
    pub(super) fn write_back(&self, stored: Option<&Record>) -> Effect {
        Effect::Write { record: Self::write(stored, self.state.clone()), expect: stored.map(|r| r.revision) }
    }

    /// `next` was written as `revision`: it is this tab's copy now.
    pub(super) fn commit(&mut self, next: CheckoutState, revision: u64, q: &mut VecDeque<Effect>) {
        self.state = next;
        self.revision = Some(revision);
        self.changed(q);
    }

    /// What follows every change of the state: once over, the lock let go
    /// and the form unmounted; once paid, the cart asked to take out what was
    /// paid (the cart does it once per checkout, whichever tabs ask); the listeners told; a form that shows another amount told
    /// the new one.
    pub(super) fn changed(&mut self, q: &mut VecDeque<Effect>) {
        if self.state.is_final() {
            self.let_go(q);
        }
        if let (CheckoutState::Succeeded(_), true, false) = (&self.state, self.cart, self.emptied) {
            self.emptied = true;
            let (session, paid) = self.state.session().map(|s| (s.session_id.clone(), s.items.clone())).unwrap_or_default();
            q.push_back(Effect::EmptyCart { session, paid });
        }
        q.push_back(Effect::Emit(Box::new(self.state.clone())));
        if self.state.is_final() {
            self.unmount(q);
        } else {
            self.show_amount(q);
        }
    }

    /// Tell a mounted form the amount of the state, when it shows another one
    /// (`shown` changes when the effect is handed out: [`super::hand_out`]).
    pub(super) fn show_amount(&self, q: &mut VecDeque<Effect>) {
        let Some(session) = self.state.session() else { return };
        if self.shown.is_some_and(|shown| shown != session.amount) {
            q.push_back(Effect::UpdateAmount { amount: session.amount, currency: session.currency.clone() });
        }
    }

    /// Let the cart's lock go, unless a payment not settled keeps it (until
    /// the tab goes away: resume it).
    pub(super) fn let_go(&mut self, q: &mut VecDeque<Effect>) {
        if self.lock && !self.state.payment_unsettled() {
            self.lock = false;
            q.push_back(Effect::ReleaseLock);
        }
    }

    /// Unmount the form, if mounted.
    pub(super) fn unmount(&mut self, q: &mut VecDeque<Effect>) {
        if self.shown.take().is_some() {
            q.push_back(Effect::Unmount);
        }
    }
}

/// A write's result ([`super::Input::Wrote`]): `true` written, `false` not
/// applied (decide again); storage's refusal as the typed error saying
/// `what` did not happen ([`unwritable`]).
pub(super) fn wrote(r: core::result::Result<bool, String>, what: &str) -> Result<bool> {
    r.map_err(|why| unwritable(&why, what))
}

/// The typed error of a record storage refused to write (`setItem` threw):
/// `what` says what did not happen because of it.
pub(super) fn unwritable(why: &str, what: &str) -> Error {
    Error::invalid_state(format!(
        "storage refused to write this checkout's record ({why}): {what}; free some storage, or pass `storage: null` to keep the checkout in this tab only"
    ))
}
