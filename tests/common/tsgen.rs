//! What the TypeScript generators of the cart (`tests/cart/types.rs`) and the
//! checkout (`tests/checkout/types.rs`) share: the TypeScript of a traced serde
//! format, the declaration of a traced container, and the drift check.
#![allow(dead_code)]

use std::fmt::Write as _;

use serde_reflection::{ContainerFormat, Format, VariantFormat};

/// The TypeScript type of a traced field.
pub fn ts_type(f: &Format) -> String {
    match f {
        Format::TypeName(n) => n.clone(),
        Format::Bool => "boolean".into(),
        Format::Str => "string".into(),
        // Amounts are i64 minor units checked <= 2^53 - 1; counts are u32/u64.
        Format::U32 | Format::U64 | Format::I64 => "number".into(),
        Format::Option(inner) => format!("{} | null", ts_type(inner)),
        Format::Seq(inner) => format!("{}[]", ts_type(inner)),
        Format::Map { value, .. } => format!("Record<string, {}>", ts_type(value)),
        other => panic!("no TypeScript for {other:?}"),
    }
}

/// `name: type` of every member of a traced struct.
pub fn members(c: &ContainerFormat, name: &str) -> Vec<String> {
    let ContainerFormat::Struct(fields) = c else { panic!("{name} is not a struct") };
    fields.iter().map(|f| format!("{}: {}", f.name, ts_type(&f.value))).collect()
}

/// Appends the declaration of `name`: a string-literal union for a unit enum,
/// an interface for a struct.
pub fn declare(out: &mut String, name: &str, c: &ContainerFormat) {
    match c {
        ContainerFormat::Enum(variants) => {
            let vals: Vec<String> = variants
                .values()
                .map(|v| {
                    assert!(matches!(v.value, VariantFormat::Unit), "{name}: only unit enums");
                    format!("\"{}\"", v.name)
                })
                .collect();
            writeln!(out, "export type {name} = {};", vals.join(" | ")).unwrap();
        }
        ContainerFormat::Struct(_) => {
            writeln!(out, "export interface {name} {{").unwrap();
            for m in members(c, name) {
                writeln!(out, "  {m};").unwrap();
            }
            out.push_str("}\n");
        }
        other => panic!("{name}: unsupported container {other:?}"),
    }
}

/// `path` must hold `content`; with `CIRRUS_BLESS` set it is written instead.
pub fn up_to_date(path: &str, content: &str, test: &str) {
    if std::env::var_os("CIRRUS_BLESS").is_some() {
        std::fs::write(path, content).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(path).unwrap_or_default();
    assert!(committed == content, "{path} is stale: run `CIRRUS_BLESS=1 cargo test --test {test}`\n--- want\n{content}");
}
