//! wasm-bindgen tests in headless Chromium (scripts/test.d/30-wasm.sh) of the
//! Rust `CirrusClient` itself, through its Rust API, with a scripted `fetch`
//! (no server): options, the request it builds, retries (GETs yes, payments
//! never), timeouts, abort, shared GETs, non-2xx bodies, decode errors and a
//! `fetch` that does not give a `Response`. The same client against a real
//! dev server (every fetcher × every error code, in node and Chromium, on the
//! built package) is tests/sdk/matrix.mjs, run by scripts/test.d/40-pkg.sh.
//! `float`: argument errors that name a number (the vendored serde-wasm-bindgen's patch);
//! `members`: the arguments read member by member are the structs the decoder makes;
//! `structs`: what an absent member of a struct gives (the vendored serde-wasm-bindgen's patch).

mod float;
mod members;
mod structs;

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::client::CirrusClient;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function get(o, k) { return o == null ? undefined : o[k]; }
export function isError(e) { return e instanceof Error; }
// A fetch that plays `script` (one step per call, the last one repeats): [status, body,
// headers], "hang" (never answers; rejects when the request is aborted), "throw", or "junk".
export function scripted(script) {
  const f = async (req) => {
    f.calls.push(req);
    const step = script[Math.min(f.calls.length - 1, script.length - 1)];
    if (step === "hang") return new Promise((_, reject) => req.signal.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))));
    if (step === "throw") throw new TypeError("Failed to fetch");
    if (step === "junk") return "not a response";
    return new Response(step[1], { status: step[0], headers: step[2] || {} });
  };
  f.calls = [];
  return f;
}
export function options(fetch, extra) {
  return Object.assign({ baseUrl: "https://shop.example/api/v1", apiKey: "ak_0123456789abcdef0123456789ABCDEF0123456789abcdef", fetch }, JSON.parse(extra));
}
export function calls(f) { return f.calls.length; }
export function call(f, i) { return f.calls[i]; }
export function aborted() { const c = new AbortController(); c.abort(); return c.signal; }
"#)]
extern "C" {
    fn get(o: &JsValue, k: &str) -> JsValue;
    #[wasm_bindgen(js_name = isError)]
    fn is_error(e: &JsValue) -> bool;
    fn scripted(script: JsValue) -> JsValue;
    fn options(fetch: &JsValue, extra: &str) -> JsValue;
    fn calls(f: &JsValue) -> u32;
    fn call(f: &JsValue, i: u32) -> web_sys::Request;
    fn aborted() -> JsValue;
}

fn s(v: &JsValue) -> String {
    v.as_string().unwrap_or_default()
}

fn script(json: &str) -> JsValue {
    scripted(js_sys::JSON::parse(json).unwrap())
}

fn client(fetch: &JsValue, extra: &str) -> CirrusClient {
    CirrusClient::new(options(fetch, extra)).unwrap()
}

/// A CirrusError-shaped `Error` with `code` whose message contains `needle`.
#[track_caller]
fn thrown<T>(r: Result<T, JsValue>, code: &str, needle: &str) -> JsValue {
    let Err(e) = r else { panic!("expected a {code} error naming {needle:?}") };
    assert!(is_error(&e), "errors are Error objects");
    assert_eq!(s(&get(&e, "name")), "CirrusError");
    let msg = s(&get(&e, "message"));
    assert_eq!(s(&get(&e, "code")), code, "message: {msg}");
    assert!(msg.contains(needle), "{msg:?} does not name {needle:?}");
    e
}

