//! Reading the stored record, and keeping aside one that does not read
//! (issue 41, finding 3): the decisions the browser executor
//! (`src/wasm/checkout_live.rs` `Inner::read`, `Checkout.clearStored` in
//! `src/wasm/checkout_split.rs`) and the simulation make as the same code; they
//! only perform what is decided here.
//!
//! The rule: while a stored or kept-aside record may name a payment not
//! settled yet, no new payment session opens.
//! - A record this version reads ([`super::stored::restore`]) is the record.
//! - One it does not read strictly (a member another SDK version added) is read
//!   leniently, unknown members passed over; when that names an unsettled
//!   payment, it is the record (the protocol finishes that payment with its token).
//! - Otherwise, one that may still name an unsettled payment ([`may_be_unsettled`]:
//!   another version of the stored form, a state this version does not know, or
//!   an unsettled state whose members do not read) is kept where it is, and every
//!   step refuses with [`ErrorCode::InvalidState`] saying what to do; one that
//!   cannot is kept aside under `<key>:unreadable` ([`Keep::Aside`]), never deleted.
//! - A kept-aside record that may name an unsettled payment blocks a new
//!   session too; when nothing is stored and it reads as one, it is put back
//!   ([`Keep::Restore`]) and finished; so is one that reads as paid (`succeeded`), so what it paid for is not paid again.

use serde::de::IgnoredAny;
use serde::{Deserialize, Deserializer};

use super::protocol::Stored;
use super::state::CheckoutState;
use super::stored::{known_state, restore, restore_lenient, STORED_VERSION};
use crate::error::Error;

/// Where an unreadable record is kept aside: `<key>` + this.
pub const UNREADABLE_SUFFIX: &str = ":unreadable";

/// What the executor does to storage after a read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keep {
    /// Nothing.
    Nothing,
    /// Move the text under `<key>` to `<key>:unreadable` (`setItem`, then
    /// `removeItem` of `<key>`; if the copy fails, leave it where it is).
    Aside,
    /// Move the kept-aside text back under `<key>` (nothing is stored there),
    /// then read again.
    Restore,
}

/// What a read of the record decided: the record as the protocol sees it, and
/// what to do to storage.
#[derive(Debug)]
pub struct Reading {
    pub stored: Stored,
    pub keep: Keep,
}

/// A stored text as the executor found it: the text, and a maker of serde
/// deserializers over its parsed value (`None` when it is not JSON).
pub type Text<'t, F> = Option<(&'t str, Option<F>)>;

/// What a record's text says at a glance, whatever version of the SDK wrote it.
#[derive(Deserialize)]
struct Glance {
    #[serde(default)]
    version: Option<u64>,
    #[serde(default)]
    state: Option<String>,
    #[serde(default)]
    retryable: Option<bool>,
    #[serde(default)]
    pending: Option<IgnoredAny>,
}

/// Whether a stored record may name a payment not settled yet, read from its
/// head alone: another version of the stored form, a missing or unknown state,
/// a head that does not read, or [`CheckoutState::unsettled_record`].
pub fn may_be_unsettled<'de, D: Deserializer<'de>>(d: D) -> bool {
    let Ok(g) = Glance::deserialize(d) else { return true };
    let Some(state) = g.state.filter(|s| known_state(s)) else { return true };
    g.version != Some(u64::from(STORED_VERSION)) || CheckoutState::unsettled_record(&state, g.retryable.unwrap_or(true), g.pending.is_some())
}

fn may<'de, D: Deserializer<'de>, F: Fn() -> D>(t: &Text<'_, F>) -> bool {
    matches!(t, Some((_, Some(d))) if may_be_unsettled(d()))
}

