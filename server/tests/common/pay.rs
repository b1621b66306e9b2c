//! Payment helpers shared by the tests that talk to a real localstripe.

use serde_json::{json, Value};

use super::{localstripe, spawn_with, Server};

pub const SK: &str = "sk_test_localstripe";

pub async fn hooks_server() -> Server {
    let ls = localstripe();
    spawn_with(|c| {
        c.test_hooks = true;
        c.stripe_api_base = ls;
    })
    .await
}

/// A card token made directly on localstripe, as Stripe.js `createToken` would.
pub async fn card_token(number: &str) -> String {
    let r = reqwest::Client::new()
        .post(format!("{}/v1/tokens", localstripe()))
        .bearer_auth(SK)
        .form(&[("card[number]", number), ("card[exp_month]", "12"), ("card[exp_year]", "2034"), ("card[cvc]", "123")])
        .send()
        .await
        .expect("localstripe reachable");
    let v: Value = r.json().await.unwrap();
    v["id"].as_str().unwrap_or_else(|| panic!("token: {v}")).to_string()
}

/// Every object of a localstripe list (`/v1/payment_intents`, `/v1/charges`), paged through.
pub async fn list_all(what: &str) -> Vec<Value> {
    let http = reqwest::Client::new();
    let mut out = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let mut url = format!("{}/v1/{what}?limit=100", localstripe());
        if let Some(a) = &after {
            url.push_str(&format!("&starting_after={a}"));
        }
        let v: Value = http.get(url).bearer_auth(SK).send().await.unwrap().json().await.unwrap();
        let data = v["data"].as_array().unwrap_or_else(|| panic!("{what}: {v}"));
        out.extend(data.iter().cloned());
        if v["has_more"] != true || data.is_empty() {
            return out;
        }
        after = data.last().unwrap()["id"].as_str().map(str::to_string);
    }
}

/// PaymentIntents localstripe holds for `session`.
pub async fn payment_intents(session: &str) -> Vec<Value> {
    list_all("payment_intents").await.into_iter().filter(|pi| pi["metadata"]["cirrus_session"] == session).collect()
}

/// An in-stock variant of a `prof_standard` product with at least `min` in stock: (variant id, product slug, stock, price cents).
pub async fn pick_variant(s: &Server, min: u64, skip: usize) -> (String, String, u64, i64) {
    for p in s.all_products().await.iter().filter(|p| p["tags"][0] == "t-shirts").skip(skip) {
        for v in p["variants"].as_array().unwrap() {
            let q = v["stockQuantity"].as_u64().unwrap();
            if q >= min {
                return (v["id"].as_str().unwrap().into(), p["slug"].as_str().unwrap().into(), q, super::cents(v["price"].as_str().unwrap()));
            }
        }
    }
    panic!("no variant with stock >= {min}");
}

pub async fn stock(s: &Server, slug: &str, variant: &str) -> u64 {
    let p = s.get_json(&format!("/products/slug/{slug}")).await;
    let v = p["product"]["variants"].as_array().unwrap().iter().find(|v| v["id"] == variant).unwrap().clone();
    // The list (served from rendered JSON kept between requests) must agree.
    let listed = s.all_products().await.into_iter().find(|x| x["slug"] == slug).unwrap();
    assert_eq!(listed, p["product"], "list and by-slug agree after stock changes");
    v["stockQuantity"].as_u64().unwrap()
}

pub fn address(country: &str) -> Value {
    json!({ "email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "address1": "1 Analytical Way",
            "city": "London", "postalCode": "N1 9GU", "country": country, "phone": null })
}

pub fn confirm_body(session: &str, token: &str, rate: &str) -> Value {
    json!({ "sessionId": session, "confirmationTokenId": token, "shippingRateId": rate,
            "shippingAddress": address(&rate[5..7].to_uppercase()), "returnUrl": "http://127.0.0.1:8787/checkout/done" })
}

