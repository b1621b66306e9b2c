//! Generates, from the Rust wire types (via serde-reflection, which traces
//! their `Deserialize` impls, so renames and nullability are the real ones):
//! - `js/generated/types.ts`: the TypeScript types of the package (included in
//!   the wasm-bindgen `.d.ts` by `src/wasm/client.rs`);
//! - `js/generated/schema.js`: the response schemas, then the argument schemas,
//!   as one-string types (a readable form of the table below; nothing reads it);
//! - `src/generated/schema.rs`: the same schemas as a Rust table, with type
//!   names resolved to indices and the typed `Root` enum, for `src/jsoncheck.rs`.
//!
//! The test fails when the committed files differ from what the types give;
//! `CIRRUS_BLESS=1 cargo test --test typegen` rewrites them.
#![cfg(not(target_arch = "wasm32"))]

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cirrus_storefront::error::ErrorCode;
use cirrus_storefront::model::*;
use cirrus_storefront::options::ClientOptions;
use cirrus_storefront::endpoint::ProductsQuery;
use serde_reflection::{ContainerFormat, Format, Registry, Tracer, TracerConfig, VariantFormat};

/// Output types: `Option` is "present, maybe null".
const OUTPUTS: &[&str] = &[
    "ProductsResponse",
    "MinimalProductsResponse",
    "ProductResponse",
    "PagesResponse",
    "CollectionsResponse",
    "CollectionResponse",
    "StoreResponse",
    "ShippingRatesResponse",
    "InitiateResponse",
    "UpdateResponse",
    "ConfirmResponse",
];

/// Input types: `Option` is "may be omitted".
const INPUTS: &[&str] =
    &["ClientOptions", "ProductsOptions", "ShippingRatesRequest", "InitiateRequest", "UpdateRequest", "ConfirmRequest", "ShippingAddress", "PaymentItem"];

/// Output fields the server omits unless asked (`#[serde(default)]` in model.rs).
const MAY_BE_MISSING: &[(&str, &str)] =
    &[("ProductsResponse", "pagination"), ("MinimalProductsResponse", "pagination")];

fn trace() -> Registry {
    let mut reg = Registry::new();
    let mut one = |f: &dyn Fn(&mut Tracer), rename: Option<(&str, &str)>| {
        let mut t = Tracer::new(TracerConfig::default());
        f(&mut t);
        for (mut name, c) in t.registry().expect("complete trace") {
            if let Some((from, to)) = rename {
                if name == from {
                    name = to.to_owned();
                }
            }
            if let Some(old) = reg.insert(name.clone(), c.clone()) {
                assert_eq!(old, c, "two different shapes named {name}");
            }
        }
    };
    one(
        &|t| {
            t.trace_simple_type::<ProductStatus>().unwrap();
            t.trace_simple_type::<StockStatus>().unwrap();
            t.trace_simple_type::<DisplayStyle>().unwrap();
            t.trace_simple_type::<ProductsResponse<Product>>().unwrap();
        },
        None,
    );
    one(&|t| drop(t.trace_simple_type::<ProductsResponse<MinimalProduct>>().unwrap()), Some(("ProductsResponse", "MinimalProductsResponse")));
    one(
        &|t| {
            t.trace_simple_type::<ProductStatus>().unwrap();
            t.trace_simple_type::<StockStatus>().unwrap();
            t.trace_simple_type::<DisplayStyle>().unwrap();
            t.trace_simple_type::<Processor>().unwrap();
            t.trace_simple_type::<PaymentStatus>().unwrap();
            t.trace_simple_type::<ErrorCode>().unwrap();
            t.trace_simple_type::<ProductResponse>().unwrap();
            t.trace_simple_type::<PagesResponse>().unwrap();
            t.trace_simple_type::<CollectionsResponse>().unwrap();
            t.trace_simple_type::<CollectionResponse>().unwrap();
            t.trace_simple_type::<StoreResponse>().unwrap();
            t.trace_simple_type::<ShippingRatesRequest>().unwrap();
            t.trace_simple_type::<ShippingRatesResponse>().unwrap();
            t.trace_simple_type::<InitiateRequest>().unwrap();
            t.trace_simple_type::<InitiateResponse>().unwrap();
            t.trace_simple_type::<UpdateRequest>().unwrap();
            t.trace_simple_type::<UpdateResponse>().unwrap();
            t.trace_simple_type::<ConfirmRequest>().unwrap();
            t.trace_simple_type::<ConfirmResponse>().unwrap();
            t.trace_simple_type::<ClientOptions>().unwrap();
        },
        None,
    );
    one(&|t| drop(t.trace_simple_type::<ProductsQuery>().unwrap()), Some(("ProductsQuery", "ProductsOptions")));
    reg
}

