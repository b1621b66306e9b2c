//! Payment sessions: `initiate` opens one, `update` applies a shipping choice
//! (CONTRACT.md "Payments").

use axum::extract::State as AxState;
use cirrus_storefront::model::{InitiateRequest, InitiateResponse, Processor, UpdateRequest, UpdateResponse};
use rusqlite::params;

use super::processor::{cancel_verified, retrieve, PiStatus, Verified};
use super::rates::apply_shipping;
use super::settle::{forget_cancelled, to_the_end};
use super::row::{breakdown, load_session, price_items, store_currency};
use crate::error::{ApiError, ApiResult};
use crate::extract::Checked;
use crate::middleware::{ClientAddr, Counted};
use crate::util::{now_iso, random_hex};
use crate::State;

/// `POST /payments/initiate`
///
/// # Errors
/// 400 for a body the core's rules refuse ([`Checked`]) or another currency
/// than the store's, 404 for an unknown variant, 409 when stock is short, 429
/// when the client address opened its hour's payment sessions.
pub async fn initiate(
    AxState(state): AxState<State>,
    ClientAddr(client): ClientAddr,
    Checked(req): Checked<InitiateRequest>,
) -> ApiResult<axum::Json<InitiateResponse>> {
    state.payment_limiter.count(Counted::Initiate, client, true)?;
    let publishable_key = state.config.stripe_publishable_key.clone();
    state
        .db(move |c| {
            let currency = store_currency(c)?;
            if req.currency != currency {
                return Err(ApiError::bad_request(format!("currency: must be the store currency {currency}, got {:?}", req.currency)));
            }
            let subtotal = price_items(c, &req.items)?;
            let id = format!("cs_{}", random_hex(16));
            let items = serde_json::to_string(&req.items).map_err(ApiError::internal)?;
            c.execute(
                "INSERT INTO sessions (id, currency, items, subtotal, shipping, tax, created_at) VALUES (?1, ?2, ?3, ?4, 0, 0, ?5)",
                params![id, currency, items, subtotal, now_iso()],
            )?;
            Ok(axum::Json(InitiateResponse {
                processor: Processor::Stripe,
                session_id: id,
                publishable_key,
                amount: subtotal,
                currency,
                breakdown: breakdown(subtotal, 0, 0)?,
            }))
        })
        .await
}

/// `POST /payments/update`
///
/// # Errors
/// 400 for a body the core's rules refuse ([`Checked`]) or a rate that does
/// not serve the order, 404 for an unknown session or rate, 409 for a completed
/// session or one whose payment awaits authentication, 502 if the processor
/// cannot be asked about it.
pub async fn update(AxState(state): AxState<State>, Checked(req): Checked<UpdateRequest>) -> ApiResult<axum::Json<UpdateResponse>> {
    // A cancel sent to the processor is recorded even if the client went away meanwhile.
    to_the_end(update_session(state, req)).await
}

async fn update_session(state: State, req: UpdateRequest) -> ApiResult<axum::Json<UpdateResponse>> {
    let _guard = state.lock_session(&req.session_id).await;
    let sid = req.session_id.clone();
    let session = state.db(move |c| load_session(c, &sid)).await?;
    if session.completed {
        return Err(ApiError::conflict("payment session is already completed"));
    }
    // A payment awaiting authentication (or done) fixes the amount: changing
    // shipping now would make the session disagree with what is charged. A failed
    // or never-confirmed one is cancelled first (and verified), so it cannot
    // complete later at the old amount.
    if let Some(pi_id) = &session.payment_intent_id {
        let pi = retrieve(&state, pi_id).await?;
        match pi.status {
            // Cancelled outside this server: whatever stock it held goes back now.
            PiStatus::Canceled => forget_cancelled(&state, &session, pi_id).await?,
            PiStatus::RequiresPaymentMethod | PiStatus::RequiresConfirmation => match cancel_verified(&state, &session, pi_id).await? {
                Verified::Canceled => {
                    let sid = session.id.clone();
                    // The next confirm starts a new attempt, whatever its token.
                    state.db(move |c| Ok(c.execute("UPDATE sessions SET token = NULL WHERE id = ?1", [&sid])?)).await?;
                }
                Verified::Moved(pi) => {
                    return Err(ApiError::conflict(format!("payment session has a payment in progress ({})", pi.status.as_str())));
                }
            },
            st @ (PiStatus::RequiresAction | PiStatus::Processing | PiStatus::RequiresCapture | PiStatus::Succeeded | PiStatus::Unknown) => {
                return Err(ApiError::conflict(format!("payment session has a payment in progress ({})", st.as_str())));
            }
        }
    }
    state
        .db(move |c| {
            let s = load_session(c, &req.session_id)?;
            let (shipping, tax) = apply_shipping(c, &s, &req.shipping_rate_id, &req.shipping_address)?;
            let b = breakdown(s.subtotal, shipping, tax)?;
            Ok(axum::Json(UpdateResponse { session_id: s.id, amount: b.total, currency: s.currency, breakdown: b }))
        })
        .await
}
