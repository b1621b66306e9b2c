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
//! The state is serde-serializable so the browser binding can keep it in
//! `sessionStorage` and resume after a reload or a 3-D Secure redirect. It
//! records everything a resume needs: the session, the chosen rate and
//! address, the confirmation token already sent and whether a confirm with it
//! may have reached the server, and the last known payment status.
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

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode, Result};
use crate::model::{
    Breakdown, ConfirmRequest, ConfirmResponse, InitiateResponse, PaymentItem, PaymentStatus,
    Processor, ShippingAddress, ShippingRate, UpdateRequest, UpdateResponse,
};

/// Longest accepted value of any address field (characters).
pub const MAX_ADDRESS_FIELD: usize = 200;

/// The payment session as initiate / update last described it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Session {
    pub session_id: String,
    pub processor: Processor,
    /// The processor's client-side key (handed to the processor adapter).
    pub publishable_key: String,
    pub currency: String,
    /// Integer minor units; always `breakdown.total`.
    pub amount: i64,
    pub breakdown: Breakdown,
    /// What was initiated (variant ids and quantities).
    pub items: Vec<PaymentItem>,
}

/// The buyer's shipping choice, as accepted by the server's update.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingChoice {
    pub rate: ShippingRate,
    pub address: ShippingAddress,
}

/// One payment attempt: a confirmation token and what is known about it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Attempt {
    /// `ctoken_…` (Stripe) or `tok_…` (localstripe). Every confirm of this
    /// attempt sends this same token.
    pub token: String,
    pub return_url: String,
    /// True from the moment a confirm is handed to the transport until its
    /// answer is applied: after a reload in this state the server may or may
    /// not have the payment, so only a repeat with the same token is safe.
    pub confirm_in_flight: bool,
    /// Known once a confirm answered.
    pub payment_intent_id: Option<String>,
    /// The processor's status from the last confirm answer.
    pub last_status: Option<PaymentStatus>,
}

/// Why a payment attempt failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureCode {
    /// The processor declined the payment method.
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

/// The checkout, as a tagged union (`state` is the tag on the wire and in
/// TypeScript).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(tag = "state", rename_all = "snake_case", rename_all_fields = "camelCase")]
pub enum CheckoutState {
    /// Nothing initiated yet.
    #[default]
    Idle,
    /// A payment session exists; no shipping choice yet.
    Initiated { session: Session },
    /// Shipping rate and address accepted by the server; ready to pay.
    ShippingChosen { session: Session, shipping: ShippingChoice },
    /// A confirm is being sent or its answer is awaited (or the processor
    /// reported `processing`; paying again re-reads it).
    Paying { session: Session, shipping: ShippingChoice, attempt: Attempt },
    /// The processor asks for a next action (3-D Secure) on `clientSecret`.
    RequiresAction {
        session: Session,
        shipping: ShippingChoice,
        attempt: Attempt,
        client_secret: String,
    },
    /// Paid; the order is recorded. Final.
    Succeeded { session: Session, shipping: ShippingChoice, payment_intent_id: String },
    /// The attempt failed. When `retryable`, `pay` may be called again; if
    /// `pending` is set, the outcome of that attempt is unknown and the retry
    /// confirms it again with the same token instead of collecting a new one.
    Failed {
        session: Session,
        shipping: ShippingChoice,
        code: FailureCode,
        /// The core error code, for `code: "request"` failures.
        error_code: Option<ErrorCode>,
        message: String,
        retryable: bool,
        pending: Option<Attempt>,
        payment_intent_id: Option<String>,
    },
    /// Abandoned by the buyer before any payment existed. Final.
    Cancelled { session_id: Option<String> },
}

/// What `pay` has to do next.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayStep {
    /// Ask the processor adapter for a fresh confirmation token, then call
    /// [`CheckoutState::begin_confirm`] with it.
    CollectToken,
    /// Confirm again with this token (a previous confirm's outcome is
    /// unknown); call [`CheckoutState::begin_confirm`] with it.
    Reconfirm(String),
}

/// What the caller does after a confirm answer was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterConfirm {
    /// Final: `succeeded` or `failed`.
    Done,
    /// Run the adapter's next action on this client secret, then
    /// [`CheckoutState::action_finished`] and confirm again.
    NextAction(String),
    /// The processor is still `processing`; pay again later to re-read it.
    Processing,
}

