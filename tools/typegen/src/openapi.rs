//! `server/openapi.yaml`, the dev server's OpenAPI document, from the Rust types: every
//! client operation's path, method, parameters and bodies from `src/endpoint.rs` (`Op`, the
//! `Body` types), every schema from the traced wire types (`src/model.rs`, as sdk.rs traces
//! them) with their doc comments, and the core's request rules ([`RULES`]: the country table,
//! the limits of `src/endpoint.rs` and `src/checkout/validate.rs`). The prose, the server's own
//! operations and what each operation answers are `server/openapi-frame.yaml`'s.
//!
//! Each request schema carries an `example` with every member set, the optional ones too (the
//! dev server's tests send them, so a member the document lacks fails there).

use cirrus_storefront::checkout::validate::{MAX_ADDRESS_FIELD, MAX_RETURN_URL};
use cirrus_storefront::endpoint::{Arg, Body, Call, Method, Op, ProductsQuery, MAX_ITEMS, MAX_LIMIT, MAX_TOKEN_ID, MAX_VARIANT_IDS};
use cirrus_storefront::model::{ConfirmRequest, ErrorBody, InitiateRequest, ServerErrorCode, ShippingRatesRequest, UpdateRequest};
use serde_reflection::{ContainerFormat, Format, Registry, Tracer, TracerConfig};
use serde_yaml::{Mapping, Value};

use crate::docs::docs;
use crate::sdk;

/// A rule of the core on a member, as the document states it.
#[derive(Clone, Copy, Debug)]
pub enum Rule {
    /// Holds a character that is not white space (`endpoint::check_non_empty`).
    NonBlank,
    /// A processor's token id: `ctoken_` or `tok_`, then 1..=`MAX_TOKEN_ID` letters, digits or
    /// `_` (`ConfirmRequest::check`).
    Token,
    /// 1..=`max` ids, each [`Rule::NonBlank`] (`ShippingRatesRequest::check`).
    Ids(usize),
    /// An address member (`checkout::validate_address`): at most [`MAX_ADDRESS_FIELD`]
    /// characters, no control character; a required one not blank.
    AddressField,
    /// `checkout::validate_address`'s e-mail shape, an address member too.
    Email,
    /// A code of `src/country.rs` (the `Country` schema).
    Country,
    /// Three uppercase letters (`InitiateRequest::check`).
    Currency,
    /// `checkout::validate_return_url`: absolute http(s) with a host, no white space.
    ReturnUrl,
    /// A decimal price with two fraction digits (the `Money` schema; the server's prices).
    Money,
    /// An RFC 3339 time.
    DateTime,
    /// An integer (or an array's length) at least the first, at most the second.
    Range(u64, Option<u64>),
    /// A number >= 0 (`ShippingRatesRequest::check`).
    NotNegative,
}

/// The core's rules by `(type, member, rule)`; member `*` is every member of the type
/// without a rule of its own (an address member added to the type is checked as one).
pub const RULES: &[(&str, &str, Rule)] = &[
    ("ShippingRatesRequest", "variantIds", Rule::Ids(MAX_VARIANT_IDS)),
    ("ShippingRatesRequest", "country", Rule::Country),
    ("ShippingRatesRequest", "orderTotal", Rule::NotNegative),
    ("InitiateRequest", "items", Rule::Range(1, Some(MAX_ITEMS as u64))),
    ("InitiateRequest", "currency", Rule::Currency),
    ("PaymentItem", "variantId", Rule::NonBlank),
    ("PaymentItem", "quantity", Rule::Range(1, None)),
    ("UpdateRequest", "sessionId", Rule::NonBlank),
    ("UpdateRequest", "shippingRateId", Rule::NonBlank),
    ("ConfirmRequest", "sessionId", Rule::NonBlank),
    ("ConfirmRequest", "confirmationTokenId", Rule::Token),
    ("ConfirmRequest", "shippingRateId", Rule::NonBlank),
    ("ConfirmRequest", "returnUrl", Rule::ReturnUrl),
    ("ShippingAddress", "email", Rule::Email),
    ("ShippingAddress", "country", Rule::Country),
    ("ShippingAddress", "*", Rule::AddressField),
    ("ProductsOptions", "limit", Rule::Range(1, Some(MAX_LIMIT as u64))),
    // What the server answers (its responses are checked against them).
    ("Pagination", "limit", Rule::Range(1, Some(MAX_LIMIT as u64))),
    ("Variant", "price", Rule::Money),
    ("Variant", "compareAtPrice", Rule::Money),
    ("MinimalProduct", "price", Rule::Money),
    ("CollectionProduct", "price", Rule::Money),
    ("CollectionProduct", "compareAtPrice", Rule::Money),
    ("ShippingRate", "price", Rule::Money),
    ("ShippingRate", "minOrderPrice", Rule::Money),
    ("ShippingRate", "maxOrderPrice", Rule::Money),
    ("Product", "createdAt", Rule::DateTime),
    ("Product", "updatedAt", Rule::DateTime),
    ("Page", "createdAt", Rule::DateTime),
    ("Page", "updatedAt", Rule::DateTime),
    ("Store", "defaultCurrency", Rule::Currency),
    ("InitiateResponse", "currency", Rule::Currency),
    ("UpdateResponse", "currency", Rule::Currency),
];

