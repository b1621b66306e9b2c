//! What a live `Checkout` ([`super::checkout`]) holds to execute the
//! checkout protocol ([`crate::checkout::protocol`]): the tab's protocol
//! value, the client, the adapter, the storage and key of the record every
//! tab of the origin shares, the cart, the listeners, the running payment.
//! The storage I/O the protocol asks for is here: the record read before
//! every step ([`Inner::read`]), the conditional write ([`Inner::write`]),
//! the probe, the cart emptied, other tabs' writes followed (the `storage`
//! event). It decides nothing: [`super::checkout_exec`] runs the steps.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, JSON};
use wasm_bindgen::prelude::*;

use super::checkout_options::{cart_items, stored};
use super::interop::to_js;
use super::js::{error_text, get};
use super::listeners::{emit, EventListener, Listeners};
use super::lock;
use super::payment_api::JsClient;
use super::storage::Store;
use crate::checkout::protocol::{write_applies, Operation, Record, Stored, Tab};
use crate::checkout::crosstab::after_paying;
use crate::checkout::stored::head as stored_head;
use crate::checkout::state::CheckoutState;
use crate::model::PaymentItem;

type JsResult<T> = std::result::Result<T, JsValue>;

/// The state as a page is given it: its members and what the page may do now
/// ([`CheckoutState::actions`]: `canSelectShipping`, `canPay`, `canCancel`).
/// The stored record is the state's members alone ([`Inner::write`]).
fn view(state: &CheckoutState) -> crate::error::Result<JsValue> {
    let (members, actions) = (to_js(state)?, to_js(&state.actions())?);
    let target: &js_sys::Object = members.unchecked_ref();
    Ok(js_sys::Object::assign(target, actions.unchecked_ref()).into())
}

#[wasm_bindgen]
extern "C" {
    /// A processor adapter (a JS object, `js/adapters/adapter.js`).
    #[wasm_bindgen(typescript_type = "ProcessorAdapter")]
    pub type Adapter;
    #[wasm_bindgen(method, catch)]
    pub(super) fn mount(this: &Adapter, session: &JsValue) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = updateAmount)]
    pub(super) fn update_amount(this: &Adapter, amount: f64, currency: &str) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = collectToken)]
    pub(super) fn collect_token(this: &Adapter) -> JsResult<JsValue>;
    #[wasm_bindgen(method, catch, js_name = handleNextAction)]
    pub(super) fn handle_next_action(this: &Adapter, client_secret: &str) -> JsResult<JsValue>;
}

/// What `start` and `resume` share: the adapter, the storage, the key, the cart.
pub(super) struct Common {
    pub(super) adapter: Adapter,
    pub(super) place: Place,
    pub(super) key: String,
    /// The cart paid for (`options.cart`): emptied when its payment succeeds.
    pub(super) cart: Option<JsValue>,
}

/// Where the record every checkout of the cart reads is kept.
pub(super) enum Place {
    /// `localStorage` (or `options.storage`): every tab of the origin reads it.
    Storage(Store),
    /// This page's memory ([`MEMORY`]: `storage: null`, or no `localStorage` here).
    Memory,
    /// Reading `localStorage` threw (storage disabled), with what it said: the
    /// record cannot be kept, so every write is refused and `start` gives the
    /// protocol's typed error before any session, never a checkout silently
    /// kept in memory.
    Disabled(String),
}

thread_local! {
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
    /// The records of the checkouts kept in this page's memory (`storage: null`,
    /// or no `localStorage` at all), by key: shared by the checkouts of this
    /// page as `localStorage` is by the tabs, so a checkout let go with its
    /// payment unsettled (or paid) is found by the next one the page opens for
    /// the same cart; other tabs do not see it and a reload forgets it.
    static MEMORY: RefCell<Vec<(String, Record)>> = const { RefCell::new(Vec::new()) };
}

pub(super) struct Inner {
    pub(super) id: u32,
    pub(super) client: JsClient,
    pub(super) adapter: Adapter,
    pub(super) place: Place,
    pub(super) key: String,
    /// The cart paid for, emptied when the payment succeeds.
    pub(super) cart: Option<JsValue>,
    /// This tab's side of the protocol. Borrowed only within a step.
    pub(super) tab: RefCell<Tab>,
    pub(super) listeners: RefCell<Listeners>,
    /// The running payment's promise (single flight).
    pub(super) flight: RefCell<Option<Promise>>,
    /// Follows other tabs' writes of the record (the `storage` event).
    pub(super) follow: RefCell<Option<EventListener>>,
    /// Resolves `open`'s wait for the first answer of a resumed payment.
    pub(super) first_answer: RefCell<Option<Function>>,
}

impl Inner {
    pub(super) fn new(client: JsClient, c: Common) -> Rc<Self> {
        let id = NEXT_ID.with(|n| {
            let id = n.get();
            n.set(id.wrapping_add(1));
            id
        });
        let tab = Tab::new(c.cart.is_some());
        Rc::new(Self {
            id,
            client,
            adapter: c.adapter,
            place: c.place,
            key: c.key,
            cart: c.cart,
            tab: RefCell::new(tab),
            listeners: RefCell::default(),
            flight: RefCell::new(None),
            follow: RefCell::new(None),
            first_answer: RefCell::new(None),
        })
    }

