//! The `Cart` class (issue 11; the money helpers are [`super::money`]): the core's
//! [`crate::cart::Cart`] behind one typed method per operation.
//!
//! Products, rates and reports cross as JS objects through
//! [`super::interop`] (serde-wasm-bindgen, decoded once; errors name the path,
//! found by walking a failed argument against its schema root). Amount and
//! quantity arguments are JS numbers checked to be safe integers before they
//! are read, so nothing is ever rounded; amounts handed back are `<= 2^53 − 1`
//! by the cart's invariants. Line objects are frozen snapshots, built once per
//! line version and cached, so `totals` and `add` do not touch them.
//!
//! Persistence (`Cart.persistent`): `localStorage` through
//! [`super::storage`] (or the `storage` option), other tabs through the
//! `storage` event (a [`super::listeners::EventListener`] removed when the
//! cart is freed). Missing or failing storage and
//! bad saved data are a `problem`, never an exception.

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Array, Function, Object, Reflect, JSON};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::interop::{de_message, list_from_js, required_arg, to_js};
use super::money::format_currency;
use super::js::get;
use super::listeners::{unsubscriber, EventListener, Listeners};
use super::storage::{self, Store as Storage};
use crate::cart::{self, CartProduct, RestoreProblem, RestoreProblemKind, SavedReader, Stored};
use crate::error::{Error, Result};
use crate::jsoncheck::Root;
use crate::model::{ShippingRatesResponse, VariantRates};
use crate::money;
use crate::shipping;
use crate::text::cat;

/// The TypeScript types of the cart surface, generated from the Rust types by
/// tests/typegen/ (the JS-only options come from js/interfaces.d.ts).
#[wasm_bindgen(typescript_custom_section)]
const CART_TYPES: &str = include_str!("../../js/generated/cart-types.ts");

#[wasm_bindgen]
extern "C" {
    /// The options of `Cart.persistent` (functions and a `Storage` inside: read member by member).
    #[wasm_bindgen(typescript_type = "PersistentCartOptions")]
    pub type PersistentCartOptions;
}

const DEFAULT_KEY: &str = "cirrus-storefront.cart";

/// The `message` of a thrown JS value.
pub(super) fn js_message(e: &JsValue) -> String {
    super::js::message(e).unwrap_or_else(|| "unknown error".to_owned())
}

/// A short rendering of a JS value for messages (JSON, at most 40 characters).
pub(super) fn show(v: &JsValue) -> String {
    if v.is_undefined() {
        return "undefined".to_owned();
    }
    match JSON::stringify(v).ok().and_then(|s| s.as_string()) {
        Some(t) if t.chars().count() > 40 => cat(&[&t.chars().take(40).collect::<String>(), "…"]),
        Some(t) => t,
        None => "a non-JSON value".to_owned(),
    }
}

/// A string argument; else `invalid_argument`: `expected` (what it must be), then what was
/// given (`currency must be a string such as "USD", got the number 5`; `…, got undefined`).
pub(super) fn string_arg(v: &JsValue, expected: &str) -> Result<String> {
    v.as_string().ok_or_else(|| {
        let kind = if v.is_undefined() || v.is_null() { String::new() } else { cat(&["the ", &v.js_typeof().as_string().unwrap_or_default(), " "]) };
        Error::invalid_argument(cat(&[expected, ", got ", &kind, &show(v)]))
    })
}

/// A currency argument's code: a string (the glue's own string passing would throw a
/// `TypeError`, or turn `840` into `"840"`); the code itself is checked where it is used.
pub(super) fn currency_code(v: &JsValue) -> Result<String> {
    string_arg(v, "currency must be a string such as \"USD\"")
}

/// A safe integer `number` as `T` (never rounded), else `None`.
fn safe_integer<T: serde::de::DeserializeOwned>(v: &JsValue) -> Option<T> {
    if js_sys::Number::is_safe_integer(v) {
        serde_wasm_bindgen::from_value(v.clone()).ok()
    } else {
        None
    }
}

