//! The checkout state machine (issue 5): pure data and transitions, no I/O.
//!
//! ```text
//! idle ─initiate─▶ initiated ─update─▶ shipping_chosen ─pay─▶ paying ─▶ succeeded
//!                                 ▲        │   ▲                 │  ▲
//!                                 └─update─┘   │                 ▼  │ (confirm again)
//!                                              │          requires_action
//!                                              └──retry── failed (retryable)
//! any state before a payment exists ─cancel─▶ cancelled
//! ```
//!
//! [`Flow`] is the machine: the state's name and the scalar members that
//! decide what may happen next (the session id, the payment attempt, the
//! failure). The package's `Checkout` (`js/checkout.ts`) keeps the session
//! and shipping objects, does the I/O, and drives the machine through
//! [`Flow::step`] with primitives only; it builds the state objects users
//! see (`CheckoutState` in `js/adapters/checkout-types.d.ts`) from
//! [`Flow::member`] and keeps them in `sessionStorage`. A stored state comes
//! back through [`Flow::from_entries`], which checks every member and
//! invariant, so a tampered or stale state is refused, never trusted.
//!
//! The invariant that makes double charges impossible: once a confirm with a
//! token may have reached the server (`confirmInFlight`, or a `failed` state
//! whose `pending` attempt is set), every later confirm of this session uses
//! that same token. `confirm` is idempotent on the server (CONTRACT.md), so
//! the repeat re-reads the payment instead of creating one. Only an answer
//! that says the payment needs a new payment method (a decline, a failed
//! 3-D Secure) releases the token.
//!
//! Every transition that is not allowed in the current state is an
//! [`ErrorCode::InvalidState`] error naming both; nothing is a silent no-op.

#[allow(unused_imports)]
use crate::prelude::*;
use crate::text::{cat, int, quote, uint};

use crate::error::{Error, ErrorCode, Result};
use crate::model::{Breakdown, PaymentStatus, ShippingAddress, ShippingRate, ShippingRatesResponse, VariantRates};
use crate::money::MAX_SAFE_MINOR;

/// Longest accepted value of any address field (characters).
pub const MAX_ADDRESS_FIELD: usize = 200;

/// The state's name (`state` in JS).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Tag {
    /// Nothing initiated yet.
    #[default]
    Idle,
    /// A payment session exists; no shipping choice yet.
    Initiated,
    /// Shipping rate and address accepted by the server; ready to pay.
    ShippingChosen,
    /// A confirm is being sent or its answer is awaited (or the processor
    /// reported `processing`; paying again re-reads it).
    Paying,
    /// The processor asks for a next action (3-D Secure) on `clientSecret`.
    RequiresAction,
    /// Paid; the order is recorded. Final.
    Succeeded,
    /// The attempt failed. When `retryable`, `pay` may be called again; if
    /// `pending` is set, the outcome of that attempt is unknown and the retry
    /// confirms it again with the same token instead of collecting a new one.
    Failed,
    /// Abandoned by the buyer before any payment existed. Final.
    Cancelled,
}

const TAGS: [(Tag, &str); 8] = [
    (Tag::Idle, "idle"),
    (Tag::Initiated, "initiated"),
    (Tag::ShippingChosen, "shipping_chosen"),
    (Tag::Paying, "paying"),
    (Tag::RequiresAction, "requires_action"),
    (Tag::Succeeded, "succeeded"),
    (Tag::Failed, "failed"),
    (Tag::Cancelled, "cancelled"),
];

impl Tag {
    /// The wire name (`"idle"`, `"shipping_chosen"`, …).
    #[must_use]
    pub fn name(self) -> &'static str {
        TAGS.iter().find(|(t, _)| *t == self).map_or("", |(_, n)| n)
    }
}

/// One payment attempt: a confirmation token and what is known about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attempt {
    /// `ctoken_…` (Stripe) or `tok_…` (localstripe). Every confirm of this
    /// attempt sends this same token.
    pub token: String,
    pub return_url: String,
    /// True from the moment a confirm is handed to the client until its
    /// answer is applied: after a reload in this state the server may or may
    /// not have the payment, so only a repeat with the same token is safe.
    pub confirm_in_flight: bool,
    /// Known once a confirm answered.
    pub payment_intent_id: Option<String>,
    /// The processor's status from the last confirm answer.
    pub last_status: Option<PaymentStatus>,
}

/// Why a payment attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FailureCode {
    /// The processor declined the payment method.
    #[default]
    Declined,
    /// The next action (3-D Secure) was failed or abandoned.
    ActionFailed,
    /// The processor canceled the payment; start a new checkout.
    Canceled,
    /// The processor adapter could not collect a token or run the next action
    /// (an incomplete card form, a closed popup).
    Adapter,
    /// The confirm request failed; `errorCode` says how.
    Request,
}

const FAILURES: [(FailureCode, &str); 5] = [
    (FailureCode::Declined, "declined"),
    (FailureCode::ActionFailed, "action_failed"),
    (FailureCode::Canceled, "canceled"),
    (FailureCode::Adapter, "adapter"),
    (FailureCode::Request, "request"),
];

impl FailureCode {
    /// The wire name (`"declined"`, …).
    #[must_use]
    pub fn as_str(self) -> &'static str {
        FAILURES.iter().find(|(x, _)| *x == self).map_or("", |(_, n)| n)
    }
}

/// The checkout machine. Which members mean something depends on `tag`:
/// `session_id` once initiated (and in `cancelled` if there was one),
/// `attempt` in `paying` / `requires_action` (the attempt) and `failed` (the
/// pending one), `client_secret` in `requires_action`, the failure members in
/// `failed`, `payment_intent_id` in `succeeded` and `failed`. Transitions
/// keep the others at their defaults.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Flow {
    pub tag: Tag,
    pub session_id: Option<String>,
    pub attempt: Option<Attempt>,
    pub client_secret: String,
    pub code: FailureCode,
    /// The core error code, for `code: "request"` failures.
    pub error_code: Option<ErrorCode>,
    pub message: String,
    pub retryable: bool,
    pub payment_intent_id: Option<String>,
}

impl Flow {
    fn illegal(&self, action: &str) -> Error {
        Error::invalid_state(cat(&["cannot ", action, " in checkout state `", self.tag.name(), "`"]))
    }

    /// Leave for `tag`, keeping the session id and (if `keep_attempt`) the
    /// attempt; everything else back to its default.
    fn go(&mut self, tag: Tag, keep_attempt: bool) {
        let attempt = if keep_attempt { self.attempt.take() } else { None };
        *self = Self { tag, session_id: self.session_id.take(), attempt, ..Self::default() };
    }

    /// True in `succeeded` and `cancelled`, and in `failed` when not retryable.
    #[must_use]
    pub fn is_final(&self) -> bool {
        matches!(self.tag, Tag::Succeeded | Tag::Cancelled) || (self.tag == Tag::Failed && !self.retryable)
    }

    /// True while a payment may exist on the processor whose outcome this
    /// checkout has not settled: `paying`, `requires_action`, or `failed` with a
    /// pending attempt. In these states only the same token may be confirmed
    /// and the checkout cannot be cancelled or changed.
    #[must_use]
    pub fn payment_unsettled(&self) -> bool {
        matches!(self.tag, Tag::Paying | Tag::RequiresAction) || (self.tag == Tag::Failed && self.attempt.is_some())
    }

    /// `idle` → `initiated` with the answer of `POST /payments/initiate`
    /// for `items` lines.
    ///
    /// # Errors
    /// `invalid_state` unless idle; `invalid_argument` if the answer is
    /// inconsistent (`amount != breakdown.total`) or there are no items.
    pub fn initiated(&mut self, session_id: &str, items: usize, amount: i64, breakdown: &Breakdown) -> Result<()> {
        if self.tag != Tag::Idle {
            return Err(self.illegal("initiate"));
        }
        if items == 0 {
            return Err(Error::invalid_argument("items must not be empty"));
        }
        check_amount(amount, breakdown)?;
        self.session_id = Some(session_id.to_owned());
        self.go(Tag::Initiated, false);
        Ok(())
    }

    /// Whether shipping may change now: in `initiated`, `shipping_chosen`,
    /// and retryable `failed` while no payment exists (a payment's amount
    /// must not change under it).
    ///
    /// # Errors
    /// `invalid_state` in any other state.
    pub fn shipping_open(&self) -> Result<()> {
        match self.tag {
            Tag::Initiated | Tag::ShippingChosen => Ok(()),
            Tag::Failed if self.retryable && self.attempt.is_none() && self.payment_intent_id.is_none() => Ok(()),
            _ => Err(self.illegal("select shipping")),
        }
    }

    /// Check a shipping choice before `POST /payments/update` is sent: the
    /// state allows it, the rate id is not empty, the address passes
    /// [`validate_address`].
    ///
    /// # Errors
    /// `invalid_state` (see [`Self::shipping_open`]); `invalid_argument`
    /// naming the address field or the rate that is wrong.
    pub fn update_check(&self, rate_id: &str, address: &ShippingAddress) -> Result<()> {
        self.shipping_open()?;
        if rate_id.trim().is_empty() {
            return Err(Error::invalid_argument("shipping rate id must not be empty"));
        }
        validate_address(address)
    }

    /// Apply the answer of that update → `shipping_chosen`.
    ///
    /// # Errors
    /// As [`Self::update_check`]; `invalid_argument` if the answer is for
    /// another session or its amount does not add up.
    pub fn shipping_chosen(
        &mut self,
        rate_id: &str,
        address: &ShippingAddress,
        answer_session: &str,
        amount: i64,
        breakdown: &Breakdown,
    ) -> Result<()> {
        self.update_check(rate_id, address)?;
        let expected = self.session_id.as_deref().unwrap_or_default();
        if answer_session != expected {
            return Err(Error::invalid_argument(cat(&["update answered for session ", answer_session, ", expected ", expected])));
        }
        check_amount(amount, breakdown)?;
        self.go(Tag::ShippingChosen, false);
        Ok(())
    }

    /// What `pay` must do first: `None` to collect a new token, or the
    /// token whose outcome is unknown, to confirm again.
    ///
    /// # Errors
    /// `invalid_state` before a shipping choice, while a confirm is in
    /// flight or an action is pending, after success, after a final failure,
    /// after cancel.
    pub fn pay_step(&self) -> Result<Option<String>> {
        let token = self.attempt.as_ref().map(|a| a.token.clone());
        match self.tag {
            Tag::ShippingChosen => Ok(None),
            Tag::Failed if self.retryable => Ok(token),
            // `processing`: the answer came back; re-read with the same token.
            Tag::Paying if self.attempt.as_ref().is_some_and(|a| !a.confirm_in_flight) => Ok(token),
            _ => Err(self.illegal("pay")),
        }
    }

    /// The token a resumed checkout must confirm again (after a reload or a
    /// 3-D Secure redirect): set in `paying` and `requires_action`, where a
    /// payment may exist whose outcome the stored state does not know yet.
    #[must_use]
    pub fn resume_token(&self) -> Option<&str> {
        match self.tag {
            Tag::Paying | Tag::RequiresAction => self.attempt.as_ref().map(|a| a.token.as_str()),
            _ => None,
        }
    }

