//! `server/openapi.yaml` checked against live requests and responses: every
//! documented (path, method, status) is produced by a real request and its body
//! matches the documented schema; every observed response is documented; every
//! request the server answered as well-formed (2xx, 404, 409, 502) matches the
//! document's parameters and request body, read closed (a member or query parameter
//! the document does not name is a mismatch), and so do the SDK's own request
//! types, serialized by serde.

mod common;

use std::collections::BTreeSet;

use common::pay::{event, signature, unix_now, webhook_secret};
use common::{localstripe, spawn_with, Server};
use reqwest::Method;
use serde_json::{json, Value};

fn load_doc() -> Value {
    let text = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/openapi.yaml")).unwrap();
    serde_yaml::from_str(&text).unwrap()
}

fn resolve<'a>(doc: &'a Value, mut v: &'a Value) -> &'a Value {
    while let Some(r) = v.get("$ref").and_then(Value::as_str) {
        let mut cur = doc;
        for part in r.trim_start_matches("#/").split('/') {
            cur = &cur[part];
        }
        assert!(!cur.is_null(), "dangling $ref {r}");
        v = cur;
    }
    v
}

/// The compiled regex of a schema's `pattern` (compiled once a test thread).
fn pattern(p: &str) -> regex::Regex {
    thread_local!(static SEEN: std::cell::RefCell<std::collections::HashMap<String, regex::Regex>> = Default::default());
    SEEN.with(|seen| seen.borrow_mut().entry(p.to_owned()).or_insert_with(|| regex::Regex::new(p).unwrap()).clone())
}

/// A small validator for the OpenAPI 3.0 schema subset the document uses.
fn validate(doc: &Value, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>) {
    validate_as(doc, schema, v, at, errs, false);
}

/// [`validate`]; with `closed`, an object member the schema does not name is an error
/// even where the schema leaves `additionalProperties` open (requests: the server
/// ignores unknown members, so a renamed field would otherwise pass unseen).
fn validate_as(doc: &Value, schema: &Value, v: &Value, at: &str, errs: &mut Vec<String>, closed: bool) {
    let s = resolve(doc, schema);
    if v.is_null() {
        if s["nullable"] == true {
            return;
        }
        if s.get("type").is_none() && s.get("allOf").is_none() && s.get("oneOf").is_none() && s.get("anyOf").is_none() {
            return;
        }
    }
    if let Some(all) = s["allOf"].as_array() {
        for sub in all {
            validate_as(doc, sub, v, at, errs, closed);
        }
    }
    if let Some(any) = s["anyOf"].as_array() {
        let ok = any.iter().any(|sub| {
            let mut e = Vec::new();
            validate_as(doc, sub, v, at, &mut e, closed);
            e.is_empty()
        });
        if !ok {
            errs.push(format!("{at}: matches none of anyOf"));
        }
    }
    if let Some(one) = s["oneOf"].as_array() {
        let ok = one.iter().filter(|sub| {
            let mut e = Vec::new();
            validate_as(doc, sub, v, at, &mut e, closed);
            e.is_empty()
        });
        let n = ok.count();
        if n != 1 {
            errs.push(format!("{at}: matches {n} of oneOf"));
        }
    }
    let ty = s["type"].as_str();
    let type_ok = match ty {
        None => true,
        Some("string") => v.is_string(),
        Some("integer") => v.is_i64() || v.is_u64(),
        Some("number") => v.is_number(),
        Some("boolean") => v.is_boolean(),
        Some("array") => v.is_array(),
        Some("object") => v.is_object(),
        Some(t) => panic!("unsupported type {t}"),
    };
    if !type_ok {
        errs.push(format!("{at}: expected {}, got {v}", ty.unwrap_or("?")));
        return;
    }
    if let Some(e) = s["enum"].as_array() {
        if !e.contains(v) {
            errs.push(format!("{at}: {v} not in enum {e:?}"));
        }
    }
    if let (Some(p), Some(x)) = (s["pattern"].as_str(), v.as_str()) {
        if !pattern(p).is_match(x) {
            errs.push(format!("{at}: {x:?} does not match {p}"));
        }
    }
    if let (Some(min), Some(x)) = (s["minimum"].as_f64(), v.as_f64()) {
        if x < min {
            errs.push(format!("{at}: {x} < minimum {min}"));
        }
    }
    if let (Some(max), Some(x)) = (s["maximum"].as_f64(), v.as_f64()) {
        if x > max {
            errs.push(format!("{at}: {x} > maximum {max}"));
        }
    }
    if let Some(x) = v.as_str() {
        let n = x.chars().count() as u64;
        if s["minLength"].as_u64().is_some_and(|min| n < min) || s["maxLength"].as_u64().is_some_and(|max| n > max) {
            errs.push(format!("{at}: {x:?} is outside the documented length"));
        }
    }
    if let Some(a) = v.as_array() {
        if let Some(min) = s["minItems"].as_u64() {
            if (a.len() as u64) < min {
                errs.push(format!("{at}: fewer than {min} items"));
            }
        }
        if let Some(max) = s["maxItems"].as_u64() {
            if (a.len() as u64) > max {
                errs.push(format!("{at}: more than {max} items"));
            }
        }
        if let Some(items) = s.get("items") {
            for (i, x) in a.iter().enumerate() {
                validate_as(doc, items, x, &format!("{at}[{i}]"), errs, closed);
            }
        }
    }
    if let Some(o) = v.as_object() {
        for r in s["required"].as_array().into_iter().flatten() {
            if !o.contains_key(r.as_str().unwrap()) {
                errs.push(format!("{at}: missing required {r}"));
            }
        }
        let props = s["properties"].as_object();
        for (k, x) in o {
            match props.and_then(|p| p.get(k)) {
                Some(ps) => validate_as(doc, ps, x, &format!("{at}.{k}"), errs, closed),
                None => match s.get("additionalProperties") {
                    Some(Value::Bool(false)) => errs.push(format!("{at}: undocumented property {k}")),
                    Some(ap @ Value::Object(_)) => validate_as(doc, ap, x, &format!("{at}.{k}"), errs, closed),
                    _ if closed && props.is_some() => errs.push(format!("{at}: undocumented property {k}")),
                    _ => {}
                },
            }
        }
    }
}

