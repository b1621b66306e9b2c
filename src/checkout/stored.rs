//! The stored form of a checkout (the record every tab of the cart reads, in
//! `localStorage` under `<cartKey>:checkout`, so a reload, a 3-D Secure
//! redirect or another tab of the cart can resume it): the state object as JavaScript sees
//! it plus `"version": 1`, written with serde and read back with serde.
//!
//! Reading back trusts nothing: every member is typed by serde (decoded once,
//! plainly; when that fails the stored text is walked against the generated
//! schema root `Root::StoredCheckout` to name the member), each state must have exactly its members (nullable ones may be
//! absent), and the invariants a live state keeps are checked again (amounts
//! add up, items, rate, address and return URL pass their checks, tokens are
//! not empty, only `paying` has a confirm in flight, `requires_action` has a
//! client secret). A tampered or stale state is refused with the reason.

use crate::text::{cat, uint};

use serde::{Deserialize, Deserializer, Serialize};

use super::state::{
    Cancelled, CheckoutFailureCode, CheckoutSession, CheckoutState, Confirming, Failed, Initiated, Paying, PaymentAttempt, RequiresAction,
    ShippingChoice, ShippingChosen, Succeeded,
};
use super::validate::{validate_address, validate_return_url, validate_session};
use crate::error::{Error, ErrorCode, Result};

/// The version of the stored form this SDK writes and reads.
pub const STORED_VERSION: u32 = 1;

/// A state as it is stored: its members and `version`.
#[derive(Serialize)]
pub struct Stored<'a> {
    pub version: u32,
    #[serde(flatten)]
    pub state: &'a CheckoutState,
}

impl<'a> Stored<'a> {
    /// The stored form of `state` at [`STORED_VERSION`].
    #[must_use]
    pub const fn of(state: &'a CheckoutState) -> Self {
        Self { version: STORED_VERSION, state }
    }
}

/// Every member any state can have, read flat (one pass, no buffering of
/// the whole object as an internally tagged enum would), then checked per
/// `state` in [`into_state`]. Public only for the type generator
/// (`tests/typegen/`), which makes its schema root `Root::StoredCheckout`.
#[doc(hidden)]
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct StoredCheckout {
    version: Option<u32>,
    state: Option<String>,
    session: Option<CheckoutSession>,
    shipping: Option<ShippingChoice>,
    attempt: Option<PaymentAttempt>,
    client_secret: Option<String>,
    payment_intent_id: Option<String>,
    code: Option<CheckoutFailureCode>,
    error_code: Option<ErrorCode>,
    message: Option<String>,
    retryable: Option<bool>,
    pending: Option<PaymentAttempt>,
    session_id: Option<String>,
}

fn bad(path: &str, what: &str) -> Error {
    Error::invalid_argument(cat(&[path, ": ", what]))
}

fn need<T>(v: Option<T>, name: &str) -> Result<T> {
    v.ok_or_else(|| Error::invalid_argument(cat(&["missing field `", name, "`"])))
}

/// Read a stored state back from any serde deserializer (serde-wasm-bindgen
/// over the parsed JSON in the browser, `serde_json::Value` in tests) over
/// the JSON `text` it was parsed from. The value is decoded once, plainly;
/// only when that fails is `text` walked against `Root::StoredCheckout`
/// ([`crate::jsoncheck`]) to name the member at fault.
///
/// # Errors
/// `invalid_argument` "stored checkout state is not valid: …", naming the
/// member (`session.breakdown.total: expected a safe integer, got the
/// string "5.00"`, `missing field `attempt``, `clientSecret: unknown
/// member`, `state: unknown checkout state`, `version: …`). A problem the
/// schema does not describe (a member serde does not know, when the
/// deserializer reports those) is the deserializer's own message.
pub fn restore<'de, D: Deserializer<'de>>(d: D, text: &str) -> Result<CheckoutState> {
    let read = StoredCheckout::deserialize(d).map_err(|e| {
        Error::invalid_argument(match crate::jsoncheck::check_str(text, crate::jsoncheck::Root::StoredCheckout) {
            Err(p) if p.path == "(root)" => p.message,
            Err(p) if !p.path.is_empty() => cat(&[&p.path, ": ", &p.message]),
            _ => {
                let inner = e.to_string();
                // serde-wasm-bindgen's errors print as a JS `Error` ("Error: invalid type: …").
                inner.strip_prefix("Error: ").map_or_else(|| inner.clone(), str::to_owned)
            }
        })
    });
    read.and_then(into_state)
        .map_err(|e| Error::invalid_argument(cat(&["stored checkout state is not valid: ", &e.message])))
}

