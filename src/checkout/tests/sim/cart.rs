//! The cart as part of the world (issue 41): the buyer's persistent cart,
//! saved in storage (or, without storage, in each page's memory), with a copy
//! in every page that follows other pages' saves through `storage` events,
//! some of them never delivered (a page restored from the back/forward cache,
//! a frozen tab). It runs the core's own rules, as `src/wasm/cart.rs` does:
//! every change of a page's cart starts from the saved form as it is then
//! (`State::catch_up`: a stale copy is replaced first, never written back),
//! and a paid checkout's quantities leave through [`crate::cart::Cart::take_paid`],
//! asked by every page whose checkout sees the payment succeed
//! ([`crate::checkout::protocol::Effect::EmptyCart`]).
//!
//! Invariant 6, the cart's ledger: the quantities of a paid checkout leave
//! the cart exactly once, and nothing the buyer added beyond them is lost.
//! Every change of the saved cart is attributed: the buyer's (add, remove,
//! change a quantity), or a paid checkout's take. A take is allowed only for
//! a session the server has an order for, and what all takes of one session
//! removed from a variant's line is at most what that session paid for
//! (the line as it was: a take never reaches beyond the paid quantities into
//! what the buyer added since). After the schedule, every paid session a page
//! asked the cart about was taken (at least once: with the above, exactly once).

use super::world::{trace, World};
use crate::cart::{Cart, CartProduct, CartVariant};
use crate::model::{PaymentItem, ProductStatus, StockStatus};

/// One saved cart (index as `World::carts`) and its pages' copies.
#[derive(Debug, Clone)]
pub struct Saved {
    pub cart: Cart,
    /// Each page's copy (page id, its cart, stale: a save of another page
    /// whose `storage` event has not reached it, and the content label of
    /// what the copy holds: `World::carts`' label when it was saved).
    pub copies: Vec<(u32, Cart, bool, u64)>,
    /// What each paid session's takes removed, per variant (session, variant, units).
    pub taken: Vec<(String, String, u32)>,
    /// The sessions a page asked the cart to take out.
    pub asked: Vec<(String, Vec<PaymentItem>)>,
    /// The ledger: per variant, what the buyer's changes put in minus what
    /// paid checkouts took out (what the saved cart must hold).
    pub ledger: Vec<(String, i64)>,
}

impl Saved {
    fn book(&mut self, variant: &str, delta: i64) {
        match self.ledger.iter_mut().find(|x| x.0 == variant) {
            Some(x) => x.1 += delta,
            None => self.ledger.push((variant.to_owned(), delta)),
        }
    }
}

/// Per variant, `after` minus `before`.
fn deltas(before: &Cart, after: &Cart) -> Vec<(String, i64)> {
    let mut out: Vec<(String, i64)> = before.lines().iter().map(|l| (l.variant_id.clone(), -i64::from(l.quantity))).collect();
    for l in after.lines() {
        match out.iter_mut().find(|x| x.0 == l.variant_id) {
            Some(x) => x.1 += i64::from(l.quantity),
            None => out.push((l.variant_id.clone(), i64::from(l.quantity))),
        }
    }
    out
}

/// The catalog product of a simulated variant (the cart's own cap: 99).
fn product(variant: &str) -> CartProduct {
    let price = super::server::VARIANTS.iter().find(|(v, _)| *v == variant).map_or(100, |(_, p)| *p);
    CartProduct {
        id: format!("prod_{variant}"),
        name: variant.into(),
        slug: variant.into(),
        status: ProductStatus::Active,
        images: vec![],
        variants: vec![CartVariant {
            id: variant.into(),
            price: crate::money::format_decimal(price, 2),
            compare_at_price: None,
            stock_quantity: 99,
            stock_status: StockStatus::InStock,
            image: None,
            attributes: crate::strmap::StrMap::default(),
        }],
    }
}

/// A change the buyer makes to a page's cart.
#[derive(Debug, Clone)]
pub enum Change {
    Add(String, u32),
    Set(String, u32),
    Remove(String),
}

