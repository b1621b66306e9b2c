//! The client's payment calls as the checkout makes them ([`JsClient`]).
//!
//! The package's checkout is a wasm module of its own (feature `checkout`,
//! [`super::checkout_split`]), loaded after the client's: Rust objects do not
//! cross between two wasm instances, so the client it is given (a
//! `CirrusClient`, or anything shaped like `CheckoutClient` in
//! `js/interfaces.d.ts`, e.g. a test's fake) is called through its JS methods,
//! the extern [`JsClient`]. Each body is converted to JS once and each answer
//! decoded once, named by its path in the response schema when it is bad. A
//! payment body is sent once, never retried.

use js_sys::Promise;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::interop::{arg_from_js, list_from_js, to_js};
use super::js::get;
use crate::error::Result;
use crate::jsoncheck::Root;
use crate::model::{
    ConfirmRequest, ConfirmResponse, InitiateRequest, InitiateResponse, ShippingRatesRequest, UpdateRequest, UpdateResponse, VariantRates,
};

type JsResult<T> = std::result::Result<T, JsValue>;

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
    #[wasm_bindgen(method, catch, js_name = store)]
    fn store_js(this: &JsClient) -> JsResult<JsValue>;
}

impl JsClient {
    /// The client `Checkout.start`/`resume` were given: any value with the
    /// four methods of `CheckoutClient` (a `CirrusClient` has them).
    ///
    /// # Errors
    /// `invalid_argument` naming the missing method.
    pub(super) fn of(client: JsValue) -> Result<JsClient> {
        for m in ["initiatePayment", "updatePayment", "confirmPayment", "shippingRates"] {
            if !get(&client, m).is_function() {
                return Err(super::js::wrong_type(&format!("client.{m} must be a function (pass a CirrusClient)"), &get(&client, m)));
            }
        }
        Ok(client.unchecked_into())
    }
}

/// Await a JS method's result (a promise or a plain value) and decode it
/// (a fake's answer: a bad one is named by its path in the response schema `root`).
async fn answer<T: DeserializeOwned>(call: JsResult<JsValue>, what: &str, root: Root) -> JsResult<T> {
    let v = JsFuture::from(Promise::resolve(&call?)).await?;
    Ok(arg_from_js(v, what, Some(root), false)?)
}

/// The payment calls of a client: each body converted to JS, each answer
/// decoded from JS. A rejection is the value the JS method would have
/// rejected with (a `CirrusError`, or a fake's own error).
impl JsClient {
    pub(super) async fn initiate(&self, body: &InitiateRequest) -> JsResult<InitiateResponse> {
        answer(self.initiate_payment(&to_js(body)?), "initiatePayment answer", Root::InitiateResponse).await
    }
    pub(super) async fn update(&self, body: &UpdateRequest) -> JsResult<UpdateResponse> {
        answer(self.update_payment(&to_js(body)?), "updatePayment answer", Root::UpdateResponse).await
    }
    pub(super) async fn confirm(&self, body: &ConfirmRequest) -> JsResult<ConfirmResponse> {
        answer(self.confirm_payment(&to_js(body)?), "confirmPayment answer", Root::ConfirmResponse).await
    }
    /// The `variantRates` list (a fake may answer the whole response object).
    /// The store's `defaultCurrency` when the client can tell: a `CirrusClient` has `store()`
    /// (its answer checked by the client); a `CheckoutClient` may leave it out (`None`).
    pub(super) async fn store_currency(&self) -> JsResult<Option<String>> {
        if !get(self, "store").is_function() {
            return Ok(None);
        }
        let store = JsFuture::from(Promise::resolve(&self.store_js()?)).await?;
        Ok(get(&store, "defaultCurrency").as_string())
    }
    pub(super) async fn shipping_rates(&self, body: &ShippingRatesRequest) -> JsResult<Vec<VariantRates>> {
        let v = JsFuture::from(Promise::resolve(&self.shipping_rates_js(&to_js(body)?)?)).await?;
        if v.is_array() {
            Ok(list_from_js(v, "shippingRates answer", Root::VariantRates)?)
        } else {
            Ok(arg_from_js::<crate::model::ShippingRatesResponse>(v, "shippingRates answer", Some(Root::ShippingRatesResponse), false)?.variant_rates)
        }
    }
}
