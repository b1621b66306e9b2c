//! `Checkout` for JavaScript (issues 5, 11): the async methods orchestrate.
//! They drive the core state machine ([`crate::checkout`]) with the client's
//! payment methods, a processor adapter (`js/adapters/`) and storage, keep
//! the state in `sessionStorage` and resume it, and hold the tab's checkout
//! lock ([`super::lock`]) so two tabs never pay for one cart.
//!
//! Guarantees, all enforced here or in the core:
//! - **single flight**: while a payment runs, `pay()` returns the same JS
//!   promise (kept in [`Inner::flight`]), and shipping cannot change or the
//!   checkout be cancelled;
//! - **one token in flight**: a confirm whose outcome is unknown is only ever
//!   repeated with the same token (core invariant), and the state saying so
//!   is written to storage *before* the confirm is sent;
//! - **resume**: `Checkout.resume()` after a reload or a 3-D Secure redirect
//!   confirms that same token once more (idempotent on the server) instead of
//!   paying again;
//! - **one payment per cart across tabs**: `start` and every new payment
//!   need the checkout lock; another tab's live checkout is `invalid_state`.
//!
//! `RefCell`s are never borrowed across an `.await`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, JSON};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::interop::{from_js, to_js};
use super::lock;
use crate::checkout::stored::{restore, Stored};
use crate::checkout::{AfterConfirm, CheckoutState, PayStep};
use crate::error::{Error, ErrorCode, Result};
use crate::model::{
    ConfirmResponse, InitiateRequest, InitiateResponse, PaymentItem, ShippingAddress, ShippingRatesRequest, ShippingRatesResponse,
    UpdateResponse, VariantRates,
};
use crate::money::Currency;
use crate::shipping::{usable_rates, ShippingOption};
use crate::text::{cat, quote};

/// Where the state is kept unless `storageKey` says otherwise.
const DEFAULT_KEY: &str = "cirrus.checkout";

type JsResult<T> = std::result::Result<T, JsValue>;

#[wasm_bindgen(typescript_custom_section)]
const TS_GENERATED: &str = include_str!("../../js/generated/checkout.ts");

/// The JS-side interfaces the class calls (the extern types below), typed
/// for TypeScript users. The state types are generated (js/generated/checkout.ts).
#[wasm_bindgen(typescript_custom_section)]
const TS_INTERFACES: &str = r#"
/**
 * A payment processor's browser library behind one interface (contract in
 * js/adapters/adapter.js). The SDK never sees card data: it only receives the
 * token id from `collectToken`.
 */
export interface ProcessorAdapter {
  mount(session: AdapterSession): Promise<void>;
  updateAmount(amount: number, currency: string): Promise<void>;
  collectToken(): Promise<string>;
  handleNextAction(clientSecret: string): Promise<void>;
  unmount?(): void;
}
/** The payment methods of a `CirrusClient` that `Checkout` calls (each sent once, never retried). */
export interface CheckoutClient {
  initiatePayment(body: InitiateRequest): Promise<InitiateResponse>;
  updatePayment(body: UpdateRequest): Promise<UpdateResponse>;
  confirmPayment(body: ConfirmRequest): Promise<ConfirmResponse>;
  shippingRates(body: ShippingRatesRequest): Promise<VariantRates[]>;
}
/** Options shared by `Checkout.start` and `Checkout.resume`. */
export interface CheckoutOptions {
  adapter: ProcessorAdapter;
  /** Where the state is kept; default `sessionStorage`; `null` keeps nothing (no resume). */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  /** Storage key; default "cirrus.checkout". Also names the cross-tab checkout lock. */
  storageKey?: string;
}
/** What to buy: a `Cart`, or the items and currency directly. */
export type StartCheckoutOptions = CheckoutOptions &
  (
    | { cart: { paymentItems(): PaymentItem[]; readonly currency: string | (() => string) } }
    | { items: PaymentItem[]; currency: string }
  );
