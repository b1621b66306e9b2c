//! Settling a payment: the one way a charge becomes an order. Confirm, the
//! processor's webhook and the settlement sweep (at start-up, then
//! periodically) all call [`settle`], and run it to its end ([`to_the_end`]).

use std::future::Future;

use cirrus_storefront::model::{ConfirmResponse, PaymentItem, PaymentStatus, ServerErrorCode};
use rusqlite::{params, Connection, OptionalExtension};

use super::processor::{call_keyed, cancel_verified, processor_error, read_pi, result_of, stock_gone, PaymentIntent, PiStatus, Verified};
use super::row::{load_session, Session};
use crate::error::{ApiError, ApiResult};
use crate::stripe::StripeError;
use crate::util::{now_iso, random_hex};
use crate::State;

/// Runs `work` to its end, whether or not the caller is still waiting for it:
/// the work is a task of its own, so dropping the caller's future (the client
/// went away and the server dropped its request) does not cancel it midway, for
/// example between taking the stock and capturing, or between the capture and
/// the order (CONTRACT.md "The server finishes what reached the processor").
///
/// # Errors
/// Whatever `work` returns; `internal` if its task panicked.
pub async fn to_the_end<T: Send + 'static>(work: impl Future<Output = ApiResult<T>> + Send + 'static) -> ApiResult<T> {
    tokio::spawn(work).await?
}

/// The outcome of taking a session's stock for a payment.
enum Stock {
    Taken,
    Gone,
}

/// Drops the rendered JSON of the products of `items` (their stock changed).
fn forget_products(state: &State, c: &Connection, items: &[PaymentItem]) -> ApiResult<()> {
    let mut cache = state.product_json.lock().map_err(|_| ApiError::internal("cache lock poisoned"))?;
    for item in items {
        let pid: Option<String> =
            c.prepare_cached("SELECT product_id FROM variants WHERE id = ?1")?.query_row([&item.variant_id], |r| r.get(0)).optional()?;
        if let Some(pid) = pid {
            cache.remove(&pid);
        }
    }
    Ok(())
}

/// Takes every item's stock for `pi_id` in one transaction, or none of it.
async fn take_stock(state: &State, session: &Session, pi_id: &str) -> ApiResult<Stock> {
    let (sid, pi_id, st) = (session.id.clone(), pi_id.to_string(), state.clone());
    state
        .db(move |c| {
            let tx = c.transaction()?;
            let s = load_session(&tx, &sid)?;
            if s.stock_pi.as_deref() == Some(pi_id.as_str()) {
                return Ok(Stock::Taken);
            }
            for item in &s.items {
                let n = tx.execute(
                    "UPDATE variants SET stock = stock - ?2 WHERE id = ?1 AND stock >= ?2",
                    params![item.variant_id, item.quantity],
                )?;
                if n == 0 {
                    return Ok(Stock::Gone); // dropped: rolled back, nothing taken
                }
            }
            tx.execute("UPDATE sessions SET stock_pi = ?2 WHERE id = ?1", params![sid, pi_id])?;
            tx.commit()?;
            forget_products(&st, c, &s.items)?;
            Ok(Stock::Taken)
        })
        .await
}

/// Gives back the stock `pi_id` held (its authorization was cancelled or expired).
async fn release_stock(state: &State, session: &Session, pi_id: &str) -> ApiResult<()> {
    let (sid, pi_id, st) = (session.id.clone(), pi_id.to_string(), state.clone());
    state
        .db(move |c| {
            let tx = c.transaction()?;
            let s = load_session(&tx, &sid)?;
            if s.completed || s.stock_pi.as_deref() != Some(pi_id.as_str()) {
                return Ok(());
            }
            for item in &s.items {
                tx.execute("UPDATE variants SET stock = stock + ?2 WHERE id = ?1", params![item.variant_id, item.quantity])?;
            }
            tx.execute("UPDATE sessions SET stock_pi = NULL WHERE id = ?1", [&sid])?;
            tx.commit()?;
            forget_products(&st, c, &s.items)
        })
        .await
}

/// Forgets payment `pi_id` of `session`, known cancelled at the processor: its
/// status is recorded and the stock it held is given back (an authorization
/// cancelled or expired outside this server), so a new attempt never leaves it
/// taken. The caller holds the session's lock.
pub(super) async fn forget_cancelled(state: &State, session: &Session, pi_id: &str) -> ApiResult<()> {
    record_status(state, session, pi_id, PiStatus::Canceled.as_str()).await?;
    release_stock(state, session, pi_id).await
}

