//! The checkout's data: the state union and what it holds. These types are
//! what JavaScript sees (through serde-wasm-bindgen) and what
//! `js/generated/checkout.ts` is generated from (`tools/typegen/src/checkout.rs`).

use serde::{Deserialize, Serialize};

use crate::error::ErrorCode;
use crate::model::{Breakdown, PaymentItem, PaymentStatus, Processor, ShippingAddress, ShippingRate};

/// The payment session as initiate / update last described it (amounts in
/// minor units).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutSession {
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
pub struct PaymentAttempt {
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CheckoutFailureCode {
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

/// What a processor adapter is told when it mounts (amount in minor units).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdapterSession {
    pub publishable_key: String,
    pub amount: i64,
    pub currency: String,
}

/// `initiated`: a payment session exists; no shipping choice yet.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Initiated {
    pub session: CheckoutSession,
}

/// `shipping_chosen`: rate and address accepted by the server; ready to pay.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingChosen {
    pub session: CheckoutSession,
    pub shipping: ShippingChoice,
}

/// `paying`: a confirm is being sent or its answer is awaited (or the
/// processor reported `processing`; paying again re-reads it).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Paying {
    pub session: CheckoutSession,
    pub shipping: ShippingChoice,
    pub attempt: PaymentAttempt,
}

/// `requires_action`: the processor asks for a next action (3-D Secure) on
/// `clientSecret`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RequiresAction {
    pub session: CheckoutSession,
    pub shipping: ShippingChoice,
    pub attempt: PaymentAttempt,
    pub client_secret: String,
}

/// `confirming`: a confirm got no usable answer (the network, a timeout, a
/// server or processor error that is not a decline), so the outcome of the
/// attempt is unknown: the card may have been charged. It is not a failure.
/// The SDK confirms the same token again by itself (bounded, with backoff);
/// `pay()` or `Checkout.resume()` in any tab of the cart checks again.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Confirming {
    pub session: CheckoutSession,
    pub shipping: ShippingChoice,
    pub attempt: PaymentAttempt,
    /// How the last confirm failed (`network`, `timeout`, `processor_error`, …).
    pub error_code: ErrorCode,
    pub message: String,
}

/// `succeeded`: paid; the order is recorded. Final.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Succeeded {
    pub session: CheckoutSession,
    pub shipping: ShippingChoice,
    pub payment_intent_id: String,
}

/// `failed`: the attempt failed. When `retryable`, `pay` may be called
/// again; if `pending` is set, the outcome of that attempt is unknown and the
/// retry confirms it again with the same token instead of collecting a new one.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Failed {
    pub session: CheckoutSession,
    pub shipping: ShippingChoice,
    pub code: CheckoutFailureCode,
    /// Set for `code: "request"`: how the confirm failed.
    pub error_code: Option<ErrorCode>,
    pub message: String,
    /// `pay()` may be called again.
    pub retryable: bool,
    /// Set when that attempt's outcome is unknown: the retry confirms the same token again.
    pub pending: Option<PaymentAttempt>,
    pub payment_intent_id: Option<String>,
}

/// `cancelled`: abandoned by the buyer before any payment existed. Final.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cancelled {
    pub session_id: Option<String>,
}

/// What a page may do in the checkout's state now, each exactly the rule its
/// method applies (computed by the SDK from the state): a page reads these
/// instead of restating when shipping may change or paying is possible.
/// Members of every state object a page is given (`checkout.state`, a
/// listener's, `pay()`'s), never of the stored record.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckoutActions {
    /// `shippingOptions` and `selectShipping` are allowed: in `initiated`,
    /// `shipping_chosen`, and a retryable `failed` while no payment exists
    /// (a payment's amount must not change under it).
    pub can_select_shipping: bool,
    /// `pay` is allowed: after a shipping choice, after a retryable failure,
    /// to carry on a payment whose outcome is not known yet (`confirming`,
    /// `requires_action`, a `processing` one); not while a confirm is in
    /// flight, nor once paid, finally failed or cancelled.
    pub can_pay: bool,
    /// `cancel` is allowed: no payment may still succeed (none is unsettled),
    /// and the checkout is neither paid nor cancelled.
    pub can_cancel: bool,
}

