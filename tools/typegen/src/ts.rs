//! TypeScript of traced serde formats, shared by every generated file: the one
//! `ts_type`, the declaration of a traced container, and the drift check.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use serde_reflection::{ContainerFormat, Format, Named, VariantFormat};

use crate::docs::{comment, docs};

/// The TypeScript type of a traced field. Amounts, and only they, are `i64` minor
/// units (checked <= 2^53 - 1): the branded `MinorUnits` (sdk.rs declares it), so a
/// decimal or a plain number is not taken for one; counts are u32/u64, `number`. An
/// array of nullable elements is `(T | null)[]` (`T | null[]` would be "T, or an array
/// of nulls").
pub fn ts_type(f: &Format) -> String {
    match f {
        Format::TypeName(n) => n.clone(),
        Format::Bool => "boolean".into(),
        Format::Str | Format::Char => "string".into(),
        Format::I64 => "MinorUnits".into(),
        Format::U8 | Format::U16 | Format::U32 | Format::U64 | Format::I8 | Format::I16 | Format::I32 | Format::F32 | Format::F64 => {
            "number".into()
        }
        Format::Option(inner) => format!("{} | null", ts_type(inner)),
        Format::Seq(inner) => match **inner {
            Format::Option(_) => format!("({})[]", ts_type(inner)),
            _ => format!("{}[]", ts_type(inner)),
        },
        Format::Map { value, .. } => format!("Record<string, {}>", ts_type(value)),
        // A fixed-size array (`[u32; 2]`, a search hit's highlight range) is a tuple.
        Format::TupleArray { content, size } => format!("[{}]", vec![ts_type(content); *size].join(", ")),
        other => panic!("no TypeScript for {other:?}"),
    }
}

/// The values of a unit-only enum (only those cross the boundary).
pub fn enum_values(variants: &BTreeMap<u32, Named<VariantFormat>>) -> Vec<String> {
    variants
        .values()
        .map(|v| {
            assert!(matches!(v.value, VariantFormat::Unit), "only unit enums cross the boundary ({})", v.name);
            v.name.clone()
        })
        .collect()
}

/// How a struct member is declared.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Presence {
    /// `name: T` (an `Option` is `T | null`: present, maybe null).
    Required,
    /// `name?: T` for an `Option<T>` the server leaves out unless asked.
    MayBeMissing,
    /// An argument's member: an `Option<T>` is `name?: T | null`, a defaulted bool `name?: boolean`.
    Input,
}

/// String members that hold a code of one of the core's tables, typed by the union
/// generated from that table (sdk.rs): `(type, member, union)`. serde sees a `String`;
/// the run-time checks (`Currency::from_code`, `country::is_country`) stay for JS callers.
pub const CODES: &[(&str, &str, &str)] = &[
    ("Store", "defaultCurrency", "CurrencyCode"),
    ("InitiateRequest", "currency", "CurrencyCode"),
    ("InitiateResponse", "currency", "CurrencyCode"),
    ("UpdateResponse", "currency", "CurrencyCode"),
    ("CheckoutSession", "currency", "CurrencyCode"),
    ("AdapterSession", "currency", "CurrencyCode"),
    ("ShippingAddress", "country", "CountryCode"),
    ("ShippingRatesRequest", "country", "CountryCode"),
    ("CheckoutOptions", "currency", "CurrencyCode"),
];

/// A member's traced format with [`CODES`] applied (a code's `String`, or `Option<String>`,
/// becomes its union).
pub fn coded(container: &str, field: &str, f: &Format) -> Format {
    match CODES.iter().find(|(c, m, _)| *c == container && *m == field) {
        Some((.., union)) => match f {
            Format::Str => Format::TypeName((*union).to_owned()),
            Format::Option(inner) if **inner == Format::Str => Format::Option(Box::new(Format::TypeName((*union).to_owned()))),
            _ => panic!("{container}.{field} is listed in CODES but is not a string"),
        },
        None => f.clone(),
    }
}

/// The Rust type of an options member only JavaScript can give (`cirrus_storefront::jsobject`):
/// traced as a unit struct of this name, declared from [`JS_MEMBERS`], never in a schema.
pub const JS_OBJECT: &str = "JsObject";

/// Whether a traced member is a [`JS_OBJECT`].
pub fn is_js(f: &Format) -> bool {
    matches!(f, Format::TypeName(n) if n == JS_OBJECT)
}

