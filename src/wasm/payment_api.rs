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

use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use super::interop::{arg_from_js, list_from_js, to_js};
use super::js::get;
use crate::error::Result;
use crate::jsoncheck::Root;
use crate::model::{
    ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest, VariantRates,
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

/// The payment calls of a client: each body converted to JS and the JS
/// method called; its promise (or plain value) is awaited by the executor
/// (`checkout_exec`), and the answer decoded by [`answer`] or [`rates`]. A
/// rejection is the value the JS method would have rejected with (a
/// `CirrusError`, or a fake's own error).
impl JsClient {
    pub(super) fn initiate(&self, body: &InitiateRequest) -> JsResult<JsValue> {
        self.initiate_payment(&to_js(body)?)
    }
    pub(super) fn update(&self, body: &UpdateRequest) -> JsResult<JsValue> {
        self.update_payment(&to_js(body)?)
    }
    pub(super) fn confirm(&self, body: &ConfirmRequest) -> JsResult<JsValue> {
        self.confirm_payment(&to_js(body)?)
    }
    pub(super) fn shipping_rates(&self, body: &ShippingRatesRequest) -> JsResult<JsValue> {
        self.shipping_rates_js(&to_js(body)?)
    }
    /// `store()`, when the client has it: a `CirrusClient` does; a `CheckoutClient` may leave
    /// it out (then `undefined`, read as no currency by [`store_currency`]).
    pub(super) fn store(&self) -> JsResult<JsValue> {
        if !get(self, "store").is_function() {
            return Ok(JsValue::UNDEFINED);
        }
        self.store_js()
    }
}

/// An answer of `initiatePayment`, `updatePayment` or `confirmPayment`, decoded (a fake's
/// answer: a bad one is named by its path in the response schema `root`).
pub(super) fn answer<T: DeserializeOwned>(v: JsValue, what: &str, root: Root) -> JsResult<T> {
    Ok(arg_from_js(v, what, Some(root), false)?)
}

/// The `variantRates` list of a `shippingRates` answer (a fake may answer the whole response object).
pub(super) fn rates(v: JsValue) -> JsResult<Vec<VariantRates>> {
    if v.is_array() {
        Ok(list_from_js(v, "shippingRates answer", Root::VariantRates)?)
    } else {
        Ok(arg_from_js::<crate::model::ShippingRatesResponse>(v, "shippingRates answer", Some(Root::ShippingRatesResponse), false)?.variant_rates)
    }
}

/// The store's `defaultCurrency` from `store()`'s answer, when it tells.
pub(super) fn store_currency(store: &JsValue) -> Option<String> {
    get(store, "defaultCurrency").as_string()
}
