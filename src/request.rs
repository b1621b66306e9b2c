//! Requests as data: one builder per Cirrus V1 endpoint, no I/O.
//!
//! A [`Request`] is a method, a path below the base URL (already
//! percent-encoded), a query and an optional JSON body. Builders validate their
//! arguments first, so a bad argument is an `invalid_argument` error before
//! anything is sent. Slugs and ids become exactly one path segment: `a/b?c#d`
//! or `../store` cannot change which endpoint is called.

#[allow(unused_imports)]
use crate::prelude::*;
use crate::text::{cat, uint};

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::model::{ConfirmRequest, InitiateRequest, ShippingAddress, ShippingRatesRequest, UpdateRequest};

/// Largest page `GET /products` accepts (CONTRACT.md).
pub const MAX_LIMIT: u32 = 500;
/// Most variant ids one `POST /shipping-rates` accepts (CONTRACT.md).
pub const MAX_VARIANT_IDS: usize = 250;

/// HTTP method of a [`Request`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Method {
    Get,
    Post,
}

impl Method {
    /// `"GET"` or `"POST"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
        }
    }
}

/// One API call, as data.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    pub method: Method,
    /// Path below the base URL, starting with `/`, percent-encoded.
    pub path: String,
    /// Query pairs; names and values are already URL-safe.
    pub query: Vec<(&'static str, String)>,
    /// JSON body of a POST.
    pub body: Option<String>,
    /// Whether the retry policy may resend it (GETs and shipping rates; never payments).
    pub retryable: bool,
}

impl Request {
    fn get(path: String) -> Self {
        Self { method: Method::Get, path, query: Vec::new(), body: None, retryable: true }
    }

    fn post<T: Serialize>(path: &str, body: &T, retryable: bool) -> Result<Self> {
        let body = serde_json::to_string(body)
            .map_err(|e| Error::invalid_argument(format!("request body: {e}")))?;
        Ok(Self { method: Method::Post, path: path.to_owned(), query: Vec::new(), body: Some(body), retryable })
    }

    /// The path plus the query string, e.g. `/products?limit=10`.
    #[must_use]
    pub fn path_and_query(&self) -> String {
        let mut out = self.path.clone();
        for (i, (k, v)) in self.query.iter().enumerate() {
            out.push(if i == 0 { '?' } else { '&' });
            out.push_str(k);
            out.push('=');
            out.push_str(v);
        }
        out
    }

    /// The absolute URL below `base_url` (which ends with `/api/v1`, no trailing slash).
    #[must_use]
    pub fn url(&self, base_url: &str) -> String {
        let mut out = String::with_capacity(base_url.len() + self.path.len() + 32);
        out.push_str(base_url);
        out.push_str(&self.path_and_query());
        out
    }
}

/// Percent-encodes `value` as exactly one path segment (RFC 3986 unreserved
/// characters stay, every other byte becomes `%XX`).
///
/// # Errors
/// `invalid_argument` naming `what` if `value` is empty or is `.` / `..`
/// (a URL parser would resolve those, even percent-encoded).
pub fn path_segment(what: &str, value: &str) -> Result<String> {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    if value.is_empty() {
        return Err(Error::invalid_argument(cat(&[what, " must not be empty"])));
    }
    if value == "." || value == ".." {
        return Err(Error::invalid_argument(cat(&[what, " must not be \".\" or \"..\""])));
    }
    let mut out = String::with_capacity(value.len());
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~') {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    Ok(out)
}

/// Arguments of `GET /products` (the JS `products({...})` options).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProductsQuery {
    /// Page size 1..=500; server default 50.
    #[serde(default)]
    pub limit: Option<u32>,
    #[serde(default)]
    pub offset: Option<u64>,
    #[serde(default)]
    pub include_pagination: bool,
    #[serde(default)]
    pub minimal: bool,
}

impl ProductsQuery {
    /// The query from JS `number`s (what the wasm boundary passes): `limit`
    /// and `offset` must be integers (no fraction) in 0..=2^53 − 1.
    ///
    /// # Errors
    /// `invalid_argument` naming `limit` or `offset`.
    pub fn from_numbers(limit: Option<f64>, offset: Option<f64>, include_pagination: bool, minimal: bool) -> Result<Self> {
        let limit = match limit {
            None => None,
            Some(n) => Some(
                js_integer(n)
                    .and_then(|n| u32::try_from(n).ok())
                    .ok_or_else(|| Error::invalid_argument("limit must be an integer in 1..=500"))?,
            ),
        };
        let offset = match offset {
            None => None,
            Some(n) => Some(js_integer(n).ok_or_else(|| Error::invalid_argument("offset must be an integer >= 0"))?),
        };
        Ok(Self { limit, offset, include_pagination, minimal })
    }
}

