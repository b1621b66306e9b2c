//! The processor's webhook and the start-up sweep against a REAL localstripe
//! (CONTRACT.md "Payments": charges <= 1 per cart, every charge an order,
//! whatever is lost; a webhook and a confirm racing make one order).
//!
//! `cargo test -p cirrus-dev-server --test webhooks -- --nocapture` prints the
//! before/after figures of the lost-capture case.

mod common;

use std::time::Duration;

use cirrus_dev_server::{start, Config};
use common::pay::{
    assert_charged_once, authenticate, cancel_at_processor, captured_charges, card_token, confirm_body, event, new_session,
    orders_of, payment_intent, payment_intents, pick_variant, post_webhook, processor_fault, register_webhook, signature, stock,
    unix_now, wait_for_orders, webhook_secret, webhook_server,
};
use common::{assert_error, localstripe, random_key, spawn_with, Server};
use serde_json::{json, Value};

const VISA: &str = "4242424242424242";
const THREE_DS: &str = "4000002760003184";

async fn confirm(s: &Server, sid: &str, tok: &str) -> (u16, Value) {
    let r = s.post("/payments/confirm", &confirm_body(sid, tok, "rate_us_express")).await;
    (r.status().as_u16(), r.json().await.unwrap())
}

#[tokio::test]
async fn the_signature_is_verified_as_stripe_signs() {
    let secret = webhook_secret();
    let s = spawn_with(|c| c.stripe_webhook_secret = Some(secret.clone())).await;
    // An event about a session this server does not know: acknowledged, ignored.
    let body = event("payment_intent.succeeded", &json!({ "id": "pi_x", "object": "payment_intent", "status": "succeeded", "metadata": { "cirrus_session": "cs_unknown" } }));
    let now = unix_now();
    let r = post_webhook(&s, &body, Some(&signature(&secret, now, &body))).await;
    assert_eq!(r.status(), 200);
    assert_eq!(r.json::<Value>().await.unwrap(), json!({ "received": true }));

    assert_error(post_webhook(&s, &body, None).await, 400, "invalid_request", "Stripe-Signature: missing").await;
    let other = webhook_secret();
    assert_error(post_webhook(&s, &body, Some(&signature(&other, now, &body))).await, 400, "invalid_request", "no signature matches").await;
    let tampered = body.replace("cs_unknown", "cs_unknowm");
    assert_error(post_webhook(&s, &tampered, Some(&signature(&secret, now, &body))).await, 400, "invalid_request", "no signature matches").await;
    assert_error(post_webhook(&s, &body, Some(&signature(&secret, now - 600, &body))).await, 400, "invalid_request", "tolerance").await;
    assert_error(post_webhook(&s, &body, Some("t=1,v1=zz,garbage")).await, 400, "invalid_request", "malformed").await;
    // A bearer key is not a signature.
    let r = s.http.post(format!("{}/webhooks/stripe", s.base)).bearer_auth(&s.key).body(body.clone()).send().await.unwrap();
    assert_error(r, 400, "invalid_request", "Stripe-Signature").await;

    // Without a configured secret, everything is refused, even a "signed" event.
    let closed = spawn_with(|_| {}).await;
    let r = post_webhook(&closed, &body, Some(&signature(&secret, now, &body))).await;
    assert_error(r, 400, "invalid_request", "STRIPE_WEBHOOK_SECRET").await;
}

/// A timestamp at either end of i64 is outside the tolerance like any other:
/// the normal 400, never an overflow (a panic in a debug build).
#[tokio::test]
async fn an_extreme_timestamp_is_refused_without_overflow() {
    let secret = webhook_secret();
    let s = spawn_with(|c| c.stripe_webhook_secret = Some(secret.clone())).await;
    let body = event("payment_intent.succeeded", &json!({ "id": "pi_x", "object": "payment_intent", "metadata": { "cirrus_session": "cs_unknown" } }));
    for t in [i64::MIN, i64::MIN + 1, i64::MAX] {
        let r = post_webhook(&s, &body, Some(&signature(&secret, t, &body))).await;
        assert_error(r, 400, "invalid_request", "tolerance").await;
    }
    // The server is still there.
    let r = post_webhook(&s, &body, Some(&signature(&secret, unix_now(), &body))).await;
    assert_eq!(r.status(), 200);
}

