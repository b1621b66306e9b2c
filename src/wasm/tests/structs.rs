//! Structs as the vendored serde-wasm-bindgen reads them (vendor/README.md: a struct's
//! members as a sequence, in declaration order): what an absent member gives, in serde's
//! words, for each kind of member the crate's types have.

use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
struct Members {
    required: String,
    #[serde(default)]
    counted: u32,
    optional: Option<String>,
    #[serde(deserialize_with = "crate::model::nullable::deserialize")]
    nullable: Option<String>,
    #[serde(default)]
    listed: Vec<u32>,
}

fn decode(json: &str) -> Result<Members, String> {
    let value = js_sys::JSON::parse(json).unwrap();
    serde_wasm_bindgen::from_value(value).map_err(|e| crate::wasm::interop::de_message(e))
}

/// Present members are read whatever their order in the object (and others are passed over).
#[wasm_bindgen_test]
fn present_members_are_read_by_name() {
    let all = r#"{"listed":[1,2],"nullable":"n","extra":true,"optional":"o","counted":3,"required":"r"}"#;
    let want = Members { required: "r".into(), counted: 3, optional: Some("o".into()), nullable: Some("n".into()), listed: vec![1, 2] };
    assert_eq!(decode(all), Ok(want));
}

/// Absent: a `default` member takes its default, an `Option` is `None`, a nullable member
/// (`model::nullable`) and a plain one are refused as serde's map reading refuses them.
#[wasm_bindgen_test]
fn absent_members_read_as_serde_reads_a_map() {
    let least = Members { required: "r".into(), counted: 0, optional: None, nullable: None, listed: vec![] };
    assert_eq!(decode(r#"{"required":"r","nullable":null}"#), Ok(least));
    assert_eq!(decode(r#"{"nullable":null}"#), Err("missing field `required`".into()));
    assert_eq!(decode(r#"{"required":"r"}"#), Err("missing field `nullable`".into()));
    assert_eq!(decode(r#"{"required":"r","optional":null,"nullable":null,"listed":[]}"#).map(|m| m.optional), Ok(None));
    let wrong = decode(r#"{"required":"r","nullable":null,"counted":"3"}"#).unwrap_err();
    assert_eq!(wrong, "invalid type: string \"3\", expected u32");
}