/// A JS number as an integer: finite, no fraction, 0..=2^53 − 1 (the safe range).
#[must_use]
pub fn js_integer(n: f64) -> Option<u64> {
    const MAX_SAFE: f64 = 9_007_199_254_740_991.0;
    // The checks make the cast exact.
    // (`f64::fract` is std-only; within the range the cast round-trips
    // exactly only for integers.)
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, clippy::cast_precision_loss)]
    ((0.0..=MAX_SAFE).contains(&n) && n as u64 as f64 == n).then_some(n as u64)
}

/// `GET /products`.
///
/// # Errors
/// `invalid_argument` if `limit` is outside 1..=500.
pub fn products(q: &ProductsQuery) -> Result<Request> {
    let mut r = Request::get("/products".to_owned());
    if let Some(limit) = q.limit {
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(Error::invalid_argument(cat(&["limit must be an integer in 1..=500, got ", &uint(limit.into())])));
        }
        r.query.push(("limit", uint(limit.into())));
    }
    if let Some(offset) = q.offset {
        r.query.push(("offset", uint(offset)));
    }
    if q.include_pagination {
        r.query.push(("includePagination", "true".to_owned()));
    }
    if q.minimal {
        r.query.push(("minimal", "true".to_owned()));
    }
    Ok(r)
}

/// The path and query of a catalog GET, by the name of the JS method
/// (`productBySlug`, `collectionBySlug`, `collection`, `pages`, `collections`,
/// `store`); `arg` is the slug or id (ignored by the endpoints without one).
///
/// # Errors
/// `invalid_argument` for an empty slug or id, `.`/`..`, or an unknown method.
pub fn catalog_path(method: &str, arg: &str) -> Result<String> {
    let r = match method {
        "productBySlug" => product_by_slug(arg)?,
        "collectionBySlug" => collection_by_slug(arg)?,
        "collection" => collection(arg)?,
        "pages" => pages(),
        "collections" => collections(),
        "store" => store(),
        _ => return Err(Error::invalid_argument("unknown catalog endpoint")),
    };
    Ok(r.path_and_query())
}

/// `GET /products/slug/{slug}`.
///
/// # Errors
/// `invalid_argument` for an empty slug or `.`/`..`.
pub fn product_by_slug(slug: &str) -> Result<Request> {
    Ok(Request::get(cat(&["/products/slug/", &path_segment("slug", slug)?])))
}

/// `GET /pages`.
#[must_use]
pub fn pages() -> Request {
    Request::get("/pages".to_owned())
}

/// `GET /collections`.
#[must_use]
pub fn collections() -> Request {
    Request::get("/collections".to_owned())
}

/// `GET /collections/slug/{slug}`.
///
/// # Errors
/// `invalid_argument` for an empty slug or `.`/`..`.
pub fn collection_by_slug(slug: &str) -> Result<Request> {
    Ok(Request::get(cat(&["/collections/slug/", &path_segment("slug", slug)?])))
}

/// `GET /collections/{id}`.
///
/// # Errors
/// `invalid_argument` for an empty id or `.`/`..`.
pub fn collection(id: &str) -> Result<Request> {
    Ok(Request::get(cat(&["/collections/", &path_segment("id", id)?])))
}

/// `GET /store`.
#[must_use]
pub fn store() -> Request {
    Request::get("/store".to_owned())
}

fn check_country(field: &str, country: &str) -> Result<()> {
    if country.len() == 2 && country.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(Error::invalid_argument(cat(&[
            field,
            " must be an ISO 3166-1 alpha-2 code in uppercase (like \"US\"), got \"",
            country,
            "\"",
        ])))
    }
}

fn check_non_empty(field: &str, value: &str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(Error::invalid_argument(cat(&[field, " must not be empty"])));
    }
    Ok(())
}

/// `POST /shipping-rates` (retryable: it changes nothing on the server).
///
/// # Errors
/// `invalid_argument` if `variantIds` is empty, longer than 250 or holds an
/// empty id, `country` is not two uppercase letters, or `orderTotal` is
/// negative or not finite.
pub fn shipping_rates(body: &ShippingRatesRequest) -> Result<Request> {
    check_shipping_rates(&body.variant_ids, &body.country, body.order_total)?;
    Request::post("/shipping-rates", body, true)
}

