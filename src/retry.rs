//! Retry policy as a pure function: given the attempt, whether the request may
//! be resent, what happened and a random number, retry after N ms or give up.
//!
//! Exponential backoff with jitter (base 250 ms, doubling, capped at 8 s; the
//! wait is drawn from the upper half of the window), `Retry-After` honoured
//! (up to 60 s; a longer one gives up at once). Only retryable requests (GETs
//! and shipping rates, never payments) are resent, and only after a network
//! failure, a timeout, or 429/500/502/503/504.

/// First backoff window.
pub const BASE_DELAY_MS: u32 = 250;
/// Largest backoff window.
pub const MAX_DELAY_MS: u32 = 8_000;
/// A `Retry-After` longer than this is not waited for.
pub const MAX_RETRY_AFTER_S: u32 = 60;

/// Whether a request may be sent again after a failed attempt: a property of
/// its endpoint ([`crate::endpoint::Endpoint::retry`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Policy {
    /// GETs and shipping rates: resent after a transient failure.
    Retried,
    /// Payments: sent exactly once, whatever happens.
    SentOnce,
}

/// What one attempt ended with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    /// The request could not be sent or the connection broke.
    Network,
    /// No response within the timeout.
    Timeout,
    /// A response with this status and optional `Retry-After` seconds.
    Status { status: u16, retry_after: Option<u32> },
}

/// Whether an outcome is worth another attempt at all.
#[must_use]
pub const fn is_transient(outcome: Outcome) -> bool {
    match outcome {
        Outcome::Network | Outcome::Timeout => true,
        Outcome::Status { status, .. } => matches!(status, 429 | 500 | 502 | 503 | 504),
    }
}

/// Decides whether to retry.
///
/// `attempt` counts the attempts already made (1 after the first), `retries`
/// is the client's budget of retries, `random` is uniform in `[0, 1)`.
/// Returns the wait in milliseconds before the next attempt, or `None`.
#[must_use]
pub fn next_delay(attempt: u32, retries: u32, policy: Policy, outcome: Outcome, random: f64) -> Option<u32> {
    if policy == Policy::SentOnce || attempt == 0 || attempt > retries || !is_transient(outcome) {
        return None;
    }
    if let Outcome::Status { retry_after: Some(secs), .. } = outcome {
        return (secs <= MAX_RETRY_AFTER_S).then_some(secs * 1000);
    }
    let window = BASE_DELAY_MS.saturating_mul(1u32 << (attempt - 1).min(16)).min(MAX_DELAY_MS);
    let random = if random.is_finite() { random.clamp(0.0, 1.0) } else { 0.0 };
    let half = window / 2;
    // Truncation is intended: a jitter in whole milliseconds.
    #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
    let jitter = (f64::from(window - half) * random) as u32;
    Some(half + jitter.min(window - half))
}

/// [`next_delay`] from what the transport saw: `status` 0 means no response
/// (a network failure or a timeout, which the policy treats alike), else the
/// HTTP status with its raw `Retry-After` header.
#[must_use]
pub fn decide(attempt: u32, retries: u32, policy: Policy, status: u16, retry_after: Option<&str>, random: f64) -> Option<u32> {
    let outcome = if status == 0 {
        Outcome::Network
    } else {
        Outcome::Status { status, retry_after: retry_after.and_then(crate::decode::parse_retry_after) }
    };
    next_delay(attempt, retries, policy, outcome, random)
}

#[cfg(test)]
mod tests {
    use super::*;
    use Policy::{Retried as R, SentOnce as O};

    const S500: Outcome = Outcome::Status { status: 500, retry_after: None };

    #[test]
    fn backoff_doubles_with_jitter_in_the_upper_half() {
        assert_eq!(next_delay(1, 5, R, S500, 0.0), Some(125));
        assert_eq!(next_delay(1, 5, R, S500, 0.999_999), Some(249));
        assert_eq!(next_delay(2, 5, R, S500, 0.0), Some(250));
        assert_eq!(next_delay(3, 5, R, Outcome::Timeout, 0.5), Some(750));
        assert_eq!(next_delay(10, 10, R, Outcome::Network, 1.0), Some(MAX_DELAY_MS));
        assert_eq!(next_delay(1, 5, R, S500, f64::NAN), Some(125));
    }

    #[test]
    fn budget_is_respected() {
        assert!(next_delay(2, 2, R, S500, 0.0).is_some());
        assert_eq!(next_delay(3, 2, R, S500, 0.0), None);
        assert_eq!(next_delay(1, 0, R, S500, 0.0), None);
    }

    #[test]
    fn only_transient_outcomes_of_retryable_requests() {
        for status in [429, 500, 502, 503, 504] {
            assert!(next_delay(1, 2, R, Outcome::Status { status, retry_after: None }, 0.0).is_some(), "{status}");
        }
        for status in [400, 401, 404, 409, 413, 415, 501, 200] {
            assert_eq!(next_delay(1, 2, R, Outcome::Status { status, retry_after: None }, 0.0), None, "{status}");
        }
        assert_eq!(next_delay(1, 2, O, S500, 0.0), None, "payments are never retried");
        assert_eq!(next_delay(1, 2, O, Outcome::Network, 0.0), None);
    }

    #[test]
    fn retry_after_is_honoured() {
        let o = Outcome::Status { status: 429, retry_after: Some(2) };
        assert_eq!(next_delay(1, 2, R, o, 0.9), Some(2000));
        let o = Outcome::Status { status: 503, retry_after: Some(0) };
        assert_eq!(next_delay(1, 2, R, o, 0.9), Some(0));
        let o = Outcome::Status { status: 429, retry_after: Some(61) };
        assert_eq!(next_delay(1, 2, R, o, 0.9), None);
    }

    #[test]
    fn decide_reads_status_and_retry_after_header() {
        assert_eq!(decide(1, 2, R, 0, None, 0.0), Some(125), "no response: network or timeout");
        assert_eq!(decide(1, 2, R, 429, Some("1"), 0.5), Some(1000));
        assert_eq!(decide(1, 2, R, 503, Some(" 3 "), 0.5), Some(3000));
        assert_eq!(decide(1, 2, R, 429, Some("Wed, 21 Oct 2015 07:28:00 GMT"), 0.0), Some(125), "a date: plain backoff");
        assert_eq!(decide(1, 2, R, 429, Some("120"), 0.0), None, "too long to wait");
        assert_eq!(decide(1, 2, R, 404, None, 0.0), None);
        assert_eq!(decide(1, 2, O, 0, None, 0.0), None, "payments are never retried");
        assert_eq!(decide(1, 2, O, 503, Some("1"), 0.0), None);
        assert_eq!(decide(3, 2, R, 500, None, 0.0), None);
    }
}
