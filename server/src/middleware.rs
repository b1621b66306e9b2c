//! Cross-cutting layers: request id + own-host check + CORS + access log (`edge`), test faults,
//! bearer auth and the rate limiter (per client address, then per key); and
//! the card-testing limits of the payment endpoints, per client address
//! ([`PaymentLimiter`], [`ClientAddr`]).

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::{ConnectInfo, FromRequestParts, Request, State as AxState};
use axum::http::request::Parts;
use axum::http::{header, Extensions, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cirrus_storefront::model::ServerErrorCode;

use crate::error::ApiError;
use crate::hooks::FaultKind;
use crate::{util, State};

/// The masked key of an authenticated request (`ak_1234…`), for the access log.
#[derive(Clone)]
struct KeyTag(String);

fn allowed_origin(state: &State, headers: &HeaderMap) -> Option<HeaderValue> {
    let origin = headers.get(header::ORIGIN)?;
    let o = origin.to_str().ok()?;
    let ok = state.config.allows_origin(o);
    ok.then(|| origin.clone())
}

/// Outermost layer: refuses a request whose `Host` is not this server's
/// ([`foreign_host`]), answers CORS preflights, adds `x-request-id` and the CORS
/// headers to every response, and writes one access-log line (never a key).
pub async fn edge(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    let start = Instant::now();
    let request_id = format!("req_{}", util::random_hex(12));
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let origin = allowed_origin(&state, req.headers());
    let preflight = method == Method::OPTIONS && req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD);
    let mut resp = if let Some(refused) = foreign_host(&state, &req) {
        refused.into_response()
    } else if preflight {
        let mut r = StatusCode::NO_CONTENT.into_response();
        if origin.is_some() {
            let h = r.headers_mut();
            h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, POST, DELETE, OPTIONS"));
            h.insert(
                header::ACCESS_CONTROL_ALLOW_HEADERS,
                HeaderValue::from_static("authorization, content-type, x-request-id"),
            );
            h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
        }
        r
    } else {
        next.run(req).await
    };
    // Every error is the contract's JSON body, even one the framework produced.
    // (The www dir's page answers unknown page paths with a 404 of its own.)
    if (resp.status().is_client_error() || resp.status().is_server_error()) && !is_json(resp.headers()) && !crate::www::is_page(&resp) {
        resp = framework_error(resp.status()).into_response();
    }
    let h = resp.headers_mut();
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if let Some(o) = origin {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, o);
        h.insert(
            header::ACCESS_CONTROL_EXPOSE_HEADERS,
            HeaderValue::from_static("x-request-id, retry-after"),
        );
    }
    h.append(header::VARY, HeaderValue::from_static("Origin"));
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        h.insert("x-request-id", v);
    }
    let key = resp.extensions().get::<KeyTag>().map_or("-", |k| k.0.as_str());
    eprintln!(
        "{request_id} {method} {path} {} {}us key={key}",
        resp.status().as_u16(),
        start.elapsed().as_micros()
    );
    resp
}

/// The refusal of a request whose `Host` is not this server's (DNS rebinding,
/// [`crate::host`]): 400 `invalid_request` naming the header. The authority of
/// an absolute-form request target stands for the header (RFC 9112 3.2.2).
fn foreign_host(state: &State, req: &Request) -> Option<ApiError> {
    let host = match req.uri().authority() {
        Some(a) => a.as_str(),
        None => match req.headers().get(header::HOST) {
            None => return Some(ApiError::bad_request("Host: missing header")),
            Some(h) => h.to_str().unwrap_or("\u{fffd}"),
        },
    };
    (!state.hosts.allows(host)).then(|| ApiError::bad_request(state.hosts.refusal(host)))
}

fn is_json(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("application/json"))
}

/// The contract error for a status some layer answered without a JSON body.
fn framework_error(status: StatusCode) -> ApiError {
    ApiError::with_status(status.as_u16(), format!("request rejected: {}", status.canonical_reason().unwrap_or("error").to_lowercase()))
}

/// Test hooks: applies an armed fault to a matching request.
pub async fn faults(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    if !state.config.test_hooks || req.uri().path().starts_with("/__test/") {
        return next.run(req).await;
    }
    let fault = crate::hooks::take_fault(&state, req.method().as_str(), req.uri().path());
    let Some(fault) = fault else { return next.run(req).await };
    match fault.kind {
        FaultKind::Status => {
            let mut e = ApiError::with_status(fault.status, format!("injected fault: status {}", fault.status));
            if matches!(fault.status, 429 | 503) {
                e.retry_after = Some(fault.retry_after);
            }
            e.into_response()
        }
        FaultKind::Slow => {
            tokio::time::sleep(Duration::from_millis(fault.delay_ms)).await;
            next.run(req).await
        }
        FaultKind::Truncated => {
            let resp = next.run(req).await;
            let (mut parts, body) = resp.into_parts();
            let bytes = axum::body::to_bytes(body, usize::MAX).await.unwrap_or_default();
            parts.headers.remove(header::CONTENT_LENGTH);
            Response::from_parts(parts, Body::from(bytes.slice(..bytes.len() / 2)))
        }
    }
}

