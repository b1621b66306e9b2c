//! The checkout protocol (issue 31): every decision one tab makes about the
//! checkout record the tabs of a cart share, as a pure value with no I/O
//! (sans-I/O, like quinn-proto's `Connection`). An executor performs what it
//! is told — requests, storage, the cross-tab lock, timers, the processor
//! adapter, the cart — and feeds the results back; it decides nothing. The
//! wasm class `Checkout` (`src/wasm/checkout*.rs`) is one executor; the
//! deterministic simulation is another, over simulated I/O.
//!
//! ```text
//! let mut tab = Tab::new(cart);                        // one page's checkout
//! let mut op = tab.begin(Operation::Pay { return_url });
//! let mut input = Input::None;
//! loop {
//!     let stored = read_record();                      // Result<Option<Record>>
//!     match op.step(&mut tab, stored, input) {
//!         Effect::Done(result) => break result,
//!         effect => input = perform(effect),           // awaits only here
//!     }
//! }
//! ```
//!
//! `stored` is the record as storage holds it right before the step: every
//! decision is a function of (this tab, the stored record, the event). A
//! browser's storage is synchronous, so an executor performs a
//! [`Effect::Write`] in the same turn as the step that asked for it; the
//! write is still conditional ([`Effect::Write::expect`]): a write based on
//! another revision than the one stored is not applied
//! ([`Input::Wrote`]`(Ok(false))`) and the tab decides again on the record
//! as it is then. Other tabs' writes (the `storage` event: late, lost,
//! reordered) are fed as an operation of their own, [`Operation::Follow`].
//!
//! An [`Op`] holds the record its last write asked for until the answer:
//! once written ([`Input::Wrote`]`(Ok(true))`), [`Op::step`] makes it the
//! tab's copy (`Tab::commit`) for every stage before the stage goes on; not
//! applied or refused, the stage decides again or ends. Each module's stage
//! holds what its operation carries once (`open`'s plan, the payment's
//! runner) and where it is, set in place by the step that decides it; a
//! step returns only its effect (this shape is what keeps the checkout wasm
//! small: no large value moved or dropped from stage to stage).
//!
//! Several operations of one tab may be under way at once (a `pay()` waiting
//! on the processor while the page asks for the state); each is an [`Op`]
//! that shares the [`Tab`]. Time is only an input: [`Effect::Sleep`] asks
//! for a wait, nothing reads a clock.
//!
//! - [`tab`]: the tab's copy of the record and what follows a change
//!   (adopting another tab's progress, the end of a checkout).
//! - [`open`]: `start`, `resume`, `free`, following other tabs.
//! - [`shipping`]: `shippingOptions`, `selectShipping`, `cancel`.
//! - [`pay`]: the payment run (`pay()`, and finishing an unsettled payment
//!   after `start`/`resume`).

mod open;
mod pay;
mod shipping;
mod tab;

use std::collections::VecDeque;

use super::state::{AdapterSession, CheckoutState};
use crate::error::{Error, Result};
use crate::model::{
    ConfirmRequest, ConfirmResponse, InitiateRequest, InitiateResponse, PaymentItem, ShippingAddress, ShippingRatesRequest,
    ShippingRatesResponse, UpdateRequest, UpdateResponse,
};
use crate::shipping::ShippingOption;

pub use tab::Tab;

/// The record every tab of a cart shares: the state and its revision. Each
/// applied write stores the next revision; a record stored without one
/// (written before revisions) reads as revision 0.
#[derive(Debug, Clone, PartialEq)]
pub struct Record {
    pub revision: u64,
    pub state: CheckoutState,
}

/// The record as storage holds it before a step: `Ok(None)` when nothing is
/// stored; `Err` when it cannot be read (an unreadable record: the executor
/// has kept it aside and the error says where).
pub type Stored = Result<Option<Record>>;

/// The executor's decision on an [`Effect::Write`] (issue 41: the browser's
/// `Inner::write` and the simulation's call this, so the rule they run is
/// one): the write applies only when the record stored right now is
/// readable and has the revision `expect` (`None`: nothing is stored).
/// Otherwise storage is left as it is and the step gets
/// [`Input::Wrote`]`(Ok(false))`.
#[must_use]
pub fn write_applies(now: &Stored, expect: Option<u64>) -> bool {
    matches!(now, Ok(r) if r.as_ref().map(|r| r.revision) == expect)
}

