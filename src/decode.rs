//! Response decoding: a 2xx body into a model type (a missing field or a wrong
//! type is a `decode` error naming the JSON path), a non-2xx into the
//! contract's error (server code, status, request id, `Retry-After`).

#[allow(unused_imports)]
use crate::prelude::*;
use crate::text::{cat, uint};

use serde::de::DeserializeOwned;

use crate::error::{Error, ErrorCode, Result};
use crate::model::{ErrorBody, ServerErrorCode};

/// What the transport hands back: the status, the body text and the headers
/// the client cares about.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    pub status: u16,
    pub body: String,
    /// `x-request-id`.
    pub request_id: Option<String>,
    /// `Retry-After`, raw header value.
    pub retry_after: Option<String>,
}

/// Parses a `Retry-After` header given in seconds. (The HTTP-date form is not
/// used by Cirrus servers and yields `None`.)
#[must_use]
pub fn parse_retry_after(value: &str) -> Option<u32> {
    value.trim().parse::<u32>().ok()
}

/// Decodes a JSON body into `T`.
///
/// # Errors
/// `decode`, with the JSON path of the first problem, e.g.
/// ``at products[3].variants[0]: missing field `price` ``, or a note that the body
/// was cut short.
pub fn decode_json<T: DeserializeOwned>(body: &str) -> Result<T> {
    let de = &mut serde_json::Deserializer::from_str(body);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let what = if inner.is_eof() || inner.is_syntax() {
            format!("the response body is not valid JSON (truncated?): {inner}")
        } else {
            inner.to_string()
        };
        Error::decode(if path == "." { what } else { format!("at {path}: {what}") })
    })
}

/// Turns a non-2xx response into the matching [`Error`].
///
/// A body in the contract's shape gives its `code` and message; anything else
/// gives `http` with the status.
#[must_use]
pub fn error_from_response(resp: &Response) -> Error {
    let body = serde_json::from_str::<ErrorBody>(&resp.body).ok();
    error_from_parts(resp.status, body, resp.request_id.clone(), resp.retry_after.as_deref())
}

/// [`error_from_response`] once the body is decoded (`None`: not a Cirrus
/// error body); the wasm transport decodes it from a JS value.
#[must_use]
pub fn error_from_parts(status: u16, body: Option<ErrorBody>, request_id: Option<String>, retry_after: Option<&str>) -> Error {
    let mut err = match body {
        Some(body) => Error::new(ErrorCode::from(body.code), body.error),
        None => Error::new(ErrorCode::Http, cat(&["HTTP ", &uint(status.into()), " with a body that is not a Cirrus error"])),
    };
    err.status = Some(status);
    err.request_id = request_id;
    err.retry_after = retry_after.and_then(parse_retry_after);
    err
}

/// The code a server error body names, by its wire spelling (`None` for a
/// code the contract does not define).
#[must_use]
pub fn server_code(wire: &str) -> Option<ErrorCode> {
    use ServerErrorCode as S;
    [
        S::InvalidRequest,
        S::Unauthorized,
        S::NotFound,
        S::Conflict,
        S::PayloadTooLarge,
        S::UnsupportedMediaType,
        S::RateLimited,
        S::ProcessorError,
        S::Internal,
    ]
    .into_iter()
    .map(ErrorCode::from)
    .find(|c| c.as_str() == wire)
}

/// [`error_from_response`] from the members of the body as the JS side read
/// them (`code` and `error` when the body is a JSON object holding those as
/// strings, else `None`).
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
        _ => Error::new(ErrorCode::Http, cat(&["HTTP ", &uint(status.into()), " with a body that is not a Cirrus error"])),
    };
    err.status = Some(status);
    err.request_id = request_id;
    err.retry_after = retry_after.and_then(parse_retry_after);
    err
}

