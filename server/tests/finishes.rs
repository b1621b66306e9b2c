//! The server finishes what reached the processor (CONTRACT.md "Payments"):
//! a confirm whose client went away mid-capture still captures and writes the
//! order (and the stock it took is sold, not left held), and the periodic
//! settlement sweep settles a charge without its order with no further
//! request and no webhook. Against a REAL localstripe, with the processor
//! fault hooks slowing or failing the server's calls.

mod common;

use std::time::{Duration, Instant};

use common::pay::{
    assert_charged_once, captured_charges, card_token, confirm_body, new_session, orders_of, payment_intents, pick_variant,
    processor_fault, stock,
};
use common::{assert_error, binary_refuses, localstripe, spawn_with, Server};
use serde_json::json;

const VISA: &str = "4242424242424242";

async fn server(sweep_secs: u64) -> Server {
    let ls = localstripe();
    spawn_with(|c| {
        c.test_hooks = true;
        c.stripe_api_base = ls;
        c.sweep_secs = sweep_secs;
    })
    .await
}

/// Waits up to `limit` for `session`'s order; whether it came.
async fn order_within(s: &Server, session: &str, limit: Duration) -> bool {
    let t0 = Instant::now();
    while t0.elapsed() < limit {
        if orders_of(s, session).await > 0 {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    false
}

#[tokio::test]
async fn a_client_that_gives_up_mid_capture_still_gets_its_order() {
    // The longest sweep interval: no sweep runs while this test waits.
    let s = server(60).await;
    let (v, slug, before, _) = pick_variant(&s, 2, 0).await;
    let sid = new_session(&s, &v, 2).await;
    let tok = card_token(VISA).await;
    // Authorized and the stock taken quickly; the capture waits 2 s, and the buyer's
    // connection goes away after 1 s (a closed tab, the SDK's own timeout).
    processor_fault(&s, json!({ "op": "capture", "kind": "slow", "delayMs": 2000 })).await;
    let gave_up = s
        .req(reqwest::Method::POST, "/payments/confirm")
        .json(&confirm_body(&sid, &tok, "rate_us_express"))
        .timeout(Duration::from_millis(1000))
        .send()
        .await;
    assert!(gave_up.as_ref().is_err_and(reqwest::Error::is_timeout), "the client gave up before the answer: {gave_up:?}");
    assert_eq!(orders_of(&s, &sid).await, 0, "not yet: the capture is still waiting");
    // No further request for this session: the order appears on its own.
    assert!(order_within(&s, &sid, Duration::from_secs(10)).await, "no order 10 s after the client went away mid-capture");
    assert_eq!(captured_charges(&sid).await, 1, "captured once");
    assert_eq!(payment_intents(&sid).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 2, "the stock taken is the stock sold, once");
    // The buyer comes back: the same answer a confirm that stayed would have had.
    let r = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(r["status"], "succeeded", "{r}");
    assert_charged_once(&s, &sid).await;
}

#[tokio::test]
async fn a_client_that_gives_up_mid_confirm_still_gets_its_order() {
    let s = server(60).await;
    let (v, slug, before, _) = pick_variant(&s, 1, 1).await;
    let sid = new_session(&s, &v, 1).await;
    // The confirm itself is slow: the client leaves before it reaches the processor's answer.
    processor_fault(&s, json!({ "op": "confirm", "kind": "slow", "delayMs": 2000 })).await;
    let gave_up = s
        .req(reqwest::Method::POST, "/payments/confirm")
        .json(&confirm_body(&sid, &card_token(VISA).await, "rate_us_express"))
        .timeout(Duration::from_millis(1000))
        .send()
        .await;
    assert!(gave_up.as_ref().is_err_and(reqwest::Error::is_timeout), "{gave_up:?}");
    assert!(order_within(&s, &sid, Duration::from_secs(10)).await, "no order after the client went away mid-confirm");
    assert_charged_once(&s, &sid).await;
    assert_eq!(stock(&s, &slug, &v).await, before - 1);
}

#[tokio::test]
async fn the_periodic_sweep_settles_a_charge_without_its_order() {
    let s = server(1).await;
    let (v, slug, before, _) = pick_variant(&s, 1, 2).await;
    let sid = new_session(&s, &v, 1).await;
    // Authorized, stock taken, the capture fails: the confirm answers 502 and the
    // buyer never confirms again; no webhook is configured.
    processor_fault(&s, json!({ "op": "capture", "kind": "status", "status": 500 })).await;
    let r = s.post("/payments/confirm", &confirm_body(&sid, &card_token(VISA).await, "rate_us_express")).await;
    assert_error(r, 502, "processor_error", "payment processor").await;
    assert_eq!(payment_intents(&sid).await[0]["status"], "requires_capture", "authorized, not captured by the confirm");
    assert!(order_within(&s, &sid, Duration::from_secs(8)).await, "no order 8 s later with a sweep every second");
    assert_eq!(captured_charges(&sid).await, 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 1);
    // The sweep settles once: later sweeps leave the order alone.
    tokio::time::sleep(Duration::from_millis(2500)).await;
    assert_charged_once(&s, &sid).await;
}

/// How many PaymentIntents `s` has read from the processor (test hook).
async fn retrieves(s: &Server) -> u64 {
    let v: serde_json::Value = s.http.get(format!("{}/__test/processor-calls", s.origin)).send().await.unwrap().json().await.unwrap();
    v["retrieve"].as_u64().unwrap()
}

/// Abandoned 3-D Secure sessions piling up do not delay a lost capture (CONTRACT.md
/// "Reconciliation at scale"): with 10,000 of them in the database, an authorized
/// payment whose capture failed gets its order within a minute, and the sweep does
/// not read every abandoned session at every sweep. The abandoned sessions are
/// real ones: three made through the API by a server of their own (a 3-D Secure
/// card, the challenge never answered; the server then stops), each row copied
/// as it is (every column but the id) to make 10,000, so the sweep sees exactly
/// what it would of real ones, and reading one back asks localstripe about a real
/// PaymentIntent waiting for its challenge.
#[tokio::test]
async fn a_lost_capture_is_settled_within_a_minute_among_10000_abandoned_sessions() {
    const ABANDONED: usize = 10_000;
    let dir = std::env::temp_dir().join(format!("cirrus-sweep-{}", &common::random_key()[3..15]));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("dev.sqlite").to_str().unwrap().to_string();
    let key = common::random_key();
    let (ls, db1, key1) = (localstripe(), db.clone(), key.clone());
    let real: Vec<String> = std::thread::spawn(move || {
        let rt = tokio::runtime::Runtime::new().unwrap();
        let real = rt.block_on(async move {
            let s = spawn_with(|c| {
                c.db = db1;
                c.api_key = Some(key1);
                c.stripe_api_base = ls;
                c.sweep_secs = 60;
            })
            .await;
            let mut real = Vec::new();
            for skip in 0..3 {
                let (v, _, _, _) = pick_variant(&s, 1, skip).await;
                let sid = new_session(&s, &v, 1).await;
                let r = s.post_json("/payments/confirm", &confirm_body(&sid, &card_token("4000002760003184").await, "rate_us_express")).await;
                assert_eq!(r["status"], "requires_action", "{r}");
                real.push(sid);
            }
            real
        });
        drop(rt); // the server stops: its tasks (the sweep among them) and its database connection end
        real
    })
    .join()
    .unwrap();
    {
        let mut c = rusqlite::Connection::open(&db).unwrap();
        let cols: Vec<String> = c
            .prepare("SELECT name FROM pragma_table_info('sessions') WHERE name <> 'id'")
            .unwrap()
            .query_map([], |r| r.get(0))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap();
        let cols = cols.join(", ");
        let tx = c.transaction().unwrap();
        for sid in &real {
            let (st, done): (String, i64) = tx.query_row("SELECT pi_status, completed FROM sessions WHERE id = ?1", [sid], |r| Ok((r.get(0)?, r.get(1)?))).unwrap();
            assert_eq!((st.as_str(), done), ("requires_action", 0), "an abandoned 3-D Secure session");
        }
        {
            let mut copy = tx.prepare(&format!("INSERT INTO sessions (id, {cols}) SELECT ?1, {cols} FROM sessions WHERE id = ?2")).unwrap();
            for i in 0..ABANDONED - real.len() {
                assert_eq!(copy.execute(rusqlite::params![format!("cs_{i:032x}"), real[i % real.len()]]).unwrap(), 1);
            }
        }
        tx.commit().unwrap();
        let open: i64 = c.query_row("SELECT count(*) FROM sessions WHERE completed = 0 AND pi_status = 'requires_action'", [], |r| r.get(0)).unwrap();
        assert_eq!(open, ABANDONED as i64);
    }

    // The same database, a sweep every second.
    let ls = localstripe();
    let s = spawn_with(|c| {
        c.db = db.clone();
        c.api_key = Some(key);
        c.test_hooks = true;
        c.stripe_api_base = ls;
        c.sweep_secs = 1;
    })
    .await;
    let (v, slug, before, _) = pick_variant(&s, 1, 3).await;
    let sid = new_session(&s, &v, 1).await;
    // Authorized, stock taken, the capture fails: the confirm answers 502, no webhook.
    processor_fault(&s, json!({ "op": "capture", "kind": "status", "status": 500 })).await;
    let r = s.post("/payments/confirm", &confirm_body(&sid, &card_token(VISA).await, "rate_us_express")).await;
    let t0 = Instant::now();
    assert_error(r, 502, "processor_error", "payment processor").await;
    assert_eq!(payment_intents(&sid).await[0]["status"], "requires_capture");
    let settled = order_within(&s, &sid, Duration::from_secs(60)).await;
    let (took, reads) = (t0.elapsed(), retrieves(&s).await);
    println!("lost capture settled: {settled} after {:.1} s with {ABANDONED} abandoned sessions; {reads} PaymentIntent reads by then", took.as_secs_f64());
    assert!(settled, "no order within 60 s with {ABANDONED} abandoned sessions");
    assert!(reads < ABANDONED as u64, "settled before the sweep read every abandoned session once: {reads} reads");
    assert_eq!(captured_charges(&sid).await, 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 1);
    // Abandoned sessions are not read at every sweep: about five sweeps, at most
    // 100 idle reads each (and their back-off), never 10,000 a sweep.
    let r0 = retrieves(&s).await;
    tokio::time::sleep(Duration::from_secs(5)).await;
    let window = retrieves(&s).await - r0;
    println!("PaymentIntent reads in the next 5 s (sweep every second): {window}");
    assert!(window <= 6 * 101, "{window} reads in 5 s");
    assert_charged_once(&s, &sid).await;
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_sweep_interval_is_at_most_a_minute() {
    for value in ["0", "61", "30s"] {
        let err = binary_refuses("CIRRUS_SWEEP_SECS", value);
        assert!(err.contains(&format!("CIRRUS_SWEEP_SECS must be an integer 1..=60, got \"{value}\"")), "{err}");
    }
}
