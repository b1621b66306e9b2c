//! The wire types' files, from the Rust types in src/model.rs, src/error.rs,
//! src/options.rs and src/request.rs (serde-reflection traces their
//! `Deserialize` impls, so renames and nullability are the real ones):
//! - `js/generated/types.ts`: the TypeScript types of the package (included in
//!   the wasm-bindgen `.d.ts` by `src/wasm/client.rs`);
//! - `src/generated/schema.rs`: the same schemas as a Rust table, with type
//!   names resolved to indices and the typed `Root` enum, for `src/jsoncheck.rs`.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use cirrus_storefront::error::ErrorCode;
use cirrus_storefront::model::*;
use cirrus_storefront::cache::{CacheMembers, StaleAnswer, StaleReason, NO_STORE};
use cirrus_storefront::options::{AllProductsOptions, CallOptions, ClientOptions};
use cirrus_storefront::endpoint::ProductsQuery;
use serde_reflection::{ContainerFormat, Format, Registry, Tracer, TracerConfig};

use crate::ts::{self, Presence};

/// Output types: `Option` is "present, maybe null".
pub const OUTPUTS: &[&str] = &[
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
    &["ClientOptions", "CallOptions", "CacheMembers", "AllProductsOptions", "ProductsOptions", "ShippingRatesRequest", "InitiateRequest", "UpdateRequest", "ConfirmRequest", "ShippingAddress", "PaymentItem"];

/// Types TypeScript declares as a string or a traced struct (serde-reflection traces no such
/// type): `(name, the string, the struct, the Rust type whose doc comment it carries)`.
const STRING_OR: &[(&str, &str, &str, &str)] = &[("CacheStrategy", NO_STORE, "CacheMembers", "Strategy")];

/// Argument roots of the storefront helpers (`src/storefront/`; both entries export them), in
/// the schema only (storefront.rs declares what JS sees): read as the client's inputs are.
const STOREFRONT_INPUTS: &[&str] = &["StoreSettings", "ResourceArg"];

/// Argument roots of the cart and the checkout, in the schema only (no TypeScript here:
/// cart.rs and checkout.rs declare what JS sees): the product `Cart.add` takes and the
/// stored checkout record (`src/checkout/stored.rs`). Unlike the client's options, an
/// `Option` may be omitted but a `bool` must be given (no `#[serde(default)]` on them).
const CART_CHECKOUT_INPUTS: &[&str] = &["CartProduct", "StoredCheckout", "PersistentCartOptions", "CheckoutOptions", "PayOptions"];

/// What the checkout module (`pkg/checkout/`: the crate built with the `checkout` feature
/// alone) checks values against besides [`CART_CHECKOUT_INPUTS`]: the answers of the payment
/// calls and the arguments it reads. Every other entry of the response and client-argument
/// schemas is absent from that build (`Entry::Absent` keeps the table's indices): the
/// catalog's and the store's schema, 1.6 KB gz the checkout module never reads. A root the
/// checkout's code names that is not reached from these is reported by `jsoncheck` as absent
/// from the module (stage `60-checkout` runs its checks), never passed unchecked.
const CHECKOUT_ROOTS: &[&str] = &["InitiateResponse", "UpdateResponse", "ConfirmResponse", "ShippingRatesResponse", "ShippingAddress", "PaymentItem"];

/// The features of every build but the checkout module's (Cargo.toml `[features]`).
const NOT_CHECKOUT_ONLY: &str = "any(feature = \"client\", feature = \"cart\", feature = \"storefront\")";

/// The per-state roots of the stored checkout (`Root::STORED_STATES`), strict inputs too.
fn stored_states() -> Vec<String> {
    crate::checkout::stored_roots().1.into_iter().map(|(_, root)| root).collect()
}

/// Output fields the server omits unless asked (`#[serde(default)]` in model.rs).
pub const MAY_BE_MISSING: &[(&str, &str)] =
    &[("ProductsResponse", "pagination"), ("MinimalProductsResponse", "pagination")];

/// The wire types, traced.
pub fn trace() -> Registry {
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
            t.trace_simple_type::<AllProductsOptions>().unwrap();
            t.trace_simple_type::<CallOptions>().unwrap();
            t.trace_simple_type::<CacheMembers>().unwrap();
            t.trace_simple_type::<StaleReason>().unwrap();
            t.trace_simple_type::<StaleAnswer>().unwrap();
        },
        None,
    );
    one(&|t| drop(t.trace_simple_type::<ProductsQuery>().unwrap()), Some(("ProductsQuery", "ProductsOptions")));
    reg
}