export interface PayOptions {
  /** Absolute http(s) URL the processor returns to after a redirect-based next action. */
  returnUrl: string;
}
export type CheckoutListener = (state: CheckoutState) => void;
"#;

#[wasm_bindgen]
extern "C" {
    /// A processor adapter (a JS object, `js/adapters/adapter.js`).
    #[wasm_bindgen(typescript_type = "ProcessorAdapter")]
    pub type Adapter;
    #[wasm_bindgen(method, catch)]
    fn mount(this: &Adapter, session: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = updateAmount)]
    fn update_amount(this: &Adapter, amount: f64, currency: &str) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = collectToken)]
    fn collect_token(this: &Adapter) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = handleNextAction)]
    fn handle_next_action(this: &Adapter, client_secret: &str) -> JsResult<JsValue>;

    /// The client's payment methods: the TypeScript or the Rust `CirrusClient`, or a fake.
    #[wasm_bindgen(typescript_type = "CheckoutClient")]
    pub type Client;
    #[wasm_bindgen(method, catch, js_name = initiatePayment)]
    fn initiate_payment(this: &Client, body: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = updatePayment)]
    fn update_payment(this: &Client, body: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = confirmPayment)]
    fn confirm_payment(this: &Client, body: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = shippingRates)]
    fn shipping_rates(this: &Client, body: &JsValue) -> JsResult<JsValue>;

    /// `sessionStorage` or anything with the same three methods.
    pub type Store;
    #[wasm_bindgen(method, catch, js_name = getItem)]
    fn get_item(this: &Store, key: &str) -> JsResult<Option<String>>;
    #[wasm_bindgen(method, catch, js_name = setItem)]
    fn set_item(this: &Store, key: &str, value: &str) -> JsResult<()>;
    #[wasm_bindgen(method, catch, js_name = removeItem)]
    fn remove_item(this: &Store, key: &str) -> JsResult<()>;
}

/// Await whatever a JS method returned (a promise or a plain value).
async fn settle(call: JsResult<JsValue>) -> JsResult<JsValue> {
    JsFuture::from(Promise::resolve(&call?)).await
}

