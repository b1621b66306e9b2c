//! Every error is the contract's JSON body, even one the framework produced
//! (the www dir's page answers unknown page paths with a 404 of its own).

use axum::extract::Request;
use axum::http::{header, HeaderMap, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;

fn is_json(h: &HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| v.starts_with("application/json"))
}

/// The contract error for a status some layer answered without a JSON body.
fn framework_error(status: StatusCode) -> ApiError {
    ApiError::with_status(status.as_u16(), format!("request rejected: {}", status.canonical_reason().unwrap_or("error").to_lowercase()))
}

/// Replaces an error response that is not JSON (nor the www dir's page) by the contract's.
pub async fn json_errors(req: Request, next: Next) -> Response {
    let resp = next.run(req).await;
    let status = resp.status();
    if (status.is_client_error() || status.is_server_error()) && !is_json(resp.headers()) && !crate::www::is_page(&resp) {
        return framework_error(status).into_response();
    }
    resp
}
