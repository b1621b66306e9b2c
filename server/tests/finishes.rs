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

#[test]
fn the_sweep_interval_is_at_most_a_minute() {
    for value in ["0", "61", "30s"] {
        let err = binary_refuses("CIRRUS_SWEEP_SECS", value);
        assert!(err.contains(&format!("CIRRUS_SWEEP_SECS must be an integer 1..=60, got \"{value}\"")), "{err}");
    }
}