/// An amount argument: a safe integer `number` (never rounded).
pub(super) fn amount(v: &JsValue, what: &str) -> Result<i64> {
    safe_integer(v).ok_or_else(|| Error::invalid_argument(cat(&[what, " must be a whole number of minor units, got ", &show(v)])))
}

/// A quantity argument: a whole `number` in `0..=2^32 − 1` (0 is refused by the core).
fn quantity(v: &JsValue) -> Result<u32> {
    safe_integer(v).ok_or_else(|| Error::invalid_argument(cat(&["quantity must be a whole number, got ", &show(v)])))
}

/// A checked amount as a JS number.
pub(super) fn number(minor: i64) -> Result<JsValue> {
    to_js(&money::check_safe(minor)?)
}

/// Reads saved carts with the engine's `JSON.parse` and serde-wasm-bindgen
/// (the cart's own storage: decoded plainly, the decoder's message without a
/// path, as natively with `serde_json`).
struct JsJson;

impl SavedReader for JsJson {
    type Doc = JsValue;
    fn parse(text: &str) -> core::result::Result<JsValue, String> {
        JSON::parse(text).map_err(|e| js_message(&e))
    }
    fn version(doc: &JsValue) -> Option<u64> {
        safe_integer(&get(doc, "version"))
    }
    fn stored(doc: JsValue) -> core::result::Result<Stored, String> {
        serde_wasm_bindgen::from_value(doc).map_err(de_message)
    }
}

/// What listeners receive (`CartStorageEvent`).
#[derive(Serialize)]
struct CartEvent<'a> {
    source: &'a str,
    problem: Option<&'a RestoreProblem>,
}

/// Where a persistent cart is kept.
struct Store {
    key: String,
    storage: Option<Storage>,
}

/// Everything of a cart: the core cart, the line snapshots handed to JS, the
/// persistence and the listeners. Borrowed only inside a method, never while
/// a listener runs (listeners may call the cart).
struct State {
    cart: cart::Cart,
    /// Frozen line objects by line index, `None` until asked for after a change.
    snapshots: Vec<Option<JsValue>>,
    /// The array of every snapshot once asked for (`lines` hands out copies),
    /// with the indexes whose snapshot is to be rebuilt.
    array: Option<(Array, Vec<usize>)>,
    store: Option<Store>,
    problem: Option<RestoreProblem>,
    listeners: Listeners,
}

