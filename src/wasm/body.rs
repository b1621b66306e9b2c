//! 2xx bodies: checked against the response schema of their endpoint in wasm
//! memory ([`crate::jsoncheck`], one allocation-free pass over the bytes),
//! then built into JS objects by the engine's `JSON.parse` (so nullable
//! members are `null` and maps plain objects, and nothing is converted member
//! by member across the boundary).

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::endpoint::Call;
use crate::error::{Error, Result};

use super::http::Answer;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string as it is (js-sys's takes a `&str`, which
    /// would copy the body out of wasm memory once more).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
}

/// The largest 2xx body the SDK copies into wasm memory: 8 MiB, counted in
/// UTF-16 code units of the JS string (each is at least one UTF-8 byte, so
/// a longer string is always more than 8 MiB). The largest answer the
/// contract allows (a page of 100 full products) is far below it.
pub(crate) const MAX_BODY: u32 = 8 * 1024 * 1024;

/// The caller's value of a 2xx answer to `call`.
///
/// # Errors
/// `decode` naming the JSON path (the caller adds the request and status);
/// `decode` "the response body is larger than 8 MiB …" for a body over
/// [`MAX_BODY`], refused before it is copied into wasm memory.
pub(crate) fn decode(answer: &Answer, call: &Call) -> Result<JsValue> {
    let length = answer.body.length();
    if length > MAX_BODY {
        return Err(Error::decode(crate::text::cat(&[
            "the response body is larger than 8 MiB (",
            &crate::text::uint(u64::from(length)),
            " characters); refused before decoding",
        ])));
    }
    // One copy of the body into wasm memory, one allocation-free pass over it.
    let text = String::from(&answer.body);
    crate::jsoncheck::check(text.as_bytes(), call.response).map_err(|p| Error::decode(p.text()))?;
    drop(text);
    let value = json_parse(&answer.body).map_err(|_| Error::decode("the response body is not valid JSON"))?;
    if call.pagination && Reflect::get(&value, &"pagination".into()).map_or(true, |p| p.is_undefined()) {
        return Err(Error::decode("at pagination: missing field `pagination` (asked for with includePagination)"));
    }
    match call.endpoint.member {
        None => Ok(value),
        Some(m) => Reflect::get(&value, &m.into()).map_err(|_| Error::decode("the response body could not be read")),
    }
}
