//! wasm-bindgen tests in headless Chromium against a dev server
//! (scripts/test.d/30-wasm.sh starts it and passes `CIRRUS_BASE_URL` and
//! `CIRRUS_API_KEY` at compile time). Every fetcher, every error code the
//! client can meet, retries, sharing, cache, abort and timeout.
#![allow(clippy::unwrap_used)]

use js_sys::{Object, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

use super::client::CirrusClient;

wasm_bindgen_test_configure!(run_in_browser);

const BASE: Option<&str> = option_env!("CIRRUS_BASE_URL");
const KEY: Option<&str> = option_env!("CIRRUS_API_KEY");

fn base() -> &'static str {
    BASE.expect("CIRRUS_BASE_URL must be set when the wasm tests are compiled (scripts/test.d/30-wasm.sh)")
}
fn key() -> &'static str {
    KEY.expect("CIRRUS_API_KEY must be set when the wasm tests are compiled (scripts/test.d/30-wasm.sh)")
}

#[wasm_bindgen(inline_js = r#"
export async function arm(base, fault) {
  const r = await fetch(base.replace(/\/api\/v1$/, "") + "/__test/faults", {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(fault) });
  if (r.status !== 204) throw new Error("arming the fault failed: " + r.status);
}
export async function disarm(base) {
  await fetch(base.replace(/\/api\/v1$/, "") + "/__test/faults", { method: "DELETE" });
}
export function countingFetch() {
  const f = (...a) => { f.calls++; return fetch(...a); };
  f.calls = 0;
  return f;
}
export function calls(f) { return f.calls; }
export function abortAfter(ms) { const c = new AbortController(); setTimeout(() => c.abort(), ms); return c.signal; }
export function abortedSignal() { const c = new AbortController(); c.abort(); return c.signal; }
export function opts(base, key, extra) { return Object.assign({ baseUrl: base, apiKey: key }, extra || {}); }
export function get(o, k) { return o == null ? undefined : o[k]; }
export function has(o, k) { return o != null && typeof o === "object" && k in o; }
export function len(a) { return a.length; }
export function at(a, i) { return a[i]; }
export function now() { return Date.now(); }
export function json(v) { return JSON.stringify(v); }
export function parse(s) { return JSON.parse(s); }
export function isError(e) { return e instanceof Error; }
"#)]
extern "C" {
    #[wasm_bindgen(catch)]
    async fn arm(base: &str, fault: JsValue) -> Result<(), JsValue>;
    async fn disarm(base: &str);
    #[wasm_bindgen(js_name = countingFetch)]
    fn counting_fetch() -> JsValue;
    fn calls(f: &JsValue) -> u32;
    #[wasm_bindgen(js_name = abortAfter)]
    fn abort_after(ms: u32) -> Object;
    #[wasm_bindgen(js_name = abortedSignal)]
    fn aborted_signal() -> Object;
    fn opts(base: &str, key: &str, extra: JsValue) -> JsValue;
    fn get(o: &JsValue, k: &str) -> JsValue;
    fn has(o: &JsValue, k: &str) -> bool;
    fn len(a: &JsValue) -> u32;
    fn at(a: &JsValue, i: u32) -> JsValue;
    fn now() -> f64;
    fn json(v: &JsValue) -> String;
    fn parse(s: &str) -> JsValue;
    #[wasm_bindgen(js_name = isError)]
    fn is_error(e: &JsValue) -> bool;
}

fn client_with(extra: &str) -> CirrusClient {
    CirrusClient::new(opts(base(), key(), parse(extra))).unwrap()
}

fn client() -> CirrusClient {
    client_with("{}")
}

async fn ok(p: Promise) -> JsValue {
    match JsFuture::from(p).await {
        Ok(v) => v,
        Err(e) => panic!("expected success, got {} {:?}", json(&get(&e, "code")), get(&e, "message").as_string()),
    }
}

/// Awaits a rejection and checks it is a CirrusError-shaped `Error` with `code`.
async fn fails(p: Promise, code: &str) -> JsValue {
    match JsFuture::from(p).await {
        Ok(v) => panic!("expected a {code} error, got {}", json(&v)),
        Err(e) => {
            assert!(is_error(&e), "rejections are Error objects");
            assert_eq!(get(&e, "name").as_string().as_deref(), Some("CirrusError"));
            assert_eq!(get(&e, "code").as_string().as_deref(), Some(code), "message: {:?}", get(&e, "message").as_string());
            e
        }
    }
}

