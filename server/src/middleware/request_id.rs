//! The outermost layer: every request gets an id (`req_` and 24 hex digits),
//! kept in its extensions for the access log ([`super::log`]) and sent back as
//! `x-request-id`.

use axum::extract::Request;
use axum::http::HeaderValue;
use axum::middleware::Next;
use axum::response::Response;

use crate::util;

/// The id of a request, in its extensions.
#[derive(Debug, Clone)]
pub struct RequestId(pub String);

/// Gives the request its id and answers it in `x-request-id`.
pub async fn request_id(mut req: Request, next: Next) -> Response {
    let id = format!("req_{}", util::random_hex(12));
    let value = HeaderValue::from_str(&id);
    req.extensions_mut().insert(RequestId(id));
    let mut resp = next.run(req).await;
    if let Ok(v) = value {
        resp.headers_mut().insert("x-request-id", v);
    }
    resp
}
