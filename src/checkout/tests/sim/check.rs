//! The invariants, checked after every step (and at the two moments that
//! matter: a new payment session asked for, a confirm sent):
//!
//! 1. charges per cart content <= 1, and every charge has its order;
//! 2. the amount charged is the amount the paying page's form showed when
//!    its token was collected;
//! 3. no new payment session while a payment of the cart is unsettled (and,
//!    CONTRACT: a confirm goes out only after its in-flight record was written);
//! 4. no page shows a final outcome the server contradicts, and a `pay()`
//!    that ends on the server's answer to its confirm shows it ([`super::exec`]);
//! 5. once faults stop, the buyer can finish or start over within a bounded
//!    number of steps ([`super::events`], the calm phase).

use super::net::{Leg, Request};
use super::server::{PiStatus, Server};
use super::exec::token_index;
use super::world::{trace, World};
use crate::checkout::state::{CheckoutState, Confirming, Failed, Paying, RequiresAction};
use crate::model::ConfirmRequest;

/// The token of the attempt a state has in flight or pending.
pub fn attempt_token(state: &CheckoutState) -> Option<&str> {
    match state {
        CheckoutState::Paying(Paying { attempt, .. })
        | CheckoutState::Confirming(Confirming { attempt, .. })
        | CheckoutState::RequiresAction(RequiresAction { attempt, .. })
        | CheckoutState::Failed(Failed { pending: Some(attempt), .. }) => Some(&attempt.token),
        _ => None,
    }
}

impl World {
    fn cart_of_session(&self, s: usize) -> usize {
        self.contents.get(self.server.sessions[s].content as usize).copied().unwrap_or(usize::MAX)
    }

    fn session_index(&self, id: &str) -> Option<usize> {
        self.server.sessions.iter().position(|s| s.id == id)
    }

    /// Would delivering this confirm now make a payment that is unsettled or a charge?
    fn confirm_may_charge(&self, req: &ConfirmRequest) -> bool {
        let Some(card) = token_index(&req.confirmation_token_id).and_then(|i| self.tokens.get(i)).map(|t| t.card) else { return false };
        let mut server: Server = self.server.clone();
        let before = server.payments.len();
        let _ = server.confirm(req, card);
        server.payments[before..].iter().any(|p| p.unsettled() || p.charged())
    }

    /// What of `cart` may still be charged: a payment not settled into an
    /// order yet, or a confirm on its way that would make one.
    pub fn unsettled_of(&self, cart: usize) -> Option<String> {
        for p in &self.server.payments {
            if self.cart_of_session(p.session) == cart && (p.unsettled() || p.status == PiStatus::Authorized) {
                return Some(format!("payment {} ({:?}) of session {}", p.id, p.status, self.server.sessions[p.session].id));
            }
        }
        for m in &self.net {
            if let Leg::Out(Request::Confirm(req)) = &m.leg {
                let mine = self.session_index(&req.session_id).is_some_and(|s| self.cart_of_session(s) == cart);
                if mine && self.confirm_may_charge(req) {
                    return Some(format!("a confirm of {} for session {} on its way", req.confirmation_token_id, req.session_id));
                }
            }
        }
        None
    }

    /// Invariant 3, when a page asks for a new payment session.
    pub fn no_session_while_unsettled(&mut self, cart: usize) {
        if let Some(what) = self.unsettled_of(cart) {
            self.violate(format!("invariant 3: a new payment session is asked for while {what} is unsettled"));
        }
    }

    /// CONTRACT "the record is written before the money moves": when a page
    /// sends a confirm, its record (in storage, or in the page's memory) has
    /// that attempt in flight.
    pub fn confirm_after_record(&mut self, p: usize, req: &ConfirmRequest) {
        let record = if self.pages[p].kept { self.storage.peek() } else { self.pages[p].memory.peek() };
        let ok = record.is_some_and(|r| {
            r.state.payment_unsettled()
                && attempt_token(&r.state) == Some(req.confirmation_token_id.as_str())
                && r.state.session().is_some_and(|s| s.session_id == req.session_id)
        });
        if !ok {
            let stored = record.map(|r| (r.revision, r.state.name(), attempt_token(&r.state).map(str::to_string)));
            self.violate(format!(
                "invariant 3: page {} confirms {} for {} but the stored record is {stored:?}",
                self.pages[p].id, req.confirmation_token_id, req.session_id
            ));
        }
    }

    /// Invariants 1, 2 and 4, after every step.
    pub fn check(&mut self) {
        if self.violation.is_some() {
            return;
        }
        if let Some(v) = self.check_charges().or_else(|| self.check_pages()).or_else(|| self.check_record()).or_else(|| self.check_answers()) {
            self.violate(v);
        }
    }