impl CheckoutState {
    /// The wire name of the state (`"idle"`, `"shipping_chosen"`, …).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Initiated { .. } => "initiated",
            Self::ShippingChosen { .. } => "shipping_chosen",
            Self::Paying { .. } => "paying",
            Self::RequiresAction { .. } => "requires_action",
            Self::Succeeded { .. } => "succeeded",
            Self::Failed { .. } => "failed",
            Self::Cancelled { .. } => "cancelled",
        }
    }

    /// The session, in every state that has one.
    #[must_use]
    pub const fn session(&self) -> Option<&Session> {
        match self {
            Self::Idle | Self::Cancelled { .. } => None,
            Self::Initiated { session }
            | Self::ShippingChosen { session, .. }
            | Self::Paying { session, .. }
            | Self::RequiresAction { session, .. }
            | Self::Succeeded { session, .. }
            | Self::Failed { session, .. } => Some(session),
        }
    }

    /// True in `succeeded` and `cancelled`, and in `failed` when not retryable.
    #[must_use]
    pub const fn is_final(&self) -> bool {
        matches!(
            self,
            Self::Succeeded { .. } | Self::Cancelled { .. } | Self::Failed { retryable: false, .. }
        )
    }

    /// True while a payment may exist on the processor whose outcome this
    /// checkout has not settled: `paying`, `requires_action`, or `failed` with a
    /// pending attempt. In these states only the same token may be confirmed
    /// and the checkout cannot be cancelled or changed.
    #[must_use]
    pub const fn payment_unsettled(&self) -> bool {
        matches!(
            self,
            Self::Paying { .. } | Self::RequiresAction { .. } | Self::Failed { pending: Some(_), .. }
        )
    }

    fn illegal(&self, action: &str) -> Error {
        Error::invalid_state(format!("cannot {action} in checkout state `{}`", self.name()))
    }

    /// Decode a state kept by [`CheckoutState::to_json`] (e.g. from `sessionStorage`).
    ///
    /// # Errors
    /// `invalid_argument` if the text is not a checkout state.
    pub fn from_json(text: &str) -> Result<Self> {
        serde_json::from_str(text)
            .map_err(|e| Error::invalid_argument(format!("stored checkout state is not valid: {e}")))
    }

    /// The state as JSON text, for `sessionStorage`.
    #[must_use]
    pub fn to_json(&self) -> String {
        // Serializing these plain data types cannot fail (string keys only).
        serde_json::to_string(self).unwrap_or_default()
    }

    /// `idle` → `initiated` with the answer of `POST /payments/initiate`.
    ///
    /// # Errors
    /// `invalid_state` unless idle; `invalid_argument` if the answer is
    /// inconsistent (`amount != breakdown.total`, no items).
    pub fn initiated(&mut self, items: Vec<PaymentItem>, answer: InitiateResponse) -> Result<()> {
        if !matches!(self, Self::Idle) {
            return Err(self.illegal("initiate"));
        }
        if items.is_empty() {
            return Err(Error::invalid_argument("items must not be empty"));
        }
        check_amount(answer.amount, &answer.breakdown)?;
        *self = Self::Initiated {
            session: Session {
                session_id: answer.session_id,
                processor: answer.processor,
                publishable_key: answer.publishable_key,
                currency: answer.currency,
                amount: answer.amount,
                breakdown: answer.breakdown,
                items,
            },
        };
        Ok(())
    }

    /// The session whose shipping may change now: in `initiated`,
    /// `shipping_chosen`, and retryable `failed` while no payment exists.
    ///
    /// # Errors
    /// `invalid_state` in any other state.
    pub fn shipping_session(&self) -> Result<&Session> {
        match self {
            Self::Initiated { session }
            | Self::ShippingChosen { session, .. }
            | Self::Failed { session, pending: None, payment_intent_id: None, retryable: true, .. } => Ok(session),
            _ => Err(self.illegal("select shipping")),
        }
    }

    /// Build the `POST /payments/update` body for a shipping choice. The
    /// address is validated first ([`validate_address`]).
    ///
    /// Allowed in `initiated`, `shipping_chosen`, and `failed` while no
    /// payment exists yet (a payment's amount must not change under it).
    ///
    /// # Errors
    /// `invalid_state` in any other state; `invalid_argument` naming the
    /// address field or the rate that is wrong.
    pub fn update_request(&self, rate: &ShippingRate, address: &ShippingAddress) -> Result<UpdateRequest> {
        let session = self.shipping_session()?;
        if rate.id.trim().is_empty() {
            return Err(Error::invalid_argument("shipping rate id must not be empty"));
        }
        validate_address(address)?;
        Ok(UpdateRequest {
            session_id: session.session_id.clone(),
            shipping_rate_id: rate.id.clone(),
            shipping_address: address.clone(),
        })
    }

    /// Apply the answer of an update made with [`Self::update_request`]:
    /// → `shipping_chosen` with the new amount.
    ///
    /// # Errors
    /// As [`Self::update_request`]; `invalid_argument` if the answer is for
    /// another session or its amount does not add up.
    pub fn shipping_chosen(&mut self, rate: ShippingRate, address: ShippingAddress, answer: UpdateResponse) -> Result<()> {
        self.update_request(&rate, &address)?;
        let Some(session) = self.session() else { return Err(self.illegal("select shipping")) };
        if answer.session_id != session.session_id {
            return Err(Error::invalid_argument(format!(
                "update answered for session {}, expected {}",
                answer.session_id, session.session_id
            )));
        }
        check_amount(answer.amount, &answer.breakdown)?;
        let mut session = session.clone();
        session.amount = answer.amount;
        session.breakdown = answer.breakdown;
        session.currency = answer.currency;
        *self = Self::ShippingChosen { session, shipping: ShippingChoice { rate, address } };
        Ok(())
    }

    /// What `pay` must do first: collect a new token, or re-confirm the
    /// token whose outcome is unknown.
    ///
    /// # Errors
    /// `invalid_state` before a shipping choice, while a confirm is in
    /// flight or an action is pending, after success, after a final failure,
    /// after cancel.
    pub fn pay_step(&self) -> Result<PayStep> {
        match self {
            Self::ShippingChosen { .. } | Self::Failed { retryable: true, pending: None, .. } => Ok(PayStep::CollectToken),
            Self::Failed { retryable: true, pending: Some(a), .. } => Ok(PayStep::Reconfirm(a.token.clone())),
            // `processing`: the answer came back; re-read with the same token.
            Self::Paying { attempt, .. } if !attempt.confirm_in_flight => Ok(PayStep::Reconfirm(attempt.token.clone())),
            _ => Err(self.illegal("pay")),
        }
    }

    /// The token a resumed checkout must confirm again (after a reload or a
    /// 3-D Secure redirect): set in `paying` and `requires_action`, where a
    /// payment may exist whose outcome the stored state does not know yet.
    #[must_use]
    pub fn resume_token(&self) -> Option<&str> {
        match self {
            Self::Paying { attempt, .. } | Self::RequiresAction { attempt, .. } => Some(&attempt.token),
            _ => None,
        }
    }

    /// Mark a confirm as sent and build its body. From `shipping_chosen` or
    /// retryable `failed` (a new token, or the pending one), from `paying`
    /// after `processing` (same token only), or from `requires_action` after
    /// the next action finished (same token only): → `paying` with
    /// `confirmInFlight`.
    ///
    /// Called on resume too: a state stored while `paying` with a confirm
    /// in flight is resumed by confirming that same token again.
    ///
    /// # Errors
    /// `invalid_state` in other states; `invalid_argument` if the token is
    /// empty, differs from the unsettled one, or the return URL is not an
    /// absolute http(s) URL.
    pub fn begin_confirm(&mut self, token: &str, return_url: &str) -> Result<ConfirmRequest> {
        if token.trim().is_empty() {
            return Err(Error::invalid_argument("confirmation token must not be empty"));
        }
        let (session, shipping, attempt) = match self {
            Self::ShippingChosen { session, shipping } | Self::Failed { session, shipping, retryable: true, pending: None, .. } => {
                validate_return_url(return_url)?;
                let attempt = Attempt {
                    token: token.to_owned(),
                    return_url: return_url.to_owned(),
                    confirm_in_flight: true,
                    payment_intent_id: None,
                    last_status: None,
                };
                (session, shipping, attempt)
            }
            Self::Failed { session, shipping, retryable: true, pending: Some(a), .. }
            | Self::Paying { session, shipping, attempt: a }
            | Self::RequiresAction { session, shipping, attempt: a, .. } => {
                if a.token != token {
                    return Err(Error::invalid_argument(format!(
                        "a confirm with token {} may already have reached the server; only that token may be confirmed again",
                        a.token
                    )));
                }
                let mut attempt = a.clone();
                attempt.confirm_in_flight = true;
                (session, shipping, attempt)
            }
            _ => return Err(self.illegal("confirm")),
        };
        let request = ConfirmRequest {
            session_id: session.session_id.clone(),
            confirmation_token_id: attempt.token.clone(),
            shipping_rate_id: shipping.rate.id.clone(),
            shipping_address: shipping.address.clone(),
            return_url: attempt.return_url.clone(),
        };
        *self = Self::Paying { session: session.clone(), shipping: shipping.clone(), attempt };
        Ok(request)
    }

    /// Apply a confirm answer (only valid in `paying` with a confirm in
    /// flight).
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
    pub fn confirmed(&mut self, answer: ConfirmResponse) -> Result<AfterConfirm> {
        let Self::Paying { session, shipping, attempt } = self else { return Err(self.illegal("apply a confirm answer")) };
        if !attempt.confirm_in_flight {
            return Err(Error::invalid_state("no confirm is in flight"));
        }
        let was_action = attempt.last_status == Some(PaymentStatus::RequiresAction);
        let (session, shipping) = (session.clone(), shipping.clone());
        let mut attempt = attempt.clone();
        attempt.confirm_in_flight = false;
        attempt.last_status = Some(answer.status);
        if answer.payment_intent_id.is_some() {
            attempt.payment_intent_id.clone_from(&answer.payment_intent_id);
        }
        let failed = |code, message: String, retryable, pending: Option<Attempt>, pi: Option<String>| Self::Failed {
            session: session.clone(),
            shipping: shipping.clone(),
            code,
            error_code: None,
            message,
            retryable,
            pending,
            payment_intent_id: pi,
        };
        let (next, after) = match answer.status {
            PaymentStatus::Succeeded => {
                let pi = attempt.payment_intent_id.clone().unwrap_or_default();
                (Self::Succeeded { session: session.clone(), shipping: shipping.clone(), payment_intent_id: pi }, AfterConfirm::Done)
            }
            PaymentStatus::RequiresAction => match answer.client_secret {
                Some(secret) if !secret.is_empty() => (
                    Self::RequiresAction { session: session.clone(), shipping: shipping.clone(), attempt, client_secret: secret.clone() },
                    AfterConfirm::NextAction(secret),
                ),
                _ => {
                    let message = "confirm answered requires_action without a clientSecret".to_owned();
                    let mut next = failed(FailureCode::Request, message.clone(), true, Some(attempt.clone()), attempt.payment_intent_id.clone());
                    if let Self::Failed { error_code, .. } = &mut next {
                        *error_code = Some(ErrorCode::Decode);
                    }
                    *self = next;
                    return Err(Error::decode(message));
                }
            },
            PaymentStatus::RequiresPaymentMethod => {
                let (code, fallback) = if was_action {
                    (FailureCode::ActionFailed, "authentication failed; try again or use another card")
                } else {
                    (FailureCode::Declined, "the card was declined; try again or use another card")
                };
                let message = answer.error.filter(|e| !e.trim().is_empty()).unwrap_or_else(|| fallback.to_owned());
                (failed(code, message, true, None, attempt.payment_intent_id.clone()), AfterConfirm::Done)
            }
            PaymentStatus::Canceled => {
                let message = answer.error.unwrap_or_else(|| "the payment was canceled".to_owned());
                (failed(FailureCode::Canceled, message, false, None, attempt.payment_intent_id.clone()), AfterConfirm::Done)
            }
            PaymentStatus::Processing => {
                (Self::Paying { session: session.clone(), shipping: shipping.clone(), attempt }, AfterConfirm::Processing)
            }
        };
        *self = next;
        Ok(after)
    }

    /// A confirm got no usable answer (network, timeout, server error):
    /// → `failed` with `code: "request"`. The attempt stays pending (the
    /// server may have the payment), so a retry confirms the same token.
    /// Retryable unless the server said the request itself is wrong
    /// (`invalid_request`, `not_found`, `conflict`, `unauthorized`, …).
    ///
    /// # Errors
    /// `invalid_state` outside an in-flight confirm.
    pub fn confirm_failed(&mut self, error: &Error) -> Result<()> {
        let Self::Paying { session, shipping, attempt } = self else { return Err(self.illegal("fail a confirm")) };
        if !attempt.confirm_in_flight {
            return Err(Error::invalid_state("no confirm is in flight"));
        }
        let retryable = matches!(
            error.code,
            ErrorCode::Network
                | ErrorCode::Timeout
                | ErrorCode::Aborted
                | ErrorCode::Decode
                | ErrorCode::Http
                | ErrorCode::RateLimited
                | ErrorCode::ProcessorError
                | ErrorCode::Internal
        );
        let mut pending = attempt.clone();
        pending.confirm_in_flight = false;
        *self = Self::Failed {
            session: session.clone(),
            shipping: shipping.clone(),
            code: FailureCode::Request,
            error_code: Some(error.code),
            message: error.message.clone(),
            retryable,
            payment_intent_id: pending.payment_intent_id.clone(),
            pending: Some(pending),
        };
        Ok(())
    }

    /// The adapter finished the next action (either outcome: the following
    /// confirm tells which). Returns the token to confirm again.
    ///
    /// # Errors
    /// `invalid_state` unless `requires_action`.
    pub fn action_finished(&self) -> Result<String> {
        match self {
            Self::RequiresAction { attempt, .. } => Ok(attempt.token.clone()),
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
        let message = if message.trim().is_empty() { "the payment form reported an error".to_owned() } else { message.to_owned() };
        let next = match self {
            Self::RequiresAction { session, shipping, attempt, .. } => Self::Failed {
                session: session.clone(),
                shipping: shipping.clone(),
                code: FailureCode::ActionFailed,
                error_code: None,
                message,
                retryable: true,
                payment_intent_id: attempt.payment_intent_id.clone(),
                pending: Some(attempt.clone()),
            },
            Self::ShippingChosen { session, shipping } => Self::Failed {
                session: session.clone(),
                shipping: shipping.clone(),
                code: FailureCode::Adapter,
                error_code: None,
                message,
                retryable: true,
                pending: None,
                payment_intent_id: None,
            },
            Self::Failed { retryable: true, pending: None, code, message: m, error_code, .. } => {
                *code = FailureCode::Adapter;
                *error_code = None;
                *m = message;
                return Ok(());
            }
            _ => return Err(self.illegal("report an adapter failure")),
        };
        *self = next;
        Ok(())
    }

    /// Abandon the checkout → `cancelled`.
    ///
    /// # Errors
    /// `invalid_state` while a payment is unsettled (it might still succeed
    /// and must be finished, not forgotten), after success, or when already
    /// cancelled.
    pub fn cancel(&mut self) -> Result<()> {
        if self.payment_unsettled() || matches!(self, Self::Succeeded { .. } | Self::Cancelled { .. }) {
            return Err(self.illegal("cancel"));
        }
        let session_id = self.session().map(|s| s.session_id.clone());
        *self = Self::Cancelled { session_id };
        Ok(())
    }
}