fn ts_type(f: &Format) -> String {
    match f {
        Format::TypeName(n) => n.clone(),
        Format::Bool => "boolean".into(),
        Format::Str | Format::Char => "string".into(),
        Format::U8 | Format::U16 | Format::U32 | Format::U64 | Format::I8 | Format::I16 | Format::I32 | Format::I64 | Format::F32 | Format::F64 => {
            "number".into()
        }
        Format::Option(inner) => format!("{} | null", ts_type(inner)),
        Format::Seq(inner) => match **inner {
            Format::Option(_) => format!("({})[]", ts_type(inner)),
            _ => format!("{}[]", ts_type(inner)),
        },
        Format::Map { value, .. } => format!("Record<string, {}>", ts_type(value)),
        other => panic!("no TypeScript for {other:?}"),
    }
}

fn enum_values(variants: &BTreeMap<u32, serde_reflection::Named<VariantFormat>>) -> Vec<String> {
    variants
        .values()
        .map(|v| {
            assert!(matches!(v.value, VariantFormat::Unit), "only unit enums cross the boundary");
            v.name.clone()
        })
        .collect()
}

/// Every type reachable from `roots`.
fn reachable(reg: &Registry, roots: &[&str]) -> Vec<String> {
    fn walk(f: &Format, out: &mut Vec<String>, reg: &Registry) {
        match f {
            Format::TypeName(n) => visit(n, out, reg),
            Format::Option(i) | Format::Seq(i) => walk(i, out, reg),
            Format::Map { value, .. } => walk(value, out, reg),
            _ => {}
        }
    }
    fn visit(n: &str, out: &mut Vec<String>, reg: &Registry) {
        if out.iter().any(|o| o == n) {
            return;
        }
        out.push(n.to_owned());
        if let Some(ContainerFormat::Struct(fields)) = reg.get(n) {
            for f in fields {
                walk(&f.value, out, reg);
            }
        }
    }
    let mut out = Vec::new();
    for r in roots {
        visit(r, &mut out, reg);
    }
    out.sort();
    out
}

fn gen_ts(reg: &Registry) -> String {
    let inputs = reachable(reg, INPUTS);
    let mut out = String::from(
        "// GENERATED by tests/sdk/typegen.rs from the Rust types in src/model.rs, src/error.rs,\n\
         // src/options.rs and src/endpoint.rs. Do not edit: run `CIRRUS_BLESS=1 cargo test --test typegen`.\n",
    );
    for (name, c) in reg {
        match c {
            ContainerFormat::Enum(variants) => {
                let vals: Vec<String> = enum_values(variants).iter().map(|v| format!("\"{v}\"")).collect();
                writeln!(out, "export type {name} = {};", vals.join(" | ")).unwrap();
            }
            ContainerFormat::Struct(fields) => {
                let input = inputs.contains(name) && !OUTPUTS.contains(&name.as_str());
                writeln!(out, "export interface {name} {{").unwrap();
                for f in fields {
                    let missing = MAY_BE_MISSING.contains(&(name.as_str(), f.name.as_str()));
                    match (&f.value, input || missing) {
                        (Format::Option(inner), true) => {
                            if missing {
                                writeln!(out, "  {}?: {};", f.name, ts_type(inner)).unwrap();
                            } else {
                                writeln!(out, "  {}?: {} | null;", f.name, ts_type(inner)).unwrap();
                            }
                        }
                        (Format::Bool, true) => writeln!(out, "  {}?: boolean;", f.name).unwrap(),
                        (t, _) => writeln!(out, "  {}: {};", f.name, ts_type(t)).unwrap(),
                    }
                }
                if name == "ClientOptions" {
                    out.push_str("  /** A `fetch` implementation (SSR, tests); default `globalThis.fetch`. */\n");
                    out.push_str("  fetch?: typeof globalThis.fetch;\n");
                }
                out.push_str("}\n");
            }
            other => panic!("{name}: unsupported container {other:?}"),
        }
    }
    out
}

