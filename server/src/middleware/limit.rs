//! The request-rate limiter (token buckets per client address, then per API
//! key), the token bucket the card-testing limits share
//! ([`super::payment_limit`]), and how a client address is counted.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::{IpAddr, Ipv6Addr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::Extensions;

/// The client address of a request as the limiters count it: the peer of its
/// connection (behind a proxy, the proxy's), an IPv6 one by its /64
/// ([`per_client`]). `None` when the server was not started with connect info
/// (never through [`crate::start`]).
pub(super) fn client_addr(extensions: &Extensions) -> Option<IpAddr> {
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
    pub(super) tokens: f64,
    pub(super) last: Instant,
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
pub(super) const MAX_BUCKETS: usize = 10_000;

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
pub(super) fn take<K: Hash + Eq>(buckets: &mut HashMap<K, Bucket>, what: K, rate: f64, burst: f64, now: Instant, consume: bool) -> Result<(), u64> {
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