/// The rules of a `POST /shipping-rates` body (see [`shipping_rates`]).
///
/// # Errors
/// `invalid_argument` naming the field.
pub fn check_shipping_rates(variant_ids: &[String], country: &str, order_total: Option<f64>) -> Result<()> {
    if variant_ids.is_empty() || variant_ids.len() > MAX_VARIANT_IDS {
        return Err(Error::invalid_argument(cat(&["variantIds must hold 1..=250 ids, got ", &uint(variant_ids.len() as u64)])));
    }
    for (i, id) in variant_ids.iter().enumerate() {
        check_non_empty(&cat(&["variantIds[", &uint(i as u64), "]"]), id)?;
    }
    check_country("country", country)?;
    if let Some(total) = order_total {
        if !total.is_finite() || total < 0.0 {
            return Err(Error::invalid_argument("orderTotal must be a finite number >= 0"));
        }
    }
    Ok(())
}

fn check_address(a: &ShippingAddress) -> Result<()> {
    // One definition of a valid address, shared with the checkout state machine.
    crate::checkout::validate_address(a)
}

/// `POST /payments/initiate` (never retried).
///
/// # Errors
/// `invalid_argument` if `items` is empty, a quantity is 0, a variant id is
/// empty or repeated, or `currency` is not three uppercase letters.
pub fn initiate_payment(body: &InitiateRequest) -> Result<Request> {
    let ids: Vec<String> = body.items.iter().map(|i| i.variant_id.clone()).collect();
    let quantities: Vec<u32> = body.items.iter().map(|i| i.quantity).collect();
    check_initiate(&ids, &quantities, &body.currency)?;
    Request::post("/payments/initiate", body, false)
}

/// The rules of a `POST /payments/initiate` body, its items given as two
/// parallel lists (see [`initiate_payment`]).
///
/// # Errors
/// `invalid_argument` naming the field (`items[1].quantity`, `currency`, …).
pub fn check_initiate(variant_ids: &[String], quantities: &[u32], currency: &str) -> Result<()> {
    if variant_ids.is_empty() {
        return Err(Error::invalid_argument("items must not be empty"));
    }
    if variant_ids.len() != quantities.len() {
        return Err(Error::invalid_argument("items: every item needs a variantId and a quantity"));
    }
    for (i, (id, &quantity)) in variant_ids.iter().zip(quantities).enumerate() {
        let item = cat(&["items[", &uint(i as u64), "]"]);
        check_non_empty(&cat(&[&item, ".variantId"]), id)?;
        if quantity == 0 {
            return Err(Error::invalid_argument(cat(&[&item, ".quantity must be at least 1"])));
        }
        if variant_ids[..i].contains(id) {
            return Err(Error::invalid_argument(cat(&[&item, ".variantId repeats \"", id, "\""])));
        }
    }
    if !(currency.len() == 3 && currency.bytes().all(|b| b.is_ascii_uppercase())) {
        return Err(Error::invalid_argument(cat(&["currency must be three uppercase letters (like \"USD\"), got \"", currency, "\""])));
    }
    Ok(())
}

/// `POST /payments/update` (never retried).
///
/// # Errors
/// `invalid_argument` for an empty session or rate id or an incomplete address.
pub fn update_payment(body: &UpdateRequest) -> Result<Request> {
    check_update(&body.session_id, &body.shipping_rate_id)?;
    check_address(&body.shipping_address)?;
    Request::post("/payments/update", body, false)
}

/// The rules of a `POST /payments/update` body besides its address
/// (checked after these, with [`crate::checkout::validate_address`]).
///
/// # Errors
/// `invalid_argument` for an empty session or rate id.
pub fn check_update(session_id: &str, shipping_rate_id: &str) -> Result<()> {
    check_non_empty("sessionId", session_id)?;
    check_non_empty("shippingRateId", shipping_rate_id)
}

/// `POST /payments/confirm` (never retried; the server makes it idempotent).
///
/// # Errors
/// `invalid_argument` for an empty session, token, rate id or return URL, or
/// an incomplete address.
pub fn confirm_payment(body: &ConfirmRequest) -> Result<Request> {
    check_confirm(&body.session_id, &body.confirmation_token_id, &body.shipping_rate_id, &body.return_url)?;
    check_address(&body.shipping_address)?;
    Request::post("/payments/confirm", body, false)
}

