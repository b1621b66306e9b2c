//! What a persistent cart (`Cart.persistent`, src/wasm/cart.rs) is given and what its
//! listeners hear: one serde type each, decoded once at the wasm boundary
//! (src/wasm/interop.rs) and generated into TypeScript (tools/typegen/).

use serde::{Deserialize, Serialize};

use super::storage::RestoreProblem;
use crate::jsobject::JsObject;

/// Options of `Cart.persistent`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PersistentCartOptions {
    /// localStorage key; default "cirrus-storefront.cart".
    #[serde(default)]
    pub key: Option<String>,
    /// Where to keep the cart; default `localStorage`.
    #[serde(default)]
    pub storage: JsObject,
    /// After every change: this tab's (`"change"`) or another tab's (`"storage"`).
    #[serde(default)]
    pub on_change: JsObject,
}

/// Where a change of a cart came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CartEventSource {
    /// This tab changed it (an action, or a paid checkout taking lines out).
    Change,
    /// Another tab did (the `storage` event).
    Storage,
}

/// What `Cart.subscribe` listeners (and `onChange`) receive after every change of the cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartEvent {
    /// `"change"`: this tab changed it (an action, or a paid checkout taking lines out); `"storage"`: another tab did.
    pub source: CartEventSource,
    /// The cart's problem after the change (e.g. `write_failed`: saving failed, the cart in memory is intact), else `null`.
    pub problem: Option<RestoreProblem>,
    /// The cart's `version` after the change.
    pub version: u32,
}
