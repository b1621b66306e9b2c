//! `Checkout` for JavaScript (issue 5): drives the core state machine of
//! [`crate::checkout`] with the client's transport and a processor adapter
//! (`js/adapters/`), keeps the state in `sessionStorage` and resumes it.
//!
//! Guarantees, all enforced here or in the core:
//! - **single flight**: while a payment runs, `pay()` returns the same
//!   promise, and shipping cannot change or the checkout be cancelled;
//! - **one token in flight**: a confirm whose outcome is unknown is only ever
//!   repeated with the same token (core invariant), and the state saying so
//!   is written to storage *before* the confirm is sent;
//! - **resume**: `Checkout.resume()` after a reload or a 3-D Secure redirect
//!   confirms that same token once more (idempotent on the server) instead of
//!   paying again.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect, JSON};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

use super::client::{parse_arg, CirrusClient};
use super::de::from_js;
use super::error::to_js;
use super::transport::Transport;
use crate::checkout::{AfterConfirm, Attempt, CheckoutState, FailureCode, PayStep, Session, ShippingChoice};
use crate::error::{Error, Result};
use crate::model::{
    ConfirmResponse, InitiateRequest, InitiateResponse, PaymentItem, ShippingAddress, ShippingRatesRequest,
    ShippingRatesResponse, UpdateResponse,
};
use crate::money::Currency;
use crate::request;
use crate::shipping::{usable_rates, ShippingOption};

/// Where the state is kept unless `storageKey` says otherwise.
const DEFAULT_KEY: &str = "cirrus.checkout";

#[wasm_bindgen(typescript_custom_section)]
const TS_CHECKOUT: &str = include_str!("../../js/adapters/checkout-types.d.ts");

#[wasm_bindgen]
extern "C" {
    /// A processor adapter (duck-typed JS object).
    #[wasm_bindgen(typescript_type = "ProcessorAdapter")]
    pub type Adapter;
    #[wasm_bindgen(method, catch)]
    fn mount(this: &Adapter, session: &JsValue) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = updateAmount)]
    fn update_amount(this: &Adapter, amount: f64, currency: &str) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = collectToken)]
    fn collect_token(this: &Adapter) -> std::result::Result<JsValue, JsValue>;
    #[wasm_bindgen(method, catch, js_name = handleNextAction)]
    fn handle_next_action(this: &Adapter, client_secret: &str) -> std::result::Result<JsValue, JsValue>;

    /// `sessionStorage` or anything with the same three methods.
    pub type Store;
    #[wasm_bindgen(method, catch, js_name = getItem)]
    fn get_item(this: &Store, key: &str) -> std::result::Result<Option<String>, JsValue>;
    #[wasm_bindgen(method, catch, js_name = setItem)]
    fn set_item(this: &Store, key: &str, value: &str) -> std::result::Result<(), JsValue>;
    #[wasm_bindgen(method, catch, js_name = removeItem)]
    fn remove_item(this: &Store, key: &str) -> std::result::Result<(), JsValue>;
}

/// Await whatever an adapter method returned (a promise or a plain value).
async fn settle(call: std::result::Result<JsValue, JsValue>) -> std::result::Result<JsValue, JsValue> {
    JsFuture::from(Promise::resolve(&call?)).await
}

/// The message of a thrown JS value.
fn js_message(e: &JsValue) -> String {
    Reflect::get(e, &JsValue::from_str("message"))
        .ok()
        .and_then(|m| m.as_string())
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "the payment form reported an error".to_owned())
}

fn get(obj: &JsValue, key: &str) -> JsValue {
    if obj.is_object() {
        Reflect::get(obj, &JsValue::from_str(key)).unwrap_or(JsValue::UNDEFINED)
    } else {
        JsValue::UNDEFINED
    }
}

