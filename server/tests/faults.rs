//! Processor faults and slow calls against a REAL localstripe, injected with the
//! test hook `POST /__test/processor-faults` (CONTRACT.md "Payments": processor
//! faults are retried, not guessed; a new payment only after the previous one is
//! known cancelled or failed; one session never holds up another).
//!
//! `faults_survived` prints the table recorded in BENCHMARKS.md ("Reliability"):
//! `cargo test -p cirrus-dev-server --test faults -- --nocapture faults_survived`.

mod common;

use std::time::{Duration, Instant};

use common::pay::{
    address, assert_charged_once, captured_charges, card_token, confirm_body, hooks_server, initiate, new_session, orders_of,
    payment_intents, pick_variant, processor_fault,
};
use common::{assert_error, Server};
use serde_json::{json, Value};

const VISA: &str = "4242424242424242";
const DECLINED: &str = "4000000000000341";

async fn session(s: &Server, skip: usize) -> String {
    let (v, _, _, _) = pick_variant(s, 1, skip).await;
    new_session(s, &v, 1).await
}

async fn confirm(s: &Server, sid: &str, tok: &str) -> (u16, Value) {
    let r = s.post("/payments/confirm", &confirm_body(sid, tok, "rate_us_express")).await;
    (r.status().as_u16(), r.json().await.unwrap())
}

fn statuses(pis: &[Value]) -> Vec<String> {
    let mut v: Vec<String> = pis.iter().map(|p| p["status"].as_str().unwrap().to_string()).collect();
    v.sort();
    v
}

/// A confirm of `sid` with `tok` pays after the session's earlier payment was cancelled:
/// one canceled and one succeeded PaymentIntent, one charge, one order.
async fn pays_after_a_cancel(s: &Server, sid: &str, tok: &str) {
    let (status, v) = confirm(s, sid, tok).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    assert_eq!(statuses(&payment_intents(sid).await), ["canceled", "succeeded"]);
    assert_charged_once(s, sid).await;
}

#[tokio::test]
async fn a_failed_confirm_is_sent_again_never_reported_as_a_decline() {
    for kind in ["status", "timeout"] {
        let s = hooks_server().await;
        let sid = session(&s, 0).await;
        let tok = card_token(VISA).await;
        processor_fault(&s, json!({ "op": "confirm", "kind": kind, "status": 500 })).await;
        let r = s.post("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
        let v = assert_error(r, 502, "processor_error", "payment processor").await;
        assert!(!v["error"].as_str().unwrap().contains("injected"), "contract wording only, never the library's text: {v}");
        let pis = payment_intents(&sid).await;
        assert_eq!(statuses(&pis), ["requires_confirmation"], "{kind}: created, never confirmed");
        // The retry confirms the same PaymentIntent again: it pays, it is not a decline.
        let (status, v) = confirm(&s, &sid, &tok).await;
        assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{kind}: {v}");
        assert_eq!(v["paymentIntentId"], pis[0]["id"], "the same PaymentIntent");
        assert_eq!(payment_intents(&sid).await.len(), 1);
        assert_charged_once(&s, &sid).await;
    }
}

#[tokio::test]
async fn after_a_failed_confirm_a_new_card_or_new_shipping_is_accepted() {
    let s = hooks_server().await;
    // update after the failure: allowed (the unconfirmed payment is cancelled first).
    let sid = session(&s, 1).await;
    let tok = card_token(VISA).await;
    processor_fault(&s, json!({ "op": "confirm", "kind": "status", "status": 503 })).await;
    assert_eq!(confirm(&s, &sid, &tok).await.0, 502);
    let up = s.post("/payments/update", &json!({ "sessionId": sid, "shippingRateId": "rate_us_standard", "shippingAddress": address("US") })).await;
    assert_eq!(up.status(), 200, "{}", up.text().await.unwrap());
    pays_after_a_cancel(&s, &sid, &tok).await;
    // a new card after the failure: the old payment is cancelled, the new one pays.
    let sid = session(&s, 2).await;
    processor_fault(&s, json!({ "op": "confirm", "kind": "timeout" })).await;
    assert_eq!(confirm(&s, &sid, &card_token(VISA).await).await.0, 502);
    pays_after_a_cancel(&s, &sid, &card_token(VISA).await).await;
}

#[tokio::test]
async fn a_failed_cancel_never_leads_to_a_second_payment() {
    let s = hooks_server().await;
    let sid = session(&s, 0).await;
    let (status, v) = confirm(&s, &sid, &card_token(DECLINED).await).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("requires_payment_method")), "{v}");
    // The cancel of the declined payment fails: no new payment may be created yet.
    processor_fault(&s, json!({ "op": "cancel", "kind": "status", "status": 500 })).await;
    let good = card_token(VISA).await;
    let r = s.post("/payments/confirm", &confirm_body(&sid, &good, "rate_us_express")).await;
    assert_error(r, 502, "processor_error", "payment processor").await;
    assert_eq!(statuses(&payment_intents(&sid).await), ["requires_payment_method"], "no second PaymentIntent");
    // Retried: the cancel goes through and is verified, then the new card pays once.
    pays_after_a_cancel(&s, &sid, &good).await;
}

