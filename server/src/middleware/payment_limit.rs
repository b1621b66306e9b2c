//! The card-testing limits of the payment endpoints, per client address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cirrus_storefront::model::ServerErrorCode;

use super::limit::{per_client, take, Bucket, MAX_BUCKETS};
use crate::error::ApiError;

/// What [`PaymentLimiter`] counts per client address.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Counted {
    /// `POST /payments/initiate`: a payment session opened.
    Initiate,
    /// A payment attempt that did not (yet) succeed: taken when a confirm makes a
    /// new attempt, before the buyer's card reaches the processor, and given back
    /// only when that attempt's payment succeeds ([`PaymentLimiter::paid`]), now
    /// or later: a decline, a refused card, an abandoned or failed 3-D Secure
    /// challenge keep it.
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
/// attempts in flight together cannot pass the budget, and given back only when
/// the attempt's payment succeeds, so abandoned 3-D Secure challenges cannot pass
/// it either. `limit` 0 turns it off.
pub struct PaymentLimiter {
    limit: u32,
    buckets: Mutex<HashMap<(Counted, IpAddr), Bucket>>,
    /// Attempts whose failed-attempt token is held until their payment succeeds:
    /// PaymentIntent id -> (client address, when the attempt was made).
    attempts: Mutex<HashMap<String, (IpAddr, Instant)>>,
}

/// An attempt's token is given back only within this long of the attempt: the
/// bucket refills an hour's worth in an hour anyway.
const HELD_FOR: Duration = Duration::from_secs(3600);

impl PaymentLimiter {
    #[must_use]
    pub fn new(limit: u32) -> Self {
        Self { limit, buckets: Mutex::new(HashMap::new()), attempts: Mutex::new(HashMap::new()) }
    }

    /// Takes one failed attempt from `client`'s budget for a new payment attempt,
    /// before the buyer's card reaches the processor ([`Counted::FailedPayment`]).
    ///
    /// # Errors
    /// 429 `rate_limited` with `Retry-After` when `client` has had its hour's failed attempts.
    pub fn attempt(&self, client: Option<IpAddr>) -> Result<(), ApiError> {
        self.count(Counted::FailedPayment, client, true)
    }

    /// The attempt taken by [`Self::attempt`] for `client` made PaymentIntent
    /// `pi_id`: its token is given back if and when that payment succeeds
    /// ([`Self::paid`]), whoever settles it (the confirm, a later confirm after 3-D
    /// Secure, the webhook, the sweep). At most [`MAX_BUCKETS`] attempts are held
    /// (older than [`HELD_FOR`] ones are dropped first); past that a token is not
    /// given back (the budget errs on the side of the bound).
    pub fn attempt_made(&self, pi_id: &str, client: Option<IpAddr>) {
        let Some(ip) = client.filter(|_| self.limit > 0).map(per_client) else { return };
        let now = Instant::now();
        let mut held = self.attempts.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if held.len() >= MAX_BUCKETS {
            held.retain(|_, (_, at)| now.duration_since(*at) < HELD_FOR);
        }
        if held.len() < MAX_BUCKETS {
            held.insert(pi_id.to_string(), (ip, now));
        }
    }

    /// PaymentIntent `pi_id` succeeded and its order was written: the failed
    /// attempt taken for it is given back to its client address (once).
    pub fn paid(&self, pi_id: &str) {
        let entry = self.attempts.lock().unwrap_or_else(std::sync::PoisonError::into_inner).remove(pi_id);
        if let Some((ip, at)) = entry {
            if at.elapsed() < HELD_FOR {
                self.give_back(Counted::FailedPayment, Some(ip));
            }
        }
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
    /// attempt it was taken for succeeded); never above the hour's worth.
    pub fn give_back(&self, what: Counted, client: Option<IpAddr>) {
        let Some(ip) = client.filter(|_| self.limit > 0).map(per_client) else { return };
        let full = f64::from(self.per_hour(what));
        let mut buckets = self.buckets.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(b) = buckets.get_mut(&(what, ip)) {
            b.tokens = (b.tokens + 1.0).min(full);
        }
    }
}