const STORE: &str = r#"[[200, "{\"store\":{\"id\":\"st_1\",\"name\":\"Shop\",\"defaultCurrency\":\"USD\",\"contactEmail\":\"a@b.example\",\"frontendDomain\":\"x\",\"logoUrl\":\"x\",\"logoHeightDesktop\":1,\"logoHeightMobile\":1,\"headerPaddingDesktop\":1,\"headerPaddingMobile\":1,\"faviconUrl\":\"x\",\"emailLogoUrl\":\"x\",\"processingTimeMin\":1,\"processingTimeMax\":2,\"shippingTimeMin\":1,\"shippingTimeMax\":2,\"returnPeriodDays\":30,\"refundTimeMin\":1,\"refundTimeMax\":2,\"businessHoursWeekdayOpen\":\"9\",\"businessHoursWeekdayClose\":\"5\",\"businessHoursWeekendOpen\":\"9\",\"businessHoursWeekendClose\":\"5\",\"routeProducts\":\"p\",\"routeCollections\":\"c\",\"routePages\":\"g\",\"homeMetaTitle\":\"t\",\"homeMetaDescription\":\"d\"}}", {"x-request-id": "req_ok"}]]"#;

#[wasm_bindgen_test]
fn options_are_checked_before_anything() {
    let f = script(STORE);
    for (extra, needle) in [
        (r#"{"baseUrl": "http://shop.example/api/v1"}"#, "https"),
        (r#"{"baseUrl": "https://shop.example/v1"}"#, "/api/v1"),
        (r#"{"baseUrl": 5}"#, "baseUrl"),
        (r#"{"apiKey": "ak_123"}"#, "apiKey"),
        (r#"{"timeoutMs": 0}"#, "timeoutMs"),
        (r#"{"timeoutMs": -5}"#, "timeoutMs"),
        (r#"{"retries": 11}"#, "retries"),
        (r#"{"retrys": 1}"#, "retrys"),
        (r#"{"fetch": "nope"}"#, "fetch"),
    ] {
        let e = thrown(CirrusClient::new(options(&f, extra)), "invalid_argument", needle);
        assert!(get(&e, "status").is_null() && get(&e, "requestId").is_null());
    }
    thrown(CirrusClient::new(JsValue::UNDEFINED), "invalid_argument", "baseUrl");
    assert_eq!(calls(&f), 0);
}

#[wasm_bindgen_test]
async fn a_get_is_built_sent_and_decoded() {
    let f = script(STORE);
    let c = client(&f, "{}");
    let store = c.store(None).await.unwrap();
    assert_eq!(s(&get(&store, "defaultCurrency")), "USD");
    assert_eq!(calls(&f), 1);
    let req = call(&f, 0);
    assert_eq!(req.url(), "https://shop.example/api/v1/store");
    assert_eq!(req.method(), "GET");
    assert_eq!(req.headers().get("Authorization").unwrap().unwrap(), "Bearer ak_0123456789abcdef0123456789ABCDEF0123456789abcdef");
}

#[wasm_bindgen_test]
async fn gets_are_retried_payments_never() {
    let f = script(r#"[[500, "{\"error\":\"boom\",\"code\":\"internal\"}"], [200, "{\"pages\":[]}"]]"#);
    let c = client(&f, "{}");
    let pages = c.pages(None).await.unwrap();
    assert_eq!(js_sys::Array::from(&pages).length(), 0);
    assert_eq!(calls(&f), 2, "one failure, one retry");

    let f = script(r#"[[503, "{\"error\":\"busy\",\"code\":\"internal\"}", {"retry-after": "0"}]]"#);
    let c = client(&f, "{}");
    let body = js_sys::JSON::parse(r#"{"items": [{"variantId": "v", "quantity": 1}], "currency": "USD"}"#).unwrap();
    let e = thrown(c.initiate_payment(body, None).await, "internal", "busy");
    assert_eq!(get(&e, "status").as_f64(), Some(503.0));
    assert_eq!(calls(&f), 1, "a payment is sent exactly once");
}

#[wasm_bindgen_test]
async fn server_errors_keep_code_status_request_id_retry_after() {
    let f = script(r#"[[429, "{\"error\":\"slow down\",\"code\":\"rate_limited\"}", {"retry-after": "7", "x-request-id": "req_9"}]]"#);
    let c = client(&f, r#"{"retries": 0}"#);
    let e = thrown(c.store(None).await, "rate_limited", "slow down");
    assert_eq!(get(&e, "retryAfter").as_f64(), Some(7.0));
    assert_eq!(s(&get(&e, "requestId")), "req_9");
    let f = script(r#"[[502, "<html>bad gateway</html>"]]"#);
    let e = thrown(client(&f, r#"{"retries": 0}"#).store(None).await, "http", "502");
    assert_eq!(get(&e, "status").as_f64(), Some(502.0));
}

#[wasm_bindgen_test]
async fn bad_bodies_are_decode_errors_naming_the_path() {
    let f = script(r#"[[200, "{\"store\":{\"id\":5}}", {"x-request-id": "req_bad"}]]"#);
    let e = thrown(client(&f, "{}").store(None).await, "decode", "store.id");
    assert!(s(&get(&e, "message")).contains("GET /store"));
    assert_eq!(s(&get(&e, "requestId")), "req_bad");
    let f = script(r#"[[200, "{\"pages\":[{\"id\":"]]"#);
    thrown(client(&f, "{}").pages(None).await, "decode", "JSON");
}

#[wasm_bindgen_test]
async fn timeouts_aborts_and_broken_fetches() {
    let f = script(r#"["hang"]"#);
    thrown(client(&f, r#"{"timeoutMs": 50, "retries": 0}"#).store(None).await, "timeout", "50 ms");
    assert_eq!(calls(&f), 1);
    let f = script(r#"["hang"]"#);
    thrown(client(&f, r#"{"timeoutMs": 50, "retries": 1}"#).store(None).await, "timeout", "ms");
    assert_eq!(calls(&f), 2, "a timeout is retried");
    let f = script(STORE);
    thrown(client(&f, "{}").store(Some(aborted())).await, "aborted", "");
    assert_eq!(calls(&f), 0, "an aborted signal sends nothing");
    thrown(client(&f, "{}").store(Some(JsValue::from_str("signal"))).await, "invalid_argument", "signal");
    let f = script(r#"["junk"]"#);
    thrown(client(&f, r#"{"retries": 0}"#).store(None).await, "network", "not a Response");
    let f = script(r#"["throw"]"#);
    thrown(client(&f, r#"{"retries": 1}"#).store(None).await, "network", "Failed to fetch");
    assert_eq!(calls(&f), 2, "a network failure is retried");
}

#[wasm_bindgen_test]
async fn identical_gets_share_one_request_and_bad_arguments_send_none() {
    let f = script(STORE);
    let c = std::rc::Rc::new(client(&f, "{}"));
    let (c1, c2) = (c.clone(), c.clone());
    let (a, b) = futures_join(async move { c1.store(None).await }, async move { c2.store(None).await }).await;
    assert!(js_sys::Object::is(&a.unwrap(), &b.unwrap()), "the same object");
    assert_eq!(calls(&f), 1);
    let o = js_sys::JSON::parse(r#"{"limit": 0}"#).unwrap();
    thrown(c.products(o, None).await, "invalid_argument", "limit");
    let o = js_sys::JSON::parse(r#"{"limt": 5}"#).unwrap();
    thrown(c.products(o, None).await, "invalid_argument", "limt");
    thrown(c.product_by_slug(JsValue::from(5), None).await, "invalid_argument", "slug");
    assert_eq!(calls(&f), 1, "no request for a bad argument");
}

/// Both futures polled together (no executor crate: a JS `Promise.all`).
async fn futures_join(
    a: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
    b: impl std::future::Future<Output = Result<JsValue, JsValue>> + 'static,
) -> (Result<JsValue, JsValue>, Result<JsValue, JsValue>) {
    let pa = wasm_bindgen_futures::future_to_promise(a);
    let pb = wasm_bindgen_futures::future_to_promise(b);
    let ra = wasm_bindgen_futures::JsFuture::from(pa).await;
    let rb = wasm_bindgen_futures::JsFuture::from(pb).await;
    (ra, rb)
}