/// The situation 2 at the server: the capture's answer is lost, and no
/// confirm comes back (the buyer reloads; the SDK never re-reads). localstripe's
/// `payment_intent.succeeded` settles it.
#[tokio::test]
async fn a_lost_capture_is_settled_by_the_webhook_without_a_confirm() {
    let secret = webhook_secret();
    let s = webhook_server(&secret).await;
    register_webhook(&s, &secret).await;
    let (v, slug, before, _) = pick_variant(&s, 2, 0).await;
    let sid = new_session(&s, &v, 1).await;
    let tok = card_token(VISA).await;
    processor_fault(&s, json!({ "op": "capture", "kind": "lost" })).await;
    let (st, r) = confirm(&s, &sid, &tok).await;
    assert_eq!((st, r["code"].as_str()), (502, Some("processor_error")), "{r}");
    let (charges0, orders0) = (captured_charges(&sid).await, orders_of(&s, &sid).await);
    // No confirm from here on: only localstripe's event (about 1 s later).
    let orders1 = wait_for_orders(&s, &sid, 1, 15).await;
    let charges1 = captured_charges(&sid).await;
    println!("lost capture, no confirm after it: right after the 502 {charges0} charge(s), {orders0} order(s); after the webhook {charges1} charge(s), {orders1} order(s)");
    assert_eq!((charges0, orders0), (1, 0), "charged, no order yet");
    assert_eq!((charges1, orders1), (1, 1), "the webhook wrote the order");
    assert_eq!(payment_intents(&sid).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 1, "stock taken once");
    // A late confirm (a tab coming back) reads the settled payment: success, nothing new.
    let (st, r) = confirm(&s, &sid, &tok).await;
    assert_eq!((st, r["status"].as_str(), r["success"].as_bool()), (200, Some("succeeded"), Some(true)), "{r}");
    assert_charged_once(&s, &sid).await;
}

/// A re-sent confirm after a lost capture answer reads the payment back and
/// settles it: 1 charge, 1 order, a success answer (no webhook registered).
#[tokio::test]
async fn a_confirm_resent_after_a_lost_capture_settles_it() {
    let s = webhook_server(&webhook_secret()).await;
    let (v, _, _, _) = pick_variant(&s, 2, 0).await;
    let sid = new_session(&s, &v, 1).await;
    let tok = card_token(VISA).await;
    processor_fault(&s, json!({ "op": "capture", "kind": "lost" })).await;
    assert_eq!(confirm(&s, &sid, &tok).await.0, 502);
    let (st, r) = confirm(&s, &sid, &tok).await;
    assert_eq!((st, r["status"].as_str(), r["success"].as_bool()), (200, Some("succeeded"), Some(true)), "{r}");
    assert_eq!((captured_charges(&sid).await, orders_of(&s, &sid).await, payment_intents(&sid).await.len()), (1, 1, 1));
}

