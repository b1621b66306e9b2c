//! Opening a checkout (`start`, `resume`), following other tabs' writes, and
//! letting a checkout go (`free`).
//!
//! `start` carries the stored record on when it is the cart's
//! ([`carries_on`]), else: the store's currency checked, storage checked
//! writable ([`Effect::Probe`], before any session), the lock taken, a session
//! initiated, its record written, the form mounted. Opening a stored record
//! takes the lock if free and mounts the form unless the checkout is over; an
//! unsettled payment is then finished by [`super::Operation::Finish`].

use std::collections::VecDeque;

use super::tab::{unwritable, Synced};
use super::{refuse, Effect, Input, Operation, Outcome, Record, Refusal, Stored, Tab};
use crate::checkout::crosstab::{carries_on, same_items};
use crate::checkout::state::CheckoutState;
use crate::checkout::validate::same_currency;
use crate::error::Error;
use crate::model::{InitiateRequest, InitiateResponse, PaymentItem};

/// What a `start` that opens a new session carries from step to step (held
/// once by the operation's [`Stage`], read by every step; empty for the others).
#[derive(Debug, Clone, Default)]
pub(super) struct Plan {
    items: Vec<PaymentItem>,
    currency: String,
    from_cart: bool,
    /// The revision of the record the start decided on (`None`: nothing stored).
    seen: Option<u64>,
}

impl Plan {
    /// Whether the record stored now must be opened instead of a new
    /// session: a payment not settled (never a session beside it), or a
    /// record another tab wrote since this start decided that carries on for
    /// its items (a checkout of them, live or paid: the items this start
    /// read may have been paid meanwhile).
    fn defers_to(&self, stored: &Record) -> bool {
        let changed = Some(stored.revision) != self.seen;
        let paid_same = matches!(&stored.state, CheckoutState::Succeeded(s) if same_items(&s.session.items, &self.items));
        stored.state.payment_unsettled() || (changed && (paid_same || carries_on(&stored.state, Some(&self.items), self.from_cart)))
    }
}

/// An opening operation: its plan, held once, and where it is.
#[derive(Debug, Clone)]
pub(super) struct Stage {
    plan: Plan,
    at: At,
}

#[derive(Debug, Clone, Copy)]
enum At {
    /// `seen` is set once the start read the record.
    Start,
    /// `named`: the caller named items (the plan's), else the record as it is.
    Resume { named: bool },
    /// Waiting for the store's currency.
    Currency,
    /// Waiting for the probe of storage.
    Probe,
    /// Waiting for the lock before a new session.
    Lock,
    /// Waiting for the initiate answer.
    Initiate,
    /// Waiting for the write of the new session's record (the op's pending write).
    Written,
    /// A stored record taken: waiting for the lock (taken if free).
    OpenLock,
    /// Waiting for the mount; `opened`: an existing record (a failed mount
    /// keeps the lock of a new session only).
    Mount { amount: i64, opened: bool },
    Follow,
    /// Waiting for a write putting an unsettled payment back.
    Restored,
    Free,
}

impl Stage {
    pub(super) fn begin(op: Operation) -> Self {
        let (plan, at) = match op {
            Operation::Start { items, currency, from_cart } => (Plan { items, currency, from_cart, seen: None }, At::Start),
            Operation::Resume { items, from_cart } => {
                let named = items.is_some();
                (Plan { items: items.unwrap_or_default(), from_cart, ..Plan::default() }, At::Resume { named })
            }
            Operation::Follow => (Plan::default(), At::Follow),
            _ => (Plan::default(), At::Free),
        };
        Self { plan, at }
    }

    pub(super) fn step(&mut self, tab: &mut Tab, stored: Stored, input: Input, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>) -> Effect {
        // Where the operation goes next is set by the step that decides it (over unless set).
        let stage = core::mem::replace(&mut self.at, At::Free);
        advance(stage, &mut self.at, &mut self.plan, tab, stored, input, q, p)
    }
}

/// A failure once this tab may hold the lock for a new session: let it go.
fn fail(tab: &mut Tab, q: &mut VecDeque<Effect>, r: Refusal) -> Effect {
    tab.let_go(q);
    Effect::Done(Err(r))
}

fn done(r: Outcome) -> Effect {
    Effect::Done(Ok(r))
}