#[tokio::test]
async fn a_slow_processor_call_does_not_hold_up_other_sessions() {
    let s = hooks_server().await;
    let a = session(&s, 0).await;
    let b = session(&s, 1).await;
    let tok = card_token(VISA).await;
    // A's PaymentIntent creation takes 6 s at the processor.
    processor_fault(&s, json!({ "op": "create", "kind": "slow", "delayMs": 6000 })).await;
    let req = s.req(reqwest::Method::POST, "/payments/confirm").json(&confirm_body(&a, &tok, "rate_us_express"));
    let slow = tokio::spawn(async move {
        let r = req.send().await.unwrap();
        (r.status().as_u16(), r.json::<Value>().await.unwrap(), Instant::now())
    });
    tokio::time::sleep(Duration::from_millis(1000)).await; // A is inside the processor call now
    assert!(!slow.is_finished(), "A is still waiting for the processor");
    // B, an unrelated session, is answered while A's call is in flight.
    let up = s.post_json("/payments/update", &json!({ "sessionId": b, "shippingRateId": "rate_us_express", "shippingAddress": address("US") })).await;
    let b_done = Instant::now();
    assert_eq!(up["sessionId"], b.as_str());
    assert!(!slow.is_finished(), "B answered before A's slow processor call ended");
    let (status, v, a_done) = slow.await.unwrap();
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    assert!(b_done < a_done);
}

/// One fault scenario: a session, the fault, the first confirm, a retry.
/// Returns (first status, final status, orders, captured charges, PaymentIntents).
async fn survive(s: &Server, variant: &str, op: &str, kind: &str) -> (u16, u16, usize, usize, Vec<String>) {
    let sid = initiate(s, variant, 1).await["sessionId"].as_str().unwrap().to_string();
    if op == "cancel" {
        // A cancel happens when a failed attempt is replaced: decline first.
        let (st, v) = confirm(s, &sid, &card_token(DECLINED).await).await;
        assert_eq!((st, v["status"].as_str()), (200, Some("requires_payment_method")), "{v}");
    }
    processor_fault(s, json!({ "op": op, "kind": kind, "status": 500 })).await;
    let tok = card_token(VISA).await;
    let (first, _) = confirm(s, &sid, &tok).await;
    let (last, v) = pay_until_done(s, &sid, &tok).await;
    assert_eq!(v["status"], "succeeded", "{op}/{kind}: {v}");
    (first, last, orders_of(s, &sid).await, captured_charges(&sid).await, statuses(&payment_intents(&sid).await))
}

async fn pay_until_done(s: &Server, sid: &str, tok: &str) -> (u16, Value) {
    let mut last = (0, Value::Null);
    for _ in 0..3 {
        last = confirm(s, sid, tok).await;
        if last.0 == 200 && last.1["status"] == "succeeded" {
            break;
        }
    }
    last
}