    /// Mark a confirm as sent. From `shipping_chosen` or retryable `failed`
    /// without a pending attempt (a new token), from retryable `failed` with
    /// one, `paying` or `requires_action` (that same token only): → `paying`
    /// with `confirmInFlight`. The caller stores this state before sending.
    ///
    /// # Errors
    /// `invalid_state` in other states; `invalid_argument` if the token is
    /// empty, differs from the unsettled one, or the return URL (new
    /// attempts only) is not an absolute http(s) URL.
    pub fn begin_confirm(&mut self, token: &str, return_url: &str) -> Result<()> {
        if token.trim().is_empty() {
            return Err(Error::invalid_argument("confirmation token must not be empty"));
        }
        let open = matches!(self.tag, Tag::ShippingChosen) || (self.tag == Tag::Failed && self.retryable);
        match (&mut self.attempt, open || matches!(self.tag, Tag::Paying | Tag::RequiresAction)) {
            (Some(a), true) => {
                if a.token != token {
                    return Err(Error::invalid_argument(cat(&[
                        "a confirm with token ",
                        &a.token,
                        " may already have reached the server; only that token may be confirmed again",
                    ])));
                }
                a.confirm_in_flight = true;
            }
            (None, true) if open => {
                validate_return_url(return_url)?;
                self.attempt = Some(Attempt {
                    token: token.to_owned(),
                    return_url: return_url.to_owned(),
                    confirm_in_flight: true,
                    payment_intent_id: None,
                    last_status: None,
                });
            }
            _ => return Err(self.illegal("confirm")),
        }
        self.go(Tag::Paying, true);
        Ok(())
    }

    fn in_flight(&mut self, action: &str) -> Result<&mut Attempt> {
        if self.tag != Tag::Paying {
            return Err(self.illegal(action));
        }
        match &mut self.attempt {
            Some(a) if a.confirm_in_flight => {
                a.confirm_in_flight = false;
                Ok(a)
            }
            _ => Err(Error::invalid_state("no confirm is in flight")),
        }
    }

    /// → `failed`; the attempt stays pending when `keep_attempt`.
    fn fail(&mut self, code: FailureCode, error_code: Option<ErrorCode>, message: String, retryable: bool, keep_attempt: bool) {
        let pi = self.attempt.as_ref().and_then(|a| a.payment_intent_id.clone());
        self.go(Tag::Failed, keep_attempt);
        self.code = code;
        self.error_code = error_code;
        self.message = message;
        self.retryable = retryable;
        self.payment_intent_id = pi;
    }

    /// Apply a confirm answer (only valid in `paying` with a confirm in
    /// flight). Returns the client secret when a next action must run.
    ///
    /// `succeeded` → `succeeded`; `requires_action` with a client secret →
    /// `requires_action`; `requires_payment_method` → retryable `failed`
    /// (`declined`, or `action_failed` if this attempt already went through a
    /// next action) and the token is released; `canceled` → final `failed`;
    /// `processing` → stays `paying` (not in flight).
    ///
    /// # Errors
    /// `invalid_state` outside an in-flight confirm; `decode` if the answer
    /// is `requires_action` without a client secret (the state then becomes
    /// a retryable failure that re-confirms the same token).
    pub fn confirmed(
        &mut self,
        status: PaymentStatus,
        client_secret: Option<String>,
        payment_intent_id: Option<String>,
        error: Option<String>,
    ) -> Result<Option<String>> {
        let a = self.in_flight("apply a confirm answer")?;
        let was_action = a.last_status == Some(PaymentStatus::RequiresAction);
        a.last_status = Some(status);
        if payment_intent_id.is_some() {
            a.payment_intent_id = payment_intent_id;
        }
        let pi = a.payment_intent_id.clone();
        match status {
            PaymentStatus::Succeeded => {
                self.go(Tag::Succeeded, false);
                self.payment_intent_id = Some(pi.unwrap_or_default());
            }
            PaymentStatus::RequiresAction => match client_secret.filter(|s| !s.is_empty()) {
                Some(secret) => {
                    self.go(Tag::RequiresAction, true);
                    self.client_secret.clone_from(&secret);
                    return Ok(Some(secret));
                }
                None => {
                    let message = "confirm answered requires_action without a clientSecret";
                    self.fail(FailureCode::Request, Some(ErrorCode::Decode), message.to_owned(), true, true);
                    return Err(Error::decode(message));
                }
            },
            PaymentStatus::RequiresPaymentMethod => {
                let (code, fallback) = if was_action {
                    (FailureCode::ActionFailed, "authentication failed; try again or use another card")
                } else {
                    (FailureCode::Declined, "the card was declined; try again or use another card")
                };
                let message = error.filter(|e| !e.trim().is_empty()).unwrap_or_else(|| fallback.to_owned());
                self.fail(code, None, message, true, false);
            }
            PaymentStatus::Canceled => {
                let message = error.unwrap_or_else(|| "the payment was canceled".to_owned());
                self.fail(FailureCode::Canceled, None, message, false, false);
            }
            PaymentStatus::Processing => {}
        }
        Ok(None)
    }

    /// A confirm got no usable answer (network, timeout, server error):
    /// → `failed` with `code: "request"`. The attempt stays pending (the
    /// server may have the payment), so a retry confirms the same token.
    /// Retryable unless the server said the request itself is wrong
    /// (`invalid_request`, `not_found`, `conflict`, `unauthorized`, …).
    ///
    /// # Errors
    /// `invalid_state` outside an in-flight confirm.
    pub fn confirm_failed(&mut self, code: ErrorCode, message: &str) -> Result<()> {
        self.in_flight("fail a confirm")?;
        let retryable = matches!(
            code,
            ErrorCode::Network
                | ErrorCode::Timeout
                | ErrorCode::Aborted
                | ErrorCode::Decode
                | ErrorCode::Http
                | ErrorCode::RateLimited
                | ErrorCode::ProcessorError
                | ErrorCode::Internal
        );
        self.fail(FailureCode::Request, Some(code), message.to_owned(), retryable, true);
        Ok(())
    }

    /// The adapter finished the next action (either outcome: the following
    /// confirm tells which). Returns the token to confirm again.
    ///
    /// # Errors
    /// `invalid_state` unless `requires_action`.
    pub fn action_finished(&self) -> Result<String> {
        match (&self.attempt, self.tag) {
            (Some(a), Tag::RequiresAction) => Ok(a.token.clone()),
            _ => Err(self.illegal("finish a next action")),
        }
    }

    /// The adapter could not run the next action (it threw) or could not
    /// collect a token. In `requires_action` → retryable `failed`
    /// (`action_failed`) keeping the attempt pending, since the payment
    /// exists; from `shipping_chosen` / retryable `failed` without a pending
    /// attempt → retryable `failed` (`adapter`), nothing was sent.
    ///
    /// # Errors
    /// `invalid_state` in other states.
    pub fn adapter_failed(&mut self, message: &str) -> Result<()> {
        let message = if message.trim().is_empty() { "the payment form reported an error" } else { message }.to_owned();
        match self.tag {
            Tag::RequiresAction => self.fail(FailureCode::ActionFailed, None, message, true, true),
            Tag::ShippingChosen => self.fail(FailureCode::Adapter, None, message, true, false),
            Tag::Failed if self.retryable && self.attempt.is_none() => {
                self.code = FailureCode::Adapter;
                self.error_code = None;
                self.message = message;
            }
            _ => return Err(self.illegal("report an adapter failure")),
        }
        Ok(())
    }

    /// Abandon the checkout → `cancelled`.
    ///
    /// # Errors
    /// `invalid_state` while a payment is unsettled (it might still succeed
    /// and must be finished, not forgotten), after success, or when already
    /// cancelled.
    pub fn cancel(&mut self) -> Result<()> {
        if self.payment_unsettled() || matches!(self.tag, Tag::Succeeded | Tag::Cancelled) {
            return Err(self.illegal("cancel"));
        }
        self.go(Tag::Cancelled, false);
        Ok(())
    }
}

// ------------------------------------------------------------ the JS boundary

/// The events of [`Flow::step`]; `s` / `n` are its string and number
/// arguments. An event either applies or is an error that changes nothing,
/// except where its doc says the failure itself is recorded.
pub mod event {
    /// `idle` → `initiated`. `s`: sessionId; `n`: amount, subtotal,
    /// shipping, tax, total, number of items.
    pub const INITIATED: u32 = 0;
    /// `invalid_state` unless shipping may change now.
    pub const CAN_SHIP: u32 = 1;
    /// The shipping options of an order from its `shippingRates` answer,
    /// flattened. `s`: currency, the order's variant ids, then 5 per offer
    /// (variantId, rateId, price, minOrderPrice, maxOrderPrice); `n`:
    /// subtotal, number of variant ids, then 3 per offer
    /// (deliveryTimeframeMin, deliveryTimeframeMax, bit 0 / bit 1 set when
    /// minOrderPrice / maxOrderPrice are not null). Returns "index price
    /// estimatedTotal …", cheapest first (index: the offer whose rate to show).
    pub const OPTIONS: u32 = 2;
    /// Check a shipping choice before it is sent. `s`: rateId, then the
    /// address in [`super::ADDRESS_FIELDS`] order ("" = absent).
    pub const UPDATE: u32 = 3;
    /// The update answer → `shipping_chosen`. `s`: as [`UPDATE`], then the
    /// answer's sessionId; `n`: amount, subtotal, shipping, tax, total.
    pub const CHOSEN: u32 = 4;
    /// What `pay` does first. `s`: returnUrl. Returns the token to confirm
    /// again, or nothing: collect a new token.
    pub const PAY: u32 = 5;
    /// The token a resumed checkout must confirm again, if any.
    pub const RESUME: u32 = 6;
    /// A confirm is about to be sent (→ `paying`, in flight). `s`: token,
    /// returnUrl.
    pub const BEGIN: u32 = 7;
    /// The confirm answer. `s`: status, clientSecret, paymentIntentId, error
    /// ("" = null). Returns the client secret when a next action must run.
    /// An unusable answer is recorded as a retryable failure, then returned
    /// as the error.
    pub const CONFIRMED: u32 = 8;
    /// The confirm failed. `s`: the error's code, message.
    pub const CONFIRM_FAILED: u32 = 9;
    /// The next action finished; returns the token to confirm again.
    pub const ACTION_DONE: u32 = 10;
    /// The adapter failed. `s`: its message.
    pub const ADAPTER_FAILED: u32 = 11;
    /// → `cancelled`.
    pub const CANCEL: u32 = 12;
    /// Returns "1" while a payment is unsettled ([`super::Flow::payment_unsettled`]).
    pub const UNSETTLED: u32 = 13;
    /// Returns "1" when final ([`super::Flow::is_final`]).
    pub const FINAL: u32 = 14;
}

/// The members of a shipping address, in the order the boundary passes them.
pub const ADDRESS_FIELDS: [&str; 10] =
    ["email", "firstName", "lastName", "address1", "address2", "city", "state", "postalCode", "country", "phone"];

