//! The one error type of the core. At the wasm boundary it becomes a JS
//! `CirrusError` carrying [`ErrorCode`] as a string-literal union, the HTTP
//! status and the server's `x-request-id`.

use core::fmt;

use serde::{Deserialize, Serialize};

use crate::model::ServerErrorCode;

/// Every code a `CirrusError` can carry. Client-side codes first, then the
/// server codes of CONTRACT.md (which keep their wire spelling).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ErrorCode {
    /// An argument was rejected before any request was made.
    InvalidArgument,
    /// An operation is not allowed in the current state (checkout steps).
    InvalidState,
    /// The request could not be sent or the connection failed.
    Network,
    /// No complete response within `timeoutMs`.
    Timeout,
    /// The caller's `AbortSignal` fired.
    Aborted,
    /// The response body is not what the contract says (the message names the JSON path).
    Decode,
    /// An HTTP error status the contract does not define (for example a proxy's 503).
    Http,
    InvalidRequest,
    Unauthorized,
    NotFound,
    Conflict,
    PayloadTooLarge,
    UnsupportedMediaType,
    RateLimited,
    ProcessorError,
    Internal,
}

impl ErrorCode {
    /// The wire / JS spelling, e.g. `"invalid_argument"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Self::InvalidArgument => "invalid_argument",
            Self::InvalidState => "invalid_state",
            Self::Network => "network",
            Self::Timeout => "timeout",
            Self::Aborted => "aborted",
            Self::Decode => "decode",
            Self::Http => "http",
            Self::InvalidRequest => "invalid_request",
            Self::Unauthorized => "unauthorized",
            Self::NotFound => "not_found",
            Self::Conflict => "conflict",
            Self::PayloadTooLarge => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::RateLimited => "rate_limited",
            Self::ProcessorError => "processor_error",
            Self::Internal => "internal",
        }
    }
}

impl From<ServerErrorCode> for ErrorCode {
    fn from(code: ServerErrorCode) -> Self {
        match code {
            ServerErrorCode::InvalidRequest => Self::InvalidRequest,
            ServerErrorCode::Unauthorized => Self::Unauthorized,
            ServerErrorCode::NotFound => Self::NotFound,
            ServerErrorCode::Conflict => Self::Conflict,
            ServerErrorCode::PayloadTooLarge => Self::PayloadTooLarge,
            ServerErrorCode::UnsupportedMediaType => Self::UnsupportedMediaType,
            ServerErrorCode::RateLimited => Self::RateLimited,
            ServerErrorCode::ProcessorError => Self::ProcessorError,
            ServerErrorCode::Internal => Self::Internal,
        }
    }
}

/// The contract's status of each server code, both ways (CONTRACT.md "Errors"): the client
/// reads a code from a body, the dev server answers each code with its status.
impl ServerErrorCode {
    /// The HTTP status the contract pairs with this code.
    #[must_use]
    pub const fn status(self) -> u16 {
        match self {
            Self::InvalidRequest => 400,
            Self::Unauthorized => 401,
            Self::NotFound => 404,
            Self::Conflict => 409,
            Self::PayloadTooLarge => 413,
            Self::UnsupportedMediaType => 415,
            Self::RateLimited => 429,
            Self::ProcessorError => 502,
            Self::Internal => 500,
        }
    }

    /// Every code, in the contract's table order.
    pub const ALL: [Self; 9] = [
        Self::InvalidRequest,
        Self::Unauthorized,
        Self::NotFound,
        Self::Conflict,
        Self::PayloadTooLarge,
        Self::UnsupportedMediaType,
        Self::RateLimited,
        Self::ProcessorError,
        Self::Internal,
    ];

    /// The code of an error answered with `status`: the inverse of [`Self::status`]; 405
    /// (a route without that method) is `not_found` like an unknown route; any status the
    /// contract does not list is `internal`.
    #[must_use]
    pub fn for_status(status: u16) -> Self {
        if status == 405 {
            return Self::NotFound;
        }
        Self::ALL.into_iter().find(|c| c.status() == status).unwrap_or(Self::Internal)
    }
}

