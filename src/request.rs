//! Requests as data: one builder per Cirrus V1 endpoint, no I/O.
//!
//! A [`Request`] is a method, a path below the base URL (already
//! percent-encoded), a query and an optional JSON body. Builders validate their
//! arguments first, so a bad argument is an `invalid_argument` error before
//! anything is sent. Slugs and ids become exactly one path segment: `a/b?c#d`
//! or `../store` cannot change which endpoint is called.

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
        return Err(Error::invalid_argument(format!("{what} must not be empty")));
    }
    if value == "." || value == ".." {
        return Err(Error::invalid_argument(format!("{what} must not be \".\" or \"..\"")));
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

/// `GET /products`.
///
/// # Errors
/// `invalid_argument` if `limit` is outside 1..=500.
pub fn products(q: &ProductsQuery) -> Result<Request> {
    let mut r = Request::get("/products".to_owned());
    if let Some(limit) = q.limit {
        if !(1..=MAX_LIMIT).contains(&limit) {
            return Err(Error::invalid_argument(format!("limit must be an integer in 1..=500, got {limit}")));
        }
        r.query.push(("limit", limit.to_string()));
    }
    if let Some(offset) = q.offset {
        r.query.push(("offset", offset.to_string()));
    }
    if q.include_pagination {
        r.query.push(("includePagination", "true".to_owned()));
    }
    if q.minimal {
        r.query.push(("minimal", "true".to_owned()));
    }
    Ok(r)
}

/// `GET /products/slug/{slug}`.
///
/// # Errors
/// `invalid_argument` for an empty slug or `.`/`..`.
pub fn product_by_slug(slug: &str) -> Result<Request> {
    Ok(Request::get(format!("/products/slug/{}", path_segment("slug", slug)?)))
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
    Ok(Request::get(format!("/collections/slug/{}", path_segment("slug", slug)?)))
}

/// `GET /collections/{id}`.
///
/// # Errors
/// `invalid_argument` for an empty id or `.`/`..`.
pub fn collection(id: &str) -> Result<Request> {
    Ok(Request::get(format!("/collections/{}", path_segment("id", id)?)))
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
        Err(Error::invalid_argument(format!(
            "{field} must be an ISO 3166-1 alpha-2 code in uppercase (like \"US\"), got \"{country}\""
        )))
    }
}

fn check_non_empty(field: &str, value: &str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(Error::invalid_argument(format!("{field} must not be empty")));
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
    if body.variant_ids.is_empty() || body.variant_ids.len() > MAX_VARIANT_IDS {
        return Err(Error::invalid_argument(format!(
            "variantIds must hold 1..=250 ids, got {}",
            body.variant_ids.len()
        )));
    }
    for (i, id) in body.variant_ids.iter().enumerate() {
        check_non_empty(&format!("variantIds[{i}]"), id)?;
    }
    check_country("country", &body.country)?;
    if let Some(total) = body.order_total {
        if !total.is_finite() || total < 0.0 {
            return Err(Error::invalid_argument("orderTotal must be a finite number >= 0"));
        }
    }
    Request::post("/shipping-rates", body, true)
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
    if body.items.is_empty() {
        return Err(Error::invalid_argument("items must not be empty"));
    }
    for (i, item) in body.items.iter().enumerate() {
        check_non_empty(&format!("items[{i}].variantId"), &item.variant_id)?;
        if item.quantity == 0 {
            return Err(Error::invalid_argument(format!("items[{i}].quantity must be at least 1")));
        }
        if body.items[..i].iter().any(|o| o.variant_id == item.variant_id) {
            return Err(Error::invalid_argument(format!("items[{i}].variantId repeats \"{}\"", item.variant_id)));
        }
    }
    if !(body.currency.len() == 3 && body.currency.bytes().all(|b| b.is_ascii_uppercase())) {
        return Err(Error::invalid_argument(format!(
            "currency must be three uppercase letters (like \"USD\"), got \"{}\"",
            body.currency
        )));
    }
    Request::post("/payments/initiate", body, false)
}

/// `POST /payments/update` (never retried).
///
/// # Errors
/// `invalid_argument` for an empty session or rate id or an incomplete address.
pub fn update_payment(body: &UpdateRequest) -> Result<Request> {
    check_non_empty("sessionId", &body.session_id)?;
    check_non_empty("shippingRateId", &body.shipping_rate_id)?;
    check_address(&body.shipping_address)?;
    Request::post("/payments/update", body, false)
}

/// `POST /payments/confirm` (never retried; the server makes it idempotent).
///
/// # Errors
/// `invalid_argument` for an empty session, token, rate id or return URL, or
/// an incomplete address.
pub fn confirm_payment(body: &ConfirmRequest) -> Result<Request> {
    check_non_empty("sessionId", &body.session_id)?;
    check_non_empty("confirmationTokenId", &body.confirmation_token_id)?;
    check_non_empty("shippingRateId", &body.shipping_rate_id)?;
    check_non_empty("returnUrl", &body.return_url)?;
    check_address(&body.shipping_address)?;
    Request::post("/payments/confirm", body, false)
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
}