const ERROR_CODES: [ErrorCode; 16] = [
    ErrorCode::InvalidArgument,
    ErrorCode::InvalidState,
    ErrorCode::Network,
    ErrorCode::Timeout,
    ErrorCode::Aborted,
    ErrorCode::Decode,
    ErrorCode::Http,
    ErrorCode::InvalidRequest,
    ErrorCode::Unauthorized,
    ErrorCode::NotFound,
    ErrorCode::Conflict,
    ErrorCode::PayloadTooLarge,
    ErrorCode::UnsupportedMediaType,
    ErrorCode::RateLimited,
    ErrorCode::ProcessorError,
    ErrorCode::Internal,
];

fn error_code(name: &str) -> Option<ErrorCode> {
    ERROR_CODES.into_iter().find(|c| c.as_str() == name)
}

const STATUSES: [(PaymentStatus, &str); 5] = [
    (PaymentStatus::Succeeded, "succeeded"),
    (PaymentStatus::RequiresAction, "requires_action"),
    (PaymentStatus::RequiresPaymentMethod, "requires_payment_method"),
    (PaymentStatus::Processing, "processing"),
    (PaymentStatus::Canceled, "canceled"),
];

fn status(name: &str) -> Option<PaymentStatus> {
    STATUSES.iter().find(|(_, n)| *n == name).map(|(s, _)| *s)
}

/// A JS number that must be an exact integer with `|v| <= 2^53 - 1`.
///
/// # Errors
/// `invalid_argument` naming `what`.
#[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
pub fn js_int(v: f64, what: &str) -> Result<i64> {
    // (`f64::trunc` is std-only; within the bound the cast round-trips exactly
    // only for integers.)
    if v.is_finite() && v.abs() <= MAX_SAFE_MINOR as f64 && (v as i64) as f64 == v {
        Ok(v as i64)
    } else {
        Err(Error::invalid_argument(cat(&[what, " must be a safe integer"])))
    }
}

fn u32_of(v: i64, what: &str) -> Result<u32> {
    u32::try_from(v).map_err(|_| Error::invalid_argument(cat(&[what, " must be in 0..=4294967295"])))
}

fn s_at(s: &[String], i: usize) -> &str {
    s.get(i).map_or("", String::as_str)
}

fn n_at(n: &[f64], i: usize) -> f64 {
    n.get(i).copied().unwrap_or(f64::NAN)
}

fn non_empty(v: &str) -> Option<String> {
    (!v.is_empty()).then(|| v.to_owned())
}

fn flag(b: bool) -> Option<String> {
    b.then(|| "1".to_owned())
}

/// An address from [`ADDRESS_FIELDS`]-ordered values; `None` is absent.
fn address_of(f: impl Fn(usize) -> Option<String>) -> ShippingAddress {
    let req = |i| f(i).unwrap_or_default();
    ShippingAddress {
        email: req(0),
        first_name: req(1),
        last_name: req(2),
        address1: req(3),
        address2: f(4),
        city: req(5),
        state: f(6),
        postal_code: req(7),
        country: req(8),
        phone: f(9),
    }
}

/// `amount` and the breakdown from `n[at..at + 5]`.
fn amounts(n: &[f64]) -> Result<(i64, Breakdown)> {
    let v = |i: usize| js_int(n_at(n, i), "amount");
    Ok((v(0)?, Breakdown { subtotal: v(1)?, shipping: v(2)?, tax: v(3)?, total: v(4)? }))
}

impl Flow {
    /// One scalar member of the state as JS shows it (`None`: null or
    /// absent). 0 `state`; 1–5 the attempt (`attempt`, or a failure's
    /// `pending`): token, returnUrl, confirmInFlight ("1"), paymentIntentId,
    /// lastStatus; 6 `clientSecret`; 7–10 a failure's code, errorCode,
    /// message, retryable ("1"); 11 `paymentIntentId`; 12 `sessionId`
    /// (cancelled).
    #[must_use]
    pub fn member(&self, i: u32) -> Option<String> {
        let failed = self.tag == Tag::Failed;
        match i {
            0 => Some(self.tag.name().to_owned()),
            1..=5 => {
                let a = self.attempt.as_ref()?;
                match i {
                    1 => Some(a.token.clone()),
                    2 => Some(a.return_url.clone()),
                    3 => flag(a.confirm_in_flight),
                    4 => a.payment_intent_id.clone(),
                    _ => a.last_status.map(|s| STATUSES.iter().find(|(x, _)| *x == s).map_or("", |(_, n)| n).to_owned()),
                }
            }
            6 if self.tag == Tag::RequiresAction => Some(self.client_secret.clone()),
            7 if failed => Some(self.code.as_str().to_owned()),
            8 if failed => self.error_code.map(|c| c.as_str().to_owned()),
            9 if failed => Some(self.message.clone()),
            10 if failed => flag(self.retryable),
            11 => self.payment_intent_id.clone(),
            12 if self.tag == Tag::Cancelled => self.session_id.clone(),
            _ => None,
        }
    }

    /// Apply one [`event`] with its primitive arguments (see each event's
    /// doc); returns the event's answer.
    ///
    /// # Errors
    /// As the transition the event stands for; `invalid_argument` for an
    /// unknown event or malformed numbers.
    pub fn step(&mut self, ev: u32, s: &[String], n: &[f64]) -> Result<Option<String>> {
        let address = || address_of(|i| non_empty(s_at(s, i + 1)));
        match ev {
            event::INITIATED => {
                let (amount, b) = amounts(n)?;
                let items = js_int(n_at(n, 5), "items")?;
                self.initiated(s_at(s, 0), usize::try_from(items).unwrap_or(0), amount, &b)?;
            }
            event::CAN_SHIP => self.shipping_open()?,
            event::OPTIONS => return options(s, n).map(Some),
            event::UPDATE => self.update_check(s_at(s, 0), &address())?,
            event::CHOSEN => {
                let (amount, b) = amounts(n)?;
                self.shipping_chosen(s_at(s, 0), &address(), s_at(s, 11), amount, &b)?;
            }
            event::PAY => {
                let token = self.pay_step()?;
                validate_return_url(s_at(s, 0))?;
                return Ok(token);
            }
            event::RESUME => return Ok(self.resume_token().map(str::to_owned)),
            event::BEGIN => self.begin_confirm(s_at(s, 0), s_at(s, 1))?,
            event::CONFIRMED => {
                let Some(st) = status(s_at(s, 0)) else {
                    let e = Error::decode("confirm answered an unknown payment status");
                    self.confirm_failed(e.code, &e.message)?;
                    return Err(e);
                };
                return self.confirmed(st, non_empty(s_at(s, 1)), non_empty(s_at(s, 2)), non_empty(s_at(s, 3)));
            }
            event::CONFIRM_FAILED => {
                self.confirm_failed(error_code(s_at(s, 0)).unwrap_or(ErrorCode::Internal), s_at(s, 1))?;
            }
            event::ACTION_DONE => return self.action_finished().map(Some),
            event::ADAPTER_FAILED => self.adapter_failed(s_at(s, 0))?,
            event::CANCEL => self.cancel()?,
            event::UNSETTLED => return Ok(flag(self.payment_unsettled())),
            event::FINAL => return Ok(flag(self.is_final())),
            _ => return Err(Error::invalid_argument("unknown checkout event")),
        }
        Ok(None)
    }
}

/// [`event::OPTIONS`]: the rates of [`crate::shipping::usable_rates`].
fn options(s: &[String], n: &[f64]) -> Result<String> {
    let ids = usize::try_from(js_int(n_at(n, 1), "variant ids")?).unwrap_or(usize::MAX);
    let offers = s.len().checked_sub(ids).and_then(|r| r.checked_sub(1)).map_or(usize::MAX, |r| r / 5);
    if offers == usize::MAX || s.len() != 1 + ids + offers * 5 || n.len() != 2 + offers * 3 {
        return Err(Error::invalid_argument("shipping offers: 5 strings and 3 numbers each"));
    }
    let mut variant_rates = Vec::with_capacity(offers);
    for i in 0..offers {
        let (at, k) = (1 + ids + i * 5, 2 + i * 3);
        let bits = js_int(n_at(n, k + 2), "offer flags")?;
        let bound = |bit: i64, j: usize| (bits & bit != 0).then(|| s_at(s, at + j).to_owned());
        let rate = ShippingRate {
            id: s_at(s, at + 1).to_owned(),
            name: String::new(),
            price: s_at(s, at + 2).to_owned(),
            delivery_description: String::new(),
            delivery_timeframe_min: u32_of(js_int(n_at(n, k), "deliveryTimeframeMin")?, "deliveryTimeframeMin")?,
            delivery_timeframe_max: u32_of(js_int(n_at(n, k + 1), "deliveryTimeframeMax")?, "deliveryTimeframeMax")?,
            min_order_price: bound(1, 3),
            max_order_price: bound(2, 4),
        };
        variant_rates.push(VariantRates { variant_id: s_at(s, at).to_owned(), profile_id: String::new(), rates: vec![rate] });
    }
    let answer = ShippingRatesResponse { variant_rates };
    let order: Vec<&str> = s[1..=ids].iter().map(String::as_str).collect();
    let currency = crate::money::Currency::from_code(s_at(s, 0))?;
    let subtotal = js_int(n_at(n, 0), "subtotal")?;
    let first = order.first().copied().unwrap_or_default();
    let mut out = String::new();
    for o in crate::shipping::usable_rates(&answer, &order, subtotal, currency)? {
        let i = answer.variant_rates.iter().position(|v| v.variant_id == first && v.rates[0].id == o.rate.id).unwrap_or(0);
        let (p, t) = (crate::money::check_safe(o.price)?, crate::money::check_safe(o.estimated_total)?);
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(&cat(&[&uint(i as u64), " ", &int(p), " ", &int(t)]));
    }
    Ok(out)
}

// ------------------------------------------------------------ stored states

/// What a stored member must be: a string, a string or null (may be
/// absent), null (may be absent), a safe integer, an integer in
/// `0..=u32::MAX`, a boolean.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Str,
    OptStr,
    Null,
    Int,
    U32,
    Bool,
}

use Kind::{Bool, Int, Null, OptStr, Str, U32};

const KIND_NAMES: [&str; 6] = [
    "expected a string",
    "expected a string or null",
    "expected an object or null",
    "expected a safe integer",
    "expected an integer in 0..=4294967295",
    "expected a boolean",
];