/// Await a client call and decode its answer (`what` names it in errors).
async fn answer<T: DeserializeOwned>(call: JsResult<JsValue>, what: &str) -> JsResult<T> {
    let v = settle(call).await?;
    Ok(from_js(v, what)?)
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() || obj.is_function() {
        Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

/// The message of a thrown JS value ("" when it has none).
fn js_message(e: &JsValue) -> String {
    get(e, "message").as_string().or_else(|| e.as_string()).unwrap_or_default()
}

fn js(v: Result<JsValue>) -> JsResult<JsValue> {
    v.map_err(JsValue::from)
}

fn bad(message: &str) -> Error {
    Error::invalid_argument(message)
}

/// `sessionStorage` through web-sys, if this global has one (reading it
/// throws where storage is disabled: then nothing is kept).
fn session_storage() -> Option<Store> {
    web_sys::window()?.session_storage().ok().flatten().map(JsCast::unchecked_into)
}

/// What `start` and `resume` share: the adapter, the storage, the key.
struct Common {
    adapter: Adapter,
    storage: Option<Store>,
    key: String,
}

fn common(options: &JsValue) -> Result<Common> {
    if !options.is_object() {
        return Err(bad("options must be an object with at least `adapter`"));
    }
    let adapter = get(options, "adapter");
    for m in ["mount", "updateAmount", "collectToken", "handleNextAction"] {
        if !get(&adapter, m).is_function() {
            return Err(bad(&cat(&["options.adapter.", m, " must be a function (see ProcessorAdapter)"])));
        }
    }
    let key = match get(options, "storageKey") {
        v if v.is_undefined() => DEFAULT_KEY.to_owned(),
        v => v.as_string().filter(|k| !k.is_empty()).ok_or_else(|| bad("options.storageKey must be a non-empty string"))?,
    };
    let storage = match get(options, "storage") {
        v if v.is_null() => None,
        v if v.is_undefined() => session_storage(),
        v => {
            for m in ["getItem", "setItem", "removeItem"] {
                if !get(&v, m).is_function() {
                    return Err(bad(&cat(&["options.storage.", m, " must be a function"])));
                }
            }
            Some(v.unchecked_into())
        }
    };
    Ok(Common { adapter: adapter.unchecked_into(), storage, key })
}

fn check_client(client: &Client) -> Result<()> {
    for m in ["initiatePayment", "updatePayment", "confirmPayment", "shippingRates"] {
        if !get(client, m).is_function() {
            return Err(bad(&cat(&["client.", m, " must be a function (pass a CirrusClient)"])));
        }
    }
    Ok(())
}

/// The state kept under `c.key`, if any.
fn stored(c: &Common) -> Result<Option<CheckoutState>> {
    let Some(s) = &c.storage else { return Ok(None) };
    let Some(text) = s.get_item(&c.key).ok().flatten() else { return Ok(None) };
    let invalid = |m: &str| Error::invalid_argument(cat(&["stored checkout state is not valid: ", m]));
    let value = JSON::parse(&text).map_err(|e| invalid(&js_message(&e)))?;
    let state = restore(serde_wasm_bindgen::Deserializer::from(value.clone()))?;
    // serde-wasm-bindgen reads only the members a struct declares, so
    // `deny_unknown_fields` never fires here: a member the state does not
    // write back is refused by comparing the input with its re-serialization.
    let back = to_js(&Stored::of(&state))?;
    if let Some(path) = foreign_member(&value, &back, "") {
        return Err(invalid(&cat(&[&path, ": unknown member"])));
    }
    Ok(Some(state))
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

/// `{ cart }` (a `Cart`: `paymentItems()` and `currency`, a getter or a
/// function) or `{ items, currency }`.
fn what_to_buy(options: &JsValue) -> Result<(Vec<PaymentItem>, String)> {
    let cart = get(options, "cart");
    let (items, currency) = if cart.is_undefined() {
        (get(options, "items"), get(options, "currency"))
    } else {
        let call = |m: &str| -> Result<JsValue> {
            get(&cart, m)
                .dyn_into::<Function>()
                .ok()
                .and_then(|f| f.call0(&cart).ok())
                .ok_or_else(|| bad(&cat(&["options.cart.", m, "() must be callable (pass a Cart)"])))
        };
        let items = call("paymentItems")?;
        let currency = get(&cart, "currency");
        (items, if currency.is_function() { call("currency")? } else { currency })
    };
    let items: Vec<PaymentItem> = from_js(items, "options.items")?;
    let currency = currency.as_string().ok_or_else(|| bad("options.currency must be a string like \"USD\""))?;
    if items.is_empty() {
        return Err(Error::invalid_state("the cart is empty: add an item before checkout"));
    }
    Ok((items, currency))
}

thread_local! {
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

struct Inner {
    id: u32,
    client: Client,
    adapter: Adapter,
    storage: Option<Store>,
    key: String,
    state: RefCell<CheckoutState>,
    listeners: RefCell<Vec<(u32, Function)>>,
    next_listener: Cell<u32>,
    /// The running payment's promise (single flight).
    flight: RefCell<Option<Promise>>,
    /// The last shipping options and the country they were fetched for.
    options: RefCell<Option<(String, Vec<ShippingOption>)>>,
}

impl Inner {
    fn new(client: Client, c: Common, state: CheckoutState) -> Rc<Self> {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1));
            id
        });
        Rc::new(Self {
            id,
            client,
            adapter: c.adapter,
            storage: c.storage,
            key: c.key,
            state: RefCell::new(state),
            listeners: RefCell::new(Vec::new()),
            next_listener: Cell::new(0),
            flight: RefCell::new(None),
            options: RefCell::new(None),
        })
    }

    fn lock_name(&self) -> String {
        lock::name(&self.key)
    }

    fn state_js(&self) -> JsResult<JsValue> {
        js(to_js(&*self.state.borrow()))
    }

    /// Persist, tell the listeners, and let the lock go once the checkout is over.
    fn changed(&self) {
        let state = self.state.borrow().clone();
        if let Some(s) = &self.storage {
            // A full or disabled storage only costs the ability to resume;
            // the server's idempotent confirm still prevents double charges.
            if let Some(text) = to_js(&Stored::of(&state)).ok().and_then(|v| JSON::stringify(&v).ok()).and_then(|t| t.as_string()) {
                let _ = s.set_item(&self.key, &text);
            }
        }
        if state.is_final() {
            lock::release(&self.lock_name(), self.id);
        }
        let Ok(js) = to_js(&state) else { return };
        let listeners: Vec<Function> = self.listeners.borrow().iter().map(|(_, f)| f.clone()).collect();
        for f in listeners {
            // a listener's error is its own
            let _ = f.call1(&JsValue::NULL, &js);
        }
    }

    async fn mount_adapter(&self) -> JsResult<()> {
        let Some(session) = self.state.borrow().adapter_session() else { return Ok(()) };
        let arg = to_js(&session)?;
        settle(self.adapter.mount(&arg)).await.map(drop)
    }

    fn idle(&self, action: &str) -> Result<()> {
        if self.flight.borrow().is_some() {
            return Err(Error::invalid_state(cat(&["cannot ", action, " while a payment is in progress"])));
        }
        Ok(())
    }

    fn adapter_failed(&self, message: &str) -> Result<()> {
        self.state.borrow_mut().adapter_failed(message)?;
        self.changed();
        Ok(())
    }

    /// One payment run: collect (or reuse) a token, confirm, run at most one
    /// next action per run and confirm again. Payment outcomes end in the
    /// state; only a step that may not run now is an `Err`.
    async fn pay(&self, return_url: &str, resume: bool) -> Result<()> {
        let step = if resume {
            match self.state.borrow().resume_token() {
                Some(t) => PayStep::Reconfirm(t.to_owned()),
                None => return Ok(()),
            }
        } else {
            let step = self.state.borrow().pay_step()?;
            crate::checkout::validate_return_url(return_url)?;
            step
        };
        let mut token = match step {
            PayStep::Reconfirm(t) => t,
            PayStep::CollectToken => {
                // A new payment: only the tab holding the cart's checkout lock may make one.
                lock::acquire(&self.lock_name(), self.id).await?;
                match settle(self.adapter.collect_token()).await {
                    Ok(v) => match v.as_string().filter(|t| !t.trim().is_empty()) {
                        Some(t) => t,
                        None => return self.adapter_failed("the processor adapter returned no token"),
                    },
                    Err(e) => return self.adapter_failed(&js_message(&e)),
                }
            }
        };
        for actions in 0.. {
            let body = self.state.borrow_mut().begin_confirm(&token, return_url)?;
            self.changed(); // stored as in flight before anything is sent
            let sent = match to_js(&body) {
                Ok(b) => answer::<ConfirmResponse>(self.client.confirm_payment(&b), "confirmPayment answer").await,
                Err(e) => Err(e.into()),
            };
            let after = match sent {
                Ok(a) => self.state.borrow_mut().confirmed(a),
                Err(e) => {
                    let code = from_js::<ErrorCode>(get(&e, "code"), "code").unwrap_or(ErrorCode::Internal);
                    self.state.borrow_mut().confirm_failed(code, &js_message(&e)).map(|()| AfterConfirm::Done)
                }
            };
            self.changed();
            // Ok: settled or processing. Err: a malformed answer, already a retryable failure.
            let Ok(AfterConfirm::NextAction(secret)) = after else { return Ok(()) };
            if actions > 0 {
                return self.adapter_failed("authentication was not completed");
            }
            if let Err(e) = settle(self.adapter.handle_next_action(&secret)).await {
                return self.adapter_failed(&js_message(&e));
            }
            token = self.state.borrow().action_finished()?;
        }
        Ok(())
    }
}

