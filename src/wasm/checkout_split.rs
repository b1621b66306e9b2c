//! The checkout as a wasm module of its own (feature `checkout` alone,
//! `pkg/checkout/`): the root entry's wasm (`client cart storefront`) holds no
//! checkout code, and the package's `Checkout` (js/lazy-checkout.ts) fetches the
//! module on the first `Checkout.start`/`resume`. Two wasm instances share no
//! Rust objects: the checkout calls the client through its JS methods
//! ([`super::payment_api`]) and reads a `Cart` through its JS API
//! ([`super::checkout_options::what_to_buy`]).
//!
//! This file is what crosses the split:
//! - `Checkout.clearStored` must stay synchronous, so its work is here and the
//!   root entry's wasm exports it too (`__clearStoredCheckout`);
//! - the checkout module's `.d.ts` takes the client's and the cart's types
//!   from the root entry's glue (`../cirrus_storefront.js`).

use wasm_bindgen::prelude::*;

use super::js::get;
use super::storage;
use crate::checkout::CheckoutState;
use crate::error::{Error, Result};

/// The record's key when neither a cart nor `storageKey` names one.
pub(super) const DEFAULT_KEY: &str = "cirrus.checkout";
/// The checkout record of a persistent cart: `<cartKey>` + this.
pub(super) const CART_SUFFIX: &str = ":checkout";

/// The record's key for a cart (its `storageKey`, when persistent) or an
/// explicit key: `storageKey`, else `"<cart.storageKey>:checkout"`, else
/// [`DEFAULT_KEY`].
pub(super) fn record_key(storage_key: Option<String>, cart: &JsValue) -> String {
    let cart_key = get(cart, "storageKey").as_string().filter(|k| !k.is_empty());
    storage_key.unwrap_or_else(|| cart_key.map_or_else(|| DEFAULT_KEY.to_owned(), |k| format!("{k}{}", CART_SUFFIX)))
}

/// Removes the checkout record named by `target` (a `Cart`: its record;
/// a string: that key; nothing: [`DEFAULT_KEY`]) from `localStorage`, where
/// every tab reads it (and from this tab's `sessionStorage`, where SDKs
/// before the shared record kept it).
///
/// # Errors
/// `invalid_state` while the record holds a payment whose outcome is not
/// settled yet (it is kept: resume it, the SDK finishes it), `invalid_argument`
/// for a `target` that is neither.
pub(super) fn clear_stored(target: &JsValue) -> Result<()> {
    let key = match target {
        t if t.is_undefined() || t.is_null() => DEFAULT_KEY.to_owned(),
        t if t.is_string() => t.as_string().filter(|k| !k.is_empty()).ok_or_else(|| Error::invalid_argument("storageKey must not be empty"))?,
        t if t.is_object() => record_key(None, t),
        _ => return Err(Error::invalid_argument("Checkout.clearStored takes a Cart or a storage key string")),
    };
    if let Ok(Some(s)) = storage::local() {
        if let Some(text) = s.get_item(&key).ok().flatten() {
            let record = super::js::parse_json(&text).unwrap_or(JsValue::NULL);
            let state = get(&record, "state").as_string().unwrap_or_default();
            let retryable = get(&record, "retryable").as_bool().unwrap_or(false);
            let pending = get(&record, "pending").is_object();
            if CheckoutState::unsettled_record(&state, retryable, pending) {
                return Err(Error::invalid_state(format!("the checkout under {:?} has a payment whose outcome is not known yet; it is kept: open it with Checkout.resume() and the SDK finishes it", &key)));
            }
            let _ = s.remove_item(&key);
        }
    }
    if let Ok(Some(s)) = storage::session() {
        let _ = s.remove_item(&key);
    }
    Ok(())
}

/// `Checkout.clearStored` of the package (js/lazy-checkout.ts), without loading
/// the checkout module (not part of the public API).
#[cfg(feature = "cart")]
#[wasm_bindgen(js_name = __clearStoredCheckout, skip_typescript)]
pub fn clear_stored_checkout(target: JsValue) -> std::result::Result<(), JsValue> {
    clear_stored(&target).map_err(JsValue::from)
}

/// The types of the checkout's signatures (js/generated/checkout.ts) that the
/// root entry's glue declares (in a build without the cart, the checkout module's).
#[cfg(not(feature = "cart"))]
#[wasm_bindgen(typescript_custom_section)]
const ROOT_TYPES: &str = r#"import type { Breakdown, CountryCode, CurrencyCode, ErrorCode, MinorUnits, PaymentItem, PaymentStatus, Processor, ShippingAddress, ShippingOption, ShippingRate } from "../cirrus_storefront.js";"#;
