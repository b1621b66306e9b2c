//! Argument errors that name a number. serde's own `invalid_type`/`invalid_value` messages
//! print it with Rust's float formatting (~17 KB of wasm); the vendored serde-wasm-bindgen
//! (vendor/serde-wasm-bindgen.patch) builds the same text with JavaScript's `String(n)`
//! (and Rust's last digit where two shortest forms tie). Pinned here against serde's own
//! text, formatted by Rust in this test.

use serde::de::{Error as _, Unexpected};
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::wasm::interop::arg_from_js;

/// The numbers of the tests: fractions, negatives (refused by an unsigned type), what JS
/// prints with an exponent (>= 1e21, < 1e-6), integers beyond 2^53 (not safe integers,
/// so refused as floats), the extremes, and what JSON cannot hold (NaN, ±Infinity).
const NUMBERS: &[f64] = &[
    1.5,
    -0.5,
    0.1,
    0.30000000000000004,
    -123.456,
    1e21,
    1.5e21,
    1e-7,
    1.5e-7,
    1e-6,
    123456789012345680000.0,
    -1.0,
    -4096.0,
    9007199254740992.0,
    18446744073709551616.0,
    -9007199254740994.0,
    1e300,
    f64::MAX,
    f64::MIN_POSITIVE,
    5e-324,
    f64::NAN,
    f64::INFINITY,
    f64::NEG_INFINITY,
];

/// The `message` of the JS `Error` a serde-wasm-bindgen error is.
fn message(e: impl Into<JsValue>) -> String {
    js_sys::Reflect::get(&e.into(), &JsValue::from_str("message")).unwrap().as_string().unwrap()
}

/// serde's own message (its default `invalid_type`, Rust's `{}` of an `f64`).
fn serde_says(kind: &str, unexpected: Unexpected, expected: &str) -> String {
    format!("invalid {kind}: {unexpected}, expected {expected}")
}

#[wasm_bindgen_test]
fn numbers_refused_by_an_integer_type_read_as_rust_prints_them() {
    for &n in NUMBERS {
        let e = serde_wasm_bindgen::from_value::<u32>(JsValue::from_f64(n)).unwrap_err();
        assert_eq!(message(e), serde_says("type", Unexpected::Float(n), "u32"), "{n:?}");
        if n.fract() != 0.0 || n.abs() > 9007199254740991.0 {
            let e = serde_wasm_bindgen::from_value::<i64>(JsValue::from_f64(n)).unwrap_err();
            assert_eq!(message(e), serde_says("type", Unexpected::Float(n), "i64"), "{n:?}");
        }
    }
    // A few spelled out, so a change on both sides is seen too.
    for (n, text) in [
        (1.5, "1.5"),
        (-0.5, "-0.5"),
        (1e21, "1000000000000000000000.0"),
        (1e-7, "0.0000001"),
        (123456789012345680000.0, "123456789012345680000.0"),
        (-1.0, "-1.0"),
        (9007199254740992.0, "9007199254740992.0"),
        (f64::NAN, "NaN"),
        (f64::INFINITY, "inf"),
        (f64::NEG_INFINITY, "-inf"),
    ] {
        let e = serde_wasm_bindgen::from_value::<u32>(JsValue::from_f64(n)).unwrap_err();
        assert_eq!(message(e), format!("invalid type: floating point `{text}`, expected u32"));
    }
}

#[derive(Debug, serde::Deserialize)]
struct Line {
    #[allow(dead_code)]
    quantity: u32,
}

#[wasm_bindgen_test]
fn argument_errors_name_the_argument_and_the_number() {
    // Argument decoding (`interop::arg_from_js`) with no schema to walk: the decoder's own
    // message, after the argument's name.
    for &n in NUMBERS {
        let body = js_sys::Object::new();
        js_sys::Reflect::set(&body, &JsValue::from_str("quantity"), &JsValue::from_f64(n)).unwrap();
        let e = arg_from_js::<Line>(body.into(), "body", None, false).unwrap_err();
        assert_eq!(e.message, ["body: ", &serde_says("type", Unexpected::Float(n), "u32")].concat(), "{n:?}");
    }
}

#[wasm_bindgen_test]
fn invalid_value_and_negative_zero() {
    type E = serde_wasm_bindgen::Error;
    for &n in NUMBERS.iter().chain(&[0.0, -0.0]) {
        let e = E::invalid_value(Unexpected::Float(n), &"a number in 1..=10");
        assert_eq!(message(e), serde_says("value", Unexpected::Float(n), "a number in 1..=10"), "{n:?}");
    }
    assert_eq!(message(E::invalid_type(Unexpected::Float(-0.0), &"u8")), "invalid type: floating point `-0.0`, expected u8");
}

#[wasm_bindgen_test]
fn every_other_kind_of_value_reads_as_serde_writes_it() {
    type E = serde_wasm_bindgen::Error;
    for u in [
        Unexpected::Bool(true),
        Unexpected::Unsigned(18446744073709551615),
        Unexpected::Signed(-7),
        Unexpected::Char('x'),
        Unexpected::Str("a \"quoted\"\nline"),
        Unexpected::Bytes(b"xy"),
        Unexpected::Unit,
        Unexpected::Option,
        Unexpected::NewtypeStruct,
        Unexpected::Seq,
        Unexpected::Map,
        Unexpected::Enum,
        Unexpected::UnitVariant,
        Unexpected::NewtypeVariant,
        Unexpected::TupleVariant,
        Unexpected::StructVariant,
        Unexpected::Other("JsValue(Symbol(s))"),
    ] {
        assert_eq!(message(E::invalid_type(u, &"u32")), serde_says("type", u, "u32"));
        assert_eq!(message(E::invalid_value(u, &"u32")), serde_says("value", u, "u32"));
    }
}

#[wasm_bindgen_test]
fn ties_between_two_shortest_forms_read_as_rust_writes_them() {
    // The exact value is …562.25: two shortest forms are equally near. V8's `String(n)`
    // takes the even one (…562.2), Rust the upper (…562.3); the patch writes Rust's.
    let n = 1658206780088562.25;
    assert_eq!(serde_says("type", Unexpected::Float(n), "u32"), "invalid type: floating point `1658206780088562.3`, expected u32");
    let e = serde_wasm_bindgen::from_value::<u32>(JsValue::from_f64(n)).unwrap_err();
    assert_eq!(message(e), "invalid type: floating point `1658206780088562.3`, expected u32");
    // And every finite bit pattern of a sample (xorshift64; ~70 ties in 300,000 before the fix).
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..300_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let n = f64::from_bits(x);
        if n.is_finite() {
            let e = serde_wasm_bindgen::Error::invalid_type(Unexpected::Float(n), &"u32");
            assert_eq!(message(e), serde_says("type", Unexpected::Float(n), "u32"), "{n:?}");
        }
    }
}