/// Starts a payment as the single flight and records its promise.
fn run_flight(inner: &Rc<Inner>, return_url: String, resume: bool) -> Promise {
    if let Some(p) = inner.flight.borrow().clone() {
        return p;
    }
    let run = inner.clone();
    // `future_to_promise` first polls on a later microtask: the flight is recorded before anything runs.
    let p = future_to_promise(async move {
        let r = run.pay(&return_url, resume).await;
        run.flight.borrow_mut().take();
        r?;
        run.state_js()
    });
    *inner.flight.borrow_mut() = Some(p.clone());
    p
}

/// A checkout from cart to paid order. See the module docs for the
/// single-flight, one-token, resume and cross-tab guarantees.
#[wasm_bindgen]
pub struct Checkout {
    inner: Rc<Inner>,
}

impl Drop for Checkout {
    /// A dropped (`free()`d) checkout lets the tab's lock go unless a payment
    /// of it is unsettled (then it is kept until the tab closes: resume it).
    fn drop(&mut self) {
        if !self.inner.state.borrow().payment_unsettled() {
            lock::release(&self.inner.lock_name(), self.inner.id);
        }
    }
}

#[wasm_bindgen]
impl Checkout {
    /// Initiate a payment session for the cart (or `items` in `currency`),
    /// mount the adapter's payment form and keep the state in storage.
    ///
    /// Rejects with a `CirrusError`: `invalid_argument` for bad options,
    /// `invalid_state` if the storage holds a checkout with an unsettled
    /// payment (finish it with `Checkout.resume()` first) or another tab has
    /// a checkout of this cart in progress, or the server's error. An adapter
    /// that fails to mount rejects with its own error.
    #[wasm_bindgen(unchecked_return_type = "Checkout")]
    pub async fn start(
        #[wasm_bindgen(unchecked_param_type = "CheckoutClient")] client: Client,
        #[wasm_bindgen(unchecked_param_type = "StartCheckoutOptions")] options: JsValue,
    ) -> JsResult<Checkout> {
        check_client(&client)?;
        let c = common(&options)?;
        let (items, currency) = what_to_buy(&options)?;
        if let Ok(Some(old)) = stored(&c) {
            if old.payment_unsettled() {
                return Err(Error::invalid_state(
                    "the stored checkout has a payment whose outcome is not known yet; finish it with Checkout.resume() first",
                )
                .into());
            }
        }
        let inner = Inner::new(client, c, CheckoutState::Idle);
        lock::acquire(&inner.lock_name(), inner.id).await?;
        let checkout = Checkout { inner };
        // From here on an error drops `checkout`, which lets the lock go.
        let inner = &checkout.inner;
        let body = InitiateRequest { items: items.clone(), currency };
        let answer: InitiateResponse = answer(inner.client.initiate_payment(&to_js(&body)?), "initiatePayment answer").await?;
        inner.state.borrow_mut().initiated(items, answer)?;
        inner.changed();
        inner.mount_adapter().await?;
        Ok(checkout)
    }

