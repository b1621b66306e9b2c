//! A live `Checkout`'s state and its record ([`super::checkout`]): what one
//! checkout holds ([`Inner`]), the record every tab of the origin shares
//! (re-read before each action, written after each change, other tabs'
//! writes followed through the `storage` event), its listeners, the lock
//! let go once the checkout is over and the cart emptied once paid. The
//! payment run is [`super::checkout_pay`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, JSON};
use wasm_bindgen::prelude::*;

use super::checkout_options::{cart_items, keep_aside, stored};
use super::interop::to_js;
use super::js::get;
use super::listeners::{emit, EventListener, Listeners};
use super::lock;
use super::payment_api::JsClient;
use super::storage::Store;
use crate::checkout::record::{after_paying, moved_on, reconcile, Reconciled};
use crate::checkout::stored::Stored;
use crate::checkout::CheckoutState;
use crate::error::{Error, ErrorCode, Result};
use crate::shipping::ShippingOption;

type JsResult<T> = std::result::Result<T, JsValue>;

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
    pub(super) storage: Option<Store>,
    pub(super) key: String,
    /// The cart paid for (`options.cart`): emptied when its payment succeeds.
    pub(super) cart: Option<JsValue>,
}

thread_local! {
    static NEXT_ID: Cell<u32> = const { Cell::new(1) };
}

pub(super) struct Inner {
    pub(super) id: u32,
    pub(super) client: JsClient,
    pub(super) adapter: Adapter,
    pub(super) storage: Option<Store>,
    pub(super) key: String,
    /// The cart paid for, emptied when the payment succeeds.
    pub(super) cart: Option<JsValue>,
    pub(super) state: RefCell<CheckoutState>,
    pub(super) listeners: RefCell<Listeners>,
    /// The running payment's promise (single flight).
    pub(super) flight: RefCell<Option<Promise>>,
    /// The last shipping options and the country they were fetched for.
    pub(super) options: RefCell<Option<(String, Vec<ShippingOption>)>>,
    /// Follows other tabs' writes of the record (the `storage` event).
    pub(super) follow: RefCell<Option<EventListener>>,
    /// The cart was emptied of what this checkout paid for.
    pub(super) emptied: Cell<bool>,
    /// Resolves `open`'s wait for the first answer of a resumed payment.
    pub(super) first_answer: RefCell<Option<Function>>,
}

