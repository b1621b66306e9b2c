//! Core [`Error`] → JS `CirrusError`.
//!
//! The `CirrusError` class lives in the package's JS entry (`js/error.ts`),
//! which registers it here from `init()`. Until then (only in bare
//! wasm-bindgen tests) errors are plain JS `Error`s with the same fields.

use std::cell::RefCell;

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::prelude::*;

use crate::error::Error;

thread_local! {
    static ERROR_CLASS: RefCell<Option<Function>> = const { RefCell::new(None) };
}

/// Called once by the JS entry's `init()` with the `CirrusError` class.
#[wasm_bindgen(js_name = __registerErrorClass, skip_typescript)]
pub fn register_error_class(class: Function) {
    ERROR_CLASS.with(|c| *c.borrow_mut() = Some(class));
}

fn opt_str(v: Option<&str>) -> JsValue {
    v.map_or(JsValue::NULL, JsValue::from_str)
}

/// The fields of a `CirrusError`: `{ code, status, requestId, retryAfter }`
/// (absent values are `null`).
pub(crate) fn fields(e: &Error) -> Object {
    let o = Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&o, &JsValue::from_str(k), &v);
    };
    set("code", JsValue::from_str(e.code.as_str()));
    set("status", e.status.map_or(JsValue::NULL, JsValue::from));
    set("requestId", opt_str(e.request_id.as_deref()));
    set("retryAfter", e.retry_after.map_or(JsValue::NULL, JsValue::from));
    o
}

/// Converts a core error into the JS value to throw / reject with: a
/// `CirrusError` (`code`, `status`, `requestId`, `retryAfter`, `message`).
pub(crate) fn to_js(e: &Error) -> JsValue {
    let fields = fields(e);
    let msg = JsValue::from_str(&e.message);
    let class = ERROR_CLASS.with(|c| c.borrow().clone());
    if let Some(class) = class {
        if let Ok(v) = Reflect::construct(&class, &js_sys::Array::of2(&msg, &fields)) {
            return v;
        }
    }
    let err = js_sys::Error::new(&e.message);
    err.set_name("CirrusError");
    let _ = Object::assign(&err, &fields);
    err.into()
}

impl From<Error> for JsValue {
    fn from(e: Error) -> Self {
        to_js(&e)
    }
}
