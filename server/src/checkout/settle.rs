//! Settling a payment: the one way a charge becomes an order. Confirm, the
//! processor's webhook and the settlement sweep (at start-up, then
//! periodically) all call [`settle`], and run it to its end ([`to_the_end`]).

use std::future::Future;
use std::time::Duration;

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
const MISSING: &str = "missing";

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

/// The settlement sweep, forever: once at start-up (webhooks missed while
/// the server was down), then every `every` (a payment whose confirm never came
/// back and no webhook announced: the buyer's connection dropped and the
/// server stopped before it finished, a capture that failed, an authentication
/// finished in the buyer's browser). One sweep at a time.
pub async fn sweep_every(state: State, every: Duration) {
    let mut startup = true;
    loop {
        sweep(state.clone(), startup, every).await;
        startup = false;
        tokio::time::sleep(every).await;
    }
}

/// What the sweep does with an open session, by its payment's last known status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum SweepClass {
    /// May be ready to capture or settle (authorized, settling, captured without
    /// its order): read back at every sweep, first.
    Ready,
    /// Waiting on the buyer or failed (a decline, a 3-D Secure challenge, never
    /// confirmed), or a status not known: read back with a per-session back-off.
    Idle,
    /// Known cancelled: never read again (a new attempt starts it over).
    Closed,
}

fn sweep_class(st: PiStatus) -> SweepClass {
    match st {
        PiStatus::RequiresCapture | PiStatus::Processing | PiStatus::Succeeded => SweepClass::Ready,
        PiStatus::RequiresPaymentMethod | PiStatus::RequiresConfirmation | PiStatus::RequiresAction | PiStatus::Unknown => SweepClass::Idle,
        PiStatus::Canceled => SweepClass::Closed,
    }
}

/// The `sessions.pi_status` values of `class`, as an SQL list (`'a', 'b'`);
/// `missing` (unknown to the processor, [`MISSING`]) is closed too.
fn statuses_sql(class: SweepClass) -> String {
    let mut names: Vec<&str> = PiStatus::ALL.into_iter().filter(|s| sweep_class(*s) == class).map(PiStatus::as_str).collect();
    if class == SweepClass::Closed {
        names.push(MISSING);
    }
    names.iter().map(|n| format!("'{n}'")).collect::<Vec<_>>().join(", ")
}

/// Idle sessions read back in one sweep, at most (and only while the sweep has
/// run for less than its interval): a sweep's length is bounded, whatever the
/// number of abandoned sessions, so the ready ones of the next sweep never wait
/// behind them.
const IDLE_PER_SWEEP: usize = 100;
/// Longest back-off of an idle session: read back at least this often (seconds).
const IDLE_BACKOFF_MAX_SECS: i64 = 3600;

/// The back-off after `idle` idle reads in a row: the sweep interval doubled
/// per read, at most [`IDLE_BACKOFF_MAX_SECS`].
fn idle_backoff(every: Duration, idle: i64) -> i64 {
    let every = i64::try_from(every.as_secs().max(1)).unwrap_or(IDLE_BACKOFF_MAX_SECS);
    every.saturating_mul(1_i64 << idle.clamp(0, 20)).min(IDLE_BACKOFF_MAX_SECS)
}

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// Open sessions with a payment to read back, `(id, payment id)`: every ready
/// one (a payment that may be ready to capture or settle, or one whose status
/// is not known yet: its confirm's answer may have been lost), oldest first;
/// then at most `idle_limit` idle ones whose back-off is over, the longest due
/// first.
fn sweep_lists(c: &Connection, now: i64, idle_limit: usize) -> rusqlite::Result<(Vec<(String, String)>, Vec<(String, String)>)> {
    let (ready, closed) = (statuses_sql(SweepClass::Ready), statuses_sql(SweepClass::Closed));
    let row = |r: &rusqlite::Row<'_>| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?));
    let ready_rows = c
        .prepare_cached(&format!(
            "SELECT id, payment_intent_id FROM sessions
             WHERE completed = 0 AND payment_intent_id IS NOT NULL AND (pi_status IS NULL OR pi_status IN ({ready}))
             ORDER BY created_at, id"
        ))?
        .query_map([], row)?
        .collect::<Result<Vec<_>, _>>()?;
    let idle_rows = c
        .prepare_cached(&format!(
            "SELECT id, payment_intent_id FROM sessions
             WHERE completed = 0 AND sweep_at <= ?1 AND payment_intent_id IS NOT NULL
               AND pi_status IS NOT NULL AND pi_status NOT IN ({ready}) AND pi_status NOT IN ({closed})
             ORDER BY sweep_at, created_at DESC, id LIMIT ?2"
        ))?
        .query_map(params![now, i64::try_from(idle_limit).unwrap_or(i64::MAX)], row)?
        .collect::<Result<Vec<_>, _>>()?;
    Ok((ready_rows, idle_rows))
}