fn check_amount(amount: i64, b: &Breakdown) -> Result<()> {
    let sum = b.subtotal.checked_add(b.shipping).and_then(|s| s.checked_add(b.tax));
    if amount < 0 || b.total != amount || sum != Some(b.total) {
        return Err(Error::invalid_argument(format!(
            "payment amount {amount} does not match breakdown {} + {} + {} = {}",
            b.subtotal, b.shipping, b.tax, b.total
        )));
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
        return Err(Error::invalid_argument(format!(
            "returnUrl must be an absolute http(s) URL, got {:?}",
            truncate(url, 80)
        )));
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
            return Err(Error::invalid_argument(format!("shippingAddress.{name} is required")));
        }
    }
    let optional = [("address2", &a.address2), ("state", &a.state), ("phone", &a.phone)];
    let all = required.into_iter().chain(optional.into_iter().filter_map(|(n, v)| v.as_ref().map(|v| (n, v))));
    for (name, value) in all {
        if value.chars().count() > MAX_ADDRESS_FIELD {
            return Err(Error::invalid_argument(format!(
                "shippingAddress.{name} is longer than {MAX_ADDRESS_FIELD} characters"
            )));
        }
        if value.chars().any(char::is_control) {
            return Err(Error::invalid_argument(format!("shippingAddress.{name} contains control characters")));
        }
    }
    if !email_shaped(&a.email) {
        return Err(Error::invalid_argument(format!(
            "shippingAddress.email is not an e-mail address: {:?}",
            truncate(&a.email, 80)
        )));
    }
    if !(a.country.len() == 2 && a.country.bytes().all(|b| b.is_ascii_uppercase())) {
        return Err(Error::invalid_argument(format!(
            "shippingAddress.country must be an uppercase ISO 3166-1 alpha-2 code like \"DE\", got {:?}",
            truncate(&a.country, 20)
        )));
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
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item() -> PaymentItem {
        PaymentItem { variant_id: "var_1".into(), quantity: 2 }
    }

    fn initiate() -> InitiateResponse {
        InitiateResponse {
            processor: Processor::Stripe,
            session_id: "ps_1".into(),
            publishable_key: "pk_test_localstripe".into(),
            amount: 3998,
            currency: "USD".into(),
            breakdown: Breakdown { subtotal: 3998, shipping: 0, tax: 0, total: 3998 },
        }
    }

    fn rate() -> ShippingRate {
        ShippingRate {
            id: "rate_std".into(),
            name: "Standard".into(),
            price: "5.00".into(),
            delivery_description: "3-5 days".into(),
            delivery_timeframe_min: 3,
            delivery_timeframe_max: 5,
            min_order_price: None,
            max_order_price: None,
        }
    }

    fn address() -> ShippingAddress {
        ShippingAddress {
            email: "ada@example.com".into(),
            first_name: "Ada".into(),
            last_name: "Lovelace".into(),
            address1: "1 Analytical St".into(),
            address2: None,
            city: "London".into(),
            state: None,
            postal_code: "N1 9GU".into(),
            country: "GB".into(),
            phone: None,
        }
    }

    fn updated() -> UpdateResponse {
        UpdateResponse {
            session_id: "ps_1".into(),
            amount: 5298,
            currency: "USD".into(),
            breakdown: Breakdown { subtotal: 3998, shipping: 500, tax: 800, total: 5298 },
        }
    }

    fn answer(status: PaymentStatus, secret: Option<&str>, error: Option<&str>) -> ConfirmResponse {
        ConfirmResponse {
            success: status == PaymentStatus::Succeeded,
            status,
            client_secret: secret.map(Into::into),
            payment_intent_id: Some("pi_1".into()),
            error: error.map(Into::into),
        }
    }

    fn chosen() -> CheckoutState {
        let mut s = CheckoutState::Idle;
        s.initiated(vec![item()], initiate()).unwrap();
        s.shipping_chosen(rate(), address(), updated()).unwrap();
        s
    }

    const URL: &str = "https://shop.example/return";

    fn assert_state_err(r: Result<impl std::fmt::Debug>, needle: &str) {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
        assert!(e.message.contains(needle), "{e}");
    }

    #[test]
    fn happy_path_reaches_succeeded() {
        let mut s = CheckoutState::Idle;
        s.initiated(vec![item()], initiate()).unwrap();
        assert_eq!(s.name(), "initiated");
        let req = s.update_request(&rate(), &address()).unwrap();
        assert_eq!((req.session_id.as_str(), req.shipping_rate_id.as_str()), ("ps_1", "rate_std"));
        s.shipping_chosen(rate(), address(), updated()).unwrap();
        assert_eq!(s.session().unwrap().amount, 5298);
        assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
        let req = s.begin_confirm("tok_1", URL).unwrap();
        assert_eq!(req.confirmation_token_id, "tok_1");
        assert_eq!(req.shipping_address, address());
        assert!(s.payment_unsettled());
        assert_eq!(s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap(), AfterConfirm::Done);
        assert!(matches!(&s, CheckoutState::Succeeded { payment_intent_id, .. } if payment_intent_id == "pi_1"));
        assert!(s.is_final());
    }

    #[test]
    fn illegal_steps_are_invalid_state_errors() {
        let idle = CheckoutState::Idle;
        assert_state_err(idle.pay_step(), "cannot pay in checkout state `idle`");
        assert_state_err(idle.update_request(&rate(), &address()), "cannot select shipping");
        let mut initiated = CheckoutState::Idle;
        initiated.initiated(vec![item()], initiate()).unwrap();
        // Pay before a shipping choice.
        assert_state_err(initiated.pay_step(), "`initiated`");
        assert_state_err(initiated.clone().begin_confirm("tok_1", URL), "cannot confirm");
        // Initiate twice.
        assert_state_err(initiated.initiated(vec![item()], initiate()), "cannot initiate");
        // Select shipping after success.
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
        assert_state_err(s.update_request(&rate(), &address()), "`succeeded`");
        assert_state_err(s.shipping_chosen(rate(), address(), updated()), "`succeeded`");
        assert_state_err(s.pay_step(), "`succeeded`");
        assert_state_err(s.cancel(), "cannot cancel");
        assert_state_err(s.confirmed(answer(PaymentStatus::Succeeded, None, None)), "`succeeded`");
        // Confirm answers without a confirm in flight.
        let mut c = chosen();
        assert_state_err(c.confirmed(answer(PaymentStatus::Succeeded, None, None)), "`shipping_chosen`");
        assert_state_err(c.confirm_failed(&Error::new(ErrorCode::Network, "x")), "`shipping_chosen`");
        assert_state_err(c.action_finished(), "`shipping_chosen`");
    }

    #[test]
    fn no_second_pay_while_a_confirm_is_in_flight() {
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        assert_state_err(s.pay_step(), "`paying`");
        // A different token can never be confirmed while tok_1 may be live.
        let e = s.begin_confirm("tok_2", URL).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.contains("tok_1"), "{e}");
        assert_state_err(s.cancel(), "cannot cancel in checkout state `paying`");
        assert_state_err(s.update_request(&rate(), &address()), "`paying`");
    }

    #[test]
    fn three_d_secure_round_trip_confirms_the_same_token() {
        let mut s = chosen();
        s.begin_confirm("tok_3ds", URL).unwrap();
        let next = s.confirmed(answer(PaymentStatus::RequiresAction, Some("pi_1_secret_x"), None)).unwrap();
        assert_eq!(next, AfterConfirm::NextAction("pi_1_secret_x".into()));
        assert_eq!(s.name(), "requires_action");
        assert_state_err(s.pay_step(), "`requires_action`");
        assert_state_err(s.cancel(), "`requires_action`");
        let token = s.action_finished().unwrap();
        assert_eq!(token, "tok_3ds");
        let req = s.begin_confirm(&token, URL).unwrap();
        assert_eq!(req.confirmation_token_id, "tok_3ds");
        s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
        assert_eq!(s.name(), "succeeded");
    }

    #[test]
    fn failed_authentication_is_retryable_with_a_new_token() {
        let mut s = chosen();
        s.begin_confirm("tok_3ds", URL).unwrap();
        s.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
        let t = s.action_finished().unwrap();
        s.begin_confirm(&t, URL).unwrap();
        s.confirmed(answer(PaymentStatus::RequiresPaymentMethod, None, None)).unwrap();
        match &s {
            CheckoutState::Failed { code, retryable, pending, payment_intent_id, message, .. } => {
                assert_eq!(*code, FailureCode::ActionFailed);
                assert!(*retryable);
                assert!(pending.is_none());
                assert_eq!(payment_intent_id.as_deref(), Some("pi_1"));
                assert!(message.contains("authentication"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!s.is_final());
        assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
        // A payment exists: its amount must not change under it.
        assert_state_err(s.update_request(&rate(), &address()), "cannot select shipping");
        s.begin_confirm("tok_new", URL).unwrap();
        assert_eq!(s.name(), "paying");
    }

    #[test]
    fn decline_then_retry_with_a_new_token() {
        let mut s = chosen();
        s.begin_confirm("tok_declined", URL).unwrap();
        s.confirmed(answer(PaymentStatus::RequiresPaymentMethod, None, Some("Your card was declined."))).unwrap();
        assert!(matches!(&s, CheckoutState::Failed { code: FailureCode::Declined, retryable: true, message, .. } if message == "Your card was declined."));
        assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
        let req = s.begin_confirm("tok_good", URL).unwrap();
        assert_eq!(req.confirmation_token_id, "tok_good");
        s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
        assert_eq!(s.name(), "succeeded");
    }

    #[test]
    fn lost_confirm_keeps_the_token_and_retries_it() {
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        s.confirm_failed(&Error::new(ErrorCode::Network, "connection reset")).unwrap();
        match &s {
            CheckoutState::Failed { code: FailureCode::Request, error_code: Some(ErrorCode::Network), retryable: true, pending: Some(a), .. } => {
                assert_eq!(a.token, "tok_1");
                assert!(!a.confirm_in_flight);
            }
            other => panic!("{other:?}"),
        }
        assert!(s.payment_unsettled());
        assert_state_err(s.cancel(), "`failed`");
        assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
        assert_eq!(s.begin_confirm("tok_2", URL).unwrap_err().code, ErrorCode::InvalidArgument);
        s.begin_confirm("tok_1", URL).unwrap();
        s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
        assert_eq!(s.name(), "succeeded");
    }

    #[test]
    fn request_errors_that_cannot_heal_are_final() {
        for (code, retryable) in [
            (ErrorCode::Conflict, false),
            (ErrorCode::NotFound, false),
            (ErrorCode::InvalidRequest, false),
            (ErrorCode::Timeout, true),
            (ErrorCode::Internal, true),
            (ErrorCode::RateLimited, true),
            (ErrorCode::ProcessorError, true),
        ] {
            let mut s = chosen();
            s.begin_confirm("tok_1", URL).unwrap();
            s.confirm_failed(&Error::new(code, "x")).unwrap();
            assert_eq!(s.is_final(), !retryable, "{code}");
            assert_eq!(s.pay_step().is_ok(), retryable, "{code}");
        }
    }

    #[test]
    fn requires_action_without_secret_is_a_decode_error_and_stays_pending() {
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        let e = s.confirmed(answer(PaymentStatus::RequiresAction, None, None)).unwrap_err();
        assert_eq!(e.code, ErrorCode::Decode);
        assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    }

    #[test]
    fn processing_is_re_read_with_the_same_token() {
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        assert_eq!(s.confirmed(answer(PaymentStatus::Processing, None, None)).unwrap(), AfterConfirm::Processing);
        assert_eq!(s.name(), "paying");
        assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    }

    #[test]
    fn canceled_payment_is_final() {
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        s.confirmed(answer(PaymentStatus::Canceled, None, None)).unwrap();
        assert!(matches!(s, CheckoutState::Failed { code: FailureCode::Canceled, retryable: false, .. }));
        assert!(s.is_final());
    }

    #[test]
    fn adapter_failures() {
        // Before any confirm: nothing sent, retry collects a new token.
        let mut s = chosen();
        s.adapter_failed("Your card number is incomplete.").unwrap();
        assert!(matches!(&s, CheckoutState::Failed { code: FailureCode::Adapter, pending: None, retryable: true, .. }));
        assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
        // Shipping may still change: no payment exists.
        s.update_request(&rate(), &address()).unwrap();
        s.cancel().unwrap();
        assert!(matches!(&s, CheckoutState::Cancelled { session_id: Some(id) } if id == "ps_1"));
        // During a next action: the payment exists, so the attempt stays pending.
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        s.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
        s.adapter_failed("").unwrap();
        assert!(matches!(&s, CheckoutState::Failed { code: FailureCode::ActionFailed, pending: Some(_), .. }));
        assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    }

    #[test]
    fn state_survives_json_round_trip_with_tagged_shape() {
        let mut s = chosen();
        s.begin_confirm("tok_1", URL).unwrap();
        s.confirmed(answer(PaymentStatus::RequiresAction, Some("pi_1_secret"), None)).unwrap();
        let text = s.to_json();
        let v: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["state"], "requires_action");
        assert_eq!(v["clientSecret"], "pi_1_secret");
        assert_eq!(v["session"]["sessionId"], "ps_1");
        assert_eq!(v["attempt"]["token"], "tok_1");
        assert_eq!(v["attempt"]["confirmInFlight"], false);
        assert_eq!(v["attempt"]["lastStatus"], "requires_action");
        assert_eq!(v["shipping"]["rate"]["id"], "rate_std");
        assert_eq!(v["shipping"]["address"]["country"], "GB");
        let back = CheckoutState::from_json(&text).unwrap();
        assert_eq!(back, s);
        // A stored in-flight confirm resumes with the same token only.
        let mut p = chosen();
        p.begin_confirm("tok_1", URL).unwrap();
        let mut resumed = CheckoutState::from_json(&p.to_json()).unwrap();
        assert!(matches!(&resumed, CheckoutState::Paying { attempt, .. } if attempt.confirm_in_flight));
        assert_eq!(resumed.resume_token(), Some("tok_1"));
        assert_eq!(resumed.begin_confirm("tok_1", URL).unwrap().confirmation_token_id, "tok_1");
        assert_eq!(s.resume_token(), Some("tok_1"));
        assert_eq!(chosen().resume_token(), None);
        assert_eq!(CheckoutState::Idle.to_json(), r#"{"state":"idle"}"#);
        let e = CheckoutState::from_json(r#"{"state":"paying"}"#).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn address_is_checked_field_by_field() {
        let s = {
            let mut s = CheckoutState::Idle;
            s.initiated(vec![item()], initiate()).unwrap();
            s
        };
        let cases: Vec<(fn(&mut ShippingAddress), &str)> = vec![
            (|a| a.email = "  ".into(), "shippingAddress.email is required"),
            (|a| a.first_name.clear(), "shippingAddress.firstName is required"),
            (|a| a.last_name.clear(), "shippingAddress.lastName is required"),
            (|a| a.address1.clear(), "shippingAddress.address1 is required"),
            (|a| a.city.clear(), "shippingAddress.city is required"),
            (|a| a.postal_code.clear(), "shippingAddress.postalCode is required"),
            (|a| a.country.clear(), "shippingAddress.country is required"),
            (|a| a.email = "ada.example.com".into(), "shippingAddress.email is not an e-mail"),
            (|a| a.email = "ada@example".into(), "shippingAddress.email is not an e-mail"),
            (|a| a.email = "ada @example.com".into(), "shippingAddress.email is not an e-mail"),
            (|a| a.email = "a@b@example.com".into(), "shippingAddress.email is not an e-mail"),
            (|a| a.email = "ada@example..com".into(), "shippingAddress.email is not an e-mail"),
            (|a| a.country = "gb".into(), "shippingAddress.country must be an uppercase"),
            (|a| a.country = "GBR".into(), "shippingAddress.country must be an uppercase"),
            (|a| a.country = "G1".into(), "shippingAddress.country must be an uppercase"),
            (|a| a.city = "x".repeat(201), "shippingAddress.city is longer than 200"),
            (|a| a.phone = Some("1\u{0}2".into()), "shippingAddress.phone contains control"),
        ];
        for (break_it, needle) in cases {
            let mut a = address();
            break_it(&mut a);
            let e = s.update_request(&rate(), &a).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument, "{needle}");
            assert!(e.message.contains(needle), "{} !~ {needle}", e.message);
        }
        let mut ok = address();
        ok.address2 = Some("Flat 2".into());
        ok.email = "ada+shop@mail.example.co.uk".into();
        s.update_request(&rate(), &ok).unwrap();
    }

    #[test]
    fn inconsistent_server_answers_are_rejected() {
        let mut s = CheckoutState::Idle;
        let mut bad = initiate();
        bad.amount = 1;
        assert_eq!(s.initiated(vec![item()], bad).unwrap_err().code, ErrorCode::InvalidArgument);
        assert_eq!(s.initiated(vec![], initiate()).unwrap_err().code, ErrorCode::InvalidArgument);
        s.initiated(vec![item()], initiate()).unwrap();
        let mut other = updated();
        other.session_id = "ps_2".into();
        let e = s.shipping_chosen(rate(), address(), other).unwrap_err();
        assert!(e.message.contains("ps_2"), "{e}");
        let mut sum = updated();
        sum.breakdown.tax += 1;
        assert_eq!(s.shipping_chosen(rate(), address(), sum).unwrap_err().code, ErrorCode::InvalidArgument);
        assert_eq!(s.name(), "initiated");
    }

    #[test]
    fn return_url_and_token_are_checked() {
        let mut s = chosen();
        for bad in ["", "/relative", "ftp://x", "https://", "https:// x"] {
            let e = s.clone().begin_confirm("tok_1", bad).unwrap_err();
            assert!(e.message.contains("returnUrl"), "{bad}: {e}");
        }
        assert!(s.clone().begin_confirm(" ", URL).unwrap_err().message.contains("token"));
        s.begin_confirm("tok_1", "http://127.0.0.1:18793/checkout?x=1").unwrap();
    }

    #[test]
    fn cancel_before_payment() {
        let mut s = CheckoutState::Idle;
        s.cancel().unwrap();
        assert_eq!(s.to_json(), r#"{"state":"cancelled","sessionId":null}"#);
        assert_state_err(s.cancel(), "`cancelled`");
        let mut c = chosen();
        c.cancel().unwrap();
        assert_state_err(c.pay_step(), "`cancelled`");
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

    fn json_keys(v: &serde_json::Value) -> Vec<String> {
        let mut k: Vec<String> = v.as_object().unwrap().keys().cloned().collect();
        k.sort();
        k
    }

    #[test]
    fn typescript_matches_serde() {
        let ts = ts_without_comments();
        // One sample of every state.
        let mut samples = vec![CheckoutState::Idle];
        let mut s = CheckoutState::Idle;
        s.initiated(vec![item()], initiate()).unwrap();
        samples.push(s.clone());
        let mut s = chosen();
        samples.push(s.clone());
        s.begin_confirm("tok_1", URL).unwrap();
        samples.push(s.clone());
        s.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
        samples.push(s.clone());
        let mut f = s.clone();
        f.adapter_failed("x").unwrap();
        samples.push(f);
        let t = s.action_finished().unwrap();
        s.begin_confirm(&t, URL).unwrap();
        s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
        samples.push(s);
        samples.push(CheckoutState::Cancelled { session_id: None });
        let union = &ts[ts.find("export type CheckoutState =").expect("CheckoutState union")..];
        let mut seen = Vec::new();
        for member in union.split('{').skip(1) {
            let body = member.split('}').next().unwrap();
            let name = body.split('"').nth(1).unwrap();
            let sample = samples.iter().find(|s| s.name() == name).unwrap_or_else(|| panic!("TS state {name} has no Rust variant"));
            let json = serde_json::to_value(sample).unwrap();
            assert_eq!(ts_fields(body), json_keys(&json), "fields of state {name}");
            seen.push(name.to_owned());
        }
        assert_eq!(seen.len(), samples.len(), "every Rust state is in the TS union: {seen:?}");
        // The nested objects.
        let CheckoutState::Paying { session, attempt, shipping } = &samples[3] else { panic!() };
        assert_eq!(ts_interface(&ts, "CheckoutSession"), json_keys(&serde_json::to_value(session).unwrap()));
        assert_eq!(ts_interface(&ts, "PaymentAttempt"), json_keys(&serde_json::to_value(attempt).unwrap()));
        assert_eq!(ts_interface(&ts, "ShippingChoice"), json_keys(&serde_json::to_value(shipping).unwrap()));
        let codes = [FailureCode::Declined, FailureCode::ActionFailed, FailureCode::Canceled, FailureCode::Adapter, FailureCode::Request];
        let expect = codes.map(|c| serde_json::to_value(c).unwrap().as_str().unwrap().to_owned()).map(|c| format!("\"{c}\"")).join(" | ");
        assert!(ts.contains(&format!("export type CheckoutFailureCode = {expect};")), "{expect}");
    }
}
