//! `POST /api/v1/webhooks/stripe` (CONTRACT.md's `POST /webhooks/stripe` under
//! the base URL, like every endpoint): the processor's events (CONTRACT.md "Payments":
//! the server settles a payment that authorized or succeeded without a confirm
//! coming back).
//!
//! Every event is verified as Stripe signs it: header
//! `Stripe-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`
//! with the endpoint secret (`STRIPE_WEBHOOK_SECRET`), compared in constant
//! time, `t` within [`TOLERANCE_SECS`] of now. Without a configured secret every
//! event is refused. A verified PaymentIntent event of one of our sessions is
//! settled through [`crate::checkout::settle_event`], which reads the payment
//! back from the processor rather than trusting the event's copy.

use axum::body::Bytes;
use axum::extract::State as AxState;
use axum::http::HeaderMap;
use cirrus_storefront::model::ServerErrorCode;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::checkout::{settle_event, Settled};
use crate::error::{ApiError, ApiResult};
use crate::State;

/// Largest accepted age (or lead) of an event's signature timestamp, seconds.
pub const TOLERANCE_SECS: i64 = 300;
/// Largest accepted event body (the contract's 64 KiB).
const MAX_BODY: usize = 64 * 1024;

/// PaymentIntent events that can leave a payment to settle: authorized
/// (`amount_capturable_updated`, real Stripe with manual capture), captured
/// (`succeeded`), failed (`payment_failed`: its state is recorded), cancelled.
const SETTLED_EVENTS: [&str; 4] = [
    "payment_intent.amount_capturable_updated",
    "payment_intent.succeeded",
    "payment_intent.payment_failed",
    "payment_intent.canceled",
];

/// HMAC-SHA256 (RFC 2104) of `msg` with `key`.
#[must_use]
pub fn hmac_sha256(key: &[u8], msg: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |b: u8| k.map(|x| x ^ b);
    let inner = Sha256::new().chain_update(pad(0x36)).chain_update(msg).finalize();
    Sha256::new().chain_update(pad(0x5c)).chain_update(inner).finalize().into()
}

/// `a == b` in time that depends on the lengths only.
fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Checks a `Stripe-Signature` header for `body` at time `now` (unix seconds).
///
/// # Errors
/// A message naming what is wrong: malformed header, no `v1` signature, a
/// timestamp outside the tolerance, or no signature that matches.
pub fn verify(header: &str, body: &[u8], secret: &str, now: i64) -> Result<(), String> {
    let mut t: Option<i64> = None;
    let mut sigs = Vec::new();
    for part in header.split(',') {
        match part.trim().split_once('=') {
            Some(("t", v)) => t = Some(v.parse().map_err(|_| "Stripe-Signature: t is not a unix timestamp".to_string())?),
            Some(("v1", v)) => sigs.push(v),
            Some(_) => {} // v0 and future schemes are ignored, as Stripe's libraries do
            None => return Err("Stripe-Signature: malformed (expected t=…,v1=…)".into()),
        }
    }
    let t = t.ok_or("Stripe-Signature: no timestamp t")?;
    if sigs.is_empty() {
        return Err("Stripe-Signature: no v1 signature".into());
    }
    // `abs_diff`: any `t` (i64::MIN included) is compared without overflowing.
    if now.abs_diff(t) > TOLERANCE_SECS.unsigned_abs() {
        return Err(format!("Stripe-Signature: timestamp outside the tolerance of {TOLERANCE_SECS} s"));
    }
    let mut signed = t.to_string().into_bytes();
    signed.push(b'.');
    signed.extend_from_slice(body);
    let expected = crate::util::hex(&hmac_sha256(secret.as_bytes(), &signed));
    if sigs.iter().any(|s| constant_time_eq(s.as_bytes(), expected.as_bytes())) {
        Ok(())
    } else {
        Err("Stripe-Signature: no signature matches the endpoint secret".into())
    }
}

fn unix_now() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| i64::try_from(d.as_secs()).unwrap_or(i64::MAX))
}