    /// Restore the checkout kept in storage (after a reload or a 3-D Secure
    /// redirect). Resolves `null` when nothing is stored. Mounts the adapter
    /// unless the checkout is final; if a payment was under way (`paying`,
    /// `requires_action`) it is finished first: one more confirm with the
    /// token already used (never a new charge), and the next action if the
    /// processor still asks for it.
    ///
    /// Rejects with `invalid_argument` if the stored state is unreadable (it
    /// is removed).
    #[wasm_bindgen(unchecked_return_type = "Checkout | null")]
    pub async fn resume(
        #[wasm_bindgen(unchecked_param_type = "CheckoutClient")] client: Client,
        #[wasm_bindgen(unchecked_param_type = "CheckoutOptions")] options: JsValue,
    ) -> JsResult<JsValue> {
        check_client(&client)?;
        let c = common(&options)?;
        let state = match stored(&c) {
            Ok(Some(s)) => s,
            Ok(None) => return Ok(JsValue::NULL),
            Err(e) => {
                if let Some(s) = &c.storage {
                    let _ = s.remove_item(&c.key);
                }
                return Err(e.into());
            }
        };
        let live = !state.is_final();
        let inner = Inner::new(client, c, state);
        if live {
            // Taken if free; a new payment asks again (`pay`), finishing one never needs it.
            let _ = lock::acquire(&inner.lock_name(), inner.id).await;
            inner.mount_adapter().await?;
        }
        if inner.state.borrow().resume_token().is_some() {
            JsFuture::from(run_flight(&inner, String::new(), true)).await?;
        }
        Ok(Checkout { inner }.into())
    }

