//! `POST /payments/confirm`: creates and confirms a session's payment, or
//! carries on with the one it has, then settles it (never charges twice).

use std::net::IpAddr;

use axum::extract::State as AxState;
use cirrus_storefront::model::{ConfirmRequest, ConfirmResponse, ServerErrorCode};
use rusqlite::params;

use super::processor::{call_keyed, cancel_verified, read_pi, refused, retrieve, Call, PaymentIntent, PiStatus, Verified};
use super::rates::apply_shipping;
use super::row::{load_session, order_total, price_items, Session};
use super::settle::{forget_cancelled, settle, to_the_end};
use crate::error::{ApiError, ApiResult};
use crate::extract::Checked;
use crate::middleware::ClientAddr;
use crate::stripe::StripeError;
use crate::State;

/// Most payment attempts (distinct tokens, each its own PaymentIntent) one
/// session accepts; the next is refused with 409 `conflict` (card testing).
pub(super) const MAX_ATTEMPTS: i64 = 5;

/// Sends the confirm of the session's current attempt under the attempt's
/// idempotency key ([`call_keyed`]: the same key after a lost answer, a new one
/// after a 5xx or a final refusal) and settles the payment it leaves; a final refusal is answered
/// as [`refused`] says (the buyer's card: decline-like; else 400).
async fn confirm_and_settle(state: &State, session: &Session, pi_id: &str, attempt: i64, token: &str, return_url: &str) -> ApiResult<ConfirmResponse> {
    let mut form = Vec::new();
    if token.starts_with("ctoken_") {
        form.push(("confirmation_token", token.to_string()));
        form.push(("return_url", return_url.to_string()));
    }
    let path = format!("/v1/payment_intents/{pi_id}/confirm");
    let pi = match call_keyed(state, &session.id, &format!("confirm-{attempt}"), &path, &form).await? {
        Ok(pi) => read_pi(pi)?,
        // A decline is an answer about the payment, not a processor failure: re-read it.
        // So is a confirm refused for the payment's state (cancelled or confirmed meanwhile).
        Err(StripeError::Api { status: 402, .. }) => retrieve(state, pi_id).await?,
        Err(StripeError::Api { code: Some(c), .. }) if c == "payment_intent_unexpected_state" => retrieve(state, pi_id).await?,
        Err(e) => return refused(&e, Call::Payment, Some(pi_id)),
    };
    settle(state, session, pi).await
}

/// `POST /payments/confirm`: creates and confirms the session's payment, or
/// carries on with the one the session has (never charges twice).
///
/// Card testing across sessions: a confirm that makes a new payment attempt
/// takes one of the client address's failed attempts first (before the buyer's
/// card reaches the processor, so a burst of concurrent attempts cannot pass the
/// budget), and gets it back only when that attempt's payment succeeds
/// ([`crate::middleware::PaymentLimiter::paid`], called where the order is
/// written: now, or later when a 3-D Secure challenge is finished). A confirm
/// that reads back the session's payment (the same token again, another token
/// while a payment is live) is not an attempt and takes nothing. Past the
/// budget's check, the work runs to its end whether or not the client is
/// still connected ([`to_the_end`]): a payment that reached the processor is
/// captured and gets its order (or its stock back) even when the buyer's
/// connection dropped meanwhile.
///
/// # Errors
/// 400 for a body the core's rules refuse ([`Checked`]), 404 unknown session/rate, 409 stock gone, too many attempts or
/// a completed session, 429 when the client address had its hour's failed
/// payment attempts, 502 processor failure.
pub async fn confirm(
    AxState(state): AxState<State>,
    ClientAddr(client): ClientAddr,
    Checked(req): Checked<ConfirmRequest>,
) -> ApiResult<axum::Json<ConfirmResponse>> {
    to_the_end(confirm_session(state, req, client)).await
}

