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
    let value = if value.is_undefined() || value.is_null() { js_sys::Object::new().into() } else { value };
    check_object::<T>(&value, what, strict)?;
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| arg_error(e, &value, what, root, false))
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
    serde_wasm_bindgen::from_value(value.clone()).map_err(|e| arg_error(e, &value, what, Some(root), true))
}

/// The string members `names` of the object `obj`, in order, read as
/// serde-wasm-bindgen reads a struct made only of strings, without a decoder
/// of its own (each struct it decodes costs the wasm its own
/// `deserialize_struct`, 0.6-3 KB). A name ending in `?` is an
/// `Option<String>` with `#[serde(default)]`: absent, `undefined` or `null`
/// give `None`. A name `key{Name` is a nested struct `Name` whose members
/// are the names that follow, up to `}`: they are read in its place, into
/// the same list. Members are read as properties (inherited ones too, as
/// the decoder does); the others are ignored.
///
/// # Errors
/// When the decoder would refuse the struct, its error, in its order: of the
/// first member that is not a string (`null`, or `undefined` given as a
/// member, for a required one) or not an object (a nested struct), else
/// `missing field` of the first required member absent (a nested struct's
/// at its end); the caller names the path with [`arg_fail`].
#[cfg(any(feature = "client", feature = "storefront"))]
pub(crate) fn string_members(obj: &JsValue, names: &[&'static str]) -> core::result::Result<Vec<Option<String>>, serde_wasm_bindgen::Error> {
    let mut out = Vec::with_capacity(names.len());
    members(obj, names, &mut out)?;
    Ok(out)
}

/// [`string_members`] of one object: how many of `names` it took (its own,
/// its nested structs', and its closing `}`).
#[cfg(any(feature = "client", feature = "storefront"))]
fn members(obj: &JsValue, names: &[&'static str], out: &mut Vec<Option<String>>) -> core::result::Result<usize, serde_wasm_bindgen::Error> {
    let mut missing = None;
    let mut i = 0;
    while let Some(&name) = names.get(i) {
        i += 1;
        if name == "}" {
            break;
        }
        let brace = name.find('{');
        let (key, optional) = match (brace, name.strip_suffix('?')) {
            (Some(b), _) => (&name[..b], false),
            (None, Some(k)) => (k, true),
            (None, None) => (name, false),
        };
        let js_key = JsValue::from_str(key);
        let v = js_sys::Reflect::get(obj, &js_key).unwrap_or(JsValue::UNDEFINED);
        let absent = v.is_undefined() && !js_sys::Reflect::has(obj, &js_key).unwrap_or(false);
        if absent || (optional && (v.is_undefined() || v.is_null())) {
            if !optional && missing.is_none() {
                missing = Some(key);
            }
            if brace.is_some() {
                // Its members: an error follows (it is required), their places do not matter.
                i += names[i..].iter().position(|n| *n == "}").map_or(names.len() - i, |p| p + 1);
            }
            out.push(None);
        } else if let Some(b) = brace {
            if let Some(e) = not_a_struct(v.clone(), &name[b + 1..]) {
                return Err(e);
            }
            i += members(&v, &names[i..], out)?;
        } else {
            // Not a string: the decoder's own `invalid type` error, as the struct's would be.
            out.push(Some(match v.as_string() {
                Some(s) => s,
                None => serde_wasm_bindgen::from_value::<String>(v)?,
            }));
        }
    }
    match missing {
        Some(key) => Err(serde::de::Error::missing_field(key)),
        None => Ok(i),
    }
}

/// The decoder's error for `value` given where struct `name` is expected, if
/// it is not an object (`invalid type: …, expected struct ShippingAddress`).
#[cfg(any(feature = "client", feature = "storefront"))]
fn not_a_struct(value: JsValue, name: &'static str) -> Option<serde_wasm_bindgen::Error> {
    struct Expect(&'static str);
    impl<'de> serde::de::Visitor<'de> for Expect {
        type Value = ();
        fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
            f.write_str("struct ")?;
            f.write_str(self.0)
        }
        fn visit_map<A: serde::de::MapAccess<'de>>(self, _: A) -> core::result::Result<(), A::Error> {
            Ok(())
        }
    }
    serde::Deserializer::deserialize_struct(serde_wasm_bindgen::Deserializer::from(value), name, &[], Expect(name)).err()
}

/// The error of argument `value` (named `what`) for the decoder's error `e`:
/// as [`arg_from_js`] gives it (the schema walk of `value` against `root`).
#[cfg(any(feature = "client", feature = "storefront"))]
pub(crate) fn arg_fail(e: serde_wasm_bindgen::Error, value: &JsValue, what: &str, root: Root) -> Error {
    arg_error(e, value, what, Some(root), false)
}

/// The error of a value that did not decode: the first problem the schema
/// walk finds (of each element in turn for a `list`), else the decoder's own
/// message.
#[cold]
fn arg_error(e: serde_wasm_bindgen::Error, value: &JsValue, what: &str, root: Option<Root>, list: bool) -> Error {
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
            let at = ["[", &crate::text::uint(i as u64), "]"].concat();
            p.path = if p.path == "(root)" { at } else { [&at, ".", &p.path].concat() };
            Some(p)
        })
    });
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
    let inner = JsValue::from(e);
    js_sys::Reflect::get(&inner, &JsValue::from_str("message")).ok().and_then(|m| m.as_string()).unwrap_or_default()
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

/// A struct must be given as an object, and (`strict`) an unknown member of
/// the top object is refused (serde-wasm-bindgen reads a struct member by member, so
/// `deny_unknown_fields` never sees the others).
/// Members that are `undefined` or functions are ignored, as `JSON.stringify`
/// would.
fn check_object<T: DeserializeOwned>(value: &JsValue, what: &str, strict: bool) -> Result<()> {
    let Some(fields) = struct_fields::<T>() else { return Ok(()) };
    expect_object(value, what)?;
    if !strict {
        return Ok(());
    }
    for key in js_sys::Object::keys(value.unchecked_ref::<js_sys::Object>()).iter() {
        let Some(k) = key.as_string() else { continue };
        if fields.contains(&k.as_str()) {
            continue;
        }
        let v = js_sys::Reflect::get(value, &key).unwrap_or(JsValue::UNDEFINED);
        if !v.is_undefined() && !v.is_function() {
            return Err(Error::invalid_argument([what, ": unknown field `", &k, "`, expected one of `", &fields.join("`, `"), "`"].concat()));
        }
    }
    Ok(())
}

/// The refusal of an argument that is not an object (a struct must be given as one).
///
/// # Errors
/// `invalid_argument`: `what: expected an object, got an array`.
pub(crate) fn expect_object(value: &JsValue, what: &str) -> Result<()> {
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