/// Confirms and webhook deliveries of one authorized payment, all at once:
/// exactly one capture, one order, one unit of stock.
#[tokio::test]
async fn webhooks_and_confirms_racing_make_one_order() {
    let secret = webhook_secret();
    let s = webhook_server(&secret).await;
    for round in 0..3 {
        let (v, slug, before, _) = pick_variant(&s, 2, round).await;
        let sid = new_session(&s, &v, 1).await;
        let tok = card_token(THREE_DS).await;
        let (st, r) = confirm(&s, &sid, &tok).await;
        assert_eq!((st, r["status"].as_str()), (200, Some("requires_action")), "{r}");
        let pi_id = r["paymentIntentId"].as_str().unwrap().to_string();
        // The buyer authenticates; no confirm has come back yet: authorized, uncaptured.
        authenticate(&pi_id, r["clientSecret"].as_str().unwrap(), true).await;
        let pi = payment_intent(&pi_id).await;
        assert_eq!(pi["status"], "requires_capture");
        // What real Stripe sends then (localstripe does not): amount_capturable_updated.
        let body = event("payment_intent.amount_capturable_updated", &pi);
        let mut tasks = Vec::new();
        for i in 0..8 {
            let (s, sid, tok, body, secret) = (s.clone(), sid.clone(), tok.clone(), body.clone(), secret.clone());
            tasks.push(tokio::spawn(async move {
                if i % 2 == 0 {
                    let r = post_webhook(&s, &body, Some(&signature(&secret, unix_now(), &body))).await;
                    (format!("webhook {}", r.status().as_u16()), r.status().as_u16())
                } else {
                    let (st, r) = confirm(&s, &sid, &tok).await;
                    (format!("confirm {st} {}", r["status"]), st)
                }
            }));
        }
        let mut seen = Vec::new();
        for t in tasks {
            seen.push(t.await.unwrap());
        }
        assert!(seen.iter().all(|(_, st)| *st == 200), "round {round}: {seen:?}");
        assert_eq!(orders_of(&s, &sid).await, 1, "round {round}: one order");
        assert_eq!(captured_charges(&sid).await, 1, "round {round}: one capture");
        assert_eq!(stock(&s, &slug, &v).await, before - 1, "round {round}: one unit taken");
    }
}

/// A file database in a fresh temp directory: (directory, database path, the
/// config of a server on it, test hooks on; every start uses the same key).
fn file_db() -> (std::path::PathBuf, String, impl Fn() -> Config) {
    let dir = std::env::temp_dir().join(format!("cirrus-sweep-{}", random_key()));
    std::fs::create_dir_all(&dir).unwrap();
    let db = dir.join("dev.sqlite").to_string_lossy().to_string();
    let (key, path) = (random_key(), db.clone());
    let config = move || Config {
        addr: "127.0.0.1:0".into(),
        db: path.clone(),
        api_key: Some(key.clone()),
        rate_limit: 0,
        test_hooks: true,
        stripe_api_base: localstripe(),
        ..Config::default()
    };
    (dir, db, config)
}

/// A client of a started server (no kept connections: servers come and go).
fn server(st: &cirrus_dev_server::Started) -> Server {
    Server {
        base: st.base_url.clone(),
        origin: format!("http://{}", st.addr),
        key: st.api_key.clone(),
        http: reqwest::Client::builder().pool_max_idle_per_host(0).build().unwrap(),
    }
}

