//! wasm-bindgen tests in headless Chromium (scripts/test.d/30-wasm.sh) of the
//! SDK client's Rust exports (src/wasm/client.rs): options, paths, body rules,
//! retry decisions, error decoding, and the errors they throw as JS values.
//! The client's I/O (every fetcher, every error code against a dev server,
//! retries, sharing, cache, abort, timeout) is tested on the built package, in
//! node and Chromium: tests/sdk/matrix.mjs, run by scripts/test.d/40-pkg.sh.
#![allow(clippy::unwrap_used)]

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use super::client::*;

wasm_bindgen_test_configure!(run_in_browser);

#[wasm_bindgen(inline_js = r#"
export function get(o, k) { return o == null ? undefined : o[k]; }
export function isError(e) { return e instanceof Error; }
"#)]
extern "C" {
    fn get(o: &JsValue, k: &str) -> JsValue;
    #[wasm_bindgen(js_name = isError)]
    fn is_error(e: &JsValue) -> bool;
}

const KEY: &str = "ak_0123456789abcdef0123456789ABCDEF0123456789abcdef";

fn s(v: &JsValue) -> String {
    v.as_string().unwrap_or_default()
}

/// Checks a thrown value is a CirrusError-shaped `Error` with `code` whose
/// message contains `needle`; returns it.
fn thrown<T: std::fmt::Debug>(r: Result<T, JsValue>, code: &str, needle: &str) -> JsValue {
    let e = r.expect_err("expected a CirrusError");
    assert!(is_error(&e), "errors are Error objects");
    assert_eq!(s(&get(&e, "name")), "CirrusError");
    let msg = s(&get(&e, "message"));
    assert_eq!(s(&get(&e, "code")), code, "message: {msg}");
    assert!(msg.contains(needle), "{msg:?} does not name {needle:?}");
    e
}

#[wasm_bindgen_test]
fn options_endpoint_and_numbers() {
    assert_eq!(check_endpoint("https://shop.example/api/v1/", KEY).unwrap(), "https://shop.example/api/v1");
    assert_eq!(check_endpoint("http://127.0.0.1:8787/api/v1", KEY).unwrap(), "http://127.0.0.1:8787/api/v1");
    thrown(check_endpoint("http://shop.example/api/v1", KEY), "invalid_argument", "https");
    thrown(check_endpoint("https://shop.example/v1", KEY), "invalid_argument", "/api/v1");
    let e = thrown(check_endpoint("https://shop.example/api/v1", "ak_123"), "invalid_argument", "apiKey");
    assert!(get(&e, "status").is_null() && get(&e, "requestId").is_null() && get(&e, "retryAfter").is_null());
    let secret = format!("{}g", &KEY[..50]);
    let e = thrown(check_endpoint("https://shop.example/api/v1", &secret), "invalid_argument", "apiKey");
    assert!(!s(&get(&e, "message")).contains(&secret[7..]), "the key never shows");

    assert_eq!(check_numbers(None, None, None).unwrap(), vec![10_000, 2, 0]);
    assert_eq!(check_numbers(Some(300), Some(0), Some(60_000)).unwrap(), vec![300, 0, 60_000]);
    thrown(check_numbers(Some(0), None, None), "invalid_argument", "timeoutMs");
    thrown(check_numbers(None, Some(11), None), "invalid_argument", "retries");
}

#[wasm_bindgen_test]
fn paths_and_queries() {
    assert_eq!(products_path(None, None, false, false).unwrap(), "/products");
    assert_eq!(
        products_path(Some(5.0), Some(20.0), true, true).unwrap(),
        "/products?limit=5&offset=20&includePagination=true&minimal=true"
    );
    assert_eq!(products_path(Some(500.0), Some(0.0), false, false).unwrap(), "/products?limit=500&offset=0");
    for bad in [0.0, 501.0, 2.5, -1.0, f64::NAN, f64::INFINITY, 1e21] {
        thrown(products_path(Some(bad), None, false, false), "invalid_argument", "limit");
    }
    for bad in [-1.0, 0.5, 9_007_199_254_740_992.0, f64::NAN] {
        thrown(products_path(None, Some(bad), false, false), "invalid_argument", "offset");
    }
    assert_eq!(catalog_path("productBySlug", "a/b?c#d").unwrap(), "/products/slug/a%2Fb%3Fc%23d");
    assert_eq!(catalog_path("productBySlug", "../../store").unwrap(), "/products/slug/..%2F..%2Fstore");
    assert_eq!(catalog_path("collectionBySlug", "été").unwrap(), "/collections/slug/%C3%A9t%C3%A9");
    assert_eq!(catalog_path("collection", "x y%").unwrap(), "/collections/x%20y%25");
    assert_eq!(catalog_path("pages", "").unwrap(), "/pages");
    assert_eq!(catalog_path("collections", "").unwrap(), "/collections");
    assert_eq!(catalog_path("store", "").unwrap(), "/store");
    thrown(catalog_path("productBySlug", ""), "invalid_argument", "slug");
    thrown(catalog_path("collection", ".."), "invalid_argument", "id");
    thrown(catalog_path("nope", "x"), "invalid_argument", "unknown");
}

