//! The simulated world of one schedule: one origin's tabs (pages) sharing a
//! storage, a lock and a cart, the network, the server and its processor,
//! the buyer's cards; and the executor that drives each tab's real
//! [`Tab`]/[`Op`] over them. Every await of an operation (a request, the
//! lock, the adapter, a sleep) parks it; the schedule ([`super::events`])
//! decides what happens next. Storage is synchronous, as in a browser: a
//! write is performed in the step that asked for it.

/// A line of the readable trace (formatted only when replaying a seed).
macro_rules! trace {
    ($w:expr, $($arg:tt)*) => {
        if $w.trace.is_some() {
            let line = format!($($arg)*);
            $w.push_trace(line);
        }
    };
}
pub(super) use trace;

use super::lock::{Lock, LockKind};
use super::net::Message;
use super::records::Kept;
use super::rng::Rng;
use super::server::{Card, Server};
use super::storage::Storage;
use crate::checkout::protocol::{Input, Op, Operation, Record, Tab};
use crate::checkout::state::CheckoutState;
use crate::model::{PaymentItem, PaymentStatus, ShippingAddress};

/// What one seed decides before the first step.
#[derive(Debug, Clone)]
pub struct Config {
    pub lock: LockKind,
    /// `localStorage` throws: every page keeps its checkout (and cart) in memory.
    pub absent: bool,
    /// The page passes bare `items` (no cart), the same on every load.
    pub bare: bool,
    /// Steps with faults and the buyer's random actions; then calm.
    pub chaos_steps: u64,
}

/// The buyer's cart (shared by the pages, or one per page without storage).
#[derive(Debug, Clone)]
pub struct Cart {
    pub lines: Vec<PaymentItem>,
    /// The label of what it holds now: a new one on every change.
    pub content: u64,
}

/// A card the buyer entered in a page's payment form.
#[derive(Debug, Clone)]
pub struct Token {
    pub card: Card,
    /// The amount the form showed when the token was collected.
    pub shown: Option<i64>,
    pub page: u32,
}

/// What a parked operation waits for.
#[derive(Debug, Clone, PartialEq)]
pub enum Wait {
    /// Nothing outside: goes on with this input when scheduled (`client.store()`).
    Ready(Input),
    Net(u64),
    /// Until this time (ms).
    Sleep(u64),
    Lock,
    /// A form mounted or told its amount (the form shows it from the call on).
    Form,
    Collect,
    Action(String),
}

/// What the page does when an operation ends (the README's page code).
#[derive(Debug, Clone, PartialEq)]
pub enum Then {
    Nothing,
    /// `Checkout.resume(...) ?? Checkout.start(...)`.
    StartIfNothing,
    /// `shippingOptions(country)` then `selectShipping(rate, address)`.
    Select { rate: usize, address: ShippingAddress },
}

#[derive(Debug, Clone)]
pub struct Running {
    pub serial: u64,
    pub op: Op,
    pub name: &'static str,
    pub wait: Wait,
    pub then: Then,
    /// Which of the page's checkouts it runs on.
    pub c: usize,
    /// The content of the page's cart when the page called the method (the
    /// label of a session it opens).
    pub content: u64,
    /// The token of this operation's last confirm.
    pub confirm: Option<String>,
    /// The server's answer to that confirm (its status), when it is what the
    /// operation's last await brought (a form told an amount since keeps it).
    pub answer: Option<PaymentStatus>,
}

/// One `Checkout` object of a page (`Checkout.start`/`resume` make one each).
#[derive(Debug, Clone)]
pub struct Checkout {
    pub tab: Tab,
    /// The amount its adapter's form shows (this world's own view of it).
    pub form: Option<i64>,
    /// The page let it go (`free()`), or it never came to be (`start`
    /// failed, `resume` gave `null`): it follows nothing any more.
    pub freed: bool,
    /// `start`/`resume` gave it to the page: before that the page has no
    /// object to call methods on.
    pub opened: bool,
}

