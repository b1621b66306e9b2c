//! Every structured value that crosses the wasm boundary crosses here, once,
//! through serde-wasm-bindgen: JS arguments and options into the core's serde
//! types ([`arg_from_js`], [`list_from_js`], [`required_arg`]: decoded once,
//! plainly; errors naming the argument and the path inside it), and
//! core values out to plain JS objects ([`to_js`]: `null` for `None`, plain
//! objects for maps and structs, never `undefined`, never a `Map`).

use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::error::{Error, Result};
use crate::jsoncheck::Root;

/// Decodes the JS argument `value` (named `what` in messages: `"options"`,
/// `"body"`, `"product"`) into `T`, without a second decoder per type:
/// `value` is decoded plainly, and only when that fails is it walked once, as `JSON.stringify` writes it, against the argument schema
/// `root` ([`crate::jsoncheck`]) to name the path of the first problem, in
/// document order (`body.items[0].quantity: expected an integer in
/// 0..=4294967295, got the number 1.5`). When the walk finds nothing (a value
/// JSON cannot hold), the decoder's own message is given, without a path.
/// With `strict` (options), an unknown member of the top object (a typo like
/// `limt`) is refused too; request bodies are lenient: members the API does
/// not know are left out of what is sent. `undefined` and `null` read as
/// `{}`, so an omitted options object is the defaults; members whose value
/// is `undefined` count as absent.
///
/// # Errors
/// `invalid_argument` naming `what` and, where it can, the path.
pub(crate) fn arg_from_js<T: DeserializeOwned>(value: JsValue, what: &str, root: Option<Root>, strict: bool) -> Result<T> {
    decode(value, what, root, strict, &[])
}

/// [`arg_from_js`] of an options object (strict), where a member of the wrong type is
/// refused in the words the public API has always used for it: with `wording`
/// `[("key", "a non-empty string")]`, `options.key must be a non-empty string, got the
/// number 7` (instead of `options.key: expected a string, got the number 7`).
///
/// # Errors
/// `invalid_argument` as [`arg_from_js`].
#[cfg(any(feature = "cart", feature = "checkout"))]
pub(crate) fn options_from_js<T: DeserializeOwned>(value: JsValue, what: &str, root: Root, wording: &[(&str, &str)]) -> Result<T> {
    decode(value, what, Some(root), true, wording)
}

/// The one decoder of [`arg_from_js`] and [`options_from_js`].
fn decode<T: DeserializeOwned>(value: JsValue, what: &str, root: Option<Root>, strict: bool, wording: &[(&str, &str)]) -> Result<T> {
    let value = check_object(value, struct_fields::<T>(), what, strict)?;
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| arg_error(e, &value, what, root, false, wording))
}

/// [`arg_from_js`] for an array of `root`s (`products`, `options.items`, a
/// `variantRates` answer): the path starts with the index of the first element
/// at fault (`products[1].variants[0].price: …`).
///
/// # Errors
/// `invalid_argument` as [`arg_from_js`].
#[cfg(any(feature = "cart", feature = "checkout"))]
pub(crate) fn list_from_js<T: DeserializeOwned>(value: JsValue, what: &str, root: Root) -> Result<Vec<T>> {
    let value = if value.is_undefined() || value.is_null() { js_sys::Object::new().into() } else { value };
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| arg_error(e, &value, what, Some(root), true, &[]))
}

/// The error of a value that did not decode: the first problem the schema
/// walk finds (of each element in turn for a `list`), else the decoder's own
/// message.
#[cold]
fn arg_error(e: serde_wasm_bindgen::Error, value: &JsValue, what: &str, root: Option<Root>, list: bool, wording: &[(&str, &str)]) -> Error {
    let check = |v: &JsValue, root: Root| {
        let text = js_sys::JSON::stringify(v).ok()?.as_string()?;
        crate::jsoncheck::check(text.as_bytes(), root).err()
    };
    let found = root.and_then(|root| {
        if !list {
            return check(value, root);
        }
        let items = value.dyn_ref::<js_sys::Array>()?;
        items.iter().enumerate().find_map(|(i, v)| {
            let mut p = check(&v, root)?;
            let at = format!("[{i}]");
            p.path = if p.path == "(root)" { at } else { [&at, ".", &p.path].concat() };
            Some(p)
        })
    });
    let worded = found.as_ref().and_then(|p| {
        let (_, expected) = wording.iter().find(|(member, _)| *member == p.path)?;
        Some([what, ".", &p.path, " must be ", expected, ", got ", p.got.as_deref()?].concat())
    });
    if let Some(message) = worded {
        return Error::invalid_argument(message);
    }
    Error::invalid_argument(match found {
        Some(p) if p.path == "(root)" => [what, ": ", &p.message].concat(),
        Some(p) if !p.path.is_empty() => {
            let sep = if p.path.starts_with('[') { "" } else { "." };
            [what, sep, &p.path, ": ", &p.message].concat()
        }
        _ => [what, ": ", &de_message(e)].concat(),
    })
}