/// The types of [`STOREFRONT_INPUTS`] and [`CART_CHECKOUT_INPUTS`], traced (the wire types
/// among them are the same shapes).
pub fn trace_cart_checkout() -> Registry {
    use cirrus_storefront::cart::{CartProduct, PersistentCartOptions};
    use cirrus_storefront::checkout::{CheckoutOptions, PayOptions};
    use cirrus_storefront::storefront::{routes::{ResourceArg, ResourceKind}, StoreSettings};
    let mut t = Tracer::new(TracerConfig::default());
    t.trace_simple_type::<StoreSettings>().unwrap();
    t.trace_simple_type::<ResourceKind>().unwrap();
    t.trace_simple_type::<ResourceArg>().unwrap();
    t.trace_simple_type::<ProductStatus>().unwrap();
    t.trace_simple_type::<StockStatus>().unwrap();
    crate::checkout::trace_enums(&mut t);
    t.trace_simple_type::<CartProduct>().unwrap();
    t.trace_simple_type::<PersistentCartOptions>().unwrap();
    t.trace_simple_type::<CheckoutOptions>().unwrap();
    t.trace_simple_type::<PayOptions>().unwrap();
    let mut reg = t.registry().expect("complete trace");
    for (name, c) in crate::checkout::stored_roots().0 {
        if let Some(old) = reg.insert(name.clone(), c.clone()) {
            assert_eq!(old, c, "two different shapes named {name}");
        }
    }
    reg
}

