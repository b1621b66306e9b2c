//! Talking to the processor about a session's payment: reading a
//! PaymentIntent, cancelling one (verified), idempotency keys, and the
//! contract's wording of its answers and failures.

use cirrus_storefront::model::{ConfirmResponse, PaymentStatus};
use rusqlite::OptionalExtension;
use serde::de::IgnoredAny;
use serde::Deserialize;
use serde_json::Value;

use super::row::Session;
use crate::error::{ApiError, ApiResult};
use crate::stripe::StripeError;
use crate::State;

/// A processor failure in the contract's words (502 `processor_error`); the
/// library's or the processor's own text goes to the log only.
pub(super) fn processor_error(e: &StripeError) -> ApiError {
    eprintln!("processor call failed: {e}");
    match e {
        StripeError::Unreachable(_) => ApiError::processor("the payment processor is unreachable; try again"),
        StripeError::Api { status, .. } if *status >= 500 || *status == 429 => ApiError::processor("the payment processor failed; try again"),
        StripeError::Api { .. } => ApiError::processor("the payment processor refused the request"),
    }
}

/// A PaymentIntent's status, every one the processor names (Stripe's), plus
/// [`PiStatus::Unknown`] for one it may add. Matched exhaustively wherever the
/// server decides on a payment. The client's [`PaymentStatus`] is what the
/// confirm answers (the contract's five): [`result_of`] maps one to the other.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PiStatus {
    RequiresPaymentMethod,
    RequiresConfirmation,
    RequiresAction,
    Processing,
    RequiresCapture,
    Canceled,
    Succeeded,
    /// A status this server does not know (a newer processor API): never
    /// captured, cancelled, confirmed again or made an order; answered as
    /// `processing` (an outcome not known yet, never a decline) and read again later.
    #[serde(other)]
    Unknown,
}

impl PiStatus {
    /// Every status, for the SQL that classes them ([`super::settle`]'s sweep).
    pub const ALL: [Self; 8] = [
        Self::RequiresPaymentMethod,
        Self::RequiresConfirmation,
        Self::RequiresAction,
        Self::Processing,
        Self::RequiresCapture,
        Self::Canceled,
        Self::Succeeded,
        Self::Unknown,
    ];

    /// The processor's name (`sessions.pi_status`); `unknown` for [`PiStatus::Unknown`].
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::RequiresPaymentMethod => "requires_payment_method",
            Self::RequiresConfirmation => "requires_confirmation",
            Self::RequiresAction => "requires_action",
            Self::Processing => "processing",
            Self::RequiresCapture => "requires_capture",
            Self::Canceled => "canceled",
            Self::Succeeded => "succeeded",
            Self::Unknown => "unknown",
        }
    }
}

/// A PaymentIntent's id: never empty (an order is written only with one).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "String")]
pub struct PiId(String);

impl TryFrom<String> for PiId {
    type Error = &'static str;
    fn try_from(s: String) -> Result<Self, Self::Error> {
        if s.is_empty() {
            Err("empty payment id")
        } else {
            Ok(Self(s))
        }
    }
}

impl PiId {
    #[must_use]
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for PiId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The error of a payment's last attempt, as far as the server reads it.
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentError {
    #[serde(default)]
    pub code: Option<String>,
}

/// A PaymentIntent as the server reads it from the processor: its id (required,
/// non-empty) and status (required; an unknown one is [`PiStatus::Unknown`]).
#[derive(Debug, Clone, Deserialize)]
pub struct PaymentIntent {
    pub id: PiId,
    pub status: PiStatus,
    #[serde(default)]
    pub amount: Option<i64>,
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub last_payment_error: Option<PaymentError>,
    #[serde(default)]
    pub payment_method: Option<IgnoredAny>,
}

/// Reads the processor's PaymentIntent answer. One without an id (or an empty
/// one), or without a status, is not settled: 502, logged, and read again by
/// the next confirm, webhook or sweep.
///
/// # Errors
/// 502 `processor_error` when `pi` does not read as a PaymentIntent.
pub(super) fn read_pi(pi: Value) -> ApiResult<PaymentIntent> {
    serde_json::from_value(pi).map_err(|e| {
        eprintln!("processor answered a PaymentIntent the server cannot read ({e}): not settled, read again later");
        ApiError::processor("the payment processor answered a payment the server cannot read; try again")
    })
}

/// Why a payment needs a new payment method, in our words (never the
/// processor's text), from the processor's error `code`.
fn decline_message(code: &str) -> &'static str {
    match code {
        "payment_intent_authentication_failure" => "card authentication failed; try again or use another card",
        "expired_card" => "the card has expired",
        "incorrect_cvc" => "the card's security code is incorrect",
        "incorrect_number" | "invalid_number" => "the card number is incorrect",
        "card_declined" | "insufficient_funds" | "card_velocity_exceeded" => "the card was declined",
        "token_already_used" | "token_in_use" => "the card details were already used; enter the card again",
        "resource_missing" => "the card details are unknown to the payment processor or have expired; enter the card again",
        _ => "the payment was not completed; use another payment method",
    }
}

