//! Cart and money exports (issue 4): the `Cart` class and the money helpers.
//!
//! Values cross the boundary as JSON (`JSON.stringify` in, `JSON.parse` out)
//! so every input is decoded by the same serde types the core uses and every
//! bad input is a `CirrusError` naming the argument. Numbers that are amounts
//! or quantities are decoded as integers from their JSON text: `1.5`, `NaN`,
//! `1e21` and anything beyond 2^53 − 1 are refused, never rounded. Nothing in
//! this file handles a floating-point value.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::rc::Rc;

use js_sys::{Function, Object, Reflect, JSON};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::cart::{self, CartLine, CartTotals, RefreshReport, RestoreProblem, RestoreProblemKind};
use crate::error::{Error, Result};
use crate::wasm::client::parse_arg;
use crate::wasm::de::from_js;
use crate::model::{Image, PaymentItem, Product, ProductStatus, ShippingRatesResponse, Variant, VariantRates};
use crate::money::{self, Currency};
use crate::shipping::{self, ShippingOption};

/// The TypeScript types named below, generated from the Rust types by tests/cart/types.rs.
#[wasm_bindgen(typescript_custom_section)]
const CART_TYPES: &str = include_str!("../../js/storage/cart-types.ts");

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(typescript_type = "Product")]
    pub type JsProduct;
    #[wasm_bindgen(typescript_type = "Product[]")]
    pub type JsProducts;
    #[wasm_bindgen(typescript_type = "VariantRates[] | ShippingRatesResponse")]
    pub type JsShippingRates;
    #[wasm_bindgen(typescript_type = "CartLine[]")]
    pub type JsCartLines;
    #[wasm_bindgen(typescript_type = "CartLine | null")]
    pub type JsCartLineOrNull;
    #[wasm_bindgen(typescript_type = "CartTotals")]
    pub type JsTotals;
    #[wasm_bindgen(typescript_type = "RefreshReport")]
    pub type JsRefreshReport;
    #[wasm_bindgen(typescript_type = "ShippingOption[]")]
    pub type JsShippingOptions;
    #[wasm_bindgen(typescript_type = "PaymentItem[]")]
    pub type JsPaymentItems;
    #[wasm_bindgen(typescript_type = "{ cart: Cart; problem: RestoreProblem | null }")]
    pub type JsRestored;

    /// `Intl.NumberFormat(locales, options)` (callable without `new`); `catch`
    /// turns a bad locale's `RangeError` into a `Result`.
    #[wasm_bindgen(catch, js_namespace = Intl, js_name = NumberFormat)]
    fn intl_number_format(locales: &JsValue, options: &Object) -> std::result::Result<JsValue, JsValue>;
}

/// Reads saved carts with the JS engine's `JSON.parse` and [`from_js`] (no
/// `serde_json` parser in the wasm).
struct JsJson;

impl cart::SavedReader for JsJson {
    type Doc = JsValue;
    fn parse(text: &str) -> std::result::Result<JsValue, String> {
        JSON::parse(text).map_err(|e| js_message(&e))
    }
    fn version(doc: &JsValue) -> Option<u64> {
        // A whole number in 0..=2^53 - 1, read by the same integer rules as arguments.
        from_js::<u64>(&get(doc, "version")).ok()
    }
    fn stored(doc: JsValue) -> std::result::Result<cart::Stored, String> {
        from_js(&doc).map_err(|e| {
            let path = e.path();
            if path.is_empty() { e.message().to_owned() } else { format!("{path}: {}", e.message()) }
        })
    }
}

/// The message of a thrown JS value (for wrapping into a `CirrusError`).
fn js_message(e: &JsValue) -> String {
    Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .unwrap_or_else(|| "unknown error".to_owned())
}

/// Encode a core value as a plain JS value (JSON, so `null` stays `null`).
fn to_js<T: Serialize + ?Sized, J: JsCast>(value: &T) -> J {
    let text = serde_json::to_string(value).unwrap_or_else(|_| "null".to_owned());
    JSON::parse(&text).unwrap_or(JsValue::NULL).unchecked_into()
}

