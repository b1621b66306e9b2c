//! The executor: drives one operation of a page's checkout ([`Op::step`])
//! over the simulated world, performing each effect as the browser
//! executor does (`src/wasm/checkout_exec.rs`): storage at once (a
//! conditional write), an await parks the operation ([`Wait`]) until the
//! schedule completes it; requests go out as messages the server acts on.

use super::check::attempt_token;
use super::net::{Answer, Kind, Leg, Message, Request};
use super::storage::Fault;
use super::world::{trace, Running, Then, Wait, World};
use crate::checkout::protocol::{write_applies, Effect, Input, Operation, Outcome, Record, Stored};
use crate::checkout::state::CheckoutState;
use crate::error::{Error, ErrorCode};
use crate::model::{PaymentItem, PaymentStatus};

/// At most this many effects in one turn of one operation (a loop that never
/// awaits is a violation, not a hang).
const TURN: usize = 500;

impl World {
    pub fn find(&self, page: u32, serial: u64) -> Option<(usize, usize)> {
        let p = self.pages.iter().position(|x| x.id == page)?;
        let o = self.pages[p].ops.iter().position(|r| r.serial == serial)?;
        Some((p, o))
    }

    /// The page calls a method of its current checkout: the operation runs
    /// until its first await.
    pub fn begin(&mut self, p: usize, operation: Operation, name: &'static str, then: Then) {
        let c = self.pages[p].checkouts.len() - 1;
        self.begin_on(p, c, operation, name, then);
    }

    /// An operation of checkout `c` of page `p`.
    pub fn begin_on(&mut self, p: usize, c: usize, operation: Operation, name: &'static str, then: Then) {
        let serial = self.fresh();
        let content = if self.cfg.bare { self.carts[self.pages[p].cart].content } else { self.page_cart(p).1 };
        let page = &mut self.pages[p];
        let id = page.id;
        if matches!(operation, Operation::Free) {
            page.checkouts[c].freed = true;
        }
        let op = page.checkouts[c].tab.begin(operation);
        page.ops.push(Running { serial, op, name, wait: Wait::Ready(Input::None), then, c, content, confirm: None, answer: None });
        trace!(self, "page {id}: {name}() #{serial} (checkout {c})");
        self.drive(id, serial, Input::None);
    }

    /// The stored record as page `p` reads it right before a step.
    fn stored(&mut self, p: usize) -> Stored {
        if !self.pages[p].kept {
            return Ok(self.pages[p].memory.peek().cloned());
        }
        self.read_kept()
    }

    /// Run operation `serial` of page `page` with `input` until it awaits or ends.
    pub fn drive(&mut self, page: u32, serial: u64, mut input: Input) {
        for _ in 0..TURN {
            let Some((p, o)) = self.find(page, serial) else { return };
            let stored = self.stored(p);
            let pg = &mut self.pages[p];
            let running = &mut pg.ops[o];
            let effect = running.op.step(&mut pg.checkouts[running.c].tab, stored, input);
            let wait = match effect {
                Effect::Done(result) => {
                    let running = self.pages[p].ops.remove(o);
                    trace!(self, "page {page}: {} #{serial} -> {result:?}", running.name);
                    if running.name == "pay" && result.is_ok() {
                        self.answer_shown(p, &running);
                    }
                    if running.name != "follow" && running.c + 1 == self.pages[p].checkouts.len() {
                        self.pages[p].refused = result.as_ref().is_err_and(|r| r.error().code == ErrorCode::InvalidState);
                    }
                    if matches!(running.name, "start" | "resume") {
                        let checkout = &mut self.pages[p].checkouts[running.c];
                        match &result {
                            Ok(Outcome::Opened { .. }) => checkout.opened = true,
                            _ => checkout.freed = true,
                        }
                    }
                    if !self.pages[p].checkouts[running.c].freed {
                        self.then(p, running.c, running.then, &result);
                    } else if running.then == Then::StartIfNothing && matches!(result, Ok(Outcome::Nothing)) && running.c + 1 == self.pages[p].checkouts.len() {
                        // `resume` gave `null`: `start`.
                        self.start(p);
                    }
                    return;
                }
                e => match self.perform(p, o, e) {
                    Ok(next) => {
                        input = next;
                        continue;
                    }
                    Err(wait) => wait,
                },
            };
            if let Some((p, o)) = self.find(page, serial) {
                self.pages[p].ops[o].wait = wait;
            }
            return;
        }
        self.violate(format!("page {page}: operation #{serial} ran {TURN} effects without awaiting"));
    }

