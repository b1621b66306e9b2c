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
use crate::checkout::kept::{self, Clear, UNREADABLE_SUFFIX};
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
/// A record that does not read is kept aside under `<key>:unreadable`, never
/// deleted ([`kept::clear`]: the heads alone; this wasm decodes no checkout state).
///
/// # Errors
/// `invalid_state` while the record holds a payment whose outcome is not
/// settled yet, or may (it is kept: resume it, the SDK finishes it), `invalid_argument`
/// for a `target` that is neither.
pub(super) fn clear_stored(target: &JsValue) -> Result<()> {
    let key = match target {
        t if t.is_undefined() || t.is_null() => DEFAULT_KEY.to_owned(),
        t if t.is_string() => t.as_string().filter(|k| !k.is_empty()).ok_or_else(|| Error::invalid_argument("storageKey must not be empty"))?,
        t if t.is_object() => record_key(None, t),
        _ => return Err(Error::invalid_argument("Checkout.clearStored takes a Cart or a storage key string")),
    };
    if let Ok(Some(s)) = storage::local() {
        let aside_key = format!("{key}{UNREADABLE_SUFFIX}");
        let (main, aside) = (item(&s, &key), item(&s, &aside_key));
        let decision = kept::clear(&text(&main), &text(&aside));
        match decision {
            Clear::Refuse => return Err(kept::refuse_clear(&key)),
            Clear::Aside => {
                // Kept aside as every read does; where it cannot be copied, it stays.
                if main.is_some_and(|(t, _)| s.set_item(&aside_key, &t).is_ok()) {
                    let _ = s.remove_item(&key);
                }
            }
            Clear::Remove => {
                let _ = s.remove_item(&key);
            }
        }
    }
    if let Ok(Some(s)) = storage::session() {
        let _ = s.remove_item(&key);
    }
    Ok(())
}

/// `getItem(key)` of a stored record: its text and its parsed value (`None`
/// where it is not JSON).
pub(super) fn item(s: &storage::Store, key: &str) -> Option<(String, Option<JsValue>)> {
    let text = s.get_item(key).ok().flatten()?;
    let value = super::js::parse_json(&text).ok();
    Some((text, value))
}

/// A stored record as [`kept`] takes it: its text, and a maker of deserializers
/// over its parsed value.
pub(super) fn text(t: &Option<(String, Option<JsValue>)>) -> kept::Text<'_, impl Fn() -> serde_wasm_bindgen::Deserializer + '_> {
    t.as_ref().map(|(text, v)| (text.as_str(), v.as_ref().map(|v| move || serde_wasm_bindgen::Deserializer::from(v.clone()))))
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
