//! Talking to the processor about a session's payment: reading a
//! PaymentIntent, cancelling one (verified), idempotency keys, and the
//! contract's wording of its answers and failures.

use cirrus_storefront::model::{ConfirmResponse, PaymentStatus};
use rusqlite::OptionalExtension;
use serde_json::Value;

use super::record::Session;
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

/// Why a payment needs a new payment method, in our words (never the processor's text).
fn decline_message(pi: &Value) -> &'static str {
    match pi["last_payment_error"]["code"].as_str() {
        Some("payment_intent_authentication_failure") => "card authentication failed; try again or use another card",
        Some("expired_card") => "the card has expired",
        Some("incorrect_cvc") => "the card's security code is incorrect",
        Some("card_declined" | "insufficient_funds" | "card_velocity_exceeded") => "the card was declined",
        _ => "the payment was not completed; use another payment method",
    }
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
        PaymentStatus::RequiresPaymentMethod => Some(decline_message(pi).to_string()),
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
/// the scope moves to its next generation (`cirrus-<session>-<scope>-r<n>`), so
/// the retry is a new request. Every operation sent this way is guarded by the
/// payment's state at the processor (a PaymentIntent is confirmed, captured or
/// cancelled at most once, a refund never exceeds the charge), except creation:
/// a PaymentIntent created by a request that answered 5xx is never confirmed,
/// so it can never charge.
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
    if matches!(&answer, Err(StripeError::Api { status, .. }) if *status >= 500) {
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