    /// Remove the stored state of `storageKey` (default "cirrus.checkout")
    /// from `sessionStorage`, e.g. after showing the order confirmation.
    #[wasm_bindgen(js_name = clearStored)]
    pub fn clear_stored(#[wasm_bindgen(js_name = storageKey)] storage_key: Option<String>) {
        if let Some(s) = session_storage() {
            let _ = s.remove_item(storage_key.as_deref().unwrap_or(DEFAULT_KEY));
        }
    }

    /// The current state (a fresh object each time).
    #[wasm_bindgen(getter, unchecked_return_type = "CheckoutState")]
    pub fn state(&self) -> JsResult<JsValue> {
        self.inner.state_js()
    }

    /// Call `listener(state)` after every change (not immediately). Returns
    /// the function that unsubscribes it.
    #[wasm_bindgen(unchecked_return_type = "() => void")]
    pub fn subscribe(&self, #[wasm_bindgen(unchecked_param_type = "CheckoutListener")] listener: Function) -> JsValue {
        let id = self.inner.next_listener.get();
        self.inner.next_listener.set(id.wrapping_add(1));
        self.inner.listeners.borrow_mut().push((id, listener));
        let weak = Rc::downgrade(&self.inner);
        Closure::<dyn FnMut()>::new(move || {
            if let Some(inner) = weak.upgrade() {
                inner.listeners.borrow_mut().retain(|(i, _)| *i != id);
            }
        })
        .into_js_value()
    }

    /// The shipping options the whole order can use in `country` (uppercase
    /// ISO 3166-1 alpha-2), cheapest first, with exact minor-unit prices.
    ///
    /// Rejects with `invalid_argument` for a bad country, `invalid_state`
    /// once a payment exists, or the server's error.
    #[wasm_bindgen(js_name = shippingOptions, unchecked_return_type = "ShippingOption[]")]
    pub async fn shipping_options(&self, country: String) -> JsResult<JsValue> {
        let inner = self.inner.clone();
        let (ids, subtotal, currency) = {
            let state = inner.state.borrow();
            let session = state.shipping_session()?;
            let ids: Vec<String> = session.items.iter().map(|i| i.variant_id.clone()).collect();
            (ids, session.breakdown.subtotal, session.currency.clone())
        };
        let currency = Currency::from_code(&currency)?;
        // No `orderTotal`: the band is checked exactly on minor units below.
        let body = ShippingRatesRequest { variant_ids: ids.clone(), country: country.clone(), order_total: None };
        let v = settle(inner.client.shipping_rates(&to_js(&body)?)).await?;
        // The client answers the `variantRates` list; a whole response object is accepted too.
        let answer = if v.is_array() {
            ShippingRatesResponse { variant_rates: from_js::<Vec<VariantRates>>(v, "shippingRates answer")? }
        } else {
            from_js::<ShippingRatesResponse>(v, "shippingRates answer")?
        };
        let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
        let options = usable_rates(&answer, &id_refs, subtotal, currency)?;
        let out = to_js(&options)?;
        *inner.options.borrow_mut() = Some((country, options));
        Ok(out)
    }