/// A quantity: an integer number of 1..=2^32 − 1 (0 is reported by the core).
fn quantity(value: &JsValue) -> Result<u32> {
    parse_arg::<u32>("quantity", value)
        .map_err(|_| Error::invalid_argument(format!("quantity must be a whole number, got {}", describe(value))))
}

/// An amount in minor units: an integer `number` with |value| <= 2^53 − 1.
fn minor_units(value: &JsValue, what: &str) -> Result<i64> {
    let minor = parse_arg::<i64>(what, value).map_err(|_| {
        Error::invalid_argument(format!("{what} must be a whole number of minor units, got {}", describe(value)))
    })?;
    money::check_safe(minor).map_err(|e| Error::invalid_argument(format!("{what}: {}", e.message)))
}

/// A short rendering of a JS value for messages.
fn describe(value: &JsValue) -> String {
    if value.is_undefined() {
        return "undefined".to_owned();
    }
    let text = JSON::stringify(value).ok().map(String::from).unwrap_or_else(|| "a non-JSON value".to_owned());
    if text.len() > 40 {
        format!("{}…", text.chars().take(40).collect::<String>())
    } else {
        text
    }
}

fn safe(minor: i64) -> Result<JsValue> {
    // `JsValue::from(i64)` would be a BigInt; amounts are checked and sent as JSON numbers.
    money::check_safe(minor).map(|m| to_js(&m))
}

/// The members of a catalog `Product` the cart reads (the others are not
/// decoded: decoding the whole `Product` cost ~10 KB of wasm).
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct CartProduct {
    id: String,
    name: String,
    slug: String,
    status: ProductStatus,
    images: Vec<Image>,
    variants: Vec<Variant>,
}

impl From<CartProduct> for Product {
    fn from(p: CartProduct) -> Self {
        Product {
            id: p.id,
            store_id: String::new(),
            name: p.name,
            slug: p.slug,
            status: p.status,
            description: String::new(),
            meta_title: None,
            meta_description: None,
            images: p.images,
            tags: Vec::new(),
            created_at: String::new(),
            updated_at: String::new(),
            options: Vec::new(),
            variants: p.variants,
            collections: Vec::new(),
        }
    }
}

/// A cart in one currency, with exact prices in integer minor units.
///
/// Amounts (`unitPrice`, `lineTotal`, `subtotal`, …) are whole numbers of the
/// currency's minor unit (cents for USD), always `<= 2^53 − 1`. Format them
/// with `formatMoney`. A cart made by `Cart.persistent` saves itself to
/// `localStorage` after every change and follows changes made in other tabs.
#[wasm_bindgen]
pub struct Cart {
    inner: Rc<RefCell<cart::Cart>>,
    persist: Option<Persist>,
}

/// The browser-storage side of a persistent cart.
struct Persist {
    shared: Rc<PersistShared>,
    target: JsValue,
    listener: Closure<dyn FnMut(JsValue)>,
}

struct PersistShared {
    key: String,
    storage: Option<JsStorage>,
    on_change: Option<Function>,
    problem: RefCell<Option<RestoreProblem>>,
}

impl PersistShared {
    /// Record `problem` and tell the `onChange` listener (`source`: `"storage"`
    /// for another tab's change, `"save"` for a failed write).
    fn report(&self, source: &str, problem: Option<RestoreProblem>) {
        let problem_js: JsValue = problem.as_ref().map_or(JsValue::NULL, to_js);
        *self.problem.borrow_mut() = problem;
        if let Some(f) = &self.on_change {
            let event = Object::new();
            let _ = Reflect::set(&event, &JsValue::from_str("source"), &JsValue::from_str(source));
            let _ = Reflect::set(&event, &JsValue::from_str("problem"), &problem_js);
            // A throwing listener must not break the cart.
            let _ = f.call1(&JsValue::NULL, &event);
        }
    }
}