/// Bearer auth against the stored key hashes, then the rate limiter.
pub async fn auth(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    let header = req.headers().get(header::AUTHORIZATION).map(|v| v.to_str().unwrap_or("\u{0}"));
    let key = match header {
        None => return ApiError::unauthorized("missing Authorization header").into_response(),
        Some(h) => match h.split_once(' ') {
            Some((scheme, key)) if scheme.eq_ignore_ascii_case("bearer") => key.trim(),
            _ => return ApiError::unauthorized("Authorization must use the Bearer scheme").into_response(),
        },
    };
    if !util::is_api_key(key) {
        return ApiError::unauthorized("malformed API key: expected ak_ followed by 48 hex digits").into_response();
    }
    let hash = util::sha256(key);
    if !state.key_hashes.contains(&hash) {
        return ApiError::unauthorized(format!("unknown API key {}", util::mask_key(key))).into_response();
    }
    let tag = KeyTag(util::mask_key(key));
    let client = client_addr(req.extensions());
    let confirm = req.method() == Method::POST && req.uri().path().ends_with("/payments/confirm");
    let rate = state.config.rate_limit;
    let mut resp = match state.limiter.check(client, hash, confirm) {
        Ok(()) => next.run(req).await,
        Err(Limit::Client(secs)) => {
            ApiError::new(ServerErrorCode::RateLimited, format!("rate limit of {rate} requests per second per client exceeded"))
                .with_retry_after(secs)
                .into_response()
        }
        Err(Limit::Key(secs)) => ApiError::new(
            ServerErrorCode::RateLimited,
            format!("rate limit of {} requests per second for this API key exceeded", u64::from(rate) * u64::from(KEY_SHARE)),
        )
        .with_retry_after(secs)
        .into_response(),
    };
    resp.extensions_mut().insert(tag);
    resp
}

/// The client address of a request as the limiters count it: the peer of its
/// connection (behind a proxy, the proxy's), an IPv6 one by its /64
/// ([`per_client`]). `None` when the server was not started with connect info
/// (never through [`crate::start`]).
fn client_addr(extensions: &Extensions) -> Option<IpAddr> {
    extensions.get::<ConnectInfo<SocketAddr>>().map(|c| per_client(c.0.ip()))
}

/// The address one client is counted by: an IPv4 address as it is (an
/// IPv4-mapped IPv6 one as its IPv4 address), an IPv6 address by its /64
/// prefix, the rest zeroed (one host, or one home network, is given a whole
/// /64 and can use any address in it).
#[must_use]
pub fn per_client(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(_) => ip,
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => IpAddr::V4(v4),
            None => IpAddr::V6(Ipv6Addr::from(u128::from(v6) & !u128::from(u64::MAX))),
        },
    }
}

/// Extractor: the request's client address, as the rate limiter sees it.
pub struct ClientAddr(pub Option<IpAddr>);

impl<S: Send + Sync> FromRequestParts<S> for ClientAddr {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        Ok(Self(client_addr(&parts.extensions)))
    }
}

/// Token bucket state of one client or key.
pub struct Bucket {
    tokens: f64,
    last: Instant,
}

/// What one bucket limits.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Limited {
    /// One client address.
    Client(IpAddr),
    /// One API key (by its hash), shared by every shopper of a storefront.
    Key([u8; 32]),
}

/// Which limit a refused request hit, and the seconds to wait (>= 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Limit {
    Client(u64),
    Key(u64),
}

/// A key's bucket is this many times a client's: the shoppers of one storefront
/// share its (public) key.
pub const KEY_SHARE: u32 = 20;
/// Buckets kept before idle ones (untouched for a minute, hence full) are dropped.
const MAX_BUCKETS: usize = 10_000;

/// Token buckets: `rate` tokens per second per client address, `KEY_SHARE *
/// rate` per key, each with a burst of twice its rate. A client's bucket is
/// checked first, so one client flooding with the page's key is refused before
/// it can empty the key's bucket for every other shopper; a confirm is counted
/// against its client only (a payment under way is never starved by others'
/// traffic).
pub struct RateLimiter {
    rate: u32,
    buckets: Mutex<HashMap<Limited, Bucket>>,
}