/// What the page asked for (one public method each), or an event.
#[derive(Debug, Clone, PartialEq)]
pub enum Operation {
    /// `Checkout.start`: open the stored record when it carries on for
    /// `items` ([`super::crosstab::carries_on`]), else a new payment session.
    /// `from_cart`: the items are a `Cart`'s (emptied once paid), not bare `items`.
    Start { items: Vec<PaymentItem>, currency: String, from_cart: bool },
    /// `Checkout.resume`: open the stored record if it carries on
    /// (`items: None`: the caller named nothing, the record as it is).
    Resume { items: Option<Vec<PaymentItem>>, from_cart: bool },
    /// `shippingOptions(country)`.
    ShippingOptions { country: String },
    /// `selectShipping(rateId, address)`; the address already decoded (its
    /// own checks run here).
    SelectShipping { rate_id: String, address: ShippingAddress },
    /// `pay({ returnUrl })`.
    Pay { return_url: String },
    /// After `start`/`resume` opened a record with an unsettled payment
    /// ([`Outcome::Opened`] `finish: true`): confirm it again with its token;
    /// never runs a next action (nothing waits on a person).
    Finish,
    /// `cancel()`.
    Cancel,
    /// Another tab wrote the record (a `storage` event for its key, or the
    /// whole storage cleared).
    Follow,
    /// The page let the checkout go (`free()`).
    Free,
}

/// What the executor does next; the result comes back as the next step's
/// [`Input`] (named on each variant; effects with nothing to say give
/// [`Input::None`]).
#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    /// Check that the record can be written at all (e.g. `setItem` of a
    /// scratch key, then `removeItem`), before a session is opened.
    /// → [`Input::Probed`].
    Probe,
    /// Write `record` if the stored record's revision is `expect` (`None`:
    /// only if nothing is stored); otherwise leave storage as it is.
    /// → [`Input::Wrote`] (`Ok(false)`: not applied, decide again).
    Write { record: Box<Record>, expect: Option<u64> },
    /// `client.store()`'s currency, when the client has it. → [`Input::StoreCurrency`].
    StoreCurrency,
    /// `POST /payments/initiate`. → [`Input::Initiated`].
    Initiate(InitiateRequest),
    /// `POST /shipping-rates`. → [`Input::Rates`].
    Rates(ShippingRatesRequest),
    /// `POST /payments/update`. → [`Input::Updated`].
    Update(Box<UpdateRequest>),
    /// `POST /payments/confirm`. → [`Input::Confirmed`].
    Confirm(Box<ConfirmRequest>),
    /// Take the cart's cross-tab lock (held until [`Effect::ReleaseLock`] or
    /// the tab goes away). → [`Input::Lock`].
    AcquireLock,
    /// Let the lock go. → [`Input::None`].
    ReleaseLock,
    /// Mount the adapter's payment form. → [`Input::Adapter`].
    Mount(AdapterSession),
    /// Tell the adapter the amount to show (minor units). → [`Input::Adapter`].
    UpdateAmount { amount: i64, currency: String },
    /// Unmount the adapter's form (when it has `unmount`). → [`Input::None`].
    Unmount,
    /// Ask the adapter for a confirmation token. → [`Input::Token`].
    CollectToken,
    /// Run the adapter's next action (3-D Secure) on this client secret. → [`Input::Adapter`].
    NextAction(String),
    /// Wait this long (ms). → [`Input::None`].
    Sleep(u32),
    /// The payment of checkout `session` for `paid` succeeded: take it out
    /// of the cart once per checkout (`Cart::take_paid`, keyed by `session`
    /// in the cart's saved form: every tab that sees the payment succeed
    /// asks, the first ask subtracts from the cart as it is then, the others
    /// change nothing). → [`Input::None`].
    EmptyCart { session: String, paid: Vec<PaymentItem> },
    /// Tell the listeners the state changed. → [`Input::None`].
    Emit(Box<CheckoutState>),
    /// The first answer of a resumed payment is in (`start`/`resume` may
    /// return now). → [`Input::None`].
    FirstAnswer,
    /// The operation is over.
    Done(core::result::Result<Outcome, Refusal>),
}

