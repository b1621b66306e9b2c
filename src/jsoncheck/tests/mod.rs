//! Tests of the JSON checker: its messages on plain expected cases, its
//! syntax against serde_json, its schema decisions against an oracle written
//! over `serde_json::Value` from the Rust schema table (the first problem in
//! document order) and against decoding into the model types; and a
//! benchmark (ignored).
//!
//! The property tests run `JSONCHECK_CASES` cases each (default 300, a few
//! seconds in all); for a long run:
//! `JSONCHECK_CASES=1000000 cargo test --profile server -p cirrus-storefront --lib jsoncheck`.


use proptest::prelude::*;
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

use super::*;
use crate::model::*;

/// Only that `body` is JSON that `JSON.parse` accepts, nested at most
/// [`MAX_DEPTH`] deep, as [`check`] reports it: the scan against a string,
/// whose schema problem (the body is seldom a string) is not looked at.
pub(super) fn check_syntax(body: &[u8]) -> Result<(), Problem> {
    let mut scan = Scan::new(body, 0);
    if scan.document(&Ty::Str).is_err() {
        return Err(scan.stop.problem(body.len()));
    }
    Ok(())
}

/// The oracle (the schema table over `serde_json::Value`) and the property tests.
mod props;

/// The root of a schema by its name (the fixtures and the oracle name them).
fn root_named(name: &str) -> Root {
    *Root::ALL.iter().find(|r| format!("{r:?}") == name).expect("a schema of that name")
}

fn check(body: &[u8], root: &str) -> Result<(), Problem> {
    super::check(body, root_named(root))
}

fn check_str(body: &str, root: &str) -> Result<(), Problem> {
    super::check_str(body, root_named(root))
}

// ---------------------------------------------------------------- fixtures

const ADJECTIVES: &[&str] = &["Everyday", "Classic", "Rugged", "Featherweight", "Heritage", "Coastal", "Alpine", "Urban"];
const MATERIALS: &[&str] = &["Merino", "Canvas", "Linen", "Organic Cotton", "Waxed Cotton", "Recycled Nylon"];
const NOUNS: &[&str] = &["Crew Tee", "Overshirt", "Tote", "Beanie", "Field Jacket", "Hoodie", "Backpack"];
const SIZES: &[&str] = &["XS", "S", "M", "L", "XL", "XXL"];
const COLORS: &[&str] = &["Black", "Navy", "Olive", "Sand", "Rust"];

fn image(url: String, alt: String) -> Image {
    Image { url, alt }
}

fn collection_ref(k: usize) -> CollectionRef {
    CollectionRef { id: format!("col_{k:03}"), name: format!("Collection {k}"), slug: format!("collection-{k}") }
}