fn fault(method: &str, path: &str, kind: &str, extra: &str) -> JsValue {
    parse(&format!(
        r#"{{"method":"{method}","path":"/api/v1{path}","kind":"{kind}","times":1{}{extra}}}"#,
        if extra.is_empty() { "" } else { "," }
    ))
}

fn s(v: &JsValue) -> String {
    v.as_string().unwrap_or_default()
}

// ------------------------------------------------------------------ fetchers

#[wasm_bindgen_test]
async fn products_full_minimal_and_paginated() {
    let c = client();
    let page = ok(c.products(parse(r#"{"limit":5,"includePagination":true}"#), None)).await;
    let products = get(&page, "products");
    assert_eq!(len(&products), 5);
    let p = at(&products, 0);
    assert!(has(&p, "variants") && has(&p, "metaTitle"), "a full product: {}", json(&p));
    assert_eq!(s(&get(&p, "status")), "ACTIVE");
    let pag = get(&page, "pagination");
    assert_eq!(get(&pag, "limit").as_f64(), Some(5.0));
    assert_eq!(get(&pag, "hasMore").as_bool(), Some(true));
    // Nullable fields are present, as null or a value, never undefined.
    let v = at(&get(&p, "variants"), 0);
    assert!(has(&v, "compareAtPrice") && has(&v, "image"));

    let min = ok(c.products(parse(r#"{"limit":3,"offset":2,"minimal":true}"#), None)).await;
    assert!(!has(&min, "pagination"), "no pagination unless asked");
    let m = at(&get(&min, "products"), 0);
    assert!(!has(&m, "variants") && has(&m, "price"), "{}", json(&m));
    // offset 2 of the same order: the third product of the first page.
    let first = ok(c.products(parse(r#"{"limit":3}"#), None)).await;
    assert_eq!(s(&get(&m, "id")), s(&get(&at(&get(&first, "products"), 2), "id")));
}

#[wasm_bindgen_test]
async fn by_slug_pages_collections_store() {
    let c = client();
    let page = ok(c.products(parse(r#"{"limit":1}"#), None)).await;
    let slug = s(&get(&at(&get(&page, "products"), 0), "slug"));
    let product = ok(c.product_by_slug(JsValue::from_str(&slug), None)).await;
    assert_eq!(s(&get(&product, "slug")), slug);

    let pages = ok(c.pages(None)).await;
    assert!(len(&pages) > 0);
    assert!(has(&at(&pages, 0), "content"));

    let cols = ok(c.collections(None)).await;
    assert!(len(&cols) > 0);
    let col = at(&cols, 0);
    let by_slug = ok(c.collection_by_slug(get(&col, "slug"), None)).await;
    assert_eq!(s(&get(&by_slug, "id")), s(&get(&col, "id")));
    let by_id = ok(c.collection(get(&col, "id"), None)).await;
    assert_eq!(s(&get(&by_id, "slug")), s(&get(&col, "slug")));
    assert!(len(&get(&by_id, "breadcrumb")) >= 1);

    let store = ok(c.store(None)).await;
    assert_eq!(s(&get(&store, "defaultCurrency")).len(), 3);
}

#[wasm_bindgen_test]
async fn shipping_rates_and_initiate_payment() {
    let c = client();
    let page = ok(c.products(parse(r#"{"limit":1}"#), None)).await;
    let variant = s(&get(&at(&get(&at(&get(&page, "products"), 0), "variants"), 0), "id"));
    let rates = ok(c.shipping_rates(parse(&format!(r#"{{"variantIds":["{variant}"],"country":"US"}}"#)), None)).await;
    assert_eq!(s(&get(&at(&rates, 0), "variantId")), variant);

    let store = ok(c.store(None)).await;
    let cur = s(&get(&store, "defaultCurrency"));
    let body = format!(r#"{{"items":[{{"variantId":"{variant}","quantity":1}}],"currency":"{cur}"}}"#);
    let session = ok(c.initiate_payment(parse(&body), None)).await;
    assert_eq!(s(&get(&session, "processor")), "stripe");
    let b = get(&session, "breakdown");
    assert_eq!(get(&b, "total").as_f64(), get(&session, "amount").as_f64());

    // update with an unknown rate: the server's 4xx comes through typed.
    let up = format!(
        r#"{{"sessionId":"{}","shippingRateId":"no-such-rate","shippingAddress":{{"email":"a@b.example","firstName":"A","lastName":"B","address1":"1 Road","city":"Town","postalCode":"12345","country":"US"}}}}"#,
        s(&get(&session, "sessionId"))
    );
    let e = JsFuture::from(c.update_payment(parse(&up), None)).await.unwrap_err();
    let code = s(&get(&e, "code"));
    assert!(code == "not_found" || code == "invalid_request", "{code}");
}

// ------------------------------------------------------------------ errors

#[wasm_bindgen_test]
async fn unauthorized_401() {
    let wrong = format!("ak_{}", "0".repeat(48));
    let c = CirrusClient::new(opts(base(), &wrong, JsValue::UNDEFINED)).unwrap();
    let e = fails(c.store(None), "unauthorized").await;
    assert_eq!(get(&e, "status").as_f64(), Some(401.0));
    assert!(get(&e, "requestId").as_string().is_some_and(|r| !r.is_empty()), "request id kept");
    assert!(!s(&get(&e, "message")).contains(&wrong), "the key never shows");
}

#[wasm_bindgen_test]
async fn not_found_404_and_slugs_stay_one_segment() {
    let c = client();
    let e = fails(c.product_by_slug(JsValue::from_str("no-such-product"), None), "not_found").await;
    assert_eq!(get(&e, "status").as_f64(), Some(404.0));
    // Without encoding, "../../store" would reach GET /store (200).
    fails(c.product_by_slug(JsValue::from_str("../../store"), None), "not_found").await;
    fails(c.collection(JsValue::from_str("a/b?c#d"), None), "not_found").await;
}

#[wasm_bindgen_test]
async fn invalid_request_400_from_the_server() {
    let c = client();
    let page = ok(c.products(parse(r#"{"limit":1}"#), None)).await;
    let variant = s(&get(&at(&get(&at(&get(&page, "products"), 0), "variants"), 0), "id"));
    // Well-formed for the client, wrong for this store (its currency is not XXX).
    let body = format!(r#"{{"items":[{{"variantId":"{variant}","quantity":1}}],"currency":"XXX"}}"#);
    let e = fails(c.initiate_payment(parse(&body), None), "invalid_request").await;
    assert_eq!(get(&e, "status").as_f64(), Some(400.0));
    assert!(s(&get(&e, "message")).contains("currency"));
}

#[wasm_bindgen_test]
async fn bad_arguments_fail_before_any_request() {
    let f = counting_fetch();
    let extra = Object::new();
    js_sys::Reflect::set(&extra, &"fetch".into(), &f).unwrap();
    let c = CirrusClient::new(opts(base(), key(), extra.into())).unwrap();
    for (args, needle) in [
        (r#"{"limit":0}"#, "limit"),
        (r#"{"limit":501}"#, "limit"),
        (r#"{"limit":2.5}"#, "limit"),
        (r#"{"offset":-1}"#, "offset"),
        (r#"{"limt":5}"#, "limt"),
        (r#"{"minimal":"yes"}"#, "minimal"),
    ] {
        let e = fails(c.products(parse(args), None), "invalid_argument").await;
        assert!(s(&get(&e, "message")).contains(needle), "{args}: {}", s(&get(&e, "message")));
    }
    fails(c.product_by_slug(JsValue::from_str(""), None), "invalid_argument").await;
    fails(c.product_by_slug(JsValue::from(5), None), "invalid_argument").await;
    fails(c.collection(JsValue::from_str(".."), None), "invalid_argument").await;
    fails(c.shipping_rates(parse(r#"{"variantIds":[],"country":"US"}"#), None), "invalid_argument").await;
    fails(c.shipping_rates(parse(r#"{"variantIds":["v"],"country":"usa"}"#), None), "invalid_argument").await;
    fails(c.initiate_payment(parse(r#"{"items":[],"currency":"USD"}"#), None), "invalid_argument").await;
    fails(c.store(Some(Object::new())), "invalid_argument").await;
    assert_eq!(calls(&f), 0, "no request was sent");

    for (extra, needle) in [
        (r#"{"baseUrl":"http://shop.example/api/v1"}"#, "https"),
        (r#"{"baseUrl":"https://shop.example/v1"}"#, "/api/v1"),
        (r#"{"apiKey":"ak_123"}"#, "apiKey"),
        (r#"{"timeoutMs":-5}"#, "timeoutMs"),
        (r#"{"retrys":1}"#, "retrys"),
    ] {
        let e = match CirrusClient::new(opts(base(), key(), parse(extra))) {
            Ok(_) => panic!("{extra} accepted"),
            Err(e) => e,
        };
        assert_eq!(s(&get(&e, "code")), "invalid_argument");
        assert!(s(&get(&e, "message")).contains(needle), "{extra}: {}", s(&get(&e, "message")));
    }
}

#[wasm_bindgen_test]
async fn rate_limited_429_then_success_honours_retry_after() {
    let c = client();
    arm(base(), fault("GET", "/store", "status", r#""status":429,"retryAfter":1"#)).await.unwrap();
    let t0 = now();
    ok(c.store(None)).await;
    let waited = now() - t0;
    assert!(waited >= 950.0, "waited {waited} ms, Retry-After says 1 s");

    // With retries disabled the 429 surfaces, with its Retry-After.
    let c0 = client_with(r#"{"retries":0}"#);
    arm(base(), fault("GET", "/store", "status", r#""status":429,"retryAfter":7"#)).await.unwrap();
    let e = fails(c0.store(None), "rate_limited").await;
    assert_eq!(get(&e, "retryAfter").as_f64(), Some(7.0));
    assert_eq!(get(&e, "status").as_f64(), Some(429.0));
}

#[wasm_bindgen_test]
async fn internal_500_then_success_but_payments_are_never_retried() {
    let f = counting_fetch();
    let extra = Object::new();
    js_sys::Reflect::set(&extra, &"fetch".into(), &f).unwrap();
    let c = CirrusClient::new(opts(base(), key(), extra.into())).unwrap();
    arm(base(), fault("GET", "/pages", "status", r#""status":500"#)).await.unwrap();
    ok(c.pages(None)).await;
    assert_eq!(calls(&f), 2, "one failure, one retry");

    arm(base(), fault("POST", "/payments/initiate", "status", r#""status":500"#)).await.unwrap();
    let before = calls(&f);
    let body = r#"{"items":[{"variantId":"any","quantity":1}],"currency":"USD"}"#;
    let e = fails(c.initiate_payment(parse(body), None), "internal").await;
    assert_eq!(get(&e, "status").as_f64(), Some(500.0));
    assert_eq!(calls(&f) - before, 1, "a payment is sent exactly once");
    disarm(base()).await;
}

#[wasm_bindgen_test]
async fn truncated_body_is_decode() {
    let c = client();
    arm(base(), fault("GET", "/collections", "truncated", "")).await.unwrap();
    let e = fails(c.collections(None), "decode").await;
    assert!(s(&get(&e, "message")).contains("JSON"), "{}", s(&get(&e, "message")));
    assert_eq!(get(&e, "status").as_f64(), Some(200.0));
}

#[wasm_bindgen_test]
async fn slow_response_is_timeout() {
    let c = client_with(r#"{"timeoutMs":300,"retries":0}"#);
    arm(base(), fault("GET", "/store", "slow", r#""delayMs":1500"#)).await.unwrap();
    let t0 = now();
    fails(c.store(None), "timeout").await;
    assert!(now() - t0 < 1200.0, "gave up at the timeout, not after the response");
    disarm(base()).await;
}

#[wasm_bindgen_test]
async fn abort_signal_is_aborted() {
    let c = client();
    arm(base(), fault("GET", "/pages", "slow", r#""delayMs":1500"#)).await.unwrap();
    let t0 = now();
    fails(c.pages(Some(abort_after(100))), "aborted").await;
    assert!(now() - t0 < 1000.0);
    fails(c.store(Some(aborted_signal())), "aborted").await;
    disarm(base()).await;
}

#[wasm_bindgen_test]
async fn network_failure_is_network() {
    let c = CirrusClient::new(opts("http://127.0.0.1:9/api/v1", key(), parse(r#"{"retries":0}"#))).unwrap();
    fails(c.store(None), "network").await;
}

// ------------------------------------------------------------------ sharing and cache

#[wasm_bindgen_test]
async fn identical_gets_in_flight_share_one_request_and_ttl_cache() {
    let f = counting_fetch();
    let extra = parse(r#"{"cacheTtlMs":60000}"#);
    js_sys::Reflect::set(&extra, &"fetch".into(), &f).unwrap();
    let c = CirrusClient::new(opts(base(), key(), extra)).unwrap();
    let (a, b) = (c.store(None), c.store(None));
    let (a, b) = (ok(a).await, ok(b).await);
    assert_eq!(calls(&f), 1, "two callers, one request");
    assert!(js_sys::Object::is(&a, &b));
    ok(c.store(None)).await;
    assert_eq!(calls(&f), 1, "answered from the cache");
    c.clear_cache();
    ok(c.store(None)).await;
    assert_eq!(calls(&f), 2, "clearCache() forgets");

    // One caller aborting does not abort the other's shared request.
    let g = counting_fetch();
    let extra = Object::new();
    js_sys::Reflect::set(&extra, &"fetch".into(), &g).unwrap();
    let c = CirrusClient::new(opts(base(), key(), extra.into())).unwrap();
    arm(base(), fault("GET", "/pages", "slow", r#""delayMs":400"#)).await.unwrap();
    let quitter = c.pages(Some(abort_after(50)));
    let stayer = c.pages(None);
    fails(quitter, "aborted").await;
    assert!(len(&ok(stayer).await) > 0);
    assert_eq!(calls(&g), 1);
}

#[wasm_bindgen(inline_js = r#"
export function cyclic() { const o = {}; o.self = o; return o; }
export function withExtras() { return { baseUrl: "x", apiKey: "y", timeoutMs: undefined, fetch: () => 1 }; }
"#)]
extern "C" {
    fn cyclic() -> JsValue;
    #[wasm_bindgen(js_name = withExtras)]
    fn with_extras() -> JsValue;
}

/// `parse_arg` reads JS values directly (src/wasm/de.rs): the same rules as
/// the `JSON.stringify` + serde_json path it replaced, paths in messages.
#[wasm_bindgen_test]
fn js_arguments_decode_with_paths() {
    use super::client::parse_arg;
    use crate::model::InitiateRequest;
    use crate::options::ClientOptions;
    use crate::request::ProductsQuery;

    let body = parse(r#"{"items":[{"variantId":"v","quantity":1},{"variantId":"w","quantity":1.5}],"currency":"USD"}"#);
    let e = parse_arg::<InitiateRequest>("body", &body).unwrap_err();
    assert!(e.message.starts_with("body.items[1].quantity: invalid type"), "{}", e.message);
    let e = parse_arg::<InitiateRequest>("body", &parse(r#"{"items":[]}"#)).unwrap_err();
    assert!(e.message.contains("missing field `currency`"), "{}", e.message);
    let e = parse_arg::<ProductsQuery>("options", &parse(r#"{"limt":2}"#)).unwrap_err();
    assert!(e.message.contains("unknown field `limt`"), "{}", e.message);
    let e = parse_arg::<ProductsQuery>("options", &parse(r#"{"minimal":"yes"}"#)).unwrap_err();
    assert!(e.message.contains("options.minimal: invalid type: string \"yes\""), "{}", e.message);

    assert_eq!(parse_arg::<u32>("q", &JsValue::from(3)).unwrap(), 3);
    assert_eq!(parse_arg::<i64>("q", &JsValue::from(-9_007_199_254_740_991_i64 as f64)).unwrap(), -9_007_199_254_740_991);
    for bad in [1.5, 1e21, 9_007_199_254_740_992.0, f64::NAN, f64::INFINITY, -1.0] {
        assert!(parse_arg::<u32>("q", &JsValue::from(bad)).is_err(), "{bad} accepted as u32");
    }
    assert!(parse_arg::<u32>("q", &JsValue::from_str("3")).is_err());

    // `undefined` and function members are absent, as with JSON.stringify.
    let o: ClientOptions = parse_arg("options", &with_extras()).unwrap();
    assert_eq!(o.timeout_ms, None);
    // `undefined` / `null` read as `{}`.
    assert_eq!(parse_arg::<ProductsQuery>("options", &JsValue::UNDEFINED).unwrap(), ProductsQuery::default());

    // A cycle is refused, not a stack overflow.
    let e = parse_arg::<serde_json::Value>("x", &cyclic()).unwrap_err();
    assert!(e.message.contains("nested too deeply"), "{}", e.message);
}