/// Every member a stored state can have, by slot. The groups (which states
/// have them) are the slot ranges named below.
const MEMBERS: [(&str, Kind); 46] = [
    ("state", Str),
    // 1..=9: the session
    ("session.sessionId", Str),
    ("session.processor", Str),
    ("session.publishableKey", Str),
    ("session.currency", Str),
    ("session.amount", Int),
    ("session.breakdown.subtotal", Int),
    ("session.breakdown.shipping", Int),
    ("session.breakdown.tax", Int),
    ("session.breakdown.total", Int),
    // 10..=27: the shipping choice (the address in ADDRESS_FIELDS order from 18)
    ("shipping.rate.id", Str),
    ("shipping.rate.name", Str),
    ("shipping.rate.price", Str),
    ("shipping.rate.deliveryDescription", Str),
    ("shipping.rate.deliveryTimeframeMin", U32),
    ("shipping.rate.deliveryTimeframeMax", U32),
    ("shipping.rate.minOrderPrice", OptStr),
    ("shipping.rate.maxOrderPrice", OptStr),
    ("shipping.address.email", Str),
    ("shipping.address.firstName", Str),
    ("shipping.address.lastName", Str),
    ("shipping.address.address1", Str),
    ("shipping.address.address2", OptStr),
    ("shipping.address.city", Str),
    ("shipping.address.state", OptStr),
    ("shipping.address.postalCode", Str),
    ("shipping.address.country", Str),
    ("shipping.address.phone", OptStr),
    // 28..=32: `attempt`; 33..=37: `pending` (same members)
    ("attempt.token", Str),
    ("attempt.returnUrl", Str),
    ("attempt.confirmInFlight", Bool),
    ("attempt.paymentIntentId", OptStr),
    ("attempt.lastStatus", OptStr),
    ("pending.token", Str),
    ("pending.returnUrl", Str),
    ("pending.confirmInFlight", Bool),
    ("pending.paymentIntentId", OptStr),
    ("pending.lastStatus", OptStr),
    // 38: requires_action; 39: succeeded (required) and failed; 40..=44: failed; 45: cancelled
    ("clientSecret", Str),
    ("paymentIntentId", OptStr),
    ("code", Str),
    ("errorCode", OptStr),
    ("message", Str),
    ("retryable", Bool),
    ("pending", Null),
    ("sessionId", OptStr),
];

/// The member slots each state has (see [`MEMBERS`]), as ranges.
fn member_slots(tag: Tag) -> &'static [core::ops::RangeInclusive<usize>] {
    match tag {
        Tag::Idle => &[],
        Tag::Initiated => &[1..=9],
        Tag::ShippingChosen => &[1..=27],
        Tag::Paying => &[1..=32],
        Tag::RequiresAction => &[1..=32, 38..=38],
        Tag::Succeeded => &[1..=27, 39..=39],
        Tag::Failed => &[1..=27, 33..=37, 39..=44],
        Tag::Cancelled => &[45..=45],
    }
}

fn bad(path: &str, what: &str) -> Error {
    Error::invalid_argument(cat(&[path, ": ", what]))
}

/// Whether a typed value (`s…`, `n…`, `btrue`, `onull`) is of `kind`.
fn fits(v: &str, kind: Kind) -> bool {
    let int = |max: i64, min: i64| v.strip_prefix('n').and_then(|n| n.parse::<i64>().ok()).is_some_and(|n| (min..=max).contains(&n));
    match kind {
        Str => v.starts_with('s'),
        OptStr => v.starts_with('s') || v == "onull",
        Null => v == "onull",
        Int => int(MAX_SAFE_MINOR, -MAX_SAFE_MINOR),
        U32 => int(i64::from(u32::MAX), 0),
        Bool => v == "btrue" || v == "bfalse",
    }
}

impl Flow {
    /// Read a stored state back from flat entries: `path, value, path,
    /// value, …` where a path joins the JSON members with `.` (array
    /// elements by index: `session.items.0.variantId`) and a value is typed
    /// by its first character: `s` + a string, `n` + a number as JS prints
    /// it, `btrue` / `bfalse`, `onull`. Every member the state has is
    /// checked (type, presence; no unknown or foreign member), and so are the
    /// invariants a live state keeps: the amounts add up, the items, rate,
    /// address and return URL pass their checks, tokens are not empty, only
    /// `paying` has a confirm in flight, `requires_action` has a client
    /// secret. The session and shipping objects are then the caller's to
    /// keep: the machine holds the members that decide.
    ///
    /// # Errors
    /// `invalid_argument` "stored checkout state is not valid: …" naming the path.
    pub fn from_entries(entries: &[String]) -> Result<Self> {
        Self::read(entries).map_err(|e| Error::invalid_argument(cat(&["stored checkout state is not valid: ", &e.message])))
    }

    fn read(entries: &[String]) -> Result<Self> {
        // One pass: every entry into its slot (or an item), typed.
        let mut slot: [Option<&str>; 46] = [None; 46];
        let mut items: Vec<[&str; 2]> = Vec::new();
        if entries.len() % 2 != 0 {
            return Err(Error::invalid_argument("odd number of entries"));
        }
        let state = entries.chunks(2).find(|p| p[0] == "state").map(|p| p[1].as_str());
        let tag = match state {
            None => return Err(Error::invalid_argument("missing field `state`")),
            Some(v) => TAGS.iter().find(|(_, n)| v.strip_prefix('s') == Some(n)).map(|(t, _)| *t),
        }
        .ok_or_else(|| bad("state", "unknown checkout state"))?;
        let slots = member_slots(tag);
        for pair in entries.chunks(2) {
            let [path, value] = pair else { continue };
            if path == "state" {
                continue;
            }
            if let (Some(rest), true) = (path.strip_prefix("session.items."), slots.first().is_some_and(|r| r.contains(&1))) {
                // `<i>.variantId` / `<i>.quantity`, in order, no gaps.
                let (i, member) = rest.split_once('.').unwrap_or_default();
                let (k, kind) = match member {
                    "variantId" => (0, Str),
                    "quantity" => (1, U32),
                    _ => return Err(bad(path, "unknown member")),
                };
                let next = uint(items.len() as u64);
                if i != next && i != uint(items.len().saturating_sub(1) as u64) {
                    return Err(bad(path, "items out of order"));
                }
                if i == next {
                    items.push([""; 2]);
                }
                if !fits(value, kind) {
                    return Err(bad(path, KIND_NAMES[kind as usize]));
                }
                if let Some(item) = items.last_mut() {
                    item[k] = value;
                }
                continue;
            }
            let Some(i) = MEMBERS.iter().position(|(p, _)| p == path).filter(|i| slots.iter().any(|r| r.contains(i))) else {
                return Err(bad(path, "unknown member"));
            };
            if !fits(value, MEMBERS[i].1) {
                return Err(bad(path, KIND_NAMES[MEMBERS[i].1 as usize]));
            }
            slot[i] = Some(value.as_str()).filter(|v| *v != "onull");
        }
        let pending = slot[33..=37].iter().any(Option::is_some);
        for r in slots {
            for i in r.clone() {
                let (path, kind) = MEMBERS[i];
                let optional = matches!(kind, OptStr | Null) || ((33..=37).contains(&i) && !pending);
                if slot[i].is_none() && !(optional && !(i == 39 && tag == Tag::Succeeded)) {
                    return Err(Error::invalid_argument(cat(&["missing field `", path, "`"])));
                }
            }
        }
        // The typed values: strings without their `s`, numbers parsed.
        let text = |i: usize| slot[i].and_then(|v| v.get(1..)).map(str::to_owned);
        let num = |i: usize| slot[i].and_then(|v| v.get(1..)).and_then(|v| v.parse::<i64>().ok()).unwrap_or_default();
        let mut flow = Self { tag, ..Self::default() };
        if slots.first().is_some_and(|r| r.contains(&1)) {
            flow.session_id = text(1);
            if text(2).as_deref() != Some("stripe") {
                return Err(bad(MEMBERS[2].0, "unknown processor"));
            }
            let currency = text(4).unwrap_or_default();
            if !(currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase())) {
                return Err(bad(MEMBERS[4].0, "not an ISO 4217 code"));
            }
            check_amount(num(5), &Breakdown { subtotal: num(6), shipping: num(7), tax: num(8), total: num(9) })?;
            if items.is_empty() {
                return Err(bad("session.items", "must not be empty"));
            }
            if items.iter().any(|[id, q]| id.len() < 2 || q.len() < 2 || *q == "n0") {
                return Err(bad("session.items", "every item needs a variantId and a quantity of at least 1"));
            }
        }
        if slot[10].is_some() {
            if text(10).unwrap_or_default().trim().is_empty() {
                return Err(bad(MEMBERS[10].0, "must not be empty"));
            }
            validate_address(&address_of(|i| text(18 + i)))?;
        }
        let attempt_at = if pending { 33 } else { 28 };
        if slot[attempt_at].is_some() {
            let last_status = match text(attempt_at + 4) {
                None => None,
                Some(s) => Some(status(&s).ok_or_else(|| bad(MEMBERS[attempt_at + 4].0, "unknown payment status"))?),
            };
            let a = Attempt {
                token: text(attempt_at).unwrap_or_default(),
                return_url: text(attempt_at + 1).unwrap_or_default(),
                confirm_in_flight: slot[attempt_at + 2] == Some("btrue"),
                payment_intent_id: text(attempt_at + 3),
                last_status,
            };
            if a.token.trim().is_empty() {
                return Err(bad(MEMBERS[attempt_at].0, "must not be empty"));
            }
            validate_return_url(&a.return_url)?;
            if a.confirm_in_flight && tag != Tag::Paying {
                return Err(bad(MEMBERS[attempt_at + 2].0, "a confirm in flight outside `paying`"));
            }
            flow.attempt = Some(a);
        }
        if tag == Tag::RequiresAction {
            flow.client_secret = text(38).unwrap_or_default();
            if flow.client_secret.is_empty() {
                return Err(bad("clientSecret", "must not be empty"));
            }
        }
        if tag == Tag::Failed {
            let code = text(40).unwrap_or_default();
            flow.code = FAILURES.iter().find(|(_, n)| *n == code).map(|(c, _)| *c).ok_or_else(|| bad("code", "unknown failure code"))?;
            flow.error_code = match text(41) {
                None => None,
                Some(c) => Some(error_code(&c).ok_or_else(|| bad("errorCode", "unknown error code"))?),
            };
            flow.message = text(42).unwrap_or_default();
            flow.retryable = slot[43] == Some("btrue");
        }
        if matches!(tag, Tag::Succeeded | Tag::Failed) {
            flow.payment_intent_id = text(39);
        }
        if tag == Tag::Cancelled {
            flow.session_id = text(45);
        }
        Ok(flow)
    }
}

fn check_amount(amount: i64, b: &Breakdown) -> Result<()> {
    let sum = b.subtotal.checked_add(b.shipping).and_then(|s| s.checked_add(b.tax));
    if amount < 0 || b.total != amount || sum != Some(b.total) {
        return Err(Error::invalid_argument(cat(&[
            "payment amount ",
            &int(amount),
            " does not match breakdown ",
            &int(b.subtotal),
            " + ",
            &int(b.shipping),
            " + ",
            &int(b.tax),
            " = ",
            &int(b.total),
        ])));
    }
    Ok(())
}

/// Check a return URL: absolute `http://` or `https://` with a host.
///
/// # Errors
/// `invalid_argument` naming `returnUrl`.
pub fn validate_return_url(url: &str) -> Result<()> {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
    if url.len() > 2048 || url.chars().any(char::is_whitespace) || host.is_none_or(str::is_empty) {
        return Err(Error::invalid_argument(cat(&["returnUrl must be an absolute http(s) URL, got ", &quote(&truncate(url, 80))])));
    }
    Ok(())
}