/// The request bodies: each operation's `Body` type, by its schema root.
fn bodies() -> [(Op, String); 4] {
    fn of<B: Body>() -> (Op, String) {
        (B::OP, format!("{:?}", B::SCHEMA))
    }
    [of::<ShippingRatesRequest>(), of::<InitiateRequest>(), of::<UpdateRequest>(), of::<ConfirmRequest>()]
}

/// A control character (`char::is_control`, Unicode Cc) in a regex class.
const CONTROL: &str = r"\x00-\x1F\x7F-\x9F";

fn rule_of(ty: &str, member: &str) -> Option<Rule> {
    let find = |m: &str| RULES.iter().find(|(t, n, _)| *t == ty && *n == m).map(|(.., r)| *r);
    find(member).or_else(|| find("*"))
}

fn s(v: &str) -> Value {
    Value::String(v.to_owned())
}

fn map(pairs: &[(&str, Value)]) -> Value {
    Value::Mapping(pairs.iter().map(|(k, v)| (s(k), v.clone())).collect())
}

fn reference(name: &str) -> Value {
    map(&[("$ref", s(&format!("#/components/schemas/{name}")))])
}

fn set(v: &mut Value, key: &str, value: Value) {
    v.as_mapping_mut().expect("a schema is a mapping").insert(s(key), value);
}

/// The schema of a traced format (an `Option` inside an array or a map: nullable).
fn schema(f: &Format) -> Value {
    match f {
        Format::TypeName(n) => reference(n),
        Format::Bool => map(&[("type", s("boolean"))]),
        Format::Str => map(&[("type", s("string"))]),
        Format::U8 => map(&[("type", s("integer")), ("minimum", Value::from(0)), ("maximum", Value::from(u8::MAX))]),
        Format::U16 => map(&[("type", s("integer")), ("minimum", Value::from(0)), ("maximum", Value::from(u16::MAX))]),
        Format::U32 => map(&[("type", s("integer")), ("minimum", Value::from(0)), ("maximum", Value::from(u32::MAX))]),
        Format::U64 => map(&[("type", s("integer")), ("minimum", Value::from(0))]),
        Format::I8 | Format::I16 | Format::I32 | Format::I64 => map(&[("type", s("integer"))]),
        Format::F32 | Format::F64 => map(&[("type", s("number"))]),
        Format::Option(inner) => nullable(schema(inner)),
        Format::Seq(inner) => map(&[("type", s("array")), ("items", schema(inner))]),
        Format::Map { value, .. } => map(&[("type", s("object")), ("additionalProperties", schema(value))]),
        other => panic!("no OpenAPI schema for {other:?}"),
    }
}

fn nullable(mut v: Value) -> Value {
    if v.get("$ref").is_some() {
        v = map(&[("allOf", Value::Sequence(vec![v]))]);
    }
    set(&mut v, "nullable", Value::Bool(true));
    v
}

