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
//! - **unknown is not failed**: a confirm with no usable answer leaves
//!   `confirming` and is confirmed again with the same token, with backoff
//!   (core: [`AfterConfirm::delay_ms`]); `processing` is re-read the same way;
//! - **a checkout belongs to the cart**: for a persistent cart the state is
//!   kept in the cart's storage under `<cartKey>:checkout`, so every tab of
//!   the cart sees the live checkout and `start` there resumes it instead of
//!   opening a second payment session; every new payment (a fresh token)
//!   needs the tab's checkout lock, so one tab acts at a time.
//!
//! `RefCell`s are never borrowed across an `.await`.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, JSON};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::checkout_options::{get, js_message, keep_aside, local_storage, session_storage, stored, what_to_buy, Store, CART_SUFFIX, DEFAULT_KEY};
use super::interop::{from_js, to_js};
use super::lock;
use crate::checkout::stored::Stored;
use crate::checkout::{AfterConfirm, CheckoutState, PayStep};
use crate::error::{Error, ErrorCode, Result};
use crate::model::{
    ConfirmResponse, InitiateRequest, InitiateResponse, ShippingAddress, ShippingRatesRequest, ShippingRatesResponse,
    UpdateResponse, VariantRates,
};
use crate::money::Currency;
use crate::shipping::{usable_rates, ShippingOption};
use crate::text::{cat, quote};

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
  /**
   * Where the state is kept; default `sessionStorage`, or `localStorage` for a persistent
   * cart (shared by its tabs); `null` keeps nothing (no resume).
   */
  storage?: Pick<Storage, "getItem" | "setItem" | "removeItem"> | null;
  /**
   * Storage key; default `"<cart.storageKey>:checkout"` for a persistent cart, else
   * "cirrus.checkout". Also names the cross-tab checkout lock.
   */
  storageKey?: string;
  /** The cart being bought: a persistent one (`Cart.persistent`) shares its live checkout with every tab. */
  cart?: CheckoutCart;
}
/** What `Checkout` reads of a `Cart`. */
export interface CheckoutCart {
  paymentItems(): PaymentItem[];
  readonly currency: string | (() => string);
  /** The persistent cart's storage key (`null`: not persistent). */
  readonly storageKey?: string | null;
}
/** What to buy: a `Cart`, or the items and currency directly. */
export type StartCheckoutOptions = CheckoutOptions &
  (
    | { cart: CheckoutCart }
    | { items: PaymentItem[]; currency: string; cart?: undefined }
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

fn js(v: Result<JsValue>) -> JsResult<JsValue> {
    v.map_err(JsValue::from)
}

fn bad(message: &str) -> Error {
    Error::invalid_argument(message)
}

/// What `start` and `resume` share: the adapter, the storage, the key.
struct Common {
    adapter: Adapter,
    storage: Option<Store>,
    key: String,
    /// The record belongs to a persistent cart: every tab of it reads it.
    shared: bool,
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
    // A persistent cart's checkout is kept with the cart, for all its tabs.
    let cart_key = get(&get(options, "cart"), "storageKey").as_string().filter(|k| !k.is_empty());
    let key = match get(options, "storageKey") {
        v if v.is_undefined() => cart_key.as_ref().map_or_else(|| DEFAULT_KEY.to_owned(), |k| cat(&[k, CART_SUFFIX])),
        v => v.as_string().filter(|k| !k.is_empty()).ok_or_else(|| bad("options.storageKey must be a non-empty string"))?,
    };
    let storage = match get(options, "storage") {
        v if v.is_null() => None,
        v if v.is_undefined() && cart_key.is_some() => local_storage(),
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
    let shared = cart_key.is_some() && storage.is_some();
    Ok(Common { adapter: adapter.unchecked_into(), storage, key, shared })
}

fn check_client(client: &Client) -> Result<()> {
    for m in ["initiatePayment", "updatePayment", "confirmPayment", "shippingRates"] {
        if !get(client, m).is_function() {
            return Err(bad(&cat(&["client.", m, " must be a function (pass a CirrusClient)"])));
        }
    }
    Ok(())
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
    /// The record is the cart's, shared with its other tabs.
    shared: bool,
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
            shared: c.shared,
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

    /// A shared record another tab moved on (same session): take it, so this
    /// tab never acts on a stale state. Nothing runs in this tab meanwhile
    /// (called before a payment run starts).
    fn adopt_shared(&self) {
        if !self.shared {
            return;
        }
        let Ok(Some(theirs)) = stored(self.storage.as_ref(), &self.key) else { return };
        let same = {
            let ours = self.state.borrow();
            theirs != *ours && theirs.session().map(|s| &s.session_id) == ours.session().map(|s| &s.session_id)
        };
        if same {
            *self.state.borrow_mut() = theirs;
            self.changed();
        }
    }

    /// One payment run: collect (or reuse) a token, confirm, run at most one
    /// next action per run and confirm again; an unknown outcome or
    /// `processing` is confirmed again with the same token after the core's
    /// delays (bounded). Payment outcomes end in the state; only a step that
    /// may not run now is an `Err`.
    async fn pay(&self, return_url: &str, resume: bool) -> Result<()> {
        self.adopt_shared();
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
        // Next actions run, re-reads of `processing`, re-confirms of an unknown outcome: each bounded.
        let (mut actions, mut polls, mut rechecks) = (0, 0, 0);
        loop {
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
                    self.state.borrow_mut().confirm_failed(code, &js_message(&e))
                }
            };
            self.changed();
            let after = after?;
            let round = match after {
                AfterConfirm::Processing => &mut polls,
                AfterConfirm::Unknown => &mut rechecks,
                _ => &mut actions,
            };
            if let Some(ms) = after.delay_ms(*round) {
                *round += 1;
                sleep(ms).await;
                continue;
            }
            let AfterConfirm::NextAction(secret) = after else { return Ok(()) };
            if actions > 0 {
                return self.adapter_failed("authentication was not completed");
            }
            actions += 1;
            if let Err(e) = settle(self.adapter.handle_next_action(&secret)).await {
                return self.adapter_failed(&js_message(&e));
            }
            token = self.state.borrow().action_finished()?;
        }
    }
}

