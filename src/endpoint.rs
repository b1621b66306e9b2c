//! Every operation of the client, once: its [`Endpoint`] (method, path, retry
//! policy, response schema, the member the caller gets) and the checks of its
//! arguments, as data, no I/O.
//!
//! An operation becomes a [`Call`] (the path and query below the base URL,
//! percent-encoded, with the endpoint it goes to) only once its arguments
//! passed their checks, so a bad argument is an `invalid_argument` error
//! before anything is sent. Slugs and ids become exactly one path segment:
//! `a/b?c#d` or `../store` cannot change which endpoint is called. Request
//! bodies are checked by their type's [`Body::check`] (the wasm layer encodes
//! them).

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::jsoncheck::Root;
use crate::model::{ConfirmRequest, InitiateRequest, ShippingAddress, ShippingRatesRequest, UpdateRequest};
use crate::retry::Policy;

/// Largest page `GET /products` accepts (CONTRACT.md).
pub const MAX_LIMIT: u32 = 500;
/// Most variant ids one `POST /shipping-rates` accepts (CONTRACT.md).
pub const MAX_VARIANT_IDS: usize = 250;
/// Most items one `POST /payments/initiate` accepts.
pub const MAX_ITEMS: usize = 250;
/// Longest id after a confirmation token's prefix (`ctoken_`, `tok_`).
pub const MAX_TOKEN_ID: usize = 200;

/// HTTP method of an [`Endpoint`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

/// What an endpoint takes besides the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Arg {
    /// Nothing.
    None,
    /// One path segment after [`Endpoint::path`], named so in messages.
    Segment(&'static str),
    /// The query of [`ProductsQuery`].
    Query,
    /// A JSON body (checked by its type's [`Body::check`]).
    Body,
}

/// One endpoint of Cirrus V1 as the client uses it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoint {
    pub method: Method,
    /// The path below the base URL (for [`Arg::Segment`], the part before it).
    pub path: &'static str,
    pub arg: Arg,
    /// Whether a failed attempt may be sent again (payments: never).
    pub retry: Policy,
    /// The schema a 2xx body is checked against.
    pub response: Root,
    /// The member of the body the caller gets (`None`: the whole body).
    pub member: Option<&'static str>,
}

/// The client's operations, one per public method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    Products,
    ProductBySlug,
    Pages,
    Collections,
    CollectionBySlug,
    Collection,
    Store,
    ShippingRates,
    InitiatePayment,
    UpdatePayment,
    ConfirmPayment,
}

const fn get(path: &'static str, arg: Arg, response: Root, member: Option<&'static str>) -> Endpoint {
    Endpoint { method: Method::Get, path, arg, retry: Policy::Retried, response, member }
}

const fn post(path: &'static str, retry: Policy, response: Root, member: Option<&'static str>) -> Endpoint {
    Endpoint { method: Method::Post, path, arg: Arg::Body, retry, response, member }
}

impl Op {
    /// Every operation, in the order of the client's methods.
    pub const ALL: [Op; 11] = [
        Op::Products,
        Op::ProductBySlug,
        Op::Pages,
        Op::Collections,
        Op::CollectionBySlug,
        Op::Collection,
        Op::Store,
        Op::ShippingRates,
        Op::InitiatePayment,
        Op::UpdatePayment,
        Op::ConfirmPayment,
    ];

    /// The endpoint of the operation (the table of the client).
    #[must_use]
    pub const fn endpoint(self) -> Endpoint {
        match self {
            Op::Products => get("/products", Arg::Query, Root::ProductsResponse, None),
            Op::ProductBySlug => get("/products/slug/", Arg::Segment("slug"), Root::ProductResponse, Some("product")),
            Op::Pages => get("/pages", Arg::None, Root::PagesResponse, Some("pages")),
            Op::Collections => get("/collections", Arg::None, Root::CollectionsResponse, Some("collections")),
            Op::CollectionBySlug => get("/collections/slug/", Arg::Segment("slug"), Root::CollectionResponse, Some("collection")),
            Op::Collection => get("/collections/", Arg::Segment("id"), Root::CollectionResponse, Some("collection")),
            Op::Store => get("/store", Arg::None, Root::StoreResponse, Some("store")),
            // Retried like a GET: it changes nothing on the server.
            Op::ShippingRates => post("/shipping-rates", Policy::Retried, Root::ShippingRatesResponse, Some("variantRates")),
            // Sent exactly once (the server makes confirm idempotent; a retry is the caller's choice).
            Op::InitiatePayment => post("/payments/initiate", Policy::SentOnce, Root::InitiateResponse, None),
            Op::UpdatePayment => post("/payments/update", Policy::SentOnce, Root::UpdateResponse, None),
            Op::ConfirmPayment => post("/payments/confirm", Policy::SentOnce, Root::ConfirmResponse, None),
        }
    }
}