/// Every type reachable from `roots`.
pub fn reachable(reg: &Registry, roots: &[&str]) -> Vec<String> {
    fn walk(f: &Format, out: &mut Vec<String>, reg: &Registry) {
        match f {
            Format::TypeName(n) => visit(n, out, reg),
            Format::Option(i) | Format::Seq(i) => walk(i, out, reg),
            Format::Map { value, .. } => walk(value, out, reg),
            _ => {}
        }
    }
    fn visit(n: &str, out: &mut Vec<String>, reg: &Registry) {
        if n == ts::JS_OBJECT || out.iter().any(|o| o == n) {
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

/// `js/generated/types.ts`.
pub fn gen_ts(reg: &Registry) -> String {
    let inputs = reachable(reg, INPUTS);
    let mut out = String::from(
        "// GENERATED by tools/typegen/ (sdk.rs) from the Rust types in src/model.rs, src/error.rs,\n\
         // src/options.rs and src/endpoint.rs. Do not edit: run `cargo run -p cirrus-typegen`.\n",
    );
    codes(&mut out);
    for (name, c) in reg {
        let input = inputs.contains(name) && !OUTPUTS.contains(&name.as_str());
        let presence = |field: &str, _: &Format| {
            if input {
                Presence::Input
            } else if MAY_BE_MISSING.contains(&(name.as_str(), field)) {
                Presence::MayBeMissing
            } else {
                Presence::Required
            }
        };
        ts::declare(&mut out, name, c, &presence);
    }
    for (name, string, object, doc) in STRING_OR {
        assert!(reg.contains_key(*object), "{name}: {object} is not traced");
        if let Some(d) = crate::docs::docs().of_type(doc) {
            crate::docs::comment(&mut out, "", d);
        }
        writeln!(out, "export type {name} = \"{string}\" | {object};").unwrap();
    }
    out
}

/// The code unions, from the core's own tables (src/money.rs `CURRENCIES`,
/// src/country.rs `COUNTRIES`), and the minor-units brand every `i64` is typed with.
fn codes(out: &mut String) {
    let union = |out: &mut String, doc: &str, name: &str, codes: Vec<&str>| {
        let rows: Vec<String> =
            codes.chunks(16).map(|row| row.iter().map(|c| format!("\"{c}\"")).collect::<Vec<_>>().join(" | ")).collect();
        writeln!(out, "/** {doc} */\nexport type {name} =\n  | {};", rows.join("\n  | ")).unwrap();
    };
    union(
        out,
        "An ISO 4217 currency code the SDK knows (its table: src/money.rs `CURRENCIES`); `new Cart(\"usd\")` does not compile.",
        "CurrencyCode",
        cirrus_storefront::money::currencies().map(|c| c.code()).collect(),
    );
    union(
        out,
        "An ISO 3166-1 alpha-2 country code, uppercase (its table: src/country.rs `COUNTRIES`); `\"us\"` and `\"USA\"` do not compile.",
        "CountryCode",
        cirrus_storefront::country::countries().collect(),
    );
    for line in [
        "/**",
        " * Integer minor units of a currency (1999 is $19.99 in USD): what `parseMoney`, `addMoney` and the",
        " * cart's amounts are, and what `formatMoney`, `addMoney` and `moneyToDecimal` take. A branded",
        " * `number` (no run-time cost), so a decimal price or a plain number is not taken for one: make one",
        " * from a decimal string with `parseMoney(\"19.99\", \"USD\")`, or from an integer with `minorUnits(1999)`.",
        " * (A string-keyed brand, so every entry's declarations name the same type.)",
        " */",
        "export type MinorUnits = number & { readonly __minorUnits: true };",
    ] {
        writeln!(out, "{line}").unwrap();
    }
}

/// A type as the Rust expression `src/jsoncheck.rs` reads
/// (`Null(&Array(&Ref(7)))` for a nullable array of `Image` when `Image` is entry 7).
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

/// The response schemas of `gen_schema` as a Rust table (`src/generated/schema.rs`);
/// `extra` is [`trace_cart_checkout`].
pub fn gen_rust_schema(wire: &Registry, extra: &Registry) -> String {
    let mut reg = wire.clone();
    for (name, c) in extra {
        if let Some(old) = reg.insert(name.clone(), c.clone()) {
            assert_eq!(&old, c, "two different shapes named {name}");
        }
    }
    let reg = &reg;
    let outputs = reachable(reg, OUTPUTS);
    // Then the argument types (the client names the path of a bad argument with them):
    // an optional field (`Option`, or a defaulted `bool`) may be omitted.
    let mut inputs: Vec<String> = reachable(reg, INPUTS).into_iter().filter(|n| !outputs.contains(n)).collect();
    // Then the storefront helpers' (as the client's: every entry has them).
    let helpers: Vec<String> = reachable(reg, STOREFRONT_INPUTS).into_iter().filter(|n| !outputs.contains(n) && !inputs.contains(n)).collect();
    inputs.extend(helpers);
    // Then the cart's and the checkout's (an `Option` may be omitted, a `bool` not).
    let strict: Vec<String> =
        reachable(reg, &[CART_CHECKOUT_INPUTS, &stored_states().iter().map(String::as_str).collect::<Vec<_>>()].concat())
            .into_iter()
            .filter(|n| !outputs.contains(n) && !inputs.contains(n))
            .collect();
    let all: Vec<String> = outputs.iter().chain(&inputs).chain(&strict).cloned().collect();
    let checkout = reachable(reg, CHECKOUT_ROOTS);
    let index: BTreeMap<&str, usize> = all.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
    let mut out = String::from(
        "//! GENERATED by tools/typegen/ (sdk.rs) from the Rust types in src/model.rs, src/cart/ and\n\
         //! src/checkout/. Do not edit: run `cargo run -p cirrus-typegen`. Read by src/jsoncheck.rs.\n\
         //!\n\
         //! The response schemas, then the argument schemas (the client's, then the cart's and the\n\
         //! checkout's), with names resolved: `Ref(n)` is\n\
         //! entry `n` of [`SCHEMA`] (named in its comment and by [`Root`]); `Null` may be null, `Opt` may be null or\n\
         //! absent, `Array` is an array of, `Map` a map of. A struct lists its members in order, with\n\
         //! the bit set of those that must be present (every one that is not `Opt`). The cart's and the\n\
         //! checkout's entries exist in the builds with either; the checkout module's build (the\n\
         //! `checkout` feature alone) has the others it never reads as `Absent`.\n\
         \n\
         #[allow(unused_imports)] // whichever the types need\n\
         use super::{\n    Entry::{self, Absent, Enum, Struct},\n    Ty::{Array, Bool, Map, Null, Opt, Ref, Str, F64, I53, U32, U53},\n};\n\
         \n\
         #[rustfmt::skip]\n\
         pub(crate) static SCHEMA: &[Entry] = &[\n",
    );
    // The cart's and the checkout's entries come last, and only the root build has them
    // (nothing in a build without the cart and the checkout checks against them; no entry before them refers to them).
    for (i, name) in all.iter().enumerate() {
        let lenient = inputs.contains(name);
        let input = lenient || strict.contains(name);
        let gate = if strict.contains(name) {
            "#[cfg(any(feature = \"cart\", feature = \"checkout\"))] ".to_owned()
        } else if checkout.contains(name) {
            String::new()
        } else {
            // The checkout module's build has it as `Absent` (its index kept, its schema left out).
            writeln!(out, "    #[cfg(not({NOT_CHECKOUT_ONLY}))] /* {i} {name} */ Absent,").unwrap();
            format!("#[cfg({NOT_CHECKOUT_ONLY})] ")
        };
        match &reg[name] {
            ContainerFormat::Enum(variants) => {
                let vals: Vec<String> = ts::enum_values(variants).iter().map(|v| format!("\"{v}\"")).collect();
                writeln!(out, "    {gate}/* {i} {name} */ Enum(&[{}]),", vals.join(", ")).unwrap();
            }
            ContainerFormat::Struct(fields) => {
                assert!(fields.len() <= 64, "{name}: src/jsoncheck.rs tracks at most 64 members");
                let mut required = 0_u64;
                // A JS-only member (`JsObject`) is not JSON: the schema leaves it out.
                let fs: Vec<String> = fields
                    .iter()
                    .filter(|f| !ts::is_js(&f.value))
                    .enumerate()
                    .map(|(k, f)| {
                        let t = match &f.value {
                            Format::Option(inner) if input || MAY_BE_MISSING.contains(&(name.as_str(), f.name.as_str())) => {
                                format!("Opt(&{})", rust_type(inner, &index))
                            }
                            Format::Bool if lenient => "Opt(&Bool)".to_owned(),
                            t => {
                                required |= 1 << k;
                                rust_type(t, &index)
                            }
                        };
                        format!("(\"{}\", {t})", f.name)
                    })
                    .collect();
                writeln!(out, "    {gate}/* {i} {name} */ Struct {{ required: {required:#x}, members: &[{}] }},", fs.join(", ")).unwrap();
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
    out.push_str("];\n");
    // The stored checkout's per-state roots, in the order of the states (src/checkout/stored.rs).
    out.push_str("\n    /// The stored checkout of each state, by its tag (`StoredCheckout` is any state's).\n    #[rustfmt::skip]\n    pub const STORED_STATES: &[(&str, Root)] = &[");
    out.push_str(&crate::checkout::stored_roots().1.iter().map(|(tag, n)| format!("(\"{tag}\", Root::{n})")).collect::<Vec<_>>().join(", "));
    out.push_str("];\n}\n");
    out
}