    fn check_charges(&self) -> Option<String> {
        let charged: Vec<_> = self.server.payments.iter().filter(|p| p.charged()).collect();
        for (i, a) in charged.iter().enumerate() {
            let content = self.server.sessions[a.session].content;
            if let Some(b) = charged[..i].iter().find(|b| self.server.sessions[b.session].content == content) {
                return Some(format!(
                    "invariant 1: cart content {content} charged twice: {} ({}, session {}) and {} ({}, session {})",
                    b.id, b.token, self.server.sessions[b.session].id, a.id, a.token, self.server.sessions[a.session].id
                ));
            }
            let token = token_index(&a.token).and_then(|t| self.tokens.get(t));
            let shown = token.and_then(|t| t.shown);
            if shown != Some(a.amount) {
                let page = token.map(|t| t.page);
                return Some(format!(
                    "invariant 2: {} charged {} for {} but page {page:?}'s form showed {shown:?} when the token was collected",
                    a.id, a.amount, a.token
                ));
            }
        }
        let captured = self.server.payments.iter().filter(|p| p.status == PiStatus::Captured).count();
        let orders_of_captures = self.server.orders.iter().all(|o| {
            let p = &self.server.payments[o.payment];
            p.status == PiStatus::Captured && p.session == o.session && p.amount == o.amount
        });
        if captured != self.server.orders.len() || !orders_of_captures {
            return Some(format!("invariant 1: {captured} captured payments, orders {:?}", self.server.orders));
        }
        None
    }

    fn check_pages(&self) -> Option<String> {
        let charged = |pi: &str| self.server.payments.iter().any(|p| p.id == pi && p.charged());
        for (p, page) in self.pages.iter().enumerate() {
            let showing = self.showing(p);
            let contradiction = match showing {
                CheckoutState::Succeeded(s) => {
                    (!self.server.payments.iter().any(|p| p.id == s.payment_intent_id && p.status == PiStatus::Captured)).then(|| "succeeded")
                }
                CheckoutState::Cancelled(c) => c
                    .session_id
                    .as_deref()
                    .and_then(|sid| self.session_index(sid))
                    .is_some_and(|s| self.server.payments.iter().any(|p| p.session == s && p.charged()))
                    .then(|| "cancelled"),
                CheckoutState::Failed(f) if f.pending.is_none() => {
                    let session = self.session_index(&f.session.session_id);
                    let final_but_charged = !f.retryable && session.is_some_and(|s| self.server.payments.iter().any(|p| p.session == s && p.charged()));
                    let named_charged = f.payment_intent_id.as_deref().is_some_and(charged);
                    (final_but_charged || named_charged).then(|| "failed")
                }
                _ => None,
            };
            if let Some(shown) = contradiction {
                return Some(format!("invariant 4: page {} shows `{shown}` but the server says otherwise: {:?}", page.id, showing));
            }
        }
        None
    }

    /// Invariant 4 on the record every tab reads: it never says a session's
    /// payment is over (`failed` with nothing pending, `cancelled`) while the
    /// session's payment is `processing`, authorized or captured.
    fn check_record(&self) -> Option<String> {
        let r = self.storage.peek()?;
        let sid = match &r.state {
            CheckoutState::Failed(f) if f.pending.is_none() => f.session.session_id.as_str(),
            CheckoutState::Cancelled(c) => c.session_id.as_deref()?,
            _ => return None,
        };
        let pay = &self.server.payments[self.server.sessions[self.session_index(sid)?].payment?];
        matches!(pay.status, PiStatus::Processing { .. } | PiStatus::Authorized | PiStatus::Captured).then(|| {
            format!("invariant 4: the stored record (rev {}) says `{}` for {sid} while its payment {} ({}) is {:?}", r.revision, r.state.name(), pay.id, pay.token, pay.status)
        })
    }

    /// The state of the server, for the end of a trace.
    pub fn trace_server(&mut self) {
        let payments: Vec<String> = self.server.payments.iter().map(|p| format!("{} {} {:?} {} of {}", p.id, p.token, p.status, p.amount, self.server.sessions[p.session].id)).collect();
        let sessions: Vec<String> = self.server.sessions.iter().map(|s| format!("{} content {} amount {}", s.id, s.content, s.amount)).collect();
        trace!(self, "server sessions: {sessions:?}");
        trace!(self, "server payments: {payments:?}; orders {}", self.server.orders.len());
    }
}
