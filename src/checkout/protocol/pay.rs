//! The payment run: `pay()` ([`Run::Pay`]) and finishing an unsettled
//! payment after `start`/`resume` ([`Run::Resume`]).
//!
//! - A new payment (a fresh token) holds the cart's lock; re-confirming the
//!   token of a payment that may exist never needs it.
//! - A confirm is sent only once its in-flight record was written: storage
//!   that refuses the write ends the run with a typed error and nothing sent.
//! - A fresh token is confirmed only for the amount the form showed when it
//!   was collected: when the record says another amount (another tab changed
//!   the shipping), the form is told the new amount and the run is refused.
//! - An answer is applied to the record as it is when it lands: to this
//!   token's unsettled payment (whichever tab last wrote it); an answer for a
//!   token the record no longer waits on (another tab settled it, or paid
//!   again with a new token) changes nothing, this tab takes the record.
//!   When the record is another checkout's by then, the answer to this tab's
//!   own confirm is this tab's state (never written).
//! - An unknown outcome or `processing` is confirmed again with the same
//!   token after the core's delays ([`crate::checkout::AfterConfirm::delay_ms`]); at most one next
//!   action per run, only in a run the buyer started.

use std::collections::VecDeque;

use super::tab::{wrote, Synced};
use super::{refuse, Effect, Input, Operation, Outcome, Record, Stored, Tab};
use crate::checkout::machine::{AfterConfirm, PayStep};
use crate::checkout::crosstab::Run;
use crate::checkout::state::CheckoutState;
use crate::checkout::validate_return_url;
use crate::error::{Error, Result};
use crate::model::ConfirmResponse;

/// What one run carries from step to step (held once by the operation's
/// [`Stage`], read and updated in place by every step).
#[derive(Debug, Clone)]
pub(super) struct Runner {
    run: Run,
    return_url: String,
    token: String,
    /// The amount the form showed when this run's fresh token was collected
    /// (`None`: a token already used, whose payment may exist).
    collected_at: Option<i64>,
    /// Next actions run, `processing` re-reads, unknown outcomes re-confirmed.
    actions: usize,
    polls: usize,
    rechecks: usize,
    /// The first answer was recorded (`start`/`resume` were told).
    answered: bool,
}

/// A payment run: its runner, held once, and where it is.
#[derive(Debug, Clone)]
pub(super) struct Stage {
    r: Runner,
    at: At,
}

#[derive(Debug, Clone)]
enum At {
    Begin,
    /// Waiting for the lock, then the token.
    Lock,
    Token,
    /// Waiting for the in-flight record's write (the op's pending write).
    InFlight(Box<crate::model::ConfirmRequest>),
    /// Waiting for the confirm's answer.
    Sent,
    /// Waiting for the write of the answer's state.
    Answered { answer: Result<ConfirmResponse>, after: AfterConfirm },
    /// Waiting out a delay before confirming again.
    Wait,
    /// Waiting for the adapter's next action.
    Action,
    /// Waiting for the write of an adapter failure.
    AdapterFailed { message: String },
    Over,
}

impl Stage {
    pub(super) fn begin(tab: &mut Tab, op: Operation) -> Self {
        tab.flight = true;
        let (run, return_url) = match op {
            Operation::Pay { return_url } => (Run::Pay, return_url),
            _ => (Run::Resume, String::new()),
        };
        let r = Runner { run, return_url, token: String::new(), collected_at: None, actions: 0, polls: 0, rechecks: 0, answered: false };
        Self { r, at: At::Begin }
    }

    pub(super) fn step(&mut self, tab: &mut Tab, stored: Stored, input: Input, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>) -> Effect {
        // Where the run goes next is set by the step that decides it (over unless set).
        let stage = core::mem::replace(&mut self.at, At::Over);
        let effect = advance(stage, &mut self.at, &mut self.r, tab, stored, input, q, p).unwrap_or_else(refuse);
        if let Effect::Done(_) = effect {
            tab.flight = false;
            self.at = At::Over;
        }
        effect
    }
}

fn state_done() -> Effect {
    Effect::Done(Ok(Outcome::State))
}