/// What an operation ends with.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    /// The tab's state is the answer (`selectShipping`, `pay`).
    State,
    /// `shippingOptions`.
    Options(Vec<ShippingOption>),
    /// `start`/`resume` opened a checkout; `finish`: run [`Operation::Finish`]
    /// (the payment is unsettled) and return once it gave
    /// [`Effect::FirstAnswer`] or ended.
    Opened { finish: bool },
    /// `resume`: nothing to open (`null`).
    Nothing,
    /// Done, nothing to return (`cancel`, `free`, `Follow`).
    Unit,
}

/// Why an operation failed.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// This error (a `CirrusError`).
    Error(Error),
    /// The error the last effect's result carried (a request's, the
    /// adapter's), passed on as the executor got it.
    PassOn(Error),
}

impl Refusal {
    /// The error, whichever way it is passed.
    #[must_use]
    pub const fn error(&self) -> &Error {
        match self {
            Self::Error(e) | Self::PassOn(e) => e,
        }
    }
}

/// The result of the last effect, fed to the next step.
#[derive(Debug, Clone, PartialEq)]
pub enum Input {
    /// The first step, and effects that give nothing back.
    None,
    /// [`Effect::Probe`]: `Err(why)` when storage refused the write.
    Probed(core::result::Result<(), String>),
    /// [`Effect::Write`]: `Ok(true)` written, `Ok(false)` not applied
    /// (another revision is stored), `Err(why)` storage refused (`setItem` threw).
    Wrote(core::result::Result<bool, String>),
    StoreCurrency(Result<Option<String>>),
    Initiated(Result<InitiateResponse>),
    Rates(Result<ShippingRatesResponse>),
    Updated(Result<UpdateResponse>),
    /// [`Effect::Confirm`]: the answer, or the error (its code says whether
    /// the server answered the request definitively, [`super::definitive`]).
    Confirmed(Result<ConfirmResponse>),
    /// [`Effect::AcquireLock`]: `Err` when another tab holds it.
    Lock(Result<()>),
    /// [`Effect::Mount`], [`Effect::UpdateAmount`], [`Effect::NextAction`]:
    /// `Err` with the adapter's error.
    Adapter(Result<()>),
    /// [`Effect::CollectToken`]: the token (checked here: an empty one is
    /// the adapter's failure), or the adapter's error.
    Token(Result<String>),
}

/// One operation under way: its continuation, and the effects decided but
/// not handed out yet. Cheap to clone.
#[derive(Debug, Clone)]
pub struct Op {
    stage: Stage,
    /// Effects to hand out before the operation goes on (their results are
    /// not needed: emits, lock releases, an amount shown).
    queue: VecDeque<Effect>,
    /// Awaited side effects (an amount shown) held back until the effect
    /// that must follow its step in the same turn (a write, a confirm) was
    /// handed out and answered.
    held: VecDeque<Effect>,
    /// The record this operation's last [`Effect::Write`] asked for, until
    /// its answer: written ([`Input::Wrote`]`(Ok(true))`), it is the tab's
    /// copy (`Tab::commit`, here for every stage) before the stage goes on.
    pending: Option<Box<Record>>,
}

/// Where each operation is (each module owns its own stages).
#[derive(Debug, Clone)]
enum Stage {
    Open(open::Stage),
    Shipping(shipping::Stage),
    Pay(pay::Stage),
    Over,
}

impl Tab {
    /// Begin an operation on this tab; drive it with [`Op::step`].
    #[must_use]
    pub fn begin(&mut self, operation: Operation) -> Op {
        let stage = match operation {
            Operation::Start { .. } | Operation::Resume { .. } | Operation::Follow | Operation::Free => Stage::Open(open::Stage::begin(operation)),
            Operation::ShippingOptions { .. } | Operation::SelectShipping { .. } | Operation::Cancel => {
                Stage::Shipping(shipping::Stage::begin(operation))
            }
            Operation::Pay { .. } | Operation::Finish => Stage::Pay(pay::Stage::begin(self, operation)),
        };
        Op { stage, queue: VecDeque::new(), held: VecDeque::new(), pending: None }
    }
}

