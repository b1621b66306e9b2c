//! The real-Stripe flow (`ctoken_…` ConfirmationTokens) cannot run against
//! localstripe (it rejects `confirmation_token`, `automatic_payment_methods`,
//! `return_url`, and ignores Idempotency-Key). These tests put a recording
//! stand-in at `STRIPE_API_BASE` that keeps idempotency keys as Stripe does:
//! the first answer to a key (a 500 included) is saved and replayed for every
//! later request with that key. They check the requests the server sends:
//! parameters, Bearer key, idempotency keys (CONTRACT.md "Idempotency keys and
//! the processor's memory"), one PaymentIntent per attempt, re-reads.

mod common;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::routing::{get, post};
use axum::{Json, Router};
use common::pay::{orders, processor_fault};
use common::{assert_error, spawn_with, Server};
use serde_json::{json, Value};

/// One request the stand-in received: (method + path, authorization, idempotency key, body).
type Call = (String, String, String, String);

#[derive(Default)]
struct Fake {
    calls: Vec<Call>,
    /// PaymentIntents by id: (status, amount).
    pis: HashMap<String, (String, i64)>,
    /// Stripe's memory: the first answer to each idempotency key.
    saved: HashMap<String, (u16, Value)>,
    /// The next request of this operation (`create`, `confirm`, `capture`) answers 500.
    fail_next: Vec<&'static str>,
    /// The next request of this operation answers 400 with this error object (`code`, `param`).
    refuse_next: Vec<(&'static str, Value)>,
    /// What a confirm leads to (default `requires_action`: 3-D Secure).
    confirm_to: Option<String>,
}

type S = Arc<Mutex<Fake>>;

fn pi_json(id: &str, (status, amount): &(String, i64)) -> Value {
    let pm = if status == "requires_payment_method" { Value::Null } else { json!("pm_fake") };
    json!({ "id": id, "object": "payment_intent", "status": status, "amount": amount,
            "client_secret": format!("{id}_secret_abc"), "last_payment_error": null, "payment_method": pm })
}

/// Handles one POST as Stripe does: a key seen before gets its saved answer
/// (nothing is done again); otherwise `op` runs (or fails with 500, if armed)
/// and its answer is saved under the key.
fn keyed(s: &S, op: &'static str, what: String, h: &HeaderMap, body: String, run: impl FnOnce(&mut Fake) -> Value) -> (StatusCode, Json<Value>) {
    let get = |k: &str| h.get(k).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    let key = get("idempotency-key");
    let mut f = s.lock().unwrap();
    f.calls.push((what, get("authorization"), key.clone(), body));
    if let Some((status, v)) = f.saved.get(&key) {
        return (StatusCode::from_u16(*status).unwrap(), Json(v.clone()));
    }
    let answer = if let Some(i) = f.fail_next.iter().position(|o| *o == op) {
        f.fail_next.remove(i);
        (500, json!({ "error": { "type": "api_error", "message": "An unknown error occurred" } }))
    } else if let Some(i) = f.refuse_next.iter().position(|(o, _)| *o == op) {
        (400, json!({ "error": f.refuse_next.remove(i).1 }))
    } else {
        (200, run(&mut f))
    };
    if !key.is_empty() {
        f.saved.insert(key, answer.clone());
    }
    (StatusCode::from_u16(answer.0).unwrap(), Json(answer.1))
}

async fn create(State(s): State<S>, h: HeaderMap, body: String) -> (StatusCode, Json<Value>) {
    let amount: i64 = body.split('&').find_map(|kv| kv.strip_prefix("amount=")).unwrap().parse().unwrap();
    keyed(&s, "create", "POST /v1/payment_intents".into(), &h, body.clone(), |f| {
        let id = format!("pi_fake{}", f.pis.len() + 1);
        let pi = ("requires_payment_method".to_string(), amount);
        let v = pi_json(&id, &pi);
        f.pis.insert(id, pi);
        v
    })
}

fn change(s: &S, op: &'static str, id: &str, h: &HeaderMap, body: String, to: impl FnOnce(&Fake) -> String) -> (StatusCode, Json<Value>) {
    keyed(s, op, format!("POST /v1/payment_intents/{id}/{op}"), h, body, |f| {
        let status = to(f);
        let pi = f.pis.get_mut(id).unwrap();
        pi.0 = status;
        pi_json(id, pi)
    })
}

async fn confirm(State(s): State<S>, Path(id): Path<String>, h: HeaderMap, body: String) -> (StatusCode, Json<Value>) {
    change(&s, "confirm", &id, &h, body, |f| f.confirm_to.clone().unwrap_or_else(|| "requires_action".into()))
}

async fn capture(State(s): State<S>, Path(id): Path<String>, h: HeaderMap, body: String) -> (StatusCode, Json<Value>) {
    change(&s, "capture", &id, &h, body, |_| "succeeded".into())
}

async fn cancel(State(s): State<S>, Path(id): Path<String>, h: HeaderMap, body: String) -> (StatusCode, Json<Value>) {
    change(&s, "cancel", &id, &h, body, |_| "canceled".into())
}

async fn retrieve(State(s): State<S>, Path(id): Path<String>, h: HeaderMap) -> Json<Value> {
    let mut f = s.lock().unwrap();
    let auth = h.get("authorization").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    f.calls.push((format!("GET /v1/payment_intents/{id}"), auth, String::new(), String::new()));
    Json(pi_json(&id, &f.pis[&id]))
}

/// The stand-in on an ephemeral port and a dev server (test hooks on) talking to it.
async fn stand_in() -> (S, Server) {
    let fake: S = Arc::default();
    let app = Router::new()
        .route("/v1/payment_intents", post(create))
        .route("/v1/payment_intents/{id}/confirm", post(confirm))
        .route("/v1/payment_intents/{id}/capture", post(capture))
        .route("/v1/payment_intents/{id}/cancel", post(cancel))
        .route("/v1/payment_intents/{id}", get(retrieve))
        .with_state(fake.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    let s = spawn_with(|c| {
        c.test_hooks = true;
        c.stripe_api_base = base.clone();
        c.stripe_secret_key = "sk_test_not_a_real_key".into();
        c.stripe_publishable_key = "pk_test_not_a_real_key".into();
    })
    .await;
    (fake, s)
}

fn shipping_address() -> Value {
    json!({ "email": "a@example.com", "firstName": "A", "lastName": "B", "address1": "1 Main St", "city": "NYC", "postalCode": "10001", "country": "US" })
}

/// A new session for one unit of an in-stock variant; returns (session id, confirm body, initiate's answer).
async fn session(s: &Server, token: &str) -> (String, Value, Value) {
    let products = s.all_products().await;
    let v = products.iter().flat_map(|p| p["variants"].as_array().unwrap().iter()).find(|v| v["stockQuantity"].as_u64().unwrap() > 0).unwrap();
    let init = s.post_json("/payments/initiate", &json!({ "items": [{ "variantId": v["id"], "quantity": 1 }], "currency": "USD" })).await;
    let sid = init["sessionId"].as_str().unwrap().to_string();
    let body = json!({ "sessionId": sid, "confirmationTokenId": token, "shippingRateId": "rate_us_express",
        "shippingAddress": shipping_address(), "returnUrl": "https://shop.example/return?x=1" });
    (sid, body, init)
}

/// The idempotency keys the server sent with `what` (a call's method + path), in order.
fn keys(fake: &S, what: &str) -> Vec<String> {
    fake.lock().unwrap().calls.iter().filter(|c| c.0 == what).map(|c| c.2.clone()).collect()
}

#[tokio::test]
async fn confirmation_token_flow_sends_stripe_parameters() {
    let (fake, s) = stand_in().await;
    let (sid, body, init) = session(&s, "ctoken_1AbC").await;
    assert_eq!(init["publishableKey"], "pk_test_not_a_real_key");
    let up = s.post_json("/payments/update", &json!({ "sessionId": sid, "shippingRateId": "rate_us_express", "shippingAddress": body["shippingAddress"] })).await;
    let expected_amount = up["amount"].as_i64().unwrap();
    let r = s.post_json("/payments/confirm", &body).await;
    assert_eq!(r["status"], "requires_action");
    assert_eq!(r["clientSecret"], "pi_fake1_secret_abc");
    {
        let f = fake.lock().unwrap();
        assert_eq!(f.calls.len(), 2, "{:?}", f.calls);
        let (what, auth, idem, form) = &f.calls[0];
        assert_eq!(what, "POST /v1/payment_intents");
        assert_eq!(auth, "Bearer sk_test_not_a_real_key");
        assert_eq!(idem, &format!("cirrus-{sid}-pi-1"));
        assert!(form.contains(&format!("amount={expected_amount}")), "{form}");
        assert!(form.contains("currency=usd"), "{form}");
        assert!(form.contains("automatic_payment_methods%5Benabled%5D=true"), "{form}");
        assert!(form.contains("capture_method=manual"), "authorized only, captured once the stock is taken: {form}");
        assert!(form.contains(&format!("metadata%5Bcirrus_session%5D={sid}")), "{form}");
        assert!(!form.contains("payment_method="), "{form}");
        let (what, _, idem, form) = &f.calls[1];
        assert_eq!(what, "POST /v1/payment_intents/pi_fake1/confirm");
        assert_eq!(idem, &format!("cirrus-{sid}-confirm-1"), "the attempt's key: a re-sent confirm is the same request");
        assert!(form.contains("confirmation_token=ctoken_1AbC"), "{form}");
        assert!(form.contains("return_url=https%3A%2F%2Fshop.example%2Freturn%3Fx%3D1"), "{form}");
    }
    // The buyer finishes 3-D Secure (the payment is authorized); the second confirm
    // re-reads it, takes the stock and captures it, once.
    fake.lock().unwrap().pis.get_mut("pi_fake1").unwrap().0 = "requires_capture".into();
    let done = s.post_json("/payments/confirm", &body).await;
    assert_eq!(done["status"], "succeeded");
    {
        let f = fake.lock().unwrap();
        assert_eq!(f.calls.len(), 4, "{:?}", f.calls);
        assert_eq!(f.calls[2].0, "GET /v1/payment_intents/pi_fake1");
        assert_eq!(f.calls[3].0, "POST /v1/payment_intents/pi_fake1/capture");
        assert_eq!(f.calls[3].2, format!("cirrus-{sid}-capture-pi_fake1"));
    }
    // Again: only a re-read, nothing captured twice.
    assert_eq!(s.post_json("/payments/confirm", &body).await["status"], "succeeded");
    {
        let f = fake.lock().unwrap();
        assert_eq!(f.calls.len(), 5);
        assert_eq!(f.calls[4].0, "GET /v1/payment_intents/pi_fake1");
    }
    let orders = orders(&s).await;
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0]["amount"], expected_amount);
}

