//! The generator's tests: the drift check (stage 10-core) and what the generated types must say.

use serde_reflection::Format;

use crate::{cart, checkout, sdk, storefront, ts};

#[test]
fn generated_files_are_up_to_date() {
    let stale = crate::stale();
    assert!(stale.is_empty(), "out of date with the Rust types: {}; run `cargo run -p cirrus-typegen`", stale.join(", "));
}

#[test]
fn nullable_fields_are_null_not_undefined_and_money_is_typed() {
    let ts = sdk::gen_ts(&sdk::trace());
    assert!(ts.contains("  compareAtPrice: string | null;\n"), "{ts}");
    assert!(ts.contains("  metaTitle: string | null;\n"));
    assert!(ts.contains("  pagination?: Pagination;\n"));
    assert!(ts.contains("  address2?: string | null;\n"), "inputs may omit optional fields");
    assert!(ts.contains("export type ProductStatus = \"ACTIVE\" | \"DRAFT\" | \"ARCHIVED\";"));
    assert!(ts.contains("\"invalid_argument\" |"), "error codes are a union");
    assert!(ts.contains("  /** A `fetch` implementation (SSR, tests); default `globalThis.fetch`. */\n  fetch?: typeof globalThis.fetch;\n}\n"));
    let code: Vec<&str> = ts.lines().filter(|l| !matches!(l.trim_start().chars().next(), Some('/' | '*'))).collect();
    assert!(code.iter().all(|l| !l.contains("any") && !l.contains("undefined")), "no `any`, no `undefined` type: {ts}");
}

#[test]
fn codes_are_unions_of_the_core_tables() {
    let ts = sdk::gen_ts(&sdk::trace());
    let union = |name: &str| -> Vec<String> {
        let start = ts.find(&format!("export type {name} =\n")).unwrap_or_else(|| panic!("no {name}: {ts}"));
        let decl = &ts[start..start + ts[start..].find(';').unwrap()];
        decl.split('"').skip(1).step_by(2).map(str::to_owned).collect()
    };
    let currencies: Vec<String> = cirrus_storefront::money::currencies().map(|c| c.code().to_owned()).collect();
    assert_eq!(union("CurrencyCode"), currencies);
    assert_eq!(union("CountryCode").len(), 249);
    assert!(union("CountryCode").iter().all(|c| cirrus_storefront::country::is_country(c)));
    assert!(ts.contains("  country: CountryCode;\n"), "ShippingAddress, ShippingRatesRequest: {ts}");
    assert!(ts.contains("  defaultCurrency: CurrencyCode;\n"), "{ts}");
    assert!(ts.contains("  amount: MinorUnits;\n"), "{ts}");
    assert!(checkout::generate().contains("  currency: CurrencyCode;\n"));
}

#[test]
fn an_array_of_nullable_elements_is_parenthesised() {
    let nullable = Format::Option(Box::new(Format::TypeName("Image".into())));
    assert_eq!(ts::ts_type(&Format::Seq(Box::new(nullable.clone()))), "(Image | null)[]");
    assert_eq!(ts::ts_type(&Format::Option(Box::new(Format::Seq(Box::new(Format::Str))))), "string[] | null");
    assert_eq!(ts::member("x", &nullable, ts::Presence::MayBeMissing), "x?: Image");
}

#[test]
fn cart_change_kinds_and_report_fields_match_serde() {
    use cirrus_storefront::cart::RefreshReport;
    for c in cart::samples() {
        let v = serde_json::to_value(&c).unwrap();
        assert_eq!(v["kind"], cart::change_kind(&c).0, "{v}");
    }
    let report = RefreshReport { changes: cart::samples(), unchecked: vec![] };
    let v = serde_json::to_value(&report).unwrap();
    let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
    assert_eq!(keys, ["changes", "unchecked"]);
}

#[test]
fn cart_nullable_amounts_are_null_in_types() {
    let ts = cart::generate(&sdk::trace());
    assert!(ts.contains("  compareAtPrice: MinorUnits | null;"), "amounts are the minor-units brand: {ts}");
    assert!(ts.contains("  itemCount: number;"), "counts are plain numbers: {ts}");
    assert!(ts.contains("  image: Image | null;"), "{ts}");
    assert!(ts.contains("export type RestoreProblemKind = \"corrupt\" | \"unknown_version\""), "{ts}");
    assert!(!ts.contains("export interface Image "), "wire types are declared once, in types.ts");
}

#[test]
fn checkout_states_are_a_union_tagged_by_state() {
    let ts = checkout::generate();
    assert!(ts.contains("  | { state: \"idle\" }\n"), "{ts}");
    assert!(ts.contains("import type { CheckoutCart, CheckoutClient, CheckoutListener, ConfirmAnswer, ProcessorAdapter } from \"./interfaces.js\";"), "{ts}");
}

#[test]
fn store_resource_kinds_match_serde() {
    for r in storefront::samples() {
        let v = serde_json::to_value(&r).unwrap();
        let (kind, slug) = storefront::resource_kind(&r);
        assert_eq!(v["kind"], kind, "{v}");
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys, if slug { vec!["kind", "slug"] } else { vec!["kind"] }, "{v}");
    }
}

#[test]
fn storefront_types_spell_the_wire_names() {
    let ts = storefront::generate(&sdk::trace());
    assert!(ts.contains("  type: string;"), "OpenGraph.type: {ts}");
    assert!(ts.contains("  selectedVariant: Variant | null;"), "{ts}");
    assert!(ts.contains("  selection: Record<string, string>;"), "{ts}");
    assert!(!ts.contains("export interface Variant "), "Variant comes from types.ts: {ts}");
}

#[test]
fn openapi_rules_are_the_core_tables_and_limits() {
    use cirrus_storefront::endpoint::{MAX_LIMIT, MAX_VARIANT_IDS};
    let doc: serde_yaml::Value = serde_yaml::from_str(&crate::openapi::generate()).unwrap();
    let schemas = &doc["components"]["schemas"];
    let countries: Vec<&str> = schemas["Country"]["enum"].as_sequence().unwrap().iter().map(|c| c.as_str().unwrap()).collect();
    assert_eq!(countries, cirrus_storefront::country::countries().collect::<Vec<_>>());
    assert!(!countries.contains(&"ZZ"));
    for holder in ["ShippingAddress", "ShippingRatesRequest"] {
        assert_eq!(schemas[holder]["properties"]["country"]["$ref"], "#/components/schemas/Country", "{holder}");
    }
    assert_eq!(schemas["ShippingRatesRequest"]["properties"]["variantIds"]["maxItems"], MAX_VARIANT_IDS as u64);
    let limit = &doc["paths"]["/products"]["get"]["parameters"][0];
    assert_eq!((limit["name"].as_str(), limit["schema"]["maximum"].as_u64()), (Some("limit"), Some(u64::from(MAX_LIMIT))));
    // Every request member optional in the type is optional in the document, and set in its example.
    let address = &schemas["ShippingAddress"];
    assert!(!address["required"].as_sequence().unwrap().iter().any(|m| m == "phone"));
    assert_eq!(address["example"]["phone"], "phone");
}
