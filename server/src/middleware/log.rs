//! The access log: one line per request on stderr, `<request id> <method>
//! <path> <status> <microseconds>us key=<masked key or ->` (never a whole key).

use std::time::Instant;

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;

use super::request_id::RequestId;

/// The masked key of an authenticated request (`ak_1234…`), put on its
/// response by [`super::auth`] for the log line.
#[derive(Debug, Clone)]
pub struct KeyTag(pub String);

/// Writes the request's log line once it is answered.
pub async fn log(req: Request, next: Next) -> Response {
    let start = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_string();
    let id = req.extensions().get::<RequestId>().map_or_else(|| "-".to_string(), |r| r.0.clone());
    let resp = next.run(req).await;
    let key = resp.extensions().get::<KeyTag>().map_or("-", |k| k.0.as_str());
    eprintln!("{id} {method} {path} {} {}us key={key}", resp.status().as_u16(), start.elapsed().as_micros());
    resp
}
