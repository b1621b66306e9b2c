//! The POST bodies as JS gives them ([`BodyArg`]): each decoded by its own
//! serde type through [`arg_from_js`] (lenient: members the API does not know
//! are left out of what is sent; a bad member is an `invalid_argument` naming
//! its path, `body.shippingAddress.city: …`).

use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use super::interop::arg_from_js;
use crate::endpoint::Body;
use crate::error::Result;
use crate::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};

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
impl BodyArg for UpdateRequest {}
impl BodyArg for ConfirmRequest {}
