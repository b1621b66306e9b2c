//! The settlement sweep: at start-up, then periodically, open sessions'
//! payments are read back from the processor and settled ([`settle_event`]),
//! those that may be ready to capture or settle first, idle ones with a
//! back-off per session (CONTRACT.md "Reconciliation at scale").

use std::time::Duration;

use cirrus_storefront::model::{PaymentStatus, ServerErrorCode};
use rusqlite::{params, Connection};

use super::processor::PiStatus;
use super::settle::{settle_event, Settled, MISSING};
use crate::State;

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
/// first, then the newest. A session settled as stock gone (its payment
/// cancelled or refunded: `outcome`) is idle whatever its status.
fn sweep_lists(c: &Connection, now: i64, idle_limit: usize) -> rusqlite::Result<(Vec<(String, String)>, Vec<(String, String)>)> {
    let (ready, closed) = (statuses_sql(SweepClass::Ready), statuses_sql(SweepClass::Closed));
    let row = |r: &rusqlite::Row<'_>| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?));
    let ready_rows = c
        .prepare_cached(&format!(
            "SELECT id, payment_intent_id FROM sessions
             WHERE completed = 0 AND payment_intent_id IS NOT NULL AND (pi_status IS NULL OR pi_status IN ({ready})) AND outcome IS NULL
             ORDER BY created_at, id"
        ))?
        .query_map([], row)?
        .collect::<Result<Vec<_>, _>>()?;
    let idle_rows = c
        .prepare_cached(&format!(
            "SELECT id, payment_intent_id FROM sessions
             WHERE completed = 0 AND sweep_at <= ?1 AND payment_intent_id IS NOT NULL
               AND pi_status IS NOT NULL AND pi_status NOT IN ({closed}) AND (pi_status NOT IN ({ready}) OR outcome IS NOT NULL)
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
    fn ready_sessions_are_listed_first_and_idle_ones_when_due() {
        let c = crate::db::open(":memory:", 1, false).unwrap();
        let rows: [(&str, Option<&str>, i64, Option<&str>, i64); 9] = [
            ("cs_capture", Some("requires_capture"), 0, None, 0),
            ("cs_unread", None, 0, None, 0),
            ("cs_processing", Some("processing"), 500, None, 0),
            ("cs_action_due", Some("requires_action"), 90, None, 0),
            ("cs_action_later", Some("requires_action"), 200, None, 0),
            ("cs_declined_due", Some("requires_payment_method"), 10, None, 0),
            ("cs_refunded", Some("succeeded"), 0, Some("stock_gone"), 0),
            ("cs_canceled", Some("canceled"), 0, None, 0),
            ("cs_done", Some("succeeded"), 0, None, 1),
        ];
        for (i, (id, st, at, outcome, done)) in rows.iter().enumerate() {
            c.execute(
                "INSERT INTO sessions (id, currency, items, subtotal, shipping, tax, payment_intent_id, completed, created_at, pi_status, outcome, sweep_at)
                 VALUES (?1, 'USD', '[]', 100, 0, 0, ?2, ?3, ?4, ?5, ?6, ?7)",
                rusqlite::params![id, format!("pi_{i}"), done, format!("2026-11-28T00:00:0{i}Z"), st, outcome, at],
            )
            .unwrap();
        }
        let ids = |v: Vec<(String, String)>| v.into_iter().map(|(id, _)| id).collect::<Vec<_>>();
        let (ready, idle) = super::sweep_lists(&c, 100, 10).unwrap();
        assert_eq!(ids(ready), ["cs_capture", "cs_unread", "cs_processing"], "ready whatever their back-off, oldest first");
        assert_eq!(ids(idle), ["cs_refunded", "cs_declined_due", "cs_action_due"], "idle when due, longest due first");
        let (_, idle) = super::sweep_lists(&c, 100, 2).unwrap();
        assert_eq!(ids(idle), ["cs_refunded", "cs_declined_due"], "at most the limit");
    }

    #[test]
    fn every_status_has_its_class() {
        assert_eq!(statuses_sql(SweepClass::Ready), "'processing', 'requires_capture', 'succeeded'");
        assert_eq!(statuses_sql(SweepClass::Idle), "'requires_payment_method', 'requires_confirmation', 'requires_action', 'unknown'");
        assert_eq!(statuses_sql(SweepClass::Closed), "'canceled', 'missing'");
    }
}