fn to_js_value<T: serde::Serialize>(v: &T) -> JsValue {
    serde_json::to_string(v).ok().and_then(|s| JSON::parse(&s).ok()).unwrap_or(JsValue::NULL)
}

struct Common {
    adapter: Adapter,
    storage: Option<Store>,
    key: String,
}

fn common(options: &JsValue) -> Result<Common> {
    if !options.is_object() {
        return Err(Error::invalid_argument("options must be an object with at least `adapter`"));
    }
    let adapter = get(options, "adapter");
    for m in ["mount", "updateAmount", "collectToken", "handleNextAction"] {
        if !get(&adapter, m).is_function() {
            return Err(Error::invalid_argument(format!("options.adapter.{m} must be a function (see ProcessorAdapter)")));
        }
    }
    let key = match get(options, "storageKey") {
        v if v.is_undefined() => DEFAULT_KEY.to_owned(),
        v => v
            .as_string()
            .filter(|k| !k.is_empty())
            .ok_or_else(|| Error::invalid_argument("options.storageKey must be a non-empty string"))?,
    };
    let storage = match get(options, "storage") {
        v if v.is_null() => None,
        v if v.is_undefined() => {
            // Reading `sessionStorage` throws where storage is disabled: then keep nothing.
            Reflect::get(&js_sys::global(), &JsValue::from_str("sessionStorage"))
                .ok()
                .filter(JsValue::is_object)
                .map(JsCast::unchecked_into)
        }
        v => {
            for m in ["getItem", "setItem", "removeItem"] {
                if !get(&v, m).is_function() {
                    return Err(Error::invalid_argument(format!("options.storage.{m} must be a function")));
                }
            }
            Some(v.unchecked_into())
        }
    };
    Ok(Common { adapter: adapter.unchecked_into(), storage, key })
}

fn stored(c: &Common) -> Result<Option<CheckoutState>> {
    let Some(s) = &c.storage else { return Ok(None) };
    let text = s.get_item(&c.key).ok().flatten();
    // `JSON.parse` + `from_js` rather than `CheckoutState::from_json`: keeps
    // `serde_json`'s parser out of the wasm (same message prefix).
    text.map(|t| {
        let invalid = |m: String| Error::invalid_argument(format!("stored checkout state is not valid: {m}"));
        let value = JSON::parse(&t).map_err(|e| invalid(js_message(&e)))?;
        from_js::<StoredState>(&value)
            .map_err(|e| {
                let path = e.path();
                invalid(if path.is_empty() { e.message().to_owned() } else { format!("{path}: {}", e.message()) })
            })?
            .into_state()
            .map_err(|f| invalid(format!("missing field `{f}`")))
    })
    .transpose()
}

/// A stored [`CheckoutState`] read as one flat object, then checked per
/// `state`: the derived internally tagged decoding buffers the whole object
/// (serde's `Content`), which cost ~40 KB of wasm; this is the same wire form.
#[derive(serde::Deserialize)]
#[serde(rename_all = "camelCase")]
struct StoredState {
    state: StateTag,
    #[serde(default)]
    session: Option<Session>,
    #[serde(default)]
    shipping: Option<ShippingChoice>,
    #[serde(default)]
    attempt: Option<Attempt>,
    #[serde(default)]
    client_secret: Option<String>,
    #[serde(default)]
    payment_intent_id: Option<String>,
    #[serde(default)]
    code: Option<FailureCode>,
    #[serde(default)]
    error_code: Option<crate::error::ErrorCode>,
    #[serde(default)]
    message: Option<String>,
    #[serde(default)]
    retryable: Option<bool>,
    #[serde(default)]
    pending: Option<Attempt>,
    #[serde(default)]
    session_id: Option<String>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "snake_case")]
enum StateTag {
    Idle,
    Initiated,
    ShippingChosen,
    Paying,
    RequiresAction,
    Succeeded,
    Failed,
    Cancelled,
}