/// Check a shipping address before it is sent: the fields CONTRACT.md
/// requires are present and not blank, `email` looks like an address,
/// `country` is an uppercase ISO 3166-1 alpha-2 code, and no field is over
/// [`MAX_ADDRESS_FIELD`] characters.
///
/// # Errors
/// `invalid_argument` naming the first offending field (`shippingAddress.email`, …).
pub fn validate_address(a: &ShippingAddress) -> Result<()> {
    let required = [
        ("email", &a.email),
        ("firstName", &a.first_name),
        ("lastName", &a.last_name),
        ("address1", &a.address1),
        ("city", &a.city),
        ("postalCode", &a.postal_code),
        ("country", &a.country),
    ];
    for (name, value) in required {
        if value.trim().is_empty() {
            return Err(Error::invalid_argument(cat(&["shippingAddress.", name, " is required"])));
        }
    }
    let optional = [("address2", &a.address2), ("state", &a.state), ("phone", &a.phone)];
    let all = required.into_iter().chain(optional.into_iter().filter_map(|(n, v)| v.as_ref().map(|v| (n, v))));
    for (name, value) in all {
        if crate::text::char_count(value) > MAX_ADDRESS_FIELD {
            return Err(Error::invalid_argument(cat(&[
                "shippingAddress.",
                name,
                " is longer than ",
                &uint(MAX_ADDRESS_FIELD as u64),
                " characters",
            ])));
        }
        if value.chars().any(char::is_control) {
            return Err(Error::invalid_argument(cat(&["shippingAddress.", name, " contains control characters"])));
        }
    }
    if !email_shaped(&a.email) {
        return Err(Error::invalid_argument(cat(&["shippingAddress.email is not an e-mail address: ", &quote(&truncate(&a.email, 80))])));
    }
    if !(a.country.len() == 2 && a.country.bytes().all(|b| b.is_ascii_uppercase())) {
        return Err(Error::invalid_argument(cat(&[
            "shippingAddress.country must be an uppercase ISO 3166-1 alpha-2 code like \"DE\", got ",
            &quote(&truncate(&a.country, 20)),
        ])));
    }
    Ok(())
}

/// `local@domain.tld`: one `@`, no whitespace, a non-empty local part, a
/// domain of non-empty dot-separated labels with at least one dot.
fn email_shaped(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && local.len() <= 64
        && email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && !domain.contains('@')
        && domain.contains('.')
        && domain.split('.').all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
}

fn truncate(s: &str, max: usize) -> String {
    if crate::text::char_count(s) <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}


#[cfg(test)]
mod tests {
    use super::event::*;
    use super::*;
    use serde_json::{json, Value};

    const URL: &str = "https://shop.example/return";
    const ADDR: [&str; 10] = ["ada@example.com", "Ada", "Lovelace", "1 Analytical St", "", "London", "", "N1 9GU", "GB", ""];