/// A product shaped like the dev server's seed (`server/src/db.rs`): options,
/// their cartesian variants with attributes, images, nulls and non-nulls.
fn product(i: usize) -> Product {
    let name = format!("{} {} {}", ADJECTIVES[i % 8], MATERIALS[i / 8 % 6], NOUNS[i / 48 % 7]);
    let slug = format!("{}-{i}", name.to_lowercase().replace(' ', "-"));
    let sizes = &SIZES[..2 + i % 5];
    let colors = &COLORS[..1 + i % 3];
    let value = |oid: &str, k: usize, v: &str| OptionValue { id: format!("optv_{oid}_{k}"), value: v.to_owned(), position: k as u32 };
    let options = vec![
        ProductOption {
            id: format!("opt_{i:04}_s"),
            name: "Size".into(),
            display_style: DisplayStyle::Dropdown,
            position: 0,
            values: sizes.iter().enumerate().map(|(k, v)| value("s", k, v)).collect(),
        },
        ProductOption {
            id: format!("opt_{i:04}_c"),
            name: "Color".into(),
            display_style: DisplayStyle::Dropdown,
            position: 1,
            values: colors.iter().enumerate().map(|(k, v)| value("c", k, v)).collect(),
        },
    ];
    let mut variants = Vec::new();
    for (si, s) in sizes.iter().enumerate() {
        for c in colors {
            let k = variants.len();
            let cents = 1999 + (i % 50) * 100 + si * 200;
            variants.push(Variant {
                id: format!("var_{i:04}_{k:02}"),
                price: format!("{}.{:02}", cents / 100, cents % 100),
                compare_at_price: (i % 4 == 0).then(|| format!("{}.99", cents / 80)),
                stock_quantity: ((i * 7 + k * 3) % 41) as u32,
                stock_status: if (i + k) % 9 == 0 { StockStatus::OutOfStock } else { StockStatus::InStock },
                image: (i % 5 != 0).then(|| image(format!("/static/products/{slug}-{}.svg", c.to_lowercase()), format!("{name} in {c}"))),
                attributes: [("Size".to_owned(), (*s).to_owned()), ("Color".to_owned(), (*c).to_owned())].into_iter().collect(),
            });
        }
    }
    Product {
        id: format!("prod_{:016x}", i * 0x9e37_79b9),
        store_id: "store_cirrus".into(),
        status: ProductStatus::Active,
        description: format!(
            "The {name} is part of our {} range: {}, built for daily use and easy repair. Designed in small batches and tested for a year before it reached the shop.",
            NOUNS[i / 48 % 7].to_lowercase(),
            MATERIALS[i / 8 % 6].to_lowercase()
        ),
        meta_title: (i % 3 != 0).then(|| format!("{name} | Cirrus Outfitters")),
        meta_description: (i % 4 != 0).then(|| format!("Shop the {name} at Cirrus Outfitters.")),
        images: (1..=1 + i % 3).map(|k| image(format!("/static/products/{slug}-{k}.svg"), format!("{name}, view {k}"))).collect(),
        tags: ["apparel", "merino", "sale", "bestseller"][..2 + i % 3].iter().map(|t| (*t).to_owned()).collect(),
        created_at: format!("2025-01-{:02}T10:{:02}:00.000Z", 1 + i % 28, i % 60),
        updated_at: format!("2025-02-{:02}T08:{:02}:00.000Z", 1 + i % 28, i % 60),
        options,
        variants,
        collections: (0..1 + i % 2).map(|k| collection_ref(i % 7 + k)).collect(),
        name,
        slug,
    }
}

/// A `GET /products` body of `n` products.
fn products_body(n: usize) -> Vec<u8> {
    serde_json::to_vec(&ProductsResponse { products: (0..n).map(product).collect(), pagination: None }).unwrap()
}

fn collection(k: usize) -> Collection {
    let p = product(k);
    Collection {
        id: format!("col_{k:03}"),
        name: format!("Collection {k}"),
        slug: format!("collection-{k}"),
        description: "Everything for the trail.".into(),
        meta_title: "Trail | Cirrus".into(),
        meta_description: "Shop the trail collection.".into(),
        image: (k % 2 == 0).then(|| image("/static/c.svg".into(), "A trail".into())),
        parent: (k % 2 == 1).then(|| "col_000".into()),
        products: vec![CollectionProduct {
            id: p.id,
            name: p.name,
            slug: p.slug,
            images: p.images,
            tags: p.tags,
            price: "19.99".into(),
            compare_at_price: (k % 2 == 0).then(|| "24.99".into()),
        }],
        breadcrumb: vec![collection_ref(0), collection_ref(k)],
    }
}

fn store() -> Store {
    let s = |v: &str| v.to_owned();
    Store {
        id: s("store_cirrus"),
        name: s("Cirrus Outfitters"),
        default_currency: s("USD"),
        contact_email: s("hello@cirrus.example"),
        frontend_domain: s("shop.cirrus.example"),
        logo_url: s("/static/logo.svg"),
        logo_height_desktop: 40.0,
        logo_height_mobile: 32.5,
        header_padding_desktop: 16.0,
        header_padding_mobile: 12.0,
        favicon_url: s("/static/favicon.ico"),
        email_logo_url: s("/static/email-logo.png"),
        processing_time_min: 1.0,
        processing_time_max: 3.0,
        shipping_time_min: 2.0,
        shipping_time_max: 7.0,
        return_period_days: 30.0,
        refund_time_min: 5.0,
        refund_time_max: 10.0,
        business_hours_weekday_open: s("09:00"),
        business_hours_weekday_close: s("17:00"),
        business_hours_weekend_open: s("10:00"),
        business_hours_weekend_close: s("14:00"),
        route_products: s("products"),
        route_collections: s("collections"),
        route_pages: s("pages"),
        home_meta_title: s("Cirrus Outfitters"),
        home_meta_description: s("Clothes for the outdoors."),
    }
}

fn breakdown() -> Breakdown {
    Breakdown { subtotal: 5998, shipping: 500, tax: 480, total: 6978 }
}

