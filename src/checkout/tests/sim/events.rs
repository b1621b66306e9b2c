//! The schedule: at every step one thing happens, chosen by the seed among
//! everything that can happen now — an await of some page's operation
//! completes (an answer, the lock, the adapter, the buyer's card, a timer), a
//! message is delivered or lost, a storage event arrives or is lost, the
//! buyer acts (changes the cart, chooses shipping, pays, cancels, opens,
//! closes or reloads a tab), a tab freezes while its lease runs out, storage
//! fills up, the processor settles, the server sweeps. After the chaos phase
//! only the calm things happen and the buyer tries to finish (invariant 5).

use super::cart::Change;
use super::net::{Answer, Leg, Request};
use super::server::{Card, PiStatus};
use super::world::{trace, Then, Token, Wait, World};
use crate::checkout::protocol::{Input, Operation};
use crate::checkout::state::{CheckoutState, Failed};
use crate::error::{Error, ErrorCode};
use crate::model::{PaymentItem, ShippingAddress};

/// At most this many calm steps before the buyer must have finished or be
/// able to start over (invariant 5).
pub const CALM_STEPS: u64 = 800;

pub const RETURN_URL: &str = "https://shop.example/return";

#[derive(Debug, Clone, Copy)]
pub(super) enum Ev {
    /// Operation `o` of page `p`: its await completes.
    Resume(usize, usize),
    Timeout(usize, usize),
    Deliver(usize),
    LoseOut(usize),
    Answer(usize),
    LoseBack(usize),
    StorageEvent(usize, usize),
    LoseStorageEvent(usize, usize),
    /// The cart's `storage` event reaches page `p` (else its copy stays stale).
    CartEvent(usize),
    /// The buyer changes the cart in page `p`, whatever the page awaits.
    CartChange(usize),
    Buyer(usize),
    Close(usize),
    Reload(usize),
    Freeze(usize),
    OpenTab,
    Full(bool),
    Settle,
    Sweep,
    StockGone,
    Finisher(usize),
    /// A tab of another SDK version rewrites the record (`records.rs`).
    OtherVersion,
    OtherVersionFinishes,
    /// Page `p` calls `Checkout.clearStored()` (`records.rs`).
    ClearStored(usize),
}

/// The tests' buyer (`checkout::tests::address`), shipping to `country`.
pub fn address(country: &str) -> ShippingAddress {
    ShippingAddress { country: country.into(), ..crate::checkout::tests::address() }
}

impl World {
    fn runnable(&self, p: usize) -> bool {
        self.pages[p].frozen_until <= self.step
    }

    fn events(&self, out: &mut Vec<(Ev, u32)>) {
        let chaos = !self.calm;
        for (p, page) in self.pages.iter().enumerate() {
            if !self.runnable(p) {
                continue;
            }
            for (o, r) in page.ops.iter().enumerate() {
                match r.wait {
                    Wait::Net(_) => {
                        if chaos {
                            out.push((Ev::Timeout(p, o), 1));
                        }
                    }
                    _ => out.push((Ev::Resume(p, o), 6)),
                }
            }
            for i in 0..page.events.len() {
                out.push((Ev::StorageEvent(p, i), 3));
                if chaos {
                    out.push((Ev::LoseStorageEvent(p, i), 1));
                }
            }
            if self.cart_stale(p) {
                out.push((Ev::CartEvent(p), 2));
            }
            if chaos && !self.cfg.bare {
                out.push((Ev::CartChange(p), 1));
            }
            if chaos {
                let busy = page.ops.iter().any(|r| r.name != "follow");
                out.push((Ev::Buyer(p), if busy { 1 } else { 4 }));
                out.push((Ev::Close(p), 1));
                out.push((Ev::Reload(p), 1));
                if page.kept && self.storage.peek().is_some() && self.step % 13 == 0 {
                    out.push((Ev::ClearStored(p), 1));
                }
                if page.ops.iter().any(|r| r.wait != Wait::Ready(Input::None)) {
                    out.push((Ev::Freeze(p), 1));
                }
            }
        }
        for (m, msg) in self.net.iter().enumerate() {
            let runnable = self.pages.iter().position(|x| x.id == msg.tab).is_none_or(|p| self.runnable(p));
            match msg.leg {
                Leg::Out(_) => {
                    out.push((Ev::Deliver(m), 5));
                    if chaos {
                        out.push((Ev::LoseOut(m), 1));
                    }
                }
                Leg::Back(_) if runnable => {
                    out.push((Ev::Answer(m), 5));
                    if chaos {
                        out.push((Ev::LoseBack(m), 1));
                    }
                }
                Leg::Back(_) => {}
            }
        }
        if self.server.payments.iter().any(|p| matches!(p.status, PiStatus::Processing { .. })) {
            out.push((Ev::Settle, 1));
        }
        if self.server.payments.iter().any(|p| p.status == PiStatus::Authorized) {
            out.push((Ev::Sweep, 1));
        }
        // Another version's tab, and `clearStored`, also while the buyer finishes a payment (`records.rs`).
        let unsettled = self.storage.peek().is_some_and(|r| r.state.payment_unsettled());
        if !self.cfg.absent && self.storage.peek().is_some() && (chaos || (unsettled && !self.other_version_pending() && self.step % 5 == 0)) {
            out.push((Ev::OtherVersion, 1));
        }
        if !chaos && unsettled && self.step % 13 == 0 && !self.pages.is_empty() {
            out.push((Ev::ClearStored(0), 1));
        }
        if self.other_version_pending() {
            out.push((Ev::OtherVersionFinishes, if chaos { 1 } else { 3 }));
        }
        if chaos {
            if self.pages.len() < 4 {
                out.push((Ev::OpenTab, if self.pages.is_empty() { 8 } else { 1 }));
            }
            if !self.cfg.absent {
                out.push((Ev::Full(!self.storage.full), if self.storage.full { 3 } else { 1 }));
            }
            if self.step % 7 == 0 {
                out.push((Ev::StockGone, 1));
            }
        } else if let Some(p) = self.focus() {
            let busy = self.pages[p].ops.iter().any(|r| r.name != "follow");
            if !busy && self.runnable(p) {
                out.push((Ev::Finisher(p), 3));
            }
        }
    }

