//! The stored form of a checkout (the record every tab of the cart reads, in
//! `localStorage` under `<cartKey>:checkout`, so a reload, a 3-D Secure
//! redirect or another tab of the cart can resume it): the state object as JavaScript sees
//! it plus `"version": 1` and `"revision"` (issue 31: each applied write
//! stores the next one; a record without it reads as revision 0), written with serde and read back with serde
//! (`version` and the `state` tag, then the members of the state it names,
//! each state's type decoding its own).
//!
//! Reading back trusts nothing. The record is decoded once, plainly; then
//! checked against its state's generated schema root, closed
//! (`Root::STORED_STATES`, [`crate::jsoncheck::check_closed`]): a member the
//! state does not have is refused, naming its path (`session.note: unknown
//! member`). When decoding fails, the record is walked against the schema of
//! any state (`Root::StoredCheckout`), then of each state, to name the member
//! at fault. Then the invariants a live state keeps are checked again (amounts
//! add up, items, rate, address and return URL pass their checks, tokens are
//! not empty, only `paying` has a confirm in flight, `requires_action` has a
//! client secret). A tampered or stale state is refused with the reason.


use serde::{Deserialize, Deserializer};

use super::protocol::Record;
use super::state::{CheckoutState, Confirming, Failed, Paying, RequiresAction};
use super::validate::{validate_address, validate_return_url, validate_session};
use crate::error::{Error, Result};
use crate::jsoncheck::{self, Problem, Root};

/// The version of the stored form this SDK writes and reads.
pub const STORED_VERSION: u32 = 1;

/// The members the stored form of a record at `revision` has before the state's own (the
/// state's object as it is serialized, its `state` tag first): `version`
/// ([`STORED_VERSION`]) and `revision`. (Not a struct with the state `#[serde(flatten)]`:
/// that serializes every state a second time through serde's flattening serializer, 1.2 KB
/// gz of checkout wasm: issue 43, docs/ARCHITECTURE.md "Written for bytes".)
#[must_use]
pub const fn head(revision: u64) -> [(&'static str, u64); 2] {
    [("version", STORED_VERSION as u64), ("revision", revision)]
}

/// What every stored form has: `version` and the `state` tag (and
/// `revision`, 0 when missing).
#[derive(Deserialize)]
struct Head {
    version: u32,
    #[serde(default)]
    revision: u64,
    state: String,
}

/// The states, as serde reads the `state` tag: [`CheckoutState`]'s variants under
/// its own `rename_all`, so the names are serde's (a state the match in
/// [`payload`] does not read fails the round trip of every state in the tests).
/// Not `CheckoutState`'s own derived `Deserialize`: an internally tagged enum
/// buffers the record and decodes each member type a second time from the
/// buffer (+20.9 KB gz of checkout wasm: issue 43, docs/ARCHITECTURE.md "Written for bytes").
#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Tag {
    Idle,
    Initiated,
    ShippingChosen,
    Paying,
    RequiresAction,
    Confirming,
    Succeeded,
    Failed,
    Cancelled,
}

/// The state `tag` names, its members read by serde from `d` (the whole record:
/// the payload's type reads its own members and passes over `version` and `state`).
fn payload<'de, D: Deserializer<'de>>(tag: Tag, d: D) -> core::result::Result<CheckoutState, D::Error> {
    use CheckoutState as S;
    Ok(match tag {
        Tag::Idle => S::Idle,
        Tag::Initiated => S::Initiated(Deserialize::deserialize(d)?),
        Tag::ShippingChosen => S::ShippingChosen(Deserialize::deserialize(d)?),
        Tag::Paying => S::Paying(Deserialize::deserialize(d)?),
        Tag::RequiresAction => S::RequiresAction(Deserialize::deserialize(d)?),
        Tag::Confirming => S::Confirming(Deserialize::deserialize(d)?),
        Tag::Succeeded => S::Succeeded(Deserialize::deserialize(d)?),
        Tag::Failed => S::Failed(Deserialize::deserialize(d)?),
        Tag::Cancelled => S::Cancelled(Deserialize::deserialize(d)?),
    })
}

/// Whether `name` is a state this version knows (the `state` tag as serde reads it).
pub(super) fn known_state(name: &str) -> bool {
    Tag::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(name)).is_ok()
}

fn bad(path: &str, what: &str) -> Error {
    Error::invalid_argument(format!("{path}: {what}"))
}

/// A schema problem as a message: `path: message`, or the message alone at the root.
fn problem(p: Problem) -> Error {
    Error::invalid_argument(if p.path == "(root)" || p.path.is_empty() { p.message } else { format!("{}: {}", p.path, p.message) })
}