/// The checkout, discriminated by `state` (the tag in JS and TypeScript, and
/// in the stored record: [`super::stored`]).
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum CheckoutState {
    /// Nothing initiated yet.
    #[default]
    Idle,
    Initiated(Initiated),
    ShippingChosen(ShippingChosen),
    Paying(Paying),
    RequiresAction(RequiresAction),
    Confirming(Confirming),
    Succeeded(Succeeded),
    Failed(Failed),
    Cancelled(Cancelled),
}

impl CheckoutState {
    /// The wire name of the state (`"idle"`, `"shipping_chosen"`, …).
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::Idle => "idle",
            Self::Initiated(_) => "initiated",
            Self::ShippingChosen(_) => "shipping_chosen",
            Self::Paying(_) => "paying",
            Self::RequiresAction(_) => "requires_action",
            Self::Confirming(_) => "confirming",
            Self::Succeeded(_) => "succeeded",
            Self::Failed(_) => "failed",
            Self::Cancelled(_) => "cancelled",
        }
    }

    /// The session, in every state that has one.
    #[must_use]
    pub const fn session(&self) -> Option<&CheckoutSession> {
        match self {
            Self::Idle | Self::Cancelled(_) => None,
            Self::Initiated(Initiated { session })
            | Self::ShippingChosen(ShippingChosen { session, .. })
            | Self::Paying(Paying { session, .. })
            | Self::RequiresAction(RequiresAction { session, .. })
            | Self::Confirming(Confirming { session, .. })
            | Self::Succeeded(Succeeded { session, .. })
            | Self::Failed(Failed { session, .. }) => Some(session),
        }
    }

    /// The session and shipping choice, in every state that has both.
    #[must_use]
    pub const fn shipping(&self) -> Option<(&CheckoutSession, &ShippingChoice)> {
        match self {
            Self::ShippingChosen(ShippingChosen { session, shipping })
            | Self::Paying(Paying { session, shipping, .. })
            | Self::RequiresAction(RequiresAction { session, shipping, .. })
            | Self::Confirming(Confirming { session, shipping, .. })
            | Self::Succeeded(Succeeded { session, shipping, .. })
            | Self::Failed(Failed { session, shipping, .. }) => Some((session, shipping)),
            _ => None,
        }
    }

    /// What the processor adapter mounts with, once a session exists.
    #[must_use]
    pub fn adapter_session(&self) -> Option<AdapterSession> {
        self.session().map(|s| AdapterSession {
            publishable_key: s.publishable_key.clone(),
            amount: s.amount,
            currency: s.currency.clone(),
        })
    }

    /// True in `succeeded` and `cancelled`, and in `failed` when not retryable.
    #[must_use]
    pub const fn is_final(&self) -> bool {
        matches!(self, Self::Succeeded(_) | Self::Cancelled(_) | Self::Failed(Failed { retryable: false, .. }))
    }

    /// True while a payment may exist on the processor whose outcome this
    /// checkout has not settled: `paying`, `requires_action`, `confirming`, or
    /// a retryable `failed` with a pending attempt. In these states only the
    /// same token may be confirmed and the checkout cannot be cancelled or
    /// changed. A final failure is never unsettled (nothing can finish it).
    #[must_use]
    pub const fn payment_unsettled(&self) -> bool {
        matches!(
            self,
            Self::Paying(_) | Self::RequiresAction(_) | Self::Confirming(_) | Self::Failed(Failed { retryable: true, pending: Some(_), .. })
        )
    }

    /// [`Self::payment_unsettled`] read off a stored record's members
    /// (`state`, `retryable`, whether `pending` is set), for code that does
    /// not decode the record (`Checkout.clearStored` in the root entry).
    #[must_use]
    pub fn unsettled_record(state: &str, retryable: bool, has_pending: bool) -> bool {
        matches!(state, "paying" | "requires_action" | "confirming") || (state == "failed" && retryable && has_pending)
    }

    /// True while the checkout is live: a session exists and the state is not
    /// final. This is what a persistent cart shares with its other tabs.
    #[must_use]
    pub const fn is_live(&self) -> bool {
        self.session().is_some() && !self.is_final()
    }
}
