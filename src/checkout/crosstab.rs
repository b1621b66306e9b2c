//! The checkout record every tab of a cart shares (issue 23): the rules a tab
//! follows when it reads the record, acts on it and writes it, so that a
//! stale tab never writes over what another tab did, a finished checkout
//! never blocks the next purchase, and opening a checkout never waits on a
//! person. Pure: the wasm class (`src/wasm/checkout.rs`) reads and writes
//! storage and calls these.
//!
//! - [`after_paying`]: what the cart keeps once its payment succeeded.
//! - [`carries_on`]: does `start`/`resume` open the stored record, or is it
//!   over for the items the buyer has now?
//! - [`reconcile`]: before an action, and before a write: what this tab's
//!   copy is worth against the record as it is now.
//! - [`Run`] with [`super::AfterConfirm::runs_action`]: only `pay()` runs a
//!   next action (3-D Secure); `start`/`resume` stop at `requires_action`.

use super::state::CheckoutState;
use crate::error::{Error, Result};
use crate::model::PaymentItem;

/// Who is driving a payment run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Run {
    /// The buyer asked (`pay()`): a next action (3-D Secure) runs here.
    Pay,
    /// `start`/`resume` finishing an unsettled payment: they re-read it, and
    /// stop at `requires_action` instead of opening a challenge nobody asked for.
    Resume,
}

/// The same items, in any order.
#[must_use]
pub fn same_items(a: &[PaymentItem], b: &[PaymentItem]) -> bool {
    a.len() == b.len() && a.iter().all(|x| b.contains(x))
}

/// Whether `start`/`resume` open the stored record (`true`) or it is over
/// for what the buyer has now (`false`: `resume` gives `null`, `start` opens
/// a new checkout over it). `items` is what the cart holds now (`None`
/// when the caller named no cart and no items: the record is opened as it is).
///
/// - a payment not settled yet (`paying`, `requires_action`, `confirming`, a
///   retryable failure with a pending attempt) is always finished first;
/// - a live checkout without a payment goes on only for the same items;
/// - `succeeded` is shown while the cart is empty (the SDK emptied it when
///   the payment succeeded); items in the cart again mean the next order.
///   Bare `items` (`from_cart` false: nothing the SDK empties) show it for
///   the same items too, so a reload never offers to pay them again;
/// - a cancelled or finally failed checkout is over once items are known.
#[must_use]
pub fn carries_on(stored: &CheckoutState, items: Option<&[PaymentItem]>, from_cart: bool) -> bool {
    let Some(items) = items else { return true };
    if stored.payment_unsettled() {
        return true;
    }
    match stored {
        CheckoutState::Succeeded(s) => items.is_empty() || (!from_cart && same_items(&s.session.items, items)),
        s if s.is_live() => s.session().is_some_and(|session| same_items(&session.items, items)),
        _ => false,
    }
}

/// What is left of the cart once the payment for `paid` succeeded: for each
/// paid variant still in the cart (`now`), its new quantity (0: remove the
/// line). Items the buyer added meanwhile stay; when nothing else is in the
/// cart, every line goes (the SDK then simply clears it).
#[must_use]
pub fn after_paying(now: &[PaymentItem], paid: &[PaymentItem]) -> Vec<(String, u32)> {
    paid.iter()
        .filter_map(|p| {
            let n = now.iter().find(|n| n.variant_id == p.variant_id)?;
            Some((p.variant_id.clone(), n.quantity.saturating_sub(p.quantity)))
        })
        .collect()
}

/// What a tab's copy of the checkout is worth against the shared record.
#[derive(Debug, Clone, PartialEq)]
pub enum Reconciled {
    /// The record is this tab's copy: act on it.
    Current,
    /// Another tab moved the same session on: take this state, then act.
    Adopt(CheckoutState),
    /// The record is gone while this tab's copy has a payment not settled
    /// yet: write the copy back (a payment is never forgotten), then act.
    Restore,
}

/// Before an action (and before writing a new state): compare this tab's
/// copy `ours` with the `stored` record as it is now.
///
/// # Errors
/// `invalid_state` when the record belongs to another checkout now (another
/// tab started a new one for this cart) or was cleared, naming what
/// happened and what to do. Neither case is written over.
pub fn reconcile(ours: &CheckoutState, stored: Option<&CheckoutState>) -> Result<Reconciled> {
    let ours_id = session_id(ours);
    let Some(theirs) = stored else {
        if ours.payment_unsettled() {
            return Ok(Reconciled::Restore);
        }
        if ours_id.is_none() {
            return Ok(Reconciled::Current);
        }
        return Err(Error::invalid_state(
            "this checkout's record was cleared (Checkout.clearStored or another tab); open the checkout again with Checkout.resume() ?? Checkout.start()",
        ));
    };
    if theirs == ours {
        return Ok(Reconciled::Current);
    }
    let theirs_id = session_id(theirs);
    if theirs_id == ours_id {
        return Ok(Reconciled::Adopt(theirs.clone()));
    }
    Err(Error::invalid_state(format!("another tab replaced this checkout with a new one (session {:?}); open the checkout again with Checkout.resume() ?? Checkout.start()", theirs_id.unwrap_or("none"))))
}

/// The payment session a state is about (a cancelled one's too).
fn session_id(state: &CheckoutState) -> Option<&str> {
    match state {
        CheckoutState::Cancelled(c) => c.session_id.as_deref(),
        s => s.session().map(|s| s.session_id.as_str()),
    }
}

/// The error of an action that another tab made meaningless: the core's own
/// refusal, prefixed with what happened.
#[must_use]
pub fn moved_on(adopted: &CheckoutState, refusal: Error) -> Error {
    Error::new(refusal.code, format!("another tab moved this checkout on to `{}`: {}", adopted.name(), refusal.message))
}