/// Payments settled at the processor while the server was down are settled by
/// the next start (a file database; no webhook registered, as if missed).
#[tokio::test]
async fn the_start_up_sweep_settles_what_happened_while_down() {
    let (dir, db, config) = file_db();
    let first = start(config()).await.unwrap();
    let a = server(&first);
    // 1: the capture's answer is lost, then the server goes down.
    let (v, _, _, _) = pick_variant(&a, 3, 0).await;
    let lost = new_session(&a, &v, 1).await;
    processor_fault(&a, json!({ "op": "capture", "kind": "lost" })).await;
    assert_eq!(confirm(&a, &lost, &card_token(VISA).await).await.0, 502);
    // 2: 3-D Secure asked; the buyer authenticates while the server is down.
    let authorized = new_session(&a, &v, 1).await;
    let (_, r) = confirm(&a, &authorized, &card_token(THREE_DS).await).await;
    assert_eq!(r["status"], "requires_action", "{r}");
    // 3: declined: nothing to settle, the sweep records it and writes nothing.
    let declined = new_session(&a, &v, 1).await;
    assert_eq!(confirm(&a, &declined, &card_token("4000000000000341").await).await.1["status"], "requires_payment_method");
    // 4: a payment the processor does not know (as after localstripe restarted).
    let gone = new_session(&a, &v, 1).await;
    first.handle.abort();
    let _ = first.handle.await;
    let sql = rusqlite::Connection::open(&db).unwrap();
    sql.execute("UPDATE sessions SET payment_intent_id = 'pi_unknownToLocalstripe' WHERE id = ?1", [&gone]).unwrap();
    authenticate(r["paymentIntentId"].as_str().unwrap(), r["clientSecret"].as_str().unwrap(), true).await;
    let before = (captured_charges(&lost).await, captured_charges(&authorized).await);
    assert_eq!(before, (1, 0), "one charged without an order, one authorized without a capture");

    let second = start(config()).await.unwrap();
    let b = server(&second);
    let orders_lost = wait_for_orders(&b, &lost, 1, 15).await;
    let orders_authorized = wait_for_orders(&b, &authorized, 1, 15).await;
    println!(
        "sweep: lost capture {} charge / {orders_lost} order, authorized while down {} charge / {orders_authorized} order",
        captured_charges(&lost).await,
        captured_charges(&authorized).await
    );
    assert_eq!((orders_lost, captured_charges(&lost).await), (1, 1));
    assert_eq!((orders_authorized, captured_charges(&authorized).await), (1, 1));
    assert_eq!(orders_of(&b, &declined).await, 0);
    let pi_status = |sid: &str| sql.query_row("SELECT pi_status FROM sessions WHERE id = ?1", [sid], |r| r.get::<_, Option<String>>(0)).unwrap();
    assert_eq!(pi_status(&declined).as_deref(), Some("requires_payment_method"), "recorded");
    assert_eq!(pi_status(&gone).as_deref(), Some("missing"), "recorded, not asked again");
    second.handle.abort();
    // A third start finds nothing left to read back, and writes nothing twice.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let third = start(config()).await.unwrap();
    let c = server(&third);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    assert_eq!((orders_of(&c, &lost).await, orders_of(&c, &authorized).await), (1, 1));
    third.handle.abort();
    let _ = std::fs::remove_dir_all(&dir);
}

/// A new attempt after a payment recorded `canceled` is read back by the
/// start-up sweep: its confirm's answer was lost (authorized at the processor,
/// no order), the server went down, the next start settles it.
#[tokio::test]
async fn the_sweep_reads_a_new_attempt_after_a_cancelled_payment() {
    let (dir, db, config) = file_db();
    let first = start(config()).await.unwrap();
    let a = server(&first);
    let (v, _, _, _) = pick_variant(&a, 1, 0).await;
    let sid = new_session(&a, &v, 1).await;
    // Attempt 1 waits for 3-D Secure and is cancelled outside the server; a confirm records it `canceled`.
    let tok = card_token(THREE_DS).await;
    let (_, r) = confirm(&a, &sid, &tok).await;
    assert_eq!(r["status"], "requires_action", "{r}");
    cancel_at_processor(r["paymentIntentId"].as_str().unwrap()).await;
    let (_, r) = confirm(&a, &sid, &tok).await;
    assert_eq!(r["status"], "canceled", "{r}");
    // Attempt 2: authorized at the processor, but the confirm's answer is lost.
    processor_fault(&a, json!({ "op": "confirm", "kind": "lost" })).await;
    assert_eq!(confirm(&a, &sid, &card_token(VISA).await).await.0, 502);
    let pis = payment_intents(&sid).await;
    assert_eq!(pis.iter().filter(|p| p["status"] == "requires_capture").count(), 1, "{pis:?}");
    first.handle.abort();
    let _ = first.handle.await;
    let sql = rusqlite::Connection::open(&db).unwrap();
    let pi_status = sql.query_row("SELECT pi_status FROM sessions WHERE id = ?1", [&sid], |r| r.get::<_, Option<String>>(0)).unwrap();
    assert_ne!(pi_status.as_deref(), Some("canceled"), "the new payment is not known cancelled");

    let second = start(config()).await.unwrap();
    let b = server(&second);
    assert_eq!(wait_for_orders(&b, &sid, 1, 15).await, 1, "the sweep found the live payment");
    assert_eq!(captured_charges(&sid).await, 1);
    second.handle.abort();
    let _ = std::fs::remove_dir_all(&dir);
}