/// The TypeScript of each [`JS_OBJECT`] member: `(type, member, declaration)`. The shapes
/// they name (`ProcessorAdapter`, `CheckoutCart`) are JS-only, in `js/interfaces.d.ts`.
pub const JS_MEMBERS: &[(&str, &str, &str)] = &[
    ("ClientOptions", "cache", "cache?: CacheStrategy"),
    ("ClientOptions", "fetch", "fetch?: typeof globalThis.fetch"),
    ("CallOptions", "signal", "signal?: AbortSignal"),
    ("CallOptions", "cache", "cache?: CacheStrategy"),
    ("CallOptions", "fetchOptions", "fetchOptions?: { [member: string]: unknown }"),
    ("CallOptions", "onStale", "onStale?: (answer: StaleAnswer) => void"),
    ("StaleAnswer", "error", "error: Error | null"),
    ("PersistentCartOptions", "storage", "storage?: Storage"),
    ("PersistentCartOptions", "onChange", "onChange?: (event: CartEvent) => void"),
    ("CheckoutOptions", "adapter", "adapter: ProcessorAdapter"),
    ("CheckoutOptions", "storage", "storage?: Pick<Storage, \"getItem\" | \"setItem\" | \"removeItem\"> | null"),
    ("CheckoutOptions", "cart", "cart?: CheckoutCart"),
];

/// `name: type` of a traced struct member.
pub fn member(name: &str, f: &Format, presence: Presence) -> String {
    match (f, presence) {
        (Format::Option(inner), Presence::MayBeMissing) => format!("{name}?: {}", ts_type(inner)),
        (Format::Option(inner), Presence::Input) => format!("{name}?: {} | null", ts_type(inner)),
        (Format::Bool, Presence::Input) => format!("{name}?: boolean"),
        (t, _) => format!("{name}: {}", ts_type(t)),
    }
}

/// `name: type` of every member of a traced struct, all [`Presence::Required`].
pub fn members(c: &ContainerFormat, name: &str) -> Vec<String> {
    let ContainerFormat::Struct(fields) = c else { panic!("{name} is not a struct") };
    fields.iter().map(|f| member(&f.name, &coded(name, &f.name, &f.value), Presence::Required)).collect()
}

/// Appends the declaration of `name`: a string-literal union for a unit enum,
/// an interface for a struct (`presence` says how each member is declared).
/// Each carries the Rust doc comments of the type and its members ([`crate::docs`]).
pub fn declare(out: &mut String, name: &str, c: &ContainerFormat, presence: &dyn Fn(&str, &Format) -> Presence) {
    if name == JS_OBJECT {
        return;
    }
    if let Some(d) = docs().of_type(name) {
        comment(out, "", d);
    }
    match c {
        ContainerFormat::Enum(variants) => {
            let vals: Vec<String> = enum_values(variants).iter().map(|v| format!("\"{v}\"")).collect();
            writeln!(out, "export type {name} = {};", vals.join(" | ")).unwrap();
        }
        ContainerFormat::Struct(fields) => {
            writeln!(out, "export interface {name} {{").unwrap();
            for f in fields {
                if let Some(d) = docs().of_member(name, &f.name) {
                    comment(out, "  ", d);
                }
                if is_js(&f.value) {
                    let (.., decl) = JS_MEMBERS
                        .iter()
                        .find(|(c, m, _)| *c == name && *m == f.name)
                        .unwrap_or_else(|| panic!("{name}.{}: a JsObject member not in JS_MEMBERS", f.name));
                    writeln!(out, "  {decl};").unwrap();
                    continue;
                }
                writeln!(out, "  {};", member(&f.name, &coded(name, &f.name, &f.value), presence(&f.name, &f.value))).unwrap();
            }
            out.push_str("}\n");
        }
        other => panic!("{name}: unsupported container {other:?}"),
    }
}

/// Every member required (output types of the cart and the checkout).
pub fn required(_: &str, _: &Format) -> Presence {
    Presence::Required
}

/// Every member an argument's (options of the cart and the checkout).
pub fn input(_: &str, _: &Format) -> Presence {
    Presence::Input
}

/// The line a generated file uses to take hand-written interfaces from
/// `js/interfaces.d.ts` (shipped next to the glue by scripts/build-pkg.sh) into
/// the glue's scope, and to export them from it.
pub fn use_interfaces(out: &mut String, names: &[&str]) {
    let list = names.join(", ");
    writeln!(out, "import type {{ {list} }} from \"./interfaces.js\";\nexport type {{ {list} }};").unwrap();
}