/// What in a request the document does not allow, read closed: its query parameters
/// against the operation's `parameters`, its required headers, its body against the
/// `requestBody` schema.
fn request_mismatches(doc: &Value, op: &Value, path: &str, body: &Body) -> Vec<String> {
    let mut errs = Vec::new();
    let params: Vec<&Value> = op["parameters"].as_array().into_iter().flatten().map(|p| resolve(doc, p)).collect();
    let query = path.split_once('?').map_or("", |(_, q)| q);
    for (k, v) in form_urlencoded::parse(query.as_bytes()) {
        let Some(p) = params.iter().find(|p| p["in"] == "query" && p["name"] == *k) else {
            errs.push(format!("query: undocumented parameter {k}"));
            continue;
        };
        // A query value is text: read as the schema's type (text that is not one stays text).
        let value = match p["schema"]["type"].as_str() {
            Some("integer") => v.parse::<i64>().map_or_else(|_| Value::from(v.as_ref()), Value::from),
            Some("number") => v.parse::<f64>().map_or_else(|_| Value::from(v.as_ref()), Value::from),
            Some("boolean") => v.parse::<bool>().map_or_else(|_| Value::from(v.as_ref()), Value::from),
            _ => Value::from(v.as_ref()),
        };
        validate_as(doc, &p["schema"], &value, &format!("query.{k}"), &mut errs, true);
    }
    let sent_headers: &[&str] = if matches!(body, Body::Signed(..)) { &["stripe-signature"] } else { &[] };
    for p in &params {
        let name = p["name"].as_str().unwrap_or_default();
        let missing = match p["in"].as_str() {
            Some("query") => !form_urlencoded::parse(query.as_bytes()).any(|(k, _)| k == name),
            Some("header") => !sent_headers.contains(&name.to_lowercase().as_str()),
            _ => false,
        };
        if p["required"] == true && missing {
            errs.push(format!("{}: required parameter {name} not sent", p["in"].as_str().unwrap_or("?")));
        }
    }
    let documented = resolve(doc, &op["requestBody"]);
    let sent = match body {
        Body::None => None,
        Body::Json(v) => Some(v.clone()),
        Body::Raw(ct, b) => {
            if !ct.starts_with("application/json") {
                errs.push(format!("body: content type {ct}"));
            }
            Some(serde_json::from_str(b).unwrap_or_else(|_| Value::String(b.clone())))
        }
        Body::Signed(b, _) => Some(serde_json::from_str(b).unwrap_or_else(|_| Value::String(b.clone()))),
    };
    match sent {
        None if documented["required"] == true => errs.push("body: required, none sent".into()),
        Some(_) if !documented.is_object() => errs.push("body: the operation takes none".into()),
        Some(v) => validate_as(doc, &documented["content"]["application/json"]["schema"], &v, "body", &mut errs, true),
        None => {}
    }
    errs
}

