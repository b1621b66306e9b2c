//! What `Checkout.start` and `Checkout.resume` are given (issues 5, 11, 16, 23):
//! what to buy ([`what_to_buy`]) and where the record is kept: `localStorage`
//! (or what `options.storage` names), which every tab of the origin reads,
//! under the cart's key `<cartKey>:checkout`, `options.storageKey`, or
//! `"cirrus.checkout"` (`checkout_split::record_key`). The stored form is
//! read back trusting nothing ([`crate::checkout::stored`]); an unreadable
//! one is kept aside under `<key>:unreadable`, never deleted.

use js_sys::{Function, Reflect, JSON};
use wasm_bindgen::prelude::*;

use super::interop::{list_from_js, to_js};
use super::js::get;
use super::storage::Store;
use crate::checkout::stored::{restore, Stored};
use crate::checkout::CheckoutState;
use crate::model::PaymentItem;
use crate::error::{Error, Result};
use crate::jsoncheck::Root;
use crate::text::{cat, quote};

/// Where an unreadable stored state is kept aside (`<key>` + this), never
/// deleted: it may describe a payment whose outcome is not settled.
const UNREADABLE_SUFFIX: &str = ":unreadable";

fn bad(message: &str) -> Error {
    Error::invalid_argument(message)
}

/// The message of a thrown JS value ("" when it has none).
pub(super) fn js_message(e: &JsValue) -> String {
    super::js::message(e).or_else(|| e.as_string()).unwrap_or_default()
}

/// The state kept under `key`, if any.
pub(super) fn stored(storage: Option<&Store>, key: &str) -> Result<Option<CheckoutState>> {
    let Some(s) = storage else { return Ok(None) };
    let Some(text) = s.get_item(key).ok().flatten() else { return Ok(None) };
    let invalid = |m: &str| Error::invalid_argument(cat(&["stored checkout state is not valid: ", m]));
    let value = JSON::parse(&text).map_err(|e| invalid(&js_message(&e)))?;
    let state = restore(serde_wasm_bindgen::Deserializer::from(value.clone()), &text)?;
    // serde-wasm-bindgen reads only the members a struct declares, so
    // `deny_unknown_fields` never fires here: a member the state does not
    // write back is refused by comparing the input with its re-serialization.
    let back = to_js(&Stored::of(&state))?;
    if let Some(path) = foreign_member(&value, &back, "") {
        return Err(invalid(&cat(&[&path, ": unknown member"])));
    }
    Ok(Some(state))
}

/// An unreadable stored state is reported, never silently deleted (it may
/// describe a payment whose outcome is not settled): its text is moved to
/// `<key>:unreadable` and the error says so.
pub(super) fn keep_aside(storage: Option<&Store>, key: &str, e: Error) -> Error {
    let Some(s) = storage else { return e };
    let aside = cat(&[key, UNREADABLE_SUFFIX]);
    let kept = s.get_item(key).ok().flatten().is_some_and(|text| s.set_item(&aside, &text).is_ok());
    if !kept {
        // Nowhere to keep it: leave it where it is rather than lose it.
        return Error::new(e.code, cat(&[&e.message, "; it was left under ", &quote(key)]));
    }
    let _ = s.remove_item(key);
    Error::new(e.code, cat(&[&e.message, "; it was kept aside under ", &quote(&aside)]))
}

/// The path of the first member of `input` that `known` (the same value as
/// the SDK writes it) does not have, looking into objects and arrays.
fn foreign_member(input: &JsValue, known: &JsValue, path: &str) -> Option<String> {
    let at = |k: &str| if path.is_empty() { k.to_owned() } else { cat(&[path, ".", k]) };
    if let (Some(a), Some(b)) = (input.dyn_ref::<js_sys::Array>(), known.dyn_ref::<js_sys::Array>()) {
        return (0..a.length().min(b.length())).find_map(|i| {
            let p = cat(&[path, "[", &crate::text::uint(u64::from(i)), "]"]);
            foreign_member(&a.get(i), &b.get(i), &p)
        });
    }
    if !(input.is_object() && known.is_object()) {
        return None;
    }
    js_sys::Object::keys(input.unchecked_ref::<js_sys::Object>()).iter().find_map(|k| {
        let k = k.as_string()?;
        let key = JsValue::from_str(&k);
        if !Reflect::has(known, &key).unwrap_or(false) {
            return Some(at(&k));
        }
        foreign_member(&get(input, &k), &get(known, &k), &at(&k))
    })
}

/// Whether the options name what to buy (`cart` or `items`).
pub(super) fn names_what_to_buy(options: &JsValue) -> bool {
    !get(options, "cart").is_undefined() || !get(options, "items").is_undefined()
}

/// Call a `Cart` method with no arguments.
fn call(cart: &JsValue, m: &str) -> Result<JsValue> {
    get(cart, m)
        .dyn_into::<Function>()
        .ok()
        .and_then(|f| f.call0(cart).ok())
        .ok_or_else(|| bad(&cat(&["options.cart.", m, "() must be callable (pass a Cart)"])))
}

/// What a `Cart` holds now (`cart.paymentItems()`).
pub(super) fn cart_items(cart: &JsValue) -> Result<Vec<PaymentItem>> {
    list_from_js(call(cart, "paymentItems")?, "options.items", Root::PaymentItem)
}

/// `{ cart }` (a `Cart`: `paymentItems()` and `currency`, a getter or a
/// function) or `{ items, currency }`. The items may be empty (a cart the
/// SDK emptied when its payment succeeded): `start` refuses that only when
/// it has to open a new checkout.
pub(super) fn what_to_buy(options: &JsValue) -> Result<(Vec<PaymentItem>, String)> {
    let cart = get(options, "cart");
    let (items, currency) = if cart.is_undefined() {
        (list_from_js(get(options, "items"), "options.items", Root::PaymentItem)?, get(options, "currency"))
    } else {
        let currency = get(&cart, "currency");
        (cart_items(&cart)?, if currency.is_function() { call(&cart, "currency")? } else { currency })
    };
    let currency = currency.as_string().ok_or_else(|| bad("options.currency must be a string like \"USD\""))?;
    Ok((items, currency))
}