    fn sv(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    fn go(f: &mut Flow, ev: u32, s: &[&str], n: &[f64]) -> Result<Option<String>> {
        f.step(ev, &sv(s), n)
    }

    fn ok(f: &mut Flow, ev: u32, s: &[&str], n: &[f64]) -> Option<String> {
        go(f, ev, s, n).unwrap_or_else(|e| panic!("event {ev}: {e}"))
    }

    fn initiated() -> Flow {
        let mut f = Flow::default();
        ok(&mut f, INITIATED, &["ps_1"], &[3998.0, 3998.0, 0.0, 0.0, 3998.0, 1.0]);
        f
    }

    fn with_addr<'a>(head: &[&'a str], addr: &[&'a str], tail: &[&'a str]) -> Vec<&'a str> {
        head.iter().chain(addr).chain(tail).copied().collect()
    }

    fn chosen() -> Flow {
        let mut f = initiated();
        ok(&mut f, CHOSEN, &with_addr(&["rate_std"], &ADDR, &["ps_1"]), &[5298.0, 3998.0, 500.0, 800.0, 5298.0]);
        f
    }

    fn confirm(f: &mut Flow, status: &str, secret: &str, error: &str) -> Result<Option<String>> {
        go(f, CONFIRMED, &[status, secret, "pi_1", error], &[])
    }

    fn paying(token: &str) -> Flow {
        let mut f = chosen();
        ok(&mut f, BEGIN, &[token, URL], &[]);
        f
    }

    fn assert_state_err(r: Result<impl std::fmt::Debug>, needle: &str) {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
        assert!(e.message.contains(needle), "{e}");
    }

    fn assert_arg_err(r: Result<impl std::fmt::Debug>, needle: &str) {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{e}");
        assert!(e.message.contains(needle), "{} !~ {needle}", e.message);
    }

    fn m(f: &Flow, i: u32) -> Option<String> {
        f.member(i)
    }

    #[test]
    fn happy_path_reaches_succeeded() {
        let mut f = Flow::default();
        assert_eq!(m(&f, 0).as_deref(), Some("idle"));
        ok(&mut f, INITIATED, &["ps_1"], &[3998.0, 3998.0, 0.0, 0.0, 3998.0, 1.0]);
        assert_eq!(m(&f, 0).as_deref(), Some("initiated"));
        ok(&mut f, CAN_SHIP, &[], &[]);
        ok(&mut f, UPDATE, &with_addr(&["rate_std"], &ADDR, &[]), &[]);
        ok(&mut f, CHOSEN, &with_addr(&["rate_std"], &ADDR, &["ps_1"]), &[5298.0, 3998.0, 500.0, 800.0, 5298.0]);
        assert_eq!(m(&f, 0).as_deref(), Some("shipping_chosen"));
        assert_eq!(ok(&mut f, PAY, &[URL], &[]), None, "collect a new token");
        assert_eq!(ok(&mut f, UNSETTLED, &[], &[]), None);
        ok(&mut f, BEGIN, &["tok_1", URL], &[]);
        assert_eq!(m(&f, 0).as_deref(), Some("paying"));
        assert_eq!((m(&f, 1).as_deref(), m(&f, 2).as_deref(), m(&f, 3).as_deref()), (Some("tok_1"), Some(URL), Some("1")));
        assert_eq!((m(&f, 4), m(&f, 5)), (None, None));
        assert_eq!(ok(&mut f, UNSETTLED, &[], &[]).as_deref(), Some("1"));
        assert_eq!(ok(&mut f, FINAL, &[], &[]), None);
        assert_eq!(confirm(&mut f, "succeeded", "", "").unwrap(), None);
        assert_eq!(m(&f, 0).as_deref(), Some("succeeded"));
        assert_eq!(m(&f, 11).as_deref(), Some("pi_1"));
        assert_eq!(m(&f, 1), None, "no attempt shown once succeeded");
        assert_eq!(ok(&mut f, FINAL, &[], &[]).as_deref(), Some("1"));
        assert_eq!(ok(&mut f, RESUME, &[], &[]), None);
    }

    #[test]
    fn illegal_steps_are_invalid_state_errors() {
        let mut idle = Flow::default();
        assert_state_err(go(&mut idle, PAY, &[URL], &[]), "cannot pay in checkout state `idle`");
        assert_state_err(go(&mut idle, UPDATE, &with_addr(&["r"], &ADDR, &[]), &[]), "cannot select shipping");
        assert_state_err(go(&mut idle, CAN_SHIP, &[], &[]), "cannot select shipping in checkout state `idle`");
        let mut i = initiated();
        assert_state_err(go(&mut i, PAY, &[URL], &[]), "`initiated`");
        assert_state_err(go(&mut i.clone(), BEGIN, &["tok_1", URL], &[]), "cannot confirm");
        assert_state_err(go(&mut i, INITIATED, &["ps_1"], &[1.0, 1.0, 0.0, 0.0, 1.0, 1.0]), "cannot initiate");
        let mut s = paying("tok_1");
        confirm(&mut s, "succeeded", "", "").unwrap();
        let before = s.clone();
        assert_state_err(go(&mut s, UPDATE, &with_addr(&["rate_std"], &ADDR, &[]), &[]), "`succeeded`");
        assert_state_err(go(&mut s, CHOSEN, &with_addr(&["rate_std"], &ADDR, &["ps_1"]), &[1.0, 1.0, 0.0, 0.0, 1.0]), "`succeeded`");
        assert_state_err(go(&mut s, PAY, &[URL], &[]), "`succeeded`");
        assert_state_err(go(&mut s, CANCEL, &[], &[]), "cannot cancel");
        assert_state_err(confirm(&mut s, "succeeded", "", ""), "`succeeded`");
        assert_eq!(s, before, "refused events change nothing");
        let mut c = chosen();
        assert_state_err(confirm(&mut c, "succeeded", "", ""), "`shipping_chosen`");
        assert_state_err(go(&mut c, CONFIRM_FAILED, &["network", "x"], &[]), "`shipping_chosen`");
        assert_state_err(go(&mut c, ACTION_DONE, &[], &[]), "`shipping_chosen`");
        assert_state_err(go(&mut Flow::default(), ADAPTER_FAILED, &["x"], &[]), "cannot report an adapter failure");
        assert_arg_err(go(&mut c, 99, &[], &[]), "unknown checkout event");
    }

    #[test]
    fn no_second_pay_while_a_confirm_is_in_flight() {
        let mut s = paying("tok_1");
        assert_state_err(go(&mut s, PAY, &[URL], &[]), "`paying`");
        // A different token can never be confirmed while tok_1 may be live.
        assert_arg_err(go(&mut s, BEGIN, &["tok_2", URL], &[]), "tok_1");
        assert_state_err(go(&mut s, CANCEL, &[], &[]), "cannot cancel in checkout state `paying`");
        assert_state_err(go(&mut s, UPDATE, &with_addr(&["rate_std"], &ADDR, &[]), &[]), "`paying`");
        assert_state_err(go(&mut s, ACTION_DONE, &[], &[]), "`paying`");
        // Resume after a reload: the same token, once more.
        assert_eq!(ok(&mut s, RESUME, &[], &[]).as_deref(), Some("tok_1"));
        ok(&mut s, BEGIN, &["tok_1", ""], &[]);
        assert_eq!(m(&s, 2).as_deref(), Some(URL), "the attempt keeps its return URL");
    }

    #[test]
    fn three_d_secure_then_success() {
        let mut s = paying("tok_1");
        assert_eq!(confirm(&mut s, "requires_action", "pi_1_secret", "").unwrap().as_deref(), Some("pi_1_secret"));
        assert_eq!(m(&s, 0).as_deref(), Some("requires_action"));
        assert_eq!(m(&s, 6).as_deref(), Some("pi_1_secret"));
        assert_eq!((m(&s, 3), m(&s, 4).as_deref(), m(&s, 5).as_deref()), (None, Some("pi_1"), Some("requires_action")));
        assert_eq!(ok(&mut s, RESUME, &[], &[]).as_deref(), Some("tok_1"));
        assert_eq!(ok(&mut s, UNSETTLED, &[], &[]).as_deref(), Some("1"));
        assert_state_err(go(&mut s, PAY, &[URL], &[]), "`requires_action`");
        assert_state_err(go(&mut s, CANCEL, &[], &[]), "`requires_action`");
        assert_eq!(ok(&mut s, ACTION_DONE, &[], &[]).as_deref(), Some("tok_1"));
        ok(&mut s, BEGIN, &["tok_1", URL], &[]);
        assert_eq!(m(&s, 6), None);
        confirm(&mut s, "succeeded", "", "").unwrap();
        assert_eq!(m(&s, 11).as_deref(), Some("pi_1"));
    }

    #[test]
    fn failed_three_d_secure_releases_the_token() {
        let mut s = paying("tok_1");
        confirm(&mut s, "requires_action", "sec", "").unwrap();
        ok(&mut s, BEGIN, &["tok_1", URL], &[]);
        confirm(&mut s, "requires_payment_method", "", "").unwrap();
        assert_eq!(m(&s, 0).as_deref(), Some("failed"));
        assert_eq!(m(&s, 7).as_deref(), Some("action_failed"));
        assert_eq!(m(&s, 10).as_deref(), Some("1"));
        assert_eq!(m(&s, 1), None, "no pending attempt");
        assert_eq!(m(&s, 11).as_deref(), Some("pi_1"));
        assert!(m(&s, 9).unwrap().contains("authentication"));
        assert_eq!(ok(&mut s, FINAL, &[], &[]), None);
        assert_eq!(ok(&mut s, PAY, &[URL], &[]), None);
        // A payment exists: its amount must not change under it.
        assert_state_err(go(&mut s, UPDATE, &with_addr(&["rate_std"], &ADDR, &[]), &[]), "cannot select shipping");
        ok(&mut s, BEGIN, &["tok_new", URL], &[]);
        assert_eq!(m(&s, 1).as_deref(), Some("tok_new"));
    }

    #[test]
    fn decline_then_retry_with_a_new_token() {
        let mut s = paying("tok_declined");
        confirm(&mut s, "requires_payment_method", "", "Your card was declined.").unwrap();
        assert_eq!((m(&s, 7).as_deref(), m(&s, 9).as_deref()), (Some("declined"), Some("Your card was declined.")));
        let mut fallback = paying("tok_declined");
        confirm(&mut fallback, "requires_payment_method", "", "  ").unwrap();
        assert!(m(&fallback, 9).unwrap().contains("declined"));
        assert_eq!(ok(&mut s, PAY, &[URL], &[]), None);
        ok(&mut s, BEGIN, &["tok_good", URL], &[]);
        confirm(&mut s, "succeeded", "", "").unwrap();
        assert_eq!(m(&s, 0).as_deref(), Some("succeeded"));
    }

    #[test]
    fn lost_confirm_keeps_the_token_and_retries_it() {
        let mut s = paying("tok_1");
        ok(&mut s, CONFIRM_FAILED, &["network", "connection reset"], &[]);
        assert_eq!(m(&s, 0).as_deref(), Some("failed"));
        assert_eq!((m(&s, 7).as_deref(), m(&s, 8).as_deref(), m(&s, 10).as_deref()), (Some("request"), Some("network"), Some("1")));
        assert_eq!((m(&s, 1).as_deref(), m(&s, 3)), (Some("tok_1"), None), "pending, not in flight");
        assert_eq!(ok(&mut s, UNSETTLED, &[], &[]).as_deref(), Some("1"));
        assert_state_err(go(&mut s, CANCEL, &[], &[]), "`failed`");
        assert_state_err(go(&mut s, CAN_SHIP, &[], &[]), "`failed`");
        assert_eq!(ok(&mut s, RESUME, &[], &[]), None, "a failure is not resumed by itself");
        assert_eq!(ok(&mut s, PAY, &[URL], &[]).as_deref(), Some("tok_1"));
        assert_arg_err(go(&mut s, BEGIN, &["tok_2", URL], &[]), "only that token");
        ok(&mut s, BEGIN, &["tok_1", URL], &[]);
        confirm(&mut s, "succeeded", "", "").unwrap();
        assert_eq!(m(&s, 0).as_deref(), Some("succeeded"));
    }

    #[test]
    fn request_errors_that_cannot_heal_are_final() {
        for (code, retryable) in [
            ("conflict", false),
            ("not_found", false),
            ("invalid_request", false),
            ("unauthorized", false),
            ("timeout", true),
            ("internal", true),
            ("rate_limited", true),
            ("processor_error", true),
            ("no_such_code", true), // not a CirrusError: counted as internal
        ] {
            let mut s = paying("tok_1");
            ok(&mut s, CONFIRM_FAILED, &[code, "x"], &[]);
            assert_eq!(ok(&mut s, FINAL, &[], &[]).is_some(), !retryable, "{code}");
            assert_eq!(go(&mut s, PAY, &[URL], &[]).is_ok(), retryable, "{code}");
        }
        let mut s = paying("tok_1");
        ok(&mut s, CONFIRM_FAILED, &["no_such_code", "x"], &[]);
        assert_eq!(m(&s, 8).as_deref(), Some("internal"));
    }

    #[test]
    fn unusable_answers_are_decode_failures_that_stay_pending() {
        let mut s = paying("tok_1");
        let e = confirm(&mut s, "requires_action", "", "").unwrap_err();
        assert_eq!(e.code, ErrorCode::Decode);
        assert_eq!((m(&s, 0).as_deref(), m(&s, 8).as_deref()), (Some("failed"), Some("decode")));
        assert_eq!(ok(&mut s, PAY, &[URL], &[]).as_deref(), Some("tok_1"));
        let mut u = paying("tok_1");
        assert_eq!(confirm(&mut u, "weird", "", "").unwrap_err().code, ErrorCode::Decode);
        assert_eq!((m(&u, 7).as_deref(), m(&u, 1).as_deref()), (Some("request"), Some("tok_1")));
    }

    #[test]
    fn processing_is_re_read_with_the_same_token() {
        let mut s = paying("tok_1");
        assert_eq!(confirm(&mut s, "processing", "", "").unwrap(), None);
        assert_eq!((m(&s, 0).as_deref(), m(&s, 3)), (Some("paying"), None));
        assert_state_err(confirm(&mut s, "succeeded", "", ""), "no confirm is in flight");
        assert_state_err(go(&mut s, CONFIRM_FAILED, &["network", "x"], &[]), "no confirm is in flight");
        assert_eq!(ok(&mut s, PAY, &[URL], &[]).as_deref(), Some("tok_1"));
    }

    #[test]
    fn canceled_payment_is_final() {
        let mut s = paying("tok_1");
        confirm(&mut s, "canceled", "", "").unwrap();
        assert_eq!((m(&s, 7).as_deref(), m(&s, 10)), (Some("canceled"), None));
        assert_eq!(m(&s, 9).as_deref(), Some("the payment was canceled"));
        assert_eq!(ok(&mut s, FINAL, &[], &[]).as_deref(), Some("1"));
        assert_state_err(go(&mut s, BEGIN, &["tok_1", URL], &[]), "cannot confirm");
    }

    #[test]
    fn adapter_failures() {
        // Before any confirm: nothing sent, retry collects a new token.
        let mut s = chosen();
        ok(&mut s, ADAPTER_FAILED, &["Your card number is incomplete."], &[]);
        assert_eq!((m(&s, 7).as_deref(), m(&s, 1), m(&s, 10).as_deref()), (Some("adapter"), None, Some("1")));
        assert_eq!(ok(&mut s, PAY, &[URL], &[]), None);
        ok(&mut s, ADAPTER_FAILED, &["again"], &[]);
        assert_eq!(m(&s, 9).as_deref(), Some("again"));
        // Shipping may still change: no payment exists.
        ok(&mut s, UPDATE, &with_addr(&["rate_std"], &ADDR, &[]), &[]);
        ok(&mut s, CANCEL, &[], &[]);
        assert_eq!((m(&s, 0).as_deref(), m(&s, 12).as_deref()), (Some("cancelled"), Some("ps_1")));
        // During a next action: the payment exists, so the attempt stays pending.
        let mut s = paying("tok_1");
        confirm(&mut s, "requires_action", "sec", "").unwrap();
        ok(&mut s, ADAPTER_FAILED, &[""], &[]);
        assert_eq!((m(&s, 7).as_deref(), m(&s, 1).as_deref()), (Some("action_failed"), Some("tok_1")));
        assert_eq!(m(&s, 9).as_deref(), Some("the payment form reported an error"));
        assert_eq!(ok(&mut s, PAY, &[URL], &[]).as_deref(), Some("tok_1"));
        assert_state_err(go(&mut s, ADAPTER_FAILED, &["x"], &[]), "`failed`");
        // A failure after a declined payment keeps that payment's id.
        let mut d = paying("tok_1");
        confirm(&mut d, "requires_payment_method", "", "").unwrap();
        ok(&mut d, ADAPTER_FAILED, &["incomplete"], &[]);
        assert_eq!((m(&d, 7).as_deref(), m(&d, 11).as_deref()), (Some("adapter"), Some("pi_1")));
    }

    #[test]
    fn address_is_checked_field_by_field() {
        let mut s = initiated();
        let cases: [(usize, &str, &str); 14] = [
            (0, "  ", "shippingAddress.email is required"),
            (1, "", "shippingAddress.firstName is required"),
            (2, "", "shippingAddress.lastName is required"),
            (3, "", "shippingAddress.address1 is required"),
            (5, "", "shippingAddress.city is required"),
            (7, "", "shippingAddress.postalCode is required"),
            (8, "", "shippingAddress.country is required"),
            (0, "ada.example.com", "shippingAddress.email is not an e-mail"),
            (0, "ada@example", "shippingAddress.email is not an e-mail"),
            (0, "ada @example.com", "shippingAddress.email is not an e-mail"),
            (8, "gb", "shippingAddress.country must be an uppercase"),
            (8, "GBR", "shippingAddress.country must be an uppercase"),
            (5, "x".repeat(201).leak(), "shippingAddress.city is longer than 200"),
            (9, "1\u{0}2", "shippingAddress.phone contains control"),
        ];
        for (i, value, needle) in cases {
            let mut a = ADDR;
            a[i] = value;
            assert_arg_err(go(&mut s, UPDATE, &with_addr(&["rate_std"], &a, &[]), &[]), needle);
        }
        assert_arg_err(go(&mut s, UPDATE, &with_addr(&[" "], &ADDR, &[]), &[]), "shipping rate id");
        let mut good = ADDR;
        good[4] = "Flat 2";
        good[0] = "ada+shop@mail.example.co.uk";
        ok(&mut s, UPDATE, &with_addr(&["rate_std"], &good, &[]), &[]);
        assert_eq!(m(&s, 0).as_deref(), Some("initiated"));
    }

    #[test]
    fn inconsistent_server_answers_are_rejected() {
        let mut s = Flow::default();
        assert_arg_err(go(&mut s, INITIATED, &["ps_1"], &[1.0, 3998.0, 0.0, 0.0, 3998.0, 1.0]), "does not match");
        assert_arg_err(go(&mut s, INITIATED, &["ps_1"], &[3998.0, 3998.0, 0.0, 0.0, 3998.0, 0.0]), "items must not be empty");
        assert_arg_err(go(&mut s, INITIATED, &["ps_1"], &[0.5, 0.5, 0.0, 0.0, 0.5, 1.0]), "safe integer");
        assert_arg_err(go(&mut s, INITIATED, &["ps_1"], &[9.1e15, 9.1e15, 0.0, 0.0, 9.1e15, 1.0]), "safe integer");
        assert_arg_err(go(&mut s, INITIATED, &["ps_1"], &[1.0]), "safe integer");
        assert_eq!(s, Flow::default());
        let mut s = initiated();
        let e = go(&mut s, CHOSEN, &with_addr(&["rate_std"], &ADDR, &["ps_2"]), &[5298.0, 3998.0, 500.0, 800.0, 5298.0]).unwrap_err();
        assert!(e.message.contains("ps_2"), "{e}");
        assert_arg_err(go(&mut s, CHOSEN, &with_addr(&["rate_std"], &ADDR, &["ps_1"]), &[5298.0, 3998.0, 500.0, 801.0, 5298.0]), "does not match");
        assert_eq!(m(&s, 0).as_deref(), Some("initiated"));
    }

    #[test]
    fn return_url_and_token_are_checked() {
        let mut s = chosen();
        for bad in ["", "/relative", "ftp://x", "https://", "https:// x"] {
            assert_arg_err(go(&mut s.clone(), BEGIN, &["tok_1", bad], &[]), "returnUrl");
            assert_arg_err(go(&mut s.clone(), PAY, &[bad], &[]), "returnUrl");
        }
        assert_arg_err(go(&mut s.clone(), BEGIN, &[" ", URL], &[]), "token");
        ok(&mut s, BEGIN, &["tok_1", "http://127.0.0.1:18793/checkout?x=1"], &[]);
    }

    #[test]
    fn cancel_before_payment() {
        let mut s = Flow::default();
        ok(&mut s, CANCEL, &[], &[]);
        assert_eq!((m(&s, 0).as_deref(), m(&s, 12)), (Some("cancelled"), None));
        assert_state_err(go(&mut s, CANCEL, &[], &[]), "`cancelled`");
        let mut c = chosen();
        ok(&mut c, CANCEL, &[], &[]);
        assert_state_err(go(&mut c, PAY, &[URL], &[]), "`cancelled`");
        assert_eq!(ok(&mut c, FINAL, &[], &[]).as_deref(), Some("1"));
    }

    /// One offer of a flattened `shippingRates` answer.
    fn offer<'a>(variant: &'a str, id: &'a str, price: &'a str, band: (Option<&'a str>, Option<&'a str>), days: u32) -> ([&'a str; 5], [f64; 3]) {
        let bits = f64::from(u8::from(band.0.is_some()) + 2 * u8::from(band.1.is_some()));
        ([variant, id, price, band.0.unwrap_or(""), band.1.unwrap_or("")], [f64::from(days), f64::from(days + 2), bits])
    }

    fn options_of(currency: &str, ids: &[&str], subtotal: f64, offers: &[([&str; 5], [f64; 3])]) -> Result<Option<String>> {
        let mut s = vec![currency];
        s.extend_from_slice(ids);
        #[allow(clippy::cast_precision_loss)]
        let mut n = vec![subtotal, ids.len() as f64];
        for (o, k) in offers {
            s.extend_from_slice(o);
            n.extend_from_slice(k);
        }
        // Allowed in any state: the answer may arrive after the state moved on.
        go(&mut Flow::default(), OPTIONS, &s, &n)
    }

    #[test]
    fn shipping_options_from_flat_offers() {
        let offers = [
            offer("v1", "express", "15.00", (None, None), 1),
            offer("v1", "std", "5.00", (None, None), 3),
            offer("v1", "free", "0.00", (Some("50.00"), None), 5),
            offer("v1", "only_v1", "1.00", (None, None), 2),
            offer("v2", "std", "5.00", (None, None), 3),
            offer("v2", "express", "15.00", (None, None), 1),
            offer("v2", "free", "0.00", (Some("50.00"), None), 5),
        ];
        // Subtotal 39.98: `free` starts at 50.00; `only_v1` does not serve v2.
        assert_eq!(options_of("USD", &["v1", "v2"], 3998.0, &offers).unwrap().as_deref(), Some("1 500 4498 0 1500 5498"));
        assert_eq!(options_of("USD", &["v1", "v2"], 5000.0, &offers).unwrap().as_deref(), Some("2 0 5000 1 500 5500 0 1500 6500"));
        assert_eq!(options_of("USD", &["v1"], 100.0, &offers[3..4]).unwrap().as_deref(), Some("0 100 200"));
        assert_eq!(options_of("USD", &["v9"], 100.0, &offers).unwrap().as_deref(), Some(""));
        // A null bound is open; an empty-string bound is not a price.
        assert_arg_err(options_of("USD", &["v1"], 100.0, &[offer("v1", "r", "1.00", (Some(""), None), 1)]), "minOrderPrice");
        assert_arg_err(options_of("USD", &["v1"], 100.0, &[offer("v1", "r", "1.001", (None, None), 1)]), "price");
        assert_arg_err(options_of("XYZ", &["v1"], 100.0, &offers), "XYZ");
        assert_arg_err(options_of("USD", &["v1"], 100.5, &offers), "subtotal");
        assert_arg_err(go(&mut Flow::default(), OPTIONS, &["USD", "v1", "v1", "r"], &[1.0, 1.0]), "5 strings and 3 numbers");
        assert_arg_err(go(&mut Flow::default(), OPTIONS, &["USD"], &[1.0, 4.0]), "5 strings and 3 numbers");
        assert_arg_err(go(&mut Flow::default(), OPTIONS, &["USD"], &[1.0, 9e15]), "5 strings and 3 numbers");
        assert_arg_err(go(&mut Flow::default(), OPTIONS, &[], &[1.0, 0.0]), "5 strings and 3 numbers");
        assert_arg_err(go(&mut Flow::default(), OPTIONS, &["USD"], &[1.0, -1.0]), "5 strings and 3 numbers");
        let mut big = offer("v1", "r", "1.00", (None, None), 1);
        big.1[0] = -1.0;
        assert_arg_err(options_of("USD", &["v1"], 100.0, &[big]), "deliveryTimeframeMin");
    }

    // ------------------------------------------------------------ stored states

    fn session() -> Value {
        json!({
            "sessionId": "ps_1", "processor": "stripe", "publishableKey": "pk_test_localstripe", "currency": "USD",
            "amount": 5298, "breakdown": {"subtotal": 3998, "shipping": 500, "tax": 800, "total": 5298},
            "items": [{"variantId": "var_1", "quantity": 2}, {"variantId": "var_2", "quantity": 1}]
        })
    }

    fn shipping() -> Value {
        json!({
            "rate": {"id": "rate_std", "name": "Standard", "price": "5.00", "deliveryDescription": "3-5 days",
                     "deliveryTimeframeMin": 3, "deliveryTimeframeMax": 5, "minOrderPrice": null, "maxOrderPrice": "500.00"},
            "address": {"email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "address1": "1 Analytical St",
                        "city": "London", "postalCode": "N1 9GU", "country": "GB", "phone": "+44 1"}
        })
    }

    /// The state object as js/checkout.ts builds it (`get state()`).
    fn view(f: &Flow) -> Value {
        let g = |i| f.member(i).map_or(Value::Null, Value::String);
        let attempt = || {
            f.member(1).map_or(Value::Null, |t| {
                json!({"token": t, "returnUrl": g(2), "confirmInFlight": f.member(3).is_some(), "paymentIntentId": g(4), "lastStatus": g(5)})
            })
        };
        let (se, sh) = (session(), shipping());
        match f.member(0).unwrap().as_str() {
            "idle" => json!({"state": "idle"}),
            "cancelled" => json!({"state": "cancelled", "sessionId": g(12)}),
            "initiated" => json!({"state": "initiated", "session": se}),
            "shipping_chosen" => json!({"state": "shipping_chosen", "session": se, "shipping": sh}),
            "paying" => json!({"state": "paying", "session": se, "shipping": sh, "attempt": attempt()}),
            "requires_action" => json!({"state": "requires_action", "session": se, "shipping": sh, "attempt": attempt(), "clientSecret": g(6)}),
            "succeeded" => json!({"state": "succeeded", "session": se, "shipping": sh, "paymentIntentId": g(11)}),
            "failed" => json!({"state": "failed", "session": se, "shipping": sh, "code": g(7), "errorCode": g(8), "message": g(9),
                               "retryable": f.member(10).is_some(), "pending": attempt(), "paymentIntentId": g(11)}),
            other => panic!("{other}"),
        }
    }

    /// The flat entries js/checkout.ts makes of a stored object (`flatten`).
    fn flatten(v: &Value, path: &str, out: &mut Vec<String>) {
        let join = |k: &str| if path.is_empty() { k.to_owned() } else { format!("{path}.{k}") };
        match v {
            Value::Object(o) => o.iter().for_each(|(k, v)| flatten(v, &join(k), out)),
            Value::Array(a) => a.iter().enumerate().for_each(|(i, v)| flatten(v, &join(&i.to_string()), out)),
            Value::Null => out.extend([path.to_owned(), "onull".to_owned()]),
            Value::Bool(b) => out.extend([path.to_owned(), format!("b{b}")]),
            Value::Number(n) => out.extend([path.to_owned(), format!("n{n}")]),
            Value::String(s) => out.extend([path.to_owned(), format!("s{s}")]),
        }
    }

    fn restore(v: &Value) -> Result<Flow> {
        let mut e = Vec::new();
        flatten(v, "", &mut e);
        Flow::from_entries(&e)
    }

    /// One flow in every state (session ids as in [`session`]).
    fn samples() -> Vec<Flow> {
        let idle = Flow::default();
        let mut cancelled_early = Flow::default();
        ok(&mut cancelled_early, CANCEL, &[], &[]);
        let init = initiated();
        let chosen = chosen();
        let paying = paying("tok_1");
        let mut action = paying.clone();
        confirm(&mut action, "requires_action", "sec", "").unwrap();
        let mut processing = paying.clone();
        confirm(&mut processing, "processing", "", "").unwrap();
        let mut lost = paying.clone();
        ok(&mut lost, CONFIRM_FAILED, &["timeout", "no answer"], &[]);
        let mut declined = paying.clone();
        confirm(&mut declined, "requires_payment_method", "", "Declined").unwrap();
        let mut adapter = chosen.clone();
        ok(&mut adapter, ADAPTER_FAILED, &["incomplete"], &[]);
        let mut done = action.clone();
        ok(&mut done, BEGIN, &["tok_1", URL], &[]);
        confirm(&mut done, "succeeded", "", "").unwrap();
        let mut cancelled = chosen.clone();
        ok(&mut cancelled, CANCEL, &[], &[]);
        vec![idle, cancelled_early, init, chosen, paying, action, processing, lost, declined, adapter, done, cancelled]
    }

    #[test]
    fn stored_states_round_trip() {
        for f in samples() {
            assert_eq!(restore(&view(&f)).unwrap_or_else(|e| panic!("{}: {e}", view(&f))), f, "{}", view(&f));
        }
    }

    #[test]
    fn tampered_or_stale_stored_states_are_refused() {
        let base = view(&paying("tok_1"));
        let patch = |path: &[&str], value: Option<Value>| {
            let mut v = base.clone();
            let (last, parents) = path.split_last().unwrap();
            let obj = parents.iter().fold(&mut v, |o, k| if let Ok(i) = k.parse::<usize>() { &mut o[i] } else { &mut o[*k] });
            match value {
                Some(x) => obj[*last] = x,
                None => {
                    obj.as_object_mut().unwrap().remove(*last);
                }
            }
            restore(&v)
        };
        let cases: Vec<(Result<Flow>, &str)> = vec![
            (patch(&["state"], Some(json!("pending"))), "state: unknown checkout state"),
            (patch(&["state"], Some(json!(3))), "state: unknown checkout state"),
            (patch(&["session"], None), "missing field `session.sessionId`"),
            (patch(&["session", "amount"], Some(json!(1))), "does not match"),
            (patch(&["session", "amount"], Some(json!(5298.5))), "session.amount: expected a safe integer"),
            (patch(&["session", "amount"], Some(json!("5298"))), "session.amount: expected a safe integer"),
            (patch(&["session", "processor"], Some(json!("paypal"))), "session.processor"),
            (patch(&["session", "currency"], Some(json!("usd"))), "session.currency"),
            (patch(&["session", "items"], Some(json!([]))), "session.items: must not be empty"),
            (patch(&["session", "items", "0", "quantity"], Some(json!(0))), "session.items: every item needs a variantId and a quantity of at least 1"),
            (patch(&["session", "items", "0", "quantity"], Some(json!(-1))), "session.items.0.quantity: expected an integer"),
            (patch(&["session", "items", "1", "variantId"], None), "session.items: every item needs"),
            (patch(&["session", "extra"], Some(json!(1))), "session.extra: unknown member"),
            (patch(&["shipping", "address", "email"], Some(json!("nope"))), "shippingAddress.email"),
            (patch(&["shipping", "address", "phone"], Some(json!(12))), "shipping.address.phone: expected a string"),
            (patch(&["shipping", "rate", "id"], Some(json!(""))), "shipping.rate.id"),
            (patch(&["shipping", "rate", "deliveryTimeframeMin"], Some(json!(-1))), "deliveryTimeframeMin"),
            (patch(&["attempt", "token"], Some(json!(" "))), "attempt.token"),
            (patch(&["attempt", "returnUrl"], Some(json!("javascript:alert(1)"))), "returnUrl"),
            (patch(&["attempt", "confirmInFlight"], Some(json!("yes"))), "attempt.confirmInFlight: expected a boolean"),
            (patch(&["attempt", "lastStatus"], Some(json!("paid"))), "attempt.lastStatus"),
            (patch(&["attempt"], Some(Value::Null)), "attempt: unknown member"),
            (patch(&["attempt"], None), "missing field `attempt.token`"),
            (patch(&["clientSecret"], Some(json!("x"))), "clientSecret: unknown member"),
        ];
        for (r, needle) in cases {
            assert_arg_err(r.map(|_| ()), needle);
        }
        let mut action = view(&{
            let mut f = paying("tok_1");
            confirm(&mut f, "requires_action", "sec", "").unwrap();
            f
        });
        action["attempt"]["confirmInFlight"] = json!(true);
        assert_arg_err(restore(&action), "a confirm in flight outside `paying`");
        action["attempt"]["confirmInFlight"] = json!(false);
        action["clientSecret"] = json!("");
        assert_arg_err(restore(&action), "clientSecret: must not be empty");
        let mut failed = view(&{
            let mut f = paying("tok_1");
            ok(&mut f, CONFIRM_FAILED, &["network", "x"], &[]);
            f
        });
        failed["pending"]["confirmInFlight"] = json!(true);
        assert_arg_err(restore(&failed), "pending.confirmInFlight");
        failed["pending"] = json!("tok_1");
        assert_arg_err(restore(&failed), "pending: expected an object or null");
        failed["pending"] = Value::Null;
        failed["code"] = json!("oops");
        assert_arg_err(restore(&failed), "code: unknown failure code");
        failed["code"] = json!("request");
        failed["errorCode"] = json!("oops");
        assert_arg_err(restore(&failed), "errorCode: unknown error code");
        assert_arg_err(Flow::from_entries(&sv(&["state"])), "odd number");
        assert_arg_err(Flow::from_entries(&sv(&["state", "sidle", "session.amount", "n1e+21"])), "session.amount: unknown member");
        let e = Flow::from_entries(&sv(&["state", "spaying", "x", "btrue"])).unwrap_err();
        assert!(e.message.starts_with("stored checkout state is not valid: "), "{e}");
        // Every member of a sample is required (nullable ones may be absent).
        for f in samples() {
            let full = view(&f);
            for key in full.as_object().unwrap().keys() {
                let mut v = full.clone();
                v.as_object_mut().unwrap().remove(key);
                let nullable = full[key].is_null()
                    || matches!(key.as_str(), "errorCode" | "pending" | "sessionId")
                    || (key == "paymentIntentId" && full["state"] == "failed");
                assert_eq!(restore(&v).is_ok(), nullable, "{key} removed from {full}");
            }
        }
    }

    /// No input panics, and odd inputs are errors: every event on every sample state with
    /// odd arguments, and stored entries cut, shuffled or retyped.
    /// - events that read their arguments fail on every odd set (OPTIONS accepts exactly
    ///   the one well-formed set among them);
    /// - events that take no arguments (or only a free-text message) are accepted or refused
    ///   by the state alone: the odd arguments change nothing;
    /// - stored entries cut short or with a key and a value swapped are refused; a retyped
    ///   entry is refused unless it keeps the member's type (an empty string, a `null` for a
    ///   nullable member, `-0` for a number, `true` for a boolean) and a retyped key is always
    ///   refused.
    #[test]
    fn odd_inputs_are_errors_never_panics() {
        let strings: [&[&str]; 5] = [&[], &[""], &["\u{0}"; 3], &["x"; 17], &["USD", "v1", "v1", "r", "1", "", ""]];
        let numbers: [&[f64]; 6] = [&[], &[f64::NAN], &[f64::INFINITY; 6], &[-1.0; 8], &[1e300, 2.0, 3.0], &[1.0, 1.0, 0.0, 0.0, 0.0]];
        let reads_args = [INITIATED, OPTIONS, UPDATE, CHOSEN, PAY, BEGIN, CONFIRMED, 15, 16];
        let no_args = [CAN_SHIP, RESUME, CONFIRM_FAILED, ACTION_DONE, ADAPTER_FAILED, CANCEL, UNSETTLED, FINAL];
        assert_eq!(reads_args.len() + no_args.len(), 17, "every event 0..=16 is classified");
        let (mut refused, mut accepted_options) = (0, 0);
        for f in samples() {
            for ev in 0..=16 {
                let plain = f.clone().step(ev, &sv(&["x"]), &[]).is_ok();
                for (si, s) in strings.iter().enumerate() {
                    for (ni, n) in numbers.iter().enumerate() {
                        let r = f.clone().step(ev, &sv(s), n);
                        if let Err(e) = &r {
                            assert!(matches!(e.code, ErrorCode::InvalidArgument | ErrorCode::InvalidState | ErrorCode::Decode), "event {ev}: {e}");
                            refused += 1;
                        }
                        if reads_args.contains(&ev) {
                            let well_formed = ev == OPTIONS && si == 4 && ni == 5;
                            assert_eq!(r.is_ok(), well_formed, "event {ev} on {} with strings #{si}, numbers #{ni}", view(&f));
                            accepted_options += usize::from(well_formed);
                        } else {
                            assert_eq!(r.is_ok(), plain, "event {ev} on {}: the arguments (#{si}, #{ni}) decided", view(&f));
                        }
                    }
                }
            }
            let mut e = Vec::new();
            flatten(&view(&f), "", &mut e);
            for i in 0..e.len() {
                assert!(Flow::from_entries(&e[..i]).is_err(), "cut after {i} entries of {e:?}");
                let mut swapped = e.clone();
                swapped.swap(i, (i + 3) % e.len());
                assert!(Flow::from_entries(&swapped).is_err(), "entries {i} and {} swapped: {swapped:?}", (i + 3) % e.len());
                for v in ["", "s", "n", "n-0", "n99999999999999999999", "btrue", "onull", "x"] {
                    let mut t = e.clone();
                    t[i] = v.to_owned();
                    if t == e || Flow::from_entries(&t).is_err() {
                        continue;
                    }
                    let same_type = i % 2 == 1 && matches!((&e[i][..1], v), ("s" | "o", "s" | "onull") | ("n", "n-0") | ("b", "btrue"));
                    assert!(same_type, "{} retyped from {:?} to {v:?} was accepted", e[i - i % 2], e[i]);
                }
            }
        }
        assert!(refused > 2_000, "odd inputs refused: {refused}");
        assert_eq!(accepted_options, samples().len(), "OPTIONS accepts its one well-formed set in every state");
    }

    /// Field names of a `{ … }` block of TypeScript (no nested braces).
    fn ts_fields(block: &str) -> Vec<String> {
        let mut out: Vec<String> = block
            .split(';')
            .filter_map(|f| f.split_once(':'))
            .map(|(name, _)| name.trim().trim_end_matches('?').to_owned())
            .filter(|n| !n.is_empty())
            .collect();
        out.sort();
        out
    }

    fn ts_without_comments() -> String {
        let ts = include_str!("../js/adapters/checkout-types.d.ts");
        let mut out = String::new();
        let mut rest = ts;
        while let Some(i) = rest.find("/*") {
            out.push_str(&rest[..i]);
            rest = rest[i..].split_once("*/").map_or("", |(_, r)| r);
        }
        out.push_str(rest);
        out.lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
    }

    fn ts_interface(ts: &str, name: &str) -> Vec<String> {
        let start = ts.find(&format!("export interface {name} {{")).unwrap_or_else(|| panic!("no interface {name}"));
        let body = &ts[start..];
        let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
        ts_fields(body)
    }

    fn json_keys(v: &Value) -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    }

    /// The hand-written TypeScript (js/adapters/checkout-types.d.ts) against
    /// the stored / shown form the machine reads back: same states, same
    /// members per state, same nested objects, same failure codes.
    #[test]
    fn typescript_matches_the_stored_form() {
        let ts = ts_without_comments();
        let views: Vec<Value> = samples().iter().map(view).collect();
        let union = &ts[ts.find("export type CheckoutState =").expect("CheckoutState union")..];
        let mut seen = Vec::new();
        for member in union.split('{').skip(1) {
            let body = member.split('}').next().unwrap();
            let name = body.split('"').nth(1).unwrap();
            let sample = views.iter().find(|v| v["state"] == name).unwrap_or_else(|| panic!("TS state {name} has no sample"));
            assert_eq!(ts_fields(body), json_keys(sample), "fields of state {name}");
            seen.push(name.to_owned());
        }
        assert_eq!(seen.len(), TAGS.len(), "every state is in the TS union: {seen:?}");
        let paying = views.iter().find(|v| v["state"] == "paying").unwrap();
        assert_eq!(ts_interface(&ts, "CheckoutSession"), json_keys(&paying["session"]));
        assert_eq!(ts_interface(&ts, "PaymentAttempt"), json_keys(&paying["attempt"]));
        assert_eq!(ts_interface(&ts, "ShippingChoice"), json_keys(&paying["shipping"]));
        let expect = FAILURES.map(|(_, n)| format!("\"{n}\"")).join(" | ");
        assert!(ts.contains(&format!("export type CheckoutFailureCode = {expect};")), "{expect}");
        // The address order the boundary uses is the ShippingAddress members'.
        let address = &paying["shipping"]["address"];
        for k in json_keys(address) {
            assert!(ADDRESS_FIELDS.contains(&k.as_str()), "{k}");
        }
    }
}
