//! Payments against a REAL localstripe (`LOCALSTRIPE_URL`, started by
//! scripts/test.d/20-server.sh): success, 3-D Secure, decline, idempotent
//! confirm, stock decremented exactly once, processor unreachable.

mod common;

use common::{assert_error, localstripe, spawn_with, Server};
use serde_json::{json, Value};

const SK: &str = "sk_test_localstripe";

async fn hooks_server() -> Server {
    let ls = localstripe();
    spawn_with(|c| {
        c.test_hooks = true;
        c.stripe_api_base = ls;
    })
    .await
}

/// A card token made directly on localstripe, as Stripe.js `createToken` would.
async fn card_token(number: &str) -> String {
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

/// PaymentIntents localstripe holds for `session` (paged through the whole list).
async fn payment_intents(session: &str) -> Vec<Value> {
    let http = reqwest::Client::new();
    let mut out = Vec::new();
    let mut after: Option<String> = None;
    loop {
        let mut url = format!("{}/v1/payment_intents?limit=100", localstripe());
        if let Some(a) = &after {
            url.push_str(&format!("&starting_after={a}"));
        }
        let v: Value = http.get(url).bearer_auth(SK).send().await.unwrap().json().await.unwrap();
        let data = v["data"].as_array().unwrap();
        out.extend(data.iter().filter(|pi| pi["metadata"]["cirrus_session"] == session).cloned());
        if v["has_more"] != true || data.is_empty() {
            return out;
        }
        after = data.last().unwrap()["id"].as_str().map(str::to_string);
    }
}

/// An in-stock variant of a `prof_standard` product with at least `min` in stock: (variant id, product slug, stock, price cents).
async fn pick_variant(s: &Server, min: u64, skip: usize) -> (String, String, u64, i64) {
    for p in s.all_products().await.iter().filter(|p| p["tags"][0] == "t-shirts").skip(skip) {
        for v in p["variants"].as_array().unwrap() {
            let q = v["stockQuantity"].as_u64().unwrap();
            if q >= min {
                return (v["id"].as_str().unwrap().into(), p["slug"].as_str().unwrap().into(), q, common::cents(v["price"].as_str().unwrap()));
            }
        }
    }
    panic!("no variant with stock >= {min}");
}

async fn stock(s: &Server, slug: &str, variant: &str) -> u64 {
    let p = s.get_json(&format!("/products/slug/{slug}")).await;
    let v = p["product"]["variants"].as_array().unwrap().iter().find(|v| v["id"] == variant).unwrap().clone();
    // The list (served from rendered JSON kept between requests) must agree.
    let listed = s.all_products().await.into_iter().find(|x| x["slug"] == slug).unwrap();
    assert_eq!(listed, p["product"], "list and by-slug agree after stock changes");
    v["stockQuantity"].as_u64().unwrap()
}

fn address(country: &str) -> Value {
    json!({ "email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "address1": "1 Analytical Way",
            "city": "London", "postalCode": "N1 9GU", "country": country, "phone": null })
}

fn confirm_body(session: &str, token: &str, rate: &str) -> Value {
    json!({ "sessionId": session, "confirmationTokenId": token, "shippingRateId": rate,
            "shippingAddress": address(&rate[5..7].to_uppercase()), "returnUrl": "http://127.0.0.1:8787/checkout/done" })
}

async fn orders(s: &Server) -> Vec<Value> {
    let v: Value = s.http.get(format!("{}/__test/orders", s.origin)).send().await.unwrap().json().await.unwrap();
    v["orders"].as_array().unwrap().clone()
}

async fn initiate(s: &Server, variant: &str, qty: u64) -> Value {
    s.post_json("/payments/initiate", &json!({ "items": [{ "variantId": variant, "quantity": qty }], "currency": "USD" })).await
}

fn half_up_tax(base: i64, bps: i64) -> i64 {
    (base * bps + 5_000) / 10_000
}

#[tokio::test]
async fn initiate_and_update_validate_and_price() {
    let s = hooks_server().await;
    let (v, _, stock_q, price) = pick_variant(&s, 2, 0).await;
    let init = initiate(&s, &v, 2).await;
    assert_eq!(init["processor"], "stripe");
    assert_eq!(init["publishableKey"], "pk_test_localstripe");
    assert_eq!(init["currency"], "USD");
    assert_eq!(init["amount"], price * 2);
    assert_eq!(init["breakdown"], json!({ "subtotal": price * 2, "shipping": 0, "tax": 0, "total": price * 2 }));
    let sid = init["sessionId"].as_str().unwrap();

    // Errors of initiate.
    let body = |items: Value, cur: &str| json!({ "items": items, "currency": cur });
    assert_error(s.post("/payments/initiate", &body(json!([{ "variantId": v, "quantity": 1 }]), "EUR")).await, 400, "invalid_request", "currency").await;
    assert_error(s.post("/payments/initiate", &body(json!([]), "USD")).await, 400, "invalid_request", "items").await;
    assert_error(s.post("/payments/initiate", &body(json!([{ "variantId": v, "quantity": 0 }]), "USD")).await, 400, "invalid_request", "items[0].quantity").await;
    assert_error(s.post("/payments/initiate", &body(json!([{ "variantId": v, "quantity": 1 }, { "variantId": v, "quantity": 1 }]), "USD")).await, 400, "invalid_request", "duplicate").await;
    assert_error(s.post("/payments/initiate", &body(json!([{ "variantId": "var_nope", "quantity": 1 }]), "USD")).await, 404, "not_found", "var_nope").await;
    assert_error(s.post("/payments/initiate", &body(json!([{ "variantId": v, "quantity": stock_q + 1 }]), "USD")).await, 409, "conflict", "in stock").await;

    // Update: shipping + tax rounded half up on (subtotal + shipping), US 7.25 %.
    let subtotal = price * 2;
    let rate = if subtotal <= 9_999 { ("rate_us_standard", 599) } else { ("rate_us_free", 0) };
    let up = s.post_json("/payments/update", &json!({ "sessionId": sid, "shippingRateId": rate.0, "shippingAddress": address("US") })).await;
    let tax = half_up_tax(subtotal + rate.1, 725);
    assert_eq!(up["breakdown"], json!({ "subtotal": subtotal, "shipping": rate.1, "tax": tax, "total": subtotal + rate.1 + tax }));
    assert_eq!(up["amount"], subtotal + rate.1 + tax);
    assert_eq!(up["sessionId"], sid);
    let up = s.post_json("/payments/update", &json!({ "sessionId": sid, "shippingRateId": "rate_de_express", "shippingAddress": address("DE") })).await;
    assert_eq!(up["breakdown"]["tax"], half_up_tax(subtotal + 2_999, 1_900));

    let upd = |rate: &str, addr: Value| json!({ "sessionId": sid, "shippingRateId": rate, "shippingAddress": addr });
    assert_error(s.post("/payments/update", &upd("rate_gb_standard", address("US"))).await, 400, "invalid_request", "shippingRateId").await;
    assert_error(s.post("/payments/update", &upd("rate_us_freight", address("US"))).await, 400, "invalid_request", "not offered").await;
    let wrong_band = if subtotal <= 9_999 { "rate_us_free" } else { "rate_us_standard" };
    assert_error(s.post("/payments/update", &upd(wrong_band, address("US"))).await, 400, "invalid_request", "subtotal").await;
    assert_error(s.post("/payments/update", &upd("rate_nope", address("US"))).await, 404, "not_found", "rate_nope").await;
    let mut bad = address("US");
    bad["email"] = json!("not-an-email");
    assert_error(s.post("/payments/update", &upd("rate_us_express", bad)).await, 400, "invalid_request", "shippingAddress.email").await;
    let mut bad = address("US");
    bad.as_object_mut().unwrap().remove("postalCode");
    assert_error(s.post("/payments/update", &upd("rate_us_express", bad)).await, 400, "invalid_request", "postalCode").await;
    let mut bad = address("US");
    bad["city"] = json!("  ");
    assert_error(s.post("/payments/update", &upd("rate_us_express", bad)).await, 400, "invalid_request", "shippingAddress.city").await;
    assert_error(s.post("/payments/update", &json!({ "sessionId": "cs_nope", "shippingRateId": "rate_us_express", "shippingAddress": address("US") })).await, 404, "not_found", "cs_nope").await;
    assert_error(s.post("/payments/update", &json!({ "sessionId": sid, "shippingRateId": "rate_us_express" })).await, 400, "invalid_request", "shippingAddress").await;
}

#[tokio::test]
async fn card_4242_succeeds_once_and_confirm_is_idempotent() {
    let s = hooks_server().await;
    let (v, slug, before, _) = pick_variant(&s, 3, 0).await;
    let sid = initiate(&s, &v, 3).await["sessionId"].as_str().unwrap().to_string();
    let tok = card_token("4242424242424242").await;
    let r = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(r["success"], true, "{r}");
    assert_eq!(r["status"], "succeeded");
    assert_eq!(r["clientSecret"], Value::Null);
    assert_eq!(r["error"], Value::Null);
    let pi = r["paymentIntentId"].as_str().unwrap().to_string();
    assert_eq!(stock(&s, &slug, &v).await, before - 3, "stock decremented");
    let o = orders(&s).await;
    assert_eq!(o.len(), 1);
    assert_eq!(o[0]["sessionId"], sid.as_str());
    assert_eq!(o[0]["paymentIntentId"], pi.as_str());
    assert_eq!(o[0]["items"], json!([{ "variantId": v, "quantity": 3 }]));
    let pis = payment_intents(&sid).await;
    assert_eq!(pis.len(), 1);
    assert_eq!(o[0]["amount"], pis[0]["amount"]);

    // Again, same token: the same payment re-read, nothing new charged or recorded.
    let again = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(again, r);
    assert_eq!(payment_intents(&sid).await.len(), 1, "no second PaymentIntent");
    assert_eq!(orders(&s).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 3, "decremented exactly once");

    // A different token on a paid session: 409. The session is single-use.
    let tok2 = card_token("4242424242424242").await;
    assert_error(s.post("/payments/confirm", &confirm_body(&sid, &tok2, "rate_us_express")).await, 409, "conflict", "different token").await;
    assert_error(s.post("/payments/update", &json!({ "sessionId": sid, "shippingRateId": "rate_us_express", "shippingAddress": address("US") })).await, 409, "conflict", "completed").await;
    assert_eq!(payment_intents(&sid).await.len(), 1);
}

#[tokio::test]
async fn three_d_secure_requires_action_then_succeeds() {
    let s = hooks_server().await;
    let (v, slug, before, _) = pick_variant(&s, 1, 1).await;
    let sid = initiate(&s, &v, 1).await["sessionId"].as_str().unwrap().to_string();
    let tok = card_token("4000002760003184").await;
    let r = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(r["status"], "requires_action", "{r}");
    assert_eq!(r["success"], false);
    assert_eq!(r["error"], Value::Null);
    let pi = r["paymentIntentId"].as_str().unwrap().to_string();
    let secret = r["clientSecret"].as_str().unwrap().to_string();
    assert!(secret.starts_with(&format!("{pi}_secret_")));
    assert!(orders(&s).await.is_empty());
    // Confirm before the buyer authenticates: still requires_action, same payment.
    let r2 = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(r2, r);
    // Changing shipping while the payment awaits authentication: 409.
    let upd = json!({ "sessionId": sid, "shippingRateId": "rate_us_standard", "shippingAddress": address("US") });
    assert_error(s.post("/payments/update", &upd).await, 409, "conflict", "in progress").await;
    // Another card while the payment awaits authentication: 409.
    let other = card_token("4242424242424242").await;
    assert_error(s.post("/payments/confirm", &confirm_body(&sid, &other, "rate_us_express")).await, 409, "conflict", "requires_action").await;
    // The buyer completes 3-D Secure (what localstripe's Stripe.js modal does).
    let auth = reqwest::Client::new()
        .post(format!("{}/v1/payment_intents/{pi}/_authenticate", localstripe()))
        .form(&[("client_secret", secret.as_str()), ("success", "true"), ("key", "pk_test_localstripe")])
        .send()
        .await
        .unwrap();
    assert_eq!(auth.status(), 200);
    let done = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(done["status"], "succeeded", "{done}");
    assert_eq!(done["success"], true);
    assert_eq!(done["paymentIntentId"], pi.as_str());
    assert_eq!(done["clientSecret"], Value::Null);
    assert_eq!(payment_intents(&sid).await.len(), 1, "one PaymentIntent for the session");
    assert_eq!(orders(&s).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 1);
    s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(stock(&s, &slug, &v).await, before - 1, "exactly once");
}

#[tokio::test]
async fn decline_is_a_result_and_a_new_card_can_pay() {
    let s = hooks_server().await;
    let (v, slug, before, _) = pick_variant(&s, 1, 2).await;
    let sid = initiate(&s, &v, 1).await["sessionId"].as_str().unwrap().to_string();
    let bad = card_token("4000000000000341").await;
    let r = s.post_json("/payments/confirm", &confirm_body(&sid, &bad, "rate_us_express")).await;
    assert_eq!(r["success"], false, "{r}");
    assert_eq!(r["status"], "requires_payment_method");
    assert!(r["error"].as_str().unwrap().contains("declined"), "{r}");
    assert_eq!(r["clientSecret"], Value::Null);
    assert!(orders(&s).await.is_empty());
    assert_eq!(stock(&s, &slug, &v).await, before);
    // Repeating the declined token re-reads, it does not try again.
    let again = s.post_json("/payments/confirm", &confirm_body(&sid, &bad, "rate_us_express")).await;
    assert_eq!(again, r);
    assert_eq!(payment_intents(&sid).await.len(), 1);
    // After a decline the shipping choice may still change.
    let upd = json!({ "sessionId": sid, "shippingRateId": "rate_us_express", "shippingAddress": address("US") });
    s.post_json("/payments/update", &upd).await;
    // A new card: a new attempt succeeds; the failed one is canceled, never charged.
    let good = card_token("4242424242424242").await;
    let ok = s.post_json("/payments/confirm", &confirm_body(&sid, &good, "rate_us_express")).await;
    assert_eq!(ok["status"], "succeeded", "{ok}");
    let pis = payment_intents(&sid).await;
    assert_eq!(pis.len(), 2);
    assert_eq!(pis.iter().filter(|p| p["status"] == "succeeded").count(), 1, "charged once");
    assert_eq!(orders(&s).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 1);
}

#[tokio::test]
async fn confirm_validates_and_unknown_things_are_404() {
    let s = hooks_server().await;
    let (v, _, _, _) = pick_variant(&s, 1, 0).await;
    let sid = initiate(&s, &v, 1).await["sessionId"].as_str().unwrap().to_string();
    let mut b = confirm_body(&sid, "pm_123", "rate_us_express");
    assert_error(s.post("/payments/confirm", &b).await, 400, "invalid_request", "confirmationTokenId").await;
    b["confirmationTokenId"] = json!("tok_../../v1/charges");
    assert_error(s.post("/payments/confirm", &b).await, 400, "invalid_request", "confirmationTokenId").await;
    b["confirmationTokenId"] = json!("tok_doesnotexist");
    assert_error(s.post("/payments/confirm", &b).await, 400, "invalid_request", "unknown card token").await;
    b["returnUrl"] = json!("javascript:alert(1)");
    assert_error(s.post("/payments/confirm", &b).await, 400, "invalid_request", "returnUrl").await;
    let b = confirm_body("cs_nope", "tok_abc", "rate_us_express");
    assert_error(s.post("/payments/confirm", &b).await, 404, "not_found", "cs_nope").await;
    let mut b = confirm_body(&sid, "tok_abc", "rate_us_express");
    b.as_object_mut().unwrap().remove("returnUrl");
    assert_error(s.post("/payments/confirm", &b).await, 400, "invalid_request", "returnUrl").await;
    assert!(payment_intents(&sid).await.is_empty());
}

#[tokio::test]
async fn processor_unreachable_is_502() {
    let _ = localstripe(); // this file's tests need the real one; fail loudly without it
    // Port 9 (discard) on loopback: nothing listens, the connection is refused.
    let s = spawn_with(|c| c.stripe_api_base = "http://127.0.0.1:9".into()).await;
    let (v, slug, before, _) = pick_variant(&s, 1, 0).await;
    let sid = initiate(&s, &v, 1).await["sessionId"].as_str().unwrap().to_string();
    let b = confirm_body(&sid, "tok_abc123", "rate_us_express");
    assert_error(s.post("/payments/confirm", &b).await, 502, "processor_error", "unreachable").await;
    assert_eq!(stock(&s, &slug, &v).await, before);
}

#[tokio::test]
async fn failed_three_d_secure_then_a_new_card() {
    let s = hooks_server().await;
    let (v, slug, before, _) = pick_variant(&s, 1, 3).await;
    let sid = initiate(&s, &v, 1).await["sessionId"].as_str().unwrap().to_string();
    let tok = card_token("4000002500003155").await;
    let r = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(r["status"], "requires_action", "{r}");
    let pi = r["paymentIntentId"].as_str().unwrap().to_string();
    // The buyer fails authentication.
    let auth = reqwest::Client::new()
        .post(format!("{}/v1/payment_intents/{pi}/_authenticate", localstripe()))
        .form(&[("client_secret", r["clientSecret"].as_str().unwrap()), ("success", "false"), ("key", "pk_test_localstripe")])
        .send()
        .await
        .unwrap();
    assert_eq!(auth.status(), 200);
    let failed = s.post_json("/payments/confirm", &confirm_body(&sid, &tok, "rate_us_express")).await;
    assert_eq!(failed["status"], "requires_payment_method", "{failed}");
    assert_eq!(failed["success"], false);
    assert!(failed["error"].as_str().unwrap().contains("authentication"), "{failed}");
    assert!(orders(&s).await.is_empty());
    let good = card_token("4242424242424242").await;
    let ok = s.post_json("/payments/confirm", &confirm_body(&sid, &good, "rate_us_express")).await;
    assert_eq!(ok["status"], "succeeded", "{ok}");
    assert_ne!(ok["paymentIntentId"], pi.as_str());
    let pis = payment_intents(&sid).await;
    assert_eq!(pis.len(), 2);
    assert_eq!(pis.iter().filter(|p| p["status"] == "succeeded").count(), 1);
    assert_eq!(orders(&s).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 1);
}

#[tokio::test]
async fn concurrent_confirms_charge_once() {
    let s = hooks_server().await;
    let (v, slug, before, _) = pick_variant(&s, 2, 4).await;
    let sid = initiate(&s, &v, 2).await["sessionId"].as_str().unwrap().to_string();
    let tok = card_token("4242424242424242").await;
    let body = confirm_body(&sid, &tok, "rate_us_express");
    let results = futures_join(&s, &body, 6).await;
    let pi = results[0]["paymentIntentId"].clone();
    for r in &results {
        assert_eq!(r["status"], "succeeded", "{r}");
        assert_eq!(r["paymentIntentId"], pi);
    }
    assert_eq!(payment_intents(&sid).await.len(), 1, "one PaymentIntent for six concurrent confirms");
    assert_eq!(orders(&s).await.len(), 1);
    assert_eq!(stock(&s, &slug, &v).await, before - 2);
}

async fn futures_join(s: &Server, body: &Value, n: usize) -> Vec<Value> {
    let mut handles = Vec::new();
    for _ in 0..n {
        let req = s.req(reqwest::Method::POST, "/payments/confirm").json(body);
        handles.push(tokio::spawn(async move { req.send().await.unwrap().json::<Value>().await.unwrap() }));
    }
    let mut out = Vec::new();
    for h in handles {
        out.push(h.await.unwrap());
    }
    out
}