    /// One step of the schedule; false when nothing can happen.
    pub fn step_once(&mut self, scratch: &mut Vec<(Ev, u32)>) -> bool {
        scratch.clear();
        self.events(scratch);
        if scratch.is_empty() {
            if self.calm && self.pages.is_empty() {
                self.open_page();
                return true;
            }
            return false;
        }
        let weights: Vec<u32> = scratch.iter().map(|&(_, w)| w).collect();
        let ev = scratch[self.rng.weighted(&weights)].0;
        self.step += 1;
        self.clock += self.rng.between(0, 400);
        if let Some(holder) = self.lock.holder(self.clock) {
            if self.pages.iter().any(|p| p.id == holder && p.frozen_until <= self.step) {
                self.lock.renew(holder, self.clock);
            }
        }
        self.apply(ev);
        self.check();
        true
    }

    fn apply(&mut self, ev: Ev) {
        match ev {
            Ev::Resume(p, o) => self.complete(p, o),
            Ev::Timeout(p, o) => {
                let Wait::Net(id) = self.pages[p].ops[o].wait else { return };
                let kind = self.kind_of(id);
                trace!(self, "page {}: gives up waiting for message {id} (timeout)", self.pages[p].id);
                self.resume(p, o, super::exec::input_of(Answer::lost(kind, ErrorCode::Timeout)));
            }
            Ev::Deliver(m) => self.deliver(m),
            Ev::LoseOut(m) | Ev::LoseBack(m) => {
                let kind = self.net[m].kind;
                trace!(self, "network: message {} to page {} lost {}", self.net[m].id, self.net[m].tab, if matches!(ev, Ev::LoseOut(_)) { "before the server" } else { "after the server acted" });
                self.net[m].leg = Leg::Back(Answer::lost(kind, ErrorCode::Network));
            }
            Ev::Answer(m) => self.answer(m),
            Ev::StorageEvent(p, i) => {
                let label = self.pages[p].events.remove(i);
                trace!(self, "page {}: storage event of write {label}", self.pages[p].id);
                for c in 0..self.pages[p].checkouts.len() {
                    if !self.pages[p].checkouts[c].freed {
                        self.begin_on(p, c, Operation::Follow, "follow", Then::Nothing);
                    }
                }
            }
            Ev::LoseStorageEvent(p, i) => {
                let label = self.pages[p].events.remove(i);
                trace!(self, "page {}: storage event of write {label} lost", self.pages[p].id);
            }
            Ev::Buyer(p) => self.buyer(p),
            Ev::CartEvent(p) => self.cart_event(p),
            Ev::CartChange(p) => self.change_cart(p),
            Ev::Close(p) => {
                let orderly = self.rng.percent(50);
                self.close_page(p, orderly);
            }
            Ev::Reload(p) => {
                let orderly = self.rng.percent(70);
                self.close_page(p, orderly);
                self.open_page();
            }
            Ev::Freeze(p) => {
                let steps = self.rng.between(3, 30);
                self.pages[p].frozen_until = self.step + steps;
                self.clock += self.rng.between(1_000, 40_000);
                trace!(self, "page {} frozen for {steps} steps; the clock jumps to {}", self.pages[p].id, self.clock);
            }
            Ev::OpenTab => {
                self.open_page();
            }
            Ev::Full(full) => {
                self.storage.full = full;
                trace!(self, "storage {}", if full { "full: setItem throws" } else { "has room again" });
            }
            Ev::Settle => {
                trace!(self, "processor: processing payments settle");
                self.server.processor_settles();
            }
            Ev::Sweep => {
                trace!(self, "server: reconciliation sweep");
                self.server.sweep();
            }
            Ev::StockGone => {
                let v = self.rng.below(2);
                trace!(self, "another buyer takes the last units of variant {v}");
                self.server.stock_sold_elsewhere(v);
            }
            Ev::Finisher(p) => self.finisher(p),
            Ev::OtherVersion => self.other_version(),
            Ev::OtherVersionFinishes => self.other_version_finishes(),
            Ev::ClearStored(p) => self.clear_stored(p),
        }
    }