/// Statuses that answer a request the server read as well-formed: its request must match
/// the document. (400, 413, 415 answer a request refused for its shape; 401, 429 and 500
/// come before or beside reading it.)
fn answers_a_well_formed_request(status: &str) -> bool {
    status.starts_with('2') || matches!(status, "404" | "409" | "502")
}

struct Checker {
    doc: Value,
    covered: BTreeSet<(String, String, String)>,
    checked: usize,
    /// Requests checked against the document (answered as well-formed).
    requests_checked: usize,
}

impl Checker {
    /// Sends a request and checks its response against the document.
    async fn check(&mut self, s: &Server, method: Method, template: &str, path: &str, body: Body, auth: bool) -> Value {
        self.check_from(s, method, template, path, body, auth, None).await
    }

    /// [`Self::check`], sent with `Host: host` when given.
    // The request and its expectation, one argument each, as `check` takes them.
    #[allow(clippy::too_many_arguments)]
    async fn check_from(&mut self, s: &Server, method: Method, template: &str, path: &str, body: Body, auth: bool, host: Option<&str>) -> Value {
        let m = method.as_str().to_lowercase();
        let op = self.doc["paths"][template][&m].clone();
        assert!(op.is_object(), "{} {template} is not documented", method);
        let request_errs = request_mismatches(&self.doc, &op, path, &body);
        let mut req = s.http.request(method.clone(), format!("{}{path}", s.base));
        if let Some(h) = host {
            req = req.header("host", h);
        }
        if auth {
            req = req.bearer_auth(&s.key);
        }
        req = match body {
            Body::None => req,
            Body::Json(v) => req.json(&v),
            Body::Raw(ct, b) => req.header("Content-Type", ct).body(b),
            Body::Signed(b, sig) => req.header("Content-Type", "application/json; charset=utf-8").header("Stripe-Signature", sig).body(b),
        };
        let r = req.send().await.unwrap();
        let status = r.status().as_u16().to_string();
        assert!(r.headers().contains_key("x-request-id"), "{method} {path}: x-request-id");
        let retry_after = r.headers().contains_key("retry-after");
        let ct = r.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
        let bytes = r.bytes().await.unwrap();
        if answers_a_well_formed_request(&status) {
            assert!(
                request_errs.is_empty(),
                "{method} {path} was answered {status}, but the request does not match the document:\n{}",
                request_errs.join("\n")
            );
            self.requests_checked += 1;
        }
        let resp = op["responses"].get(&status).unwrap_or_else(|| {
            panic!("{method} {path} answered {status}, undocumented: {}", String::from_utf8_lossy(&bytes))
        });
        let resp = resolve(&self.doc, resp).clone();
        if resp["headers"].get("Retry-After").is_some() {
            assert!(retry_after, "{method} {path} {status}: Retry-After");
        }
        assert!(ct.starts_with("application/json"), "{method} {path}: content-type {ct}");
        let v: Value = serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let schema = &resp["content"]["application/json"]["schema"];
        let mut errs = Vec::new();
        validate(&self.doc, schema, &v, "$", &mut errs);
        assert!(errs.is_empty(), "{method} {path} {status} does not match the document:\n{}", errs.join("\n"));
        self.covered.insert((template.to_string(), m, status));
        self.checked += 1;
        v
    }
}

