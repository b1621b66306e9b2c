//! Bearer auth of the API routes against the stored key hashes, then the
//! request-rate limiter ([`super::limit::RateLimiter`]).

use axum::extract::{Request, State as AxState};
use axum::http::{header, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use cirrus_storefront::model::ServerErrorCode;

use super::limit::{client_addr, Limit, KEY_SHARE};
use super::log::KeyTag;
use crate::error::ApiError;
use crate::{util, State};

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
