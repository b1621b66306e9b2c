//! Core [`Error`] → JS `CirrusError`.
//!
//! The `CirrusError` class lives in the package's JS entry (`js/error.ts`),
//! which registers it here from `init()`. Until then (only in bare
//! wasm-bindgen tests) errors are plain JS `Error`s with the same fields.
//! The error is built by a small JS import from primitives (no object built
//! member by member through `js-sys`), and the wasm keeps no JS state.

use wasm_bindgen::prelude::*;

use crate::error::Error;

#[wasm_bindgen(inline_js = "let C;export function r(c){C=c}\
export function e(m,code,s,q,a){const f={code,status:s<0?null:s,requestId:q??null,retryAfter:a<0?null:a};\
if(C)return new C(m,f);const x=new Error(m);x.name='CirrusError';return Object.assign(x,f)}")]
extern "C" {
    #[wasm_bindgen(js_name = r)]
    fn register(class: JsValue);
    #[wasm_bindgen(js_name = e)]
    fn make(message: &str, code: &str, status: f64, request_id: Option<&str>, retry_after: f64) -> JsValue;
}

/// Called once by the JS entry's `init()` with the `CirrusError` class.
#[wasm_bindgen(js_name = __registerErrorClass, skip_typescript)]
pub fn register_error_class(class: JsValue) {
    register(class);
}

/// Converts a core error into the JS value to throw / reject with: a
/// `CirrusError` (`code`, `status`, `requestId`, `retryAfter`, `message`;
/// absent values are `null`).
pub(crate) fn to_js(e: &Error) -> JsValue {
    make(
        &e.message,
        e.code.as_str(),
        e.status.map_or(-1.0, f64::from),
        e.request_id.as_deref(),
        e.retry_after.map_or(-1.0, f64::from),
    )
}

impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        to_js(&e)
    }
}