/// The rules of a `POST /payments/confirm` body besides its address
/// (checked after these, with [`crate::checkout::validate_address`]).
///
/// # Errors
/// `invalid_argument` for an empty session, token, rate id or return URL.
pub fn check_confirm(session_id: &str, confirmation_token_id: &str, shipping_rate_id: &str, return_url: &str) -> Result<()> {
    check_non_empty("sessionId", session_id)?;
    check_non_empty("confirmationTokenId", confirmation_token_id)?;
    check_non_empty("shippingRateId", shipping_rate_id)?;
    check_non_empty("returnUrl", return_url)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use crate::model::PaymentItem;

    #[test]
    fn slug_is_one_segment_whatever_it_holds() {
        let r = product_by_slug("a/b?c#d").unwrap();
        assert_eq!(r.path, "/products/slug/a%2Fb%3Fc%23d");
        assert_eq!(product_by_slug("../store").unwrap().path, "/products/slug/..%2Fstore");
        assert_eq!(collection("x y%").unwrap().path, "/collections/x%20y%25");
        assert_eq!(collection_by_slug("été").unwrap().path, "/collections/slug/%C3%A9t%C3%A9");
        assert_eq!(product_by_slug("plain-slug_1.x~").unwrap().path, "/products/slug/plain-slug_1.x~");
    }

    #[test]
    fn empty_and_dot_segments_are_rejected() {
        for bad in ["", ".", ".."] {
            let e = product_by_slug(bad).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument);
            assert!(e.message.starts_with("slug "), "{}", e.message);
        }
        assert!(collection("").unwrap_err().message.contains("id must not be empty"));
    }

    #[test]
    fn products_query_and_limits() {
        let r = products(&ProductsQuery { limit: Some(10), offset: Some(20), include_pagination: true, minimal: true })
            .unwrap();
        assert_eq!(r.url("http://h/api/v1"), "http://h/api/v1/products?limit=10&offset=20&includePagination=true&minimal=true");
        assert_eq!(products(&ProductsQuery::default()).unwrap().path_and_query(), "/products");
        for bad in [0, 501] {
            let e = products(&ProductsQuery { limit: Some(bad), ..Default::default() }).unwrap_err();
            assert_eq!(e.code, ErrorCode::InvalidArgument);
            assert!(e.message.contains("limit"), "{}", e.message);
        }
        assert!(products(&ProductsQuery { limit: Some(500), ..Default::default() }).is_ok());
    }

    #[test]
    fn products_query_rejects_fractional_and_unknown_options() {
        let e = serde_json::from_str::<ProductsQuery>(r#"{"limit":2.5}"#).unwrap_err();
        assert!(e.to_string().contains("floating point"), "{e}");
        let e = serde_json::from_str::<ProductsQuery>(r#"{"limt":2}"#).unwrap_err();
        assert!(e.to_string().contains("unknown field `limt`"), "{e}");
    }

    #[test]
    fn shipping_rates_validation_and_body() {
        let ok = ShippingRatesRequest { variant_ids: vec!["v1".into()], country: "US".into(), order_total: None };
        let r = shipping_rates(&ok).unwrap();
        assert_eq!(r.method, Method::Post);
        assert!(r.retryable);
        assert_eq!(r.body.as_deref(), Some(r#"{"variantIds":["v1"],"country":"US"}"#));
        let bad_country = ShippingRatesRequest { country: "us".into(), ..ok.clone() };
        assert!(shipping_rates(&bad_country).unwrap_err().message.contains("country"));
        let empty = ShippingRatesRequest { variant_ids: vec![], ..ok.clone() };
        assert!(shipping_rates(&empty).unwrap_err().message.contains("variantIds"));
        let many = ShippingRatesRequest { variant_ids: vec!["v".into(); 251], ..ok.clone() };
        assert!(shipping_rates(&many).is_err());
        let neg = ShippingRatesRequest { order_total: Some(-1.0), ..ok.clone() };
        assert!(shipping_rates(&neg).unwrap_err().message.contains("orderTotal"));
        let nan = ShippingRatesRequest { order_total: Some(f64::NAN), ..ok };
        assert!(shipping_rates(&nan).is_err());
    }

    #[test]
    fn payments_are_never_retryable_and_validated() {
        let item = |id: &str, q| PaymentItem { variant_id: id.into(), quantity: q };
        let ok = InitiateRequest { items: vec![item("v1", 1)], currency: "USD".into() };
        let r = initiate_payment(&ok).unwrap();
        assert!(!r.retryable);
        assert_eq!(r.path, "/payments/initiate");
        let dup = InitiateRequest { items: vec![item("v1", 1), item("v1", 2)], currency: "USD".into() };
        assert!(initiate_payment(&dup).unwrap_err().message.contains("items[1].variantId"));
        let zero = InitiateRequest { items: vec![item("v1", 0)], currency: "USD".into() };
        assert!(initiate_payment(&zero).unwrap_err().message.contains("quantity"));
        let cur = InitiateRequest { items: vec![item("v1", 1)], currency: "usd".into() };
        assert!(initiate_payment(&cur).unwrap_err().message.contains("currency"));

        let addr = ShippingAddress {
            email: "a@b.c".into(),
            first_name: "A".into(),
            last_name: "B".into(),
            address1: "1 Road".into(),
            address2: None,
            city: "Town".into(),
            state: None,
            postal_code: "12345".into(),
            country: "US".into(),
            phone: None,
        };
        let up = UpdateRequest { session_id: "s".into(), shipping_rate_id: "r".into(), shipping_address: addr.clone() };
        assert!(!update_payment(&up).unwrap().retryable);
        let bad = UpdateRequest { shipping_address: ShippingAddress { city: " ".into(), ..addr.clone() }, ..up };
        assert!(update_payment(&bad).unwrap_err().message.contains("shippingAddress.city"));
        let c = ConfirmRequest {
            session_id: "s".into(),
            confirmation_token_id: String::new(),
            shipping_rate_id: "r".into(),
            shipping_address: addr,
            return_url: "https://x/".into(),
        };
        assert!(confirm_payment(&c).unwrap_err().message.contains("confirmationTokenId"));
    }

    #[test]
    fn products_query_from_js_numbers() {
        let q = ProductsQuery::from_numbers(Some(5.0), Some(10.0), true, false).unwrap();
        assert_eq!(products(&q).unwrap().path_and_query(), "/products?limit=5&offset=10&includePagination=true");
        assert_eq!(ProductsQuery::from_numbers(None, Some(9_007_199_254_740_991.0), false, true).unwrap().offset, Some(9_007_199_254_740_991));
        for bad in [2.5, -1.0, f64::NAN, f64::INFINITY, 1e21, 4_294_967_296.0] {
            let e = ProductsQuery::from_numbers(Some(bad), None, false, false).unwrap_err();
            assert!(e.message.starts_with("limit "), "{bad}: {}", e.message);
        }
        for bad in [0.5, -1.0, f64::NAN, 9_007_199_254_740_992.0] {
            let e = ProductsQuery::from_numbers(None, Some(bad), false, false).unwrap_err();
            assert!(e.message.starts_with("offset "), "{bad}: {}", e.message);
        }
        // The range of limit is the builder's.
        let q = ProductsQuery::from_numbers(Some(0.0), None, false, false).unwrap();
        assert!(products(&q).unwrap_err().message.contains("got 0"));
        assert_eq!(js_integer(-0.0), Some(0));
    }

    #[test]
    fn catalog_paths_by_method_name() {
        assert_eq!(catalog_path("productBySlug", "a/b").unwrap(), "/products/slug/a%2Fb");
        assert_eq!(catalog_path("collectionBySlug", "x").unwrap(), "/collections/slug/x");
        assert_eq!(catalog_path("collection", "..").unwrap_err().code, ErrorCode::InvalidArgument);
        assert!(catalog_path("productBySlug", "").unwrap_err().message.starts_with("slug "));
        assert!(catalog_path("collection", "").unwrap_err().message.starts_with("id "));
        assert_eq!(catalog_path("pages", "").unwrap(), "/pages");
        assert_eq!(catalog_path("collections", "").unwrap(), "/collections");
        assert_eq!(catalog_path("store", "ignored").unwrap(), "/store");
        assert!(catalog_path("admin", "").is_err());
    }

    #[test]
    fn body_rules_as_primitives() {
        let ids = |v: &[&str]| v.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>();
        assert!(check_shipping_rates(&ids(&["v"]), "US", Some(0.0)).is_ok());
        assert!(check_shipping_rates(&ids(&["v", " "]), "US", None).unwrap_err().message.contains("variantIds[1]"));
        assert!(check_shipping_rates(&ids(&["v"]), "US", Some(f64::INFINITY)).unwrap_err().message.contains("orderTotal"));
        assert!(check_initiate(&ids(&["a", "b"]), &[1, 2], "EUR").is_ok());
        assert!(check_initiate(&ids(&["a", "b"]), &[1], "EUR").unwrap_err().message.starts_with("items"));
        assert!(check_initiate(&ids(&["a", "a"]), &[1, 1], "EUR").unwrap_err().message.contains("items[1].variantId repeats"));
        assert!(check_initiate(&ids(&["a"]), &[1], "EURO").unwrap_err().message.contains("currency"));
        assert!(check_update("s", "").unwrap_err().message.contains("shippingRateId"));
        assert!(check_update("", "r").unwrap_err().message.contains("sessionId"));
        assert!(check_confirm("s", "t", "r", " ").unwrap_err().message.contains("returnUrl"));
        assert!(check_confirm("s", "t", "r", "https://x/").is_ok());
    }
}