enum Body {
    None,
    Json(Value),
    Raw(&'static str, String),
    /// A webhook event and its `Stripe-Signature`.
    Signed(String, String),
}

/// The document's example of a request schema (generated: every member set, the optional
/// ones too).
fn example(doc: &Value, schema: &str) -> Value {
    let v = doc["components"]["schemas"][schema]["example"].clone();
    assert!(v.is_object(), "{schema} has no example");
    v
}

/// A shipping address with every member set: the document's example, in the US (the
/// shipping rates the tests choose).
fn address() -> Value {
    let a = example(&load_doc(), "ShippingAddress");
    assert_eq!(a["country"], "US", "{a}");
    a
}

async fn card_token(number: &str) -> String {
    let v: Value = reqwest::Client::new()
        .post(format!("{}/v1/tokens", localstripe()))
        .bearer_auth("sk_test_localstripe")
        .form(&[("card[number]", number), ("card[exp_month]", "12"), ("card[exp_year]", "2034"), ("card[cvc]", "123")])
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    v["id"].as_str().unwrap().to_string()
}

#[tokio::test]
async fn openapi_document_matches_live_responses() {
    let ls = localstripe();
    let secret = webhook_secret();
    let s = spawn_with(|c| {
        c.test_hooks = true;
        c.stripe_api_base = ls.clone();
        c.stripe_webhook_secret = Some(secret.clone());
    })
    .await;
    let mut k = Checker { doc: load_doc(), covered: BTreeSet::new(), checked: 0, requests_checked: 0 };
    let g = Method::GET;
    let p = Method::POST;

    // Catalog 200s, including every products variant.
    k.check(&s, g.clone(), "/store", "/store", Body::None, true).await;
    for q in ["", "?limit=1", "?limit=500&includePagination=true", "?minimal=true", "?minimal=true&includePagination=true&offset=110", "?offset=100000", "?minimal=true&offset=100000"] {
        k.check(&s, g.clone(), "/products", &format!("/products{q}"), Body::None, true).await;
    }
    let products = s.all_products().await;
    let slug = products[0]["slug"].as_str().unwrap().to_string();
    k.check(&s, g.clone(), "/products/slug/{slug}", &format!("/products/slug/{slug}"), Body::None, true).await;
    k.check(&s, g.clone(), "/products/slug/{slug}", "/products/slug/xss-probe", Body::None, true).await;
    k.check(&s, g.clone(), "/pages", "/pages", Body::None, true).await;
    let cols = k.check(&s, g.clone(), "/collections", "/collections", Body::None, true).await;
    let col = &cols["collections"][5];
    k.check(&s, g.clone(), "/collections/slug/{slug}", &format!("/collections/slug/{}", col["slug"].as_str().unwrap()), Body::None, true).await;
    k.check(&s, g.clone(), "/collections/{id}", &format!("/collections/{}", col["id"].as_str().unwrap()), Body::None, true).await;
    // Catalog errors.
    k.check(&s, g.clone(), "/products", "/products?limit=0", Body::None, true).await;
    k.check(&s, g.clone(), "/products/slug/{slug}", "/products/slug/nope", Body::None, true).await;
    k.check(&s, g.clone(), "/collections/slug/{slug}", "/collections/slug/nope", Body::None, true).await;
    k.check(&s, g.clone(), "/collections/{id}", "/collections/nope", Body::None, true).await;
    k.check(&s, g.clone(), "/products/slug/{slug}", "/products/slug/%FF", Body::None, true).await;
    k.check(&s, g.clone(), "/collections/slug/{slug}", "/collections/slug/%C3", Body::None, true).await;
    k.check(&s, g.clone(), "/collections/{id}", "/collections/%FE%FF", Body::None, true).await;

    // Shipping rates.
    let variant = products.iter().flat_map(|p| p["variants"].as_array().unwrap().iter()).find(|v| v["stockQuantity"].as_u64().unwrap() >= 2).unwrap();
    let vid = variant["id"].as_str().unwrap().to_string();
    let stock = variant["stockQuantity"].as_u64().unwrap();
    k.check(&s, p.clone(), "/shipping-rates", "/shipping-rates", Body::Json(json!({ "variantIds": [vid], "country": "US", "orderTotal": 12.5 })), true).await;
    k.check(&s, p.clone(), "/shipping-rates", "/shipping-rates", Body::Json(json!({ "variantIds": [vid], "country": "JP" })), true).await;
    k.check(&s, p.clone(), "/shipping-rates", "/shipping-rates", Body::Json(json!({ "variantIds": [], "country": "US" })), true).await;
    k.check(&s, p.clone(), "/shipping-rates", "/shipping-rates", Body::Json(json!({ "variantIds": ["var_nope"], "country": "US" })), true).await;

    // Payments: initiate, update, confirm (4242), then the conflicts.
    let init = |q: u64| json!({ "items": [{ "variantId": vid, "quantity": q }], "currency": "USD" });
    let sess = k.check(&s, p.clone(), "/payments/initiate", "/payments/initiate", Body::Json(init(1)), true).await;
    let sid = sess["sessionId"].as_str().unwrap().to_string();
    k.check(&s, p.clone(), "/payments/initiate", "/payments/initiate", Body::Json(json!({ "items": [], "currency": "USD" })), true).await;
    k.check(&s, p.clone(), "/payments/initiate", "/payments/initiate", Body::Json(json!({ "items": [{ "variantId": "var_nope", "quantity": 1 }], "currency": "USD" })), true).await;
    k.check(&s, p.clone(), "/payments/initiate", "/payments/initiate", Body::Json(init(stock + 1)), true).await;
    let upd = json!({ "sessionId": sid, "shippingRateId": "rate_us_express", "shippingAddress": address() });
    k.check(&s, p.clone(), "/payments/update", "/payments/update", Body::Json(upd.clone()), true).await;
    k.check(&s, p.clone(), "/payments/update", "/payments/update", Body::Json(json!({ "sessionId": sid })), true).await;
    k.check(&s, p.clone(), "/payments/update", "/payments/update", Body::Json(json!({ "sessionId": "cs_nope", "shippingRateId": "rate_us_express", "shippingAddress": address() })), true).await;
    let conf = |tok: &str, sid: &str| json!({ "sessionId": sid, "confirmationTokenId": tok, "shippingRateId": "rate_us_express", "shippingAddress": address(), "returnUrl": "http://127.0.0.1/done" });
    let tok = card_token("4242424242424242").await;
    let ok = k.check(&s, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf(&tok, &sid)), true).await;
    assert_eq!(ok["status"], "succeeded");
    // requires_action and a decline are 200s too.
    let (mut declined, mut declined_pi) = (String::new(), Value::Null);
    for card in ["4000002760003184", "4000000000000341"] {
        let other = s.post_json("/payments/initiate", &init(1)).await["sessionId"].as_str().unwrap().to_string();
        let tok = card_token(card).await;
        let r = k.check(&s, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf(&tok, &other)), true).await;
        declined = other;
        declined_pi = r["paymentIntentId"].clone();
    }
    // Another token on the paid session: the paid payment's answer (200).
    let tok2 = card_token("4242424242424242").await;
    k.check(&s, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf(&tok2, &sid)), true).await;
    // 409 stock gone: one session for every unit left, another buys one first.
    let all = s.post_json("/payments/initiate", &init(stock - 1)).await["sessionId"].as_str().unwrap().to_string();
    let one = s.post_json("/payments/initiate", &init(1)).await["sessionId"].as_str().unwrap().to_string();
    assert_eq!(s.post_json("/payments/confirm", &conf(&card_token("4242424242424242").await, &one)).await["status"], "succeeded");
    k.check(&s, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf(&card_token("4242424242424242").await, &all)), true).await;
    k.check(&s, p.clone(), "/payments/update", "/payments/update", Body::Json(upd), true).await;
    k.check(&s, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf("nope", &sid)), true).await;
    k.check(&s, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf(&tok2, "cs_nope")), true).await;
    let down = spawn_with(|c| c.stripe_api_base = "http://127.0.0.1:9".into()).await;
    let sid2 = down.post_json("/payments/initiate", &init(1)).await["sessionId"].as_str().unwrap().to_string();
    k.check(&down, p.clone(), "/payments/confirm", "/payments/confirm", Body::Json(conf("tok_x", &sid2)), true).await;

    // Transport rows for every operation: 400 for a foreign Host, 401, 429, 500 (fault hooks),
    // 413 and 415 for POSTs.
    let ops: Vec<(Method, &str, String)> = vec![
        (g.clone(), "/store", "/store".into()),
        (g.clone(), "/products", "/products".into()),
        (g.clone(), "/products/slug/{slug}", format!("/products/slug/{slug}")),
        (g.clone(), "/pages", "/pages".into()),
        (g.clone(), "/collections", "/collections".into()),
        (g.clone(), "/collections/slug/{slug}", "/collections/slug/apparel".into()),
        (g.clone(), "/collections/{id}", "/collections/col_apparel".into()),
        (p.clone(), "/shipping-rates", "/shipping-rates".into()),
        (p.clone(), "/payments/initiate", "/payments/initiate".into()),
        (p.clone(), "/payments/update", "/payments/update".into()),
        (p.clone(), "/payments/confirm", "/payments/confirm".into()),
    ];
    let big = "x".repeat(70 * 1024);
    for (m, template, path) in &ops {
        let body = || if *m == Method::POST { Body::Json(json!({})) } else { Body::None };
        k.check(&s, m.clone(), template, path, body(), false).await;
        k.check_from(&s, m.clone(), template, path, body(), true, Some("rebound.example")).await;
        for status in [429, 500] {
            let fault = json!({ "method": m.as_str(), "path": format!("/api/v1{path}"), "kind": "status", "status": status, "retryAfter": 2 });
            let r = s.http.post(format!("{}/__test/faults", s.origin)).json(&fault).send().await.unwrap();
            assert_eq!(r.status(), 204);
            k.check(&s, m.clone(), template, path, body(), true).await;
        }
        if *m == Method::POST {
            k.check(&s, m.clone(), template, path, Body::Raw("text/plain", "{}".into()), true).await;
            k.check(&s, m.clone(), template, path, Body::Raw("application/json", format!("\"{big}\"")), true).await;
        }
    }

    // update answers 502 when it cannot ask the processor about a session's payment
    // (a processor fault on reading the declined session's PaymentIntent).
    let fault = json!({ "op": "retrieve", "kind": "status", "status": 500 });
    assert_eq!(s.http.post(format!("{}/__test/processor-faults", s.origin)).json(&fault).send().await.unwrap().status(), 204);
    let upd_declined = json!({ "sessionId": declined, "shippingRateId": "rate_us_express", "shippingAddress": address() });
    k.check(&s, p.clone(), "/payments/update", "/payments/update", Body::Json(upd_declined), true).await;

    // The processor's webhook: signed by the endpoint secret, no bearer key.
    let wh = "/webhooks/stripe";
    let ev = |session: &str, pi: &Value| event("payment_intent.payment_failed", &json!({ "id": pi, "object": "payment_intent", "metadata": { "cirrus_session": session } }));
    let unknown = ev("cs_nope", &json!("pi_nope"));
    k.check(&s, p.clone(), wh, wh, Body::Signed(unknown.clone(), signature(&secret, unix_now(), &unknown)), false).await;
    k.check(&s, p.clone(), wh, wh, Body::Raw("application/json", unknown.clone()), false).await;
    k.check(&s, p.clone(), wh, wh, Body::Raw("application/json", format!("\"{big}\"")), false).await;
    k.check_from(&s, p.clone(), wh, wh, Body::Signed(unknown.clone(), signature(&secret, unix_now(), &unknown)), false, Some("rebound.example")).await;
    let fault = json!({ "method": "POST", "path": "/api/v1/webhooks/stripe", "kind": "status", "status": 500 });
    assert_eq!(s.http.post(format!("{}/__test/faults", s.origin)).json(&fault).send().await.unwrap().status(), 204);
    k.check(&s, p.clone(), wh, wh, Body::Signed(unknown.clone(), signature(&secret, unix_now(), &unknown)), false).await;
    // 502: the declined session's payment cannot be read back now.
    let fault = json!({ "op": "retrieve", "kind": "status", "status": 500 });
    assert_eq!(s.http.post(format!("{}/__test/processor-faults", s.origin)).json(&fault).send().await.unwrap().status(), 204);
    let failed = ev(&declined, &declined_pi);
    k.check(&s, p.clone(), wh, wh, Body::Signed(failed.clone(), signature(&secret, unix_now(), &failed)), false).await;

    // Every documented response was produced.
    let mut missing = Vec::new();
    for (template, item) in k.doc["paths"].as_object().unwrap() {
        for (m, op) in item.as_object().unwrap() {
            for status in op["responses"].as_object().unwrap().keys() {
                if !k.covered.contains(&(template.clone(), m.clone(), status.clone())) {
                    missing.push(format!("{m} {template} {status}"));
                }
            }
        }
    }
    assert!(missing.is_empty(), "documented but never observed: {missing:?}");
    assert!(k.checked >= 96, "{} responses checked", k.checked);
    assert!(k.requests_checked >= 30, "{} requests checked", k.requests_checked);
}

