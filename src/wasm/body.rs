//! 2xx bodies: the text `Response.text()` gave (the engine's UTF-8 decode) is
//! copied into wasm memory as UTF-8 by the engine's `TextEncoder.encodeInto`,
//! writing straight into a Rust buffer; checked there against the response
//! schema of its endpoint ([`crate::jsoncheck`], one allocation-free pass over
//! the bytes); then built into JS objects by the engine's `JSON.parse` of the
//! same JS string (so nullable members are `null` and maps plain objects, and
//! nothing is converted member by member across the boundary).
//!
//! Why text and not bytes (`arrayBuffer()`, one memcpy into wasm memory, then
//! `TextDecoder` for `JSON.parse`): measured slower in Chromium, 0.91–0.93x
//! per round for this path (BENCHMARKS.md "Decode speed": the stub's
//! `arrayBuffer()` alone costs more than its `text()`, and the decode is still
//! needed for `JSON.parse`). Why not `String::from(&JsString)`: wasm-bindgen's
//! glue copies an ASCII string into wasm memory one code unit at a time in JS
//! (`charCodeAt`); a call with this copy takes 0.88–0.90x the time of one
//! with that copy, per round.

use js_sys::{JsString, Uint8Array};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::endpoint::Call;
use crate::error::{Error, Result};

use super::http::Answer;
use super::js::{get, json_parse};

#[wasm_bindgen]
extern "C" {
    /// The engine's UTF-8 encoder; web-sys's `encodeInto` takes a `&str`
    /// (the text already in wasm memory), this one the JS string.
    type TextEncoder;
    #[wasm_bindgen(constructor)]
    fn new() -> TextEncoder;
    #[wasm_bindgen(method, js_name = encodeInto)]
    fn encode_into(this: &TextEncoder, text: &JsString, into: &Uint8Array) -> Encoded;

    /// What `encodeInto` did: UTF-16 code units `read`, bytes `written`.
    type Encoded;
    #[wasm_bindgen(method, getter)]
    fn read(this: &Encoded) -> u32;
    #[wasm_bindgen(method, getter)]
    fn written(this: &Encoded) -> u32;
}

/// The largest 2xx body the SDK copies into wasm memory: 8 MiB, counted in
/// UTF-16 code units of the JS string (each is at least one UTF-8 byte, so
/// a longer string is always more than 8 MiB). The largest answer the
/// contract allows (a page of 500 full products, `endpoint::MAX_LIMIT`: about
/// 1.9 MB with the demo seed's, BENCHMARKS.md) is well below it.
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
        return Err(Error::decode(format!("the response body is larger than 8 MiB ({} characters); refused before decoding", u64::from(length))));
    }
    // One copy of the body into wasm memory, one allocation-free pass over it.
    let bytes = utf8(&answer.body);
    crate::jsoncheck::check(&bytes, call.response).map_err(|p| Error::decode(p.text()))?;
    drop(bytes);
    let value = json_parse(&answer.body).map_err(|_| Error::decode("the response body is not valid JSON"))?;
    if call.pagination && get(&value, "pagination").is_undefined() {
        return Err(Error::decode("at pagination: missing field `pagination` (asked for with includePagination)"));
    }
    match call.endpoint.member {
        None => Ok(value),
        Some(m) if value.is_object() => Ok(get(&value, m)),
        Some(_) => Err(Error::decode("the response body could not be read")),
    }
}

/// `text` as UTF-8 in wasm memory (a lone surrogate as U+FFFD, as
/// `String::from(&JsString)`): `encodeInto` the spare capacity of a buffer of
/// one byte per UTF-16 code unit, which holds the whole of an ASCII text; the
/// rest of any other text (at most three bytes per code unit) in a second
/// call. Nothing is zeroed first.
fn utf8(text: &JsString) -> Vec<u8> {
    let units = text.length();
    let encoder = TextEncoder::new();
    let mut out = Vec::with_capacity(units as usize);
    let read = encode_into(&encoder, text, &mut out);
    if read < units {
        out.reserve(3 * (units - read) as usize);
        encode_into(&encoder, &text.slice(read, units), &mut out);
    }
    out
}

/// Encodes `text` after the end of `out`, into its spare capacity; returns
/// the UTF-16 code units read.
fn encode_into(encoder: &TextEncoder, text: &JsString, out: &mut Vec<u8>) -> u32 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    let spare = out.spare_capacity_mut();
    // Wasm addresses are 32 bits: pointers and lengths fit in a u32.
    #[allow(clippy::cast_possible_truncation)]
    let (at, room) = (spare.as_mut_ptr() as u32, spare.len() as u32);
    let view = Uint8Array::new_with_byte_offset_and_length(&memory.buffer(), at, room);
    let done = encoder.encode_into(text, &view);
    let written = done.written().min(room) as usize;
    // SAFETY: the engine wrote `written` bytes (at most `room`, the spare
    // capacity) at the start of the spare capacity; nothing else ran between.
    unsafe { out.set_len(out.len() + written) };
    done.read()
}
