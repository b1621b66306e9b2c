//! The server's error type: every failure becomes the contract's
//! `{ "error", "code" }` body with the paired status.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use cirrus_storefront::model::{ErrorBody, ServerErrorCode};

/// An error answered to the client (CONTRACT.md "Errors").
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    pub code: ServerErrorCode,
    pub message: String,
    /// Seconds for `Retry-After` (429 / 503).
    pub retry_after: Option<u64>,
    /// Overrides the contract status (used by the fault hooks, e.g. 503 with code `internal`).
    pub status: Option<u16>,
}

impl ApiError {
    pub fn new(code: ServerErrorCode, message: impl Into<String>) -> Self {
        Self { code, message: message.into(), retry_after: None, status: None }
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::InvalidRequest, message)
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::NotFound, message)
    }
    pub fn conflict(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::Conflict, message)
    }
    pub fn unauthorized(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::Unauthorized, message)
    }
    pub fn processor(message: impl Into<String>) -> Self {
        Self::new(ServerErrorCode::ProcessorError, message)
    }
    /// `internal`, with a generic message; the detail goes to the log only.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        eprintln!("internal error: {detail}");
        Self::new(ServerErrorCode::Internal, "internal server error")
    }
    /// An error answered with `status`, its code the contract's row for that status
    /// (the core's table, [`ServerErrorCode::for_status`]).
    pub fn with_status(status: u16, message: impl Into<String>) -> Self {
        let code = ServerErrorCode::for_status(status);
        let mut e = Self::new(code, message);
        e.status = Some(status);
        e
    }
    #[must_use]
    pub fn with_retry_after(mut self, secs: u64) -> Self {
        self.retry_after = Some(secs);
        self
    }
}

impl From<rusqlite::Error> for ApiError {
    fn from(e: rusqlite::Error) -> Self {
        Self::internal(format_args!("sqlite: {e}"))
    }
}

impl From<tokio::task::JoinError> for ApiError {
    fn from(e: tokio::task::JoinError) -> Self {
        Self::internal(format_args!("task: {e}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status.unwrap_or_else(|| self.code.status()))
            .unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
        let body = ErrorBody { error: self.message, code: self.code };
        let json = serde_json::to_vec(&body).unwrap_or_default();
        let mut resp = (status, json).into_response();
        resp.headers_mut()
            .insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        if let Some(secs) = self.retry_after {
            resp.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        resp
    }
}

pub type ApiResult<T> = Result<T, ApiError>;
