//! Shipping and cancelling: `shippingOptions` (on the live record),
//! `selectShipping` (holds the cart's lock: it changes what will be
//! charged; the answer applied to the record as it is then, and the form
//! told the new amount) and `cancel` (on the live record: a tab that read it
//! earlier cannot cancel a payment another tab made).

use std::collections::VecDeque;

use super::tab::{wrote, Synced};
use super::{refuse, Effect, Input, Operation, Outcome, Record, Refusal, Stored, Tab};
use crate::checkout::state::{CheckoutState, ShippingChoice};
use crate::checkout::validate_address;
use crate::error::{Error, Result};
use crate::model::{ShippingAddress, ShippingRatesRequest, ShippingRatesResponse, UpdateRequest, UpdateResponse};
use crate::money::Currency;
use crate::shipping::usable_rates;

#[derive(Debug, Clone)]
pub(super) enum Stage {
    Options { country: String },
    /// Waiting for the rates of `ids`.
    Rates { country: String, ids: Vec<String>, subtotal: i64, currency: String },
    Select { rate_id: String, address: Box<ShippingAddress> },
    /// Waiting for the lock, then the update.
    Lock { choice: Box<ShippingChoice>, body: Box<UpdateRequest> },
    Update { choice: Box<ShippingChoice> },
    /// Waiting for the write of the chosen shipping.
    Written { choice: Box<ShippingChoice>, answer: UpdateResponse },
    /// Waiting for the form to show the new amount.
    Shown,
    Cancel,
    CancelWritten,
    Over,
}

impl Stage {
    pub(super) fn begin(op: Operation) -> Self {
        match op {
            Operation::ShippingOptions { country } => Self::Options { country },
            Operation::SelectShipping { rate_id, address } => Self::Select { rate_id, address: Box::new(address) },
            _ => Self::Cancel,
        }
    }

    pub(super) fn step(&mut self, tab: &mut Tab, stored: Stored, input: Input, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>) -> Effect {
        // Where the operation goes next is set by the step that decides it (over unless set).
        let stage = core::mem::replace(self, Self::Over);
        let effect = advance(stage, self, tab, stored, input, q, p).unwrap_or_else(refuse);
        if let Effect::Done(_) = effect {
            *self = Self::Over;
        }
        effect
    }
}

fn bad(message: &str) -> Error {
    Error::invalid_argument(message)
}