/// An event for the listeners: `(source, problem)`.
type Event = (&'static str, Option<RestoreProblem>);

impl State {
    fn new(cart: cart::Cart) -> Self {
        let snapshots = vec![None; cart.lines().len()];
        Self { cart, snapshots, array: None, store: None, problem: None, listeners: Listeners::default() }
    }

    /// Replace the whole cart (restore, another tab, refresh): snapshots of
    /// lines that did not change are kept.
    fn replace(&mut self, cart: cart::Cart) {
        self.array = None;
        let old = core::mem::replace(&mut self.cart, cart);
        let mut old_snaps = core::mem::take(&mut self.snapshots).into_iter();
        let mut old_lines = old.lines().iter();
        self.snapshots = self
            .cart
            .lines()
            .iter()
            .map(|line| {
                // Lines keep their order, so unchanged ones are found walking forward.
                for (o, snap) in old_lines.by_ref().zip(old_snaps.by_ref()) {
                    if o.variant_id == line.variant_id {
                        return if o == line { snap } else { None };
                    }
                }
                None
            })
            .collect();
    }

    /// The line at `index` changed (or was appended).
    fn touched(&mut self, index: usize) {
        self.snapshots.resize(self.cart.lines().len(), None);
        self.snapshots[index] = None;
        if let Some((array, stale)) = &mut self.array {
            if index as u32 >= array.length() {
                array.push(&JsValue::UNDEFINED);
            }
            stale.push(index);
        }
    }

    /// The line at `index` was removed.
    fn removed(&mut self, index: usize) {
        self.snapshots.remove(index);
        self.array = None;
    }

    /// Every line was removed.
    fn cleared(&mut self) {
        self.snapshots.clear();
        self.array = None;
    }

    /// The frozen snapshot of line `index`.
    fn snapshot(&mut self, index: usize) -> JsValue {
        if let Some(s) = &self.snapshots[index] {
            return s.clone();
        }
        let line = to_js(&self.cart.lines()[index]).unwrap_or(JsValue::NULL);
        for nested in ["attributes", "image"] {
            let v = get(&line, nested);
            if v.is_object() {
                Object::freeze(v.unchecked_ref::<Object>());
            }
        }
        let line: JsValue = Object::freeze(line.unchecked_ref::<Object>()).into();
        self.snapshots[index] = Some(line.clone());
        line
    }

    /// The cached array of every line snapshot (not to be handed out: `lines` copies it).
    fn lines(&mut self) -> Array {
        match self.array.take() {
            Some((array, mut stale)) => {
                for i in stale.drain(..) {
                    array.set(i as u32, self.snapshot(i));
                }
                self.array = Some((array.clone(), stale));
                array
            }
            None => {
                let array: Array = (0..self.cart.lines().len()).map(|i| self.snapshot(i)).collect();
                self.array = Some((array.clone(), Vec::new()));
                array
            }
        }
    }

    /// The versioned JSON form (what the TypeScript cart wrote: the same text).
    fn serialize(&mut self) -> String {
        let doc = Object::new();
        let set = |k: &str, v: &JsValue| {
            let _ = Reflect::set(&doc, &JsValue::from_str(k), v);
        };
        set("version", &JsValue::from(cart::STORAGE_VERSION));
        set("currency", &JsValue::from_str(self.cart.currency().code()));
        set("lines", &self.lines());
        JSON::stringify(&doc).ok().and_then(|s| s.as_string()).unwrap_or_default()
    }

    /// After a change of a persistent cart: what to write (storage, key,
    /// text). Taken while the state is borrowed, written after the borrow is
    /// released ([`Cart::change`]): a storage's `setItem` may call the cart.
    fn to_save(&mut self) -> Option<(Storage, String, String)> {
        let store = self.store.as_ref()?;
        let (storage, key) = (store.storage.clone()?, store.key.clone());
        Some((storage, key, self.serialize()))
    }

    /// The outcome of that write: the event to report, if any.
    fn saved(&mut self, written: core::result::Result<(), JsValue>) -> Option<Event> {
        match written {
            Ok(()) if self.problem.as_ref().is_some_and(|p| p.kind == RestoreProblemKind::WriteFailed) => {
                self.problem = None;
                Some(("save", None))
            }
            Ok(()) => None,
            Err(e) => {
                let p = RestoreProblem::new(RestoreProblemKind::WriteFailed, cat(&["saving the cart failed: ", &js_message(&e)]));
                self.problem = Some(p.clone());
                Some(("save", Some(p)))
            }
        }
    }
}

/// Tell the listeners about `event` (none borrowed while they run; a
/// throwing listener does not break the cart or the other listeners).
fn emit(state: &Rc<RefCell<State>>, event: Option<Event>) {
    let Some((source, problem)) = event else { return };
    let listeners = state.borrow().listeners.snapshot();
    if listeners.is_empty() {
        return;
    }
    let Ok(event) = to_js(&CartEvent { source, problem: problem.as_ref() }) else { return };
    super::listeners::emit(listeners, &event);
}

/// Read a saved cart; an empty cart and the problem when it is not usable.
fn load(data: Option<&str>, currency: &str) -> Result<(cart::Cart, Option<RestoreProblem>)> {
    let r = cart::Cart::restore_with::<JsJson>(data, currency)?;
    Ok((r.cart, r.problem))
}

/// A cart in one currency, with exact prices in integer minor units.
///
/// Amounts (`unitPrice`, `lineTotal`, `subtotal`, …) are whole numbers of the
/// currency's minor unit (cents for USD), always `<= 2^53 − 1`. Format them
/// with `formatMoney`. A cart made by `Cart.persistent` saves itself to
/// `localStorage` after every change and follows changes made in other tabs.
/// Line objects are frozen snapshots.
#[wasm_bindgen]
pub struct Cart {
    state: Rc<RefCell<State>>,
    /// The `storage` listener of a persistent cart, removed when the cart is dropped.
    _follow: Option<EventListener>,
}

impl Cart {
    fn of(cart: cart::Cart) -> Self {
        Self { state: Rc::new(RefCell::new(State::new(cart))), _follow: None }
    }

    /// Run a change of the core cart, then save and report. Nothing is
    /// borrowed while JS runs (a custom `storage.setItem` or a listener may
    /// call back into the cart; a `RefCell` borrowed then would trap and
    /// leave the instance dead for good).
    fn change<R>(&self, f: impl FnOnce(&mut State) -> Result<R>) -> Result<R> {
        let (out, write) = {
            let mut s = self.state.borrow_mut();
            let out = f(&mut s)?;
            (out, s.to_save())
        };
        let event = write.and_then(|(storage, key, text)| {
            let written = storage.set_item(&key, &text);
            self.state.borrow_mut().saved(written)
        });
        emit(&self.state, event);
        Ok(out)
    }

    fn products(products: JsValue) -> Result<Vec<CartProduct>> {
        if !Array::is_array(&products) {
            return Err(Error::invalid_argument(cat(&["products must be an array of catalog products, got ", &show(&products)])));
        }
        list_from_js(products, "products", Root::CartProduct)
    }
}

#[wasm_bindgen]
impl Cart {
    /// An empty cart in `currency` (the store's `defaultCurrency`, e.g. `"USD"`).
    ///
    /// # Errors
    /// `invalid_argument` for an unknown currency code.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "string")] currency: JsValue) -> Result<Cart> {
        Ok(Self::of(cart::Cart::new(&currency_code(&currency)?)?))
    }

    /// Restore a cart saved with `serialize()`. Never throws on the data:
    /// corrupt, unknown-version or other-currency data gives an empty cart and
    /// a `problem` saying why; `null`/`undefined`/`""` gives an empty cart.
    ///
    /// # Errors
    /// `invalid_argument` only for an unknown `currency`.
    #[wasm_bindgen(unchecked_return_type = "{ cart: Cart; problem: RestoreProblem | null }")]
    pub fn restore(
        #[wasm_bindgen(unchecked_param_type = "string | null | undefined")] data: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] currency: JsValue,
    ) -> Result<JsValue> {
        let (cart, problem) = load(data.as_string().as_deref(), &currency_code(&currency)?)?;
        let out = Object::new();
        let _ = Reflect::set(&out, &JsValue::from_str("cart"), &Cart::of(cart).into());
        let _ = Reflect::set(&out, &JsValue::from_str("problem"), &to_js(&problem)?);
        Ok(out.into())
    }

    /// A cart kept in `localStorage` (or `options.storage`) under `options.key`
    /// (default `"cirrus-storefront.cart"`): restored now, saved after every
    /// change, and replaced when another tab changes it (the `storage` event).
    /// Never throws on bad saved data or unavailable storage: the cart starts
    /// empty and `problem` says why. `options.onChange({ source, problem })` is
    /// called after another tab's change (`source: "storage"`) and when saving
    /// fails or recovers (`source: "save"`); `subscribe` adds more listeners.
    /// Call `free()` to stop following.
    ///
    /// # Errors
    /// `invalid_argument` for an unknown `currency` or bad options.
    pub fn persistent(#[wasm_bindgen(unchecked_param_type = "string")] currency: JsValue, options: Option<PersistentCartOptions>) -> Result<Cart> {
        let currency = &currency_code(&currency)?;
        let options: JsValue = options.map_or(JsValue::UNDEFINED, Into::into);
        let key = match get(&options, "key") {
            k if k.is_undefined() || k.is_null() => DEFAULT_KEY.to_owned(),
            k => k.as_string().filter(|k| !k.is_empty()).ok_or_else(|| Error::invalid_argument("options.key must be a non-empty string"))?,
        };
        let on_change = match get(&options, "onChange") {
            f if f.is_undefined() || f.is_null() => None,
            f => Some(f.dyn_into::<Function>().map_err(|_| Error::invalid_argument("options.onChange must be a function"))?),
        };
        let mut problem = None;
        let storage: Option<Storage> = match get(&options, "storage") {
            s if s.is_undefined() || s.is_null() => match storage::local() {
                Ok(Some(s)) => Some(s),
                // Reading `localStorage` itself throws where storage is disabled.
                Err(e) => {
                    problem = Some(RestoreProblem::new(
                        RestoreProblemKind::StorageUnavailable,
                        cat(&["localStorage is not available; the cart is kept in memory only: ", &js_message(&e)]),
                    ));
                    None
                }
                Ok(None) => {
                    problem = Some(RestoreProblem::new(
                        RestoreProblemKind::StorageUnavailable,
                        "localStorage is not available here; the cart is kept in memory only",
                    ));
                    None
                }
            },
            // Anything with `getItem`/`setItem` (sessionStorage, a test double).
            s if s.is_object() => Some(s.unchecked_into()),
            _ => return Err(Error::invalid_argument("options.storage must be a Storage object")),
        };
        let saved = match &storage {
            Some(s) => s.get_item(&key).unwrap_or_else(|e| {
                problem = Some(RestoreProblem::new(
                    RestoreProblemKind::StorageUnavailable,
                    cat(&["reading the saved cart failed: ", &js_message(&e)]),
                ));
                None
            }),
            None => None,
        };
        let (restored, restore_problem) = load(saved.as_deref(), currency)?;
        let mut state = State::new(restored);
        state.problem = problem.or(restore_problem);
        if let Some(f) = on_change {
            state.listeners.add(f);
        }
        state.store = Some(Store { key: key.clone(), storage: storage.clone() });
        let state = Rc::new(RefCell::new(state));
        let follow = match (web_sys::window(), storage) {
            (Some(window), Some(storage)) => {
                let weak = Rc::downgrade(&state);
                let code = currency.to_owned();
                EventListener::new(&window, "storage", move |e: JsValue| {
                    let e: web_sys::StorageEvent = e.unchecked_into();
                    let Some(state) = weak.upgrade() else { return };
                    if !e.storage_area().is_some_and(|a| Object::is(&a, &storage)) {
                        return;
                    }
                    // `key === null` is `storage.clear()` in the other tab.
                    if e.key().is_some_and(|k| k != key) {
                        return;
                    }
                    let Ok((cart, problem)) = load(e.new_value().as_deref(), &code) else { return };
                    {
                        let mut s = state.borrow_mut();
                        s.replace(cart);
                        s.problem.clone_from(&problem);
                    }
                    emit(&state, Some(("storage", problem)));
                })
            }
            _ => None,
        };
        Ok(Self { state, _follow: follow })
    }

    /// Why a persistent cart started empty or could not be saved, or `null`.
    #[wasm_bindgen(getter, unchecked_return_type = "RestoreProblem | null")]
    pub fn problem(&self) -> Result<JsValue> {
        to_js(&self.state.borrow().problem)
    }

    /// Call `listener` after another tab changed a persistent cart (`source:
    /// "storage"`) and when saving fails or recovers (`source: "save"`), like
    /// `options.onChange`. Returns the function that unsubscribes. A throwing
    /// listener does not break the cart.
    ///
    /// # Errors
    /// `invalid_argument` when `listener` is not a function.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(&self, #[wasm_bindgen(unchecked_param_type = "(event: CartStorageEvent) => void")] listener: JsValue) -> Result<JsValue> {
        let f: Function = listener.dyn_into().map_err(|_| Error::invalid_argument("listener must be a function"))?;
        let id = self.state.borrow_mut().listeners.add(f);
        let weak: Weak<RefCell<State>> = Rc::downgrade(&self.state);
        Ok(unsubscriber(move || {
            if let Some(state) = weak.upgrade() {
                state.borrow_mut().listeners.remove(id);
            }
        }))
    }

    /// The versioned JSON form (`{"version":1,…}`) for `Cart.restore`.
    pub fn serialize(&self) -> String {
        self.state.borrow_mut().serialize()
    }

    /// The key a persistent cart is kept under, or `null` (never `undefined`) for a
    /// cart kept in memory only (`new Cart`, or `Cart.persistent` without a storage:
    /// `problem.kind === "storage_unavailable"`). `Checkout` keeps the cart's live
    /// checkout next to it, under `"<storageKey>:checkout"`, for every tab of the cart.
    #[wasm_bindgen(getter, js_name = storageKey, unchecked_return_type = "string | null")]
    pub fn storage_key(&self) -> JsValue {
        self.state.borrow().store.as_ref().filter(|s| s.storage.is_some()).map_or(JsValue::NULL, |s| JsValue::from_str(&s.key))
    }

    /// The cart's ISO 4217 currency code.
    #[wasm_bindgen(getter)]
    pub fn currency(&self) -> String {
        self.state.borrow().cart.currency().code().to_owned()
    }

    /// Add `quantity` of variant `variantId` of `product` (a catalog `Product`).
    /// Adding a variant already in the cart merges into its line.
    ///
    /// # Errors
    /// `not_found` (no such variant), `conflict` (out of stock, product not
    /// active), `invalid_argument` (quantity not a whole number in stock, bad
    /// product data, total beyond 2^53 − 1).
    pub fn add(
        &self,
        #[wasm_bindgen(unchecked_param_type = "Product")] product: JsValue,
        #[wasm_bindgen(js_name = variantId)] variant_id: &str,
        #[wasm_bindgen(unchecked_param_type = "number")] quantity: JsValue,
    ) -> Result<()> {
        let product: CartProduct = required_arg(product, "product", Some(Root::CartProduct))?;
        let quantity = self::quantity(&quantity)?;
        self.change(|s| {
            let index = s.cart.add(&product, variant_id, quantity)?;
            s.touched(index);
            Ok(())
        })
    }

    /// Set the quantity of a line (1..=stockQuantity); use `remove` to drop it.
    ///
    /// # Errors
    /// `not_found` (not in the cart), `invalid_argument` (quantity).
    #[wasm_bindgen(js_name = setQuantity)]
    pub fn set_quantity(
        &self,
        #[wasm_bindgen(js_name = variantId)] variant_id: &str,
        #[wasm_bindgen(unchecked_param_type = "number")] quantity: JsValue,
    ) -> Result<()> {
        let quantity = self::quantity(&quantity)?;
        self.change(|s| {
            let index = s.cart.set_quantity(variant_id, quantity)?;
            s.touched(index);
            Ok(())
        })
    }

    /// Remove a line; returns whether there was one.
    pub fn remove(&self, #[wasm_bindgen(js_name = variantId)] variant_id: &str) -> bool {
        self.change(|s| {
            let index = s.cart.remove(variant_id);
            if let Some(i) = index {
                s.removed(i);
            }
            Ok(index.is_some())
        })
        .unwrap_or(false)
    }

    /// Remove every line.
    pub fn clear(&self) {
        let _ = self.change(|s| {
            s.cart.clear();
            s.cleared();
            Ok(())
        });
    }

    /// The lines, in the order they were added (a new array of frozen snapshots).
    #[wasm_bindgen(getter, unchecked_return_type = "CartLine[]")]
    pub fn lines(&self) -> JsValue {
        self.state.borrow_mut().lines().slice(0, u32::MAX).into()
    }

    /// The line of `variantId`, or `null`.
    #[wasm_bindgen(unchecked_return_type = "CartLine | null")]
    pub fn line(&self, #[wasm_bindgen(js_name = variantId)] variant_id: &str) -> JsValue {
        let mut s = self.state.borrow_mut();
        match s.cart.position(variant_id) {
            Some(i) => s.snapshot(i),
            None => JsValue::NULL,
        }
    }

    /// `{ subtotal, totalSavings, itemCount, lineCount }` (minor units, counts).
    ///
    /// # Errors
    /// None in practice (the totals are within 2^53 − 1 by the cart's invariants).
    #[wasm_bindgen(getter, unchecked_return_type = "CartTotals")]
    pub fn totals(&self) -> Result<JsValue> {
        to_js(&self.state.borrow().cart.totals())
    }

    /// The subtotal in minor units.
    ///
    /// # Errors
    /// None in practice (see `totals`).
    #[wasm_bindgen(getter, unchecked_return_type = "number")]
    pub fn subtotal(&self) -> Result<JsValue> {
        number(self.state.borrow().cart.subtotal())
    }

    #[wasm_bindgen(getter, js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.state.borrow().cart.is_empty()
    }

    /// Apply fresh catalog `products` (those of the cart's lines) and report
    /// what changed: `priceChanged`, `stockLowered`, `outOfStock`, `variantGone`.
    /// Lines whose product is not given stay and are listed in `unchecked`.
    ///
    /// # Errors
    /// `invalid_argument` for bad product data; the cart is then unchanged.
    #[wasm_bindgen(unchecked_return_type = "RefreshReport")]
    pub fn refresh(&self, #[wasm_bindgen(unchecked_param_type = "Product[]")] products: JsValue) -> Result<JsValue> {
        let products = Self::products(products)?;
        let report = self.change(|s| {
            let mut next = s.cart.clone();
            let report = next.refresh(&products)?;
            s.replace(next);
            Ok(report)
        })?;
        to_js(&report)
    }

    /// What `refresh` would report, without changing the cart.
    ///
    /// # Errors
    /// As `refresh`.
    #[wasm_bindgen(unchecked_return_type = "RefreshReport")]
    pub fn check(&self, #[wasm_bindgen(unchecked_param_type = "Product[]")] products: JsValue) -> Result<JsValue> {
        let products = Self::products(products)?;
        let report = self.state.borrow().cart.check(&products)?;
        to_js(&report)
    }

    /// The `items` of `payments.initiate`: `{ variantId, quantity }` per line.
    ///
    /// # Errors
    /// None in practice.
    #[wasm_bindgen(js_name = paymentItems, unchecked_return_type = "PaymentItem[]")]
    pub fn payment_items(&self) -> Result<JsValue> {
        to_js(&self.state.borrow().cart.payment_items())
    }

    /// From a `shippingRates` answer for this cart's variants, the rates the
    /// whole order can use (offered for every variant, subtotal inside the
    /// rate's band), cheapest first, each with `price` and `estimatedTotal`
    /// (subtotal + price, before tax) in minor units.
    ///
    /// # Errors
    /// `invalid_argument` for an empty cart or a malformed answer.
    #[wasm_bindgen(js_name = shippingOptions, unchecked_return_type = "ShippingOption[]")]
    pub fn shipping_options(
        &self,
        #[wasm_bindgen(unchecked_param_type = "VariantRates[] | ShippingRatesResponse")] answer: JsValue,
    ) -> Result<JsValue> {
        // What `client.shippingRates()` resolves to (the `variantRates` array) or the whole body.
        let answer = if Array::is_array(&answer) {
            ShippingRatesResponse { variant_rates: list_from_js::<VariantRates>(answer, "variantRates", Root::VariantRates)? }
        } else {
            required_arg(answer, "answer", Some(Root::ShippingRatesResponse))?
        };
        let options = shipping::cart_rates(&self.state.borrow().cart, &answer)?;
        for o in &options {
            money::check_safe(o.estimated_total)?;
        }
        to_js(&options)
    }

    /// Format `minor` units of the cart's currency for `locale` (see `formatMoney`).
    ///
    /// # Errors
    /// As `formatMoney`.
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn format(&self, #[wasm_bindgen(unchecked_param_type = "number")] minor: JsValue, locale: Option<String>) -> Result<JsValue> {
        let currency = self.state.borrow().cart.currency();
        format_currency(amount(&minor, "minor")?, currency, locale.as_deref())
    }
}