#[allow(clippy::too_many_arguments)]
fn advance(stage: At, at: &mut At, r: &mut Runner, tab: &mut Tab, stored: Stored, input: Input, q: &mut VecDeque<Effect>, p: &mut Option<Box<Record>>) -> Result<Effect> {
    let record = stored?;
    let record = record.as_ref();
    Ok(match (stage, input) {
        (At::Begin, _) => match r.run {
            Run::Resume => match tab.look(record, q, |s| Ok(s.resume_token().map(str::to_owned)))? {
                Some(t) => {
                    r.token = t;
                    confirm(tab, record, q, r, p, at)?
                }
                None => state_done(),
            },
            Run::Pay => {
                let step = tab.look(record, q, CheckoutState::pay_step)?;
                validate_return_url(&r.return_url)?;
                match step {
                    PayStep::Reconfirm(t) => {
                        r.token = t;
                        confirm(tab, record, q, r, p, at)?
                    }
                    // A new payment: only the tab holding the cart's lock may make one.
                    PayStep::CollectToken => {
                        *at = At::Lock;
                        Effect::AcquireLock
                    }
                }
            }
        },
        (At::Lock, Input::Lock(l)) => {
            l?;
            tab.lock = true;
            *at = At::Token;
            Effect::CollectToken
        }
        (At::Token, Input::Token(t)) => match t.map(|t| t.trim().to_owned()) {
            Ok(t) if !t.is_empty() => {
                r.token = t;
                r.collected_at = Some(tab.shown.unwrap_or_else(|| tab.state.session().map_or(0, |s| s.amount)));
                confirm(tab, record, q, r, p, at)?
            }
            Ok(_) => adapter_failed(tab, record, q, "the processor adapter returned no token".to_owned(), p, at)?,
            Err(e) => adapter_failed(tab, record, q, e.message, p, at)?,
        },
        // Written: the record is this tab's copy (`Op::step` committed it).
        (At::InFlight(body), Input::Wrote(w)) => {
            if !wrote(w, "the payment was not sent")? {
                return confirm(tab, record, q, r, p, at);
            }
            *at = At::Sent;
            Effect::Confirm(body)
        }
        (At::Sent, Input::Confirmed(answer)) => answer_landed(tab, record, q, r, answer, p, at)?,
        (At::Answered { answer, after }, Input::Wrote(w)) => match w {
            Ok(true) => go_on(tab, record, q, r, after, p, at)?,
            Ok(false) => answer_landed(tab, record, q, r, answer, p, at)?,
            // The answer stays in this tab; the record still says in flight with this
            // token, which any tab confirms again (the same payment, never a new one).
            Err(_) => {
                if let Some(n) = p.take() {
                    tab.state = n.state;
                }
                tab.changed(q);
                go_on(tab, record, q, r, after, p, at)?
            }
        },
        (At::Wait, Input::None) => {
            // After a wait, another tab may have settled this payment: then this run is over.
            if tab.sync(record, q)? == Synced::Adopted && tab.state.resume_token() != Some(r.token.as_str()) {
                return Ok(state_done());
            }
            confirm(tab, record, q, r, p, at)?
        }
        (At::Action, Input::Adapter(a)) => match a {
            Err(e) => adapter_failed(tab, record, q, e.message, p, at)?,
            Ok(()) => {
                if tab.sync(record, q)? == Synced::Adopted && !matches!(tab.state, CheckoutState::RequiresAction(_)) {
                    return Ok(state_done()); // another tab finished it meanwhile
                }
                r.token = tab.state.action_finished()?;
                confirm(tab, record, q, r, p, at)?
            }
        },
        (At::AdapterFailed { message }, Input::Wrote(w)) => {
            if !wrote(w, "the adapter's failure was not recorded")? {
                return adapter_failed(tab, record, q, message, p, at);
            }
            state_done()
        }
        (_, input) => super::unexpected(&input),
    })
}

/// Decide a confirm on the record as it is now: the in-flight record written
/// first (then [`Effect::Confirm`]).
fn confirm(tab: &mut Tab, record: Option<&Record>, q: &mut VecDeque<Effect>, r: &Runner, p: &mut Option<Box<Record>>, at: &mut At) -> Result<Effect> {
    let (next, body) = tab.act(record, q, |s| s.begin_confirm(&r.token, &r.return_url))?;
    if let (Some(showed), Some(session)) = (r.collected_at, tab.state.session().cloned()) {
        if session.amount != showed {
            // Another tab changed what will be charged after this tab's form showed `showed`.
            // The form is told the new amount (queued when the record was adopted, else here).
            tab.show_amount(q);
            let e = Error::invalid_state(format!(
                "the amount to pay changed to {} {} (the shipping was changed in another tab) after the payment form showed {}; nothing was charged: the form shows the new amount, call pay() again",
                session.amount, session.currency, showed
            ));
            return Ok(refuse(e));
        }
    }
    *at = At::InFlight(Box::new(body));
    Ok(super::ask(record, next, p))
}

