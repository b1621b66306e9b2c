//! The client's payment calls as the checkout makes them ([`PaymentApi`]).
//!
//! Rust calls Rust: given a real [`CirrusClient`] (of this module instance),
//! the checkout calls its Rust methods directly with the core's request types,
//! so a request body is no longer converted to JS, decoded and checked again.
//! The answer still takes the client's one path (its bytes checked, then
//! `JSON.parse`d) and is decoded once from that object into the core's type.
//! Only an object that really lives in JS (a test's fake, anything shaped
//! like `CheckoutClient` in `js/interfaces.d.ts`) is called through the
//! extern [`JsClient`]. Either way a payment body is sent once, never retried.
//!
//! The package's checkout is a wasm module of its own (`checkout-module`,
//! [`super::checkout_split`]): there the client is always a JS object, so
//! only the [`JsClient`] path is compiled; the Rust path is in the build
//! with every module (the wasm-bindgen tests).

use js_sys::Promise;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
#[cfg(not(feature = "checkout-module"))]
use wasm_bindgen::convert::TryFromJsValue;
use wasm_bindgen_futures::JsFuture;

#[cfg(not(feature = "checkout-module"))]
use super::client::CirrusClient;
use super::interop::{arg_from_js, list_from_js, to_js};
use super::js::get;
#[cfg(not(feature = "checkout-module"))]
use crate::endpoint::Body;
use crate::error::{Error, Result};
use crate::jsoncheck::Root;
use crate::model::{
    ConfirmRequest, ConfirmResponse, InitiateRequest, InitiateResponse, ShippingRatesRequest, UpdateRequest, UpdateResponse, VariantRates,
};
use crate::text::cat;

type JsResult<T> = std::result::Result<T, JsValue>;

/// The payment calls of a client. A rejection is the value the JS method
/// would have rejected with (a `CirrusError`, or a fake's own error).
pub(super) trait PaymentApi {
    async fn initiate(&self, body: &InitiateRequest) -> JsResult<InitiateResponse>;
    async fn update(&self, body: &UpdateRequest) -> JsResult<UpdateResponse>;
    async fn confirm(&self, body: &ConfirmRequest) -> JsResult<ConfirmResponse>;
    async fn shipping_rates(&self, body: &ShippingRatesRequest) -> JsResult<Vec<VariantRates>>;
}

#[wasm_bindgen]
extern "C" {
    /// A client object that lives in JS (the `CheckoutClient` interface).
    pub type JsClient;
    #[wasm_bindgen(method, catch, js_name = initiatePayment)]
    fn initiate_payment(this: &JsClient, body: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = updatePayment)]
    fn update_payment(this: &JsClient, body: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = confirmPayment)]
    fn confirm_payment(this: &JsClient, body: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = shippingRates)]
    fn shipping_rates_js(this: &JsClient, body: &JsValue) -> JsResult<JsValue>;
}

#[cfg(not(feature = "checkout-module"))]
#[wasm_bindgen]
impl CirrusClient {
    /// A second handle on this client, which the checkout takes over to call
    /// it from Rust (not part of the public API).
    #[wasm_bindgen(js_name = __rustClient, skip_typescript)]
    pub fn rust_client(&self) -> CirrusClient {
        self.handle()
    }
}

/// The client `Checkout.start`/`resume` were given.
pub(super) enum Payer {
    #[cfg(not(feature = "checkout-module"))]
    Rust(CirrusClient),
    Js(JsClient),
}

impl Payer {
    /// A real `CirrusClient` is called from Rust; any other value must have
    /// the four methods of `CheckoutClient`.
    ///
    /// # Errors
    /// `invalid_argument` naming the missing method.
    pub(super) fn of(client: JsValue) -> Result<Payer> {
        #[cfg(not(feature = "checkout-module"))]
        if let Some(handle) = get(&client, "__rustClient").dyn_ref::<js_sys::Function>().and_then(|f| f.call0(&client).ok()) {
            if let Ok(c) = CirrusClient::try_from_js_value(handle) {
                return Ok(Payer::Rust(c));
            }
        }
        for m in ["initiatePayment", "updatePayment", "confirmPayment", "shippingRates"] {
            if !get(&client, m).is_function() {
                return Err(Error::invalid_argument(cat(&["client.", m, " must be a function (pass a CirrusClient)"])));
            }
        }
        Ok(Payer::Js(client.unchecked_into()))
    }
}