/// A confirm answered 500 is saved under its key by Stripe: the retry must use a
/// new key, and the still-unconfirmed payment is confirmed again, never reported
/// as a decline.
#[tokio::test]
async fn after_a_5xx_confirm_the_retry_uses_a_new_key_and_is_not_a_decline() {
    let (fake, s) = stand_in().await;
    let (sid, body, _) = session(&s, "ctoken_retry5xx").await;
    fake.lock().unwrap().fail_next.push("confirm");
    assert_error(s.post("/payments/confirm", &body).await, 502, "processor_error", "payment processor failed").await;
    // The PaymentIntent is still requires_payment_method (the ConfirmationToken never attached).
    let r = s.post("/payments/confirm", &body).await;
    let (status, v) = (r.status().as_u16(), r.json::<Value>().await.unwrap());
    assert_eq!((status, v["status"].as_str(), v["error"].as_str()), (200, Some("requires_action"), None), "confirmed again, not a decline: {v}");
    assert_eq!(keys(&fake, "POST /v1/payment_intents/pi_fake1/confirm"), [format!("cirrus-{sid}-confirm-1"), format!("cirrus-{sid}-confirm-1-r1")]);
    assert_eq!(keys(&fake, "POST /v1/payment_intents"), [format!("cirrus-{sid}-pi-1")], "one PaymentIntent");
    // Authorized: captured once, one order.
    fake.lock().unwrap().pis.get_mut("pi_fake1").unwrap().0 = "requires_capture".into();
    assert_eq!(s.post_json("/payments/confirm", &body).await["status"], "succeeded");
    assert_eq!(orders(&s).await.len(), 1);
}

