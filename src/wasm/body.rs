//! Response bodies. A body is read once, as bytes (`Response.arrayBuffer()`);
//! a 2xx body is copied into wasm memory in one copy, checked there against
//! the response schema of its endpoint ([`crate::jsoncheck`], one
//! allocation-free pass over the bytes), then decoded by the engine's
//! `TextDecoder` (as `Response.text()` decodes) and built into JS objects by
//! the engine's `JSON.parse` (so nullable members are `null` and maps plain
//! objects, and nothing is converted member by member across the boundary).
//!
//! What the checker sees is what `Response.text()` would have given
//! `JSON.parse`: a leading UTF-8 byte-order mark is skipped, and a body that
//! is not UTF-8 is checked again with its bad bytes replaced by U+FFFD (only
//! when the first check failed, so a valid body is read once).
//!
//! An `options.fetch` may resolve to a Response-like object with `text()` and
//! no `arrayBuffer()`: its body is read as text and copied into wasm memory
//! from the JS string (UTF-16 to UTF-8), as before bodies were bytes.

use js_sys::{ArrayBuffer, JsString, Reflect, Uint8Array};
use wasm_bindgen::prelude::*;

use crate::endpoint::Call;
use crate::error::{Error, Result};
use crate::jsoncheck::{self, Problem, Root};

use super::http::Answer;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string as it is (js-sys's takes a `&str`, which
    /// would copy the body out of wasm memory once more).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    pub(super) fn json_parse(text: &JsString) -> Result<JsValue, JsValue>;

    /// The engine's UTF-8 decoder (`new TextDecoder()`: replacement
    /// characters for bad bytes, a leading byte-order mark dropped, as
    /// `Response.text()`). web-sys's `decode` returns a Rust `String`, which
    /// would copy the text into wasm memory; this one keeps it a JS string.
    type TextDecoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextDecoder;
    #[wasm_bindgen(method)]
    fn decode(this: &TextDecoder, bytes: &ArrayBuffer) -> JsString;
}

/// The largest 2xx body the SDK copies into wasm memory: 8 MiB (bytes; for a
/// body read as text, UTF-16 code units, each at least one UTF-8 byte). The
/// largest answer the contract allows (a page of 100 full products) is far
/// below it.
pub(crate) const MAX_BODY: u32 = 8 * 1024 * 1024;

/// The UTF-8 byte-order mark `Response.text()` drops.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A response body as it was read.
pub(crate) enum Body {
    /// `Response.arrayBuffer()` (every `Response`).
    Bytes(ArrayBuffer),
    /// `text()` of a Response-like object without `arrayBuffer()`.
    Text(JsString),
}

impl Body {
    /// The body as `Response.text()` gives it.
    pub(crate) fn text(&self) -> JsString {
        match self {
            Body::Bytes(b) => TextDecoder::new().decode(b),
            Body::Text(t) => t.clone(),
        }
    }

    /// Copies the body into wasm memory (refused over [`MAX_BODY`] before
    /// the copy) and checks it against `root`.
    fn check(&self, root: Root) -> Result<(), Problem> {
        let (length, unit) = match self {
            Body::Bytes(b) => (b.byte_length(), " bytes"),
            Body::Text(t) => (t.length(), " characters"),
        };
        if length > MAX_BODY {
            let message =
                crate::text::cat(&["the response body is larger than 8 MiB (", &crate::text::uint(u64::from(length)), unit, "); refused before decoding"]);
            return Err(Problem { path: String::new(), message });
        }
        match self {
            Body::Bytes(b) => {
                let bytes = Uint8Array::new(b).to_vec();
                let body = bytes.strip_prefix(BOM).unwrap_or(&bytes);
                jsoncheck::check(body, root).or_else(|p| match std::str::from_utf8(body) {
                    Ok(_) => Err(p),
                    // What `Response.text()` would have made of it.
                    Err(_) => jsoncheck::check(String::from_utf8_lossy(body).as_bytes(), root),
                })
            }
            Body::Text(t) => jsoncheck::check(String::from(t).as_bytes(), root),
        }
    }
}

/// The caller's value of a 2xx answer to `call`.
///
/// # Errors
/// `decode` naming the JSON path (the caller adds the request and status);
/// `decode` "the response body is larger than 8 MiB (… bytes); refused
/// before decoding" for a body over [`MAX_BODY`], refused before it is copied
/// into wasm memory.
pub(crate) fn decode(answer: &Answer, call: &Call) -> Result<JsValue> {
    answer.body.check(call.response).map_err(|p| Error::decode(p.text()))?;
    let value = json_parse(&answer.body.text()).map_err(|_| Error::decode("the response body is not valid JSON"))?;
    if call.pagination && Reflect::get(&value, &"pagination".into()).map_or(true, |p| p.is_undefined()) {
        return Err(Error::decode("at pagination: missing field `pagination` (asked for with includePagination)"));
    }
    match call.endpoint.member {
        None => Ok(value),
        Some(m) => Reflect::get(&value, &m.into()).map_err(|_| Error::decode("the response body could not be read")),
    }
}