    /// The await of operation `o` of page `p` (not a request) completes.
    fn complete(&mut self, p: usize, o: usize) {
        let id = self.pages[p].id;
        let input = match self.pages[p].ops[o].wait.clone() {
            Wait::Ready(input) => input,
            Wait::Net(_) => return,
            Wait::Sleep(until) => {
                self.clock = self.clock.max(until);
                Input::None
            }
            Wait::Lock => {
                let ok = self.lock.try_acquire(id, self.clock);
                trace!(self, "page {id}: lock {}", if ok { "taken" } else { "held by another tab" });
                Input::Lock(if ok { Ok(()) } else { Err(Error::invalid_state("another tab of this cart holds the checkout lock")) })
            }
            Wait::Form => Input::Adapter(Ok(())),
            Wait::Collect => Input::Token(self.collect(p, self.pages[p].ops[o].c)),
            Wait::Action(secret) => Input::Adapter(self.challenge(&secret)),
        };
        self.resume(p, o, input);
    }

    /// The buyer enters a card in page `p`'s form.
    fn collect(&mut self, p: usize, c: usize) -> Result<String, Error> {
        let Some(shown) = self.pages[p].checkouts[c].form else {
            return Err(Error::invalid_state("the payment form is not mounted"));
        };
        if !self.calm && self.rng.percent(5) {
            return Err(Error::invalid_argument("Your card number is incomplete."));
        }
        let card = if self.calm {
            Card::Succeeds
        } else {
            match self.rng.weighted(&[40, 20, 15, 10, 10]) {
                0 => Card::Succeeds,
                1 => Card::Declines,
                2 => Card::ThreeDs { completes: self.rng.percent(70) },
                3 => Card::Processing { succeeds: self.rng.percent(70) },
                _ => Card::FlakyThenSucceeds,
            }
        };
        let token = format!("tok_{}", self.tokens.len());
        self.tokens.push(Token { card, shown: Some(shown), page: self.pages[p].id });
        trace!(self, "page {}: buyer enters a card ({card:?}) while the form shows {shown}: {token}", self.pages[p].id);
        Ok(token)
    }

    /// The buyer answers the 3-D Secure challenge of `secret`.
    fn challenge(&mut self, secret: &str) -> Result<(), Error> {
        let card = self.server.payments.iter().find(|p| format!("{}_secret", p.id) == secret).map(|p| p.card);
        let completes = self.calm || matches!(card, Some(Card::ThreeDs { completes: true }));
        if !self.calm && self.rng.percent(10) {
            trace!(self, "buyer closes the challenge of {secret}");
            return Err(Error::invalid_argument("the authentication window was closed"));
        }
        let known = self.server.next_action(secret, completes).is_some();
        trace!(self, "buyer {} the challenge of {secret}{}", if completes { "completes" } else { "fails" }, if known { "" } else { " (nothing waits on it)" });
        if completes {
            Ok(())
        } else {
            Err(Error::invalid_argument("authentication failed"))
        }
    }

    /// The page that holds the lock, else the first page.
    fn focus(&self) -> Option<usize> {
        let holder = self.lock.holder(self.clock);
        self.pages.iter().position(|p| Some(p.id) == holder).or(if self.pages.is_empty() { None } else { Some(0) })
    }

    /// What the buyer does next on page `p` for the state it shows.
    fn next_action(&mut self, p: usize) {
        if self.opening(p) {
            return; // waiting for start/resume
        }
        let Some(tab) = self.current(p).filter(|_| !self.pages[p].refused) else { return self.open_checkout(p) };
        let state = tab.state().clone();
        match state {
            CheckoutState::Idle | CheckoutState::Cancelled(_) | CheckoutState::Failed(Failed { retryable: false, .. }) => self.open_checkout(p),
            CheckoutState::Succeeded(_) => {
                if !self.cfg.bare && !self.page_items(p).is_empty() {
                    self.open_checkout(p);
                }
            }
            CheckoutState::Initiated(_) => self.choose_shipping(p),
            _ => self.pay(p),
        }
    }

