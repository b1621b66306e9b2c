//! The executor of the checkout protocol in the browser (and node): it runs
//! an operation's steps ([`crate::checkout::protocol::Op::step`]), each with
//! the record read from storage right before it, performs the effect each
//! step asks for — the client's requests, the conditional write, the lock,
//! timers, the processor adapter, the cart, the listeners — and feeds the
//! result back. It decides nothing.
//!
//! Storage effects are performed in the same turn as the step that asked
//! for them (storage is synchronous); requests, waits, the lock and the
//! adapter are awaited. The tab's protocol value is borrowed only within a
//! step, never across an `.await`.

use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::checkout_live::Inner;
use super::interop::to_js;
use super::js::{error_text, get};
use super::lock;
use super::timers::sleep;
use crate::checkout::protocol::{Effect, Input, Op, Operation, Outcome, Refusal};
use crate::error::{Error, ErrorCode};
use crate::model::ShippingRatesResponse;

type JsResult<T> = std::result::Result<T, JsValue>;

/// Await whatever a JS method returned (a promise or a plain value).
pub(super) async fn settle(call: JsResult<JsValue>) -> JsResult<JsValue> {
    JsFuture::from(Promise::resolve(&call?)).await
}

/// A JS error as the protocol sees it: its `code` when it is a `CirrusError`'s.
fn error_of(e: &JsValue) -> Error {
    let code = serde_wasm_bindgen::from_value::<ErrorCode>(get(e, "code")).unwrap_or(ErrorCode::Internal);
    Error::new(code, error_text(e))
}

/// What an effect gave: the protocol's input, and the JS error to pass on
/// if the operation ends with it ([`Refusal::PassOn`]).
type Performed = (Input, Option<JsValue>);

fn js<T>(r: JsResult<T>, input: impl FnOnce(crate::error::Result<T>) -> Input) -> Performed {
    match r {
        Ok(v) => (input(Ok(v)), None),
        Err(e) => (input(Err(error_of(&e))), Some(e)),
    }
}

impl Inner {
    /// Run `operation` to its end.
    ///
    /// # Errors
    /// The operation's refusal: a `CirrusError`, or the error a request or
    /// the adapter threw, passed on as it was.
    pub(super) async fn run(self: &Rc<Self>, operation: Operation) -> JsResult<Outcome> {
        let op = self.begin(operation);
        self.run_op(op).await
    }

    /// Begin an operation now (a payment run is in flight from here on).
    pub(super) fn begin(&self, operation: Operation) -> Op {
        self.tab.borrow_mut().begin(operation)
    }

    /// Run an operation begun with [`Self::begin`] to its end.
    ///
    /// # Errors
    /// As [`Self::run`].
    pub(super) async fn run_op(self: &Rc<Self>, mut op: Op) -> JsResult<Outcome> {
        let mut input = Input::None;
        let mut passed: Option<JsValue> = None;
        loop {
            let effect = self.step(&mut op, input);
            if let Some(done) = self.sync_effect(&effect) {
                input = done;
                continue;
            }
            let (next, error) = match effect {
                Effect::Done(r) => return finish(r, passed),
                e => self.perform(e).await,
            };
            input = next;
            passed = error;
        }
    }

    /// Run an operation whose effects are all synchronous (`cancel`, `free`,
    /// following another tab's write); an adapter call it asks for is made
    /// without waiting for it.
    pub(super) fn run_now(&self, operation: Operation) -> JsResult<Outcome> {
        let mut op = self.tab.borrow_mut().begin(operation);
        let mut input = Input::None;
        loop {
            let effect = self.step(&mut op, input);
            if let Some(done) = self.sync_effect(&effect) {
                input = done;
                continue;
            }
            input = match effect {
                Effect::Done(r) => return finish(r, None),
                Effect::UpdateAmount { amount, currency } => {
                    #[allow(clippy::cast_precision_loss)] // minor units of a checked amount
                    let _ = self.adapter.update_amount(amount as f64, &currency);
                    Input::Adapter(Ok(()))
                }
                // Cancel, free and following another tab ask for nothing awaited.
                _ => Input::Adapter(Err(Error::invalid_state("checkout protocol: an effect that must be awaited, in an operation run synchronously"))),
            };
        }
    }

    fn step(&self, op: &mut Op, input: Input) -> Effect {
        let stored = self.read();
        op.step(&mut self.tab.borrow_mut(), stored, input)
    }

    /// Perform an effect that needs no waiting (storage, listeners, the
    /// lock's release, the cart), in the same turn as its step.
    fn sync_effect(&self, effect: &Effect) -> Option<Input> {
        Some(match effect {
            Effect::Probe => Input::Probed(self.probe()),
            Effect::Write { record, expect } => Input::Wrote(self.write(record, *expect)),
            Effect::ReleaseLock => {
                lock::release(&self.lock_name(), self.id);
                Input::None
            }
            Effect::Unmount => {
                self.unmount();
                Input::None
            }
            Effect::EmptyCart { paid } => {
                self.empty_cart(paid);
                Input::None
            }
            Effect::Emit(state) => {
                self.emit(state);
                Input::None
            }
            Effect::FirstAnswer => {
                self.answered();
                Input::None
            }
            _ => return None,
        })
    }

    /// Perform an effect that is awaited.
    async fn perform(&self, effect: Effect) -> Performed {
        match effect {
            Effect::StoreCurrency => js(self.client.store_currency().await, Input::StoreCurrency),
            Effect::Initiate(body) => js(self.client.initiate(&body).await, Input::Initiated),
            Effect::Rates(body) => js(self.client.shipping_rates(&body).await.map(|variant_rates| ShippingRatesResponse { variant_rates }), Input::Rates),
            Effect::Update(body) => js(self.client.update(&body).await, Input::Updated),
            Effect::Confirm(body) => js(self.client.confirm(&body).await, Input::Confirmed),
            Effect::AcquireLock => (Input::Lock(lock::acquire(&self.lock_name(), self.id).await), None),
            Effect::Mount(session) => match to_js(&session) {
                Ok(arg) => js(settle(self.adapter.mount(&arg)).await.map(drop), Input::Adapter),
                Err(e) => (Input::Adapter(Err(e)), None),
            },
            Effect::UpdateAmount { amount, currency } => {
                // i64 minor units → JS number: checked to be a safe integer.
                match crate::money::check_safe(amount) {
                    #[allow(clippy::cast_precision_loss)] // a safe integer, checked above
                    Ok(a) => js(settle(self.adapter.update_amount(a as f64, &currency)).await.map(drop), Input::Adapter),
                    Err(e) => (Input::Adapter(Err(e)), None),
                }
            }
            Effect::CollectToken => match settle(self.adapter.collect_token()).await {
                Ok(v) => (Input::Token(Ok(v.as_string().unwrap_or_default())), None),
                Err(e) => (Input::Token(Err(Error::new(ErrorCode::Internal, error_text(&e)))), Some(e)),
            },
            Effect::NextAction(secret) => js(settle(self.adapter.handle_next_action(&secret)).await.map(drop), Input::Adapter),
            Effect::Sleep(ms) => {
                sleep(ms).await;
                (Input::None, None)
            }
            // The synchronous ones never reach here (`sync_effect`).
            _ => (Input::None, None),
        }
    }
}

fn finish(r: Result<Outcome, Refusal>, passed: Option<JsValue>) -> JsResult<Outcome> {
    match r {
        Ok(o) => Ok(o),
        Err(Refusal::Error(e)) => Err(e.into()),
        Err(Refusal::PassOn(e)) => Err(passed.unwrap_or_else(|| e.into())),
    }
}