async fn mark_stock_gone(state: &State, session: &Session) -> ApiResult<()> {
    let sid = session.id.clone();
    state.db(move |c| Ok(c.execute("UPDATE sessions SET outcome = 'stock_gone' WHERE id = ?1", [&sid])?)).await?;
    Ok(())
}

/// Records the order of captured payment `pi` and closes the session, once. The
/// order's payment id is `pi`'s, a [`super::processor::PiId`]: never empty, so no order is ever
/// written without its payment (a PaymentIntent read without an id never gets
/// here: [`super::processor::read_pi`] refuses it).
async fn record_order(state: &State, session: &Session, pi: &PaymentIntent) -> ApiResult<()> {
    let sid = session.id.clone();
    let pi_id = pi.id.clone();
    let paid_pi = pi_id.clone();
    let amount = pi.amount.ok_or_else(|| ApiError::internal("captured payment without an amount"))?;
    state
        .db(move |c| {
            let tx = c.transaction()?;
            let s = load_session(&tx, &sid)?;
            if s.completed {
                return Ok(());
            }
            tx.execute(
                "INSERT INTO orders (id, session_id, payment_intent_id, amount, currency, items, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    format!("ord_{}", random_hex(12)), s.id, pi_id.as_str(), amount, s.currency,
                    serde_json::to_string(&s.items).map_err(ApiError::internal)?, now_iso()
                ],
            )?;
            tx.execute("UPDATE sessions SET completed = 1 WHERE id = ?1", [&s.id])?;
            tx.commit()?;
            Ok(())
        })
        .await?;
    // The attempt succeeded: the failed attempt taken for it goes back to its client.
    state.payment_limiter.paid(paid_pi.as_str());
    Ok(())
}

/// Settles a session's current PaymentIntent `pi` (as just read from the
/// processor) and says what became of it, in the confirm's terms. The caller
/// holds the session's lock ([`crate::AppState::lock_session`]).
///
/// Payments are authorized only (`capture_method=manual`). An authorized one
/// takes the stock (all items, one transaction) and is captured, then the order
/// is written; when the stock is gone it is cancelled instead (verified) and the
/// answer is 409 `conflict` without a charge. A payment captured without an
/// order gets its order (or, stock gone, its refund). A failure in between is
/// picked up by the next call (a confirm, a webhook, the start-up sweep), which
/// reads the payment again and carries on from its status. Exactly one order per
/// session whoever calls: the lock, the order's `UNIQUE (session_id)` and the
/// session's `completed` flag, checked in the order's transaction.
///
/// # Errors
/// 409 stock gone, 502 when the processor fails (nothing is lost: call again).
pub(super) async fn settle(state: &State, session: &Session, pi: PaymentIntent) -> ApiResult<ConfirmResponse> {
    let pi_id = pi.id.to_string();
    record_status(state, session, &pi_id, pi.status.as_str()).await?;
    let holds_stock = session.stock_pi.as_deref() == Some(pi_id.as_str());
    match pi.status {
        PiStatus::RequiresCapture => {
            if !holds_stock {
                if let Stock::Gone = take_stock(state, session, &pi_id).await? {
                    return match cancel_verified(state, session, &pi_id).await? {
                        Verified::Canceled => {
                            record_status(state, session, &pi_id, PiStatus::Canceled.as_str()).await?;
                            mark_stock_gone(state, session).await?;
                            Err(stock_gone())
                        }
                        Verified::Moved(_) => Err(ApiError::processor("the payment processor failed to cancel the payment; try again")),
                    };
                }
            }
            let path = format!("/v1/payment_intents/{pi_id}/capture");
            let captured = call_keyed(state, &session.id, &format!("capture-{pi_id}"), &path, &[]).await?.map_err(|e| processor_error(&e))?;
            // An answer without the payment's id (or status) writes nothing: the next
            // confirm, webhook or sweep reads the payment again and settles it.
            let captured = read_pi(captured)?;
            record_status(state, session, captured.id.as_str(), captured.status.as_str()).await?;
            if captured.status == PiStatus::Succeeded {
                record_order(state, session, &captured).await?;
            }
            Ok(result_of(&captured))
        }
        PiStatus::Succeeded if session.outcome.as_deref() == Some("stock_gone") => Err(stock_gone()),
        PiStatus::Succeeded => {
            // Captured without holding stock (a payment made with automatic capture):
            // take it now, or give the money back.
            if !holds_stock && !session.completed {
                if let Stock::Gone = take_stock(state, session, &pi_id).await? {
                    let form = [("payment_intent", pi_id.clone())];
                    call_keyed(state, &session.id, &format!("refund-{pi_id}"), "/v1/refunds", &form).await?.map_err(|e| processor_error(&e))?;
                    mark_stock_gone(state, session).await?;
                    return Err(stock_gone());
                }
            }
            record_order(state, session, &pi).await?;
            Ok(result_of(&pi))
        }
        PiStatus::Canceled => {
            if holds_stock {
                release_stock(state, session, &pi_id).await?;
            }
            if session.outcome.as_deref() == Some("stock_gone") {
                return Err(stock_gone());
            }
            Ok(result_of(&pi))
        }
        // Created but never confirmed: never reported as a decline.
        PiStatus::RequiresConfirmation => Err(ApiError::processor("the payment processor has not confirmed the payment; try again")),
        // Not settled yet (or a status not known): answered as it is, read again later.
        PiStatus::RequiresPaymentMethod | PiStatus::RequiresAction | PiStatus::Processing | PiStatus::Unknown => Ok(result_of(&pi)),
    }
}

