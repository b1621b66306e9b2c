//! The test hooks' faults on requests: armed through `POST /__test/faults`
//! ([`crate::hooks`]), each applied to the next matching request(s): an error
//! status, a slow answer or a truncated body.

use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State as AxState};
use axum::http::header;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use crate::error::ApiError;
use crate::State;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum FaultKind {
    Status,
    Truncated,
    Slow,
}

/// One armed fault (ARCHITECTURE.md "Test hooks").
#[derive(Debug, Clone)]
pub struct Fault {
    pub method: String,
    pub path: String,
    pub kind: FaultKind,
    pub status: u16,
    pub times: u32,
    pub retry_after: u64,
    pub delay_ms: u64,
}

/// Takes one use of the first fault matching `method` and `path`.
pub fn take_fault(state: &State, method: &str, path: &str) -> Option<Fault> {
    crate::util::take_armed(&state.faults, |f| f.method == method && f.path == path, |f| &mut f.times)
}

/// Test hooks: applies an armed fault to a matching request.
pub async fn faults(AxState(state): AxState<State>, req: Request, next: Next) -> Response {
    if !state.config.test_hooks || req.uri().path().starts_with("/__test/") {
        return next.run(req).await;
    }
    let fault = take_fault(&state, req.method().as_str(), req.uri().path());
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
