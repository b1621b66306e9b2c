//! The POST bodies as JS gives them ([`BodyArg`]): those with numbers and
//! arrays decoded by [`arg_from_js`]; the update and the confirm, strings and
//! a `shippingAddress` of strings, read member by member by
//! [`string_members`] instead: their three struct decoders were ~5 KB of the
//! client wasm (`deserialize_struct` of `ConfirmRequest`, `UpdateRequest` and
//! `ShippingAddress`). Refused exactly when the decoder would refuse them,
//! with the same error (the schema walk of the body names the path).

use serde::de::{DeserializeOwned, Error as _, Unexpected};
use wasm_bindgen::prelude::*;

use super::interop::{arg_fail, arg_from_js, expect_object, string_members};
use crate::endpoint::Body;
use crate::error::Result;
use crate::model::{ConfirmRequest, InitiateRequest, ShippingAddress, ShippingRatesRequest, UpdateRequest};

/// A request body decoded from its JS argument (`body` in messages).
pub(super) trait BodyArg: Body + DeserializeOwned {
    /// Decoded plainly ([`arg_from_js`], lenient: members the API does not
    /// know are left out).
    ///
    /// # Errors
    /// `invalid_argument` naming the path.
    fn from_js(body: JsValue) -> Result<Self> {
        arg_from_js(body, "body", Some(Self::SCHEMA), false)
    }
}

impl BodyArg for ShippingRatesRequest {}
impl BodyArg for InitiateRequest {}

impl BodyArg for UpdateRequest {
    fn from_js(body: JsValue) -> Result<Self> {
        let (top, shipping_address) = address_body(body, &["sessionId", "shippingRateId"], Self::SCHEMA)?;
        let mut top = top.into_iter();
        let mut next = || top.next().flatten().unwrap_or_default();
        Ok(UpdateRequest { session_id: next(), shipping_rate_id: next(), shipping_address })
    }
}

impl BodyArg for ConfirmRequest {
    fn from_js(body: JsValue) -> Result<Self> {
        let names = &["sessionId", "confirmationTokenId", "shippingRateId", "returnUrl"];
        let (top, shipping_address) = address_body(body, names, Self::SCHEMA)?;
        let mut top = top.into_iter();
        let mut next = || top.next().flatten().unwrap_or_default();
        Ok(ConfirmRequest {
            session_id: next(),
            confirmation_token_id: next(),
            shipping_rate_id: next(),
            return_url: next(),
            shipping_address,
        })
    }
}

/// The string members `names` and the `shippingAddress` of a body, as
/// [`arg_from_js`] takes it: `undefined`/`null` read as `{}`, anything but
/// an object refused.
fn address_body(body: JsValue, names: &[&'static str], root: crate::jsoncheck::Root) -> Result<(Vec<Option<String>>, ShippingAddress)> {
    let body = if body.is_undefined() || body.is_null() { js_sys::Object::new().into() } else { body };
    expect_object(&body, "body")?;
    let read = || {
        let top = string_members(&body, names)?;
        let a = js_sys::Reflect::get(&body, &JsValue::from_str("shippingAddress")).unwrap_or(JsValue::UNDEFINED);
        if a.is_undefined() {
            return Err(serde_wasm_bindgen::Error::missing_field("shippingAddress"));
        }
        if !a.is_object() {
            return Err(serde_wasm_bindgen::Error::invalid_type(Unexpected::Other("a value that is not an object"), &"struct ShippingAddress"));
        }
        let names = &["email", "firstName", "lastName", "address1", "address2?", "city", "state?", "postalCode", "country", "phone?"];
        let mut m = string_members(&a, names)?.into_iter();
        let mut opt = || m.next().flatten();
        let address = ShippingAddress {
            email: opt().unwrap_or_default(),
            first_name: opt().unwrap_or_default(),
            last_name: opt().unwrap_or_default(),
            address1: opt().unwrap_or_default(),
            address2: opt(),
            city: opt().unwrap_or_default(),
            state: opt(),
            postal_code: opt().unwrap_or_default(),
            country: opt().unwrap_or_default(),
            phone: opt(),
        };
        Ok((top, address))
    };
    read().map_err(|e| arg_fail(e, &body, "body", root))
}