/// A value of `T` with every member set, the optional ones too, as JSON: serde-reflection's
/// first trace of a type takes `Some` for every `Option` (its strings are empty, its numbers 0).
fn every_member<T: serde::de::DeserializeOwned + serde::Serialize>() -> Value {
    let samples = serde_reflection::Samples::new();
    let mut tracer = serde_reflection::Tracer::new(serde_reflection::TracerConfig::default());
    let (_, value) = tracer.trace_type_once::<T>(&samples).unwrap();
    serde_json::to_value(value).unwrap()
}

/// The member paths of a JSON value (an array's first element stands for all).
fn member_paths(v: &Value, at: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                let p = format!("{at}.{k}");
                out.insert(p.clone());
                member_paths(x, &p, out);
            }
        }
        Value::Array(a) => {
            if let Some(x) = a.first() {
                member_paths(x, &format!("{at}[]"), out);
            }
        }
        _ => {}
    }
}

/// The request bodies of the client's operations: (path, schema name, the core's verdict on a
/// body: read into the type by serde, then its `Body::check`, as the client sends it).
type Verdict = fn(&Value) -> Result<Value, String>;

fn request_bodies() -> Vec<(&'static str, String, Verdict, Value)> {
    use cirrus_storefront::endpoint::{Body, Call};
    use cirrus_storefront::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};
    fn case<T: Body + serde::de::DeserializeOwned>() -> (&'static str, String, Verdict, Value) {
        fn verdict<T: Body + serde::de::DeserializeOwned>(v: &Value) -> Result<Value, String> {
            let body: T = serde_json::from_value(v.clone()).map_err(|e| e.to_string())?;
            Call::body(&body).map_err(|e| e.message)?;
            Ok(serde_json::to_value(&body).unwrap())
        }
        (T::OP.endpoint().path, format!("{:?}", T::SCHEMA), verdict::<T>, every_member::<T>())
    }
    vec![case::<ShippingRatesRequest>(), case::<InitiateRequest>(), case::<UpdateRequest>(), case::<ConfirmRequest>()]
}