/// One sweep: reads back and settles, each under its lock as a webhook would,
/// first every open session whose payment may be ready to capture or settle,
/// then a bounded number of idle ones whose back-off is over ([`sweep_lists`]);
/// each idle one read is not read again for [`idle_backoff`] (the interval,
/// doubled per idle read in a row, at most an hour), so abandoned sessions,
/// however many, cost at most [`IDLE_PER_SWEEP`] reads a sweep and a lost
/// capture is settled at the next sweep. The start-up sweep logs every session
/// it read; a periodic one only what it settled (an order, or stock gone) and
/// its failures stay quiet, since the next sweep asks again.
/// Returns (sessions read back, orders written).
async fn sweep(state: State, startup: bool, every: Duration) -> (usize, usize) {
    let t0 = std::time::Instant::now();
    let lists = state.db(move |c| Ok(sweep_lists(c, unix_now(), IDLE_PER_SWEEP)?)).await;
    let listed = t0.elapsed();
    let (ready, idle) = match lists {
        Ok(o) => o,
        Err(e) => {
            eprintln!("sweep: cannot list open sessions: {}", e.message);
            return (0, 0);
        }
    };
    let (mut read, mut ordered) = (0, 0);
    for (sid, pi_id) in &ready {
        read += 1;
        ordered += usize::from(sweep_one(&state, sid, pi_id, startup).await);
    }
    let mut idle_read = Vec::new();
    for (sid, pi_id) in &idle {
        if t0.elapsed() >= every {
            break; // the rest at the next sweep
        }
        ordered += usize::from(sweep_one(&state, sid, pi_id, startup).await);
        idle_read.push(sid.clone());
    }
    read += idle_read.len();
    // Each idle session read is not read again before its back-off is over (one
    // transaction for the sweep's idle reads).
    if !idle_read.is_empty() {
        let backed_off = state
            .db(move |c| {
                let (tx, now) = (c.transaction()?, unix_now());
                for sid in &idle_read {
                    let idle: i64 = tx.query_row("SELECT sweep_idle FROM sessions WHERE id = ?1", [sid], |r| r.get(0))?;
                    tx.execute(
                        "UPDATE sessions SET sweep_idle = ?2, sweep_at = ?3 WHERE id = ?1",
                        params![sid, idle.saturating_add(1), now.saturating_add(idle_backoff(every, idle))],
                    )?;
                }
                tx.commit()?;
                Ok(())
            })
            .await;
        if let Err(e) = backed_off {
            eprintln!("sweep: cannot record the back-off of idle sessions: {}", e.message);
        }
    }
    if (startup && read > 0) || ordered > 0 {
        eprintln!(
            "sweep: {read} open payment(s) read back ({} ready, {} idle due; listed in {} ms, swept in {} ms), {ordered} order(s) written",
            ready.len(),
            idle.len(),
            listed.as_millis(),
            t0.elapsed().as_millis()
        );
    }
    (read, ordered)
}

/// Reads back and settles one session's payment; whether an order was written.
async fn sweep_one(state: &State, sid: &str, pi_id: &str, startup: bool) -> bool {
    match settle_event(state, sid, pi_id).await {
        Ok(Settled::Read(st)) => {
            if startup || st == PaymentStatus::Succeeded {
                eprintln!("sweep: session {sid} payment {pi_id}: {st:?}");
            }
            st == PaymentStatus::Succeeded
        }
        Ok(Settled::Missing) => {
            eprintln!("sweep: session {sid} payment {pi_id}: unknown to the processor, not asked again");
            false
        }
        Ok(Settled::AlreadyDone | Settled::NotOurs) => false,
        Err(e) => {
            if startup || e.code == ServerErrorCode::Conflict {
                eprintln!("sweep: session {sid} payment {pi_id}: {} ({:?})", e.message, e.code);
            }
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{idle_backoff, statuses_sql, SweepClass};
    use std::time::Duration;

    #[test]
    fn idle_sessions_back_off_exponentially_up_to_an_hour() {
        let every = Duration::from_secs(30);
        assert_eq!((0..9).map(|n| idle_backoff(every, n)).collect::<Vec<_>>(), [30, 60, 120, 240, 480, 960, 1920, 3600, 3600]);
        assert_eq!(idle_backoff(Duration::from_secs(1), 1000), 3600);
        assert_eq!(idle_backoff(Duration::from_secs(1), -1), 1);
    }

    #[test]
    fn every_status_has_its_class() {
        assert_eq!(statuses_sql(SweepClass::Ready), "'processing', 'requires_capture', 'succeeded'");
        assert_eq!(statuses_sql(SweepClass::Idle), "'requires_payment_method', 'requires_confirmation', 'requires_action', 'unknown'");
        assert_eq!(statuses_sql(SweepClass::Closed), "'canceled', 'missing'");
    }
}