/// Whether a processor's error status is final: sending the same request again
/// will never succeed. Not 401/403 (the server's own key), 409 (a concurrent
/// request with the same idempotency key), 429 (busy): those, 5xx and no
/// answer at all are worth another try.
fn is_final(status: u16) -> bool {
    (400..500).contains(&status) && !matches!(status, 401 | 403 | 409 | 429)
}

/// Stripe `param`s and `code`s that mean the buyer's payment details (token,
/// card, payment method) were refused: the buyer has to enter them again.
const CARD_PARAMS: [&str; 6] = ["confirmation_token", "payment_method", "payment_method_data", "source", "token", "card"];
const CARD_CODES: [&str; 7] = [
    "token_already_used",
    "token_in_use",
    "expired_card",
    "incorrect_number",
    "invalid_number",
    "payment_method_unactivated",
    "payment_method_unexpected_state",
];

/// Which call of the buyer's payment the processor refused.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Call {
    /// Reading the buyer's card token: any final refusal is about the token.
    Token,
    /// Creating or confirming the PaymentIntent (`pi`: its id, once created).
    Payment,
}

/// A processor's failure to create or confirm the buyer's payment, made final
/// when retrying can never help (CONTRACT.md: a retryable error only when a
/// retry can succeed):
/// - the buyer's payment details refused (an unknown, expired or used token, a
///   card refused, a 402): `Ok`, the decline-like answer (200
///   `requires_payment_method`, `success: false`, `error` naming it), so the buyer
///   enters the card again; nothing live is left for the session (a PaymentIntent
///   created for it was never confirmed, and a new token replaces it);
/// - any other final 4xx (an amount over the processor's maximum, a `returnUrl`
///   it refuses, a bad parameter): 400 `invalid_request` naming the problem;
/// - 401/403/409/429, 5xx, no answer: 502 `processor_error`, retryable.
///
/// # Errors
/// The 400 or 502 above.
pub(super) fn refused(e: &StripeError, call: Call, pi_id: Option<&str>) -> ApiResult<ConfirmResponse> {
    let StripeError::Api { status, code, param, .. } = e else { return Err(processor_error(e)) };
    if !is_final(*status) {
        return Err(processor_error(e));
    }
    eprintln!("processor refused the payment: {e}");
    let (code, param) = (code.as_deref(), param.as_deref().unwrap_or(""));
    if call == Call::Token || *status == 402 || CARD_PARAMS.contains(&param) || code.is_some_and(|c| CARD_CODES.contains(&c)) {
        return Ok(ConfirmResponse {
            success: false,
            status: PaymentStatus::RequiresPaymentMethod,
            client_secret: None,
            payment_intent_id: pi_id.map(str::to_string),
            // No code: the token (or card) is not known to the processor.
            error: Some(decline_message(code.unwrap_or("resource_missing")).to_string()),
        });
    }
    let field = match param {
        "return_url" => "returnUrl",
        "amount" => "amount",
        p if p.starts_with("shipping") => "shippingAddress",
        p => p,
    };
    Err(ApiError::bad_request(match (code.unwrap_or(""), field) {
        ("amount_too_large", _) => "amount: over the most the payment processor accepts for one payment".to_string(),
        ("amount_too_small", _) => "amount: under the least the payment processor accepts for one payment".to_string(),
        ("url_invalid", "") => "returnUrl: refused by the payment processor".to_string(),
        ("", "") => "the payment processor refused the payment request".to_string(),
        (c, "") => format!("the payment processor refused the payment request ({c})"),
        ("", f) => format!("{f}: refused by the payment processor"),
        (c, f) => format!("{f}: refused by the payment processor ({c})"),
    }))
}