impl StoredState {
    /// The state, or the name of a member its `state` needs.
    fn into_state(self) -> std::result::Result<CheckoutState, &'static str> {
        fn need<T>(v: Option<T>, name: &'static str) -> std::result::Result<T, &'static str> {
            v.ok_or(name)
        }
        let Self { state, session, shipping, attempt, client_secret, payment_intent_id, code, error_code, message, retryable, pending, session_id } = self;
        Ok(match state {
            StateTag::Idle => CheckoutState::Idle,
            StateTag::Initiated => CheckoutState::Initiated { session: need(session, "session")? },
            StateTag::ShippingChosen => {
                CheckoutState::ShippingChosen { session: need(session, "session")?, shipping: need(shipping, "shipping")? }
            }
            StateTag::Paying => CheckoutState::Paying {
                session: need(session, "session")?,
                shipping: need(shipping, "shipping")?,
                attempt: need(attempt, "attempt")?,
            },
            StateTag::RequiresAction => CheckoutState::RequiresAction {
                session: need(session, "session")?,
                shipping: need(shipping, "shipping")?,
                attempt: need(attempt, "attempt")?,
                client_secret: need(client_secret, "clientSecret")?,
            },
            StateTag::Succeeded => CheckoutState::Succeeded {
                session: need(session, "session")?,
                shipping: need(shipping, "shipping")?,
                payment_intent_id: need(payment_intent_id, "paymentIntentId")?,
            },
            StateTag::Failed => CheckoutState::Failed {
                session: need(session, "session")?,
                shipping: need(shipping, "shipping")?,
                code: need(code, "code")?,
                error_code,
                message: need(message, "message")?,
                retryable: need(retryable, "retryable")?,
                pending,
                payment_intent_id,
            },
            StateTag::Cancelled => CheckoutState::Cancelled { session_id },
        })
    }
}

/// `{ cart }` (anything with `paymentItems()` and `currency()`, i.e. a
/// `Cart`) or `{ items, currency }`.
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
                .ok_or_else(|| Error::invalid_argument(format!("options.cart.{m}() must be callable (pass a Cart)")))
        };
        (call("paymentItems")?, call("currency")?)
    };
    let items: Vec<PaymentItem> = parse_arg("options.items", &items)?;
    if items.is_empty() {
        return Err(Error::invalid_state("the cart is empty: add an item before checkout"));
    }
    let currency = currency
        .as_string()
        .ok_or_else(|| Error::invalid_argument("options.currency must be a string like \"USD\""))?;
    Ok((items, currency))
}