/// A valid body of every response schema (`ProductsResponse` twice: with and
/// without `pagination`).
fn fixtures() -> Vec<(&'static str, Value)> {
    let v = |x: &dyn erased::Ser| x.value();
    let rate = |k: u32, max: Option<&str>| ShippingRate {
        id: format!("rate_{k}"),
        name: "Standard".into(),
        price: "4.99".into(),
        delivery_description: "3-5 business days".into(),
        delivery_timeframe_min: 3,
        delivery_timeframe_max: 5 + k,
        min_order_price: None,
        max_order_price: max.map(str::to_owned),
    };
    let page = |k: usize| Page {
        id: format!("page_{k}"),
        title: "About".into(),
        slug: "about".into(),
        content: "<p>We make clothes.</p>\n<p>Since 2019.</p>".into(),
        page_type: "about".into(),
        frontend_id: "about".into(),
        meta_title: "About us".into(),
        meta_description: "Who we are".into(),
        created_at: "2025-01-01T00:00:00.000Z".into(),
        updated_at: "2025-01-02T00:00:00.000Z".into(),
    };
    let minimal = |p: Product| MinimalProduct { id: p.id, name: p.name, slug: p.slug, images: p.images, tags: p.tags, price: "19.99".into() };
    vec![
        ("ProductsResponse", v(&ProductsResponse { products: (0..3).map(product).collect(), pagination: None })),
        (
            "ProductsResponse",
            v(&ProductsResponse {
                products: vec![product(4)],
                pagination: Some(Pagination { total: 600, limit: 1, offset: 4, has_more: true }),
            }),
        ),
        (
            "MinimalProductsResponse",
            v(&ProductsResponse {
                products: (0..3).map(|i| minimal(product(i))).collect(),
                pagination: Some(Pagination { total: 3, limit: 50, offset: 0, has_more: false }),
            }),
        ),
        ("ProductResponse", v(&ProductResponse { product: product(5) })),
        ("PagesResponse", v(&PagesResponse { pages: vec![page(0), page(1)] })),
        ("CollectionsResponse", v(&CollectionsResponse { collections: vec![collection(0), collection(1)] })),
        ("CollectionResponse", v(&CollectionResponse { collection: collection(2) })),
        ("StoreResponse", v(&StoreResponse { store: store() })),
        (
            "ShippingRatesResponse",
            v(&ShippingRatesResponse {
                variant_rates: vec![VariantRates { variant_id: "var_1".into(), profile_id: "prof_standard".into(), rates: vec![rate(0, Some("100.00")), rate(1, None)] }],
            }),
        ),
        (
            "InitiateResponse",
            v(&InitiateResponse {
                processor: Processor::Stripe,
                session_id: "cs_1".into(),
                publishable_key: "pk_test_localstripe".into(),
                amount: 6978,
                currency: "usd".into(),
                breakdown: breakdown(),
            }),
        ),
        ("UpdateResponse", v(&UpdateResponse { session_id: "cs_1".into(), amount: 6978, currency: "usd".into(), breakdown: breakdown() })),
        (
            "ConfirmResponse",
            v(&ConfirmResponse {
                success: false,
                status: PaymentStatus::RequiresAction,
                client_secret: Some("pi_1_secret".into()),
                payment_intent_id: Some("pi_1".into()),
                error: None,
            }),
        ),
    ]
}

/// `serde_json::to_value` for fixtures of different types in one list.
mod erased {
    pub trait Ser {
        fn value(&self) -> serde_json::Value;
    }
    impl<T: serde::Serialize> Ser for T {
        fn value(&self) -> serde_json::Value {
            serde_json::to_value(self).unwrap()
        }
    }
}

/// Whether serde_json decodes `body` into the model type of `root`.
fn serde_decodes(root: &str, body: &[u8]) -> Result<(), String> {
    fn de<T: DeserializeOwned>(b: &[u8]) -> Result<(), String> {
        serde_json::from_slice::<T>(b).map(drop).map_err(|e| e.to_string())
    }
    match root {
        "ProductsResponse" => de::<ProductsResponse>(body),
        "MinimalProductsResponse" => de::<ProductsResponse<MinimalProduct>>(body),
        "ProductResponse" => de::<ProductResponse>(body),
        "PagesResponse" => de::<PagesResponse>(body),
        "CollectionsResponse" => de::<CollectionsResponse>(body),
        "CollectionResponse" => de::<CollectionResponse>(body),
        "StoreResponse" => de::<StoreResponse>(body),
        "ShippingRatesResponse" => de::<ShippingRatesResponse>(body),
        "InitiateResponse" => de::<InitiateResponse>(body),
        "UpdateResponse" => de::<UpdateResponse>(body),
        "ConfirmResponse" => de::<ConfirmResponse>(body),
        other => panic!("no model type for {other}"),
    }
}