impl Drop for Persist {
    fn drop(&mut self) {
        let _ = remove_event_listener(&self.target, "storage", self.listener.as_ref().unchecked_ref());
    }
}

#[wasm_bindgen]
extern "C" {
    /// A `Storage` (`localStorage`, `sessionStorage`, or anything with the same methods).
    #[wasm_bindgen(typescript_type = "Storage")]
    pub type JsStorage;
    #[wasm_bindgen(method, catch, js_name = getItem)]
    fn get_item(this: &JsStorage, key: &str) -> std::result::Result<Option<String>, JsValue>;
    #[wasm_bindgen(method, catch, js_name = setItem)]
    fn set_item(this: &JsStorage, key: &str, value: &str) -> std::result::Result<(), JsValue>;

    #[wasm_bindgen(typescript_type = "PersistentCartOptions")]
    pub type JsPersistOptions;

    #[wasm_bindgen(catch, js_name = addEventListener)]
    fn add_event_listener_global(ty: &str, f: &Function) -> std::result::Result<(), JsValue>;
}

fn remove_event_listener(target: &JsValue, ty: &str, f: &Function) -> std::result::Result<JsValue, JsValue> {
    let remove: Function = Reflect::get(target, &JsValue::from_str("removeEventListener"))?.dyn_into()?;
    remove.call2(target, &JsValue::from_str(ty), f)
}

