//! The transitions of [`CheckoutState`]: each takes the data of one step
//! (a server answer, a token, an adapter failure) and either moves the state
//! or is an error that changes nothing. What the caller does next is the
//! return value ([`PayStep`], [`AfterConfirm`], a request body to send).

use super::state::{
    Cancelled, CheckoutActions, CheckoutFailureCode, CheckoutSession, CheckoutState, Confirming, Failed, Initiated, Paying, PaymentAttempt, RequiresAction,
    ShippingChoice, ShippingChosen, Succeeded,
};
use super::crosstab::Run;
use super::validate::{check_amount, validate_address, validate_return_url};
use crate::error::{Error, ErrorCode, Result};
use crate::model::{
    ConfirmRequest, ConfirmResponse, InitiateResponse, PaymentItem, PaymentStatus, ShippingAddress, ShippingRate, UpdateRequest,
    UpdateResponse,
};

/// What `pay` has to do first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PayStep {
    /// Ask the processor adapter for a fresh confirmation token, then
    /// [`CheckoutState::begin_confirm`] with it.
    CollectToken,
    /// Confirm again with this token (a previous confirm's outcome is
    /// unknown).
    Reconfirm(String),
}

/// What the caller does after a confirm answer was applied.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AfterConfirm {
    /// Settled: `succeeded` or `failed`.
    Done,
    /// Run the adapter's next action on this client secret, then
    /// [`CheckoutState::action_finished`] and confirm again.
    NextAction(String),
    /// The processor is still `processing`: re-read it with the same token
    /// after [`AfterConfirm::delay_ms`].
    Processing,
    /// The confirm got no usable answer (`confirming`): confirm the same
    /// token again after [`AfterConfirm::delay_ms`].
    Unknown,
}

/// The waits (ms) before each re-confirm of an unknown outcome, within one
/// `pay()` or `resume()`; after the last one the state stays `confirming`.
pub const RECHECK_DELAYS_MS: [u32; 3] = [300, 1_000, 2_500];

/// The waits (ms) before each re-read of a `processing` payment, within one
/// `pay()` or `resume()` (about 40 s in all); then the state stays `paying`.
pub const PROCESSING_DELAYS_MS: [u32; 6] = [1_000, 2_000, 4_000, 8_000, 10_000, 15_000];

impl AfterConfirm {
    /// How long to wait before confirming the same token again, for the
    /// `round`-th time in a row (0-based); `None` when this answer needs no
    /// re-confirm or the bound is reached.
    #[must_use]
    pub fn delay_ms(&self, round: usize) -> Option<u32> {
        match self {
            Self::Processing => PROCESSING_DELAYS_MS.get(round).copied(),
            Self::Unknown => RECHECK_DELAYS_MS.get(round).copied(),
            Self::Done | Self::NextAction(_) => None,
        }
    }

    /// Whether the next action (3-D Secure) runs now: only in a run the
    /// buyer started with `pay()`. `start`/`resume` ([`Run::Resume`]) never
    /// wait on a person: they stop at `requires_action` and the page calls
    /// `pay()` to open the challenge.
    #[must_use]
    pub const fn runs_action(&self, run: Run) -> bool {
        matches!((self, run), (Self::NextAction(_), Run::Pay))
    }
}

/// True when the server answered the confirm request itself definitively
/// (the request is wrong, the session is unknown, the stock is gone): the
/// attempt is over. Every other error leaves the outcome unknown.
pub const fn definitive(code: ErrorCode) -> bool {
    matches!(
        code,
        ErrorCode::InvalidArgument
            | ErrorCode::InvalidState
            | ErrorCode::InvalidRequest
            | ErrorCode::NotFound
            | ErrorCode::Conflict
            | ErrorCode::PayloadTooLarge
            | ErrorCode::UnsupportedMediaType
    )
}

fn failed(session: &CheckoutSession, shipping: &ShippingChoice, code: CheckoutFailureCode, message: String) -> Failed {
    Failed {
        session: session.clone(),
        shipping: shipping.clone(),
        code,
        error_code: None,
        message,
        retryable: true,
        pending: None,
        payment_intent_id: None,
    }
}