#[tokio::test]
async fn faults_survived() {
    let s = hooks_server().await;
    let mut rows = Vec::new();
    let (variant, _, _, _) = pick_variant(&s, 12, 0).await;
    for op in ["create", "confirm", "capture", "cancel"] {
        for kind in ["status", "timeout", "lost"] {
            let (first, last, orders, charges, pis) = survive(&s, &variant, op, kind).await;
            assert_eq!(orders, 1, "{op}/{kind}: exactly one order");
            assert_eq!(charges, 1, "{op}/{kind}: exactly one successful charge");
            assert_eq!(pis.iter().filter(|p| *p == "succeeded").count(), 1, "{op}/{kind}: {pis:?}");
            assert!(pis.iter().all(|p| p == "succeeded" || p == "canceled" || (op == "create" && kind == "lost" && p == "requires_confirmation")), "{op}/{kind}: {pis:?}");
            rows.push(format!("| {op} | {kind} | {first} | {last} | {orders} | {charges} | {} |", pis.join(", ")));
        }
    }
    println!("| processor call | fault | first confirm | after retry | orders | captured charges | PaymentIntents |");
    println!("|---|---|---|---|---|---|---|");
    for r in rows {
        println!("{r}");
    }
}

/// `POST /__test/processor-processing`: the processor reports `processing` for
/// the next reads; no order is written while it does, the next real read
/// settles it, once.
#[tokio::test]
async fn a_payment_reported_processing_is_settled_by_the_next_real_read() {
    let s = hooks_server().await;
    let sid = session(&s, 0).await;
    let tok = card_token(VISA).await;
    let arm = s.http.post(format!("{}/__test/processor-processing", s.origin)).json(&json!({ "times": 2 })).send().await.unwrap();
    assert_eq!(arm.status(), 204);
    // The confirm's answer, then a re-read: processing, no order.
    for i in 0..2 {
        let (status, v) = confirm(&s, &sid, &tok).await;
        assert_eq!((status, v["status"].as_str(), v["success"].as_bool()), (200, Some("processing"), Some(false)), "read {i}: {v}");
        assert_eq!(v["error"], Value::Null);
        assert_eq!(orders_of(&s, &sid).await, 0, "read {i}: no order while processing");
    }
    // The next read is real: authorized, captured, one order.
    let (status, v) = confirm(&s, &sid, &tok).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    assert_eq!(confirm(&s, &sid, &tok).await.1, v, "settled once");
    assert_charged_once(&s, &sid).await;
    assert_eq!(payment_intents(&sid).await.len(), 1);
    // Armed and disarmed: reads are real at once.
    let sid = session(&s, 1).await;
    assert_eq!(s.http.post(format!("{}/__test/processor-processing", s.origin)).json(&json!({ "times": 5 })).send().await.unwrap().status(), 204);
    assert_eq!(s.http.delete(format!("{}/__test/processor-processing", s.origin)).send().await.unwrap().status(), 204);
    let (status, v) = confirm(&s, &sid, &card_token(VISA).await).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    let r = s.http.post(format!("{}/__test/processor-processing", s.origin)).json(&json!({ "times": 0 })).send().await.unwrap();
    assert_error(r, 400, "invalid_request", "times").await;
}

