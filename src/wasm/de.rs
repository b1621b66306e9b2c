//! A serde `Deserializer` reading a JS value directly (no `JSON.stringify`,
//! no text parser), tracking the path of the first problem itself.
//!
//! It replaces `serde_json` + `serde_path_to_error` for JS arguments: that pair
//! was monomorphized per argument type and kept `core::fmt`'s float printing
//! reachable (BENCHMARKS.md, SDK size). The semantics follow what
//! `JSON.stringify` used to hand to `serde_json`:
//! - members that are `undefined` or functions are skipped (absent);
//! - a number is an integer only if it has no fraction and |n| <= 2^53 − 1,
//!   otherwise it is a float (so `1.5`, `1e21` are refused where an integer is
//!   expected); `NaN` and `±Infinity` read as `null`;
//! - nesting deeper than 128 levels (or a cycle) is refused, never a stack overflow.
//!
//! Messages are serde's (`invalid type: string "x", expected u32`,
//! `missing field `price``, `unknown field …`), rendered without `core::fmt`'s
//! float or `{:?}` formatting.

use std::fmt::{self, Display, Write as _};

use js_sys::{Array, Object, Reflect};
use serde::de::{self, DeserializeOwned, DeserializeSeed, Expected, IntoDeserializer, Unexpected, Visitor};
use wasm_bindgen::{JsCast, JsValue};

const MAX_DEPTH: u32 = 128;
const MAX_SAFE: f64 = 9_007_199_254_740_991.0;

/// A decode problem: the message and where (innermost segment first).
pub(crate) struct DeError {
    msg: String,
    path: Vec<Seg>,
}

enum Seg {
    Key(String),
    Index(u32),
}

impl DeError {
    fn msg(msg: String) -> Self {
        Self { msg, path: Vec::new() }
    }

    fn at(mut self, seg: Seg) -> Self {
        self.path.push(seg);
        self
    }

    /// The path like `items[0].quantity` (empty at the top level).
    pub(crate) fn path(&self) -> String {
        let mut out = String::new();
        for seg in self.path.iter().rev() {
            match seg {
                Seg::Key(k) => {
                    if !out.is_empty() {
                        out.push('.');
                    }
                    out.push_str(k);
                }
                Seg::Index(i) => {
                    out.push('[');
                    push_u64(&mut out, u64::from(*i));
                    out.push(']');
                }
            }
        }
        out
    }

    pub(crate) fn message(&self) -> &str {
        &self.msg
    }
}

impl Display for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl fmt::Debug for DeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.msg)
    }
}

impl std::error::Error for DeError {}

fn push_u64(out: &mut String, mut n: u64) {
    let mut buf = [0u8; 20];
    let mut i = buf.len();
    loop {
        i -= 1;
        buf[i] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.push_str(std::str::from_utf8(&buf[i..]).unwrap_or("?"));
}

/// serde's `Unexpected`, rendered without float formatting.
fn unexpected(out: &mut String, u: Unexpected<'_>) {
    match u {
        Unexpected::Bool(b) => out.push_str(if b { "boolean `true`" } else { "boolean `false`" }),
        Unexpected::Unsigned(n) => {
            out.push_str("integer `");
            push_u64(out, n);
            out.push('`');
        }
        Unexpected::Signed(n) => {
            out.push_str("integer `");
            if n < 0 {
                out.push('-');
            }
            push_u64(out, n.unsigned_abs());
            out.push('`');
        }
        Unexpected::Float(_) => out.push_str("a number with a fraction or beyond 2^53 - 1"),
        Unexpected::Char(c) => {
            out.push_str("character `");
            out.push(c);
            out.push('`');
        }
        Unexpected::Str(s) => {
            out.push_str("string \"");
            out.push_str(s);
            out.push('"');
        }
        Unexpected::Bytes(_) => out.push_str("byte array"),
        Unexpected::Unit => out.push_str("null"),
        Unexpected::Option => out.push_str("Option value"),
        Unexpected::NewtypeStruct => out.push_str("newtype struct"),
        Unexpected::Seq => out.push_str("an array"),
        Unexpected::Map => out.push_str("an object"),
        Unexpected::Enum => out.push_str("enum"),
        Unexpected::UnitVariant => out.push_str("unit variant"),
        Unexpected::NewtypeVariant => out.push_str("newtype variant"),
        Unexpected::TupleVariant => out.push_str("tuple variant"),
        Unexpected::StructVariant => out.push_str("struct variant"),
        Unexpected::Other(o) => out.push_str(o),
    }
}

fn expected(out: &mut String, exp: &dyn Expected) {
    struct E<'a>(&'a dyn Expected);
    impl Display for E<'_> {
        fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            self.0.fmt(f)
        }
    }
    let _ = write!(out, "{}", E(exp));
}