/// `POST /api/v1/webhooks/stripe`: verifies the event, settles the payment it is about
/// (if it is one of our sessions' current payment) and answers
/// `{ "received": true }`. Events of other types or other sessions are
/// acknowledged and ignored.
///
/// # Errors
/// 400 `invalid_request` for a missing or bad signature (or no configured
/// secret) or an unreadable event, 413 over 64 KiB, 502 `processor_error` when
/// the payment cannot be read or settled now (the processor sends it again).
pub async fn stripe(AxState(state): AxState<State>, headers: HeaderMap, body: Bytes) -> ApiResult<axum::Json<Value>> {
    if body.len() > MAX_BODY {
        return Err(ApiError::new(ServerErrorCode::PayloadTooLarge, "webhook event larger than 64 KiB"));
    }
    let Some(secret) = state.config.stripe_webhook_secret.as_deref() else {
        return Err(ApiError::bad_request("webhook endpoint not configured: STRIPE_WEBHOOK_SECRET is not set"));
    };
    let header = headers
        .get("stripe-signature")
        .ok_or_else(|| ApiError::bad_request("Stripe-Signature: missing header"))?
        .to_str()
        .map_err(|_| ApiError::bad_request("Stripe-Signature: not ASCII"))?;
    verify(header, &body, secret, unix_now()).map_err(ApiError::bad_request)?;
    let event: Value = serde_json::from_slice(&body).map_err(|e| ApiError::bad_request(format!("event: not JSON ({e})")))?;
    let kind = event["type"].as_str().unwrap_or_default();
    let object = &event["data"]["object"];
    let (Some(pi_id), Some(session_id)) = (object["id"].as_str(), object["metadata"]["cirrus_session"].as_str()) else {
        return Ok(axum::Json(json!({ "received": true })));
    };
    if !SETTLED_EVENTS.contains(&kind) || object["object"] != "payment_intent" {
        return Ok(axum::Json(json!({ "received": true })));
    }
    match settle_event(&state, session_id, pi_id).await {
        Ok(Settled::Read(st)) => eprintln!("webhook {kind}: session {session_id} payment {pi_id}: {st:?}"),
        Ok(_) => {}
        // Stock gone: the payment was cancelled (nothing charged): settled too.
        Err(e) if e.code == ServerErrorCode::Conflict => eprintln!("webhook {kind}: session {session_id}: {}", e.message),
        // The processor failed: answer non-2xx so the event is sent again.
        Err(e) => return Err(e),
    }
    Ok(axum::Json(json!({ "received": true })))
}

#[cfg(test)]
mod tests {
    use super::{hmac_sha256, verify};
    use crate::util::hex;

    #[test]
    fn hmac_matches_rfc_4231() {
        // RFC 4231 test cases 2 and 6 (a key longer than the block).
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        assert_eq!(
            hex(&hmac_sha256(&[0xaa; 131], b"Test Using Larger Than Block-Size Key - Hash Key First")),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }

    fn header(t: i64, body: &str, secret: &str) -> String {
        format!("t={t},v1={}", hex(&hmac_sha256(secret.as_bytes(), format!("{t}.{body}").as_bytes())))
    }

    #[test]
    fn signatures() {
        let (body, secret, now) = ("{\"id\":\"evt_1\"}", "whsec_test", 1_700_000_000);
        assert_eq!(verify(&header(now, body, secret), body.as_bytes(), secret, now), Ok(()));
        // Several signatures (a secret being rolled): one match is enough; v0 ignored.
        let h = format!("t={now},v0=abc,v1=00,{}", header(now, body, secret).split(',').nth(1).unwrap());
        assert_eq!(verify(&h, body.as_bytes(), secret, now), Ok(()));
        let bad = |h: &str, b: &str, n: i64| verify(h, b.as_bytes(), secret, n).unwrap_err();
        assert!(bad(&header(now, body, "whsec_other"), body, now).contains("no signature matches"));
        assert!(bad(&header(now, body, secret), "{\"id\":\"evt_2\"}", now).contains("no signature matches"), "body changed");
        assert!(bad(&header(now - 301, body, secret), body, now).contains("tolerance"), "stale");
        assert!(bad(&header(now + 301, body, secret), body, now).contains("tolerance"), "from the future");
        assert_eq!(verify(&header(now - 300, body, secret), body.as_bytes(), secret, now), Ok(()));
        assert!(bad("v1=abc", body, now).contains("no timestamp"));
        assert!(bad(&format!("t={now}"), body, now).contains("no v1"));
        assert!(bad("garbage", body, now).contains("malformed"));
        assert!(bad("t=x,v1=00", body, now).contains("unix timestamp"));
        assert!(bad(&format!("t={},v1=00", i64::MIN), body, now).contains("tolerance"), "no overflow");
        assert!(bad(&format!("t={},v1=00", i64::MAX), body, -now).contains("tolerance"), "no overflow");
    }
}