/// Decodes a whole response: 2xx → `T`, anything else → the error.
///
/// # Errors
/// The server's error for a non-2xx status; `decode` for a 2xx body that does
/// not match `T`. Both carry the status and request id.
pub fn decode_response<T: DeserializeOwned>(resp: &Response) -> Result<T> {
    if !(200..300).contains(&resp.status) {
        return Err(error_from_response(resp));
    }
    decode_json(&resp.body).map_err(|e| e.with_status(resp.status).with_request_id(resp.request_id.clone()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ConfirmResponse, ProductsResponse, StoreResponse};

    fn resp(status: u16, body: &str) -> Response {
        Response { status, body: body.into(), request_id: Some("req_1".into()), retry_after: None }
    }

    #[test]
    fn missing_field_names_the_path() {
        let body = r#"{"products":[{"id":"p","name":"n","slug":"s","images":[{"url":"u"}],"tags":[],"price":"1.00"}]}"#;
        let e = decode_json::<ProductsResponse<crate::model::MinimalProduct>>(body).unwrap_err();
        assert_eq!(e.code, ErrorCode::Decode);
        assert_eq!(e.message, "at products[0].images[0]: missing field `alt` at line 1 column 66");
    }

    #[test]
    fn wrong_type_names_the_path() {
        let body = r#"{"products":[{"id":"p","name":"n","slug":"s","images":[],"tags":[7],"price":"1.00"}]}"#;
        let e = decode_json::<ProductsResponse<crate::model::MinimalProduct>>(body).unwrap_err();
        assert!(e.message.starts_with("at products[0].tags[0]: invalid type: integer `7`, expected a string"), "{}", e.message);
    }

    #[test]
    fn truncated_body_is_decode() {
        let e = decode_response::<StoreResponse>(&resp(200, r#"{"store":{"id":"s","na"#)).unwrap_err();
        assert_eq!(e.code, ErrorCode::Decode);
        assert!(e.message.contains("truncated"), "{}", e.message);
        assert_eq!(e.status, Some(200));
        assert_eq!(e.request_id.as_deref(), Some("req_1"));
    }

    #[test]
    fn server_error_body_keeps_code_status_request_id_retry_after() {
        let mut r = resp(429, r#"{"error":"slow down","code":"rate_limited"}"#);
        r.retry_after = Some("3".into());
        let e = decode_response::<StoreResponse>(&r).unwrap_err();
        assert_eq!((e.code, e.status, e.retry_after), (ErrorCode::RateLimited, Some(429), Some(3)));
        assert_eq!(e.message, "slow down");
        assert_eq!(e.request_id.as_deref(), Some("req_1"));
        let e = decode_response::<StoreResponse>(&resp(404, r#"{"error":"no such slug","code":"not_found"}"#)).unwrap_err();
        assert_eq!(e.code, ErrorCode::NotFound);
    }

    #[test]
    fn non_json_error_is_http() {
        let e = decode_response::<StoreResponse>(&resp(503, "<html>bad gateway</html>")).unwrap_err();
        assert_eq!((e.code, e.status), (ErrorCode::Http, Some(503)));
        let e = decode_response::<StoreResponse>(&resp(500, r#"{"error":"x","code":"no_such_code"}"#)).unwrap_err();
        assert_eq!(e.code, ErrorCode::Http);
    }

    #[test]
    fn ok_body_decodes() {
        let ok = r#"{"success":true,"status":"succeeded","clientSecret":null,"paymentIntentId":"pi_1","error":null}"#;
        let c: ConfirmResponse = decode_response(&resp(200, ok)).unwrap();
        assert!(c.success);
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
        // Same answer as the native decoder of the raw response.
        let r = Response { status: 401, body: r#"{"error":"bad key","code":"unauthorized"}"#.into(), request_id: Some("r".into()), retry_after: None };
        assert_eq!(error_from_response(&r), error_from_fields(401, Some("unauthorized"), Some("bad key"), Some("r".into()), None));
    }
}
