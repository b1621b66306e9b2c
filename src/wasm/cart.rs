//! The `Cart` class (issue 11; the money helpers are [`super::money`]): the core's
//! [`crate::cart::Cart`] behind one typed method per operation.
//!
//! Products, rates and reports cross as JS objects through
//! [`super::interop`] (serde-wasm-bindgen, decoded once; errors name the path,
//! found by walking a failed argument against its schema root). Amount and
//! quantity arguments are JS numbers checked to be safe integers before they
//! are read, so nothing is ever rounded; amounts handed back are `<= 2^53 − 1`
//! by the cart's invariants.
//!
//! Split by concern: the state behind the class and its events are
//! [`super::cart_state`], the line snapshots [`super::cart_snapshots`], the
//! persistence and the other tabs [`super::cart_persist`].

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Array, Object, Reflect};
use wasm_bindgen::prelude::*;

use super::cart_persist::{self, Persistence};
use super::cart_state::{emit, State};
use super::interop::{list_from_js, required_arg, to_js};
use super::js::{safe_integer, show};
use super::listeners::{unsubscriber, EventListener};
use super::money::{amount, currency_code, format_currency, locale_arg, number};
use crate::cart::{self, CartEventSource, CartProduct};
use crate::error::{Error, Result};
use crate::jsoncheck::Root;
use crate::model::{ShippingRatesResponse, VariantRates};
use crate::money;
use crate::shipping;

/// The TypeScript types of the cart surface, generated from the Rust types by
/// tools/typegen/ (the JS-only options come from js/interfaces.d.ts).
#[wasm_bindgen(typescript_custom_section)]
const CART_TYPES: &str = include_str!("../../js/generated/cart-types.ts");

/// A `variantId` argument: a string.
fn variant_id_arg(v: &JsValue) -> Result<String> {
    super::js::string_arg(v, "variantId must be a string")
}

