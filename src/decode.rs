//! A non-2xx answer into the contract's error (server code, status, request
//! id, `Retry-After`). (2xx bodies are checked by [`crate::jsoncheck`].)

use crate::error::{Error, ErrorCode};
use crate::model::ServerErrorCode;
use serde::de::value::{self, StrDeserializer};
use serde::de::IntoDeserializer;
use serde::Deserialize;

/// Parses a `Retry-After` header given in seconds. (The HTTP-date form is not
/// used by Cirrus servers and yields `None`.)
#[must_use]
pub fn parse_retry_after(value: &str) -> Option<u32> {
    value.trim().parse::<u32>().ok()
}

/// The code a server error body names, by its wire spelling (`None` for a
/// code the contract does not define).
#[must_use]
pub fn server_code(wire: &str) -> Option<ErrorCode> {
    // By `ServerErrorCode`'s serde names, the one spelling of the wire's codes.
    let wire: StrDeserializer<'_, value::Error> = wire.into_deserializer();
    ServerErrorCode::deserialize(wire).ok().map(ErrorCode::from)
}

/// The error of a non-2xx answer from the members of its body as the JS side
/// read them (`code` and `error` when the body is a JSON object holding those
/// as strings, else `None`): the server's code and message when the body is
/// a Cirrus error (CONTRACT.md), else `http` with the status.
#[must_use]
pub fn error_from_fields(
    status: u16,
    code: Option<&str>,
    message: Option<&str>,
    request_id: Option<String>,
    retry_after: Option<&str>,
) -> Error {
    let mut err = match (code.and_then(server_code), message) {
        (Some(code), Some(message)) => Error::new(code, message),
        _ => Error::new(ErrorCode::Http, format!("HTTP {status} with a body that is not a Cirrus error")),
    };
    err.status = Some(status);
    err.request_id = request_id;
    err.retry_after = retry_after.and_then(parse_retry_after);
    err
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_in_seconds() {
        assert_eq!(parse_retry_after(" 12 "), Some(12));
        assert_eq!(parse_retry_after("Wed, 21 Oct 2015 07:28:00 GMT"), None);
    }

    #[test]
    fn error_from_fields_follows_the_contract() {
        let e = error_from_fields(429, Some("rate_limited"), Some("slow down"), Some("req_9".into()), Some("4"));
        assert_eq!((e.code, e.status, e.retry_after), (ErrorCode::RateLimited, Some(429), Some(4)));
        assert_eq!((e.message.as_str(), e.request_id.as_deref()), ("slow down", Some("req_9")));
        for wire in ["invalid_request", "unauthorized", "not_found", "conflict", "payload_too_large", "unsupported_media_type", "processor_error", "internal"] {
            assert_eq!(error_from_fields(400, Some(wire), Some("m"), None, None).code.as_str(), wire);
        }
        // Client-side codes and unknown codes are not taken from a server.
        for code in [Some("no_such_code"), Some("timeout"), Some("invalid_argument"), None] {
            let e = error_from_fields(502, code, Some("m"), None, None);
            assert_eq!((e.code, e.status), (ErrorCode::Http, Some(502)));
            assert_eq!(e.message, "HTTP 502 with a body that is not a Cirrus error");
        }
        let e = error_from_fields(404, Some("not_found"), None, None, Some("soon"));
        assert_eq!((e.code, e.retry_after), (ErrorCode::Http, None), "no message: not a Cirrus error body");
    }
}