/// A type as one short string: a primitive `s` string, `b` bool,
/// `u` u32, `U` u64, `i` i64 (safe integer), `f` f64; or the name of an entry; prefixed by
/// `~` (may be null), `?` (may be null or absent), `[` (array of) or `{` (map of).
fn schema_type(f: &Format) -> String {
    match f {
        Format::TypeName(n) => n.clone(),
        Format::Bool => "b".into(),
        Format::Str => "s".into(),
        Format::U8 | Format::U16 | Format::U32 => "u".into(),
        Format::U64 => "U".into(),
        Format::I8 | Format::I16 | Format::I32 | Format::I64 => "i".into(),
        Format::F32 | Format::F64 => "f".into(),
        Format::Option(i) => format!("~{}", schema_type(i)),
        Format::Seq(i) => format!("[{}", schema_type(i)),
        Format::Map { value, .. } => format!("{{{}", schema_type(value)),
        other => panic!("no schema for {other:?}"),
    }
}

fn gen_schema(reg: &Registry) -> String {
    let mut out = String::from(
        "// GENERATED by tests/sdk/typegen.rs from the Rust types in src/model.rs. Do not edit:\n\
         // run `CIRRUS_BLESS=1 cargo test --test typegen`. The JS form of src/generated/schema.rs (a readable form; nothing reads it).\n\
         // A type is one string: a primitive (s string, b bool, u u32, U u64, i i64, f f64) or the\n\
         // name of an entry below, prefixed by ~ (may be null), ? (may be null or absent), [ (array\n\
         // of) or { (map of); a struct is { field: type }, an enum the array of its values.\n\
         // Responses first, then arguments (optional fields may be omitted).\n\
         export const SCHEMA = {\n",
    );
    let outputs = reachable(reg, OUTPUTS);
    // Then the argument types: an
    // optional field (`Option`, or a defaulted `bool`) may be omitted.
    let inputs: Vec<String> = reachable(reg, INPUTS).into_iter().filter(|n| !outputs.contains(n)).collect();
    for name in outputs.iter().chain(&inputs) {
        let input = inputs.contains(name);
        match &reg[name] {
            ContainerFormat::Enum(variants) => {
                let vals: Vec<String> = enum_values(variants).iter().map(|v| format!("\"{v}\"")).collect();
                writeln!(out, "  {name}: [{}],", vals.join(", ")).unwrap();
            }
            ContainerFormat::Struct(fields) => {
                let fs: Vec<String> = fields
                    .iter()
                    .map(|f| {
                        let t = match (&f.value, input || MAY_BE_MISSING.contains(&(name.as_str(), f.name.as_str()))) {
                            (Format::Option(i), true) => format!("?{}", schema_type(i)),
                            (Format::Bool, true) if input => "?b".to_owned(),
                            (t, _) => schema_type(t),
                        };
                        format!("{}: \"{t}\"", f.name)
                    })
                    .collect();
                writeln!(out, "  {name}: {{ {} }},", fs.join(", ")).unwrap();
            }
            other => panic!("{name}: unsupported container {other:?}"),
        }
    }
    out.push_str("};\n");
    out
}

/// A type of the schema language as the Rust expression `src/jsoncheck.rs` reads
/// (`Null(&Array(&Ref(7)))` for `~[Image` when `Image` is entry 7).
fn rust_type(f: &Format, index: &BTreeMap<&str, usize>) -> String {
    match f {
        Format::TypeName(n) => format!("Ref({})", index[n.as_str()]),
        Format::Bool => "Bool".into(),
        Format::Str => "Str".into(),
        Format::U8 | Format::U16 | Format::U32 => "U32".into(),
        Format::U64 => "U53".into(),
        Format::I8 | Format::I16 | Format::I32 | Format::I64 => "I53".into(),
        Format::F32 | Format::F64 => "F64".into(),
        Format::Option(i) => format!("Null(&{})", rust_type(i, index)),
        Format::Seq(i) => format!("Array(&{})", rust_type(i, index)),
        Format::Map { value, .. } => format!("Map(&{})", rust_type(value, index)),
        other => panic!("no schema for {other:?}"),
    }
}