/// One page (a reload is a new page in the same tab).
#[derive(Debug, Clone)]
pub struct Page {
    pub id: u32,
    /// Its checkouts, the current one last.
    pub checkouts: Vec<Checkout>,
    pub ops: Vec<Running>,
    /// The last method of the current checkout failed with `invalid_state`
    /// (the page does what the message says: open the checkout again).
    pub refused: bool,
    /// `storage` events not delivered yet (labels of the writes).
    pub events: Vec<u64>,
    /// Not scheduled before this step (its timers frozen).
    pub frozen_until: u64,
    pub cart: usize,
    /// The checkout is kept in storage (else in this page's memory).
    pub kept: bool,
    /// The record in this page's memory (`storage: null`, no storage): the
    /// page's checkouts share it as tabs share storage; a reload forgets it.
    pub memory: Storage<Record>,
}

pub struct World {
    pub rng: Rng,
    pub cfg: Config,
    pub server: Server,
    pub storage: Storage<Record>,
    /// What another SDK version wrote, and what is kept aside (`records.rs`).
    pub kept: Kept,
    pub lock: Lock,
    pub pages: Vec<Page>,
    pub net: Vec<Message>,
    pub carts: Vec<Cart>,
    /// The carts as the core's `Cart` holds them, saved and in each page (`cart.rs`).
    pub shelf: Vec<super::cart::Saved>,
    /// The cart each content label belongs to.
    pub contents: Vec<usize>,
    pub tokens: Vec<Token>,
    /// The page's bare items (`cfg.bare`).
    pub items: Vec<PaymentItem>,
    pub clock: u64,
    pub step: u64,
    pub calm: bool,
    /// The checkout reads a page's cart copy without catching up (`cart.rs`, `cart_read`).
    pub stale_read: bool,
    next: u64,
    next_page: u32,
    /// The readable steps, when replaying a seed.
    pub trace: Option<Vec<String>>,
    pub violation: Option<String>,
}

impl World {
    pub fn new(seed: u64, traced: bool) -> Self {
        let mut rng = Rng::new(seed);
        let cfg = Config {
            lock: if rng.percent(50) { LockKind::WebLocks } else { LockKind::Lease },
            absent: rng.percent(4),
            bare: rng.percent(20),
            chaos_steps: rng.between(5, 160),
        };
        let stock = [rng.between(2, 6) as u32, rng.between(1, 4) as u32, 9];
        let items = vec![PaymentItem { variant_id: "var_a".into(), quantity: 1 }];
        let mut w = Self {
            rng,
            storage: Storage::new(cfg.absent),
            kept: Kept::default(),
            lock: Lock::new(cfg.lock),
            cfg,
            server: Server::new(stock),
            pages: Vec::new(),
            net: Vec::new(),
            carts: Vec::new(),
            shelf: Vec::new(),
            contents: Vec::new(),
            tokens: Vec::new(),
            items,
            clock: 0,
            step: 0,
            calm: false,
            stale_read: false,
            next: 1,
            next_page: 1,
            trace: traced.then(Vec::new),
            violation: None,
        };
        trace!(w, "config {:?}, stock {stock:?}", w.cfg);
        if !w.cfg.absent {
            w.new_cart(vec![]);
        }
        let tabs = 1 + w.rng.below(3);
        for _ in 0..tabs {
            w.open_page();
        }
        w
    }

    pub fn push_trace(&mut self, line: String) {
        let (step, clock) = (self.step, self.clock);
        if let Some(t) = &mut self.trace {
            t.push(format!("{step:>5} {clock:>7}ms  {line}"));
        }
    }

    pub fn violate(&mut self, what: String) {
        if self.violation.is_none() {
            trace!(self, "VIOLATION: {what}");
            self.violation = Some(what);
        }
    }

    pub fn fresh(&mut self) -> u64 {
        self.next += 1;
        self.next
    }

    fn new_cart(&mut self, lines: Vec<PaymentItem>) -> usize {
        let content = self.contents.len() as u64;
        self.contents.push(self.carts.len());
        self.carts.push(Cart { lines, content });
        self.carts.len() - 1
    }

    /// The cart changed: it holds new content.
    pub fn cart_changed(&mut self, cart: usize) {
        let content = self.contents.len() as u64;
        self.contents.push(cart);
        self.carts[cart].content = content;
    }