/// `v` with `rule` applied (`required`: the member must be present).
fn apply(mut v: Value, rule: Rule, required: bool) -> Value {
    let max_len = || Value::from(MAX_ADDRESS_FIELD as u64);
    match rule {
        Rule::NonBlank => set(&mut v, "pattern", s(r"\S")),
        Rule::Token => set(&mut v, "pattern", s(&format!("^(?:ctoken|tok)_[A-Za-z0-9_]{{1,{MAX_TOKEN_ID}}}$"))),
        Rule::Ids(max) => {
            set(&mut v, "minItems", Value::from(1));
            set(&mut v, "maxItems", Value::from(max as u64));
            set(&mut v, "items", map(&[("type", s("string")), ("pattern", s(r"\S"))]));
        }
        Rule::AddressField => {
            let pattern = if required { format!("^[^{CONTROL}]*[^\\s{CONTROL}][^{CONTROL}]*$") } else { format!("^[^{CONTROL}]*$") };
            set(&mut v, "maxLength", max_len());
            set(&mut v, "pattern", s(&pattern));
        }
        Rule::Email => {
            let label = format!("[^.@\\s{CONTROL}-](?:[^.@\\s{CONTROL}]*[^.@\\s{CONTROL}-])?");
            set(&mut v, "maxLength", max_len());
            set(&mut v, "pattern", s(&format!("^[^@\\s{CONTROL}]{{1,64}}@{label}(?:\\.{label})+$")));
        }
        Rule::Country => v = reference("Country"),
        Rule::Money => v = reference("Money"),
        Rule::Currency => set(&mut v, "pattern", s("^[A-Z]{3}$")),
        Rule::ReturnUrl => {
            set(&mut v, "maxLength", Value::from(MAX_RETURN_URL as u64));
            set(&mut v, "pattern", s(r"^https?://[^/?#\s]\S*$"));
        }
        Rule::DateTime => set(&mut v, "format", s("date-time")),
        Rule::Range(min, max) => {
            let array = v.get("type") == Some(&s("array"));
            set(&mut v, if array { "minItems" } else { "minimum" }, Value::from(min));
            if let Some(max) = max {
                set(&mut v, if array { "maxItems" } else { "maximum" }, Value::from(max));
            }
        }
        Rule::NotNegative => set(&mut v, "minimum", Value::from(0)),
    }
    v
}

/// An example value of a member with every member set (strings: the rule's example, else
/// the member's name).
fn example(reg: &Registry, f: &Format, name: &str, rule: Option<Rule>) -> Value {
    match (rule, f) {
        (_, Format::Option(inner)) => example(reg, inner, name, rule),
        (Some(Rule::Country), _) => s("US"),
        (Some(Rule::Currency), _) => s("USD"),
        (Some(Rule::Email), _) => s("ada@example.com"),
        (Some(Rule::ReturnUrl), _) => s("https://shop.example/done"),
        (Some(Rule::Ids(_)), _) => Value::Sequence(vec![s("var_1")]),
        (Some(Rule::Token), _) => s("tok_1"),
        (Some(Rule::Range(min, _)), Format::U32 | Format::U64) => Value::from(min),
        (_, Format::Str) => s(name),
        (_, Format::Bool) => Value::Bool(false),
        (_, Format::U8 | Format::U16 | Format::U32 | Format::U64 | Format::I8 | Format::I16 | Format::I32 | Format::I64) => Value::from(1),
        (_, Format::F32 | Format::F64) => Value::from(12.5),
        (_, Format::Seq(inner)) => Value::Sequence(vec![example(reg, inner, name, None)]),
        (_, Format::TypeName(n)) => struct_example(reg, n),
        (_, other) => panic!("{name}: no example for {other:?}"),
    }
}

fn struct_example(reg: &Registry, name: &str) -> Value {
    let ContainerFormat::Struct(fields) = &reg[name] else { panic!("{name} is not a struct") };
    Value::Mapping(fields.iter().map(|f| (s(&f.name), example(reg, &f.value, &f.name, rule_of(name, &f.name)))).collect())
}

/// The component schema of a traced type; `input`: a request's (open, optional members may
/// be left out, with its example), else a response's (closed).
fn component(reg: &Registry, name: &str, input: bool) -> Value {
    let mut out = Mapping::new();
    if let Some(d) = docs().of_type(name) {
        out.insert(s("description"), s(d));
    }
    match &reg[name] {
        ContainerFormat::Enum(variants) => {
            out.insert(s("type"), s("string"));
            out.insert(s("enum"), Value::Sequence(crate::ts::enum_values(variants).iter().map(|v| s(v)).collect()));
        }
        ContainerFormat::Struct(fields) => {
            out.insert(s("type"), s("object"));
            if !input {
                out.insert(s("additionalProperties"), Value::Bool(false));
            }
            let mut required = Vec::new();
            let mut props = Mapping::new();
            for f in fields {
                let optional = match &f.value {
                    Format::Option(_) => input || sdk::MAY_BE_MISSING.contains(&(name, f.name.as_str())),
                    _ => false,
                };
                let base = match &f.value {
                    Format::Option(inner) => schema(inner),
                    other => schema(other),
                };
                let mut v = match rule_of(name, &f.name) {
                    Some(r) => apply(base, r, !optional),
                    None => base,
                };
                let may_be_null = matches!(f.value, Format::Option(_)) && !(optional && !input);
                if may_be_null {
                    v = nullable(v);
                }
                if let Some(d) = docs().of_member(name, &f.name) {
                    set(&mut v, "description", s(d));
                }
                if !optional {
                    required.push(s(&f.name));
                }
                props.insert(s(&f.name), v);
            }
            out.insert(s("required"), Value::Sequence(required));
            out.insert(s("properties"), Value::Mapping(props));
            if input {
                out.insert(s("example"), struct_example(reg, name));
            }
        }
        other => panic!("{name}: unsupported container {other:?}"),
    }
    Value::Mapping(out)
}

