//! The SDK client's decisions, as pure synchronous exports over primitives.
//!
//! `CirrusClient` itself is TypeScript (`js/client.ts`): it does the fetch,
//! timers, abort, the retry loop, sharing and caching, and checks the *shape*
//! of arguments against the generated schemas. Everything that is a rule is
//! decided here, by the core: the options (`checkEndpoint`, `checkNumbers`),
//! each request's path and query (`productsPath`, `catalogPath`), the rules of
//! POST bodies (`checkShippingRates`, `checkInitiate`, `checkUpdate`,
//! `checkConfirm`, `checkAddress`), the retry policy (`retryDelay`) and the
//! error of a non-2xx response (`httpError`). Each throws a `CirrusError`
//! (`invalid_argument`, naming the argument) on a bad value.

#[allow(unused_imports)]
use crate::prelude::*;

use wasm_bindgen::prelude::*;

use crate::error::Result;
use crate::model::ShippingAddress;
use crate::{checkout, decode, options, request, retry};

use super::error::to_js;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../js/generated/types.ts");

/// Checks `baseUrl` (ends with `/api/v1`, https unless loopback) and then
/// `apiKey` (`ak_` + 48 hex); returns the base URL without a trailing slash.
///
/// # Errors
/// `invalid_argument` naming the option.
#[wasm_bindgen(js_name = checkEndpoint)]
pub fn check_endpoint(base_url: &str, api_key: &str) -> Result<String, JsValue> {
    Ok(options::check_endpoint(base_url, api_key)?)
}

/// `[timeoutMs, retries, cacheTtlMs]` with the defaults filled in.
///
/// # Errors
/// `invalid_argument` for `timeoutMs` 0 or `retries` over 10.
#[wasm_bindgen(js_name = checkNumbers)]
pub fn check_numbers(timeout_ms: Option<u32>, retries: Option<u32>, cache_ttl_ms: Option<u32>) -> Result<Vec<u32>, JsValue> {
    Ok(options::check_numbers(timeout_ms, retries, cache_ttl_ms)?.to_vec())
}

/// Path and query of `GET /products`.
///
/// # Errors
/// `invalid_argument` unless `limit` is an integer in 1..=500 and `offset` an
/// integer >= 0.
#[wasm_bindgen(js_name = productsPath)]
pub fn products_path(limit: Option<f64>, offset: Option<f64>, include_pagination: bool, minimal: bool) -> Result<String, JsValue> {
    let q = request::ProductsQuery::from_numbers(limit, offset, include_pagination, minimal)?;
    Ok(request::products(&q)?.path_and_query())
}

/// Path of a catalog GET by the JS method's name; `arg` (slug or id) becomes
/// exactly one percent-encoded path segment.
///
/// # Errors
/// `invalid_argument` for an empty slug/id or `.`/`..`.
#[wasm_bindgen(js_name = catalogPath)]
pub fn catalog_path(method: &str, arg: &str) -> Result<String, JsValue> {
    Ok(request::catalog_path(method, arg)?)
}

/// The rules of a `shippingRates` body (its shape was checked in JS).
///
/// # Errors
/// `invalid_argument` naming the field.
#[wasm_bindgen(js_name = checkShippingRates)]
pub fn check_shipping_rates(variant_ids: Vec<String>, country: &str, order_total: Option<f64>) -> Result<(), JsValue> {
    Ok(request::check_shipping_rates(&variant_ids, country, order_total)?)
}

/// The rules of an `initiatePayment` body, its items as two parallel lists.
///
/// # Errors
/// `invalid_argument` naming the field.
#[wasm_bindgen(js_name = checkInitiate)]
pub fn check_initiate(variant_ids: Vec<String>, quantities: Vec<u32>, currency: &str) -> Result<(), JsValue> {
    Ok(request::check_initiate(&variant_ids, &quantities, currency)?)
}

/// The rules of an `updatePayment` body besides its address.
///
/// # Errors
/// `invalid_argument` naming the field.
#[wasm_bindgen(js_name = checkUpdate)]
pub fn check_update(session_id: &str, shipping_rate_id: &str) -> Result<(), JsValue> {
    Ok(request::check_update(session_id, shipping_rate_id)?)
}

/// The rules of a `confirmPayment` body besides its address.
///
/// # Errors
/// `invalid_argument` naming the field.
#[wasm_bindgen(js_name = checkConfirm)]
pub fn check_confirm(session_id: &str, confirmation_token_id: &str, shipping_rate_id: &str, return_url: &str) -> Result<(), JsValue> {
    Ok(request::check_confirm(session_id, confirmation_token_id, shipping_rate_id, return_url)?)
}

/// A shipping address, by the one definition the checkout uses
/// ([`checkout::validate_address`]).
///
/// # Errors
/// `invalid_argument` naming `shippingAddress.<field>`.
#[allow(clippy::too_many_arguments)]
#[wasm_bindgen(js_name = checkAddress)]
pub fn check_address(
    email: String,
    first_name: String,
    last_name: String,
    address1: String,
    address2: Option<String>,
    city: String,
    state: Option<String>,
    postal_code: String,
    country: String,
    phone: Option<String>,
) -> Result<(), JsValue> {
    let a = ShippingAddress { email, first_name, last_name, address1, address2, city, state, postal_code, country, phone };
    Ok(checkout::validate_address(&a)?)
}

/// The retry policy ([`retry::decide`]): the wait in ms before attempt
/// `attempt + 1`, or `undefined` to give up. `status` 0: no response
/// (network failure or timeout). `random` is uniform in [0, 1).
#[wasm_bindgen(js_name = retryDelay)]
pub fn retry_delay(attempt: u32, retries: u32, retryable: bool, status: u16, retry_after: Option<String>, random: f64) -> Option<u32> {
    retry::decide(attempt, retries, retryable, status, retry_after.as_deref(), random)
}

/// The `CirrusError` for a non-2xx response (CONTRACT.md): the server's
/// `code` and message when the body held them as strings, else `http`; with
/// the status, `x-request-id` and `Retry-After` seconds.
#[wasm_bindgen(js_name = httpError, unchecked_return_type = "Error")]
pub fn http_error(status: u16, code: Option<String>, message: Option<String>, request_id: Option<String>, retry_after: Option<String>) -> JsValue {
    to_js(&decode::error_from_fields(status, code.as_deref(), message.as_deref(), request_id, retry_after.as_deref()))
}
