//! Reading JS values: members of objects that may not be objects, the
//! message of a thrown value, `JSON.parse`, safe integers, a value shown in a
//! message. The one place the wasm layer does each of these.

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string as it is (js-sys's takes a `&str`, which
    /// would copy a response body out of wasm memory once more).
    #[cfg(any(feature = "client", feature = "cart", feature = "checkout"))]
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    pub(super) fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
}

/// `JSON.parse` of a Rust string (stored records).
#[cfg(any(feature = "cart", feature = "checkout"))]
pub(super) fn parse_json(text: &str) -> Result<JsValue, JsValue> {
    json_parse(&js_sys::JsString::from(text))
}

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
pub(super) fn message(e: &JsValue) -> Option<String> {
    get(e, "message").as_string()
}

/// What a thrown JS value says: its [`message`], the value itself when a string was
/// thrown, else "unknown error".
#[cfg(any(feature = "cart", feature = "checkout"))]
pub(super) fn error_text(e: &JsValue) -> String {
    message(e).or_else(|| e.as_string()).unwrap_or_else(|| "unknown error".to_owned())
}

/// A short rendering of a JS value for messages (JSON, at most 40 characters).
pub(super) fn show(v: &JsValue) -> String {
    if v.is_undefined() {
        return "undefined".to_owned();
    }
    match js_sys::JSON::stringify(v).ok().and_then(|s| s.as_string()) {
        Some(t) if t.chars().count() > 40 => format!("{}…", t.chars().take(40).collect::<String>()),
        Some(t) => t,
        None => "a non-JSON value".to_owned(),
    }
}

/// What a value given where another was expected is, for messages: `undefined`, `null`,
/// `the number 5`, `the object {"a":1}` (its type, then [`show`]).
pub(super) fn got(v: &JsValue) -> String {
    if v.is_undefined() || v.is_null() {
        return show(v);
    }
    format!("the {} {}", v.js_typeof().as_string().unwrap_or_default(), show(v))
}

/// The refusal of a value of the wrong JS type: `invalid_argument` saying what was expected
/// and what was given (`currency must be a string such as "USD", got the number 5`).
pub(super) fn wrong_type(expected: &str, v: &JsValue) -> crate::error::Error {
    crate::error::Error::invalid_argument(format!("{expected}, got {}", got(v)))
}

/// A string argument; else [`wrong_type`] with `expected` (what it must be).
pub(super) fn string_arg(v: &JsValue, expected: &str) -> crate::error::Result<String> {
    v.as_string().ok_or_else(|| wrong_type(expected, v))
}

/// An optional string argument (`undefined` and `null` are `None`); else [`wrong_type`].
#[cfg(feature = "cart")]
pub(super) fn optional_string_arg(v: Option<JsValue>, expected: &str) -> crate::error::Result<Option<String>> {
    match v {
        Some(v) if !v.is_undefined() && !v.is_null() => string_arg(&v, expected).map(Some),
        _ => Ok(None),
    }
}

/// A function argument; else [`wrong_type`] with `expected` (what it must be).
#[cfg(any(feature = "client", feature = "cart"))]
pub(super) fn function_arg(v: JsValue, expected: &str) -> crate::error::Result<js_sys::Function> {
    if v.is_function() {
        Ok(v.unchecked_into())
    } else {
        Err(wrong_type(expected, &v))
    }
}

/// A safe integer `number` as `T` (never rounded), else `None`.
#[cfg(feature = "cart")]
pub(super) fn safe_integer<T: serde::de::DeserializeOwned>(v: &JsValue) -> Option<T> {
    if js_sys::Number::is_safe_integer(v) {
        serde_wasm_bindgen::from_value(v.clone()).ok()
    } else {
        None
    }
}
