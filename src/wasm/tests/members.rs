//! The arguments read member by member ([`crate::wasm::interop::string_members`]:
//! the store settings, the update and confirm bodies) are the structs the
//! decoder makes of the same object: every member, in its place.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::endpoint::Body;
use crate::jsoncheck::Root;
use crate::model::{ConfirmRequest, UpdateRequest};
use crate::storefront::StoreSettings;
use crate::wasm::interop::{arg_from_js, required_arg};
use crate::wasm::post_body::BodyArg;

/// An object whose every string member is distinct (`"<name>!"`), plus ones the structs do not have.
fn object(json: &str) -> JsValue {
    js_sys::JSON::parse(json).unwrap()
}

const ADDRESS: &str = r#"{"email":"email!","firstName":"firstName!","lastName":"lastName!","address1":"address1!","address2":"address2!","city":"city!","state":"state!","postalCode":"postalCode!","country":"country!","phone":"phone!","extra":1}"#;

#[wasm_bindgen_test]
fn store_settings_are_the_decoded_struct() {
    let names = ["name", "defaultCurrency", "contactEmail", "frontendDomain", "logoUrl", "routeProducts", "routeCollections", "routePages", "homeMetaTitle", "homeMetaDescription"];
    let json = ["{\"id\":5,", &names.iter().map(|n| format!("\"{n}\":\"{n}!\"")).collect::<Vec<_>>().join(","), "}"].concat();
    let decoded: StoreSettings = serde_wasm_bindgen::from_value(object(&json)).unwrap();
    assert_eq!(crate::wasm::storefront::store(object(&json)).unwrap(), decoded);
}

#[wasm_bindgen_test]
fn payment_bodies_are_the_decoded_structs() {
    let update = format!(r#"{{"sessionId":"sessionId!","shippingRateId":"shippingRateId!","shippingAddress":{ADDRESS},"x":1}}"#);
    let decoded: UpdateRequest = serde_wasm_bindgen::from_value(object(&update)).unwrap();
    assert_eq!(UpdateRequest::from_js(object(&update)).unwrap(), decoded);
    let confirm = format!(
        r#"{{"sessionId":"sessionId!","confirmationTokenId":"confirmationTokenId!","shippingRateId":"shippingRateId!","shippingAddress":{ADDRESS},"returnUrl":"returnUrl!"}}"#
    );
    let decoded: ConfirmRequest = serde_wasm_bindgen::from_value(object(&confirm)).unwrap();
    assert_eq!(ConfirmRequest::from_js(object(&confirm)).unwrap(), decoded);
    // The optional members absent or null.
    let bare = update.replace(r#""address2":"address2!","#, "").replace(r#""state":"state!""#, r#""state":null"#);
    let decoded: UpdateRequest = serde_wasm_bindgen::from_value(object(&bare)).unwrap();
    assert_eq!(decoded.shipping_address.address2, None);
    assert_eq!(UpdateRequest::from_js(object(&bare)).unwrap(), decoded);
}

/// Bad arguments are refused with the error the decoder path (`arg_from_js`, `required_arg`)
/// gives for the same value: the same message, path included.
#[wasm_bindgen_test]
fn bad_arguments_get_the_decoders_errors() {
    let update = format!(r#"{{"sessionId":"s","shippingRateId":"r","shippingAddress":{ADDRESS}}}"#);
    let bodies: Vec<String> = vec![
        update.replace(r#""sessionId":"s""#, r#""sessionId":5"#),
        update.replace(r#""sessionId":"s""#, r#""sessionId":null"#),
        update.replace(r#""sessionId":"s","#, ""),
        update.replace(r#""city":"city!""#, r#""city":7"#),
        update.replace(r#""city":"city!","#, ""),
        update.replace(r#""state":"state!""#, r#""state":1"#),
        update.replace(ADDRESS, r#""a string""#),
        update.replace(ADDRESS, "[]"),
        update.replace(ADDRESS, "null"),
        "[]".into(),
        "3".into(),
    ];
    for json in &bodies {
        let ours = UpdateRequest::from_js(object(json)).expect_err(json).message;
        let decoder = arg_from_js::<UpdateRequest>(object(json), "body", Some(UpdateRequest::SCHEMA), false).expect_err(json).message;
        assert_eq!(ours, decoder, "{json}");
    }
    // Values JSON cannot hold (a BigInt): the schema walk finds nothing, so the message is the
    // decoder's own, for a member and for the nested address.
    for (member, inner) in [("sessionId", None), ("shippingAddress", None), ("city", Some("shippingAddress"))] {
        let body = object(&update);
        let target = inner.map_or(body.clone(), |k| js_sys::Reflect::get(&body, &JsValue::from_str(k)).unwrap());
        js_sys::Reflect::set(&target, &JsValue::from_str(member), &js_sys::BigInt::from(7u32).into()).unwrap();
        let ours = UpdateRequest::from_js(body.clone()).expect_err(member).message;
        let decoder = arg_from_js::<UpdateRequest>(body, "body", Some(UpdateRequest::SCHEMA), false).expect_err(member).message;
        assert_eq!(ours, decoder, "{member}");
    }
    for value in [JsValue::UNDEFINED, JsValue::NULL, object("[]"), object(r#"{"name":1}"#), object(r#"{"name":"n"}"#)] {
        let ours = crate::wasm::storefront::store(value.clone()).expect_err("store").message;
        let decoder = required_arg::<StoreSettings>(value, "store", Some(Root::Store)).expect_err("store").message;
        assert_eq!(ours, decoder);
    }
}