impl CheckoutState {
    /// "cannot <action> in checkout state `<state>`; <the step that comes next>".
    fn illegal(&self, action: &str) -> Error {
        Error::invalid_state(format!("cannot {action} in checkout state `{}`; {}", self.name(), self.next_step()))
    }

    /// What the caller does next in this state (the end of every `invalid_state` message).
    #[must_use]
    pub const fn next_step(&self) -> &'static str {
        match self {
            Self::Idle => "open a checkout with Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client, { cart, adapter })",
            Self::Initiated(_) => "choose a shipping rate first: shippingOptions(country), then selectShipping(rateId, address)",
            Self::ShippingChosen(_) => "the next step is pay({ returnUrl }) (selectShipping again to change the rate or address)",
            Self::Paying(_) => "a payment is in progress: wait for the promise pay() returned",
            Self::RequiresAction(_) => "the bank asks the buyer to confirm the payment: call pay() to run the challenge",
            Self::Confirming(_) => "the payment's outcome is not known yet: call pay() or Checkout.resume() to check again (never a new charge)",
            Self::Succeeded(_) => "this checkout is paid (see paymentIntentId): new items start the next checkout with Checkout.start",
            Self::Failed(Failed { retryable: true, pending: Some(_), .. }) => "call pay() again: it checks the same payment first (never a new charge)",
            Self::Failed(Failed { retryable: true, .. }) => "call pay() again (another card may be entered), or selectShipping to change the shipping",
            Self::Failed(_) => "this checkout cannot be completed: start a new one with Checkout.start",
            Self::Cancelled(_) => "this checkout was cancelled: start a new one with Checkout.start",
        }
    }

    /// `idle` → `initiated` with the answer of `POST /payments/initiate`.
    ///
    /// # Errors
    /// `invalid_state` unless idle; `invalid_argument` if the answer is
    /// inconsistent (`amount != breakdown.total`) or there are no items.
    pub fn initiated(&mut self, items: Vec<PaymentItem>, answer: InitiateResponse) -> Result<()> {
        if !matches!(self, Self::Idle) {
            return Err(self.illegal("initiate"));
        }
        if items.is_empty() {
            return Err(Error::invalid_argument("items must not be empty"));
        }
        check_amount(answer.amount, &answer.breakdown)?;
        *self = Self::Initiated(Initiated {
            session: CheckoutSession {
                session_id: answer.session_id,
                processor: answer.processor,
                publishable_key: answer.publishable_key,
                currency: answer.currency,
                amount: answer.amount,
                breakdown: answer.breakdown,
                items,
            },
        });
        Ok(())
    }

    /// What a page may do now: each member is the rule of its method
    /// ([`Self::shipping_session`], [`Self::pay_step`], [`Self::cancel`]).
    #[must_use]
    pub fn actions(&self) -> CheckoutActions {
        CheckoutActions {
            can_select_shipping: self.open_session().is_some(),
            can_pay: self.next_pay().is_some(),
            can_cancel: self.cancellable(),
        }
    }

    /// The session whose shipping may change now: in `initiated`,
    /// `shipping_chosen`, and retryable `failed` while no payment exists (a
    /// payment's amount must not change under it).
    fn open_session(&self) -> Option<&CheckoutSession> {
        match self {
            Self::Initiated(Initiated { session })
            | Self::ShippingChosen(ShippingChosen { session, .. })
            | Self::Failed(Failed { session, pending: None, payment_intent_id: None, retryable: true, .. }) => Some(session),
            _ => None,
        }
    }

    /// The session whose shipping may change now ([`CheckoutActions::can_select_shipping`]).
    ///
    /// # Errors
    /// `invalid_state` in any other state.
    pub fn shipping_session(&self) -> Result<&CheckoutSession> {
        self.open_session().ok_or_else(|| self.illegal("select shipping"))
    }

    /// The `POST /payments/update` body for a shipping choice, after checking
    /// the state ([`Self::shipping_session`]), the rate id and the address
    /// ([`validate_address`]).
    ///
    /// # Errors
    /// `invalid_state`; `invalid_argument` naming the address field or the rate.
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

    /// Apply the answer of that update → `shipping_chosen` with the new amount.
    ///
    /// # Errors
    /// As [`Self::update_request`]; `invalid_argument` if the answer is for
    /// another session or its amount does not add up.
    pub fn shipping_chosen(&mut self, shipping: ShippingChoice, answer: UpdateResponse) -> Result<()> {
        self.update_request(&shipping.rate, &shipping.address)?;
        let session = self.shipping_session()?;
        if answer.session_id != session.session_id {
            return Err(Error::invalid_argument(format!("update answered for session {}, expected {}", answer.session_id, session.session_id)));
        }
        check_amount(answer.amount, &answer.breakdown)?;
        let mut session = session.clone();
        session.amount = answer.amount;
        session.breakdown = answer.breakdown;
        session.currency = answer.currency;
        *self = Self::ShippingChosen(ShippingChosen { session, shipping });
        Ok(())
    }

    /// What `pay` must do first: collect a new token, or confirm again the
    /// token whose outcome is unknown.
    ///
    /// # Errors
    /// `invalid_state` before a shipping choice, while a confirm is in
    /// flight or an action is pending, after success, after a final failure,
    /// after cancel.
    pub fn pay_step(&self) -> Result<PayStep> {
        self.next_pay().ok_or_else(|| self.illegal("pay"))
    }

    /// [`Self::pay_step`] where paying is allowed ([`CheckoutActions::can_pay`]).
    fn next_pay(&self) -> Option<PayStep> {
        match self {
            Self::ShippingChosen(_) | Self::Failed(Failed { retryable: true, pending: None, .. }) => Some(PayStep::CollectToken),
            Self::Failed(Failed { retryable: true, pending: Some(a), .. })
            // `confirming`: check the unknown outcome again; `requires_action`
            // (taken over from another tab): carry that payment on here.
            | Self::Confirming(Confirming { attempt: a, .. })
            | Self::RequiresAction(RequiresAction { attempt: a, .. }) => Some(PayStep::Reconfirm(a.token.clone())),
            // `processing`: the answer came back; re-read with the same token.
            Self::Paying(Paying { attempt, .. }) if !attempt.confirm_in_flight => Some(PayStep::Reconfirm(attempt.token.clone())),
            _ => None,
        }
    }

    /// The token a resumed checkout must confirm again (after a reload, a
    /// 3-D Secure redirect, or in another tab of the cart): set whenever the
    /// payment is unsettled ([`Self::payment_unsettled`]): `paying`,
    /// `requires_action`, `confirming`, a retryable `failed` with a pending
    /// attempt.
    #[must_use]
    pub fn resume_token(&self) -> Option<&str> {
        match self {
            Self::Paying(Paying { attempt: a, .. })
            | Self::RequiresAction(RequiresAction { attempt: a, .. })
            | Self::Confirming(Confirming { attempt: a, .. })
            | Self::Failed(Failed { retryable: true, pending: Some(a), .. }) => Some(&a.token),
            _ => None,
        }
    }

    /// Mark a confirm as sent and build its body: → `paying` with
    /// `confirmInFlight`. From `shipping_chosen` or retryable `failed`
    /// without a pending attempt (a new token and `return_url`), from
    /// retryable `failed` with one, `paying` or `requires_action` (that same
    /// token only; the attempt keeps its return URL). The caller stores this
    /// state before sending.
    ///
    /// # Errors
    /// `invalid_state` in other states; `invalid_argument` if the token is
    /// empty, differs from the unsettled one, or the return URL (new
    /// attempts only) is not an absolute http(s) URL.
    pub fn begin_confirm(&mut self, token: &str, return_url: &str) -> Result<ConfirmRequest> {
        if token.trim().is_empty() {
            return Err(Error::invalid_argument("confirmation token must not be empty"));
        }
        let (session, shipping, attempt) = match self {
            Self::ShippingChosen(ShippingChosen { session, shipping })
            | Self::Failed(Failed { session, shipping, retryable: true, pending: None, .. }) => {
                validate_return_url(return_url)?;
                let attempt = PaymentAttempt {
                    token: token.to_owned(),
                    return_url: return_url.to_owned(),
                    confirm_in_flight: true,
                    payment_intent_id: None,
                    last_status: None,
                };
                (session, shipping, attempt)
            }
            Self::Failed(Failed { session, shipping, retryable: true, pending: Some(a), .. })
            | Self::Confirming(Confirming { session, shipping, attempt: a, .. })
            | Self::Paying(Paying { session, shipping, attempt: a })
            | Self::RequiresAction(RequiresAction { session, shipping, attempt: a, .. }) => {
                if a.token != token {
                    return Err(Error::invalid_argument(format!("a confirm with token {} may already have reached the server; only that token may be confirmed again", a.token)));
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
        *self = Self::Paying(Paying { session: session.clone(), shipping: shipping.clone(), attempt });
        Ok(request)
    }

    /// The attempt whose confirm is in flight (taken out of flight).
    fn landed(&self, action: &str) -> Result<(CheckoutSession, ShippingChoice, PaymentAttempt)> {
        let Self::Paying(Paying { session, shipping, attempt }) = self else { return Err(self.illegal(action)) };
        if !attempt.confirm_in_flight {
            return Err(Error::invalid_state("no confirm is in flight"));
        }
        let mut attempt = attempt.clone();
        attempt.confirm_in_flight = false;
        Ok((session.clone(), shipping.clone(), attempt))
    }

    /// Apply a confirm answer (only in `paying` with a confirm in flight).
    ///
    /// `succeeded` → `succeeded`; `requires_action` with a client secret →
    /// `requires_action`; `requires_payment_method` → retryable `failed`
    /// (`declined`, or `action_failed` if this attempt already went through a
    /// next action) and the token is released; `canceled` → final `failed`;
    /// `processing` → stays `paying` (not in flight); `requires_action`
    /// without a client secret is not a usable answer → `confirming`
    /// ([`AfterConfirm::Unknown`]).
    ///
    /// # Errors
    /// `invalid_state` outside an in-flight confirm.
    pub fn confirmed(&mut self, answer: ConfirmResponse) -> Result<AfterConfirm> {
        let (session, shipping, mut attempt) = self.landed("apply a confirm answer")?;
        let was_action = attempt.last_status == Some(PaymentStatus::RequiresAction);
        attempt.last_status = Some(answer.status);
        if answer.payment_intent_id.is_some() {
            attempt.payment_intent_id = answer.payment_intent_id;
        }
        let pi = attempt.payment_intent_id.clone();
        let (next, after) = match answer.status {
            PaymentStatus::Succeeded => {
                let payment_intent_id = pi.unwrap_or_default();
                (Self::Succeeded(Succeeded { session, shipping, payment_intent_id }), AfterConfirm::Done)
            }
            PaymentStatus::RequiresAction => match answer.client_secret.filter(|s| !s.is_empty()) {
                Some(secret) => (
                    Self::RequiresAction(RequiresAction { session, shipping, attempt, client_secret: secret.clone() }),
                    AfterConfirm::NextAction(secret),
                ),
                None => (
                    Self::Confirming(Confirming {
                        session,
                        shipping,
                        attempt,
                        error_code: ErrorCode::Decode,
                        message: "confirm answered requires_action without a clientSecret".to_owned(),
                    }),
                    AfterConfirm::Unknown,
                ),
            },
            PaymentStatus::RequiresPaymentMethod => {
                let (code, fallback) = if was_action {
                    (CheckoutFailureCode::ActionFailed, "authentication failed; try again or use another card")
                } else {
                    (CheckoutFailureCode::Declined, "the card was declined; try again or use another card")
                };
                let message = answer.error.filter(|e| !e.trim().is_empty()).unwrap_or_else(|| fallback.to_owned());
                let mut f = failed(&session, &shipping, code, message);
                f.payment_intent_id = pi;
                (Self::Failed(f), AfterConfirm::Done)
            }
            PaymentStatus::Canceled => {
                let message = answer.error.unwrap_or_else(|| "the payment was canceled".to_owned());
                let mut f = failed(&session, &shipping, CheckoutFailureCode::Canceled, message);
                f.retryable = false;
                f.payment_intent_id = pi;
                (Self::Failed(f), AfterConfirm::Done)
            }
            PaymentStatus::Processing => (Self::Paying(Paying { session, shipping, attempt }), AfterConfirm::Processing),
        };
        *self = next;
        Ok(after)
    }

    /// A confirm failed. When the server answered the request itself
    /// definitively ([`definitive`]: `invalid_request`, `not_found`,
    /// `conflict` such as "stock gone", …) → final `failed` with `code:
    /// "request"` and nothing pending ([`AfterConfirm::Done`]). Any other
    /// error (network, timeout, a 5xx, `processor_error`, `unauthorized`, a
    /// malformed body) says nothing about the payment: → `confirming`, the
    /// same token to be confirmed again ([`AfterConfirm::Unknown`]).
    ///
    /// # Errors
    /// `invalid_state` outside an in-flight confirm.
    pub fn confirm_failed(&mut self, code: ErrorCode, message: &str) -> Result<AfterConfirm> {
        let (session, shipping, attempt) = self.landed("fail a confirm")?;
        if !definitive(code) {
            *self = Self::Confirming(Confirming { session, shipping, attempt, error_code: code, message: message.to_owned() });
            return Ok(AfterConfirm::Unknown);
        }
        let mut f = failed(&session, &shipping, CheckoutFailureCode::Request, message.to_owned());
        f.error_code = Some(code);
        f.retryable = false;
        f.payment_intent_id.clone_from(&attempt.payment_intent_id);
        *self = Self::Failed(f);
        Ok(AfterConfirm::Done)
    }

    /// The adapter finished the next action (either outcome: the following
    /// confirm tells which). Returns the token to confirm again.
    ///
    /// # Errors
    /// `invalid_state` unless `requires_action`.
    pub fn action_finished(&self) -> Result<String> {
        match self {
            Self::RequiresAction(RequiresAction { attempt, .. }) => Ok(attempt.token.clone()),
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
        let next = match self {
            Self::RequiresAction(RequiresAction { session, shipping, attempt, .. }) => {
                let mut f = failed(session, shipping, CheckoutFailureCode::ActionFailed, message);
                f.payment_intent_id.clone_from(&attempt.payment_intent_id);
                f.pending = Some(attempt.clone());
                f
            }
            Self::ShippingChosen(ShippingChosen { session, shipping }) => failed(session, shipping, CheckoutFailureCode::Adapter, message),
            Self::Failed(f) if f.retryable && f.pending.is_none() => {
                f.code = CheckoutFailureCode::Adapter;
                f.error_code = None;
                f.message = message;
                return Ok(());
            }
            _ => return Err(self.illegal("report an adapter failure")),
        };
        *self = Self::Failed(next);
        Ok(())
    }

    /// [`Self::cancel`] is allowed ([`CheckoutActions::can_cancel`]).
    const fn cancellable(&self) -> bool {
        !(self.payment_unsettled() || matches!(self, Self::Succeeded(_) | Self::Cancelled(_)))
    }

    /// Abandon the checkout → `cancelled`.
    ///
    /// # Errors
    /// `invalid_state` while a payment is unsettled (it might still succeed
    /// and must be finished, not forgotten), after success, or when already
    /// cancelled.
    pub fn cancel(&mut self) -> Result<()> {
        if !self.cancellable() {
            return Err(self.illegal("cancel"));
        }
        let session_id = self.session().map(|s| s.session_id.clone());
        *self = Self::Cancelled(Cancelled { session_id });
        Ok(())
    }
}
