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
use super::payment_api::{self, rates, store_currency};
use super::timers::delay;
use super::interop::arg_from_js;
use crate::checkout::answer::{read_confirm, ConfirmAnswer};
use crate::checkout::protocol::{Effect, Input, Op, Operation, Outcome, Refusal};
use crate::error::{Error, ErrorCode};
use crate::jsoncheck::Root;
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
            Effect::EmptyCart { session, paid } => {
                self.empty_cart(session, paid);
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

    /// Perform an effect that is awaited: the JS call made now ([`Self::call`]), its promise
    /// awaited (one await for every effect but the lock's), its answer read ([`read`]).
    async fn perform(&self, effect: Effect) -> Performed {
        if let Effect::AcquireLock = effect {
            return (Input::Lock(lock::acquire(&self.lock_name(), self.id).await), None);
        }
        match self.call(effect) {
            Ok((call, answer)) => read(answer, settle(call).await),
            Err(input) => (input, None),
        }
    }

    /// Make the JS call an awaited effect asks for: its result (a promise or a plain value)
    /// and what the answer is; `Err` with the input at once when there is nothing to call.
    fn call(&self, effect: Effect) -> Result<(JsResult<JsValue>, Answer), Input> {
        Ok(match effect {
            Effect::StoreCurrency => (self.client.store(), Answer::StoreCurrency),
            Effect::Initiate(body) => (self.client.initiate(&body), Answer::Initiated),
            Effect::Rates(body) => (self.client.shipping_rates(&body), Answer::Rates),
            Effect::Update(body) => (self.client.update(&body), Answer::Updated),
            Effect::Confirm(body) => (self.client.confirm(&body), Answer::Confirmed),
            Effect::Mount(session) => match to_js(&session) {
                Ok(arg) => (self.adapter.mount(&arg), Answer::Adapter),
                Err(e) => return Err(Input::Adapter(Err(e))),
            },
            Effect::UpdateAmount { amount, currency } => {
                // i64 minor units → JS number: checked to be a safe integer.
                match crate::money::check_safe(amount) {
                    #[allow(clippy::cast_precision_loss)] // a safe integer, checked above
                    Ok(a) => (self.adapter.update_amount(a as f64, &currency), Answer::Adapter),
                    Err(e) => return Err(Input::Adapter(Err(e))),
                }
            }
            Effect::CollectToken => (self.adapter.collect_token(), Answer::Token),
            Effect::NextAction(secret) => (self.adapter.handle_next_action(&secret), Answer::Adapter),
            Effect::Sleep(ms) => (Ok(delay(ms).into()), Answer::Slept),
            // The synchronous ones never reach here (`sync_effect`), nor the lock (`perform`).
            _ => return Err(Input::None),
        })
    }
}

/// What the settled result of an awaited effect's JS call is.
#[derive(Clone, Copy)]
enum Answer {
    StoreCurrency,
    Initiated,
    Rates,
    Updated,
    Confirmed,
    /// The adapter's `mount`, `updateAmount`, `handleNextAction`: nothing but success.
    Adapter,
    Token,
    Slept,
}

/// The settled result of an awaited effect's JS call as the protocol's input.
fn read(answer: Answer, settled: JsResult<JsValue>) -> Performed {
    match answer {
        Answer::StoreCurrency => js(settled.map(|v| store_currency(&v)), Input::StoreCurrency),
        Answer::Initiated => js(settled.and_then(|v| payment_api::answer(v, "initiatePayment answer", Root::InitiateResponse)), Input::Initiated),
        Answer::Rates => js(settled.and_then(rates).map(|variant_rates| ShippingRatesResponse { variant_rates }), Input::Rates),
        Answer::Updated => js(settled.and_then(|v| payment_api::answer(v, "updatePayment answer", Root::UpdateResponse)), Input::Updated),
        // A settled answer that does not read is an unknown outcome (`checkout::answer`), never a
        // failure: the same token is confirmed again.
        Answer::Confirmed => match settled {
            Ok(v) => (Input::Confirmed(read_confirm(arg_from_js::<ConfirmAnswer>(v, "confirmPayment answer", None, false))), None),
            Err(e) => js(Err(e), Input::Confirmed),
        },
        Answer::Adapter => js(settled.map(drop), Input::Adapter),
        Answer::Token => match settled {
            Ok(v) => (Input::Token(Ok(v.as_string().unwrap_or_default())), None),
            Err(e) => (Input::Token(Err(Error::new(ErrorCode::Internal, error_text(&e)))), Some(e)),
        },
        Answer::Slept => (Input::None, None),
    }
}

fn finish(r: Result<Outcome, Refusal>, passed: Option<JsValue>) -> JsResult<Outcome> {
    match r {
        Ok(o) => Ok(o),
        Err(Refusal::Error(e)) => Err(e.into()),
        Err(Refusal::PassOn(e)) => Err(passed.unwrap_or_else(|| e.into())),
    }
}