fn into_state(f: StoredCheckout) -> Result<CheckoutState> {
    match need(f.version, "version")? {
        STORED_VERSION => {}
        v => return Err(bad("version", &cat(&["unsupported version ", &uint(u64::from(v)), " (this SDK reads 1)"]))),
    }
    let StoredCheckout { state, session, shipping, attempt, client_secret, payment_intent_id, code, error_code, message, retryable, pending, session_id, .. } = f;
    let state = need(state, "state")?;
    // Which members the state has; any other member present is foreign.
    let (has_shipping, has_attempt, failure) = match state.as_str() {
        "idle" | "cancelled" | "initiated" => (false, false, false),
        "shipping_chosen" | "succeeded" => (true, false, false),
        "paying" | "requires_action" | "confirming" => (true, true, false),
        "failed" => (true, false, true),
        _ => return Err(bad("state", "unknown checkout state")),
    };
    let foreign: [(bool, bool, &str); 11] = [
        (session.is_some(), !matches!(state.as_str(), "idle" | "cancelled"), "session"),
        (shipping.is_some(), has_shipping, "shipping"),
        (attempt.is_some(), has_attempt, "attempt"),
        (client_secret.is_some(), state == "requires_action", "clientSecret"),
        (payment_intent_id.is_some(), matches!(state.as_str(), "succeeded" | "failed"), "paymentIntentId"),
        (code.is_some(), failure, "code"),
        (error_code.is_some(), failure || state == "confirming", "errorCode"),
        (message.is_some(), failure || state == "confirming", "message"),
        (retryable.is_some(), failure, "retryable"),
        (pending.is_some(), failure, "pending"),
        (session_id.is_some(), state == "cancelled", "sessionId"),
    ];
    if let Some((_, _, name)) = foreign.iter().find(|(present, allowed, _)| *present && !*allowed) {
        return Err(bad(name, "unknown member"));
    }
    if let Some(s) = &session {
        validate_session(s)?;
    }
    if let Some(s) = &shipping {
        if s.rate.id.trim().is_empty() {
            return Err(bad("shipping.rate.id", "must not be empty"));
        }
        // The rate's amounts are decimals in the session's currency (an empty or
        // altered one would price the order wrongly after a resume).
        let exponent = session.as_ref().and_then(|x| crate::money::Currency::from_code(&x.currency).ok()).map_or(2, |c| c.exponent());
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
    for (a, name) in [(&attempt, "attempt"), (&pending, "pending")] {
        if let Some(a) = a {
            if a.token.trim().is_empty() {
                return Err(bad(&cat(&[name, ".token"]), "must not be empty"));
            }
            validate_return_url(&a.return_url)?;
            if a.confirm_in_flight && state != "paying" {
                return Err(bad(&cat(&[name, ".confirmInFlight"]), "a confirm in flight outside `paying`"));
            }
        }
    }
    Ok(match state.as_str() {
        "idle" => CheckoutState::Idle,
        "initiated" => CheckoutState::Initiated(Initiated { session: need(session, "session")? }),
        "shipping_chosen" => {
            CheckoutState::ShippingChosen(ShippingChosen { session: need(session, "session")?, shipping: need(shipping, "shipping")? })
        }
        "paying" => CheckoutState::Paying(Paying {
            session: need(session, "session")?,
            shipping: need(shipping, "shipping")?,
            attempt: need(attempt, "attempt")?,
        }),
        "requires_action" => {
            let client_secret = need(client_secret, "clientSecret")?;
            if client_secret.is_empty() {
                return Err(bad("clientSecret", "must not be empty"));
            }
            CheckoutState::RequiresAction(RequiresAction {
                session: need(session, "session")?,
                shipping: need(shipping, "shipping")?,
                attempt: need(attempt, "attempt")?,
                client_secret,
            })
        }
        "confirming" => CheckoutState::Confirming(Confirming {
            session: need(session, "session")?,
            shipping: need(shipping, "shipping")?,
            attempt: need(attempt, "attempt")?,
            error_code: need(error_code, "errorCode")?,
            message: need(message, "message")?,
        }),
        "succeeded" => CheckoutState::Succeeded(Succeeded {
            session: need(session, "session")?,
            shipping: need(shipping, "shipping")?,
            payment_intent_id: need(payment_intent_id, "paymentIntentId")?,
        }),
        "failed" => CheckoutState::Failed(Failed {
            session: need(session, "session")?,
            shipping: need(shipping, "shipping")?,
            code: need(code, "code")?,
            error_code,
            message: need(message, "message")?,
            retryable: need(retryable, "retryable")?,
            pending,
            payment_intent_id,
        }),
        _ => CheckoutState::Cancelled(Cancelled { session_id }),
    })
}
