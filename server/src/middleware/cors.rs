//! CORS: a page of an allowed origin (`Config::allows_origin`) may call the
//! server. [`cors`] (outside the `Host` check) puts the headers on every
//! response, a refusal included; [`preflight`] (inside it) answers preflights.

use axum::extract::{Request, State as AxState};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::State;

/// The request's `Origin` when the configuration allows it.
fn allowed_origin(state: &State, headers: &HeaderMap) -> Option<HeaderValue> {
    let origin = headers.get(header::ORIGIN)?;
    let o = origin.to_str().ok()?;
    state.config.allows_origin(o).then(|| origin.clone())
}

/// Adds `access-control-allow-origin` and `-expose-headers` for an allowed
/// origin, and `Vary: Origin` always.
pub async fn cors(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    let origin = allowed_origin(&state, req.headers());
    let mut resp = next.run(req).await;
    let h = resp.headers_mut();
    if let Some(o) = origin {
        h.insert(header::ACCESS_CONTROL_ALLOW_ORIGIN, o);
        h.insert(header::ACCESS_CONTROL_EXPOSE_HEADERS, HeaderValue::from_static("x-request-id, retry-after"));
    }
    h.append(header::VARY, HeaderValue::from_static("Origin"));
    resp
}

/// Answers a preflight (`OPTIONS` with `access-control-request-method`): 204,
/// with the methods and headers allowed when the origin is.
pub async fn preflight(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    if req.method() != Method::OPTIONS || !req.headers().contains_key(header::ACCESS_CONTROL_REQUEST_METHOD) {
        return next.run(req).await;
    }
    let mut r = StatusCode::NO_CONTENT.into_response();
    if allowed_origin(&state, req.headers()).is_some() {
        let h = r.headers_mut();
        h.insert(header::ACCESS_CONTROL_ALLOW_METHODS, HeaderValue::from_static("GET, POST, DELETE, OPTIONS"));
        h.insert(header::ACCESS_CONTROL_ALLOW_HEADERS, HeaderValue::from_static("authorization, content-type, x-request-id"));
        h.insert(header::ACCESS_CONTROL_MAX_AGE, HeaderValue::from_static("600"));
    }
    r
}
