//! Talking to the processor about a session's payment: reading a
//! PaymentIntent, cancelling one (verified), idempotency keys, and the
//! contract's wording of its answers and failures.

use cirrus_storefront::model::{ConfirmResponse, PaymentStatus};
use rusqlite::OptionalExtension;
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

pub(super) fn status(pi: &Value) -> &str {
    pi["status"].as_str().unwrap_or("")
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
pub(super) fn result_of(pi: &Value) -> ConfirmResponse {
    let status = match status(pi) {
        "succeeded" => PaymentStatus::Succeeded,
        "requires_action" => PaymentStatus::RequiresAction,
        "processing" | "requires_capture" => PaymentStatus::Processing,
        "canceled" => PaymentStatus::Canceled,
        _ => PaymentStatus::RequiresPaymentMethod,
    };
    let error = match status {
        PaymentStatus::RequiresPaymentMethod => Some(decline_message(pi["last_payment_error"]["code"].as_str().unwrap_or("")).to_string()),
        PaymentStatus::Canceled => Some("the payment was canceled".to_string()),
        _ => None,
    };
    ConfirmResponse {
        success: status == PaymentStatus::Succeeded,
        status,
        client_secret: (status == PaymentStatus::RequiresAction).then(|| pi["client_secret"].as_str().unwrap_or("").to_string()),
        payment_intent_id: pi["id"].as_str().map(str::to_string),
        error,
    }
}

pub(super) fn stock_gone() -> ApiError {
    ApiError::conflict("stock gone: the last units went to another buyer; this payment was cancelled and not charged")
}

pub(super) async fn retrieve(state: &State, pi_id: &str) -> ApiResult<Value> {
    state.stripe.call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None).await.map_err(|e| processor_error(&e))
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
    /// It moved on (authorized or captured) and must be settled instead.
    Moved(Value),
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
        Ok(pi) if status(&pi) == "canceled" => return Ok(Verified::Canceled),
        Ok(pi) => eprintln!("cancel of {pi_id} answered {}", status(&pi)),
        Err(e) => eprintln!("cancel of {pi_id} failed: {e}"),
    }
    let pi = retrieve(state, pi_id).await?;
    match status(&pi) {
        "canceled" => Ok(Verified::Canceled),
        "requires_payment_method" | "requires_confirmation" | "requires_action" => {
            Err(ApiError::processor("the payment processor failed to cancel the previous payment; try again"))
        }
        _ => Ok(Verified::Moved(pi)),
    }
}

#[cfg(test)]
mod tests {
    use super::idempotency_key;

    #[test]
    fn keys_of_a_scope_by_generation() {
        assert_eq!(idempotency_key("cs_1", "confirm-1", 0), "cirrus-cs_1-confirm-1");
        assert_eq!(idempotency_key("cs_1", "confirm-1", 2), "cirrus-cs_1-confirm-1-r2");
    }
}