impl RateLimiter {
    #[must_use]
    pub fn new(rate: u32) -> Self {
        Self { rate, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes a token from `client`'s bucket (when the address is known), then,
    /// unless `confirm`, from `key`'s.
    ///
    /// # Errors
    /// The [`Limit`] hit, with the seconds to wait.
    pub fn check(&self, client: Option<IpAddr>, key: [u8; 32], confirm: bool) -> Result<(), Limit> {
        if self.rate == 0 {
            return Ok(());
        }
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > MAX_BUCKETS {
            buckets.retain(|_, b| now.duration_since(b.last) < Duration::from_secs(60));
        }
        if let Some(ip) = client {
            let rate = f64::from(self.rate);
            take(&mut buckets, Limited::Client(ip), rate, 2.0 * rate, now, true).map_err(Limit::Client)?;
        }
        if !confirm {
            let rate = f64::from(self.rate) * f64::from(KEY_SHARE);
            take(&mut buckets, Limited::Key(key), rate, 2.0 * rate, now, true).map_err(Limit::Key)?;
        }
        Ok(())
    }
}

/// Takes a token from `what`'s bucket (`rate` per second, at most `burst`), or
/// returns the seconds until one is there. With `consume` false it only looks.
fn take<K: Hash + Eq>(buckets: &mut HashMap<K, Bucket>, what: K, rate: f64, burst: f64, now: Instant, consume: bool) -> Result<(), u64> {
    let b = buckets.entry(what).or_insert(Bucket { tokens: burst, last: now });
    b.tokens = (b.tokens + now.duration_since(b.last).as_secs_f64() * rate).min(burst);
    b.last = now;
    if b.tokens >= 1.0 {
        if consume {
            b.tokens -= 1.0;
        }
        Ok(())
    } else {
        Err((((1.0 - b.tokens) / rate).ceil() as u64).max(1))
    }
}

/// What [`PaymentLimiter`] counts per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counted {
    /// `POST /payments/initiate`: a payment session opened.
    Initiate,
    /// A confirm answered `requires_payment_method` (a decline, a card refused):
    /// taken when the confirm arrives, before anything reaches the processor,
    /// and given back ([`PaymentLimiter::give_back`]) when it did not fail.
    FailedPayment,
}

/// Failed payment attempts allowed per client address are this fraction of the
/// initiates allowed (`CIRRUS_PAYMENT_LIMIT`).
pub const FAILED_SHARE: u32 = 20;

/// Card testing, bounded per client address across sessions (a session alone
/// accepts 5 attempts, but opening one is free): payment sessions initiated and
/// failed payment attempts, each a token bucket holding an hour's worth
/// (`limit` initiates and `limit / FAILED_SHARE` failures per hour, refilled
/// evenly). Per address (an IPv6 one per /64), never per key: every buyer of a
/// storefront sends its one public key, so one address cannot use up what
/// other buyers share. A failed attempt is counted before it is made, so
/// attempts in flight together cannot pass the budget. `limit` 0 turns it off.
pub struct PaymentLimiter {
    limit: u32,
    buckets: Mutex<HashMap<(Counted, IpAddr), Bucket>>,
}

impl PaymentLimiter {
    #[must_use]
    pub fn new(limit: u32) -> Self {
        Self { limit, buckets: Mutex::new(HashMap::new()) }
    }

    /// How many of `what` one address may have per hour.
    #[must_use]
    pub fn per_hour(&self, what: Counted) -> u32 {
        match what {
            Counted::Initiate => self.limit,
            Counted::FailedPayment => (self.limit / FAILED_SHARE).max(1),
        }
    }

    /// Counts one `what` for `client` (`consume`), or only checks one is left.
    /// `client` is counted by [`per_client`] (an IPv6 address by its /64).
    ///
    /// # Errors
    /// 429 `rate_limited` with `Retry-After` when `client` has used up its hour.
    pub fn count(&self, what: Counted, client: Option<IpAddr>, consume: bool) -> Result<(), ApiError> {
        let Some(ip) = client.filter(|_| self.limit > 0).map(per_client) else { return Ok(()) };
        let per_hour = f64::from(self.per_hour(what));
        let rate = per_hour / 3600.0;
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if buckets.len() > MAX_BUCKETS {
            // Full again (what an absent bucket would be): nothing is lost by dropping them.
            buckets.retain(|(w, _), b| {
                let n = f64::from(self.per_hour(*w));
                b.tokens + now.duration_since(b.last).as_secs_f64() * n / 3600.0 < n
            });
        }
        take(&mut buckets, (what, ip), rate, per_hour, now, consume).map_err(|secs| {
            let n = self.per_hour(what);
            let message = match what {
                Counted::Initiate => format!("more than {n} payment sessions per hour from this client address; try again later"),
                Counted::FailedPayment => format!("more than {n} failed payment attempts per hour from this client address; try again later"),
            };
            ApiError::new(ServerErrorCode::RateLimited, message).with_retry_after(secs)
        })
    }

    /// Gives back one `what` counted for `client` by [`Self::count`] (the
    /// attempt it was taken for did not fail); never above the hour's worth.
    pub fn give_back(&self, what: Counted, client: Option<IpAddr>) {
        let Some(ip) = client.filter(|_| self.limit > 0).map(per_client) else { return };
        let full = f64::from(self.per_hour(what));
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(b) = buckets.get_mut(&(what, ip)) {
            b.tokens = (b.tokens + 1.0).min(full);
        }
    }
}