impl Op {
    /// The next effect, given the record stored now and the result of the
    /// last effect (`Input::None` on the first step). After
    /// [`Effect::Done`] every further step is `Done` again.
    pub fn step(&mut self, tab: &mut Tab, stored: Stored, input: Input) -> Effect {
        while let Some(e) = self.queue.pop_front() {
            if let Some(e) = hand_out(tab, e, self.queue.is_empty()) {
                return e;
            }
        }
        if let Input::Wrote(Ok(true)) = input {
            if let Some(r) = self.pending.take() {
                tab.commit(r.state, r.revision, &mut self.queue);
            }
        }
        let p = &mut self.pending;
        let main = match &mut self.stage {
            Stage::Open(s) => s.step(tab, stored, input, &mut self.queue, p),
            Stage::Shipping(s) => s.step(tab, stored, input, &mut self.queue, p),
            Stage::Pay(s) => s.step(tab, stored, input, &mut self.queue, p),
            Stage::Over => Effect::Done(Err(Refusal::Error(Error::invalid_state("this operation is over")))),
        };
        // What this step queued (all of it performed in the same turn: listeners, the lock, the
        // cart emptied of what was paid) goes first, then what was held back, unless this step's
        // own effect must follow in the same turn too: a confirm right after the write of its
        // in-flight record, a write right after the read it was decided on. Nothing awaited
        // comes between them, nor between a payment's success and the cart it empties.
        // Moved one by one (drain/chain/collect/partition over `Effect` here cost the checkout wasm 0.8 KB gz).
        let hold = matches!(main, Effect::Confirm(_) | Effect::Write { .. });
        if !matches!(main, Effect::Write { .. }) {
            self.pending = None;
        }
        let mut queue = core::mem::take(&mut self.queue);
        while let Some(e) = self.held.pop_front() {
            queue.push_back(e);
        }
        while let Some(e) = queue.pop_front() {
            if hold && matches!(e, Effect::UpdateAmount { .. }) {
                self.held.push_back(e);
            } else {
                self.queue.push_back(e);
            }
        }
        if matches!(main, Effect::Done(_)) {
            self.stage = Stage::Over;
        }
        self.queue.push_back(main);
        while let Some(e) = self.queue.pop_front() {
            if let Some(e) = hand_out(tab, e, self.queue.is_empty()) {
                return e;
            }
        }
        Effect::Done(Ok(Outcome::Unit))
    }
}

/// An effect as it leaves the protocol. The amount a form is told is the
/// tab's amount as it is when the effect is handed out, not when it was
/// queued: several operations of a tab queue amounts, and the last one
/// handed out must be the tab's. `tab.shown` is what was handed out (the
/// amount a buyer sees when a token is collected); a queued amount the
/// form already shows, or for a form not mounted, is dropped (`None`) —
/// unless it is the operation's own effect (`last`), which waits for its
/// answer.
fn hand_out(tab: &mut Tab, e: Effect, last: bool) -> Option<Effect> {
    let Effect::UpdateAmount { amount, currency } = e else { return Some(e) };
    let (amount, currency) = tab.state.session().map_or((amount, currency), |s| (s.amount, s.currency.clone()));
    if !last && tab.shown.is_none_or(|shown| shown == amount) {
        return None;
    }
    if tab.shown.is_some() {
        tab.shown = Some(amount);
    }
    Some(Effect::UpdateAmount { amount, currency })
}

/// Ask to write `next` over the record stored now (applied only if that
/// record is still there), kept in `pending` until the answer.
fn ask(stored: Option<&Record>, next: CheckoutState, pending: &mut Option<Box<Record>>) -> Effect {
    let record = Tab::write(stored, next);
    *pending = Some(record.clone());
    Effect::Write { record, expect: stored.map(|r| r.revision) }
}

/// The refusal of a step (a `CirrusError`).
fn refuse(e: Error) -> Effect {
    Effect::Done(Err(Refusal::Error(e)))
}

/// An input that does not belong to the step it was fed to (an executor's
/// bug): the operation ends, naming the input. No `Debug` formatting here:
/// it would pull the formatting of every type into the wasm.
fn unexpected(input: &Input) -> Effect {
    refuse(Error::invalid_state(format!("checkout protocol: the input {} does not belong to this step", input.name())))
}

impl Input {
    /// The variant's name.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        match self {
            Self::None => "None",
            Self::Probed(_) => "Probed",
            Self::Wrote(_) => "Wrote",
            Self::StoreCurrency(_) => "StoreCurrency",
            Self::Initiated(_) => "Initiated",
            Self::Rates(_) => "Rates",
            Self::Updated(_) => "Updated",
            Self::Confirmed(_) => "Confirmed",
            Self::Lock(_) => "Lock",
            Self::Adapter(_) => "Adapter",
            Self::Token(_) => "Token",
        }
    }
}