    /// Invariant 4 for the answer a page got: a `pay()` that ends on the
    /// server's answer to its own confirm (the answer is what its last await
    /// brought) shows that answer: not its confirm of that token still in
    /// flight, and after a final answer (paid, declined, canceled) not that
    /// token's payment unsettled, even when the stored record has moved on.
    /// A run that handed over to another tab's run of its token (it adopted
    /// that run's record after its next action or a wait) ended on something
    /// else, and that tab's answer settles it: it is not judged here.
    fn answer_shown(&mut self, p: usize, running: &Running) {
        let (Some(token), Some(status)) = (&running.confirm, running.answer) else { return };
        let state = self.pages[p].checkouts[running.c].tab.state();
        let in_flight = matches!(state, CheckoutState::Paying(s) if s.attempt.confirm_in_flight);
        let last = matches!(status, PaymentStatus::Succeeded | PaymentStatus::RequiresPaymentMethod | PaymentStatus::Canceled);
        if attempt_token(state) == Some(token.as_str()) && (in_flight || (last && state.payment_unsettled())) {
            let what = format!("invariant 4: page {}'s pay() ended on the answer {status:?} to its confirm of {token} and shows `{}`{}", self.pages[p].id, state.name(), if in_flight { " with that confirm in flight" } else { " unsettled" });
            self.violate(what);
        }
    }

    /// What the page does once an operation ended.
    fn then(&mut self, p: usize, c: usize, then: Then, result: &Result<Outcome, crate::checkout::protocol::Refusal>) {
        match (then, result) {
            (_, Ok(Outcome::Opened { finish: true })) => self.begin_on(p, c, Operation::Finish, "finish", Then::Nothing),
            (Then::Select { rate, address }, Ok(Outcome::Options(options))) => {
                if let Some(o) = options.get(rate % options.len().max(1)) {
                    let rate_id = o.rate.id.clone();
                    self.begin_on(p, c, Operation::SelectShipping { rate_id, address }, "selectShipping", Then::Nothing);
                }
            }
            _ => {}
        }
    }

    /// Perform an effect: `Ok(input)` when done at once (storage, the
    /// listeners, the cart), `Err(wait)` when the operation awaits.
    fn perform(&mut self, p: usize, o: usize, effect: Effect) -> Result<Input, Wait> {
        let id = self.pages[p].id;
        let c = self.pages[p].ops[o].c;
        trace!(self, "page {id}:   {}", short(&format!("{effect:?}")));
        match effect {
            Effect::Probe => Ok(Input::Probed(self.probe())),
            Effect::Write { record, expect } => Ok(Input::Wrote(self.write(p, *record, expect))),
            Effect::ReleaseLock => {
                self.lock.release(id);
                Ok(Input::None)
            }
            Effect::Unmount => {
                self.pages[p].checkouts[c].form = None;
                Ok(Input::None)
            }
            Effect::EmptyCart { session, paid } => {
                self.empty_cart(p, &session, &paid);
                Ok(Input::None)
            }
            Effect::Emit(_) => Ok(Input::None),
            Effect::FirstAnswer => Ok(Input::None),
            Effect::StoreCurrency => Err(Wait::Ready(Input::StoreCurrency(Ok(Some("USD".into()))))),
            Effect::AcquireLock => Err(Wait::Lock),
            Effect::Mount(session) => {
                self.pages[p].checkouts[c].form = Some(session.amount);
                Err(Wait::Form)
            }
            Effect::UpdateAmount { amount, .. } => {
                self.pages[p].checkouts[c].form = Some(amount);
                Err(Wait::Form)
            }
            Effect::CollectToken => {
                self.card_asked_with_the_lock(id);
                Err(Wait::Collect)
            }
            Effect::NextAction(secret) => Err(Wait::Action(secret)),
            Effect::Sleep(ms) => Err(Wait::Sleep(self.clock + u64::from(ms))),
            Effect::Initiate(req) => {
                self.no_session_while_unsettled(self.pages[p].cart);
                self.no_session_while_kept(p);
                let content = self.pages[p].ops[o].content;
                Err(self.send(p, Request::Initiate { items: req.items, content }))
            }
            Effect::Rates(req) => Err(self.send(p, Request::Rates(req.variant_ids))),
            Effect::Update(req) => Err(self.send(p, Request::Update(*req))),
            Effect::Confirm(req) => {
                self.confirm_after_record(p, &req);
                self.pages[p].ops[o].confirm = Some(req.confirmation_token_id.clone());
                Err(self.send(p, Request::Confirm(*req)))
            }
            Effect::Done(_) => unreachable!("handled by drive"),
        }
    }

    fn send(&mut self, p: usize, request: Request) -> Wait {
        let id = self.fresh();
        let kind = request.kind();
        self.net.push(Message { id, tab: self.pages[p].id, leg: Leg::Out(request), kind });
        Wait::Net(id)
    }

    fn probe(&self) -> Result<(), String> {
        if self.cfg.absent {
            return Ok(()); // this page's memory
        }
        if self.storage.full {
            return Err("QuotaExceededError: the quota has been exceeded".into());
        }
        Ok(())
    }