    /// Feed other tabs' writes of the record (the `storage` event for its
    /// key, or storage cleared) to the protocol ([`Operation::Follow`]).
    pub(super) fn follow(self: &Rc<Self>) {
        let Some(window) = web_sys::window() else { return };
        let weak = Rc::downgrade(self);
        let listener = EventListener::new(&window, "storage", move |e: JsValue| {
            let Some(inner) = weak.upgrade() else { return };
            let key = get(&e, "key");
            if key.is_null() || key.as_string().as_deref() == Some(inner.key.as_str()) {
                let _ = inner.run_now(Operation::Follow);
            }
        });
        *self.follow.borrow_mut() = listener;
    }

    pub(super) fn lock_name(&self) -> String {
        lock::name(&self.key)
    }

    pub(super) fn state_js(&self) -> JsResult<JsValue> {
        view(self.tab.borrow().state()).map_err(JsValue::from)
    }

    /// The record as storage holds it now (an unreadable one is kept aside
    /// and the error says where; one that may name an unsettled payment is
    /// kept in place: `checkout::kept`).
    pub(super) fn read(&self) -> Stored {
        match &self.place {
            Place::Storage(s) => stored(s, &self.key),
            Place::Memory => Ok(MEMORY.with(|m| m.borrow().iter().find(|(k, _)| *k == self.key).map(|(_, r)| r.clone()))),
            Place::Disabled(_) => Ok(None),
        }
    }

    /// Write `record` if the stored revision is `expect` (the protocol's
    /// [`write_applies`] decides, as in the simulation): `Ok(false)` when
    /// another revision is stored, `Err(why)` when storage refused it.
    pub(super) fn write(&self, record: &Record, expect: Option<u64>) -> Result<bool, String> {
        if !write_applies(&self.read(), expect) {
            return Ok(false);
        }
        let s = match &self.place {
            Place::Storage(s) => s,
            Place::Disabled(why) => return Err(why.clone()),
            Place::Memory => {
                MEMORY.with(|m| {
                    let mut m = m.borrow_mut();
                    m.retain(|(k, _)| *k != self.key);
                    m.push((self.key.clone(), record.clone()));
                });
                return Ok(true);
            }
        };
        let text = to_js(&record.state)
            .ok()
            .and_then(|state| {
                let form = js_sys::Object::new();
                for (k, n) in stored_head(record.revision) {
                    #[allow(clippy::cast_precision_loss)] // the version and a revision: small counts
                    js_sys::Reflect::set(&form, &k.into(), &(n as f64).into()).ok()?;
                }
                JSON::stringify(&js_sys::Object::assign(&form, state.unchecked_ref())).ok()
            })
            .and_then(|t| t.as_string())
            .ok_or_else(|| "the record could not be serialized".to_owned())?;
        s.set_item(&self.key, &text).map(|()| true).map_err(|e| error_text(&e))
    }

    /// Whether storage takes a write at all (a scratch key, removed again).
    pub(super) fn probe(&self) -> Result<(), String> {
        let s = match &self.place {
            Place::Storage(s) => s,
            Place::Disabled(why) => return Err(why.clone()),
            Place::Memory => return Ok(()),
        };
        let key = format!("{}:probe", self.key);
        s.set_item(&key, "1").map_err(|e| error_text(&e))?;
        let _ = s.remove_item(&key);
        Ok(())
    }

    pub(super) fn emit(&self, state: &CheckoutState) {
        let Ok(js) = view(state) else { return };
        let listeners = self.listeners.borrow().snapshot();
        emit(listeners, &js);
    }

    /// The payment of checkout `session` for `paid` succeeded: the cart takes
    /// it out, once per checkout whichever tabs ask (the SDK's `Cart`:
    /// `takePaid`, which decides by the session in its saved form). A cart
    /// without `takePaid` (an object of the storefront's own) has the paid
    /// quantities subtracted as [`after_paying`] says of what it holds now.
    pub(super) fn empty_cart(&self, session: &str, paid: &[PaymentItem]) {
        let Some(cart) = &self.cart else { return };
        if let (Some(f), Ok(items)) = (get(cart, "takePaid").dyn_ref::<Function>(), to_js(paid)) {
            let _ = f.call2(cart, &session.into(), &items);
            return;
        }
        let Ok(now) = cart_items(cart) else { return };
        let left = after_paying(&now, paid);
        let call = |m: &str, args: &[JsValue]| {
            if let Some(f) = get(cart, m).dyn_ref::<Function>() {
                let _ = f.apply(cart, &args.iter().collect());
            }
        };
        if left.len() == now.len() && left.iter().all(|(_, q)| *q == 0) {
            call("clear", &[]);
            return;
        }
        for (variant, quantity) in left {
            if quantity == 0 {
                call("remove", &[variant.into()]);
            } else {
                call("setQuantity", &[variant.into(), quantity.into()]);
            }
        }
    }

    /// Unmount the adapter's form, when the adapter can.
    pub(super) fn unmount(&self) {
        if let Some(unmount) = get(&self.adapter, "unmount").dyn_ref::<Function>() {
            // the form is going away: its promise, if any, is not waited for
            let _ = unmount.call0(&self.adapter);
        }
    }

    /// Tell `open` that the first confirm of a resumed payment was answered
    /// (or that the run ended without one).
    pub(super) fn answered(&self) {
        if let Some(resolve) = self.first_answer.borrow_mut().take() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    }
}