struct Inner {
    transport: Transport,
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
    fn new(transport: Transport, c: Common, state: CheckoutState) -> Rc<Self> {
        Rc::new(Self {
            transport,
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

    /// Persist, then tell the listeners.
    fn changed(&self) {
        let state = self.state.borrow().clone();
        if let Some(s) = &self.storage {
            // A full or disabled storage only costs the ability to resume;
            // the server's idempotent confirm still prevents double charges.
            let _ = s.set_item(&self.key, &state.to_json());
        }
        let js = to_js_value(&state);
        let listeners: Vec<Function> = self.listeners.borrow().iter().map(|(_, f)| f.clone()).collect();
        for f in listeners {
            let _ = f.call1(&JsValue::NULL, &js);
        }
    }

    fn state_js(&self) -> JsValue {
        to_js_value(&*self.state.borrow())
    }

    async fn mount_adapter(&self) -> std::result::Result<(), JsValue> {
        let session = self.state.borrow().session().cloned();
        let Some(session) = session else { return Ok(()) };
        let arg = to_js_value(&serde_json::json!({
            "publishableKey": session.publishable_key,
            "amount": session.amount,
            "currency": session.currency,
        }));
        settle(self.adapter.mount(&arg)).await.map(drop)
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
            self.state.borrow().pay_step()?
        };
        if !resume {
            crate::checkout::validate_return_url(return_url)?;
        }
        let token = match step {
            PayStep::Reconfirm(t) => t,
            PayStep::CollectToken => match settle(self.adapter.collect_token()).await {
                Ok(v) => match v.as_string().filter(|t| !t.trim().is_empty()) {
                    Some(t) => t,
                    None => return self.adapter_failed("the processor adapter returned no token"),
                },
                Err(e) => return self.adapter_failed(&js_message(&e)),
            },
        };
        let mut actions = 0;
        let mut token = token;
        loop {
            let body = self.state.borrow_mut().begin_confirm(&token, return_url)?;
            self.changed(); // stored as in flight before anything is sent
            let answer = match request::confirm_payment(&body) {
                Ok(req) => self.transport.send_json::<ConfirmResponse>(&req, &JsValue::UNDEFINED).await,
                Err(e) => Err(e),
            };
            let after = match answer {
                Ok(a) => self.state.borrow_mut().confirmed(a),
                Err(e) => self.state.borrow_mut().confirm_failed(&e).map(|()| AfterConfirm::Done),
            };
            self.changed();
            // Ok: final or processing. Err: a malformed answer, already a retryable failure.
            let Ok(AfterConfirm::NextAction(secret)) = after else { return Ok(()) };
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

    fn adapter_failed(&self, message: &str) -> Result<()> {
        self.state.borrow_mut().adapter_failed(message)?;
        self.changed();
        Ok(())
    }

    fn check_idle_flight(&self, action: &str) -> Result<()> {
        if self.flight.borrow().is_some() {
            return Err(Error::invalid_state(format!("cannot {action} while a payment is in progress")));
        }
        Ok(())
    }
}

/// Starts a payment for a single flight and records it in `inner.flight`.
fn run_flight(inner: &Rc<Inner>, return_url: String, resume: bool) -> Promise {
    if let Some(p) = inner.flight.borrow().clone() {
        return p;
    }
    let run = inner.clone();
    let p = future_to_promise(async move {
        let r = run.pay(&return_url, resume).await;
        run.flight.borrow_mut().take();
        r.map(|()| run.state_js()).map_err(|e| to_js(&e))
    });
    *inner.flight.borrow_mut() = Some(p.clone());
    p
}

/// A checkout from cart to paid order. See the module docs for the
/// single-flight, one-token and resume guarantees.
#[wasm_bindgen]
pub struct Checkout {
    inner: Rc<Inner>,
}

#[wasm_bindgen]
impl Checkout {
    /// Initiate a payment session for `items` in `currency`, mount the
    /// adapter's payment form and keep the state in storage.
    ///
    /// Rejects with a `CirrusError`: `invalid_argument` for bad options,
    /// `invalid_state` if the storage holds a checkout with an unsettled
    /// payment (finish it with `Checkout.resume()` first), or the server's
    /// error. An adapter that fails to mount rejects with its own error.
    #[wasm_bindgen(unchecked_return_type = "Promise<Checkout>")]
    pub fn start(
        client: &CirrusClient,
        #[wasm_bindgen(unchecked_param_type = "StartCheckoutOptions")] options: JsValue,
    ) -> Promise {
        let transport = client.transport();
        future_to_promise(async move {
            let c = common(&options).map_err(|e| to_js(&e))?;
            let (items, currency) = what_to_buy(&options).map_err(|e| to_js(&e))?;
            if let Ok(Some(old)) = stored(&c) {
                if old.payment_unsettled() {
                    return Err(to_js(&Error::invalid_state(
                        "the stored checkout has a payment whose outcome is not known yet; finish it with Checkout.resume() first",
                    )));
                }
            }
            let body = InitiateRequest { items: items.clone(), currency };
            let req = request::initiate_payment(&body).map_err(|e| to_js(&e))?;
            let answer: InitiateResponse =
                transport.send_json(&req, &JsValue::UNDEFINED).await.map_err(|e| to_js(&e))?;
            let mut state = CheckoutState::Idle;
            state.initiated(items, answer).map_err(|e| to_js(&e))?;
            let inner = Inner::new(transport, c, state);
            inner.changed();
            inner.mount_adapter().await?;
            Ok(Checkout { inner }.into())
        })
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
    #[wasm_bindgen(unchecked_return_type = "Promise<Checkout | null>")]
    pub fn resume(
        client: &CirrusClient,
        #[wasm_bindgen(unchecked_param_type = "CheckoutOptions")] options: JsValue,
    ) -> Promise {
        let transport = client.transport();
        future_to_promise(async move {
            let c = common(&options).map_err(|e| to_js(&e))?;
            let state = match stored(&c) {
                Ok(Some(s)) => s,
                Ok(None) => return Ok(JsValue::NULL),
                Err(e) => {
                    if let Some(s) = &c.storage {
                        let _ = s.remove_item(&c.key);
                    }
                    return Err(to_js(&e));
                }
            };
            let final_ = state.is_final();
            let inner = Inner::new(transport, c, state);
            if !final_ {
                inner.mount_adapter().await?;
            }
            if inner.state.borrow().resume_token().is_some() {
                JsFuture::from(run_flight(&inner, String::new(), true)).await?;
            }
            Ok(Checkout { inner }.into())
        })
    }

    /// Remove the stored state of `storageKey` (default "cirrus.checkout")
    /// from `sessionStorage`, e.g. after showing the order confirmation.
    #[wasm_bindgen(js_name = clearStored)]
    pub fn clear_stored(#[wasm_bindgen(js_name = storageKey)] storage_key: Option<String>) {
        let key = storage_key.unwrap_or_else(|| DEFAULT_KEY.to_owned());
        if let Some(s) = Reflect::get(&js_sys::global(), &JsValue::from_str("sessionStorage"))
            .ok()
            .filter(JsValue::is_object)
        {
            let s: Store = s.unchecked_into();
            let _ = s.remove_item(&key);
        }
    }

    /// The current state (a fresh object each time).
    #[wasm_bindgen(getter, unchecked_return_type = "CheckoutState")]
    pub fn state(&self) -> JsValue {
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
    #[wasm_bindgen(js_name = shippingOptions, unchecked_return_type = "Promise<ShippingOption[]>")]
    pub fn shipping_options(&self, country: String) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let (ids, subtotal, currency) = {
                let state = inner.state.borrow();
                let session = state.shipping_session().map_err(|e| to_js(&e))?;
                let ids: Vec<String> = session.items.iter().map(|i| i.variant_id.clone()).collect();
                (ids, session.breakdown.subtotal, session.currency.clone())
            };
            let currency = Currency::from_code(&currency).map_err(|e| to_js(&e))?;
            // No `orderTotal`: the band is checked exactly on minor units below.
            let body = ShippingRatesRequest { variant_ids: ids.clone(), country: country.clone(), order_total: None };
            let req = request::shipping_rates(&body).map_err(|e| to_js(&e))?;
            let answer: ShippingRatesResponse =
                inner.transport.send_json(&req, &JsValue::UNDEFINED).await.map_err(|e| to_js(&e))?;
            let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
            let options = usable_rates(&answer, &id_refs, subtotal, currency).map_err(|e| to_js(&e))?;
            let js = to_js_value(&options);
            *inner.options.borrow_mut() = Some((country, options));
            Ok(js)
        })
    }

    /// Choose a rate (by id, from the last `shippingOptions(country)`) and the
    /// shipping address; the server adds shipping and tax and the adapter is
    /// told the new amount. The address is checked first (required fields,
    /// e-mail shape, uppercase country matching the options' country).
    ///
    /// Rejects with `invalid_argument` naming the field, `invalid_state`
    /// while paying or after a payment exists, or the server's error.
    #[wasm_bindgen(js_name = selectShipping, unchecked_return_type = "Promise<CheckoutState>")]
    pub fn select_shipping(
        &self,
        #[wasm_bindgen(js_name = rateId)] rate_id: String,
        #[wasm_bindgen(unchecked_param_type = "ShippingAddress")] address: JsValue,
    ) -> Promise {
        let inner = self.inner.clone();
        future_to_promise(async move {
            let run = async {
                inner.check_idle_flight("select shipping")?;
                inner.state.borrow().shipping_session()?;
                let address: ShippingAddress = parse_arg("shippingAddress", &address)?;
                let rate = {
                    let options = inner.options.borrow();
                    let Some((country, list)) = options.as_ref() else {
                        return Err(Error::invalid_state("call shippingOptions(country) before selectShipping"));
                    };
                    if *country != address.country {
                        return Err(Error::invalid_argument(format!(
                            "shippingAddress.country {:?} differs from the country of the shipping options ({country:?}); call shippingOptions({:?}) first",
                            address.country, address.country
                        )));
                    }
                    list.iter().find(|o| o.rate.id == rate_id).map(|o| o.rate.clone()).ok_or_else(|| {
                        Error::invalid_argument(format!("shipping rate {rate_id:?} is not one of the options for {country}"))
                    })?
                };
                let body = inner.state.borrow().update_request(&rate, &address)?;
                let req = request::update_payment(&body)?;
                let answer: UpdateResponse = inner.transport.send_json(&req, &JsValue::UNDEFINED).await?;
                inner.check_idle_flight("select shipping")?;
                let (amount, currency) = (answer.amount, answer.currency.clone());
                inner.state.borrow_mut().shipping_chosen(rate, address, answer)?;
                inner.changed();
                Ok((amount, currency))
            };
            let (amount, currency) = run.await.map_err(|e| to_js(&e))?;
            // i64 minor units → JS number: checked to be a safe integer.
            let amount = crate::money::check_safe(amount).map_err(|e| to_js(&e))?;
            #[allow(clippy::cast_precision_loss)] // safe integer, checked above
            settle(inner.adapter.update_amount(amount as f64, &currency)).await?;
            Ok(inner.state_js())
        })
    }

    /// Pay: the adapter collects a token (or the unsettled one is reused),
    /// the SDK confirms, runs the next action (3-D Secure) if asked, and
    /// confirms again. Resolves with the settled state: `succeeded`,
    /// `failed` (see `retryable`), or `paying` if the processor is still
    /// `processing`. A second call while one runs returns the same promise.
    ///
    /// Rejects with a `CirrusError` only when paying is not allowed now
    /// (`invalid_state`) or `returnUrl` is bad (`invalid_argument`).
    #[wasm_bindgen(unchecked_return_type = "Promise<CheckoutState>")]
    pub fn pay(&self, #[wasm_bindgen(unchecked_param_type = "PayOptions")] options: JsValue) -> Promise {
        if let Some(p) = self.inner.flight.borrow().clone() {
            return p;
        }
        let Some(return_url) = get(&options, "returnUrl").as_string() else {
            return Promise::reject(&to_js(&Error::invalid_argument("options.returnUrl must be a string")));
        };
        run_flight(&self.inner, return_url, false)
    }

    /// Abandon the checkout before any payment exists.
    ///
    /// # Errors
    /// `invalid_state` while a payment is in progress or unsettled, after
    /// success, or when already cancelled.
    pub fn cancel(&self) -> std::result::Result<(), JsValue> {
        self.inner.check_idle_flight("cancel")?;
        self.inner.state.borrow_mut().cancel()?;
        self.inner.changed();
        if let Ok(unmount) = Reflect::get(&self.inner.adapter, &JsValue::from_str("unmount")) {
            if let Some(f) = unmount.dyn_ref::<Function>() {
                let _ = f.call0(&self.inner.adapter);
            }
        }
        Ok(())
    }
}