/// An operation whose arguments passed their checks: where it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call {
    pub endpoint: Endpoint,
    /// The path and query below the base URL, e.g. `/products?limit=10`.
    pub path: String,
    /// The schema of the 2xx body (`GET /products` with `minimal` differs from the table's).
    pub response: Root,
    /// `GET /products` asked for `pagination`: a body without it is a `decode` error.
    pub pagination: bool,
}

impl Call {
    fn to(op: Op, path: String) -> Call {
        let endpoint = op.endpoint();
        Call { endpoint, path, response: endpoint.response, pagination: false }
    }

    /// An operation with one path segment (`slug`, `id`) or none (the argument
    /// is then ignored).
    ///
    /// # Errors
    /// `invalid_argument` naming the segment when it is empty or `.`/`..`;
    /// for [`Arg::Query`] and [`Arg::Body`] operations (use [`Call::products`],
    /// [`Call::body`]).
    pub fn catalog(op: Op, arg: &str) -> Result<Call> {
        let e = op.endpoint();
        let path = match e.arg {
            Arg::None => e.path.to_owned(),
            Arg::Segment(what) => format!("{}{}", e.path, path_segment(what, arg)?),
            Arg::Query | Arg::Body => return Err(Error::invalid_argument("not a catalog endpoint")),
        };
        Ok(Call::to(op, path))
    }

    /// `GET /products` with its query.
    ///
    /// # Errors
    /// `invalid_argument` if `limit` is outside 1..=500.
    pub fn products(q: &ProductsQuery) -> Result<Call> {
        let mut path = String::from("/products");
        let mut sep = '?';
        let mut param = |k: &str, v: &str| {
            path.push(sep);
            path.push_str(k);
            path.push('=');
            path.push_str(v);
            sep = '&';
        };
        if let Some(limit) = q.limit {
            check_limit(u64::from(limit))?;
            param("limit", &limit.to_string());
        }
        if let Some(offset) = q.offset {
            param("offset", &offset.to_string());
        }
        if q.include_pagination {
            param("includePagination", "true");
        }
        if q.minimal {
            param("minimal", "true");
        }
        let mut call = Call::to(Op::Products, path);
        if q.minimal {
            call.response = Root::MinimalProductsResponse;
        }
        call.pagination = q.include_pagination;
        Ok(call)
    }

    /// The operation of a request body that passed [`Body::check`].
    ///
    /// # Errors
    /// `invalid_argument` naming the field that breaks a rule.
    pub fn body<B: Body>(body: &B) -> Result<Call> {
        body.check()?;
        Ok(Call::to(B::OP, B::OP.endpoint().path.to_owned()))
    }
}

/// A request body: its operation and its rules.
pub trait Body: Serialize {
    const OP: Op;
    /// The schema of the body (it names the path of a badly typed member).
    const SCHEMA: Root;
    /// The rules of the body: the client runs them before sending
    /// ([`Call::body`]) and the dev server on every body it receives, so a body
    /// one refuses the other refuses with the same message.
    ///
    /// # Errors
    /// `invalid_argument` naming the field (`items[1].quantity`, `currency`, …).
    fn check(&self) -> Result<()>;
}

/// Percent-encodes `value` as exactly one path segment (RFC 3986 unreserved
/// characters stay, every other byte becomes `%XX`).
///
/// # Errors
/// `invalid_argument` naming `what` if `value` is empty or is `.` / `..`
/// (a URL parser would resolve those, even percent-encoded).
pub fn path_segment(what: &str, value: &str) -> Result<String> {
    if value.is_empty() {
        return Err(Error::invalid_argument(format!("{what} must not be empty")));
    }
    if value == "." || value == ".." {
        return Err(Error::invalid_argument(format!("{what} must not be \".\" or \"..\"")));
    }
    Ok(percent_encode(value, unreserved))
}

/// An RFC 3986 unreserved character: `A-Z a-z 0-9 - . _ ~`.
pub(crate) fn unreserved(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~')
}