/// The SDK's request bodies and `GET /products` queries, as the core builds them, match
/// the document (closed: a member the document does not name fails). The bodies are the
/// document's examples, which set every member of the Rust type, the optional ones too: a
/// member the document lacks fails here.
#[test]
fn sdk_requests_match_the_document() {
    use cirrus_storefront::endpoint::{Call, ProductsQuery};
    let doc = load_doc();
    for (path, schema, verdict, full) in request_bodies() {
        let body = example(&doc, &schema);
        let (mut want, mut got) = (BTreeSet::new(), BTreeSet::new());
        member_paths(&full, "body", &mut want);
        member_paths(&body, "body", &mut got);
        assert_eq!(got, want, "{schema}: the document's example does not set every member of the Rust type");
        // What the SDK sends: the body read into the core's type (its checks pass) and written back by serde.
        let sent = verdict(&body).unwrap_or_else(|e| panic!("{schema} example {body}: the core refuses it: {e}"));
        assert_eq!(sent, body, "{schema}: serde writes the example back differently");
        let errs = request_mismatches(&doc, &doc["paths"][path]["post"], path, &Body::Json(sent.clone()));
        assert!(errs.is_empty(), "POST {path} {sent}:\n{}", errs.join("\n"));
    }
    let q = ProductsQuery { limit: Some(500), offset: Some(100), include_pagination: true, minimal: true };
    let call = Call::products(&q).unwrap();
    let errs = request_mismatches(&doc, &doc["paths"]["/products"]["get"], &call.path, &Body::None);
    assert!(errs.is_empty(), "GET {}:\n{}", call.path, errs.join("\n"));
    // The check can fail: a member or a parameter the document does not name, a bad value.
    let op = &doc["paths"]["/shipping-rates"]["post"];
    let renamed = json!({ "variantIds": ["v"], "country": "US", "order_total": 3 });
    assert_eq!(request_mismatches(&doc, op, "/shipping-rates", &Body::Json(renamed)), ["body: undocumented property order_total"]);
    let errs = request_mismatches(&doc, &doc["paths"]["/products"]["get"], "/products?limit=501&pageSize=3", &Body::None);
    assert_eq!(errs, ["query.limit: 501 > maximum 500", "query: undocumented parameter pageSize"]);
    // And a member missing from the document is seen: the example without one of its members.
    let (_, schema, _, full) = request_bodies().remove(2);
    let mut short = example(&doc, &schema);
    short["shippingAddress"].as_object_mut().unwrap().remove("phone");
    let (mut want, mut got) = (BTreeSet::new(), BTreeSet::new());
    member_paths(&full, "body", &mut want);
    member_paths(&short, "body", &mut got);
    assert_eq!(want.difference(&got).collect::<Vec<_>>(), ["body.shippingAddress.phone"]);
}