/// A processor refusal that will never succeed is final, never a retryable 502
/// the SDK would send again forever: a card token the processor does not know
/// or accept is a decline-like answer (the buyer enters the card again, and a
/// new token is then accepted); an amount over its maximum or a parameter it
/// refuses is 400 `invalid_request` naming it. 402, 429 and 5xx stay as they were.
#[tokio::test]
async fn a_refusal_that_never_succeeds_is_final() {
    let s = hooks_server().await;
    let decline_like = |v: &Value| (v["status"] == "requires_payment_method" && v["success"] == false && v["clientSecret"].is_null(), v["error"].as_str().unwrap_or("").to_string());

    // An unknown (or expired) card token, then the buyer's new card.
    let sid = session(&s, 0).await;
    let (status, v) = confirm(&s, &sid, "tok_doesnotexist").await;
    let (ok, error) = decline_like(&v);
    assert!(status == 200 && ok && error.contains("card details") && v["paymentIntentId"].is_null(), "{status} {v}");
    assert!(payment_intents(&sid).await.is_empty());
    let (status, v) = confirm(&s, &sid, &card_token(VISA).await).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");

    // The card refused when the PaymentIntent is created: nothing is recorded; a new card pays.
    let sid = session(&s, 1).await;
    processor_fault(&s, json!({ "op": "create", "kind": "status", "status": 400, "code": "resource_missing", "param": "payment_method" })).await;
    let (status, v) = confirm(&s, &sid, &card_token(VISA).await).await;
    assert!(status == 200 && decline_like(&v).0, "{status} {v}");
    let (status, v) = confirm(&s, &sid, &card_token(VISA).await).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    assert_eq!(statuses(&payment_intents(&sid).await), ["succeeded"]);

    // The card refused by the confirm: that payment is never live; a new card replaces it.
    let sid = session(&s, 2).await;
    processor_fault(&s, json!({ "op": "confirm", "kind": "status", "status": 400, "code": "token_already_used" })).await;
    let (status, v) = confirm(&s, &sid, &card_token(VISA).await).await;
    let (ok, error) = decline_like(&v);
    assert!(status == 200 && ok && error.contains("already used") && v["paymentIntentId"].is_string(), "{status} {v}");
    pays_after_a_cancel(&s, &sid, &card_token(VISA).await).await;

    // An amount over the processor's maximum, a returnUrl it refuses: 400 naming it. Nothing
    // is left half-done: the same confirm goes through once the processor accepts it.
    let sid = session(&s, 3).await;
    let tok = card_token(VISA).await;
    processor_fault(&s, json!({ "op": "create", "kind": "status", "status": 400, "code": "amount_too_large", "param": "amount" })).await;
    assert_error(s.post("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await, 400, "invalid_request", "amount").await;
    assert!(payment_intents(&sid).await.is_empty());
    processor_fault(&s, json!({ "op": "confirm", "kind": "status", "status": 400, "code": "url_invalid", "param": "return_url" })).await;
    assert_error(s.post("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await, 400, "invalid_request", "returnUrl").await;
    processor_fault(&s, json!({ "op": "create", "kind": "status", "status": 404 })).await;
    let sid2 = session(&s, 4).await;
    assert_error(s.post("/payments/confirm", &confirm_body(&sid2, &card_token(VISA).await, "rate_us_express")).await, 400, "invalid_request", "refused").await;
    let (status, v) = confirm(&s, &sid, &tok).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    assert_charged_once(&s, &sid).await;

    // Retryable as before: 429 and 5xx from the processor, its own key refused (401).
    for status in [429, 500, 401] {
        let sid = session(&s, 5).await;
        processor_fault(&s, json!({ "op": "create", "kind": "status", "status": status })).await;
        assert_error(s.post("/payments/confirm", &confirm_body(&sid, &card_token(VISA).await, "rate_us_express")).await, 502, "processor_error", "payment processor").await;
    }
}

/// An order is never written without its payment's id (issue 41): a capture
/// carried out by the processor whose answer comes back without the
/// PaymentIntent's `id` writes no order (502, logged); nor does a read-back
/// without it. The next real read settles the payment: one order, with its id.
#[tokio::test]
async fn a_payment_answered_without_its_id_writes_no_order() {
    let s = hooks_server().await;
    let sid = session(&s, 3).await;
    let tok = card_token(VISA).await;
    processor_fault(&s, json!({ "op": "capture", "kind": "noid" })).await;
    let (status, v) = confirm(&s, &sid, &tok).await;
    assert_eq!((status, v["code"].as_str()), (502, Some("processor_error")), "{v}");
    assert!(v["error"].as_str().unwrap().contains("cannot read"), "{v}");
    assert_eq!(orders_of(&s, &sid).await, 0, "no order without the payment's id");
    let pis = payment_intents(&sid).await;
    assert_eq!(statuses(&pis), ["succeeded"], "captured at the processor all the same");
    // The confirm again, its read-back answered without the id: still no order.
    processor_fault(&s, json!({ "op": "retrieve", "kind": "noid" })).await;
    let (status, v) = confirm(&s, &sid, &tok).await;
    assert_eq!((status, v["code"].as_str()), (502, Some("processor_error")), "{v}");
    assert_eq!(orders_of(&s, &sid).await, 0);
    // A real read: the order, with the payment's id.
    let (status, v) = confirm(&s, &sid, &tok).await;
    assert_eq!((status, v["status"].as_str()), (200, Some("succeeded")), "{v}");
    let orders = common::pay::orders(&s).await;
    let mine: Vec<&Value> = orders.iter().filter(|o| o["sessionId"] == sid.as_str()).collect();
    assert_eq!(mine.len(), 1, "{orders:?}");
    assert_eq!(mine[0]["paymentIntentId"], pis[0]["id"], "the order names its payment");
    assert_eq!(v["paymentIntentId"], pis[0]["id"]);
    assert_charged_once(&s, &sid).await;
}