    /// A conditional write: applied only if the stored revision is `expect`.
    fn write(&mut self, p: usize, record: Record, expect: Option<u64>) -> Result<bool, String> {
        // The browser executor's own rule (`Inner::write`): `write_applies` on the record read now.
        if !self.pages[p].kept {
            let memory = &mut self.pages[p].memory;
            if !write_applies(&Ok(memory.peek().cloned()), expect) {
                return Ok(false);
            }
            return memory.write(record).map(|()| true).map_err(|_| "this page's memory refused a write".to_string());
        }
        self.storage.read().map_err(|_| "SecurityError: localStorage is not available".to_string())?;
        // As the browser's write: the record read now as `Inner::read` reads it (one that does not
        // read is not written over).
        if !write_applies(&self.read_kept(), expect) {
            trace!(self, "    not applied: stored revision {:?}, expected {expect:?}", self.storage.peek().map(|r| r.revision));
            return Ok(false);
        }
        self.storage.write(record).map_err(|f| match f {
            Fault::Full => "QuotaExceededError: the quota has been exceeded".to_string(),
            Fault::Absent => "SecurityError: localStorage is not available".to_string(),
        })?;
        self.kept_written();
        let label = self.storage.writes;
        let me = self.pages[p].id;
        for page in &mut self.pages {
            if page.id != me {
                page.events.push(label);
            }
        }
        Ok(true)
    }

    /// The page's cart takes out what was paid (`cart.rs`).
    fn empty_cart(&mut self, p: usize, session: &str, paid: &[PaymentItem]) {
        if !self.cfg.bare {
            self.take_paid(p, session, paid);
        }
    }

    /// The answer to a parked operation's await, and the operation goes on.
    pub fn resume(&mut self, p: usize, o: usize, input: Input) {
        let (page, serial) = (self.pages[p].id, self.pages[p].ops[o].serial);
        let running = &mut self.pages[p].ops[o];
        if running.wait != Wait::Form {
            running.answer = match &input {
                Input::Confirmed(Ok(a)) => Some(a.status),
                _ => None,
            };
        }
        running.wait = Wait::Ready(Input::None);
        self.drive(page, serial, input);
    }

    /// The server acts on message `m` (on its way out).
    pub fn deliver(&mut self, m: usize) {
        let Leg::Out(request) = self.net[m].leg.clone() else { return };
        let answer = match &request {
            Request::Initiate { items, content, .. } => Answer::Initiated(self.server.initiate(items, *content).map_err(refused)),
            Request::Rates(ids) => Answer::Rates(self.server.rates(ids).map_err(refused)),
            Request::Update(req) => Answer::Updated(self.server.update(req).map_err(refused)),
            Request::Confirm(req) => {
                let card = token_index(&req.confirmation_token_id).and_then(|i| self.tokens.get(i)).map(|t| t.card);
                match card {
                    Some(card) => Answer::Confirmed(self.server.confirm(req, card).map_err(refused)),
                    None => Answer::Confirmed(Err(Error::new(ErrorCode::InvalidRequest, "unknown token").with_status(400))),
                }
            }
        };
        trace!(self, "server: {} -> {}", short(&format!("{request:?}")), short(&format!("{answer:?}")));
        self.net[m].leg = Leg::Back(answer);
    }

    /// The answer of message `m` reaches its page (if it still waits for it).
    pub fn answer(&mut self, m: usize) {
        let msg = self.net.remove(m);
        let Leg::Back(answer) = msg.leg else { return };
        let Some(p) = self.pages.iter().position(|x| x.id == msg.tab) else { return };
        let Some(o) = self.pages[p].ops.iter().position(|r| r.wait == Wait::Net(msg.id)) else { return };
        let input = self.as_read(input_of(answer));
        self.resume(p, o, input);
    }

    pub fn kind_of(&self, id: u64) -> Kind {
        self.net.iter().find(|m| m.id == id).map_or(Kind::Rates, |m| m.kind)
    }
}

pub fn input_of(answer: Answer) -> Input {
    match answer {
        Answer::Initiated(r) => Input::Initiated(r),
        Answer::Rates(r) => Input::Rates(r),
        Answer::Updated(r) => Input::Updated(r),
        Answer::Confirmed(r) => Input::Confirmed(r),
    }
}

fn refused(r: super::server::Refusal) -> Error {
    Error::new(ErrorCode::from(r.code), r.message).with_status(r.code.status())
}

pub fn token_index(token: &str) -> Option<usize> {
    token.strip_prefix("tok_")?.parse().ok()
}

/// A debug form cut to a readable length.
pub fn short(s: &str) -> String {
    if s.len() <= 220 {
        return s.to_string();
    }
    let mut end = 220;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &s[..end])
}