impl World {
    /// The saved cart `c` (made empty on first use).
    fn saved(&mut self, c: usize) -> &mut Saved {
        while self.shelf.len() <= c {
            self.shelf.push(Saved { cart: Cart::new("USD").unwrap_or_else(|_| unreachable!()), copies: vec![], taken: vec![], asked: vec![], ledger: vec![] });
        }
        &mut self.shelf[c]
    }

    /// Page `id`'s copy of cart `c`, caught up with the saved form first (as
    /// the persistent `Cart` does before every change).
    fn caught_up(&mut self, c: usize, id: u32) -> Cart {
        let label = self.carts[c].content;
        let s = self.saved(c);
        let now = s.cart.clone();
        match s.copies.iter_mut().find(|x| x.0 == id) {
            Some(x) => {
                x.1 = now.clone();
                x.2 = false;
                x.3 = label;
            }
            None => s.copies.push((id, now.clone(), false, label)),
        }
        now
    }

    /// Page `p`'s cart object answers `paymentItems()`: it catches up with
    /// the saved form first (`Cart::catch_up`), unless the simulation is told
    /// to read the page's copy as it is (`CIRRUS_SIM_STALE_READ=1`: the code
    /// before that rule, for its seeds).
    pub fn cart_read(&mut self, p: usize) {
        if !self.stale_read {
            let (c, id) = (self.pages[p].cart, self.pages[p].id);
            self.caught_up(c, id);
        }
    }

    /// A new page's persistent `Cart` reads the saved form (`Cart.persistent`).
    pub fn cart_opens(&mut self, p: usize) {
        let (c, id) = (self.pages[p].cart, self.pages[p].id);
        self.caught_up(c, id);
    }

    /// What page `p`'s cart object answers `paymentItems()` with, and the
    /// content label of that: the page's copy, as the wasm `Cart`'s getters
    /// read it (stale when the page missed `storage` events).
    pub fn page_cart(&self, p: usize) -> (Vec<PaymentItem>, u64) {
        let (c, id) = (self.pages[p].cart, self.pages[p].id);
        let copy = self.shelf.get(c).and_then(|s| s.copies.iter().find(|x| x.0 == id));
        copy.map_or_else(|| (self.carts[c].lines.clone(), self.carts[c].content), |x| (x.1.payment_items(), x.3))
    }

    /// Page `id` saved `cart` as cart `c`: the other pages' copies are stale
    /// until their `storage` event arrives; `World::carts` shows it.
    fn save(&mut self, c: usize, id: u32, cart: Cart) {
        let s = self.saved(c);
        for x in &mut s.copies {
            if x.0 == id {
                x.1 = cart.clone();
            } else {
                x.2 = true;
            }
        }
        s.cart = cart;
        let lines = self.shelf[c].cart.payment_items();
        if lines != self.carts[c].lines {
            self.carts[c].lines = lines;
            self.cart_changed(c);
        }
        let label = self.carts[c].content;
        if let Some(x) = self.shelf[c].copies.iter_mut().find(|x| x.0 == id) {
            x.3 = label;
        }
    }

    /// The buyer changes the cart in page `p` (the `Cart`'s own methods).
    pub fn buyer_cart(&mut self, p: usize, change: &Change) {
        let (c, id) = (self.pages[p].cart, self.pages[p].id);
        let before = self.caught_up(c, id);
        let mut cart = before.clone();
        let _ = match change {
            Change::Add(v, n) => cart.add(&product(v), v, *n).map(drop),
            Change::Set(v, n) => cart.set_quantity(v, *n).map(drop),
            Change::Remove(v) => cart.remove(v).map(drop).ok_or_else(|| crate::error::Error::invalid_argument("no line")),
        };
        trace!(self, "page {id}: buyer {change:?} -> {:?}", cart.payment_items());
        for (v, d) in deltas(&before, &cart) {
            self.shelf[c].book(&v, d);
        }
        self.save(c, id, cart);
        self.check_cart(c);
    }

    /// A `storage` event of the cart reaches page `p` (its copy is the saved cart again).
    pub fn cart_event(&mut self, p: usize) {
        let (c, id) = (self.pages[p].cart, self.pages[p].id);
        self.caught_up(c, id);
        trace!(self, "page {id}: the cart's storage event: {:?} (content {})", self.carts[c].lines, self.carts[c].content);
    }