/// A PaymentIntent as the confirm response reports it.
pub(super) fn result_of(pi: &PaymentIntent) -> ConfirmResponse {
    let status = match pi.status {
        PiStatus::Succeeded => PaymentStatus::Succeeded,
        PiStatus::RequiresAction => PaymentStatus::RequiresAction,
        // Authorized, settling, not confirmed yet, or unknown: the outcome is not final, never a decline.
        PiStatus::Processing | PiStatus::RequiresCapture | PiStatus::RequiresConfirmation | PiStatus::Unknown => PaymentStatus::Processing,
        PiStatus::Canceled => PaymentStatus::Canceled,
        PiStatus::RequiresPaymentMethod => PaymentStatus::RequiresPaymentMethod,
    };
    let error = match status {
        PaymentStatus::RequiresPaymentMethod => {
            let code = pi.last_payment_error.as_ref().and_then(|e| e.code.as_deref()).unwrap_or("");
            Some(decline_message(code).to_string())
        }
        PaymentStatus::Canceled => Some("the payment was canceled".to_string()),
        PaymentStatus::Succeeded | PaymentStatus::RequiresAction | PaymentStatus::Processing => None,
    };
    ConfirmResponse {
        success: status == PaymentStatus::Succeeded,
        status,
        client_secret: (status == PaymentStatus::RequiresAction).then(|| pi.client_secret.clone().unwrap_or_default()),
        payment_intent_id: Some(pi.id.to_string()),
        error,
    }
}

pub(super) fn stock_gone() -> ApiError {
    ApiError::conflict("stock gone: the last units went to another buyer; this payment was cancelled and not charged")
}

pub(super) async fn retrieve(state: &State, pi_id: &str) -> ApiResult<PaymentIntent> {
    read_pi(state.stripe.call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None).await.map_err(|e| processor_error(&e))?)
}

/// A POST to the processor under an Idempotency-Key of the session's `scope`
/// (`pi-<attempt>`, `confirm-<attempt>`, `capture-<pi>`, `cancel-<pi>`, `refund-<pi>`).
///
/// Stripe saves the first answer to a key for 24 h and replays it, a 500
/// included. So the key is reused only where replaying the first answer is what
/// we want (the answer was lost: no answer, a timeout); after a definitive 5xx
/// or final refusal ([`is_final`]: a `returnUrl` refused, then corrected) the
/// scope moves to its next generation (`cirrus-<session>-<scope>-r<n>`), so
/// the retry is a new request. Every operation sent this way is guarded by the
/// payment's state at the processor (a PaymentIntent is confirmed, captured or
/// cancelled at most once, a refund never exceeds the charge), except creation:
/// a PaymentIntent created by a request that answered 5xx is never confirmed,
/// so it can never charge (a refused one was not created).
///
/// # Errors
/// `internal` when the generation cannot be read or written; the processor's
/// own failure is the inner `Err`.
pub(super) async fn call_keyed(state: &State, session_id: &str, scope: &str, path: &str, form: &[(&str, String)]) -> ApiResult<Result<Value, StripeError>> {
    let (sid, sc) = (session_id.to_string(), scope.to_string());
    let generation: i64 = state
        .db(move |c| {
            Ok(c.prepare_cached("SELECT generation FROM idempotency_keys WHERE session_id = ?1 AND scope = ?2")?
                .query_row([&sid, &sc], |r| r.get(0))
                .optional()?
                .unwrap_or(0))
        })
        .await?;
    let key = idempotency_key(session_id, scope, generation);
    let answer = state.stripe.call(true, path, form, Some(&key)).await;
    // A definitive answer that did nothing (a 5xx, a final refusal) moves the key on: the
    // processor may have saved it under this key, and the retry (perhaps corrected) must
    // be a new request. Not after 409 (the key is in use by a request still running) or
    // 429/401/403 (not processed, nothing saved).
    if matches!(&answer, Err(StripeError::Api { status, .. }) if *status >= 500 || is_final(*status)) {
        let (sid, sc) = (session_id.to_string(), scope.to_string());
        state
            .db(move |c| {
                c.execute(
                    "INSERT INTO idempotency_keys (session_id, scope, generation) VALUES (?1, ?2, 1)
                     ON CONFLICT (session_id, scope) DO UPDATE SET generation = generation + 1",
                    [&sid, &sc],
                )?;
                Ok(())
            })
            .await?;
    }
    Ok(answer)
}