pub async fn orders(s: &Server) -> Vec<Value> {
    let v: Value = s.http.get(format!("{}/__test/orders", s.origin)).send().await.unwrap().json().await.unwrap();
    v["orders"].as_array().unwrap().clone()
}

pub async fn initiate(s: &Server, variant: &str, qty: u64) -> Value {
    s.post_json("/payments/initiate", &json!({ "items": [{ "variantId": variant, "quantity": qty }], "currency": "USD" })).await
}

/// A new payment session of `qty` units of `variant`: its id.
pub async fn new_session(s: &Server, variant: &str, qty: u64) -> String {
    initiate(s, variant, qty).await["sessionId"].as_str().unwrap().to_string()
}

/// What localstripe's Stripe.js modal does when the buyer finishes (or fails) 3-D Secure.
pub async fn authenticate(pi: &str, client_secret: &str, success: bool) {
    let r = reqwest::Client::new()
        .post(format!("{}/v1/payment_intents/{pi}/_authenticate", localstripe()))
        .form(&[("client_secret", client_secret), ("success", if success { "true" } else { "false" }), ("key", "pk_test_localstripe")])
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "_authenticate {pi}");
}

/// Arms a processor fault (test hooks): `{ op, kind, status?, times?, delayMs? }`.
pub async fn processor_fault(s: &Server, body: Value) {
    let r = s.http.post(format!("{}/__test/processor-faults", s.origin)).json(&body).send().await.unwrap();
    assert_eq!(r.status(), 204, "arming {body}");
}

/// One PaymentIntent as localstripe has it now.
pub async fn payment_intent(id: &str) -> Value {
    let r = reqwest::Client::new().get(format!("{}/v1/payment_intents/{id}", localstripe())).bearer_auth(SK).send().await.unwrap();
    assert_eq!(r.status(), 200, "GET {id}");
    r.json().await.unwrap()
}

/// Cancels PaymentIntent `id` at localstripe directly (outside the server: the
/// buyer's bank, the dashboard, an authorization that expired).
pub async fn cancel_at_processor(id: &str) {
    let r = reqwest::Client::new().post(format!("{}/v1/payment_intents/{id}/cancel", localstripe())).bearer_auth(SK).send().await.unwrap();
    assert_eq!(r.status(), 200, "cancel {id}: {}", r.text().await.unwrap());
}

/// Every charge localstripe holds.
pub async fn all_charges() -> Vec<Value> {
    list_all("charges").await
}

/// Captured, successful charges of `session`'s PaymentIntents.
pub async fn captured_charges(session: &str) -> usize {
    let pis: Vec<String> = payment_intents(session).await.iter().map(|p| p["id"].as_str().unwrap().to_string()).collect();
    all_charges()
        .await
        .iter()
        .filter(|c| c["payment_intent"].as_str().is_some_and(|p| pis.iter().any(|x| x == p)))
        .filter(|c| c["status"] == "succeeded" && c["captured"] == true)
        .count()
}

/// Orders recorded for `session`.
pub async fn orders_of(s: &Server, session: &str) -> usize {
    orders(s).await.iter().filter(|o| o["sessionId"] == session).count()
}

/// A confirm as a browser would finish it: confirm; on `requires_action`, the
/// buyer authenticates (3-D Secure) and the client confirms again. Returns the
/// HTTP status and body of the last confirm.
pub async fn pay(s: &Server, session: &str, card: &str, rate: &str) -> (u16, Value) {
    let tok = card_token(card).await;
    let body = confirm_body(session, &tok, rate);
    let r = s.post("/payments/confirm", &body).await;
    let status = r.status().as_u16();
    let v: Value = r.json().await.unwrap();
    if status != 200 || v["status"] != "requires_action" {
        return (status, v);
    }
    authenticate(v["paymentIntentId"].as_str().unwrap(), v["clientSecret"].as_str().unwrap(), true).await;
    let r = s.post("/payments/confirm", &body).await;
    (r.status().as_u16(), r.json().await.unwrap())
}