/// The confirm itself (see [`confirm`]).
async fn confirm_session(state: State, req: ConfirmRequest, client: Option<IpAddr>) -> ApiResult<axum::Json<ConfirmResponse>> {
    // A Stripe ConfirmationToken, else a card token (the body's rules admit these two).
    let is_ctoken = req.confirmation_token_id.starts_with("ctoken_");
    // One confirmation of a session at a time: the session row is read, the processor
    // called and the outcome written without another confirm of it interleaving.
    // Other sessions go on meanwhile.
    let _guard = state.lock_session(&req.session_id).await;
    let sid = req.session_id.clone();
    let session = state.db(move |c| load_session(c, &sid)).await?;
    let token = req.confirmation_token_id.clone();

    if let Some(pi_id) = session.payment_intent_id.clone() {
        let pi = retrieve(&state, &pi_id).await?;
        let same_token = session.token.as_deref() == Some(token.as_str());
        if same_token && !session.completed && never_confirmed(&pi) {
            // The confirm failed at the processor before (or its answer was lost):
            // send it again. Never reported as a decline.
            return confirm_and_settle(&state, &session, &pi_id, session.attempt, &token, &req.return_url).await.map(axum::Json);
        }
        match pi.status {
            PiStatus::RequiresPaymentMethod | PiStatus::RequiresConfirmation | PiStatus::Canceled => {
                if same_token || session.completed {
                    return Ok(axum::Json(settle(&state, &session, pi).await?));
                }
                if session.attempt >= MAX_ATTEMPTS {
                    return Err(too_many_attempts());
                }
                // A new token after a failed attempt: only once the old payment is
                // known cancelled; if it moved on meanwhile, settle that one.
                if pi.status != PiStatus::Canceled {
                    if let Verified::Moved(pi) = cancel_verified(&state, &session, &pi_id).await? {
                        return Ok(axum::Json(settle(&state, &session, pi).await?));
                    }
                }
                // Known cancelled: the stock it held (an authorization cancelled outside
                // this server) goes back before the next attempt takes its own.
                forget_cancelled(&state, &session, &pi_id).await?;
            }
            // That payment goes on (or its status is not known: it may still succeed).
            // Another token gets exactly the answer its own token would (never a
            // second payment while one is live, never a 409 while it may still succeed).
            PiStatus::RequiresAction | PiStatus::Processing | PiStatus::RequiresCapture | PiStatus::Succeeded | PiStatus::Unknown => {
                return Ok(axum::Json(settle(&state, &session, pi).await?));
            }
        }
    } else if session.completed {
        return Err(ApiError::conflict("payment session is already completed"));
    }

    // A new attempt: price the shipping choice, check stock, create the PaymentIntent
    // (authorization only) and record its id BEFORE confirming it.
    let (sid, rate, addr) = (session.id.clone(), req.shipping_rate_id.clone(), req.shipping_address.clone());
    let (amount, attempt) = state
        .db(move |c| {
            let s = load_session(c, &sid)?;
            price_items(c, &s.items).map_err(|e| {
                if e.code == ServerErrorCode::Conflict {
                    ApiError::conflict(format!("stock gone: {}", e.message))
                } else {
                    e
                }
            })?;
            let (shipping, tax) = apply_shipping(c, &s, &rate, &addr)?;
            Ok((order_total(s.subtotal, shipping, tax)?, s.attempt + 1))
        })
        .await?;
    // A new attempt: the buyer's card is about to reach the processor (its token
    // read, a PaymentIntent created with it). Counted as failed until it succeeds.
    state.payment_limiter.attempt(client)?;
    let currency = session.currency.to_ascii_lowercase();
    let mut form = vec![
        ("amount", amount.to_string()),
        ("currency", currency),
        ("capture_method", "manual".to_string()),
        ("metadata[cirrus_session]", session.id.clone()),
    ];
    if is_ctoken {
        form.push(("automatic_payment_methods[enabled]", "true".into()));
    } else {
        let tok = match state.stripe.call(false, &format!("/v1/tokens/{token}"), &[], None).await {
            Ok(tok) => tok,
            Err(e) => return refused(&e, Call::Token, None).map(axum::Json),
        };
        let card = tok["card"]["id"].as_str().ok_or_else(|| ApiError::processor("the payment processor answered a card token without a card"))?;
        form.push(("payment_method", card.to_string()));
    }
    // Refused for good (a card it does not accept, an amount over its maximum): nothing
    // is recorded, the session's previous payment (if any) is known cancelled.
    let pi = match call_keyed(&state, &session.id, &format!("pi-{attempt}"), "/v1/payment_intents", &form).await? {
        Ok(pi) => read_pi(pi)?,
        Err(e) => return refused(&e, Call::Payment, None).map(axum::Json),
    };
    let pi_id = pi.id.to_string();
    state.payment_limiter.attempt_made(&pi_id, client);
    let session = {
        let (sid, pi_id, token) = (session.id.clone(), pi_id.clone(), token.clone());
        state
            .db(move |c| {
                c.execute(
                    // pi_status: the new payment has not been read yet (the previous one's
                    // `canceled` must not make the sweep skip it; unknown, it is read first),
                    // and the sweep's back-off starts again.
                    "UPDATE sessions SET payment_intent_id = ?2, token = ?3, attempt = ?4, outcome = NULL, pi_status = NULL, sweep_at = 0, sweep_idle = 0 WHERE id = ?1",
                    params![sid, pi_id, token, attempt],
                )?;
                load_session(c, &sid)
            })
            .await?
    };
    confirm_and_settle(&state, &session, &pi_id, attempt, &token, &req.return_url).await.map(axum::Json)
}

/// A payment whose confirm never took effect at the processor: created and
/// waiting for its confirm (`requires_confirmation`), or, created without a
/// payment method (a ConfirmationToken attempt), still without one and without
/// a payment error. A decline always carries `last_payment_error`.
fn never_confirmed(pi: &PaymentIntent) -> bool {
    match pi.status {
        PiStatus::RequiresConfirmation => true,
        PiStatus::RequiresPaymentMethod => pi.last_payment_error.is_none() && pi.payment_method.is_none(),
        PiStatus::RequiresAction | PiStatus::Processing | PiStatus::RequiresCapture | PiStatus::Canceled | PiStatus::Succeeded | PiStatus::Unknown => false,
    }
}

fn too_many_attempts() -> ApiError {
    ApiError::conflict(format!(
        "payment session has had {MAX_ATTEMPTS} payment attempts, the most one session accepts; start a new checkout"
    ))
}