/// An answer for `r.token` landed: apply it to the record as it is now.
fn answer_landed(tab: &mut Tab, record: Option<&Record>, q: &mut VecDeque<Effect>, r: &Runner, answer: Result<ConfirmResponse>, p: &mut Option<Box<Record>>, at: &mut At) -> Result<Effect> {
    // The state the answer applies to: the record as it is, while it still waits
    // on this token (this tab's in-flight copy, or what another tab wrote since).
    let mut base = tab.state.clone();
    match record {
        Some(rec) if same_session(&rec.state, &tab.state) && rec.state.resume_token() == Some(r.token.as_str()) => {
            base = rec.state.clone();
            if !matches!(&base, CheckoutState::Paying(p) if p.attempt.confirm_in_flight) {
                base.begin_confirm(&r.token, &r.return_url)?;
            }
        }
        // Cleared while this payment is unsettled (this tab's copy is its in-flight
        // `paying`): the answer puts it back.
        None => {}
        // Settled elsewhere, paid again with another token, or another
        // checkout: this late answer changes nothing stored (finding 2). The
        // tab follows its session's record; when the record is another
        // checkout's, the answer is still what this tab got.
        _ => {
            if tab.sync(record, q).is_err() {
                answered_here(tab, q, r, answer);
            }
            q.push_back(Effect::FirstAnswer);
            return Ok(state_done());
        }
    }
    let after = match answer.clone() {
        Ok(a) => base.confirmed(a),
        Err(e) => base.confirm_failed(e.code, &e.message),
    }?;
    *at = At::Answered { answer, after };
    Ok(super::ask(record, base, p))
}

/// A late answer to this tab's own confirm after the record moved on to
/// another checkout: the answer is this tab's state (what `pay()` resolves
/// with and the page shows: paid, declined, processing, ...), never the
/// record's, and nothing follows it (no confirm goes out without its
/// in-flight record). The cart is not emptied from here: the tab that recorded
/// the payment emptied it before another checkout could begin, and what the
/// cart holds now is the next checkout's.
fn answered_here(tab: &mut Tab, q: &mut VecDeque<Effect>, r: &Runner, answer: Result<ConfirmResponse>) {
    if tab.state.resume_token() != Some(r.token.as_str()) {
        return;
    }
    let mut mine = tab.state.clone();
    let landed = match answer {
        Ok(a) => mine.confirmed(a),
        Err(e) => mine.confirm_failed(e.code, &e.message),
    };
    if landed.is_ok() {
        tab.emptied = true;
        tab.state = mine;
        tab.changed(q);
    }
}

fn same_session(a: &CheckoutState, b: &CheckoutState) -> bool {
    a.session().map(|s| &s.session_id) == b.session().map(|s| &s.session_id)
}

/// After an answer was recorded: wait and confirm again, run the next
/// action, or end the run.
fn go_on(tab: &mut Tab, record: Option<&Record>, q: &mut VecDeque<Effect>, r: &mut Runner, after: AfterConfirm, p: &mut Option<Box<Record>>, at: &mut At) -> Result<Effect> {
    // The answer is this tab's state now: `start`/`resume` may return.
    if !std::mem::replace(&mut r.answered, true) {
        q.push_back(Effect::FirstAnswer);
    }
    let round = match after {
        AfterConfirm::Processing => &mut r.polls,
        AfterConfirm::Unknown => &mut r.rechecks,
        _ => &mut r.actions,
    };
    if let Some(ms) = after.delay_ms(*round) {
        *round += 1;
        *at = At::Wait;
        return Ok(Effect::Sleep(ms));
    }
    let AfterConfirm::NextAction(secret) = &after else { return Ok(state_done()) };
    // `start`/`resume` never wait on a person: the page calls `pay()` for the challenge.
    if !after.runs_action(r.run) {
        return Ok(state_done());
    }
    if r.actions > 0 {
        return adapter_failed(tab, record, q, "authentication was not completed".to_owned(), p, at);
    }
    r.actions += 1;
    let secret = secret.clone();
    *at = At::Action;
    Ok(Effect::NextAction(secret))
}

/// The adapter could not collect a token or run the next action: recorded
/// on the live record, the run ends with that state.
fn adapter_failed(tab: &mut Tab, record: Option<&Record>, q: &mut VecDeque<Effect>, message: String, p: &mut Option<Box<Record>>, at: &mut At) -> Result<Effect> {
    let (next, ()) = tab.act(record, q, |s| s.adapter_failed(&message))?;
    let write = super::ask(record, next, p);
    *at = At::AdapterFailed { message };
    Ok(write)
}