fn get(o: &JsValue, k: &str) -> JsValue {
    if o.is_object() {
        Reflect::get(o, &JsValue::from_str(k)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

fn storage_problem(kind: RestoreProblemKind, what: &str, e: &JsValue) -> RestoreProblem {
    RestoreProblem { kind, message: format!("{what}: {}", js_message(e)) }
}

impl Cart {
    fn from_core(inner: cart::Cart) -> Self {
        Self { inner: Rc::new(RefCell::new(inner)), persist: None }
    }

    /// Run a change and, for a persistent cart, save the result.
    fn change<R>(&mut self, f: impl FnOnce(&mut cart::Cart) -> Result<R>) -> Result<R> {
        let out = f(&mut self.inner.borrow_mut())?;
        self.save();
        Ok(out)
    }

    fn save(&self) {
        let Some(p) = &self.persist else { return };
        let Some(storage) = &p.shared.storage else { return };
        let json = self.inner.borrow().to_json();
        match storage.set_item(&p.shared.key, &json) {
            Ok(()) => {
                if p.shared.problem.borrow().as_ref().is_some_and(|pr| pr.kind == RestoreProblemKind::WriteFailed) {
                    p.shared.report("save", None);
                }
            }
            Err(e) => p.shared.report("save", Some(storage_problem(RestoreProblemKind::WriteFailed, "saving the cart failed", &e))),
        }
    }
}

#[wasm_bindgen]
impl Cart {
    /// An empty cart in `currency` (the store's `defaultCurrency`, e.g. `"USD"`).
    ///
    /// # Errors
    /// `invalid_argument` for an unknown currency code.
    #[wasm_bindgen(constructor)]
    pub fn new(currency: &str) -> Result<Cart> {
        Ok(Self::from_core(cart::Cart::new(currency)?))
    }

    /// Restore a cart saved with `serialize()`. Never throws on the data:
    /// corrupt, unknown-version or other-currency data gives an empty cart and
    /// a `problem` saying why; `null`/`undefined`/`""` gives an empty cart.
    ///
    /// # Errors
    /// `invalid_argument` only for an unknown `currency`.
    pub fn restore(data: Option<String>, currency: &str) -> Result<JsRestored> {
        let restored = cart::Cart::restore_with::<JsJson>(data.as_deref(), currency)?;
        let out = Object::new();
        let problem: JsValue = restored.problem.as_ref().map_or(JsValue::NULL, |p: &RestoreProblem| to_js(p));
        let _ = Reflect::set(&out, &JsValue::from_str("cart"), &Cart::from_core(restored.cart).into());
        let _ = Reflect::set(&out, &JsValue::from_str("problem"), &problem);
        Ok(out.unchecked_into())
    }

    /// A cart kept in `localStorage` (or `options.storage`) under `options.key`
    /// (default `"cirrus-storefront.cart"`): restored now, saved after every
    /// change, and replaced when another tab changes it (the `storage` event).
    /// Never throws on bad saved data or unavailable storage: the cart starts
    /// empty and `problem` says why. `options.onChange({ source, problem })` is
    /// called after another tab's change (`source: "storage"`) and when saving
    /// fails or recovers (`source: "save"`). Call `free()` to stop following.
    ///
    /// # Errors
    /// `invalid_argument` for an unknown `currency` or bad options.
    pub fn persistent(currency: &str, options: Option<JsPersistOptions>) -> Result<Cart> {
        let options: JsValue = options.map_or(JsValue::UNDEFINED, Into::into);
        let key = match get(&options, "key") {
            k if k.is_undefined() || k.is_null() => "cirrus-storefront.cart".to_owned(),
            k => k.as_string().filter(|k| !k.is_empty()).ok_or_else(|| Error::invalid_argument("options.key must be a non-empty string"))?,
        };
        let on_change = match get(&options, "onChange") {
            f if f.is_undefined() || f.is_null() => None,
            f => Some(f.dyn_into::<Function>().map_err(|_| Error::invalid_argument("options.onChange must be a function"))?),
        };
        let mut problem = None;
        let storage: Option<JsStorage> = match get(&options, "storage") {
            s if s.is_undefined() || s.is_null() => {
                // Reading `localStorage` itself throws where storage is disabled.
                match Reflect::get(&js_sys::global(), &JsValue::from_str("localStorage")) {
                    Ok(s) if s.is_object() => Some(s.unchecked_into()),
                    Ok(_) => {
                        problem = Some(RestoreProblem { kind: RestoreProblemKind::StorageUnavailable, message: "localStorage is not available here; the cart is kept in memory only".into() });
                        None
                    }
                    Err(e) => {
                        problem = Some(storage_problem(RestoreProblemKind::StorageUnavailable, "localStorage is not available; the cart is kept in memory only", &e));
                        None
                    }
                }
            }
            s if s.is_object() => Some(s.unchecked_into()),
            _ => return Err(Error::invalid_argument("options.storage must be a Storage object")),
        };
        let saved = match &storage {
            Some(st) => st.get_item(&key).unwrap_or_else(|e| {
                problem = Some(storage_problem(RestoreProblemKind::StorageUnavailable, "reading the saved cart failed", &e));
                None
            }),
            None => None,
        };
        let restored = cart::Cart::restore_with::<JsJson>(saved.as_deref(), currency)?;
        let problem = problem.or(restored.problem);
        let inner = Rc::new(RefCell::new(restored.cart));
        let shared = Rc::new(PersistShared { key, storage, on_change, problem: RefCell::new(problem) });
        let code = currency.to_owned();
        let listener = {
            let inner = Rc::clone(&inner);
            let shared = Rc::clone(&shared);
            Closure::<dyn FnMut(JsValue)>::new(move |event: JsValue| {
                let Some(storage) = &shared.storage else { return };
                if !Object::is(&get(&event, "storageArea"), storage) {
                    return;
                }
                // `key === null` is `storage.clear()` in the other tab.
                let key = get(&event, "key");
                if !key.is_null() && key.as_string().as_deref() != Some(shared.key.as_str()) {
                    return;
                }
                let data = get(&event, "newValue").as_string();
                let Ok(restored) = cart::Cart::restore_with::<JsJson>(data.as_deref(), &code) else { return };
                *inner.borrow_mut() = restored.cart;
                shared.report("storage", restored.problem);
            })
        };
        let target = js_sys::global().into();
        if shared.storage.is_some() {
            // Without `addEventListener` (workers, node) there is no other tab to follow.
            let _ = add_event_listener_global("storage", listener.as_ref().unchecked_ref());
        }
        Ok(Self { inner, persist: Some(Persist { shared, target, listener }) })
    }

    /// Why a persistent cart started empty or could not be saved, or `null`.
    #[wasm_bindgen(getter, unchecked_return_type = "RestoreProblem | null")]
    pub fn problem(&self) -> JsValue {
        self.persist.as_ref().and_then(|p| p.shared.problem.borrow().as_ref().map(to_js)).unwrap_or(JsValue::NULL)
    }

    /// The versioned JSON form (`{"version":1,…}`) for `Cart.restore`.
    pub fn serialize(&self) -> String {
        self.inner.borrow().to_json()
    }

    /// The cart's ISO 4217 currency code.
    #[wasm_bindgen(getter)]
    pub fn currency(&self) -> String {
        self.inner.borrow().currency().code().to_owned()
    }

    /// Add `quantity` of variant `variantId` of `product` (a catalog `Product`).
    /// Adding a variant already in the cart merges into its line.
    ///
    /// # Errors
    /// `not_found` (no such variant), `conflict` (out of stock, product not
    /// active), `invalid_argument` (quantity not a whole number in stock, bad
    /// product data, total beyond 2^53 − 1).
    pub fn add(&mut self, product: &JsProduct, #[wasm_bindgen(js_name = variantId)] variant_id: &str, #[wasm_bindgen(unchecked_param_type = "number")] quantity: &JsValue) -> Result<()> {
        let product: Product = parse_arg::<CartProduct>("product", product)?.into();
        let quantity = self::quantity(quantity)?;
        self.change(|c| c.add(&product, variant_id, quantity))
    }

    /// Set the quantity of a line (1..=stockQuantity); use `remove` to drop it.
    ///
    /// # Errors
    /// `not_found` (not in the cart), `invalid_argument` (quantity).
    #[wasm_bindgen(js_name = setQuantity)]
    pub fn set_quantity(&mut self, #[wasm_bindgen(js_name = variantId)] variant_id: &str, #[wasm_bindgen(unchecked_param_type = "number")] quantity: &JsValue) -> Result<()> {
        let quantity = self::quantity(quantity)?;
        self.change(|c| c.set_quantity(variant_id, quantity))
    }

    /// Remove a line; returns whether there was one.
    pub fn remove(&mut self, #[wasm_bindgen(js_name = variantId)] variant_id: &str) -> bool {
        self.change(|c| Ok(c.remove(variant_id))).unwrap_or(false)
    }

    /// Remove every line.
    pub fn clear(&mut self) {
        let _ = self.change(|c| {
            c.clear();
            Ok(())
        });
    }

    /// The lines, in the order they were added.
    #[wasm_bindgen(getter)]
    pub fn lines(&self) -> JsCartLines {
        to_js::<[CartLine], _>(self.inner.borrow().lines())
    }

    /// The line of `variantId`, or `null`.
    pub fn line(&self, #[wasm_bindgen(js_name = variantId)] variant_id: &str) -> JsCartLineOrNull {
        to_js(&self.inner.borrow().line(variant_id))
    }

    /// `{ subtotal, totalSavings, itemCount, lineCount }` (minor units, counts).
    #[wasm_bindgen(getter)]
    pub fn totals(&self) -> JsTotals {
        to_js::<CartTotals, _>(&self.inner.borrow().totals())
    }

    /// The subtotal in minor units.
    #[wasm_bindgen(getter, unchecked_return_type = "number")]
    pub fn subtotal(&self) -> JsValue {
        to_js(&self.inner.borrow().subtotal())
    }

    #[wasm_bindgen(getter, js_name = isEmpty)]
    pub fn is_empty(&self) -> bool {
        self.inner.borrow().is_empty()
    }

    /// Apply fresh catalog `products` (those of the cart's lines) and report
    /// what changed: `priceChanged`, `stockLowered`, `outOfStock`, `variantGone`.
    /// Lines whose product is not given stay and are listed in `unchecked`.
    ///
    /// # Errors
    /// `invalid_argument` for bad product data; the cart is then unchanged.
    pub fn refresh(&mut self, products: &JsProducts) -> Result<JsRefreshReport> {
        let products: Vec<Product> = parse_arg::<Vec<CartProduct>>("products", products)?.into_iter().map(Product::from).collect();
        let report = self.change(|c| c.refresh(&products))?;
        Ok(to_js::<RefreshReport, _>(&report))
    }

    /// What `refresh` would report, without changing the cart.
    ///
    /// # Errors
    /// As `refresh`.
    pub fn check(&self, products: &JsProducts) -> Result<JsRefreshReport> {
        let products: Vec<Product> = parse_arg::<Vec<CartProduct>>("products", products)?.into_iter().map(Product::from).collect();
        Ok(to_js::<RefreshReport, _>(&self.inner.borrow().check(&products)?))
    }

    /// The `items` of `payments.initiate`: `{ variantId, quantity }` per line.
    #[wasm_bindgen(js_name = paymentItems)]
    pub fn payment_items(&self) -> JsPaymentItems {
        to_js::<Vec<PaymentItem>, _>(&self.inner.borrow().payment_items())
    }

    /// From a `shippingRates` answer for this cart's variants, the rates the
    /// whole order can use (offered for every variant, subtotal inside the
    /// rate's band), cheapest first, each with `price` and `estimatedTotal`
    /// (subtotal + price, before tax) in minor units.
    ///
    /// # Errors
    /// `invalid_argument` for an empty cart or a malformed answer.
    #[wasm_bindgen(js_name = shippingOptions)]
    pub fn shipping_options(&self, answer: &JsShippingRates) -> Result<JsShippingOptions> {
        // Either what `client.shippingRates()` resolves to (the `variantRates` array) or the
        // whole response body.
        let answer: ShippingRatesResponse = if js_sys::Array::is_array(answer) {
            ShippingRatesResponse { variant_rates: parse_arg::<Vec<VariantRates>>("variantRates", answer)? }
        } else {
            parse_arg("shipping rates", answer)?
        };
        Ok(to_js::<Vec<ShippingOption>, _>(&shipping::cart_rates(&self.inner.borrow(), &answer)?))
    }

    /// Format `minor` units of the cart's currency for `locale` (see `formatMoney`).
    ///
    /// # Errors
    /// As `formatMoney`.
    pub fn format(&self, #[wasm_bindgen(unchecked_param_type = "number")] minor: &JsValue, locale: Option<String>) -> Result<String> {
        let currency = self.inner.borrow().currency();
        format_currency(minor_units(minor, "minor")?, currency, locale.as_deref())
    }
}

/// Decimal price string → integer minor units: `parseMoney("19.99", "USD") === 1999`.
///
/// # Errors
/// `invalid_argument` naming the value (not a plain decimal, more decimals
/// than the currency has, beyond 2^53 − 1) or the unknown currency.
#[wasm_bindgen(js_name = parseMoney, unchecked_return_type = "number")]
pub fn parse_money(value: &str, currency: &str) -> Result<JsValue> {
    safe(Currency::from_code(currency)?.parse(value)?)
}

/// Integer minor units → the exact decimal string: `moneyToDecimal(1999, "USD") === "19.99"`.
///
/// # Errors
/// `invalid_argument` for a non-integer or unsafe amount or an unknown currency.
#[wasm_bindgen(js_name = moneyToDecimal)]
pub fn money_to_decimal(#[wasm_bindgen(unchecked_param_type = "number")] minor: &JsValue, currency: &str) -> Result<String> {
    let minor = minor_units(minor, "minor")?;
    Ok(Currency::from_code(currency)?.format(minor))
}

/// `a + b` in minor units, exact.
///
/// # Errors
/// `invalid_argument` for a non-integer input or a sum beyond 2^53 − 1.
#[wasm_bindgen(js_name = addMoney, unchecked_return_type = "number")]
pub fn add_money(#[wasm_bindgen(unchecked_param_type = "number")] a: &JsValue, #[wasm_bindgen(unchecked_param_type = "number")] b: &JsValue) -> Result<JsValue> {
    safe(money::checked_add(minor_units(a, "a")?, minor_units(b, "b")?)?)
}

/// Digits after the decimal point of an ISO 4217 currency (USD 2, JPY 0, KWD 3).
///
/// # Errors
/// `invalid_argument` for an unknown currency.
#[wasm_bindgen(js_name = currencyExponent)]
pub fn currency_exponent(currency: &str) -> Result<u32> {
    Ok(Currency::from_code(currency)?.exponent())
}

/// Format `minor` units of `currency` for display with `Intl.NumberFormat`
/// (`locale` like `"de-DE"`; omitted: the runtime's default). The exact decimal
/// string is handed to `Intl`, so no digit is lost or rounded:
/// `formatMoney(123456, "USD", "en-US") === "$1,234.56"`.
///
/// # Errors
/// `invalid_argument` for a non-integer or unsafe amount, an unknown currency
/// or a locale `Intl` rejects.
#[wasm_bindgen(js_name = formatMoney)]
pub fn format_money(#[wasm_bindgen(unchecked_param_type = "number")] minor: &JsValue, currency: &str, locale: Option<String>) -> Result<String> {
    format_currency(minor_units(minor, "minor")?, Currency::from_code(currency)?, locale.as_deref())
}

thread_local! {
    /// `Intl.NumberFormat#format` functions by (locale, currency): building one
    /// costs tens of microseconds, formatting with one a fraction of that.
    static FORMATTERS: RefCell<BTreeMap<(String, &'static str), js_sys::Function>> = const { RefCell::new(BTreeMap::new()) };
}

fn formatter(locale: Option<&str>, currency: Currency) -> Result<js_sys::Function> {
    let key = (locale.unwrap_or("").to_owned(), currency.code());
    if let Some(f) = FORMATTERS.with(|m| m.borrow().get(&key).cloned()) {
        return Ok(f);
    }
    let options = Object::new();
    let set = |k: &str, v: JsValue| {
        let _ = Reflect::set(&options, &JsValue::from_str(k), &v);
    };
    set("style", JsValue::from_str("currency"));
    set("currency", JsValue::from_str(currency.code()));
    // Show exactly the ISO 4217 digits, so the display is the exact amount.
    set("minimumFractionDigits", JsValue::from(currency.exponent()));
    set("maximumFractionDigits", JsValue::from(currency.exponent()));
    let locales = locale.map_or(JsValue::UNDEFINED, JsValue::from_str);
    let nf = intl_number_format(&locales, &options).map_err(|e| {
        Error::invalid_argument(format!("locale {} is not usable: {}", money::echo(locale.unwrap_or("")), js_message(&e)))
    })?;
    let format: js_sys::Function = Reflect::get(&nf, &JsValue::from_str("format"))
        .ok()
        .and_then(|f| f.dyn_into().ok())
        .ok_or_else(|| Error::invalid_argument("Intl.NumberFormat has no format function"))?;
    FORMATTERS.with(|m| m.borrow_mut().insert(key, format.clone()));
    Ok(format)
}

fn format_currency(minor: i64, currency: Currency, locale: Option<&str>) -> Result<String> {
    let format = formatter(locale, currency)?;
    // Intl.NumberFormat formats a decimal *string* exactly (no conversion to a double).
    format
        .call1(&JsValue::NULL, &JsValue::from_str(&currency.format(minor)))
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::invalid_argument(format!("Intl.NumberFormat could not format {minor} {currency}")))
}
