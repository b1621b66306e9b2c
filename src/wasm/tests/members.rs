//! The arguments read member by member ([`crate::wasm::interop::string_members`]:
//! the store settings, the update and confirm bodies) are the structs the
//! decoder makes of the same object: every member, in its place.

use wasm_bindgen::prelude::*;
use wasm_bindgen_test::*;

use crate::model::{ConfirmRequest, UpdateRequest};
use crate::storefront::StoreSettings;
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