/// The same rule for creating and capturing: a 5xx moves the key on; a lost
/// answer (the request reached Stripe, the answer did not come back) keeps it,
/// so Stripe replays the first answer and nothing is created twice.
#[tokio::test]
async fn keys_move_on_after_a_5xx_and_are_reused_after_a_lost_answer() {
    let (fake, s) = stand_in().await;
    fake.lock().unwrap().confirm_to = Some("requires_capture".into());

    // create answered 500: the retry is a new request (a new key), one PaymentIntent.
    let (a, body, _) = session(&s, "ctoken_create5xx").await;
    fake.lock().unwrap().fail_next.push("create");
    assert_eq!(s.post("/payments/confirm", &body).await.status(), 502);
    assert_eq!(s.post_json("/payments/confirm", &body).await["status"], "succeeded");
    assert_eq!(keys(&fake, "POST /v1/payment_intents"), [format!("cirrus-{a}-pi-1"), format!("cirrus-{a}-pi-1-r1")]);

    // create's answer lost: the retry sends the same key; Stripe replays the same PaymentIntent.
    let (b, body, _) = session(&s, "ctoken_createlost").await;
    processor_fault(&s, json!({ "op": "create", "kind": "lost" })).await;
    assert_eq!(s.post("/payments/confirm", &body).await.status(), 502);
    let done = s.post_json("/payments/confirm", &body).await;
    assert_eq!(done["status"], "succeeded");
    let b_keys: Vec<String> = keys(&fake, "POST /v1/payment_intents").into_iter().filter(|k| k.contains(&b)).collect();
    assert_eq!(b_keys, [format!("cirrus-{b}-pi-1"), format!("cirrus-{b}-pi-1")], "same key after a lost answer");
    assert_eq!(fake.lock().unwrap().pis.len(), 2, "one PaymentIntent per session, none created twice");

    // capture answered 500: a new key; captured once.
    let (c, body, _) = session(&s, "ctoken_capture5xx").await;
    fake.lock().unwrap().fail_next.push("capture");
    assert_eq!(s.post("/payments/confirm", &body).await.status(), 502);
    assert_eq!(s.post_json("/payments/confirm", &body).await["status"], "succeeded");
    let pi = fake.lock().unwrap().pis.len();
    assert_eq!(
        keys(&fake, &format!("POST /v1/payment_intents/pi_fake{pi}/capture")),
        [format!("cirrus-{c}-capture-pi_fake{pi}"), format!("cirrus-{c}-capture-pi_fake{pi}-r1")]
    );
    assert_eq!(orders(&s).await.len(), 3, "one order per session");
}