/// `s` with every byte `keep` refuses written `%XX` (upper-case hex): the one
/// percent-encoder of the crate (request paths here, store URLs in
/// `storefront::routes`).
pub(crate) fn percent_encode(s: &str, keep: fn(u8) -> bool) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if keep(b) {
            out.push(char::from(b));
        } else {
            out.push('%');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
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

/// The page size rule of `GET /products`: `limit` in 1..=[`MAX_LIMIT`]. The client checks
/// its argument with it, the dev server its query parameter (a `u64`, so a value past `u32`
/// is named as given).
///
/// # Errors
/// `invalid_argument` naming `limit` and the value.
pub fn check_limit(limit: u64) -> Result<()> {
    if (1..=u64::from(MAX_LIMIT)).contains(&limit) {
        Ok(())
    } else {
        Err(Error::invalid_argument(format!("limit must be an integer in 1..={MAX_LIMIT}, got {limit}")))
    }
}

fn check_non_empty(field: &str, value: &str) -> Result<()> {
    if value.trim().is_empty() {
        return Err(Error::invalid_argument(format!("{field} must not be empty")));
    }
    Ok(())
}

fn check_address(a: &ShippingAddress) -> Result<()> {
    // One definition of a valid address, shared with the checkout state machine.
    crate::checkout::validate_address(a)
}

/// A processor's confirmation token id: `ctoken_` (a Stripe ConfirmationToken) or `tok_` (a
/// card token, localstripe), then 1..=[`MAX_TOKEN_ID`] ASCII letters, digits or `_` (so it is
/// one path segment of the processor's API as it is).
fn check_token(token: &str) -> Result<()> {
    check_non_empty("confirmationTokenId", token)?;
    let id = token.strip_prefix("ctoken_").or_else(|| token.strip_prefix("tok_"));
    if id.is_some_and(|id| (1..=MAX_TOKEN_ID).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')) {
        return Ok(());
    }
    Err(Error::invalid_argument(format!(
        "confirmationTokenId must be ctoken_ or tok_ and 1 to {MAX_TOKEN_ID} letters, digits or _ (the processor's token id)"
    )))
}

impl Body for ShippingRatesRequest {
    const SCHEMA: Root = Root::ShippingRatesRequest;
    const OP: Op = Op::ShippingRates;
    /// `variantIds` 1..=250 non-empty ids, `country` an ISO 3166-1 alpha-2 code (`crate::country`),
    /// `orderTotal` finite and >= 0.
    fn check(&self) -> Result<()> {
        let ids = &self.variant_ids;
        if ids.is_empty() || ids.len() > MAX_VARIANT_IDS {
            return Err(Error::invalid_argument(format!("variantIds must hold 1..={MAX_VARIANT_IDS} ids, got {}", ids.len())));
        }
        for (i, id) in ids.iter().enumerate() {
            check_non_empty(&format!("variantIds[{i}]"), id)?;
        }
        let c = &self.country;
        if !crate::country::is_country(c) {
            return Err(Error::invalid_argument(format!("country must be an ISO 3166-1 alpha-2 code in uppercase (like \"US\"), got \"{c}\"")));
        }
        if let Some(total) = self.order_total {
            if !total.is_finite() || total < 0.0 {
                return Err(Error::invalid_argument("orderTotal must be a finite number >= 0"));
            }
        }
        Ok(())
    }
}

impl Body for InitiateRequest {
    const SCHEMA: Root = Root::InitiateRequest;
    const OP: Op = Op::InitiatePayment;
    /// `items` 1..=250, each with a non-empty variant id (not repeated) and a
    /// quantity >= 1; `currency` three uppercase letters.
    fn check(&self) -> Result<()> {
        if self.items.is_empty() {
            return Err(Error::invalid_argument("items must not be empty"));
        }
        if self.items.len() > MAX_ITEMS {
            return Err(Error::invalid_argument(format!("items must hold at most {MAX_ITEMS} items, got {}", self.items.len())));
        }
        for (i, it) in self.items.iter().enumerate() {
            let item = format!("items[{i}]");
            check_non_empty(&format!("{item}.variantId"), &it.variant_id)?;
            if it.quantity == 0 {
                return Err(Error::invalid_argument(format!("{item}.quantity must be at least 1")));
            }
            if self.items[..i].iter().any(|o| o.variant_id == it.variant_id) {
                return Err(Error::invalid_argument(format!("{item}.variantId repeats \"{}\"", it.variant_id)));
            }
        }
        let c = &self.currency;
        if !(c.len() == 3 && c.bytes().all(|b| b.is_ascii_uppercase())) {
            return Err(Error::invalid_argument(format!("currency must be three uppercase letters (like \"USD\"), got \"{c}\"")));
        }
        Ok(())
    }
}

impl Body for UpdateRequest {
    const SCHEMA: Root = Root::UpdateRequest;
    const OP: Op = Op::UpdatePayment;
    /// Session and rate ids not empty, then the address.
    fn check(&self) -> Result<()> {
        check_non_empty("sessionId", &self.session_id)?;
        check_non_empty("shippingRateId", &self.shipping_rate_id)?;
        check_address(&self.shipping_address)
    }
}

impl Body for ConfirmRequest {
    const SCHEMA: Root = Root::ConfirmRequest;
    const OP: Op = Op::ConfirmPayment;
    /// Session and rate ids not empty, the token a processor's token id, the
    /// return URL an absolute http(s) URL (`checkout::validate_return_url`), then the address.
    fn check(&self) -> Result<()> {
        check_non_empty("sessionId", &self.session_id)?;
        check_token(&self.confirmation_token_id)?;
        check_non_empty("shippingRateId", &self.shipping_rate_id)?;
        crate::checkout::validate_return_url(&self.return_url)?;
        check_address(&self.shipping_address)
    }
}

#[cfg(test)]
mod tests;