/// Await a JS method's result (a promise or a plain value) and decode it
/// (a fake's answer: a bad one is named by its path in the response schema `root`).
async fn answer<T: DeserializeOwned>(call: JsResult<JsValue>, what: &str, root: Root) -> JsResult<T> {
    let v = JsFuture::from(Promise::resolve(&call?)).await?;
    Ok(arg_from_js(v, what, Some(root), false)?)
}

/// Sends `body` from Rust and decodes the answer (`what` names it in errors):
/// the body was checked against the endpoint's schema before it was parsed,
/// so this decoding only fails if that schema and the type disagree.
#[cfg(not(feature = "checkout-module"))]
async fn send<B: Body, T: DeserializeOwned>(c: &CirrusClient, body: &B, what: &str, root: Root) -> JsResult<T> {
    let v = c.send(body).await?;
    Ok(arg_from_js(v, what, Some(root), false)?)
}

#[cfg(not(feature = "checkout-module"))]
impl PaymentApi for CirrusClient {
    async fn initiate(&self, body: &InitiateRequest) -> JsResult<InitiateResponse> {
        send(self, body, "initiatePayment answer", Root::InitiateResponse).await
    }
    async fn update(&self, body: &UpdateRequest) -> JsResult<UpdateResponse> {
        send(self, body, "updatePayment answer", Root::UpdateResponse).await
    }
    async fn confirm(&self, body: &ConfirmRequest) -> JsResult<ConfirmResponse> {
        send(self, body, "confirmPayment answer", Root::ConfirmResponse).await
    }
    async fn shipping_rates(&self, body: &ShippingRatesRequest) -> JsResult<Vec<VariantRates>> {
        let v = self.send(body).await?;
        Ok(list_from_js(v, "shippingRates answer", Root::VariantRates)?)
    }
}

/// The fake's path: each body converted to JS, each answer decoded from JS.
impl PaymentApi for JsClient {
    async fn initiate(&self, body: &InitiateRequest) -> JsResult<InitiateResponse> {
        answer(self.initiate_payment(&to_js(body)?), "initiatePayment answer", Root::InitiateResponse).await
    }
    async fn update(&self, body: &UpdateRequest) -> JsResult<UpdateResponse> {
        answer(self.update_payment(&to_js(body)?), "updatePayment answer", Root::UpdateResponse).await
    }
    async fn confirm(&self, body: &ConfirmRequest) -> JsResult<ConfirmResponse> {
        answer(self.confirm_payment(&to_js(body)?), "confirmPayment answer", Root::ConfirmResponse).await
    }
    /// The `variantRates` list (a fake may answer the whole response object).
    async fn shipping_rates(&self, body: &ShippingRatesRequest) -> JsResult<Vec<VariantRates>> {
        let v = JsFuture::from(Promise::resolve(&self.shipping_rates_js(&to_js(body)?)?)).await?;
        if v.is_array() {
            Ok(list_from_js(v, "shippingRates answer", Root::VariantRates)?)
        } else {
            Ok(arg_from_js::<crate::model::ShippingRatesResponse>(v, "shippingRates answer", Some(Root::ShippingRatesResponse), false)?.variant_rates)
        }
    }
}

impl PaymentApi for Payer {
    async fn initiate(&self, body: &InitiateRequest) -> JsResult<InitiateResponse> {
        match self {
            #[cfg(not(feature = "checkout-module"))]
            Payer::Rust(c) => PaymentApi::initiate(c, body).await,
            Payer::Js(c) => PaymentApi::initiate(c, body).await,
        }
    }
    async fn update(&self, body: &UpdateRequest) -> JsResult<UpdateResponse> {
        match self {
            #[cfg(not(feature = "checkout-module"))]
            Payer::Rust(c) => PaymentApi::update(c, body).await,
            Payer::Js(c) => PaymentApi::update(c, body).await,
        }
    }
    async fn confirm(&self, body: &ConfirmRequest) -> JsResult<ConfirmResponse> {
        match self {
            #[cfg(not(feature = "checkout-module"))]
            Payer::Rust(c) => PaymentApi::confirm(c, body).await,
            Payer::Js(c) => PaymentApi::confirm(c, body).await,
        }
    }
    async fn shipping_rates(&self, body: &ShippingRatesRequest) -> JsResult<Vec<VariantRates>> {
        match self {
            #[cfg(not(feature = "checkout-module"))]
            Payer::Rust(c) => PaymentApi::shipping_rates(c, body).await,
            Payer::Js(c) => PaymentApi::shipping_rates(c, body).await,
        }
    }
}
