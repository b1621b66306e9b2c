//! What `Checkout.start`, `Checkout.resume` and `pay` are given: one serde type each,
//! decoded once at the wasm boundary (src/wasm/interop.rs, unknown members refused) and
//! generated into TypeScript (tools/typegen/). The members only JavaScript can give (the
//! adapter, a `Storage`, a `Cart`) are declared as [`JsObject`]s: src/wasm/checkout_options.rs
//! reads them from the argument by name and checks them.

use serde::Deserialize;

use crate::jsobject::JsObject;
use crate::model::PaymentItem;

/// Options shared by `Checkout.start` and `Checkout.resume`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckoutOptions {
    /// The payment processor's browser library (`js/adapters/`).
    #[serde(default)]
    pub adapter: JsObject,
    /// Where the checkout's record is kept: default `localStorage`, which every tab of the
    /// origin reads (there is no per-tab mode). Another shared `Storage` may be passed; `null`
    /// keeps it in this page's memory (the page's next checkout of the cart finds it; other tabs
    /// do not, and a reload forgets it).
    #[serde(default)]
    pub storage: JsObject,
    /// The record's key; default `"<cart.storageKey>:checkout"` for a persistent cart, else
    /// "cirrus.checkout". Also names the cross-tab checkout lock.
    #[serde(default)]
    pub storage_key: Option<String>,
    /// The cart being bought. Its checkout is shared with every tab; when the payment
    /// succeeds, what was paid for is taken out of it (in every tab, for a persistent cart).
    #[serde(default)]
    pub cart: JsObject,
    /// Without a cart: the items being bought (`resume` does not open a record for other items).
    #[serde(default)]
    pub items: Option<Vec<PaymentItem>>,
    /// Without a cart: the currency of `items` (`start`).
    #[serde(default)]
    pub currency: Option<String>,
}

/// Options of `Checkout.pay`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PayOptions {
    /// Absolute http(s) URL the processor returns to after a redirect-based next action.
    pub return_url: String,
}
