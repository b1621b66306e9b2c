//! The real-Stripe flow (`ctoken_…` ConfirmationTokens) cannot run against
//! localstripe (it rejects `confirmation_token`, `automatic_payment_methods`,
//! `return_url`). This test puts a recording stand-in at `STRIPE_API_BASE` and
//! checks the requests the server sends: parameters, Bearer key, idempotency
//! keys, one PaymentIntent per session, and a re-read on the second confirm.

mod common;

use std::sync::{Arc, Mutex};

use axum::extract::{Path, State};
use axum::http::HeaderMap;
use axum::routing::{get, post};
use axum::{Json, Router};
use common::spawn_with;
use serde_json::{json, Value};

#[derive(Default)]
struct Fake {
    calls: Vec<(String, String, String, String)>, // (method+path, auth, idempotency key, body)
    status: String,
    amount: i64,
}

type S = Arc<Mutex<Fake>>;

fn pi(f: &Fake) -> Value {
    json!({ "id": "pi_fake1", "object": "payment_intent", "status": f.status, "amount": f.amount,
            "client_secret": "pi_fake1_secret_abc", "last_payment_error": null })
}

fn record(s: &S, what: String, h: &HeaderMap, body: String) {
    let get = |k: &str| h.get(k).map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    s.lock().unwrap().calls.push((what, get("authorization"), get("idempotency-key"), body));
}

async fn create(State(s): State<S>, h: HeaderMap, body: String) -> Json<Value> {
    record(&s, "POST /v1/payment_intents".into(), &h, body.clone());
    let mut f = s.lock().unwrap();
    f.amount = body.split('&').find_map(|kv| kv.strip_prefix("amount=")).unwrap().parse().unwrap();
    f.status = "requires_payment_method".into();
    Json(pi(&f))
}

async fn confirm(State(s): State<S>, Path(id): Path<String>, h: HeaderMap, body: String) -> Json<Value> {
    record(&s, format!("POST /v1/payment_intents/{id}/confirm"), &h, body);
    let mut f = s.lock().unwrap();
    f.status = "requires_action".into();
    Json(pi(&f))
}

async fn capture(State(s): State<S>, Path(id): Path<String>, h: HeaderMap, body: String) -> Json<Value> {
    record(&s, format!("POST /v1/payment_intents/{id}/capture"), &h, body);
    let mut f = s.lock().unwrap();
    f.status = "succeeded".into();
    Json(pi(&f))
}

async fn retrieve(State(s): State<S>, Path(id): Path<String>, h: HeaderMap) -> Json<Value> {
    record(&s, format!("GET /v1/payment_intents/{id}"), &h, String::new());
    Json(pi(&s.lock().unwrap()))
}

#[tokio::test]
async fn confirmation_token_flow_sends_stripe_parameters() {
    let fake: S = Arc::default();
    let app = Router::new()
        .route("/v1/payment_intents", post(create))
        .route("/v1/payment_intents/{id}/confirm", post(confirm))
        .route("/v1/payment_intents/{id}/capture", post(capture))
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
    let products = s.all_products().await;
    let v = products.iter().flat_map(|p| p["variants"].as_array().unwrap().iter()).find(|v| v["stockQuantity"].as_u64().unwrap() > 0).unwrap();
    let init = s.post_json("/payments/initiate", &json!({ "items": [{ "variantId": v["id"], "quantity": 1 }], "currency": "USD" })).await;
    assert_eq!(init["publishableKey"], "pk_test_not_a_real_key");
    let sid = init["sessionId"].as_str().unwrap();
    let body = json!({ "sessionId": sid, "confirmationTokenId": "ctoken_1AbC", "shippingRateId": "rate_us_express",
        "shippingAddress": { "email": "a@example.com", "firstName": "A", "lastName": "B", "address1": "1 Main St", "city": "NYC", "postalCode": "10001", "country": "US" },
        "returnUrl": "https://shop.example/return?x=1" });
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
    fake.lock().unwrap().status = "requires_capture".into();
    let done = s.post_json("/payments/confirm", &body).await;
    assert_eq!(done["status"], "succeeded");
    let f = fake.lock().unwrap();
    assert_eq!(f.calls.len(), 4, "{:?}", f.calls);
    assert_eq!(f.calls[2].0, "GET /v1/payment_intents/pi_fake1");
    assert_eq!(f.calls[3].0, "POST /v1/payment_intents/pi_fake1/capture");
    assert_eq!(f.calls[3].2, format!("cirrus-{sid}-capture-pi_fake1"));
    drop(f);
    // Again: only a re-read, nothing captured twice.
    assert_eq!(s.post_json("/payments/confirm", &body).await["status"], "succeeded");
    let f = fake.lock().unwrap();
    assert_eq!(f.calls.len(), 5);
    assert_eq!(f.calls[4].0, "GET /v1/payment_intents/pi_fake1");
    drop(f);
    let orders: Value = s.http.get(format!("{}/__test/orders", s.origin)).send().await.unwrap().json().await.unwrap();
    assert_eq!(orders["orders"].as_array().unwrap().len(), 1);
    assert_eq!(orders["orders"][0]["amount"], expected_amount);
}
