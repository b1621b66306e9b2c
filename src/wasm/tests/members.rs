//! Arguments decoded by their own serde types through the one decoder
//! (`interop::arg_from_js` / `required_arg`): a bad one is refused naming the
//! member against its own schema root.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::model::UpdateRequest;
use crate::storefront::StoreSettings;
use crate::wasm::post_body::BodyArg;

fn object(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

const SETTINGS: &str = r#"{"name":"Shop","defaultCurrency":"USD","contactEmail":"a@b.example","frontendDomain":"shop.example","logoUrl":"/l.svg","routeProducts":"/products","routeCollections":"/collections","routePages":"/pages","homeMetaTitle":"t","homeMetaDescription":"d"}"#;

const ADDRESS: &str = r#"{"email":"a@b.example","firstName":"A","lastName":"B","address1":"1 Road","city":"Town","postalCode":"12345","country":"US","extra":1}"#;

/// The store settings are checked against their own schema root: a settings object
/// missing a member is told that member, not the first of the whole 28-member `Store`.
#[wasm_bindgen_test]
fn store_settings_errors_name_the_settings_members() {
    let store = |json: &str| crate::wasm::storefront::store(object(json));
    let settings: StoreSettings = serde_wasm_bindgen::from_value(object(SETTINGS)).unwrap();
    assert_eq!(store(SETTINGS).unwrap(), settings);
    // The whole `Store` (with `id` and the rest) is settings too.
    assert_eq!(store(&SETTINGS.replacen('{', r#"{"id":"st_1","faviconUrl":"x","#, 1)).unwrap(), settings);
    let no_title = SETTINGS.replace(r#""homeMetaTitle":"t","#, "");
    assert_eq!(store(&no_title).unwrap_err().message, "store: missing field `homeMetaTitle`");
    assert_eq!(store(&SETTINGS.replace(r#""name":"Shop""#, r#""name":1"#)).unwrap_err().message, "store.name: expected a string, got the number 1");
    assert_eq!(crate::wasm::storefront::store(JsValue::UNDEFINED).unwrap_err().message, "store is required");
    assert_eq!(store("[]").unwrap_err().message, "store: expected an object, got an array");
}

/// The update and confirm bodies: their shipping address decoded by serde, a bad member named by its path.
#[wasm_bindgen_test]
fn payment_body_errors_name_the_path() {
    let update = format!(r#"{{"sessionId":"s","shippingRateId":"r","shippingAddress":{ADDRESS},"x":1}}"#);
    let body = UpdateRequest::from_js(object(&update)).unwrap();
    assert_eq!((body.shipping_address.city.as_str(), body.shipping_address.address2), ("Town", None));
    let cases = [
        (update.replace(r#""city":"Town""#, r#""city":7"#), "body.shippingAddress.city: expected a string, got the number 7"),
        (update.replace(r#""city":"Town","#, ""), "body.shippingAddress: missing field `city`"),
        (update.replace(r#""sessionId":"s","#, ""), "body: missing field `sessionId`"),
        (update.replace(ADDRESS, "[]"), "body.shippingAddress: expected an object, got an array"),
    ];
    for (json, message) in cases {
        assert_eq!(UpdateRequest::from_js(object(&json)).unwrap_err().message, message, "{json}");
    }
}

/// A store resource and a collection, each its own type.
#[wasm_bindgen_test]
fn storefront_arguments_name_the_path() {
    let path = |resource: &str| crate::wasm::storefront::store_path(object(SETTINGS), object(resource));
    assert_eq!(path(r#"{"kind":"product","slug":"a b"}"#).unwrap(), "/products/a%20b");
    assert_eq!(path(r#"{"kind":"home","slug":null}"#).unwrap(), "/");
    assert_eq!(path(r#"{"slug":"a"}"#).unwrap_err().message, "resource: missing field `kind`");
    let unknown = path(r#"{"kind":"cart"}"#).unwrap_err().message;
    assert!(unknown.starts_with("resource.kind: "), "{unknown}");
    assert_eq!(path(r#"{"kind":"page"}"#).unwrap_err().message, "resource.slug is required for a page");
}