/// The response schemas of `gen_schema` as a Rust table (`src/generated/schema.rs`).
fn gen_rust_schema(reg: &Registry) -> String {
    let outputs = reachable(reg, OUTPUTS);
    // Then the argument types (the client names the path of a bad argument with them):
    // an optional field (`Option`, or a defaulted `bool`) may be omitted.
    let inputs: Vec<String> = reachable(reg, INPUTS).into_iter().filter(|n| !outputs.contains(n)).collect();
    let all: Vec<String> = outputs.iter().chain(&inputs).cloned().collect();
    let index: BTreeMap<&str, usize> = all.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut out = String::from(
        "//! GENERATED by tests/sdk/typegen.rs from the Rust types in src/model.rs. Do not edit:\n\
         //! run `CIRRUS_BLESS=1 cargo test --test typegen`. Read by src/jsoncheck.rs.\n\
         //!\n\
         //! The response schemas, then the argument schemas, of js/generated/schema.js, with names resolved: `Ref(n)` is\n\
         //! entry `n` of [`SCHEMA`]; `Null` is `~` (may be null), `Opt` is `?` (may be null or\n\
         //! absent), `Array` is `[`, `Map` is `{`. A struct lists its members in order, with\n\
         //! the bit set of those that must be present (every one that is not `Opt`).\n\
         \n\
         #[allow(unused_imports)] // whichever the types need\n\
         use super::{\n    Entry::{self, Enum, Struct},\n    Ty::{Array, Bool, Map, Null, Opt, Ref, Str, F64, I53, U32, U53},\n};\n\
         \n\
         #[rustfmt::skip]\n\
         pub(crate) static SCHEMA: &[(&str, Entry)] = &[\n",
    );
    for (i, name) in all.iter().enumerate() {
        let input = inputs.contains(name);
        match &reg[name] {
            ContainerFormat::Enum(variants) => {
                let vals: Vec<String> = enum_values(variants).iter().map(|v| format!("\"{v}\"")).collect();
                writeln!(out, "    /* {i} */ (\"{name}\", Enum(&[{}])),", vals.join(", ")).unwrap();
            }
            ContainerFormat::Struct(fields) => {
                assert!(fields.len() <= 64, "{name}: src/jsoncheck.rs tracks at most 64 members");
                let mut required = 0_u64;
                let fs: Vec<String> = fields
                    .iter()
                    .enumerate()
                    .map(|(k, f)| {
                        let t = match &f.value {
                            Format::Option(inner) if input || MAY_BE_MISSING.contains(&(name.as_str(), f.name.as_str())) => {
                                format!("Opt(&{})", rust_type(inner, &index))
                            }
                            Format::Bool if input => "Opt(&Bool)".to_owned(),
                            t => {
                                required |= 1 << k;
                                rust_type(t, &index)
                            }
                        };
                        format!("(\"{}\", {t})", f.name)
                    })
                    .collect();
                writeln!(out, "    /* {i} */ (\"{name}\", Struct {{ required: {required:#x}, members: &[{}] }}),", fs.join(", ")).unwrap();
            }
            other => panic!("{name}: unsupported container {other:?}"),
        }
    }
    out.push_str("];\n");
    // The typed roots: `jsoncheck::check(body, Root::StoreResponse)`, never a name looked up.
    out.push_str("\n/// An entry of [`SCHEMA`] by name: the schema a body is checked against.\n#[rustfmt::skip]\n#[derive(Clone, Copy, Debug, PartialEq, Eq)]\npub enum Root {\n");
    for (i, name) in all.iter().enumerate() {
        writeln!(out, "    {name} = {i},").unwrap();
    }
    out.push_str("}\n\nimpl Root {\n    /// Every root, in table order.\n    #[rustfmt::skip]\n    pub const ALL: &[Root] = &[");
    out.push_str(&all.iter().map(|n| format!("Root::{n}")).collect::<Vec<_>>().join(", "));
    out.push_str("];\n}\n");
    out
}

fn check_or_bless(path: &str, content: &str) {
    let full = format!("{}/{path}", env!("CARGO_MANIFEST_DIR"));
    if std::env::var_os("CIRRUS_BLESS").is_some() {
        std::fs::write(&full, content).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&full).unwrap_or_default();
    assert!(committed == content, "{path} is out of date with the Rust types: run `CIRRUS_BLESS=1 cargo test --test typegen`");
}

#[test]
fn generated_types_and_schemas_are_up_to_date() {
    let reg = trace();
    check_or_bless("js/generated/types.ts", &gen_ts(&reg));
    check_or_bless("js/generated/schema.js", &gen_schema(&reg));
    check_or_bless("src/generated/schema.rs", &gen_rust_schema(&reg));
}

#[test]
fn nullable_fields_are_null_not_undefined_and_money_is_typed() {
    let ts = gen_ts(&trace());
    assert!(ts.contains("  compareAtPrice: string | null;\n"), "{ts}");
    assert!(ts.contains("  metaTitle: string | null;\n"));
    assert!(ts.contains("  pagination?: Pagination;\n"));
    assert!(ts.contains("  address2?: string | null;\n"), "inputs may omit optional fields");
    assert!(ts.contains("export type ProductStatus = \"ACTIVE\" | \"DRAFT\" | \"ARCHIVED\";"));
    assert!(ts.contains("\"invalid_argument\" |"), "error codes are a union");
    assert!(!ts.contains("any") && !ts.contains("undefined"));
}