/// The message of a serde-wasm-bindgen error (a JS `Error`: its `message`,
/// not its `to_string()`, which is `"Error: …"`).
pub(crate) fn de_message(e: serde_wasm_bindgen::Error) -> String {
    super::js::message(&JsValue::from(e)).unwrap_or_default()
}

/// The serialized member names of struct `T` (`None` if `T` is not a
/// struct), read from its `Deserialize` impl: it hands them to
/// `deserialize_struct`, which this deserializer records and then refuses.
fn struct_fields<T: DeserializeOwned>() -> Option<&'static [&'static str]> {
    use serde::de::{self, Visitor};
    struct Probe(Option<&'static [&'static str]>);
    impl<'de> de::Deserializer<'de> for &mut Probe {
        type Error = de::value::Error;
        fn deserialize_any<V: Visitor<'de>>(self, _: V) -> core::result::Result<V::Value, Self::Error> {
            Err(de::Error::custom("probe"))
        }
        fn deserialize_struct<V: Visitor<'de>>(self, _: &'static str, fields: &'static [&'static str], _: V) -> core::result::Result<V::Value, Self::Error> {
            self.0 = Some(fields);
            Err(de::Error::custom("probe"))
        }
        serde::forward_to_deserialize_any! {
            bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option
            unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier ignored_any
        }
    }
    let mut probe = Probe(None);
    let _ = T::deserialize(&mut probe);
    probe.0
}

/// The value to decode (`undefined` and `null` read as `{}`). A struct (its serialized
/// member names `fields`) must be given as an object, and (`strict`) an unknown member of
/// the top object is refused (serde-wasm-bindgen reads a struct member by member, so
/// `deny_unknown_fields` never sees the others), in serde's words. Not generic: one copy
/// for every type decoded.
fn check_object(value: JsValue, fields: Option<&[&str]>, what: &str, strict: bool) -> Result<JsValue> {
    let value = if value.is_undefined() || value.is_null() { js_sys::Object::new().into() } else { value };
    let Some(fields) = fields else { return Ok(value) };
    expect_object(&value, what)?;
    if !strict {
        return Ok(value);
    }
    let Some(k) = unknown_member(&value, fields) else { return Ok(value) };
    let mut message = [what, ": unknown field `", &k, "`, expected one of "].concat();
    for (i, f) in fields.iter().enumerate() {
        message.push_str(if i == 0 { "`" } else { ", `" });
        message.push_str(f);
        message.push('`');
    }
    Err(Error::invalid_argument(message))
}

/// The first own enumerable member of the object `value` that `known` does
/// not name: the one check of unknown members of a JS argument (every options object,
/// `cache` and the call options included, through [`check_object`]). Members whose value is
/// `undefined` or a function are left out, as `JSON.stringify` would. (A
/// stored value, read back as JSON text, is checked by its closed schema
/// instead: `jsoncheck::check_closed`.)
fn unknown_member(value: &JsValue, known: &[&str]) -> Option<String> {
    js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter().find_map(|key| {
        let k = key.as_string().filter(|k| !known.contains(&k.as_str()))?;
        let v = super::js::get(value, &k);
        (!v.is_undefined() && !v.is_function()).then_some(k)
    })
}

/// The refusal of an argument that is not an object (a struct must be given as one).
///
/// # Errors
/// `invalid_argument`: `what: expected an object, got an array`.
fn expect_object(value: &JsValue, what: &str) -> Result<()> {
    if !value.is_object() || js_sys::Array::is_array(value) || value.is_function() {
        // serde-wasm-bindgen would read an array as the struct's members in order.
        let got = if js_sys::Array::is_array(value) { "an array" } else { "a value that is not an object" };
        return Err(Error::invalid_argument([what, ": expected an object, got ", got].concat()));
    }
    Ok(())
}

/// Like [`arg_from_js`] for a value that must be given (`undefined`/`null` is
/// an error naming `what`, not `{}`): the storefront helpers' and the cart's
/// arguments.
///
/// # Errors
/// `invalid_argument` as [`arg_from_js`].
#[cfg(any(feature = "cart", feature = "storefront"))]
pub(crate) fn required_arg<T: DeserializeOwned>(value: JsValue, what: &str, root: Option<Root>) -> Result<T> {
    if value.is_undefined() || value.is_null() {
        return Err(Error::invalid_argument([what, " is required"].concat()));
    }
    arg_from_js(value, what, root, false)
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