impl fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// An error of the core, with everything a caller needs to act on it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{code}: {message}")]
#[non_exhaustive]
pub struct Error {
    pub code: ErrorCode,
    pub message: String,
    /// HTTP status, when the error came from a response.
    pub status: Option<u16>,
    /// The server's `x-request-id`, when there was a response.
    pub request_id: Option<String>,
    /// Seconds from `Retry-After`, when the server sent one.
    pub retry_after: Option<u32>,
}

impl Error {
    /// An error with no HTTP context.
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self::of(code, message.into())
    }

    /// [`Error::new`] without the generic conversion, not inlined: one copy
    /// in the wasm rather than one per call site (1.7 KB raw less).
    #[inline(never)]
    fn of(code: ErrorCode, message: String) -> Self {
        Self { code, message, status: None, request_id: None, retry_after: None }
    }

    /// `invalid_argument` naming the offending argument.
    pub fn invalid_argument(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidArgument, message)
    }

    /// `invalid_state`: the operation is not allowed now.
    pub fn invalid_state(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::InvalidState, message)
    }

    /// `decode`, naming the JSON path that failed.
    pub fn decode(message: impl Into<String>) -> Self {
        Self::new(ErrorCode::Decode, message)
    }

    #[must_use]
    pub fn with_status(mut self, status: u16) -> Self {
        self.status = Some(status);
        self
    }

    #[must_use]
    pub fn with_request_id(mut self, request_id: Option<String>) -> Self {
        self.request_id = request_id;
        self
    }
}

/// The core's result type.
pub type Result<T, E = Error> = core::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_and_code_pair_both_ways() {
        for code in ServerErrorCode::ALL {
            assert_eq!(ServerErrorCode::for_status(code.status()), code, "{code:?}");
        }
        assert_eq!(ServerErrorCode::for_status(405), ServerErrorCode::NotFound);
        assert_eq!(ServerErrorCode::for_status(503), ServerErrorCode::Internal);
        assert_eq!(ServerErrorCode::for_status(418), ServerErrorCode::Internal);
    }

    #[test]
    fn server_codes_keep_their_wire_spelling() {
        for code in [
            ServerErrorCode::InvalidRequest,
            ServerErrorCode::Unauthorized,
            ServerErrorCode::NotFound,
            ServerErrorCode::Conflict,
            ServerErrorCode::PayloadTooLarge,
            ServerErrorCode::UnsupportedMediaType,
            ServerErrorCode::RateLimited,
            ServerErrorCode::ProcessorError,
            ServerErrorCode::Internal,
        ] {
            let wire = serde_json::to_value(code).unwrap();
            assert_eq!(wire.as_str().unwrap(), ErrorCode::from(code).as_str());
        }
    }

    /// `as_str` (what a JS `CirrusError.code` is) spells every code as serde does, which is
    /// the one spelling: the TS `ErrorCode` union and the schemas are generated from serde.
    #[test]
    fn as_str_is_the_serde_name() {
        use ErrorCode as C;
        let all = [
            C::InvalidArgument, C::InvalidState, C::Network, C::Timeout, C::Aborted, C::Decode, C::Http, C::InvalidRequest,
            C::Unauthorized, C::NotFound, C::Conflict, C::PayloadTooLarge, C::UnsupportedMediaType, C::RateLimited,
            C::ProcessorError, C::Internal,
        ];
        // A new code must be listed above: this match fails to compile until it is.
        for c in all {
            match c {
                C::InvalidArgument | C::InvalidState | C::Network | C::Timeout | C::Aborted | C::Decode | C::Http
                | C::InvalidRequest | C::Unauthorized | C::NotFound | C::Conflict | C::PayloadTooLarge
                | C::UnsupportedMediaType | C::RateLimited | C::ProcessorError | C::Internal => {}
            }
            assert_eq!(serde_json::to_value(c).unwrap(), c.as_str(), "{c:?}");
            assert_eq!(serde_json::from_value::<ErrorCode>(c.as_str().into()).unwrap(), c);
        }
    }

    #[test]
    fn display_leads_with_the_code() {
        let e = Error::invalid_argument("limit must be 1..=500, got 0").with_status(400);
        assert_eq!(e.to_string(), "invalid_argument: limit must be 1..=500, got 0");
        assert_eq!(e.status, Some(400));
    }
}