/// A final refusal as real Stripe words it (`code`, `param` in the error
/// object): the buyer's ConfirmationToken refused is a decline-like answer and a
/// new token then pays; a `return_url` refused is 400 naming `returnUrl`, and
/// the corrected retry goes out under a new key (Stripe may have saved the 400
/// under the first one).
#[tokio::test]
async fn a_final_refusal_is_not_retried_under_its_key() {
    let (fake, s) = stand_in().await;
    let refuse = |code: &str, param: &str| json!({ "type": "invalid_request_error", "code": code, "param": param, "message": "Stripe's own words" });

    // The ConfirmationToken refused (expired, unknown): decline-like; a new one is accepted.
    let (sid, mut body, _) = session(&s, "ctoken_expired").await;
    fake.lock().unwrap().refuse_next.push(("confirm", refuse("resource_missing", "confirmation_token")));
    let v = s.post_json("/payments/confirm", &body).await;
    assert_eq!((v["status"].as_str(), v["success"].as_bool()), (Some("requires_payment_method"), Some(false)), "{v}");
    assert!(v["error"].as_str().unwrap().contains("card details"), "our words: {v}");
    assert_eq!(v["paymentIntentId"], "pi_fake1");
    body["confirmationTokenId"] = json!("ctoken_fresh");
    let v = s.post_json("/payments/confirm", &body).await;
    assert_eq!((v["status"].as_str(), v["paymentIntentId"].as_str()), (Some("requires_action"), Some("pi_fake2")), "{v}");
    assert_eq!(fake.lock().unwrap().pis["pi_fake1"].0, "canceled", "the refused attempt is cancelled first");
    assert_eq!(keys(&fake, "POST /v1/payment_intents"), [format!("cirrus-{sid}-pi-1"), format!("cirrus-{sid}-pi-2")]);

    // return_url refused: 400 naming returnUrl; the retry is a new request.
    let (sid, body, _) = session(&s, "ctoken_badreturn").await;
    fake.lock().unwrap().refuse_next.push(("confirm", refuse("url_invalid", "return_url")));
    assert_error(s.post("/payments/confirm", &body).await, 400, "invalid_request", "returnUrl").await;
    let v = s.post_json("/payments/confirm", &body).await;
    assert_eq!(v["status"], "requires_action", "{v}");
    assert_eq!(keys(&fake, "POST /v1/payment_intents/pi_fake3/confirm"), [format!("cirrus-{sid}-confirm-1"), format!("cirrus-{sid}-confirm-1-r1")]);

    // An amount over the processor's maximum: 400 naming the amount, nothing created.
    let (_, body, _) = session(&s, "ctoken_toolarge").await;
    fake.lock().unwrap().refuse_next.push(("create", refuse("amount_too_large", "amount")));
    assert_error(s.post("/payments/confirm", &body).await, 400, "invalid_request", "amount").await;
    assert_eq!(fake.lock().unwrap().pis.len(), 3);
}
