//! A persistent `Cart`'s storage ([`super::cart`], `Cart.persistent`): the
//! storage and key its options name (`localStorage` through
//! [`super::storage`] by default), the saved form written and read, and other
//! tabs followed through the `storage` event (a
//! [`super::listeners::EventListener`] removed when the cart is freed).
//! Missing or failing storage and bad saved data are a `problem`, never an
//! exception.

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::interop::{de_message, options_from_js, to_js};
use super::js::{self, get, safe_integer};
use super::listeners::EventListener;
use super::storage::{self, Store};
use crate::cart::{self, PersistentCartOptions, RestoreProblem, RestoreProblemKind, SavedCart, SavedReader};
use crate::jsoncheck::Root;
use crate::error::Result;

const DEFAULT_KEY: &str = "cirrus-storefront.cart";

/// Where a persistent cart is kept.
pub(super) struct Persistence {
    pub(super) key: String,
    /// `None` where no storage could be opened: the cart is kept in memory only.
    pub(super) storage: Option<Store>,
}

/// Reads saved carts with the engine's `JSON.parse` and serde-wasm-bindgen
/// (the cart's own storage: decoded plainly, the decoder's message without a
/// path).
struct JsJson;

impl SavedReader for JsJson {
    type Doc = JsValue;
    fn parse(text: &str) -> core::result::Result<JsValue, String> {
        js::parse_json(text).map_err(|e| js::error_text(&e))
    }
    fn version(doc: &JsValue) -> Option<u64> {
        safe_integer(&get(doc, "version"))
    }
    fn saved(doc: JsValue) -> core::result::Result<SavedCart, String> {
        serde_wasm_bindgen::from_value(doc).map_err(de_message)
    }
}

/// Read a saved cart; an empty cart and the problem when it is not usable.
pub(super) fn load(data: Option<&str>, currency: &str) -> Result<(cart::Cart, Option<RestoreProblem>)> {
    let r = cart::Cart::restore::<JsJson>(data, currency)?;
    Ok((r.cart, r.problem))
}

/// The versioned JSON form of `cart`, whose line snapshots are `lines`
/// (`{"version":1,"currency":…,"lines":[…],"settled":[…],"summary":{…}}`, src/cart/storage.rs;
/// `settled`, the checkouts taken out of the cart, only when there is one).
pub(super) fn saved_text(cart: &cart::Cart, lines: &Array) -> String {
    let doc = Object::new();
    let set = |k: &str, v: &JsValue| {
        let _ = Reflect::set(&doc, &JsValue::from_str(k), v);
    };
    set("version", &JsValue::from(cart::STORAGE_VERSION));
    set("currency", &JsValue::from_str(cart.currency().code()));
    set("lines", lines);
    if !cart.settled().is_empty() {
        set("settled", &to_js(cart.settled()).unwrap_or(JsValue::NULL));
    }
    set("summary", &to_js(&cart.summary()).unwrap_or(JsValue::NULL));
    js_sys::JSON::stringify(&doc).ok().and_then(|s| s.as_string()).unwrap_or_default()
}

/// The options of `Cart.persistent`, decoded once ([`super::interop`]): `key` (default
/// `"cirrus-storefront.cart"`), `onChange` (a function, if given) and `storage` (the value
/// given, for [`open`]).
///
/// # Errors
/// `invalid_argument` naming the option: a key that is not a non-empty string, an
/// `onChange` that is not a function, an unknown member.
pub(super) fn options(options: JsValue) -> Result<(String, Option<js_sys::Function>, JsValue)> {
    let o: PersistentCartOptions =
        options_from_js(options.clone(), "options", Root::PersistentCartOptions, &[("key", "a non-empty string")])?;
    let key = match o.key {
        None => DEFAULT_KEY.to_owned(),
        Some(k) if k.is_empty() => return Err(js::wrong_type("options.key must be a non-empty string", &JsValue::from_str(""))),
        Some(k) => k,
    };
    // The JS-only members (`onChange`, `storage`), read by name.
    let on_change = match js::get(&options, "onChange") {
        f if f.is_undefined() || f.is_null() => None,
        f => Some(js::function_arg(f, "options.onChange must be a function")?),
    };
    Ok((key, on_change, js::get(&options, "storage")))
}

/// `options.storage` (the value given), default `localStorage`, and the problem when there
/// is none (the cart is kept in memory only).
///
/// # Errors
/// `invalid_argument` when `options.storage` is not an object.
pub(super) fn open(storage: JsValue) -> Result<(Option<Store>, Option<RestoreProblem>)> {
    let unavailable = |message: String| Some(RestoreProblem::new(RestoreProblemKind::StorageUnavailable, message));
    match storage {
        s if s.is_undefined() || s.is_null() => match storage::local() {
            Ok(Some(s)) => Ok((Some(s), None)),
            // Reading `localStorage` itself throws where storage is disabled.
            Err(e) => Ok((None, unavailable(format!("localStorage is not available; the cart is kept in memory only: {}", js::error_text(&e))))),
            Ok(None) => Ok((None, unavailable("localStorage is not available here; the cart is kept in memory only".to_owned()))),
        },
        // Anything with `getItem`/`setItem` (sessionStorage, a test double).
        s if s.is_object() => Ok((Some(s.unchecked_into()), None)),
        s => Err(js::wrong_type("options.storage must be a Storage object", &s)),
    }
}

/// The text saved under `key`, or the problem reading it.
pub(super) fn read(storage: &Store, key: &str) -> core::result::Result<Option<String>, RestoreProblem> {
    storage.get_item(key).map_err(|e| {
        RestoreProblem::new(RestoreProblemKind::StorageUnavailable, format!("reading the saved cart failed: {}", js::error_text(&e)))
    })
}

/// The event a persistent cart dispatches on the window after it saved itself, so a
/// reader of the saved summary in this tab (js/cart-summary.ts, which must match) hears
/// what the `storage` event tells the other tabs.
pub(super) const SAVED_EVENT: &str = "cirrus-storefront:cart";

/// Dispatches [`SAVED_EVENT`] (nothing without a window).
pub(super) fn announce_saved() {
    if let (Some(w), Ok(e)) = (web_sys::window(), web_sys::Event::new(SAVED_EVENT)) {
        let _ = w.dispatch_event(&e);
    }
}

/// The problem a failed write of the saved form is.
pub(super) fn write_failed(e: &JsValue) -> RestoreProblem {
    RestoreProblem::new(RestoreProblemKind::WriteFailed, format!("saving the cart failed: {}", js::error_text(e)))
}

/// Follows what other tabs save under `key` in `storage` (`storage` events
/// of the window): `changed` gets the cart read from it (or an empty cart and
/// the problem) and the saved text. `None` without a window.
pub(super) fn follow(
    storage: Store,
    key: String,
    currency: String,
    mut changed: impl FnMut(cart::Cart, Option<RestoreProblem>, Option<String>) + 'static,
) -> Option<EventListener> {
    let window = web_sys::window()?;
    EventListener::new(&window, "storage", move |e: JsValue| {
        let e: web_sys::StorageEvent = e.unchecked_into();
        if !e.storage_area().is_some_and(|a| Object::is(&a, &storage)) {
            return;
        }
        // `key === null` is `storage.clear()` in the other tab.
        if e.key().is_some_and(|k| k != key) {
            return;
        }
        let text = e.new_value();
        if let Ok((cart, problem)) = load(text.as_deref(), &currency) {
            changed(cart, problem, text);
        }
    })
}