/// Values each member of a request body is set to in [`document_and_core_agree`].
fn probes(v: &Value) -> Vec<Value> {
    let long = |n: usize| "x".repeat(n);
    match v {
        Value::String(_) => {
            let mut p: Vec<Value> = [
                "", " ", "x", "ZZ", "US", "us", "USA", "USD", "usd", "a\u{1}b", "a\u{85}b", "ada@example.com", "a@b", "a@-b.c", "a@b-.c", "a@b..c",
                "@b.c", "a b@c.d", "a@b@c.d", "ftp://x/done", "http://", "http:///x", "https://x", "https://shop.example/do ne", "tok_1",
            ]
            .into_iter()
            .map(Value::from)
            .collect();
            p.extend([long(200), long(201), format!("{}@b.c", long(64)), format!("{}@b.c", long(65)), format!("https://{}", long(2040)), format!("https://{}", long(2041))].map(Value::from));
            p
        }
        Value::Number(n) if n.is_f64() => vec![json!(-1.0), json!(0.0), json!(12.5)],
        Value::Number(_) => vec![json!(0), json!(1), json!(u32::MAX), json!(u64::from(u32::MAX) + 1)],
        Value::Array(a) => match a.first() {
            Some(Value::String(_)) => [0, 1, 250, 251].map(|n| Value::from((0..n).map(|i| format!("v{i}")).collect::<Vec<_>>())).to_vec(),
            _ => vec![json!([]), Value::Array(a.clone())],
        },
        _ => vec![],
    }
}

