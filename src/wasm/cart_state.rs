//! The state behind a `Cart` (src/wasm/cart.rs): the core cart, the line snapshots handed to
//! JS, the persistence, the listeners, and the events the listeners receive. Shared by the
//! class and by its storage-event listener (other tabs).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use wasm_bindgen::prelude::*;

use super::cart_persist::{self, Persistence};
use super::cart_snapshots::Snapshots;
use super::interop::to_js;
use super::listeners::Listeners;
use crate::cart::{self, CartEvent, RestoreProblem, RestoreProblemKind};

/// Everything of a cart: the core cart, the line snapshots handed to JS, the
/// persistence and the listeners. Borrowed only inside a method, never while
/// a listener runs (listeners may call the cart).
pub(super) struct State {
    pub(super) cart: cart::Cart,
    pub(super) lines: Snapshots,
    pub(super) persistence: Option<Persistence>,
    pub(super) problem: Option<RestoreProblem>,
    pub(super) listeners: Listeners,
    /// Counts the changes (this tab's and the ones read from other tabs): a snapshot key.
    pub(super) version: u32,
    /// The saved text this cart was last read from or written as (a persistent
    /// cart): saved text that differs is another tab's change, read before
    /// this tab changes the cart ([`State::catch_up`]).
    pub(super) seen: Option<String>,
}

/// Where a change came from: this tab (`"change"`) or another one (`"storage"`).
pub(super) type Source = cart::CartEventSource;

impl State {
    pub(super) fn new(cart: cart::Cart) -> Self {
        let lines = Snapshots::new(cart.lines().len());
        Self { cart, lines, persistence: None, problem: None, listeners: Listeners::default(), version: 0, seen: None }
    }

    /// Replace the whole cart (restore, another tab, refresh): snapshots of
    /// lines that did not change are kept.
    pub(super) fn replace(&mut self, cart: cart::Cart) {
        let old = core::mem::replace(&mut self.cart, cart);
        self.lines.replaced(old.lines(), self.cart.lines());
    }

    /// Before a change of a persistent cart: `text` is what storage holds
    /// now; when it is not what this cart last read or wrote (another tab
    /// saved since, its `storage` event not heard), the cart becomes that
    /// (unless it does not read: then this cart's own is kept and saved).
    /// Returns whether the cart became the saved one (its listeners are told, as for a
    /// `storage` event).
    pub(super) fn catch_up(&mut self, text: String) -> bool {
        if self.seen.as_deref() == Some(text.as_str()) {
            return false;
        }
        let read = cart_persist::load(Some(&text), self.cart.currency().code());
        self.seen = Some(text);
        // Other text than this cart last read or wrote: another tab saved a change.
        let Ok((cart, None)) = read else { return false };
        self.replace(cart);
        true
    }

    /// The line at `index` changed (or was appended).
    pub(super) fn touched(&mut self, index: usize) {
        self.lines.touched(self.cart.lines().len(), index);
    }

    /// The frozen snapshot of line `index`.
    pub(super) fn snapshot(&mut self, index: usize) -> JsValue {
        self.lines.snapshot(self.cart.lines(), index)
    }

    /// The cached array of every line snapshot (not to be handed out: `lines` copies it).
    pub(super) fn lines(&mut self) -> Array {
        self.lines.array(self.cart.lines())
    }

    /// The versioned JSON form.
    pub(super) fn serialize(&mut self) -> String {
        let lines = self.lines();
        cart_persist::saved_text(&self.cart, &lines)
    }

    /// After a change of a persistent cart: what to write (storage, key,
    /// text). Taken while the state is borrowed, written after the borrow is
    /// released ([`Cart::change`]): a storage's `setItem` may call the cart.
    pub(super) fn pending_write(&mut self) -> Option<(super::storage::Store, String, String)> {
        let persistence = self.persistence.as_ref()?;
        let (storage, key) = (persistence.storage.clone()?, persistence.key.clone());
        Some((storage, key, self.serialize()))
    }

    /// The outcome of that write: a failure is the cart's problem until a write succeeds.
    pub(super) fn saved(&mut self, written: &core::result::Result<(), JsValue>, text: String) {
        if written.is_ok() {
            self.seen = Some(text);
        }
        match written {
            Ok(()) if self.problem.as_ref().is_some_and(|p| p.kind == RestoreProblemKind::WriteFailed) => self.problem = None,
            Ok(()) => {}
            Err(e) => self.problem = Some(cart_persist::write_failed(e)),
        }
    }
}

/// The cart changed (`source`): count it and tell the listeners, with the cart's problem
/// and the new version (none borrowed while they run; a throwing listener does not break
/// the cart or the other listeners).
pub(super) fn emit(state: &Rc<RefCell<State>>, source: Source) {
    let (listeners, event) = {
        let mut s = state.borrow_mut();
        s.version = s.version.wrapping_add(1);
        let listeners = s.listeners.snapshot();
        if listeners.is_empty() {
            return;
        }
        (listeners, to_js(&CartEvent { source, problem: s.problem.clone(), version: s.version }))
    };
    if let Ok(event) = event {
        super::listeners::emit(listeners, &event);
    }
}