    fn choose_shipping(&mut self, p: usize) {
        if self.current(p).is_none() {
            return self.open_checkout(p);
        }
        let country = if self.rng.percent(60) { "US" } else { "DE" };
        let then = Then::Select { rate: self.rng.below(2), address: address(country) };
        self.begin(p, Operation::ShippingOptions { country: country.into() }, "shippingOptions", then);
    }

    fn pay(&mut self, p: usize) {
        if self.current(p).is_some_and(|t| !t.in_flight()) {
            self.begin(p, Operation::Pay { return_url: RETURN_URL.into() }, "pay", Then::Nothing);
        }
    }

    /// The buyer, during the chaos phase.
    fn buyer(&mut self, p: usize) {
        if self.opening(p) && self.rng.percent(90) {
            return; // waiting for start/resume (or, now and then, clicking again)
        }
        if self.rng.percent(65) {
            return self.next_action(p);
        }
        match self.rng.below(8) {
            0 => self.open_checkout(p),
            1 => self.start(p),
            2 => self.choose_shipping(p),
            3 => self.pay(p),
            4 if self.current(p).is_some() => self.begin(p, Operation::Cancel, "cancel", Then::Nothing),
            5 if self.current(p).is_some() => self.begin(p, Operation::Free, "free", Then::Nothing),
            6 | 7 => self.change_cart(p),
            _ => {}
        }
    }

    fn change_cart(&mut self, p: usize) {
        if self.cfg.bare {
            return;
        }
        let c = self.pages[p].cart;
        let variant = ["var_a", "var_b", "var_c"][self.rng.below(3)];
        let change = match self.carts[c].lines.iter().find(|l| l.variant_id == variant) {
            Some(_) if self.rng.percent(50) => Change::Remove(variant.into()),
            Some(l) if self.rng.percent(50) => Change::Set(variant.into(), 1 + l.quantity % 2),
            _ => Change::Add(variant.into(), 1),
        };
        self.buyer_cart(p, &change);
    }

    /// The calm phase's buyer: gives up what cannot be bought, then does
    /// the next thing for the state the page shows.
    fn finisher(&mut self, p: usize) {
        let c = self.pages[p].cart;
        if !self.cfg.bare {
            let gone: Vec<String> = self.carts[c].lines.iter().filter(|l| !self.sellable(std::slice::from_ref(l))).map(|l| l.variant_id.clone()).collect();
            for v in gone {
                trace!(self, "page {}: buyer takes what is sold out out of the cart", self.pages[p].id);
                self.buyer_cart(p, &Change::Remove(v));
            }
        }
        self.next_action(p);
    }

    /// Whether the server has the stock for `items`.
    fn sellable(&self, items: &[PaymentItem]) -> bool {
        items.iter().all(|l| super::server::VARIANTS.iter().position(|(v, _)| *v == l.variant_id).is_some_and(|v| self.server.stock[v] >= l.quantity))
    }

    /// Invariant 5's goal: nothing of the focus page's cart may still be
    /// charged, and there is nothing left to buy (the cart is empty, or the
    /// bare items' checkout shows `succeeded`).
    pub fn finished(&self) -> bool {
        let Some(p) = self.focus() else { return false };
        let cart = self.pages[p].cart;
        if self.unsettled_of(cart).is_some() || self.net.iter().any(|m| matches!(m.leg, Leg::Out(Request::Confirm(_)))) {
            return false;
        }
        if self.cfg.bare {
            // Paid, or sold out (the page says so; nothing to start over with).
            matches!(self.showing(p), CheckoutState::Succeeded(_)) || !self.sellable(&self.items)
        } else {
            self.carts[cart].lines.is_empty()
        }
    }

    /// The whole schedule: chaos, then calm until finished.
    pub fn run(&mut self) {
        let mut scratch = Vec::with_capacity(64);
        while self.step < self.cfg.chaos_steps && self.violation.is_none() {
            if !self.step_once(&mut scratch) {
                break;
            }
        }
        self.calm = true;
        self.storage.full = false;
        for page in &mut self.pages {
            page.frozen_until = 0;
        }
        trace!(self, "--- faults stop: the buyer finishes ---");
        let start = self.step;
        while self.violation.is_none() {
            if self.finished() {
                self.server.sweep();
                self.check();
                self.check_carts_at_end();
                return;
            }
            if self.step - start >= CALM_STEPS || !self.step_once(&mut scratch) {
                let shows: Vec<String> = (0..self.pages.len()).map(|p| format!("page {} shows {}", self.pages[p].id, self.showing(p).name())).collect();
                let what = self.focus().and_then(|p| self.unsettled_of(self.pages[p].cart));
                self.violate(format!("invariant 5: {} calm steps and the buyer cannot finish ({shows:?}; unsettled: {what:?})", self.step - start));
            }
        }
    }
}