#[allow(clippy::too_many_lines, clippy::too_many_arguments)]
fn advance(stage: At, at: &mut At, plan: &mut Plan, tab: &mut Tab, stored: Stored, input: Input, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>) -> Effect {
    match (stage, input) {
        (At::Start, _) => match stored {
            Err(e) => refuse(e),
            Ok(Some(old)) if carries_on(&old.state, Some(&plan.items), plan.from_cart) => open(tab, old, at),
            Ok(_) if plan.items.is_empty() => refuse(Error::invalid_state("the cart is empty: add an item before checkout")),
            Ok(r) => {
                plan.seen = r.map(|r| r.revision);
                *at = At::Currency;
                Effect::StoreCurrency
            }
        },
        (At::Resume { named }, _) => match stored {
            Err(e) => refuse(e),
            Ok(Some(old)) if carries_on(&old.state, named.then_some(&plan.items[..]), plan.from_cart) => open(tab, old, at),
            Ok(_) => done(Outcome::Nothing),
        },
        (At::Currency, Input::StoreCurrency(r)) => match r {
            Err(e) => Effect::Done(Err(Refusal::PassOn(e))),
            // A cart in another currency than the store's is refused before a session (issue 27).
            Ok(Some(store)) if store != plan.currency => {
                refuse(same_currency(&plan.currency, &store, plan.from_cart).err().unwrap_or_else(|| Error::invalid_argument("currency")))
            }
            Ok(_) => {
                *at = At::Probe;
                Effect::Probe
            }
        },
        (At::Probe, Input::Probed(r)) => match r {
            Err(why) => refuse(unwritable(&why, "no payment session was opened")),
            Ok(()) => {
                *at = At::Lock;
                Effect::AcquireLock
            }
        },
        (At::Lock, Input::Lock(r)) => match (r, stored) {
            (Err(e), _) => refuse(e),
            (_, Err(e)) => fail(tab, q, Refusal::Error(e)),
            // Decided again on the record as it is once the lock is held: another tab may have
            // paid meanwhile (finish that payment, or show the order), never a session beside it.
            (Ok(()), Ok(Some(old))) if plan.defers_to(&old) => {
                tab.lock = true;
                open(tab, old, at)
            }
            (Ok(()), Ok(_)) => {
                tab.lock = true;
                let body = InitiateRequest { items: plan.items.clone(), currency: plan.currency.clone() };
                *at = At::Initiate;
                Effect::Initiate(body)
            }
        },
        (At::Initiate, Input::Initiated(r)) => match r {
            Err(e) => fail(tab, q, Refusal::PassOn(e)),
            Ok(answer) => write_new(tab, stored, plan, answer, q, p, at),
        },
        // Written: the record is this tab's copy (`Op::step` committed it).
        (At::Written, Input::Wrote(r)) => match r {
            Ok(true) => match tab.state.adapter_session() {
                Some(s) => {
                    *at = At::Mount { amount: s.amount, opened: false };
                    Effect::Mount(s)
                }
                None => done(Outcome::Opened { finish: false }),
            },
            // Another tab wrote meanwhile: decide again on what is stored now.
            Ok(false) => {
                let next = p.take().map_or(CheckoutState::Idle, |r| r.state);
                rewrite(tab, stored, plan, next, q, p, at)
            }
            Err(why) => fail(tab, q, Refusal::Error(unwritable(&why, "the payment session was opened but not recorded; nothing was charged"))),
        },
        (At::OpenLock, Input::Lock(r)) => {
            tab.lock = r.is_ok();
            mount(tab, true, at)
        }
        (At::Mount { amount, opened }, Input::Adapter(r)) => match r {
            Err(e) => {
                if opened {
                    Effect::Done(Err(Refusal::PassOn(e)))
                } else {
                    fail(tab, q, Refusal::PassOn(e))
                }
            }
            Ok(()) => {
                tab.shown = Some(amount);
                // The record may have moved on while the form mounted.
                if let Ok(Some(r)) = &stored {
                    let _ = tab.sync(Some(r), q);
                }
                let finish = tab.state.resume_token().is_some();
                done(Outcome::Opened { finish })
            }
        },
        (At::Follow, _) => follow(tab, stored, q, at),
        (At::Restored, Input::Wrote(r)) => {
            if let (Ok(true), Ok(stored)) = (r, stored) {
                tab.revision = stored.map(|r| r.revision);
            }
            done(Outcome::Unit)
        }
        (At::Free, _) => {
            tab.let_go(q);
            tab.unmount(q);
            done(Outcome::Unit)
        }
        (_, input) => super::unexpected(&input),
    }
}

/// Take a stored record as this tab's copy, then the lock (if live) and the form.
fn open(tab: &mut Tab, old: Record, at: &mut At) -> Effect {
    tab.state = old.state;
    tab.revision = Some(old.revision);
    if tab.state.is_final() {
        return done(Outcome::Opened { finish: false });
    }
    // Taken if free; a new payment or shipping asks again, finishing one never needs it.
    *at = At::OpenLock;
    Effect::AcquireLock
}

fn mount(tab: &Tab, opened: bool, at: &mut At) -> Effect {
    match tab.state.adapter_session() {
        Some(s) => {
            *at = At::Mount { amount: s.amount, opened };
            Effect::Mount(s)
        }
        None => done(Outcome::Opened { finish: tab.state.resume_token().is_some() }),
    }
}

/// The initiate answer as the new record: it replaces whatever finished or
/// unpaid record is stored, never one with an unsettled payment.
fn write_new(tab: &mut Tab, stored: Stored, plan: &Plan, answer: InitiateResponse, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>, at: &mut At) -> Effect {
    let mut next = CheckoutState::Idle;
    if let Err(e) = next.initiated(plan.items.clone(), answer) {
        return fail(tab, q, Refusal::Error(e));
    }
    rewrite(tab, stored, plan, next, q, p, at)
}

/// Write the new session's record over the record as it is now, unless that
/// one must be opened instead ([`Plan::defers_to`]: the new session is then
/// left unused, nothing was paid on it).
fn rewrite(tab: &mut Tab, stored: Stored, plan: &Plan, next: CheckoutState, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>, at: &mut At) -> Effect {
    let stored = match stored {
        Ok(r) => r,
        Err(e) => return fail(tab, q, Refusal::Error(e)),
    };
    if let Some(old) = stored.as_ref().filter(|r| plan.defers_to(r)) {
        return open(tab, old.clone(), at);
    }
    *at = At::Written;
    super::ask(stored.as_ref(), next, p)
}

/// Another tab wrote the record: adopt its progress on this session (unless
/// a payment runs here: that run reads the record itself); put an unsettled
/// payment back if the record was cleared. A record of another checkout is
/// left alone (this tab's next action says so).
fn follow(tab: &mut Tab, stored: Stored, q: &mut VecDeque<Effect>, at: &mut At) -> Effect {
    if tab.flight {
        return done(Outcome::Unit);
    }
    let Ok(stored) = stored else { return done(Outcome::Unit) };
    match tab.sync(stored.as_ref(), q) {
        Ok(Synced::Restore) => {
            *at = At::Restored;
            tab.write_back(stored.as_ref())
        }
        _ => done(Outcome::Unit),
    }
}
