//! Request extractors that answer with the contract's errors: JSON bodies
//! (415 / 413 / 400 naming the field), the API's request bodies checked by the
//! core's rules, and strict query parsing.

use axum::extract::{FromRequest, FromRequestParts, Request};
use axum::http::header;
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;
use cirrus_storefront::endpoint::Body;
use cirrus_storefront::model::ServerErrorCode;

/// Largest accepted request body.
pub const BODY_LIMIT: usize = 64 * 1024;

/// A JSON body: `Content-Type: application/json` (415), at most 64 KiB (413),
/// decoded into `T` (400 naming the JSON path that failed).
pub struct Json<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned> FromRequest<S> for Json<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, _state: &S) -> Result<Self, Self::Rejection> {
        let bytes = read_json_body(req).await?;
        let mut de = serde_json::Deserializer::from_slice(&bytes);
        let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
            let path = e.path().to_string();
            let inner = e.into_inner();
            let msg = strip_position(&inner.to_string());
            let inner = inner.classify();
            if matches!(inner, serde_json::error::Category::Syntax | serde_json::error::Category::Eof) || path.is_empty() || path == "." || path == "?" {
                ApiError::bad_request(format!("invalid JSON body: {msg}"))
            } else {
                ApiError::bad_request(format!("{path}: {msg}"))
            }
        })?;
        de.end().map_err(|_| ApiError::bad_request("invalid JSON body: trailing characters"))?;
        Ok(Self(value))
    }
}

/// A request body of the API: [`Json`], then the core's rules for it
/// ([`Body::check`], the check the client runs before sending), so the server
/// refuses exactly what the client refuses, with the same message (400
/// `invalid_request`). The one way a handler gets a body of the API.
pub struct Checked<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Body> FromRequest<S> for Checked<T> {
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let Json(body) = Json::<T>::from_request(req, state).await?;
        body.check().map_err(|e| ApiError::bad_request(e.message))?;
        Ok(Self(body))
    }
}

/// Path parameters; a segment that is not percent-encoded UTF-8 (`%FF`) is the
/// contract's 400 instead of axum's plain-text rejection.
pub struct Path<T>(pub T);

impl<S: Send + Sync, T: DeserializeOwned + Send> FromRequestParts<S> for Path<T> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match axum::extract::Path::<T>::from_request_parts(parts, state).await {
            Ok(axum::extract::Path(v)) => Ok(Self(v)),
            Err(axum::extract::rejection::PathRejection::FailedToDeserializePathParams(_)) => {
                Err(ApiError::bad_request("path: a path segment is not valid percent-encoded UTF-8"))
            }
            Err(e) => Err(ApiError::internal(format_args!("path extraction: {e}"))),
        }
    }
}

fn strip_position(msg: &str) -> String {
    msg.find(" at line ").map_or_else(|| msg.to_string(), |i| msg[..i].to_string())
}

/// Checks the content type and the size, and reads the body.
///
/// # Errors
/// 415 without a JSON content type, 413 over [`BODY_LIMIT`].
pub async fn read_json_body(req: Request) -> Result<axum::body::Bytes, ApiError> {
    let headers = req.headers();
    let ct = headers.get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("");
    let mime = ct.split(';').next().unwrap_or("").trim();
    if !mime.eq_ignore_ascii_case("application/json") {
        return Err(ApiError::new(
            ServerErrorCode::UnsupportedMediaType,
            "Content-Type must be application/json",
        ));
    }
    let too_large = || {
        ApiError::new(ServerErrorCode::PayloadTooLarge, format!("request body is over {} KiB", BODY_LIMIT / 1024))
    };
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > BODY_LIMIT as u64) {
        return Err(too_large());
    }
    axum::body::to_bytes(req.into_body(), BODY_LIMIT).await.map_err(|_| too_large())
}

/// Most query parameters accepted in one request.
pub const MAX_QUERY_PARAMS: usize = 64;

/// Query string pairs, decoded by `form_urlencoded` (the `url` crate's WHATWG
/// application/x-www-form-urlencoded parser: `+` is a space, `%XX` a byte, invalid UTF-8
/// replaced); a repeated parameter or more than [`MAX_QUERY_PARAMS`] is a 400.
///
/// # Errors
/// 400 naming a repeated parameter, or for too many parameters.
pub fn query_pairs(raw: Option<&str>) -> Result<Vec<(String, String)>, ApiError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for (k, v) in form_urlencoded::parse(raw.unwrap_or("").as_bytes()) {
        if out.len() == MAX_QUERY_PARAMS {
            return Err(ApiError::bad_request(format!("query: more than {MAX_QUERY_PARAMS} parameters")));
        }
        if out.iter().any(|(seen, _)| *seen == k) {
            return Err(ApiError::bad_request(format!("{k}: given more than once")));
        }
        out.push((k.into_owned(), v.into_owned()));
    }
    Ok(out)
}

/// `true` / `false` (exactly), naming the parameter otherwise.
///
/// # Errors
/// 400 for anything else.
pub fn parse_bool(name: &str, v: &str) -> Result<bool, ApiError> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(ApiError::bad_request(format!("{name}: must be true or false, got {v:?}"))),
    }
}

/// A decimal integer in `min..=max`, naming the parameter otherwise.
///
/// # Errors
/// 400 for non-integers and out-of-range values.
pub fn parse_int(name: &str, v: &str, min: u64, max: u64) -> Result<u64, ApiError> {
    let n = if !v.is_empty() && v.bytes().all(|b| b.is_ascii_digit()) { v.parse::<u64>().ok() } else { None };
    match n {
        Some(n) if (min..=max).contains(&n) => Ok(n),
        Some(_) => Err(ApiError::bad_request(format!("{name}: must be between {min} and {max}, got {v}"))),
        None => Err(ApiError::bad_request(format!("{name}: must be an integer, got {v:?}"))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_pairs_decode_as_forms_do_and_refuse_repeats_and_floods() {
        let pairs = query_pairs(Some("a+b=c+d&%C3%A9=%E2%82%AC&k=%FF&&flag&limit=%35")).unwrap();
        let want = [("a b", "c d"), ("é", "€"), ("k", "\u{FFFD}"), ("flag", ""), ("limit", "5")];
        assert_eq!(pairs, want.map(|(k, v)| (k.to_string(), v.to_string())));
        assert_eq!(query_pairs(None).unwrap(), []);
        // A repeat is found after decoding, and named.
        let e = query_pairs(Some("limit=1&%6Cimit=2")).unwrap_err();
        assert_eq!((e.code, e.message.as_str()), (ServerErrorCode::InvalidRequest, "limit: given more than once"));
        let many = |n: usize| (0..n).map(|i| format!("p{i}=1")).collect::<Vec<_>>().join("&");
        assert_eq!(query_pairs(Some(&many(MAX_QUERY_PARAMS))).unwrap().len(), MAX_QUERY_PARAMS);
        assert!(query_pairs(Some(&many(MAX_QUERY_PARAMS + 1))).unwrap_err().message.contains("more than 64 parameters"));
    }
}