/// The wire types, traced (sdk.rs's, and the error body).
fn trace() -> Registry {
    let mut reg = sdk::trace();
    let mut t = Tracer::new(TracerConfig::default());
    t.trace_simple_type::<ServerErrorCode>().unwrap();
    t.trace_simple_type::<ErrorBody>().unwrap();
    for (name, c) in t.registry().expect("complete trace") {
        if let Some(old) = reg.insert(name.clone(), c.clone()) {
            assert_eq!(old, c, "two different shapes named {name}");
        }
    }
    reg
}

/// `ConfirmPayment` → `confirmPayment`.
fn lower_camel(op: Op) -> String {
    let name = format!("{op:?}");
    let mut chars = name.chars();
    chars.next().map(|c| c.to_ascii_lowercase()).into_iter().chain(chars).collect()
}

fn wire_code(code: ServerErrorCode) -> String {
    serde_json::to_value(code).unwrap().as_str().unwrap().to_owned()
}

fn json_content(schema: Value) -> Value {
    map(&[("application/json", map(&[("schema", schema)]))])
}

/// The path item of a client operation; `frame` is its entry of the frame's `operations`.
fn operation(reg: &Registry, op: Op, frame: &Value) -> (String, &'static str, Value) {
    let e = op.endpoint();
    let name = lower_camel(op);
    let mut item = Mapping::new();
    item.insert(s("operationId"), s(&name));
    if let Some(d) = frame.get("description") {
        item.insert(s("description"), d.clone());
    }
    let mut params = Vec::new();
    let path = match e.arg {
        Arg::Segment(what) => {
            params.push(map(&[("name", s(what)), ("in", s("path")), ("required", Value::Bool(true)), ("schema", map(&[("type", s("string"))]))]));
            format!("{}{{{what}}}", e.path)
        }
        _ => e.path.to_owned(),
    };
    let mut ok = reference(&format!("{:?}", e.response));
    if e.arg == Arg::Query {
        let ContainerFormat::Struct(fields) = &reg["ProductsOptions"] else { panic!("ProductsOptions is not a struct") };
        for f in fields {
            let base = match &f.value {
                Format::Option(inner) => schema(inner),
                other => schema(other),
            };
            let v = rule_of("ProductsOptions", &f.name).map_or(base.clone(), |r| apply(base, r, false));
            let mut p = map(&[("name", s(&f.name)), ("in", s("query")), ("schema", v)]);
            if let Some(d) = docs().of_member("ProductsOptions", &f.name) {
                set(&mut p, "description", s(d));
            }
            params.push(p);
        }
        let minimal = Call::products(&ProductsQuery { minimal: true, ..ProductsQuery::default() }).expect("a valid query").response;
        ok = map(&[("anyOf", Value::Sequence(vec![ok, reference(&format!("{minimal:?}"))]))]);
    }
    if !params.is_empty() {
        item.insert(s("parameters"), Value::Sequence(params));
    }
    if e.arg == Arg::Body {
        let (_, root) = bodies().into_iter().find(|(o, _)| *o == op).unwrap_or_else(|| panic!("{op:?}: no Body type"));
        item.insert(s("requestBody"), map(&[("required", Value::Bool(true)), ("content", json_content(reference(&root)))]));
    }
    let mut responses = Mapping::new();
    let ok_text = frame.get("ok").unwrap_or_else(|| panic!("server/openapi-frame.yaml: operations.{name} has no `ok`"));
    responses.insert(s("200"), map(&[("description", ok_text.clone()), ("content", json_content(ok))]));
    let codes: Vec<ServerErrorCode> = serde_yaml::from_value(frame["errors"].clone()).unwrap_or_else(|e| panic!("operations.{name}.errors: {e}"));
    let mut codes: Vec<(u16, ServerErrorCode)> = codes.into_iter().map(|c| (c.status(), c)).collect();
    codes.sort_by_key(|(status, _)| *status);
    for (status, code) in codes {
        responses.insert(s(&status.to_string()), map(&[("$ref", s(&format!("#/components/responses/{}", wire_code(code))))]));
    }
    item.insert(s("responses"), Value::Mapping(responses));
    let method = match e.method {
        Method::Get => "get",
        Method::Post => "post",
    };
    (path, method, Value::Mapping(item))
}