/// Every probe at every member path of `v`: (path, the body with that member set to the
/// probe, or left out when the probe is `None`).
fn probed(body: &Value, v: &Value, at: &mut Vec<String>, out: &mut Vec<(String, Value)>) {
    let put = |at: &[String], x: Option<Value>| {
        let mut b = body.clone();
        let (last, parents) = at.split_last().unwrap();
        let mut cur = &mut b;
        for k in parents {
            cur = if k == "0" { &mut cur[0] } else { &mut cur[k.as_str()] };
        }
        match x {
            Some(x) if last == "0" => cur[0] = x,
            Some(x) => cur[last.as_str()] = x,
            None => drop(cur.as_object_mut().unwrap().remove(last.as_str())),
        }
        b
    };
    if !at.is_empty() {
        for p in probes(v) {
            out.push((at.join("."), put(at, Some(p))));
        }
        if at.last().is_some_and(|k| k != "0") {
            out.push((format!("{} absent", at.join(".")), put(at, None)));
            out.push((format!("{} null", at.join(".")), put(at, Some(Value::Null))));
        }
    }
    match v {
        Value::Object(o) => {
            for (k, x) in o {
                at.push(k.clone());
                probed(body, x, at, out);
                at.pop();
            }
        }
        Value::Array(a) if !a.is_empty() => {
            at.push("0".into());
            probed(body, &a[0], at, out);
            at.pop();
        }
        _ => {}
    }
}

/// The document's request rules are the core's: every body the document's example becomes
/// with one member changed (to each of [`probes`], null, or left out) is refused by the
/// document exactly when the core refuses it (serde, then the type's `Body::check`: what the
/// client sends, and what the server reads). The "ZZ" included.
#[test]
fn document_and_core_agree() {
    let doc = load_doc();
    let mut checked = 0;
    let mut disagree = Vec::new();
    for (_, schema, verdict, _) in request_bodies() {
        let body = example(&doc, &schema);
        let mut cases = Vec::new();
        probed(&body, &body, &mut Vec::new(), &mut cases);
        for (at, b) in cases {
            let mut errs = Vec::new();
            validate_as(&doc, &json!({ "$ref": format!("#/components/schemas/{schema}") }), &b, "body", &mut errs, true);
            let core = verdict(&b);
            if errs.is_empty() != core.is_ok() {
                let shown: String = b.to_string().chars().take(300).collect();
                disagree.push(format!("{schema} {at}: document {errs:?}, core {:?}: {shown}", core.err()));
            }
            checked += 1;
        }
    }
    assert!(disagree.is_empty(), "{} of {checked} bodies judged differently:\n{}", disagree.len(), disagree.join("\n"));
    assert!(checked > 1000, "{checked} bodies");
}

#[test]
fn validator_rejects_what_it_should() {
    let doc = load_doc();
    let product = json!({ "$ref": "#/components/schemas/MinimalProduct" });
    let good = json!({ "id": "p", "name": "n", "slug": "s", "images": [], "tags": [], "price": "1.00" });
    let mut e = Vec::new();
    validate(&doc, &product, &good, "$", &mut e);
    assert!(e.is_empty(), "{e:?}");
    for bad in [
        json!({ "id": "p", "name": "n", "slug": "s", "images": [], "tags": [], "price": "1.0" }),
        json!({ "id": "p", "name": "n", "slug": "s", "images": [], "tags": [], "price": 1 }),
        json!({ "id": "p", "name": "n", "slug": "s", "images": [], "tags": [] }),
        json!({ "id": "p", "name": "n", "slug": "s", "images": [], "tags": [], "price": "1.00", "extra": 1 }),
        json!({ "id": "p", "name": "n", "slug": "s", "images": [{ "url": "u" }], "tags": [], "price": "1.00" }),
        json!({ "id": null, "name": "n", "slug": "s", "images": [], "tags": [], "price": "1.00" }),
    ] {
        let mut e = Vec::new();
        validate(&doc, &product, &bad, "$", &mut e);
        assert!(!e.is_empty(), "should reject {bad}");
    }
}
