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

use super::checkout_split::{item, record_key, text};
use super::interop::{list_from_js, options_from_js};
use super::js::get;
use super::storage::Store;
use crate::checkout::kept::{reading, Keep, UNREADABLE_SUFFIX};
use crate::checkout::protocol::Stored;
use crate::checkout::CheckoutOptions;
use crate::model::PaymentItem;
use crate::error::{Error, Result};
use crate::jsoncheck::Root;

fn bad(message: &str) -> Error {
    Error::invalid_argument(message)
}

/// The record kept under `key` as the protocol reads it, with what is kept
/// aside under `<key>:unreadable`: decided by [`crate::checkout::kept::reading`]
/// (the record read back trusting nothing, [`crate::checkout::stored::restore`];
/// one of another SDK version read leniently when it names an unsettled
/// payment, else kept where it is while it may name one), performed here. An
/// unreadable record is moved aside, never deleted, and the error says where.
pub(super) fn stored(s: &Store, key: &str) -> Stored {
    let aside_key = format!("{key}{UNREADABLE_SUFFIX}");
    for _ in 0..2 {
        let (main, aside) = (item(s, key), item(s, &aside_key));
        let r = reading(key, text(&main), text(&aside));
        match r.keep {
            Keep::Nothing => return r.stored,
            Keep::Aside => {
                return r.stored.map_err(|e| {
                    let kept = main.is_some_and(|(t, _)| s.set_item(&aside_key, &t).is_ok());
                    if !kept {
                        // Nowhere to keep it: leave it where it is rather than lose it.
                        return Error::new(e.code, format!("{}; it was left under {key:?}", e.message));
                    }
                    let _ = s.remove_item(key);
                    Error::new(e.code, format!("{}; it was kept aside under {:?}", e.message, &aside_key))
                })
            }
            Keep::Restore => {
                if aside.is_none_or(|(t, _)| s.set_item(key, &t).is_err()) {
                    break;
                }
                let _ = s.remove_item(&aside_key);
            }
        }
    }
    Err(Error::invalid_state(format!("{aside_key:?} could not be put back")))
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
