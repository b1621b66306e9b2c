//! The checkout (issue 5, issue 11): pure data and transitions, no I/O.
//!
//! ```text
//! idle ─initiate─▶ initiated ─update─▶ shipping_chosen ─pay─▶ paying ─▶ succeeded
//!                                 ▲        │   ▲                 │  ▲
//!                                 └─update─┘   │                 ▼  │ (confirm again)
//!                                              │          requires_action
//!                                              └──retry── failed (retryable)
//! paying ─no usable answer─▶ confirming ─same token again─▶ paying
//! ```
//!
//! An unknown outcome is not a failure: a confirm that got no usable answer
//! (network, timeout, 5xx, a processor error that is not a decline) leaves
//! `confirming`, whose attempt is confirmed again with the same token (by
//! the SDK itself, [`RECHECK_DELAYS_MS`]; then by `pay()` or `resume()` in
//! any tab). `processing` is re-read the same way ([`PROCESSING_DELAYS_MS`]).
//!
//! ```text
//! any state before a payment exists ─cancel─▶ cancelled
//! ```
//!
//! - [`state`]: [`CheckoutState`], the union JavaScript sees (tagged by
//!   `state`), and what it holds; the TypeScript types are generated from it.
//! - [`machine`]: the transitions; each is given the data of one step and
//!   says what to do next ([`PayStep`], [`AfterConfirm`], a request body).
//! - [`stored`]: the versioned stored form and its checked read-back.
//! - [`kept`]: reading the stored record, and keeping aside one that does not read
//!   (a record of another SDK version that may name an unsettled payment blocks a new session).
//! - [`answer`]: a confirm's answer as read from any `CheckoutClient` (one that does
//!   not read is an unknown outcome).
//! - [`record`]: the rules of the record every tab of the cart shares
//!   (which record `start`/`resume` open, what a stale tab may do).
//! - [`validate`]: amounts, return URLs, addresses, stored sessions.
//! - [`lease`]: the rules of the cart's lock without Web Locks (a
//!   `localStorage` lease), for the browser's lock and the simulation's.
//!
//! The wasm class `Checkout` (`src/wasm/checkout.rs`) does the I/O: the
//! client, the processor adapter, storage, listeners, the tab lock.
//!
//! The invariant that makes double charges impossible: once a confirm with a
//! token may have reached the server (`confirmInFlight`, `confirming`, or a
//! `failed` state whose `pending` attempt is set), every later confirm of this session uses
//! that same token. `confirm` is idempotent on the server (CONTRACT.md), so
//! the repeat re-reads the payment instead of creating one. Only an answer
//! that says the payment needs a new payment method (a decline, a failed
//! 3-D Secure) or a definitive refusal of the request releases the token.
//!
//! Every transition that is not allowed in the current state is an
//! [`crate::error::ErrorCode::InvalidState`] error naming both; nothing is a
//! silent no-op.

pub mod answer;
pub mod kept;
pub mod lease;
pub mod machine;
pub mod options;
pub mod protocol;
pub mod crosstab;
pub mod state;
pub mod stored;
pub mod validate;

pub use options::{CheckoutOptions, PayOptions};
pub use machine::{definitive, AfterConfirm, PayStep, PROCESSING_DELAYS_MS, RECHECK_DELAYS_MS};
pub use crosstab::Run;
pub use state::{
    AdapterSession, Cancelled, CheckoutActions, CheckoutFailureCode, Confirming, CheckoutSession, CheckoutState, Failed, Initiated, Paying, PaymentAttempt,
    RequiresAction, ShippingChoice, ShippingChosen, Succeeded,
};
pub use validate::{validate_address, validate_return_url, MAX_ADDRESS_FIELD};

#[cfg(test)]
mod tests;