/// The Idempotency-Key of `scope` in its `generation` (0: the first key).
fn idempotency_key(session_id: &str, scope: &str, generation: i64) -> String {
    if generation == 0 {
        format!("cirrus-{session_id}-{scope}")
    } else {
        format!("cirrus-{session_id}-{scope}-r{generation}")
    }
}

/// The outcome of cancelling a payment.
pub(super) enum Verified {
    /// Re-read (or answered) as `canceled`: it can never be charged.
    Canceled,
    /// It moved on (authorized, captured, or a status not known) and must be settled instead.
    Moved(PaymentIntent),
}

/// Cancels `pi_id` and makes sure it is cancelled: when the cancel fails, the
/// payment is read again. Only a payment known to be cancelled lets a new one
/// be created (CONTRACT.md: "a new payment only after the previous one is known
/// cancelled or failed").
///
/// # Errors
/// 502 when it cannot be read, or it is still open (the next call tries again).
pub(super) async fn cancel_verified(state: &State, session: &Session, pi_id: &str) -> ApiResult<Verified> {
    match call_keyed(state, &session.id, &format!("cancel-{pi_id}"), &format!("/v1/payment_intents/{pi_id}/cancel"), &[]).await? {
        Ok(pi) => match read_pi(pi) {
            Ok(pi) if pi.status == PiStatus::Canceled => return Ok(Verified::Canceled),
            Ok(pi) => eprintln!("cancel of {pi_id} answered {}", pi.status.as_str()),
            Err(_) => {} // logged; read again below
        },
        Err(e) => eprintln!("cancel of {pi_id} failed: {e}"),
    }
    let pi = retrieve(state, pi_id).await?;
    match pi.status {
        PiStatus::Canceled => Ok(Verified::Canceled),
        PiStatus::RequiresPaymentMethod | PiStatus::RequiresConfirmation | PiStatus::RequiresAction => {
            Err(ApiError::processor("the payment processor failed to cancel the previous payment; try again"))
        }
        PiStatus::Processing | PiStatus::RequiresCapture | PiStatus::Succeeded | PiStatus::Unknown => Ok(Verified::Moved(pi)),
    }
}

#[cfg(test)]
mod tests {
    use super::{idempotency_key, read_pi, result_of, PiStatus};
    use cirrus_storefront::model::PaymentStatus;
    use serde_json::json;

    #[test]
    fn a_payment_reads_only_with_its_id_and_status() {
        let pi = read_pi(json!({ "id": "pi_1", "status": "requires_capture", "amount": 1200 })).unwrap();
        assert_eq!((pi.id.as_str(), pi.status, pi.amount), ("pi_1", PiStatus::RequiresCapture, Some(1200)));
        for bad in [json!({ "status": "succeeded" }), json!({ "id": "", "status": "succeeded" }), json!({ "id": null, "status": "succeeded" }), json!({ "id": "pi_1" })] {
            assert_eq!(read_pi(bad.clone()).unwrap_err().code.status(), 502, "{bad}");
        }
        // A status this server does not know: read, never a decline nor a success.
        let pi = read_pi(json!({ "id": "pi_2", "status": "requires_reauthorization" })).unwrap();
        assert_eq!(pi.status, PiStatus::Unknown);
        let r = result_of(&pi);
        assert_eq!((r.status, r.success, r.error), (PaymentStatus::Processing, false, None));
        for st in PiStatus::ALL.into_iter().filter(|s| *s != PiStatus::Unknown) {
            assert_eq!(read_pi(json!({ "id": "pi_3", "status": st.as_str() })).unwrap().status, st);
        }
    }

    #[test]
    fn keys_of_a_scope_by_generation() {
        assert_eq!(idempotency_key("cs_1", "confirm-1", 0), "cirrus-cs_1-confirm-1");
        assert_eq!(idempotency_key("cs_1", "confirm-1", 2), "cirrus-cs_1-confirm-1-r2");
    }
}