fn text(body: &str, root: &str) -> Option<String> {
    check_str(body, root).err().map(|p| p.text())
}

// ---------------------------------------------------------------- unit tests

#[test]
fn every_fixture_passes_and_serde_agrees() {
    for (root, v) in fixtures() {
        for body in [serde_json::to_vec(&v).unwrap(), serde_json::to_vec_pretty(&v).unwrap()] {
            assert_eq!(check(&body, root), Ok(()), "{root}: {}", String::from_utf8_lossy(&body));
            serde_decodes(root, &body).unwrap();
        }
    }
    let body = products_body(500);
    assert!(body.len() > 1_500_000, "a realistic body: {} bytes", body.len());
    assert_eq!(check(&body, "ProductsResponse"), Ok(()));
    assert_eq!(check_str(core::str::from_utf8(&body).unwrap(), "ProductsResponse"), Ok(()));
}

#[test]
fn every_root_is_its_table_entry() {
    assert_eq!(Root::ALL.len(), generated::SCHEMA.len());
    for (i, r) in Root::ALL.iter().enumerate() {
        assert_eq!(*r as usize, i);
    }
}

#[test]
fn the_required_bits_are_the_members_that_are_not_opt() {
    for (name, e) in Root::ALL.iter().zip(generated::SCHEMA) {
        if let Entry::Struct { required, members } = e {
            let need = members.iter().enumerate().filter(|(_, (_, t))| !matches!(t, Ty::Opt(_))).fold(0, |m, (k, _)| m | 1 << k);
            assert_eq!(*required, need, "{name:?}");
        }
    }
}