/// Waits `ms` with the global `setTimeout` (a window's or node's).
async fn sleep(ms: u32) {
    let Ok(set) = Reflect::get(&js_sys::global(), &JsValue::from_str("setTimeout")).and_then(JsCast::dyn_into::<Function>) else { return };
    let p = Promise::new(&mut |resolve, _| {
        let _ = set.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from(ms));
    });
    let _ = JsFuture::from(p).await;
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

/// A stored checkout made live again (`resume`, or `start` on a cart's live
/// checkout): the lock taken if free, the adapter mounted unless final, an
/// unsettled payment finished first.
async fn open(client: Client, c: Common, state: CheckoutState) -> JsResult<Checkout> {
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
    Ok(Checkout { inner })
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
    /// For a persistent cart (`Cart.persistent`) the checkout is the cart's:
    /// when any tab of it has a live checkout (a session not finished), this
    /// resumes that checkout (as `Checkout.resume` does, finishing a payment
    /// whose outcome is not known yet) instead of opening a second payment
    /// session; a live checkout without a payment whose items differ from
    /// the cart's is replaced by a new one.
    ///
    /// Rejects with a `CirrusError`: `invalid_argument` for bad options or
    /// an unreadable stored checkout (kept aside under `<key>:unreadable`),
    /// `invalid_state` if the tab's storage holds a checkout with an
    /// unsettled payment (finish it with `Checkout.resume()` first) or
    /// another tab holds the checkout lock, or the server's error. An
    /// adapter that fails to mount rejects with its own error.
    #[wasm_bindgen(unchecked_return_type = "Checkout")]
    pub async fn start(
        #[wasm_bindgen(unchecked_param_type = "CheckoutClient")] client: Client,
        #[wasm_bindgen(unchecked_param_type = "StartCheckoutOptions")] options: JsValue,
    ) -> JsResult<Checkout> {
        check_client(&client)?;
        let c = common(&options)?;
        let (items, currency) = what_to_buy(&options)?;
        match stored(c.storage.as_ref(), &c.key) {
            Err(e) => return Err(keep_aside(c.storage.as_ref(), &c.key, e).into()),
            // The cart's live checkout, from this tab or another: carry it on.
            Ok(Some(old)) if c.shared && old.is_live() && (old.payment_unsettled() || old.session().is_some_and(|s| s.items == items)) => {
                return open(client, c, old).await;
            }
            Ok(Some(old)) if old.payment_unsettled() => {
                return Err(Error::invalid_state(
                    "the stored checkout has a payment whose outcome is not known yet; finish it with Checkout.resume() first",
                )
                .into());
            }
            Ok(_) => {}
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
    /// redirect; with `cart`, the persistent cart's checkout from any tab).
    /// Resolves `null` when nothing is stored. Mounts the adapter unless the
    /// checkout is final; if a payment is unsettled (`paying`,
    /// `requires_action`, `confirming`, a retryable `failed` with a pending
    /// attempt) it is finished first: the token already used is confirmed
    /// again (never a new charge; with backoff while the outcome stays
    /// unknown or `processing`), and the next action runs here if the
    /// processor still asks for it.
    ///
    /// Rejects with `invalid_argument` if the stored state is unreadable: it
    /// is not deleted but kept aside under `<key>:unreadable` (the message
    /// says so), since it may describe a payment not settled yet.
    #[wasm_bindgen(unchecked_return_type = "Checkout | null")]
    pub async fn resume(
        #[wasm_bindgen(unchecked_param_type = "CheckoutClient")] client: Client,
        #[wasm_bindgen(unchecked_param_type = "CheckoutOptions")] options: JsValue,
    ) -> JsResult<JsValue> {
        check_client(&client)?;
        let c = common(&options)?;
        let state = match stored(c.storage.as_ref(), &c.key) {
            Ok(Some(s)) => s,
            Ok(None) => return Ok(JsValue::NULL),
            Err(e) => return Err(keep_aside(c.storage.as_ref(), &c.key, e).into()),
        };
        Ok(open(client, c, state).await?.into())
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
    /// confirms again. A confirm with no usable answer is confirmed again
    /// with the same token (a few times, with backoff) and `processing` is
    /// re-read (about 40 s at most) before this resolves. Resolves with the
    /// state: `succeeded`, `failed` (see `retryable`), `confirming` if the
    /// outcome is still unknown (pay again or `Checkout.resume()` in any tab
    /// checks again; never a new charge), or `paying` if the processor is
    /// still `processing`. In `requires_action` (a checkout taken over from
    /// another tab) the same payment is carried on here. A second call while
    /// one runs returns the same promise.
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