impl de::Error for DeError {
    fn custom<T: Display>(msg: T) -> Self {
        Self::msg(msg.to_string())
    }

    fn invalid_type(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
        let mut m = String::from("invalid type: ");
        unexpected(&mut m, unexp);
        m.push_str(", expected ");
        expected(&mut m, exp);
        Self::msg(m)
    }

    fn invalid_value(unexp: Unexpected<'_>, exp: &dyn Expected) -> Self {
        let mut m = String::from("invalid value: ");
        unexpected(&mut m, unexp);
        m.push_str(", expected ");
        expected(&mut m, exp);
        Self::msg(m)
    }

    fn invalid_length(len: usize, exp: &dyn Expected) -> Self {
        let mut m = String::from("invalid length ");
        push_u64(&mut m, len as u64);
        m.push_str(", expected ");
        expected(&mut m, exp);
        Self::msg(m)
    }

    fn missing_field(field: &'static str) -> Self {
        Self::msg(format!("missing field `{field}`"))
    }

    fn duplicate_field(field: &'static str) -> Self {
        Self::msg(format!("duplicate field `{field}`"))
    }
}

/// Decodes `value` into `T`.
///
/// # Errors
/// The first problem, with its path.
pub(crate) fn from_js<T: DeserializeOwned>(value: &JsValue) -> Result<T, DeError> {
    T::deserialize(De { value: value.clone(), depth: 0 })
}

struct De {
    value: JsValue,
    depth: u32,
}

impl De {
    fn child(&self, value: JsValue) -> Self {
        Self { value, depth: self.depth + 1 }
    }

    fn is_absent(v: &JsValue) -> bool {
        v.is_undefined() || v.is_null() || v.as_f64().is_some_and(|n| !n.is_finite())
    }

    fn enter(&self) -> Result<(), DeError> {
        if self.depth >= MAX_DEPTH {
            Err(DeError::msg("nested too deeply (or a cycle)".to_owned()))
        } else {
            Ok(())
        }
    }
}

fn get(obj: &JsValue, key: &JsValue) -> Result<JsValue, DeError> {
    Reflect::get(obj, key).map_err(|_| DeError::msg("reading the value threw".to_owned()))
}

/// serde's `Unexpected` for a JS value (the type-mismatch message).
fn mismatch(v: &JsValue, exp: &dyn Expected) -> DeError {
    let s;
    let u = if De::is_absent(v) {
        Unexpected::Unit
    } else if let Some(b) = v.as_bool() {
        Unexpected::Bool(b)
    } else if let Some(n) = v.as_f64() {
        #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
        if n.fract() == 0.0 && n.abs() <= MAX_SAFE {
            if n >= 0.0 {
                Unexpected::Unsigned(n as u64)
            } else {
                Unexpected::Signed(n as i64)
            }
        } else {
            Unexpected::Float(n)
        }
    } else if let Some(x) = v.as_string() {
        s = x;
        Unexpected::Str(&s)
    } else if Array::is_array(v) {
        Unexpected::Seq
    } else if v.is_function() {
        Unexpected::Other("a function")
    } else if v.is_object() {
        Unexpected::Map
    } else {
        Unexpected::Other("a non-JSON value")
    };
    de::Error::invalid_type(u, exp)
}