    /// A new page (a new tab, or a reload): it opens the checkout as the
    /// README's page does.
    pub fn open_page(&mut self) -> u32 {
        let id = self.next_page;
        self.next_page += 1;
        let cart = if self.cfg.absent {
            // No storage: the cart lives in this page only.
            self.new_cart(vec![])
        } else {
            0
        };
        let fill = !self.cfg.bare && self.carts[cart].lines.is_empty() && (self.step == 0 || self.cfg.absent);
        self.pages.push(Page {
            id,
            checkouts: Vec::new(),
            ops: Vec::new(),
            refused: false,
            events: Vec::new(),
            frozen_until: 0,
            cart,
            kept: !self.cfg.absent,
            memory: Storage::new(false),
        });
        trace!(self, "page {id} opens");
        let p = self.pages.len() - 1;
        if !self.cfg.bare {
            self.cart_opens(p);
        }
        if fill {
            self.buyer_cart(p, &super::cart::Change::Add(self.items[0].variant_id.clone(), self.items[0].quantity));
        }
        self.open_checkout(p);
        id
    }

    /// The page goes away (closed, or reloaded: `orderly` when `pagehide` ran).
    pub fn close_page(&mut self, p: usize, orderly: bool) {
        let page = self.pages.remove(p);
        self.lock.tab_gone(page.id, orderly);
        trace!(self, "page {} goes away{} with {} operation(s) under way", page.id, if orderly { "" } else { " (killed)" }, page.ops.len());
    }

    /// The items the page shows now (its cart object's copy, stale when it
    /// missed the cart's `storage` events).
    pub fn page_items(&self, p: usize) -> Vec<PaymentItem> {
        if self.cfg.bare {
            self.items.clone()
        } else {
            self.page_cart(p).0
        }
    }

    /// What `start`/`resume` buy: the bare items, or `options.cart.paymentItems()`,
    /// which a persistent `Cart` reads from the cart as saved now (`src/wasm/cart.rs`:
    /// it catches up first, as before a change; issue 41, seeds 11125 and 10624).
    fn checkout_items(&mut self, p: usize) -> Vec<PaymentItem> {
        if !self.cfg.bare {
            self.cart_read(p);
        }
        self.page_items(p)
    }

    /// `Checkout.resume(client, { cart | items }) ?? Checkout.start(...)`:
    /// a new `Checkout` object; the page lets the one it had go (`free()`).
    pub fn open_checkout(&mut self, p: usize) {
        self.new_checkout(p);
        let items = self.checkout_items(p);
        self.begin(p, Operation::Resume { items: Some(items), from_cart: !self.cfg.bare }, "resume", Then::StartIfNothing);
    }

    /// `Checkout.start(client, { cart | items })`: a new `Checkout` object.
    pub fn start(&mut self, p: usize) {
        let items = self.checkout_items(p);
        if !items.is_empty() {
            self.new_checkout(p);
            self.begin(p, Operation::Start { items, currency: "USD".into(), from_cart: !self.cfg.bare }, "start", Then::Nothing);
        }
    }

    fn new_checkout(&mut self, p: usize) {
        self.pages[p].refused = false;
        if self.pages[p].checkouts.last().is_some_and(|c| !c.freed) {
            self.begin(p, Operation::Free, "free", Then::Nothing);
        }
        self.pages[p].checkouts.push(Checkout { tab: Tab::new(!self.cfg.bare), form: None, freed: false, opened: false });
    }

    /// The page's current checkout, once it opened one (not after `free()`:
    /// a freed object has no methods any more).
    pub fn current(&self, p: usize) -> Option<&Tab> {
        self.pages[p].checkouts.last().filter(|c| !c.freed && c.opened).map(|c| &c.tab)
    }

    /// The page waits for `start`/`resume` to give it its checkout.
    pub fn opening(&self, p: usize) -> bool {
        self.pages[p].checkouts.last().is_some_and(|c| !c.freed && !c.opened)
    }

    /// What page `p` shows: its current checkout's state (`checkout.state`).
    pub fn showing(&self, p: usize) -> &CheckoutState {
        self.current(p).map_or(&CheckoutState::Idle, Tab::state)
    }
}