#[wasm_bindgen_test]
fn body_rules() {
    let v = |ids: &[&str]| ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
    check_shipping_rates(v(&["v1"]), "US", None).unwrap();
    check_shipping_rates(v(&["v1"]), "US", Some(12.5)).unwrap();
    thrown(check_shipping_rates(v(&[]), "US", None), "invalid_argument", "variantIds");
    thrown(check_shipping_rates(vec!["v".to_owned(); 251], "US", None), "invalid_argument", "variantIds");
    thrown(check_shipping_rates(v(&["v1", ""]), "US", None), "invalid_argument", "variantIds[1]");
    thrown(check_shipping_rates(v(&["v1"]), "usa", None), "invalid_argument", "country");
    for bad in [-1.0, f64::NAN, f64::INFINITY] {
        thrown(check_shipping_rates(v(&["v1"]), "US", Some(bad)), "invalid_argument", "orderTotal");
    }

    check_initiate(v(&["a", "b"]), vec![1, 3], "USD").unwrap();
    thrown(check_initiate(v(&[]), vec![], "USD"), "invalid_argument", "items");
    thrown(check_initiate(v(&["a"]), vec![0], "USD"), "invalid_argument", "items[0].quantity");
    thrown(check_initiate(v(&["a", "a"]), vec![1, 1], "USD"), "invalid_argument", "items[1].variantId");
    thrown(check_initiate(v(&["a", " "]), vec![1, 1], "USD"), "invalid_argument", "items[1].variantId");
    thrown(check_initiate(v(&["a"]), vec![1], "usd"), "invalid_argument", "currency");
    thrown(check_initiate(v(&["a"]), vec![], "USD"), "invalid_argument", "items");

    check_update("s", "r").unwrap();
    thrown(check_update(" ", "r"), "invalid_argument", "sessionId");
    thrown(check_update("s", ""), "invalid_argument", "shippingRateId");
    check_confirm("s", "tok_1", "r", "https://x.example/").unwrap();
    thrown(check_confirm("s", "", "r", "https://x/"), "invalid_argument", "confirmationTokenId");
    thrown(check_confirm("s", "t", "r", ""), "invalid_argument", "returnUrl");

    let addr = |email: &str, city: &str, country: &str, phone: Option<&str>| {
        check_address(
            email.into(),
            "A".into(),
            "B".into(),
            "1 Road".into(),
            None,
            city.into(),
            None,
            "12345".into(),
            country.into(),
            phone.map(Into::into),
        )
    };
    addr("a@b.example", "Town", "US", None).unwrap();
    addr("a@b.example", "Town", "US", Some("+1 555")).unwrap();
    thrown(addr("a@b.example", " ", "US", None), "invalid_argument", "shippingAddress.city");
    thrown(addr("not-an-email", "Town", "US", None), "invalid_argument", "shippingAddress.email");
    thrown(addr("a@b.example", "Town", "us", None), "invalid_argument", "shippingAddress.country");
    thrown(addr("a@b.example", "Town", "US", Some("1\n2")), "invalid_argument", "shippingAddress.phone");
}

#[wasm_bindgen_test]
fn retry_decisions() {
    // Backoff with jitter in the upper half of a doubling window.
    assert_eq!(retry_delay(1, 2, true, 500, None, 0.0), Some(125));
    assert_eq!(retry_delay(2, 2, true, 503, None, 0.0), Some(250));
    assert_eq!(retry_delay(1, 2, true, 0, None, 0.5), Some(187), "no response: network failure or timeout");
    assert_eq!(retry_delay(3, 2, true, 500, None, 0.0), None, "budget spent");
    assert_eq!(retry_delay(1, 0, true, 500, None, 0.0), None, "retries: 0");
    // Retry-After honoured (up to 60 s).
    assert_eq!(retry_delay(1, 2, true, 429, Some("1".into()), 0.9), Some(1000));
    assert_eq!(retry_delay(1, 2, true, 429, Some("61".into()), 0.9), None);
    // Payments are never retried; client errors are not transient.
    assert_eq!(retry_delay(1, 2, false, 500, None, 0.0), None);
    assert_eq!(retry_delay(1, 2, false, 0, None, 0.0), None);
    for status in [400, 401, 404, 409, 413, 415, 501] {
        assert_eq!(retry_delay(1, 2, true, status, None, 0.0), None, "{status}");
    }
}

#[wasm_bindgen_test]
fn non_2xx_responses_become_cirrus_errors() {
    let e = http_error(429, Some("rate_limited".into()), Some("slow down".into()), Some("req_1".into()), Some("7".into()));
    assert!(is_error(&e));
    assert_eq!(s(&get(&e, "name")), "CirrusError");
    assert_eq!(s(&get(&e, "code")), "rate_limited");
    assert_eq!(s(&get(&e, "message")), "slow down");
    assert_eq!(get(&e, "status").as_f64(), Some(429.0));
    assert_eq!(s(&get(&e, "requestId")), "req_1");
    assert_eq!(get(&e, "retryAfter").as_f64(), Some(7.0));

    let e = http_error(404, Some("not_found".into()), Some("no such slug".into()), None, None);
    assert_eq!(s(&get(&e, "code")), "not_found");
    assert!(get(&e, "requestId").is_null() && get(&e, "retryAfter").is_null());

    // Not a Cirrus error body (a proxy's page, an unknown or client-side code): `http`.
    for (code, msg) in [(None, None), (Some("teapot"), Some("x")), (Some("timeout"), Some("x")), (Some("internal"), None)] {
        let e = http_error(502, code.map(Into::into), msg.map(Into::into), Some("r".into()), Some("soon".into()));
        assert_eq!(s(&get(&e, "code")), "http", "{code:?}");
        assert_eq!(get(&e, "status").as_f64(), Some(502.0));
        assert!(s(&get(&e, "message")).contains("502"));
        assert!(get(&e, "retryAfter").is_null(), "an HTTP date is not seconds");
    }
}