impl De {
    fn number<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value.as_f64() {
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss)]
            Some(n) if n.is_finite() => {
                if n.fract() == 0.0 && n.abs() <= MAX_SAFE {
                    if n >= 0.0 {
                        visitor.visit_u64(n as u64)
                    } else {
                        visitor.visit_i64(n as i64)
                    }
                } else {
                    visitor.visit_f64(n)
                }
            }
            _ => Err(mismatch(&self.value, &visitor)),
        }
    }

    fn string<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value.as_string() {
            Some(s) => visitor.visit_string(s),
            None => Err(mismatch(&self.value, &visitor)),
        }
    }

    fn seq<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if !Array::is_array(&self.value) {
            return Err(mismatch(&self.value, &visitor));
        }
        self.enter()?;
        let arr: Array = self.value.clone().unchecked_into();
        let len = arr.length();
        visitor.visit_seq(Seq { de: &self, arr, i: 0, len })
    }

    fn map<'de, V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let v = &self.value;
        if Self::is_absent(v) || !v.is_object() || v.is_function() || Array::is_array(v) {
            return Err(mismatch(v, &visitor));
        }
        self.enter()?;
        let keys = Object::keys(v.unchecked_ref::<Object>());
        let len = keys.length();
        visitor.visit_map(Map { de: &self, keys, i: 0, len, value: None })
    }
}

impl<'de> de::Deserializer<'de> for De {
    type Error = DeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        let v = &self.value;
        if Self::is_absent(v) {
            visitor.visit_unit()
        } else if let Some(b) = v.as_bool() {
            visitor.visit_bool(b)
        } else if v.as_f64().is_some() {
            self.number(visitor)
        } else if v.is_string() {
            self.string(visitor)
        } else if Array::is_array(v) {
            self.seq(visitor)
        } else {
            self.map(visitor)
        }
    }

    fn deserialize_bool<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        match self.value.as_bool() {
            Some(b) => visitor.visit_bool(b),
            None => Err(mismatch(&self.value, &visitor)),
        }
    }

    fn deserialize_i8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_i16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_i32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_i64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_u8<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_u16<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_u32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_u64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_f32<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_f64<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.number(visitor)
    }
    fn deserialize_char<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.string(visitor)
    }
    fn deserialize_str<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.string(visitor)
    }
    fn deserialize_string<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.string(visitor)
    }
    fn deserialize_identifier<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.string(visitor)
    }
    fn deserialize_unit<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if Self::is_absent(&self.value) {
            visitor.visit_unit()
        } else {
            Err(mismatch(&self.value, &visitor))
        }
    }
    fn deserialize_unit_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        self.deserialize_unit(visitor)
    }
    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }
    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }
    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, DeError> {
        self.seq(visitor)
    }
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        self.map(visitor)
    }
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        self.map(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        if Self::is_absent(&self.value) {
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DeError> {
        match self.value.as_string() {
            Some(s) => visitor.visit_enum(IntoDeserializer::<DeError>::into_deserializer(s)),
            None => Err(mismatch(&self.value, &visitor)),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DeError> {
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! { i128 u128 bytes byte_buf }
}

struct Seq<'a> {
    de: &'a De,
    arr: Array,
    i: u32,
    len: u32,
}

impl<'de> de::SeqAccess<'de> for Seq<'_> {
    type Error = DeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, DeError> {
        if self.i >= self.len {
            return Ok(None);
        }
        let i = self.i;
        self.i += 1;
        let mut v = self.arr.get(i);
        if v.is_undefined() || v.is_function() {
            v = JsValue::NULL; // as JSON.stringify renders them inside arrays
        }
        seed.deserialize(self.de.child(v)).map(Some).map_err(|e| e.at(Seg::Index(i)))
    }

    fn size_hint(&self) -> Option<usize> {
        Some((self.len - self.i) as usize)
    }
}

struct Map<'a> {
    de: &'a De,
    keys: Array,
    i: u32,
    len: u32,
    value: Option<(String, JsValue)>,
}

impl<'de> de::MapAccess<'de> for Map<'_> {
    type Error = DeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DeError> {
        while self.i < self.len {
            let key_js = self.keys.get(self.i);
            self.i += 1;
            let value = get(&self.de.value, &key_js)?;
            if value.is_undefined() || value.is_function() {
                continue; // JSON.stringify drops these members
            }
            let key = key_js.as_string().unwrap_or_default();
            let k = seed.deserialize(de::value::StrDeserializer::<DeError>::new(&key))?;
            self.value = Some((key, value));
            return Ok(Some(k));
        }
        Ok(None)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DeError> {
        let (key, value) = self.value.take().unwrap_or_default();
        seed.deserialize(self.de.child(value)).map_err(|e| e.at(Seg::Key(key)))
    }
}