/// A fresh webhook endpoint secret (`whsec_` + 64 hex), as scripts/lib.sh makes one per run.
pub fn webhook_secret() -> String {
    let mut b = [0u8; 32];
    getrandom::getrandom(&mut b).unwrap();
    format!("whsec_{}", cirrus_dev_server::util::hex(&b))
}

/// A server with test hooks, talking to localstripe, whose webhook endpoint takes `secret`.
pub async fn webhook_server(secret: &str) -> Server {
    let (ls, secret) = (localstripe(), secret.to_string());
    spawn_with(|c| {
        c.test_hooks = true;
        c.stripe_api_base = ls;
        c.stripe_webhook_secret = Some(secret);
    })
    .await
}

/// Has localstripe send its PaymentIntent events to `s` (signed with `secret`), as
/// `register_webhook` in scripts/lib.sh does. One registration per server port.
pub async fn register_webhook(s: &Server, secret: &str) {
    let port = s.origin.rsplit(':').next().unwrap();
    let r = reqwest::Client::new()
        .post(format!("{}/_config/webhooks/cirrus-test-{port}", localstripe()))
        .json(&json!({ "url": format!("{}/webhooks/stripe", s.base), "secret": secret,
                       "events": ["payment_intent.succeeded", "payment_intent.payment_failed"] }))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), 200, "registering the webhook with localstripe");
}

/// `Stripe-Signature` of `body` at unix time `t`, as Stripe signs it.
pub fn signature(secret: &str, t: i64, body: &str) -> String {
    let mac = cirrus_dev_server::webhook::hmac_sha256(secret.as_bytes(), format!("{t}.{body}").as_bytes());
    format!("t={t},v1={}", cirrus_dev_server::util::hex(&mac))
}

pub fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_secs() as i64
}

/// A PaymentIntent event as the processor sends it (`type`, `data.object`).
pub fn event(kind: &str, pi: &Value) -> String {
    json!({ "id": format!("evt_test_{}", unix_now()), "object": "event", "type": kind, "data": { "object": pi } }).to_string()
}

/// POSTs `body` to the webhook endpoint with `signature` (none when `None`).
pub async fn post_webhook(s: &Server, body: &str, signature: Option<&str>) -> reqwest::Response {
    let mut req = s.http.post(format!("{}/webhooks/stripe", s.base)).header("Content-Type", "application/json; charset=utf-8").body(body.to_string());
    if let Some(sig) = signature {
        req = req.header("Stripe-Signature", sig);
    }
    req.send().await.unwrap()
}

/// Waits (up to `secs`) until `session` has `n` orders; returns how many it has.
pub async fn wait_for_orders(s: &Server, session: &str, n: usize, secs: u64) -> usize {
    let t0 = std::time::Instant::now();
    loop {
        let have = orders_of(s, session).await;
        if have >= n || t0.elapsed() > std::time::Duration::from_secs(secs) {
            return have;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    }
}

/// Session `sid` was charged once and has one order.
pub async fn assert_charged_once(s: &Server, sid: &str) {
    assert_eq!((captured_charges(sid).await, orders_of(s, sid).await), (1, 1), "(captured charges, orders) of {sid}");
}

/// After `attempts - 1` failed attempts on session `sid`, a new card pays: of its
/// `attempts` PaymentIntents exactly one succeeded, the store has one order and
/// the stock of `variant` (product `slug`) is one below `before`. Returns the answer.
pub async fn pay_with_a_new_card(s: &Server, sid: &str, attempts: usize, (slug, variant, before): (&str, &str, u64)) -> Value {
    let good = card_token("4242424242424242").await;
    let ok = s.post_json("/payments/confirm", &confirm_body(sid, &good, "rate_us_express")).await;
    assert_eq!(ok["status"], "succeeded", "{ok}");
    let pis = payment_intents(sid).await;
    assert_eq!(pis.len(), attempts);
    assert_eq!(pis.iter().filter(|p| p["status"] == "succeeded").count(), 1, "charged once");
    assert_eq!(orders(s).await.len(), 1);
    assert_eq!(stock(s, slug, variant).await, before - 1);
    ok
}