#[test]
fn messages_name_the_path_and_the_value_as_written() {
    let mut store = serde_json::to_value(StoreResponse { store: store() }).unwrap();
    store["store"]["id"] = json!(5);
    assert_eq!(text(&store.to_string(), "StoreResponse").unwrap(), "at store.id: expected a string, got the number 5");
    assert_eq!(Problem { path: "store.id".into(), message: "m".into(), got: None }.to_string(), "at store.id: m");

    let mut products = serde_json::to_value(ProductsResponse { products: (0..5).map(product).collect(), pagination: None }).unwrap();
    products["products"][3]["variants"][0]["price"] = json!(19.99);
    let p = check_str(&products.to_string(), "ProductsResponse").unwrap_err();
    assert_eq!(p.path, "products[3].variants[0].price");
    assert_eq!(p.text(), "at products[3].variants[0].price: expected a string, got the number 19.99");
    products["products"][3]["variants"][0].as_object_mut().unwrap().remove("price");
    assert_eq!(text(&products.to_string(), "ProductsResponse").unwrap(), "at products[3].variants[0]: missing field `price`");

    let cases: &[(&str, &str, &str)] = &[
        ("StoreResponse", "{}", "at (root): missing field `store`"),
        ("StoreResponse", "[]", "at (root): expected an object, got an array"),
        ("StoreResponse", "null", "at (root): expected an object, got null"),
        ("StoreResponse", "\"x\"", "at (root): expected an object, got the string \"x\""),
        ("StoreResponse", "{\"store\": true}", "at store: expected an object, got a boolean"),
        ("ProductsResponse", "{\"products\": {}}", "at products: expected an array, got an object"),
        ("ProductsResponse", "{\"products\": [], \"pagination\": 1}", "at pagination: expected an object, got the number 1"),
        ("ProductsResponse", "{\"products\": [], \"pagination\": null}", ""),
        ("ProductsResponse", "{\"products\": [], \"pagination\": {\"total\": -1, \"limit\": 1, \"offset\": 0, \"hasMore\": true}}", "at pagination.total: expected a non-negative safe integer, got the number -1"),
        ("ProductsResponse", "{\"products\": [], \"pagination\": {\"total\": 1, \"limit\": 4294967296, \"offset\": 0, \"hasMore\": true}}", "at pagination.limit: expected an integer in 0..=4294967295, got the number 4294967296"),
        ("ProductsResponse", "{\"products\": [], \"pagination\": {\"total\": 1, \"limit\": 1, \"offset\": 0.5, \"hasMore\": true}}", "at pagination.offset: expected a non-negative safe integer, got the number 0.5"),
        ("ProductsResponse", "{\"products\": [], \"pagination\": {\"total\": 1, \"limit\": 1, \"offset\": 0, \"hasMore\": 0}}", "at pagination.hasMore: expected a boolean, got the number 0"),
        ("UpdateResponse", "{\"sessionId\": \"s\", \"amount\": 9007199254740992, \"currency\": \"usd\", \"breakdown\": {}}", "at amount: expected a safe integer, got the number 9007199254740992"),
        ("UpdateResponse", "{\"sessionId\": \"s\", \"amount\": 1e21, \"currency\": \"usd\", \"breakdown\": {}}", "at amount: expected a safe integer, got the number 1e21"),
        ("UpdateResponse", "{\"sessionId\": \"s\", \"amount\": -5.0, \"currency\": \"usd\", \"breakdown\": {}}", "at breakdown: missing field `subtotal`"),
        ("InitiateResponse", "{\"processor\": \"paypal\"}", "at processor: expected one of stripe, got the string \"paypal\""),
        ("ConfirmResponse", "{\"success\": true, \"status\": \"succeeded\", \"clientSecret\": 1}", "at clientSecret: expected a string, got the number 1"),
        ("ConfirmResponse", "{\"success\": true, \"status\": \"done\"}", "at status: expected one of succeeded, requires_action, requires_payment_method, processing, canceled, got the string \"done\""),
        ("ConfirmResponse", "{\"success\": true, \"status\": null}", "at status: expected one of succeeded, requires_action, requires_payment_method, processing, canceled, got null"),
        ("ConfirmResponse", "{\"success\": true, \"status\": \"succeeded\", \"clientSecret\": null, \"paymentIntentId\": null}", "at (root): missing field `error`"),
        ("ConfirmResponse", "{\"success\": true, \"status\": \"succeeded\", \"clientSecret\": null, \"paymentIntentId\": null, \"error\": null, \"extra\": [1, {\"deep\": [[]]}]}", ""),
        ("PagesResponse", "{\"pages\": [1E2]}", "at pages[0]: expected an object, got the number 1E2"),
        ("PagesResponse", "{\"pages\": [-0]}", "at pages[0]: expected an object, got the number -0"),
        ("PagesResponse", "{\"pages\": [1e400]}", "at pages[0]: expected an object, got the number 1e400"),
        ("PagesResponse", "{\"pages\": [-1e400]}", "at pages[0]: expected an object, got the number -1e400"),
        ("PagesResponse", "{\"pages\": [0.000001]}", "at pages[0]: expected an object, got the number 0.000001"),
        ("PagesResponse", "{\"pages\": [-5e-7]}", "at pages[0]: expected an object, got the number -5e-7"),
        ("PagesResponse", "{\"pages\": [123e-20]}", "at pages[0]: expected an object, got the number 123e-20"),
        ("PagesResponse", "{\"pages\": [18446744073709551615]}", "at pages[0]: expected an object, got the number 18446744073709551615"),
        ("PagesResponse", r#"{"pages": ["a\u0000\u001f\u007f\u2028\ud800b\"\\\b\f\n\r\t\/"]}"#, r#"at pages[0]: expected an object, got the string "a\u0000\u001f\u007f\u2028\ud800b\"\\\b\f…""#),
        ("PagesResponse", r#"{"pages": ["\u00e9\n\/"]}"#, r#"at pages[0]: expected an object, got the string "\u00e9\n\/""#),
        // Document order: a wrong member before a missing one, whatever the schema order.
        ("CollectionRef", r#"{"slug": 1, "name": 2, "id": 3}"#, "at slug: expected a string, got the number 1"),
        ("CollectionRef", r#"{"slug": "s", "name": 2}"#, "at name: expected a string, got the number 2"),
        ("CollectionRef", r#"{"slug": "s", "name": "n"}"#, "at (root): missing field `id`"),
        ("CollectionRef", r#"{"name": "n"}"#, "at (root): missing field `id`"),
        ("PagesResponse", r#"{"pages": [{}, 1]}"#, "at pages[0]: missing field `id`"),
        ("ShippingAddress", r#"{"email": 1}"#, "at email: expected a string, got the number 1"),
    ];
    for (root, body, want) in cases {
        assert_eq!(text(body, root).unwrap_or_default(), *want, "{root} {body}");
    }
}

#[test]
fn long_strings_are_cut_after_40_characters() {
    let forty = "x".repeat(40);
    let body = |s: &str| format!("{{\"pages\": [{}]}}", serde_json::to_string(s).unwrap());
    assert_eq!(text(&body(&forty), "PagesResponse").unwrap(), format!("at pages[0]: expected an object, got the string \"{forty}\""));
    assert_eq!(text(&body(&format!("{forty}y")), "PagesResponse").unwrap(), format!("at pages[0]: expected an object, got the string \"{forty}…\""));
    // Characters, not bytes: a crab or an é is one.
    let crab = format!("{}\u{1F980}y", "x".repeat(39));
    assert_eq!(text(&body(&crab), "PagesResponse").unwrap(), format!("at pages[0]: expected an object, got the string \"{}\u{1F980}…\"", "x".repeat(39)));
    let e = format!("{}é", "x".repeat(39));
    assert_eq!(text(&body(&e), "PagesResponse").unwrap(), format!("at pages[0]: expected an object, got the string \"{e}\""));
}

#[test]
fn map_keys_in_paths_in_document_order() {
    let mut p = serde_json::to_value(ProductResponse { product: product(1) }).unwrap();
    p["product"]["variants"][1]["attributes"] = json!({"b": 1, "a": "ok", "10": 2, "2": 3, "my key": 4});
    let body = p.to_string();
    let first = body.find("\"10\":2").unwrap().min(body.find("\"2\":3").unwrap()).min(body.find("\"b\":1").unwrap()).min(body.find("\"my key\":4").unwrap());
    let key = &body[first + 1..first + 1 + body[first + 1..].find('"').unwrap()];
    let value = body[first..].split(':').nth(1).unwrap().split([',', '}']).next().unwrap();
    assert_eq!(text(&body, "ProductResponse").unwrap(), format!("at product.variants[1].attributes.{key}: expected a string, got the number {value}"));
    let body = r#"{"id": "v", "price": "1", "compareAtPrice": null, "stockQuantity": 1, "stockStatus": "IN_STOCK", "image": null, "attributes": {"b": 1, "2": 3}}"#;
    assert_eq!(text(body, "Variant").unwrap(), "at attributes.b: expected a string, got the number 1");
    // Escaped and lone-surrogate keys (U+FFFD in the path).
    let body = r#"{"id": "v", "price": "1", "compareAtPrice": null, "stockQuantity": 1, "stockStatus": "IN_STOCK", "image": null, "attributes": {"\u0041\ud800": 1}}"#;
    assert_eq!(check_str(body, "Variant").unwrap_err().path, "attributes.A\u{fffd}");
}

#[test]
fn every_duplicate_key_must_fit() {
    assert_eq!(text(r#"{"id": "i", "name": "n", "slug": "s", "id": "j"}"#, "CollectionRef"), None);
    assert_eq!(text(r#"{"id": 5, "name": "n", "slug": "s", "id": "i"}"#, "CollectionRef").unwrap(), "at id: expected a string, got the number 5");
    assert_eq!(text(r#"{"id": "i", "name": "n", "slug": "s", "id": 5}"#, "CollectionRef").unwrap(), "at id: expected a string, got the number 5");
}

#[test]
fn escaped_member_names_and_enum_values_are_read() {
    assert_eq!(text(r#"{"\u0069d": "i", "n\u0061me": "n", "slug": "s"}"#, "CollectionRef"), None);
    assert_eq!(text(r#"{"\u0069d": 1, "name": "n", "slug": "s"}"#, "CollectionRef").unwrap(), "at id: expected a string, got the number 1");
    assert_eq!(text(r#"{"processor": "str\u0069pe"}"#, "InitiateResponse").unwrap(), "at (root): missing field `sessionId`");
    assert_eq!(text(r#"{"id\u0000": "i", "name": "n", "slug": "s"}"#, "CollectionRef").unwrap(), "at (root): missing field `id`");
}

#[test]
fn syntax_is_that_of_json_parse() {
    let ok = [
        "{}", " \t\n\r{} \t\n\r", "[]", "0", "-0", "1.5e+10", "1E-2", "-0.0e0", "1e400", "\"\"", "true", "false", "null",
        "\"\\u00e9\\uD83E\\uDD80\\ud800\\udc00x\\\"\\\\\\/\\b\\f\\n\\r\\t\"", "\"\u{7f}\u{80}é日本🦀\"", "[1,[2,[3,{\"a\":[]}]]]",
        "{\"a\":1,\"a\":2}", "\"\\ud800\"", "\"\\udc00\\ud800\"",
    ];
    for body in ok {
        assert_eq!(check_syntax(body.as_bytes()), Ok(()), "{body}");
    }
    let bad = [
        "", " ", "{", "}", "[", "[1,]", "{\"a\":1,}", "{,}", "[,1]", "{\"a\" 1}", "{\"a\":}", "{a:1}", "{'a':1}", "01", "-", "+1", ".5", "1.",
        "1.e5", "1e", "1e+", "0x10", "NaN", "Infinity", "-Infinity", "tru", "nul", "True", "\"abc", "\"\\x\"", "\"\\u12\"", "\"\\u12G4\"",
        "\"\t\"", "\"\n\"", "\"\u{0}\"", "[1] x", "{} {}", "\u{feff}{}", "/* c */ {}", "[1 2]", "{\"a\":1 \"b\":2}", "\"\\\"", "[\"a\" , ]",
        "\u{a0}{}", "{\"a\":1}}", "[1]]",
    ];
    for body in bad {
        let p = check_syntax(body.as_bytes()).unwrap_err();
        assert!(p.path.is_empty() && p.message.starts_with("the response body is not valid JSON (truncated?): "), "{body}: {p:?}");
    }
    assert_eq!(check_syntax(b"{\"a\": [1, 2").unwrap_err().text(), "the response body is not valid JSON (truncated?): unexpected end of input");
    assert_eq!(check_syntax(b"{\"a\" 1}").unwrap_err().text(), "the response body is not valid JSON (truncated?): expected `:` at byte 5");
    assert_eq!(check_syntax(b"[1] x").unwrap_err().text(), "the response body is not valid JSON (truncated?): unexpected data after the value at byte 4");
    // Not UTF-8.
    for body in [&b"\"\xff\""[..], b"\"\xc3\"", b"\"\xed\xa0\x80\"", b"\"\xc0\xaf\"", b"\"\xf4\x90\x80\x80\"", b"\"\xe2\x82", b"\xc3\xa9"] {
        assert!(check_syntax(body).is_err(), "{body:?}");
    }
    // A syntax error anywhere wins over a schema problem before it.
    assert_eq!(text("{\"store\": 5} x", "StoreResponse").unwrap(), "the response body is not valid JSON (truncated?): unexpected data after the value at byte 13");
    assert_eq!(text("{\"store\": 5, \"x\": [}", "StoreResponse").unwrap(), "the response body is not valid JSON (truncated?): expected a value at byte 19");
}

#[test]
fn nesting_is_capped_without_recursion() {
    let nested = |n: usize| format!("{}{}", "[".repeat(n), "]".repeat(n));
    assert_eq!(check_syntax(nested(MAX_DEPTH as usize).as_bytes()), Ok(()));
    let p = check_syntax(nested(MAX_DEPTH as usize + 1).as_bytes()).unwrap_err();
    assert_eq!(p.text(), "at (root): arrays and objects nest deeper than 128 levels at byte 128");
    // Inside an unknown member: the store object is level 2, its member value level 3.
    let store = serde_json::to_value(StoreResponse { store: store() }).unwrap().to_string();
    let deep = |n: usize| store.replacen("{\"store\":{", &format!("{{\"store\":{{\"x\":{},", nested(n)), 1);
    assert_eq!(check_str(&deep(MAX_DEPTH as usize - 2), "StoreResponse"), Ok(()));
    assert!(check_str(&deep(MAX_DEPTH as usize - 1), "StoreResponse").is_err());
    // Far too deep, and unclosed: no stack overflow.
    for body in ["[".repeat(1_000_000), "{\"a\":".repeat(500_000), format!("{{\"products\":{}", "[".repeat(1_000_000))] {
        assert!(check_str(&body, "ProductsResponse").is_err());
        assert!(check_syntax(body.as_bytes()).is_err());
    }
}

/// `Number.isInteger` / `isSafeInteger` on the double the text parses to.
fn int_reference(text: &str) -> Option<(bool, u64)> {
    let x: f64 = text.parse().unwrap();
    (x.is_finite() && x.trunc() == x && x.abs() <= 9_007_199_254_740_991.0).then(|| (text.starts_with('-'), x.abs() as u64))
}

#[test]
fn integers_are_decided_on_the_double_json_parse_makes() {
    let cases = [
        "0", "-0", "0.0", "-0.0e5", "5", "5.0", "5e0", "0.5e1", "50e-1", "1e-400", "-1e-400", "4294967295", "4294967296", "4294967295.0000001",
        "4294967295.000001", "4294967294.9999999", "9007199254740991", "9007199254740992", "9007199254740993", "9007199254740991.4",
        "9007199254740990.5", "9007199254740991.5", "4503599627370496.5", "4503599627370497.5", "4503599627370495.5", "4503599627370495.25",
        "2251799813685247.75", "2251799813685247.25", "2251799813685247.2500000001", "0.99999999999999994", "0.99999999999999995",
        "0.9999999999999999444888487687421729788184165954589843750", "0.9999999999999999444888487687421729788184165954589843749",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125e-324",
        "2.4703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328126e-324",
        "1e-323", "1e-325", "1e16", "1e15", "123456789012345.6", "0.1", "1.5", "-1.5", "1e22", "1e400", "-9007199254740991", "-9007199254740991.5",
        "12345678901234567890123", "0e99999999999999999999", "1e-99999999999999999999", "1.0000000000000000000000000000001",
        "3.9999999999999999999999999", "100e-2",
    ];
    for t in cases {
        assert_eq!(int_value(t.as_bytes()), int_reference(t), "{t}");
    }
    let fits = |ty: Ty, t: &str| int_fits(&ty, int_value(t.as_bytes()));
    assert!(fits(Ty::U32, "-0") && fits(Ty::U53, "-0") && fits(Ty::U32, "4294967295.0000001") && fits(Ty::I53, "-9007199254740991"));
    assert!(!fits(Ty::U32, "-1") && !fits(Ty::U32, "4294967296") && !fits(Ty::U53, "-1e0") && !fits(Ty::I53, "9007199254740992"));
    let mut tiny = [0; 1075];
    pow5(1075, &mut tiny);
    assert!(tiny[..323].iter().all(|&d| d == 0));
    let tiny_digits: String = tiny[323..].iter().map(|d| char::from(b'0' + d)).collect();
    let mut half = [0; 3];
    pow5(3, &mut half);
    assert_eq!(half, [1, 2, 5]); // 2^-3 = 0.125
    assert_eq!(tiny_digits, "24703282292062327208828439643411068618252990130716238221279284125033775363510437593264991818081799618989828234772285886546332835517796989819938739800539093906315035659515570226392290858392449105184435931802849936536152500319370457678249219365623669863658480757001585769269903706311928279558551332927834338409351978015531246597263579574622766465272827220056374006485499977096599470454020828166226237857393450736339007967761930577506740176324673600968951340535537458516661134223766678604162159680461914467291840300530057530849048765391711386591646239524912623653881879636239373280423891018672348497668235089863388587925628302755995657524455507255189313690836254779186948667994968324049705821028513185451396213837722826145437693412532098591327667236328125");
}

#[test]
fn a_closed_check_names_a_member_the_schema_does_not_have() {
    use crate::jsoncheck::{check_closed, check_str as open};
    let item = r#"{"variantId":"v","quantity":1}"#;
    let body = r#"{"sessionId":"s","shippingRateId":"r","shippingAddress":{"email":"e","firstName":"f","lastName":"l","address1":"a","city":"c","postalCode":"p","country":"US"}}"#;
    assert_eq!(check_closed(body, Root::UpdateRequest), Ok(()));
    assert_eq!(check_closed(item, Root::PaymentItem), Ok(()));
    // Open, an unknown member passes; closed, it is named by its path, nested too.
    let extra = body.replace(r#""city":"c""#, r#""city":"c","note":{"a":[1]}"#);
    assert_eq!(open(&extra, Root::UpdateRequest), Ok(()));
    let p = check_closed(&extra, Root::UpdateRequest).unwrap_err();
    assert_eq!((p.path.as_str(), p.message.as_str()), ("shippingAddress.note", "unknown member"));
    let p = check_closed(r#"{"x":1,"variantId":5,"quantity":1}"#, Root::PaymentItem).unwrap_err();
    assert_eq!((p.path.as_str(), p.message.as_str()), ("x", "unknown member"), "the first problem in document order");
}
