//! What `Checkout.start` and `Checkout.resume` are given (issues 5, 11, 16, 23):
//! what to buy ([`what_to_buy`]) and where the record is kept: `localStorage`
//! (or what `options.storage` names), which every tab of the origin reads,
//! under the cart's key `<cartKey>:checkout`, `options.storageKey`, or
//! `"cirrus.checkout"` (`checkout_split::record_key`). The stored form is
//! read back trusting nothing ([`crate::checkout::stored`]: serde, and the
//! record's closed schema for members the state does not have); an
//! unreadable one is kept aside under `<key>:unreadable`, never deleted.

use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use super::checkout_split::record_key;
use super::interop::{list_from_js, options_from_js};
use super::js::get;
use super::storage::Store;
use crate::checkout::protocol::Record;
use crate::checkout::CheckoutOptions;
use crate::checkout::stored::restore;
use crate::model::PaymentItem;
use crate::error::{Error, Result};
use crate::jsoncheck::Root;

/// Where an unreadable stored state is kept aside (`<key>` + this), never
/// deleted: it may describe a payment whose outcome is not settled.
const UNREADABLE_SUFFIX: &str = ":unreadable";

fn bad(message: &str) -> Error {
    Error::invalid_argument(message)
}

/// The record kept under `key`, if any: read back by
/// [`crate::checkout::stored::restore`], which trusts nothing.
pub(super) fn stored(storage: Option<&Store>, key: &str) -> Result<Option<Record>> {
    let Some(s) = storage else { return Ok(None) };
    let Some(text) = s.get_item(key).ok().flatten() else { return Ok(None) };
    let value = super::js::parse_json(&text).map_err(|e| Error::invalid_argument(format!("stored checkout state is not valid: {}", super::js::error_text(&e))))?;
    restore(|| serde_wasm_bindgen::Deserializer::from(value.clone()), &text).map(Some)
}

/// An unreadable stored state is reported, never silently deleted (it may
/// describe a payment whose outcome is not settled): its text is moved to
/// `<key>:unreadable` and the error says so.
pub(super) fn keep_aside(storage: Option<&Store>, key: &str, e: Error) -> Error {
    let Some(s) = storage else { return e };
    let aside = format!("{key}{}", UNREADABLE_SUFFIX);
    let kept = s.get_item(key).ok().flatten().is_some_and(|text| s.set_item(&aside, &text).is_ok());
    if !kept {
        // Nowhere to keep it: leave it where it is rather than lose it.
        return Error::new(e.code, format!("{}; it was left under {key:?}", e.message));
    }
    let _ = s.remove_item(key);
    Error::new(e.code, format!("{}; it was kept aside under {:?}", e.message, &aside))
}

/// The options of `start`/`resume`: their data ([`CheckoutOptions`]) and the members only
/// JavaScript can give, which the options type declares ([`crate::jsobject::JsObject`]) and
/// which are read here from the argument by name, to be checked where they are used.
pub(super) struct Options {
    pub(super) data: CheckoutOptions,
    /// `options.adapter` (checked by [`common`]).
    pub(super) adapter: JsValue,
    /// `options.storage` (checked by `checkout::common`).
    pub(super) storage: JsValue,
    /// `options.cart` (`undefined` when absent).
    pub(super) cart: JsValue,
}

/// The options of `start`/`resume`, decoded once (unknown members refused; a member of the
/// wrong type in the words the API has always used).
///
/// # Errors
/// `invalid_argument` naming the option.
pub(super) fn decode(options: JsValue) -> Result<Options> {
    if !options.is_object() {
        return Err(bad("options must be an object with at least `adapter`"));
    }
    let data = options_from_js(
        options.clone(),
        "options",
        Root::CheckoutOptions,
        &[("storageKey", "a non-empty string"), ("currency", "a string like \"USD\"")],
    )?;
    Ok(Options { data, adapter: get(&options, "adapter"), storage: get(&options, "storage"), cart: get(&options, "cart") })
}

/// What a live checkout keeps of its options (`checkout_live::Common`, with the record's
/// place, which `checkout` reads from `options.storage`): the adapter (its methods checked),
/// the record's key, the cart (when it can be emptied).
pub(super) type Kept = (JsValue, String, Option<JsValue>);

/// [`Kept`] of the options.
///
/// # Errors
/// `invalid_argument` naming the member at fault.
pub(super) fn common(o: &Options) -> Result<Kept> {
    let adapter = &o.adapter;
    for m in ["mount", "updateAmount", "collectToken", "handleNextAction"] {
        if !get(adapter, m).is_function() {
            return Err(super::js::wrong_type(&format!("options.adapter.{m} must be a function (see ProcessorAdapter)"), &get(adapter, m)));
        }
    }
    let storage_key = match &o.data.storage_key {
        Some(k) if k.is_empty() => return Err(super::js::wrong_type("options.storageKey must be a non-empty string", &JsValue::from_str(""))),
        k => k.clone(),
    };
    let key = record_key(storage_key, &o.cart);
    let cart = get(&o.cart, "clear").is_function().then(|| o.cart.clone());
    Ok((adapter.clone(), key, cart))
}

/// Whether the options name a cart (its checkout empties it once paid).
pub(super) fn from_cart(o: &Options) -> bool {
    !o.cart.is_undefined()
}

/// Whether the options name what to buy (`cart` or `items`).
pub(super) fn names_what_to_buy(o: &Options) -> bool {
    from_cart(o) || o.data.items.is_some()
}

/// Call a `Cart` method with no arguments.
fn call(cart: &JsValue, m: &str) -> Result<JsValue> {
    get(cart, m)
        .dyn_into::<Function>()
        .ok()
        .and_then(|f| f.call0(cart).ok())
        .ok_or_else(|| bad(&format!("options.cart.{m}() must be callable (pass a Cart)")))
}

/// What a `Cart` holds now (`cart.paymentItems()`).
pub(super) fn cart_items(cart: &JsValue) -> Result<Vec<PaymentItem>> {
    list_from_js(call(cart, "paymentItems")?, "options.items", Root::PaymentItem)
}

/// `{ cart }` (a `Cart`: `paymentItems()` and `currency`, a getter or a
/// function) or `{ items, currency }`. The items may be empty (a cart the
/// SDK emptied when its payment succeeded): `start` refuses that only when
/// it has to open a new checkout.
pub(super) fn what_to_buy(o: &Options) -> Result<(Vec<PaymentItem>, String)> {
    if !from_cart(o) {
        let items = o.data.items.clone().ok_or_else(|| bad("options.items must be an array of PaymentItems (or pass options.cart)"))?;
        let currency = o.data.currency.clone().ok_or_else(|| super::js::wrong_type("options.currency must be a string like \"USD\"", &JsValue::UNDEFINED))?;
        return Ok((items, currency));
    }
    let cart = &o.cart;
    let items = cart_items(cart)?;
    let currency = get(cart, "currency");
    let currency = if currency.is_function() { call(cart, "currency")? } else { currency };
    let currency = super::js::string_arg(&currency, "options.currency must be a string like \"USD\"")?;
    Ok((items, currency))
}
