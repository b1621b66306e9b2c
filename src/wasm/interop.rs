//! Every structured value that crosses the wasm boundary crosses here, once,
//! through serde-wasm-bindgen: JS arguments and options into the core's serde
//! types ([`from_js`], errors naming the argument and the path inside it), and
//! core values out to plain JS objects ([`to_js`]: `null` for `None`, plain
//! objects for maps and structs, never `undefined`, never a `Map`).

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::error::{Error, Result};

/// Decodes the JS argument `value` (named `what` in messages: `"options"`,
/// `"body"`, `"product"`) into `T`. `undefined` and `null` read as `{}`, so an
/// omitted options object is the defaults. Members whose value is `undefined`
/// count as absent.
///
/// # Errors
/// `invalid_argument` naming the path of the first problem, e.g.
/// `body.items[1].quantity: invalid type: floating point `1.5`, expected u32`,
/// or `options: unknown field `limt`, expected one of …`.
pub(crate) fn from_js<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T> {
    let value = if value.is_undefined() || value.is_null() { js_sys::Object::new().into() } else { value };
    let de = serde_wasm_bindgen::Deserializer::from(value);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        // The error is a JS `Error`: its `message` (its `to_string()` is `"Error: …"`).
        let inner = JsValue::from(e.into_inner());
        let inner = js_sys::Reflect::get(&inner, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()).unwrap_or_default();
        Error::invalid_argument(if path == "." {
            [what, ": ", &inner].concat()
        } else {
            let sep = if path.starts_with('[') { "" } else { "." };
            [what, sep, &path, ": ", &inner].concat()
        })
    })
}

/// Like [`from_js`] for a value that must be given (`undefined`/`null` is an
/// error naming `what`, not `{}`).
///
/// # Errors
/// `invalid_argument` as [`from_js`].
pub(crate) fn required<T: DeserializeOwned>(value: JsValue, what: &str) -> Result<T> {
    if value.is_undefined() || value.is_null() {
        return Err(Error::invalid_argument([what, " is required"].concat()));
    }
    from_js(value, what)
}

/// The serializer every value leaving the wasm goes through.
fn serializer() -> serde_wasm_bindgen::Serializer {
    serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true).serialize_maps_as_objects(true)
}

/// A core value as a plain JS value (`None` → `null`, maps → objects).
///
/// # Errors
/// Only if `T`'s `Serialize` fails, which the crate's types never do.
pub(crate) fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue> {
    value.serialize(&serializer()).map_err(|e| Error::new(crate::error::ErrorCode::Decode, e.to_string()))
}