/// Read a stored state back from any serde deserializer `d` makes
/// (serde-wasm-bindgen over the parsed JSON in the browser,
/// `serde_json::Value` in tests; a second one only when the first fails, to
/// read the `state` the record names) over the JSON `text` it was parsed from.
///
/// # Errors
/// `invalid_argument` "stored checkout state is not valid: …", naming the
/// member (`session.breakdown.total: expected a safe integer, got the
/// string "5.00"`, `missing field `attempt``, `clientSecret: unknown
/// member`, `state: expected one of idle, …, got the string "refunded"`,
/// `version: …`). A problem the schema does not describe is the
/// deserializer's own message.
pub fn restore<'de, D: Deserializer<'de>>(d: impl Fn() -> D, text: &str) -> Result<Record> {
    read(d, text, true).map_err(|e| Error::invalid_argument(format!("stored checkout state is not valid: {}", e.message)))
}

/// [`restore`] without the closed schema: members this version does not know
/// are passed over (a record another SDK version wrote; issue 41). Only
/// [`super::kept`] uses it, for a record that names an unsettled payment.
pub(super) fn restore_lenient<'de, D: Deserializer<'de>>(d: impl Fn() -> D, text: &str) -> Result<Record> {
    read(d, text, false)
}

fn read<'de, D: Deserializer<'de>>(d: impl Fn() -> D, text: &str, strict: bool) -> Result<Record> {
    let Head { version, revision, state: name } = Head::deserialize(d()).map_err(|e| not_read(&e.to_string(), text, None))?;
    if version != STORED_VERSION {
        return Err(bad("version", &format!("unsupported version {} (this SDK reads 1)", u64::from(version))));
    }
    let tag = Tag::deserialize(serde::de::value::StrDeserializer::<serde::de::value::Error>::new(&name));
    let state = tag
        .map_err(|e| not_read(&e.to_string(), text, None))
        .and_then(|tag| payload(tag, d()).map_err(|e| not_read(&e.to_string(), text, Some(&name))))?;
    // Exactly the state's members (serde reads those it knows and passes over the others).
    if strict {
        closed(text, state.name()).map_err(problem)?;
    }
    check(&state)?;
    Ok(Record { revision, state })
}

/// `text` against the closed schema root of the state named `name`.
fn closed(text: &str, name: &str) -> core::result::Result<(), Problem> {
    match Root::STORED_STATES.iter().find(|(tag, _)| *tag == name) {
        Some((_, root)) => jsoncheck::check_closed(text, *root),
        None => Ok(()),
    }
}


/// Why `text` did not decode: the first problem against any state's schema,
/// else against the schema of the state it names (`named`), else the
/// deserializer's message `e`.
#[cold]
fn not_read(e: &str, text: &str, named: Option<&str>) -> Error {
    let own = || named.and_then(|n| closed(text, n).err());
    match jsoncheck::check_str(text, Root::StoredCheckout).err().or_else(own) {
        Some(p) => problem(p),
        // serde-wasm-bindgen's errors print as a JS `Error` ("Error: invalid type: …").
        None => Error::invalid_argument(e.strip_prefix("Error: ").unwrap_or(e)),
    }
}

/// The invariants a live state keeps, checked again on what was read.
fn check(state: &CheckoutState) -> Result<()> {
    if let Some(s) = state.session() {
        validate_session(s)?;
    }
    if let Some((session, s)) = state.shipping() {
        if s.rate.id.trim().is_empty() {
            return Err(bad("shipping.rate.id", "must not be empty"));
        }
        // The rate's amounts are decimals in the session's currency (an empty or
        // altered one would price the order wrongly after a resume).
        let exponent = crate::money::Currency::from_code(&session.currency).map_or(2, |c| c.exponent());
        for (v, path) in [
            (Some(&s.rate.price), "shipping.rate.price"),
            (s.rate.min_order_price.as_ref(), "shipping.rate.minOrderPrice"),
            (s.rate.max_order_price.as_ref(), "shipping.rate.maxOrderPrice"),
        ] {
            if let Some(v) = v {
                crate::money::parse_decimal(v, exponent).map_err(|_| bad(path, "not a decimal amount"))?;
            }
        }
        validate_address(&s.address)?;
    }
    let attempt = match state {
        CheckoutState::Paying(Paying { attempt, .. }) | CheckoutState::Confirming(Confirming { attempt, .. }) => Some(("attempt", attempt)),
        CheckoutState::RequiresAction(RequiresAction { attempt, client_secret, .. }) => {
            if client_secret.is_empty() {
                return Err(bad("clientSecret", "must not be empty"));
            }
            Some(("attempt", attempt))
        }
        CheckoutState::Failed(Failed { pending: Some(a), .. }) => Some(("pending", a)),
        _ => None,
    };
    if let Some((name, a)) = attempt {
        if a.token.trim().is_empty() {
            return Err(bad(&format!("{name}.token"), "must not be empty"));
        }
        validate_return_url(&a.return_url)?;
        if a.confirm_in_flight && !matches!(state, CheckoutState::Paying(_)) {
            return Err(bad(&format!("{name}.confirmInFlight"), "a confirm in flight outside `paying`"));
        }
    }
    Ok(())
}