/// Keeps the status the processor last gave for the session's payment `pi_id`
/// (the sweep skips sessions whose payment is known cancelled and orders the
/// others by it).
async fn record_status(state: &State, session: &Session, pi_id: &str, st: &str) -> ApiResult<()> {
    let (sid, pi_id, st) = (session.id.clone(), pi_id.to_string(), st.to_string());
    state
        .db(move |c| {
            c.execute("UPDATE sessions SET pi_status = ?3 WHERE id = ?1 AND payment_intent_id = ?2", params![sid, pi_id, st])?;
            Ok(())
        })
        .await
}

/// What [`settle_event`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    /// The payment was read back and settled; its status now.
    Read(PaymentStatus),
    /// The session already has its order: nothing to do.
    AlreadyDone,
    /// No such session here, or `pi_id` is not its current payment: ignored.
    NotOurs,
    /// The processor does not know the payment (404): recorded as `missing`.
    Missing,
}

/// `sessions.pi_status` of a payment the processor answered 404 for.
pub(super) const MISSING: &str = "missing";

/// Settles payment `pi_id` of session `session_id` without a confirm: what the
/// processor's webhook and the settlement sweep call. Takes the session's
/// lock, reads the payment back from the processor (the event's copy may be
/// stale) and [`settle`]s it, exactly as a confirm would, to its end even if the
/// caller goes away ([`to_the_end`]).
///
/// # Errors
/// 502 when the processor cannot be asked or fails while settling (call again),
/// 409 when the stock was gone (the payment is cancelled, nothing charged).
pub async fn settle_event(state: &State, session_id: &str, pi_id: &str) -> ApiResult<Settled> {
    let (state, session_id, pi_id) = (state.clone(), session_id.to_string(), pi_id.to_string());
    to_the_end(async move { settle_read_back(&state, &session_id, &pi_id).await }).await
}

async fn settle_read_back(state: &State, session_id: &str, pi_id: &str) -> ApiResult<Settled> {
    let _guard = state.lock_session(session_id).await;
    let sid = session_id.to_string();
    let session = match state.db(move |c| load_session(c, &sid)).await {
        Ok(s) => s,
        Err(e) if e.code == ServerErrorCode::NotFound => return Ok(Settled::NotOurs),
        Err(e) => return Err(e),
    };
    if session.payment_intent_id.as_deref() != Some(pi_id) {
        return Ok(Settled::NotOurs);
    }
    if session.completed {
        return Ok(Settled::AlreadyDone);
    }
    let pi = match state.stripe.call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None).await {
        Ok(pi) => read_pi(pi)?,
        // The processor does not know it (localstripe restarted, another account's key): nothing
        // can be charged or captured with this key; recorded, so the sweep stops asking.
        Err(StripeError::Api { status: 404, .. }) => {
            record_status(state, &session, pi_id, MISSING).await?;
            return Ok(Settled::Missing);
        }
        Err(e) => return Err(processor_error(&e)),
    };
    let settled = settle(state, &session, pi).await?;
    Ok(Settled::Read(settled.status))
}
