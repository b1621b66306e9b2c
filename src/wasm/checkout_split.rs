//! The checkout as a wasm module of its own (`--features checkout-module`,
//! `pkg/checkout/`): the root entry's wasm (`--features no-checkout`) holds no
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

use super::storage;

/// Where the state is kept unless `storageKey` says otherwise.
pub(super) const DEFAULT_KEY: &str = "cirrus.checkout";

/// Removes the stored state of `storage_key` (default [`DEFAULT_KEY`]) from
/// `sessionStorage`.
pub(super) fn clear_stored(storage_key: Option<&str>) {
    if let Ok(Some(s)) = storage::session() {
        let _ = s.remove_item(storage_key.unwrap_or(DEFAULT_KEY));
    }
}

/// `Checkout.clearStored` of the package (js/lazy-checkout.ts), without loading
/// the checkout module (not part of the public API).
#[cfg(not(feature = "checkout-module"))]
#[wasm_bindgen(js_name = __clearStoredCheckout, skip_typescript)]
pub fn clear_stored_checkout(storage_key: Option<String>) {
    clear_stored(storage_key.as_deref());
}

/// The types of the checkout's signatures (js/generated/checkout.ts) that the
/// root entry's glue declares.
#[cfg(feature = "checkout-module")]
#[wasm_bindgen(typescript_custom_section)]
const ROOT_TYPES: &str = r#"import type { Breakdown, ErrorCode, PaymentItem, PaymentStatus, Processor, ShippingAddress, ShippingOption, ShippingRate } from "../cirrus_storefront.js";"#;
