//! Reading JS values: members of objects that may not be objects, and the
//! message of a thrown value. The one place the wasm layer does this.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

/// `obj[key]`, `undefined` when `obj` is not an object or function (or the
/// read throws).
pub(super) fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() || obj.is_function() {
        Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// The `message` member of a thrown JS value, if it has a string one.
#[cfg(any(feature = "cart", feature = "checkout"))]
pub(super) fn message(e: &JsValue) -> Option<String> {
    get(e, "message").as_string()
}
