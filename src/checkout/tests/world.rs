//! A small world for the protocol's tests: one storage shared by the tabs,
//! scripted answers, and a loop that drives an operation to its end while
//! recording every effect. Tests pause a run at an effect (`until`) to
//! interleave tabs by hand.

use std::collections::VecDeque;

use super::*;
use crate::checkout::protocol::{Effect, Input, Op, Operation, Outcome, Record, Refusal, Tab};
use crate::error::Error;
use crate::model::{ConfirmResponse, InitiateResponse};

/// Storage shared by the tabs: one record, and whether `setItem` throws.
#[derive(Debug, Default)]
pub(super) struct World {
    pub(super) record: Option<Record>,
    pub(super) full: bool,
    /// Another tab holds the lock.
    pub(super) locked_elsewhere: bool,
    /// Answers to confirms, in order (empty: succeeded).
    pub(super) confirms: VecDeque<crate::error::Result<ConfirmResponse>>,
    pub(super) tokens: VecDeque<String>,
    /// The tax the server adds on update (the amount is 4498 + this).
    pub(super) tax: i64,
    /// Every effect handed out, by every run.
    pub(super) log: Vec<Effect>,
    /// The cart every tab's `EmptyCart` asks (`Cart::take_paid`), when a test has one.
    pub(super) cart: Option<crate::cart::Cart>,
}

impl World {
    /// Perform one effect; `None` for `Done`.
    pub(super) fn perform(&mut self, e: &Effect) -> Input {
        self.log.push(e.clone());
        match e {
            Effect::Probe => Input::Probed(if self.full { Err("QuotaExceededError".into()) } else { Ok(()) }),
            Effect::Write { record, expect } => {
                if self.full {
                    return Input::Wrote(Err("QuotaExceededError".into()));
                }
                if !crate::checkout::protocol::write_applies(&Ok(self.record.clone()), *expect) {
                    return Input::Wrote(Ok(false));
                }
                self.record = Some((**record).clone());
                Input::Wrote(Ok(true))
            }
            Effect::StoreCurrency => Input::StoreCurrency(Ok(Some("USD".into()))),
            Effect::Initiate(_) => Input::Initiated(Ok(initiate_answer())),
            Effect::Update(u) => Input::Updated(Ok(crate::model::UpdateResponse {
                session_id: u.session_id.clone(),
                amount: 4498 + self.tax,
                currency: "USD".into(),
                breakdown: Breakdown { subtotal: 3998, shipping: 500, tax: self.tax, total: 4498 + self.tax },
            })),
            Effect::Rates(_) => Input::Rates(Ok(crate::model::ShippingRatesResponse {
                variant_rates: items()
                    .iter()
                    .map(|i| crate::model::VariantRates { variant_id: i.variant_id.clone(), profile_id: "p".into(), rates: vec![rate()] })
                    .collect(),
            })),
            Effect::Confirm(_) => Input::Confirmed(self.confirms.pop_front().unwrap_or_else(|| Ok(answer(PaymentStatus::Succeeded, None, None)))),
            Effect::AcquireLock => Input::Lock(if self.locked_elsewhere { Err(Error::invalid_state("a checkout for this cart is in progress in another tab")) } else { Ok(()) }),
            Effect::Mount(_) | Effect::UpdateAmount { .. } | Effect::NextAction(_) => Input::Adapter(Ok(())),
            Effect::CollectToken => Input::Token(Ok(self.tokens.pop_front().unwrap_or_else(|| "tok_1".into()))),
            Effect::EmptyCart { session, paid } => {
                if let Some(cart) = &mut self.cart {
                    cart.take_paid(session, paid);
                }
                Input::None
            }
            _ => Input::None,
        }
    }

    /// Drive `op` until it is done, or until `until` matches an effect
    /// (that effect is returned, not performed: pass its input to `resume`).
    pub(super) fn run(&mut self, tab: &mut Tab, op: &mut Op, input: Input, until: impl Fn(&Effect) -> bool) -> Effect {
        let mut input = input;
        loop {
            let e = op.step(tab, Ok(self.record.clone()), input);
            if matches!(e, Effect::Done(_)) || until(&e) {
                if matches!(e, Effect::Done(_)) {
                    self.log.push(e.clone());
                }
                return e;
            }
            input = self.perform(&e);
        }
    }

    /// Begin `operation` on `tab` and drive it to its end.
    pub(super) fn go(&mut self, tab: &mut Tab, operation: Operation) -> Result<Outcome, Refusal> {
        let mut op = tab.begin(operation);
        match self.run(tab, &mut op, Input::None, |_| false) {
            Effect::Done(r) => r,
            e => panic!("not done: {e:?}"),
        }
    }

    pub(super) fn count(&self, f: impl Fn(&Effect) -> bool) -> usize {
        self.log.iter().filter(|e| f(e)).count()
    }
}

pub(super) fn initiate_answer() -> InitiateResponse {
    InitiateResponse {
        processor: crate::model::Processor::Stripe,
        session_id: "ps_1".into(),
        publishable_key: "pk_test_localstripe".into(),
        amount: 3998,
        currency: "USD".into(),
        breakdown: crate::model::Breakdown { subtotal: 3998, shipping: 0, tax: 0, total: 3998 },
    }
}

pub(super) fn start() -> Operation {
    Operation::Start { items: items(), currency: "USD".into(), from_cart: true }
}

pub(super) fn pay() -> Operation {
    Operation::Pay { return_url: URL.into() }
}

/// A tab of the world's record that opened it (as `resume` does).
pub(super) fn opened(w: &mut World) -> Tab {
    let mut tab = Tab::new(true);
    let r = w.go(&mut tab, Operation::Resume { items: None, from_cart: true });
    assert!(matches!(r, Ok(Outcome::Opened { .. })), "{r:?}");
    tab
}

/// A tab that started a checkout and chose shipping.
pub(super) fn shipped(w: &mut World) -> Tab {
    let mut tab = Tab::new(true);
    w.go(&mut tab, start()).unwrap();
    w.go(&mut tab, Operation::ShippingOptions { country: "GB".into() }).unwrap();
    w.go(&mut tab, Operation::SelectShipping { rate_id: "rate_std".into(), address: address() }).unwrap();
    tab
}

pub(super) fn refusal(r: Result<Outcome, Refusal>) -> Error {
    r.unwrap_err().error().clone()
}
