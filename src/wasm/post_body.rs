//! The POST bodies as JS gives them ([`BodyArg`]): those with numbers and
//! arrays decoded by [`arg_from_js`]; the update and the confirm, strings and
//! a `shippingAddress` of strings, read member by member by
//! [`string_members`] instead: their three struct decoders were ~5 KB of the
//! client wasm (`deserialize_struct` of `ConfirmRequest`, `UpdateRequest` and
//! `ShippingAddress`). Refused exactly when the decoder would refuse them,
//! with the same error (the schema walk of the body names the path).

use serde::de::DeserializeOwned;
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
        const NAMES: &[&str] = &["sessionId", "shippingRateId", "shippingAddress{ShippingAddress", ADDRESS[0], ADDRESS[1], ADDRESS[2], ADDRESS[3], ADDRESS[4], ADDRESS[5], ADDRESS[6], ADDRESS[7], ADDRESS[8], ADDRESS[9], "}"];
        let mut m = strings(body, NAMES, Self::SCHEMA)?;
        Ok(UpdateRequest { session_id: m.req(), shipping_rate_id: m.req(), shipping_address: m.address() })
    }
}

impl BodyArg for ConfirmRequest {
    fn from_js(body: JsValue) -> Result<Self> {
        const NAMES: &[&str] = &[
            "sessionId", "confirmationTokenId", "shippingRateId", "shippingAddress{ShippingAddress", ADDRESS[0], ADDRESS[1], ADDRESS[2],
            ADDRESS[3], ADDRESS[4], ADDRESS[5], ADDRESS[6], ADDRESS[7], ADDRESS[8], ADDRESS[9], "}", "returnUrl",
        ];
        let mut m = strings(body, NAMES, Self::SCHEMA)?;
        Ok(ConfirmRequest {
            session_id: m.req(),
            confirmation_token_id: m.req(),
            shipping_rate_id: m.req(),
            shipping_address: m.address(),
            return_url: m.req(),
        })
    }
}

/// The members of `ShippingAddress`, in its order (`?`: optional).
const ADDRESS: [&str; 10] = ["email", "firstName", "lastName", "address1", "address2?", "city", "state?", "postalCode", "country", "phone?"];

/// The members read, in order.
struct Members(std::vec::IntoIter<Option<String>>);

impl Members {
    /// An optional member.
    fn opt(&mut self) -> Option<String> {
        self.0.next().flatten()
    }
    /// A required member (always there once read).
    fn req(&mut self) -> String {
        self.opt().unwrap_or_default()
    }
    fn address(&mut self) -> ShippingAddress {
        ShippingAddress {
            email: self.req(),
            first_name: self.req(),
            last_name: self.req(),
            address1: self.req(),
            address2: self.opt(),
            city: self.req(),
            state: self.opt(),
            postal_code: self.req(),
            country: self.req(),
            phone: self.opt(),
        }
    }
}

/// The string members `names` of a body ([`string_members`]), as
/// [`arg_from_js`] takes the body: `undefined`/`null` read as `{}`, anything
/// but an object refused.
fn strings(body: JsValue, names: &[&'static str], root: crate::jsoncheck::Root) -> Result<Members> {
    let body = if body.is_undefined() || body.is_null() { js_sys::Object::new().into() } else { body };
    expect_object(&body, "body")?;
    let m = string_members(&body, names).map_err(|e| arg_fail(e, &body, "body", root))?;
    Ok(Members(m.into_iter()))
}