    /// Choose a rate (by id, from the last `shippingOptions(country)`) and the
    /// shipping address; the server adds shipping and tax and the adapter is
    /// told the new amount. The address is checked first (required fields,
    /// e-mail shape, uppercase country matching the options' country).
    ///
    /// Rejects with `invalid_argument` naming the field, `invalid_state`
    /// while paying or after a payment exists, or the server's error.
    #[wasm_bindgen(js_name = selectShipping, unchecked_return_type = "CheckoutState")]
    pub async fn select_shipping(
        &self,
        #[wasm_bindgen(js_name = rateId)] rate_id: String,
        #[wasm_bindgen(unchecked_param_type = "ShippingAddress")] address: JsValue,
    ) -> JsResult<JsValue> {
        let inner = self.inner.clone();
        inner.idle("select shipping")?;
        inner.state.borrow().shipping_session()?;
        let address: ShippingAddress = from_js(address, "shippingAddress")?;
        let rate = {
            let options = inner.options.borrow();
            let Some((country, list)) = options.as_ref() else {
                return Err(Error::invalid_state("call shippingOptions(country) before selectShipping").into());
            };
            if *country != address.country {
                let a = quote(&address.country);
                return Err(bad(&cat(&[
                    "shippingAddress.country ",
                    &a,
                    " differs from the country of the shipping options (",
                    &quote(country),
                    "); call shippingOptions(",
                    &a,
                    ") first",
                ]))
                .into());
            }
            let found = list.iter().find(|o| o.rate.id == rate_id).map(|o| o.rate.clone());
            found.ok_or_else(|| bad(&cat(&["shipping rate ", &quote(&rate_id), " is not one of the options for ", country])))?
        };
        let body = inner.state.borrow().update_request(&rate, &address)?;
        let answer: UpdateResponse = answer(inner.client.update_payment(&to_js(&body)?), "updatePayment answer").await?;
        inner.idle("select shipping")?;
        let (amount, currency) = (answer.amount, answer.currency.clone());
        inner.state.borrow_mut().shipping_chosen(rate, address, answer)?;
        inner.changed();
        // i64 minor units → JS number: checked to be a safe integer.
        let amount = crate::money::check_safe(amount)?;
        #[allow(clippy::cast_precision_loss)] // a safe integer, checked above
        settle(inner.adapter.update_amount(amount as f64, &currency)).await?;
        inner.state_js()
    }

    /// Pay: the adapter collects a token (or the unsettled one is reused),
    /// the SDK confirms, runs the next action (3-D Secure) if asked, and
    /// confirms again. Resolves with the settled state: `succeeded`,
    /// `failed` (see `retryable`), or `paying` if the processor is still
    /// `processing`. A second call while one runs returns the same promise.
    ///
    /// Rejects with a `CirrusError` only when paying is not allowed now
    /// (`invalid_state`, also when another tab holds this cart's checkout)
    /// or `returnUrl` is bad (`invalid_argument`).
    #[wasm_bindgen(unchecked_return_type = "Promise<CheckoutState>")]
    pub fn pay(&self, #[wasm_bindgen(unchecked_param_type = "PayOptions")] options: JsValue) -> Promise {
        if let Some(p) = self.inner.flight.borrow().clone() {
            return p;
        }
        let Some(return_url) = get(&options, "returnUrl").as_string() else {
            return Promise::reject(&bad("options.returnUrl must be a string").into());
        };
        run_flight(&self.inner, return_url, false)
    }

    /// Abandon the checkout before any payment exists.
    ///
    /// # Errors
    /// `invalid_state` while a payment is in progress or unsettled, after
    /// success, or when already cancelled.
    pub fn cancel(&self) -> JsResult<()> {
        self.inner.idle("cancel")?;
        self.inner.state.borrow_mut().cancel()?;
        self.inner.changed();
        if let Some(unmount) = get(&self.inner.adapter, "unmount").dyn_ref::<Function>() {
            // the form is going away anyway
            let _ = unmount.call0(&self.inner.adapter);
        }
        Ok(())
    }
}