fn advance(stage: Stage, at: &mut Stage, tab: &mut Tab, stored: Stored, input: Input, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>) -> Result<Effect> {
    let record = stored?;
    let record = record.as_ref();
    Ok(match (stage, input) {
        (Stage::Options { country }, _) => {
            if tab.sync(record, q)? == Synced::Restore {
                q.push_back(tab.write_back(record));
            }
            let (ids, subtotal, currency) = tab.look(record, q, |state| {
                let session = state.shipping_session()?;
                let ids: Vec<String> = session.items.iter().map(|i| i.variant_id.clone()).collect();
                Ok((ids, session.breakdown.subtotal, session.currency.clone()))
            })?;
            Currency::from_code(&currency)?;
            // No `orderTotal`: the band is checked exactly on minor units.
            let body = ShippingRatesRequest { variant_ids: ids.clone(), country: country.clone(), order_total: None };
            *at = Stage::Rates { country, ids, subtotal, currency };
            Effect::Rates(body)
        }
        (Stage::Rates { country, ids, subtotal, currency }, Input::Rates(r)) => {
            let answer: ShippingRatesResponse = match r {
                Ok(a) => a,
                Err(e) => return Ok(Effect::Done(Err(Refusal::PassOn(e)))),
            };
            let id_refs: Vec<&str> = ids.iter().map(String::as_str).collect();
            let options = usable_rates(&answer, &id_refs, subtotal, Currency::from_code(&currency)?)?;
            tab.options = Some((country, options.clone()));
            Effect::Done(Ok(Outcome::Options(options)))
        }
        (Stage::Select { rate_id, address }, _) => {
            tab.idle("select shipping")?;
            tab.look(record, q, |s| s.shipping_session().map(drop))?;
            // The address's own rules first ("us" is refused as not uppercase, not as another country).
            validate_address(&address)?;
            let rate = {
                let Some((country, list)) = tab.options.as_ref() else {
                    return Err(Error::invalid_state("call shippingOptions(country) before selectShipping"));
                };
                if *country != address.country {
                    let a = format!("{:?}", &address.country);
                    return Err(bad(&format!(
                        "shippingAddress.country {a} differs from the country of the shipping options ({country:?}); call shippingOptions({a}) first"
                    )));
                }
                let found = list.iter().find(|o| o.rate.id == rate_id).map(|o| o.rate.clone());
                found.ok_or_else(|| bad(&format!("shipping rate {:?} is not one of the options for {country}", &rate_id)))?
            };
            let body = Box::new(tab.state.update_request(&rate, &address)?);
            // Changing what will be charged holds the cart's lock (issue 31).
            *at = Stage::Lock { choice: Box::new(ShippingChoice { rate, address: *address }), body };
            Effect::AcquireLock
        }
        (Stage::Lock { choice, body }, Input::Lock(r)) => {
            r?;
            tab.lock = true;
            *at = Stage::Update { choice };
            Effect::Update(body)
        }
        (Stage::Update { choice }, Input::Updated(r)) => match r {
            Ok(answer) => choose(tab, record, q, choice, answer, p, at)?,
            Err(e) => Effect::Done(Err(Refusal::PassOn(e))),
        },
        // Written: the record is this tab's copy (`Op::step` committed it).
        (Stage::Written { choice, answer }, Input::Wrote(r)) => {
            if wrote(r, "the shipping choice was not recorded")? {
                shown(tab, q, at)
            } else {
                // Another tab wrote meanwhile: the answer applies to the record as it is now, or not at all.
                choose(tab, record, q, choice, answer, p, at)?
            }
        }
        (Stage::Shown, Input::Adapter(r)) => match r {
            Ok(()) => Effect::Done(Ok(Outcome::State)),
            Err(e) => Effect::Done(Err(Refusal::PassOn(e))),
        },
        (Stage::Cancel, _) => {
            tab.idle("cancel")?;
            let (next, ()) = tab.act(record, q, CheckoutState::cancel)?;
            *at = Stage::CancelWritten;
            super::ask(record, next, p)
        }
        (Stage::CancelWritten, Input::Wrote(r)) => {
            if !wrote(r, "the checkout was not cancelled")? {
                return advance(Stage::Cancel, at, tab, Ok(record.cloned()), Input::None, q, p);
            }
            Effect::Done(Ok(Outcome::Unit))
        }
        (_, input) => super::unexpected(&input),
    })
}

/// The update's answer applied to the record as it is now (another tab may
/// have paid or cancelled meanwhile), then written.
fn choose(tab: &mut Tab, record: Option<&Record>, q: &mut VecDeque<Effect>, choice: Box<ShippingChoice>, answer: UpdateResponse, p: &mut Option<Box<Record>>, at: &mut Stage) -> Result<Effect> {
    tab.idle("select shipping")?;
    let (next, ()) = tab.act(record, q, |s| s.shipping_chosen((*choice).clone(), answer.clone()))?;
    *at = Stage::Written { choice, answer };
    Ok(super::ask(record, next, p))
}

/// The choice is this tab's state (committed): the form shows its amount.
fn shown(tab: &Tab, q: &mut VecDeque<Effect>, at: &mut Stage) -> Effect {
    let session = tab.state.session().cloned();
    // `commit` queued the new amount for a mounted form; an unmounted one is told too.
    let told = q.iter().any(|e| matches!(e, Effect::UpdateAmount { .. }));
    match (session, told) {
        (Some(s), false) => {
            *at = Stage::Shown;
            Effect::UpdateAmount { amount: s.amount, currency: s.currency }
        }
        _ => {
            // Hand the queued UpdateAmount out last, as this step's own effect.
            let pos = q.iter().rposition(|e| matches!(e, Effect::UpdateAmount { .. }));
            match pos.and_then(|i| q.remove(i)) {
                Some(e) => {
                    *at = Stage::Shown;
                    e
                }
                None => Effect::Done(Ok(Outcome::State)),
            }
        }
    }
}