/// `server/openapi.yaml`.
pub fn generate() -> String {
    let frame_path = crate::root().join("server/openapi-frame.yaml");
    let text = std::fs::read_to_string(&frame_path).unwrap_or_else(|e| panic!("{}: {e}", frame_path.display()));
    let frame: Value = serde_yaml::from_str(&text).unwrap_or_else(|e| panic!("server/openapi-frame.yaml: {e}"));
    let reg = trace();
    let mut doc = Mapping::new();
    doc.insert(s("openapi"), s("3.0.3"));
    for key in ["info", "servers", "security"] {
        doc.insert(s(key), frame[key].clone());
    }
    let mut paths = Mapping::new();
    let ops = frame["operations"].as_mapping().expect("operations");
    for op in Op::ALL {
        let name = lower_camel(op);
        let entry = ops.get(s(&name)).unwrap_or_else(|| panic!("server/openapi-frame.yaml: no operations.{name}"));
        let (path, method, item) = operation(&reg, op, entry);
        paths.insert(s(&path), map(&[(method, item)]));
    }
    for k in ops.keys() {
        assert!(Op::ALL.iter().any(|op| s(&lower_camel(*op)) == *k), "server/openapi-frame.yaml: operations.{k:?} is no operation of src/endpoint.rs");
    }
    for (k, v) in frame["paths"].as_mapping().expect("paths") {
        paths.insert(k.clone(), v.clone());
    }
    doc.insert(s("paths"), Value::Mapping(paths));

    let mut components = frame["components"].as_mapping().expect("components").clone();
    let mut responses = Mapping::new();
    for code in ServerErrorCode::ALL {
        let wire = wire_code(code);
        let text = frame["errors"].get(&wire).unwrap_or_else(|| panic!("server/openapi-frame.yaml: no errors.{wire}"));
        let mut r = map(&[("description", text.clone())]);
        if code == ServerErrorCode::RateLimited {
            set(&mut r, "headers", map(&[("Retry-After", map(&[("$ref", s("#/components/headers/RetryAfter"))]))]));
        }
        set(&mut r, "content", json_content(reference("ErrorBody")));
        responses.insert(s(&wire), r);
    }
    components.insert(s("responses"), Value::Mapping(responses));

    let body_roots: Vec<String> = bodies().into_iter().map(|(_, r)| r).collect();
    let inputs = sdk::reachable(&reg, &body_roots.iter().map(String::as_str).collect::<Vec<_>>());
    let outputs = sdk::reachable(&reg, &[sdk::OUTPUTS, &["ErrorBody"]].concat());
    let mut schemas = Mapping::new();
    schemas.insert(
        s("Country"),
        map(&[
            ("description", s("An ISO 3166-1 alpha-2 code, uppercase (src/country.rs `COUNTRIES`).")),
            ("type", s("string")),
            ("enum", Value::Sequence(cirrus_storefront::country::countries().map(s).collect())),
        ]),
    );
    schemas.insert(s("Money"), map(&[("description", s("A decimal amount with two fraction digits.")), ("type", s("string")), ("pattern", s(r"^[0-9]+\.[0-9]{2}$"))]));
    let mut names: Vec<&String> = inputs.iter().chain(&outputs).collect();
    names.sort();
    names.dedup();
    for name in names {
        assert!(!(inputs.contains(name) && outputs.contains(name) && matches!(reg[name], ContainerFormat::Struct(_))), "{name} is both a request's and a response's");
        schemas.insert(s(name), component(&reg, name, inputs.contains(name)));
    }
    components.insert(s("schemas"), Value::Mapping(schemas));
    doc.insert(s("components"), Value::Mapping(components));
    format!(
        "# GENERATED by tools/typegen/ (openapi.rs) from the Rust types and server/openapi-frame.yaml.\n# Do not edit: run `cargo run -p cirrus-typegen`.\n{}",
        serde_yaml::to_string(&Value::Mapping(doc)).unwrap()
    )
}