impl Inner {
    pub(super) fn new(client: JsClient, c: Common, state: CheckoutState) -> Rc<Self> {
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
            cart: c.cart,
            state: RefCell::new(state),
            listeners: RefCell::default(),
            flight: RefCell::new(None),
            options: RefCell::new(None),
            follow: RefCell::new(None),
            emptied: Cell::new(false),
            first_answer: RefCell::new(None),
        })
    }

    /// Follow other tabs' writes of the record: adopt them (when no payment
    /// runs here) and tell the listeners, so every open tab shows what
    /// happened (e.g. the order once another tab's payment succeeded).
    pub(super) fn follow(self: &Rc<Self>) {
        let Some(window) = web_sys::window() else { return };
        let weak = Rc::downgrade(self);
        let listener = EventListener::new(&window, "storage", move |e: JsValue| {
            let Some(inner) = weak.upgrade() else { return };
            let key = get(&e, "key");
            if !(key.is_null() || key.as_string().as_deref() == Some(inner.key.as_str())) || inner.flight.borrow().is_some() {
                return;
            }
            let _ = inner.sync();
        });
        *self.follow.borrow_mut() = listener;
    }

    pub(super) fn lock_name(&self) -> String {
        lock::name(&self.key)
    }

    pub(super) fn state_js(&self) -> JsResult<JsValue> {
        to_js(&*self.state.borrow()).map_err(JsValue::from)
    }

    /// The record as it is now (`None`: nothing kept, or no storage).
    pub(super) fn record(&self) -> Result<Option<CheckoutState>> {
        stored(self.storage.as_ref(), &self.key).map_err(|e| keep_aside(self.storage.as_ref(), &self.key, e))
    }

    /// Write the state, unless another tab's record must win: a record of
    /// another checkout is never replaced while its payment is unsettled,
    /// and a finished record of this session is never turned back (then it
    /// is adopted). `Ok(false)`: adopted instead of written.
    pub(super) fn write(&self) -> Result<bool> {
        let Some(s) = &self.storage else { return Ok(true) };
        let ours = self.state.borrow().clone();
        // A new session (`initiated`) replaces whatever finished record is there.
        let new = matches!(ours, CheckoutState::Initiated(_));
        if let Ok(Some(theirs)) = self.record() {
            let same_session = theirs.session().map(|x| &x.session_id) == ours.session().map(|x| &x.session_id);
            // A paid record is never written over; nor any finished one by a live state.
            let wins = matches!(theirs, CheckoutState::Succeeded(_)) || !ours.is_final();
            if same_session && !new && theirs.is_final() && theirs != ours && wins {
                self.adopt(theirs);
                return Ok(false);
            }
            if (!same_session || new) && theirs.payment_unsettled() {
                return Err(Error::invalid_state(
                    "another tab's checkout of this cart has a payment whose outcome is not known yet; open it with Checkout.resume() ?? Checkout.start()",
                ));
            }
        }
        // A full or disabled storage only costs the ability to resume;
        // the server's idempotent confirm still prevents double charges.
        if let Some(text) = to_js(&Stored::of(&ours)).ok().and_then(|v| JSON::stringify(&v).ok()).and_then(|t| t.as_string()) {
            let _ = s.set_item(&self.key, &text);
        }
        Ok(true)
    }

    /// Record the new state (see [`Self::write`]), tell the listeners, let the
    /// lock go once the checkout is over, and empty the cart once paid.
    /// `Ok(false)`: another tab's finished record was adopted instead.
    pub(super) fn changed(&self) -> Result<bool> {
        let written = self.write()?;
        if written {
            self.emit();
        }
        Ok(written)
    }

    /// Take another tab's state of this session and tell the listeners.
    pub(super) fn adopt(&self, theirs: CheckoutState) {
        *self.state.borrow_mut() = theirs;
        self.emit();
    }

    pub(super) fn emit(&self) {
        let state = self.state.borrow().clone();
        if state.is_final() {
            lock::release(&self.lock_name(), self.id);
        }
        if matches!(state, CheckoutState::Succeeded(_)) {
            self.empty_cart();
        }
        let Ok(js) = to_js(&state) else { return };
        let listeners = self.listeners.borrow().snapshot();
        emit(listeners, &js);
    }

    /// The payment succeeded: take what was paid for out of the cart (a
    /// persistent cart saves, and its other tabs follow), once per checkout.
    /// Items the buyer added meanwhile stay ([`after_paying`]).
    pub(super) fn empty_cart(&self) {
        let Some(cart) = &self.cart else { return };
        if self.emptied.replace(true) {
            return;
        }
        let paid = self.state.borrow().session().map(|s| s.items.clone()).unwrap_or_default();
        let Ok(now) = cart_items(cart) else { return };
        let left = after_paying(&now, &paid);
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

    /// Before an action: the live record, re-read. Another tab's progress on
    /// this session is adopted (`Ok(true)`); a record of another checkout, or
    /// one cleared while nothing is unsettled here, refuses the action.
    pub(super) fn sync(&self) -> Result<bool> {
        if self.storage.is_none() {
            return Ok(false);
        }
        let theirs = self.record()?;
        let verdict = reconcile(&self.state.borrow(), theirs)?;
        match verdict {
            Reconciled::Current => Ok(false),
            Reconciled::Adopt(theirs) => {
                self.adopt(*theirs);
                Ok(true)
            }
            Reconciled::Restore => {
                self.write()?;
                Ok(false)
            }
        }
    }

    /// Run `step` on the live record (see [`Self::sync`]); a refusal after
    /// adopting another tab's progress says what happened.
    pub(super) fn act<T>(&self, step: impl FnOnce(&mut CheckoutState) -> Result<T>) -> Result<T> {
        let adopted = self.sync()?;
        let r = step(&mut self.state.borrow_mut());
        r.map_err(|e| if adopted && e.code == ErrorCode::InvalidState { moved_on(&self.state.borrow(), e) } else { e })
    }

    pub(super) fn idle(&self, action: &str) -> Result<()> {
        if self.flight.borrow().is_some() {
            return Err(Error::invalid_state(format!("cannot {action} while a payment is in progress")));
        }
        Ok(())
    }
}