/// The record under `key` (`main`) and the one kept aside under
/// `<key>:unreadable` (`aside`), as the protocol reads them.
pub fn reading<'de, D, E, F, G>(key: &str, main: Text<'_, F>, aside: Text<'_, G>) -> Reading
where
    D: Deserializer<'de>,
    E: Deserializer<'de>,
    F: Fn() -> D,
    G: Fn() -> E,
{
    let aside_may = may(&aside);
    let blocked = || Reading { stored: Err(held(&format!("{key}{UNREADABLE_SUFFIX}"), "kept aside")), keep: Keep::Nothing };
    let record = match &main {
        None => None,
        Some((text, Some(d))) => match restore(d, text) {
            Ok(r) => Some(r),
            Err(e) => match restore_lenient(d, text) {
                Ok(r) if r.state.payment_unsettled() || matches!(r.state, CheckoutState::Succeeded(_)) => Some(r),
                _ if may_be_unsettled(d()) => return Reading { stored: Err(held(key, &e.message)), keep: Keep::Nothing },
                _ if aside_may => return blocked(),
                _ => return Reading { stored: Err(e), keep: Keep::Aside },
            },
        },
        Some(_) if aside_may => return blocked(),
        Some(_) => return Reading { stored: Err(Error::invalid_argument("stored checkout state is not valid: not JSON")), keep: Keep::Aside },
    };
    match record {
        Some(r) if !aside_may || r.state.payment_unsettled() => Reading { stored: Ok(Some(r)), keep: Keep::Nothing },
        Some(_) => blocked(),
        // Nothing stored: a record kept aside that reads (leniently) as an unsettled or a paid
        // payment is put back, so what it paid for is not paid again (a paid record is the only
        // memory of bare `items` bought).
        None => match &aside {
            Some((text, Some(d))) if restore_lenient(d, text).is_ok_and(|r| r.state.payment_unsettled() || matches!(r.state, CheckoutState::Succeeded(_))) => {
                Reading { stored: Ok(None), keep: Keep::Restore }
            }
            _ if !aside_may => Reading { stored: Ok(None), keep: Keep::Nothing },
            _ => blocked(),
        },
    }
}

/// What `Checkout.clearStored` does with the text under its key.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Clear {
    /// Remove it (a record of this version whose payment is settled, or none).
    Remove,
    /// Keep it aside under `<key>:unreadable`, as every read does (it cannot
    /// name an unsettled payment, but it does not read).
    Aside,
    /// Keep it where it is and refuse ([`refuse_clear`]): it may name an
    /// unsettled payment (or the record kept aside does, which it would replace).
    Refuse,
}

/// `Checkout.clearStored`'s decision from the heads alone (the root entry's
/// wasm decodes no checkout state).
pub fn clear<'de, D, E, F, G>(main: &Text<'_, F>, aside: &Text<'_, G>) -> Clear
where
    D: Deserializer<'de>,
    E: Deserializer<'de>,
    F: Fn() -> D,
    G: Fn() -> E,
{
    match main {
        None => Clear::Remove,
        Some((_, Some(d))) if may_be_unsettled(d()) => Clear::Refuse,
        Some((_, Some(_))) => Clear::Remove,
        Some(_) if may(aside) => Clear::Refuse,
        Some(_) => Clear::Aside,
    }
}

/// The error of `clearStored` refused ([`Clear::Refuse`]).
#[must_use]
pub fn refuse_clear(key: &str) -> Error {
    Error::invalid_state(format!("the checkout under {key:?} may have a payment whose outcome is not known yet; it is kept: open it with Checkout.resume() and the SDK finishes it"))
}

/// A record (under `key`, or kept aside under `key` + [`UNREADABLE_SUFFIX`]) that may name an
/// unsettled payment and does not read: it is kept, and no new session opens.
fn held(key: &str, why: &str) -> Error {
    Error::invalid_state(format!(
        "the checkout record under {key:?} may name a payment not settled yet that this version of the SDK cannot read ({why}): it is kept, and no new payment session opens; finish that payment with the SDK version that wrote it (reload the page), or remove the key once the payment is known settled"
    ))
}