    /// Whether page `p`'s copy of its cart is stale.
    pub fn cart_stale(&self, p: usize) -> bool {
        let id = self.pages[p].id;
        self.shelf.get(self.pages[p].cart).is_some_and(|s| s.copies.iter().any(|x| x.0 == id && x.2))
    }

    /// `Effect::EmptyCart` in page `p`: the cart takes out what checkout
    /// `session` paid for (`Cart::take_paid`, on the saved cart as it is now).
    pub fn take_paid(&mut self, p: usize, session: &str, paid: &[PaymentItem]) {
        let (c, id) = (self.pages[p].cart, self.pages[p].id);
        let before = self.caught_up(c, id);
        let mut cart = before.clone();
        let changed = cart.take_paid(session, paid);
        trace!(self, "page {id}: cart.takePaid({session}) -> {changed}, {:?}", cart.payment_items());
        let s = self.saved(c);
        s.asked.push((session.to_owned(), paid.to_vec()));
        for l in before.lines() {
            let left = cart.line(&l.variant_id).map_or(0, |x| x.quantity);
            if left < l.quantity {
                s.taken.push((session.to_owned(), l.variant_id.clone(), l.quantity - left));
                s.book(&l.variant_id, -i64::from(l.quantity - left));
            }
        }
        if changed {
            self.save(c, id, cart);
        }
        self.check_cart(c);
    }

    /// Invariant 6 for cart `c` (module documentation).
    pub fn check_cart(&mut self, c: usize) {
        let Some(s) = self.shelf.get(c) else { return };
        let mut what = None;
        for (session, variant, _) in &s.taken {
            let ordered = self.server.orders.iter().any(|o| self.server.sessions[o.session].id == *session);
            let paid = self.server.sessions.iter().find(|x| x.id == *session).and_then(|x| x.items.iter().find(|i| i.variant_id == *variant)).map_or(0, |i| i.quantity);
            let taken: u32 = s.taken.iter().filter(|t| t.0 == *session && t.1 == *variant).map(|t| t.2).sum();
            if !ordered || taken > paid {
                what = Some(format!("invariant 8: cart {c}: checkout {session} took {taken} of {variant} out of the cart (paid: {paid}, ordered: {ordered})"));
                break;
            }
        }
        for (v, want) in &s.ledger {
            let has = s.cart.line(v).map_or(0, |l| i64::from(l.quantity));
            if what.is_none() && has != *want {
                what = Some(format!("invariant 8: cart {c} holds {has} of {v}, the buyer's changes less the paid checkouts' takes say {want}"));
            }
        }
        if let Some(what) = what {
            self.violate(what);
        }
    }

    /// Invariant 6 at the end: every paid session a page asked about left the
    /// cart (its takes removed something, or none of it was in the cart when
    /// the first page asked: checked by `Cart::take_paid`'s record).
    pub fn check_carts_at_end(&mut self) {
        for c in 0..self.shelf.len() {
            let s = &self.shelf[c];
            let missing = s.asked.iter().find(|(session, _)| !s.cart.settled().contains(session) && s.cart.settled().len() < crate::cart::paid::SETTLED_KEPT);
            if let Some((session, _)) = missing {
                let what = format!("invariant 8: cart {c}: checkout {session} was paid and asked about, but the cart does not record it taken");
                self.violate(what);
                return;
            }
        }
    }

    /// Invariant 7, the lock's one job (a courtesy, not a safeguard: the
    /// conditional writes keep the money safe without it): a page asks its
    /// buyer for a card only while it holds the cart's lock, so a second tab's
    /// buyer is told the checkout is in progress elsewhere before entering a
    /// card that another tab's payment would make moot.
    pub fn card_asked_with_the_lock(&mut self, page: u32) {
        let holder = self.lock.holder(self.clock);
        if holder != Some(page) {
            self.violate(format!("invariant 9: page {page} asks for a card while the cart's lock is held by {holder:?}"));
        }
    }
}