/// A quantity argument: a whole `number` in `0..=2^32 − 1` (0 is refused by the core).
fn quantity(v: &JsValue) -> Result<u32> {
    safe_integer(v).ok_or_else(|| Error::invalid_argument(format!("quantity must be a whole number, got {}", show(v))))
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
        self.catch_up();
        let (out, write) = {
            let mut s = self.state.borrow_mut();
            let out = f(&mut s)?;
            (out, s.pending_write())
        };
        if let Some((storage, key, text)) = write {
            let written = storage.set_item(&key, &text);
            self.state.borrow_mut().saved(&written, text);
            if written.is_ok() {
                cart_persist::announce_saved();
            }
        }
        emit(&self.state, CartEventSource::Change);
        Ok(out)
    }

    /// A persistent cart changes the cart as saved now (issue 41): a tab that missed other
    /// tabs' `storage` events (a page restored from the back/forward cache) never writes its
    /// stale copy over theirs, nor over the checkouts the saved form says were taken out.
    /// Not generic, not inlined: one copy for every [`Self::change`].
    #[inline(never)]
    fn catch_up(&self) {
        let read = self.state.borrow().persistence.as_ref().and_then(|p| Some((p.storage.clone()?, p.key.clone())));
        if let Some(Ok(Some(text))) = read.map(|(storage, key)| cart_persist::read(&storage, &key)) {
            if self.state.borrow_mut().catch_up(text) {
                emit(&self.state, CartEventSource::Storage);
            }
        }
    }

    fn products(products: JsValue) -> Result<Vec<CartProduct>> {
        if !Array::is_array(&products) {
            return Err(Error::invalid_argument(format!("products must be an array of catalog products, got {}", show(&products))));
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
    pub fn new(#[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue) -> Result<Cart> {
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
        #[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue,
    ) -> Result<JsValue> {
        let (cart, problem) = cart_persist::load(data.as_string().as_deref(), &currency_code(&currency)?)?;
        let out = Object::new();
        let _ = Reflect::set(&out, &JsValue::from_str("cart"), &Cart::of(cart).into());
        let _ = Reflect::set(&out, &JsValue::from_str("problem"), &to_js(&problem)?);
        Ok(out.into())
    }

    /// A cart kept in `localStorage` (or `options.storage`) under `options.key`
    /// (default `"cirrus-storefront.cart"`): restored now, saved after every
    /// change, and replaced when another tab changes it (the `storage` event).
    /// Never throws on bad saved data or unavailable storage: the cart starts
    /// empty and `problem` says why. `options.onChange({ source, problem, version })`
    /// is called after every change, this tab's (`source: "change"`) or another
    /// tab's (`source: "storage"`); `subscribe` adds more listeners.
    /// Call `free()` to stop following.
    ///
    /// # Errors
    /// `invalid_argument` for an unknown `currency` or bad options.
    pub fn persistent(
        #[wasm_bindgen(unchecked_param_type = "CurrencyCode")] currency: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "PersistentCartOptions")] options: JsValue,
    ) -> Result<Cart> {
        let currency = &currency_code(&currency)?;
        let (key, on_change, storage) = cart_persist::options(options)?;
        let (storage, mut problem) = cart_persist::open(storage)?;
        let saved = match &storage {
            Some(s) => cart_persist::read(s, &key).unwrap_or_else(|p| {
                problem = Some(p);
                None
            }),
            None => None,
        };
        let (restored, restore_problem) = cart_persist::load(saved.as_deref(), currency)?;
        let mut state = State::new(restored);
        state.seen = saved.filter(|_| restore_problem.is_none());
        state.problem = problem.or(restore_problem);
        if let Some(f) = on_change {
            state.listeners.add(f);
        }
        state.persistence = Some(Persistence { key: key.clone(), storage: storage.clone() });
        let state = Rc::new(RefCell::new(state));
        let follow = storage.and_then(|storage| {
            let weak = Rc::downgrade(&state);
            cart_persist::follow(storage, key, currency.to_owned(), move |cart, problem, text| {
                let Some(state) = weak.upgrade() else { return };
                {
                    let mut s = state.borrow_mut();
                    s.replace(cart);
                    s.problem.clone_from(&problem);
                    s.seen = text;
                }
                emit(&state, CartEventSource::Storage);
            })
        });
        Ok(Self { state, _follow: follow })
    }

    /// Why a persistent cart started empty or could not be saved, or `null`.
    #[wasm_bindgen(getter, unchecked_return_type = "RestoreProblem | null")]
    pub fn problem(&self) -> Result<JsValue> {
        to_js(&self.state.borrow().problem)
    }

    /// Call `listener` after every change of the cart, like `options.onChange`: this
    /// tab's (`source: "change"`: `add`, `setQuantity`, `remove`, `clear`, `refresh`, and
    /// the lines a paid checkout takes out through them) and, for a persistent cart,
    /// another tab's (`source: "storage"`). The event carries the cart's `problem` (e.g.
    /// `write_failed` when saving failed) and its new `version`. Returns the function that
    /// unsubscribes. A throwing listener does not break the cart.
    ///
    /// # Errors
    /// `invalid_argument` when `listener` is not a function.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(&self, #[wasm_bindgen(unchecked_param_type = "(event: CartEvent) => void")] listener: JsValue) -> Result<JsValue> {
        let f = super::js::function_arg(listener, "listener must be a function")?;
        let id = self.state.borrow_mut().listeners.add(f);
        let weak: Weak<RefCell<State>> = Rc::downgrade(&self.state);
        Ok(unsubscriber(move || {
            if let Some(state) = weak.upgrade() {
                state.borrow_mut().listeners.remove(id);
            }
        }))
    }

    /// A number that changes with every change of the cart (this tab's or another's):
    /// the cheap snapshot key of a store (`useSyncExternalStore`, a Svelte or Vue store).
    #[wasm_bindgen(getter)]
    pub fn version(&self) -> u32 {
        self.state.borrow().version
    }

    /// `{ currency, itemCount, lineCount, subtotal }`: what the saved form carries for
    /// readers without the wasm (`cirrus-storefront/cart-summary`).
    ///
    /// # Errors
    /// None in practice (see `totals`).
    #[wasm_bindgen(getter, unchecked_return_type = "CartSummary")]
    pub fn summary(&self) -> Result<JsValue> {
        to_js(&self.state.borrow().cart.summary())
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
        self.state.borrow().persistence.as_ref().filter(|p| p.storage.is_some()).map_or(JsValue::NULL, |p| JsValue::from_str(&p.key))
    }

    /// The cart's ISO 4217 currency code.
    #[wasm_bindgen(getter, unchecked_return_type = "CurrencyCode")]
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
        #[wasm_bindgen(js_name = variantId, unchecked_param_type = "string")] variant_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] quantity: JsValue,
    ) -> Result<()> {
        let product: CartProduct = required_arg(product, "product", Some(Root::CartProduct))?;
        let variant_id = &variant_id_arg(&variant_id)?;
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
        #[wasm_bindgen(js_name = variantId, unchecked_param_type = "string")] variant_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "number")] quantity: JsValue,
    ) -> Result<()> {
        let variant_id = &variant_id_arg(&variant_id)?;
        let quantity = self::quantity(&quantity)?;
        self.change(|s| {
            let index = s.cart.set_quantity(variant_id, quantity)?;
            s.touched(index);
            Ok(())
        })
    }

    /// Remove a line; returns whether there was one.
    ///
    /// # Errors
    /// `invalid_argument` when `variantId` is not a string.
    pub fn remove(&self, #[wasm_bindgen(js_name = variantId, unchecked_param_type = "string")] variant_id: JsValue) -> Result<bool> {
        let variant_id = &variant_id_arg(&variant_id)?;
        // No line: nothing changed, nothing saved or told.
        Ok(self
            .change(|s| {
                let index = s.cart.remove(variant_id).ok_or_else(|| Error::invalid_argument("no such line"))?;
                s.lines.removed(index);
                Ok(())
            })
            .is_ok())
    }

    /// Remove every line.
    pub fn clear(&self) {
        let _ = self.change(|s| {
            s.cart.clear();
            s.lines.cleared();
            Ok(())
        });
    }

    /// The lines, in the order they were added (a new array of frozen snapshots).
    #[wasm_bindgen(getter, unchecked_return_type = "CartLine[]")]
    pub fn lines(&self) -> JsValue {
        self.state.borrow_mut().lines().slice(0, u32::MAX).into()
    }

    /// The line of `variantId`, or `null`.
    ///
    /// # Errors
    /// `invalid_argument` when `variantId` is not a string.
    #[wasm_bindgen(unchecked_return_type = "CartLine | null")]
    pub fn line(&self, #[wasm_bindgen(js_name = variantId, unchecked_param_type = "string")] variant_id: JsValue) -> Result<JsValue> {
        let variant_id = variant_id_arg(&variant_id)?;
        let mut s = self.state.borrow_mut();
        Ok(match s.cart.position(&variant_id) {
            Some(i) => s.snapshot(i),
            None => JsValue::NULL,
        })
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
    #[wasm_bindgen(getter, unchecked_return_type = "MinorUnits")]
    pub fn subtotal(&self) -> Result<JsValue> {
        number(self.state.borrow().cart.subtotal())
    }

    /// Whether the cart has no line.
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

    /// Take what a paid checkout paid for out of the cart, once per checkout:
    /// `Checkout` calls it when the payment of session `sessionId` succeeded,
    /// in every tab that sees it succeed. The first call for a session
    /// subtracts `items`' quantities from the lines as the cart is then (a
    /// line left at 0 is removed; units the buyer added meanwhile stay) and
    /// records the session in the cart (its saved form, for every tab of a
    /// persistent cart); a later call for the same session changes nothing.
    /// Returns whether the cart changed. Storefronts do not need to call it.
    ///
    /// # Errors
    /// `invalid_argument` when `sessionId` is not a string or `items` not an
    /// array of `PaymentItem`s.
    ///
    /// @example cart.takePaid("ps_123", [{ variantId: "var_mug", quantity: 1 }]);
    #[wasm_bindgen(js_name = takePaid)]
    pub fn take_paid(
        &self,
        #[wasm_bindgen(js_name = sessionId, unchecked_param_type = "string")] session_id: JsValue,
        #[wasm_bindgen(unchecked_param_type = "PaymentItem[]")] items: JsValue,
    ) -> Result<bool> {
        let session = super::js::string_arg(&session_id, "sessionId must be a string")?;
        let paid: Vec<crate::model::PaymentItem> = list_from_js(items, "items", Root::PaymentItem)?;
        // Nothing changed (the session was taken out before): nothing saved or told.
        Ok(self
            .change(|s| {
                let old = s.cart.lines().to_vec();
                if !s.cart.take_paid(&session, &paid) {
                    return Err(Error::invalid_argument("already taken out"));
                }
                s.lines.replaced(&old, s.cart.lines());
                Ok(())
            })
            .is_ok())
    }

    /// The `items` of `payments.initiate`: `{ variantId, quantity }` per line.
    /// A persistent cart reads them from the cart as saved now (what `Checkout`
    /// buys): a tab that missed other tabs' changes catches up first (its
    /// listeners hear it, `source: "storage"`).
    ///
    /// # Errors
    /// None in practice.
    #[wasm_bindgen(js_name = paymentItems, unchecked_return_type = "PaymentItem[]")]
    pub fn payment_items(&self) -> Result<JsValue> {
        // Issue 41: a stale copy bought again what another tab's checkout had paid for.
        self.catch_up();
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
    pub fn format(
        &self,
        #[wasm_bindgen(unchecked_param_type = "MinorUnits")] minor: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] locale: Option<JsValue>,
    ) -> Result<JsValue> {
        let currency = self.state.borrow().cart.currency();
        format_currency(amount(&minor, "minor")?, currency, locale_arg(locale)?.as_deref())
    }
}
