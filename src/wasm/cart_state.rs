//! The state behind a `Cart` (src/wasm/cart.rs): the core cart, the line snapshots handed to
//! JS, the persistence, the listeners, and the events the listeners receive. Shared by the
//! class and by its storage-event listener (other tabs).

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Array;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use super::cart_persist::{self, Persistence};
use super::cart_snapshots::Snapshots;
use super::interop::to_js;
use super::listeners::Listeners;
use crate::cart::{self, RestoreProblem, RestoreProblemKind};

/// What listeners receive (`CartStorageEvent`).
#[derive(Serialize)]
struct CartEvent<'a> {
    source: &'a str,
    problem: Option<&'a RestoreProblem>,
}

/// Everything of a cart: the core cart, the line snapshots handed to JS, the
/// persistence and the listeners. Borrowed only inside a method, never while
/// a listener runs (listeners may call the cart).
pub(super) struct State {
    pub(super) cart: cart::Cart,
    pub(super) lines: Snapshots,
    pub(super) persistence: Option<Persistence>,
    pub(super) problem: Option<RestoreProblem>,
    pub(super) listeners: Listeners,
}

/// An event for the listeners: `(source, problem)`.
pub(super) type Event = (&'static str, Option<RestoreProblem>);

impl State {
    pub(super) fn new(cart: cart::Cart) -> Self {
        let lines = Snapshots::new(cart.lines().len());
        Self { cart, lines, persistence: None, problem: None, listeners: Listeners::default() }
    }

    /// Replace the whole cart (restore, another tab, refresh): snapshots of
    /// lines that did not change are kept.
    pub(super) fn replace(&mut self, cart: cart::Cart) {
        let old = core::mem::replace(&mut self.cart, cart);
        self.lines.replaced(old.lines(), self.cart.lines());
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
        cart_persist::saved_text(self.cart.currency(), &lines)
    }

    /// After a change of a persistent cart: what to write (storage, key,
    /// text). Taken while the state is borrowed, written after the borrow is
    /// released ([`Cart::change`]): a storage's `setItem` may call the cart.
    pub(super) fn pending_write(&mut self) -> Option<(super::storage::Store, String, String)> {
        let persistence = self.persistence.as_ref()?;
        let (storage, key) = (persistence.storage.clone()?, persistence.key.clone());
        Some((storage, key, self.serialize()))
    }

    /// The outcome of that write: the event to report, if any.
    pub(super) fn saved(&mut self, written: core::result::Result<(), JsValue>) -> Option<Event> {
        match written {
            Ok(()) if self.problem.as_ref().is_some_and(|p| p.kind == RestoreProblemKind::WriteFailed) => {
                self.problem = None;
                Some(("save", None))
            }
            Ok(()) => None,
            Err(e) => {
                let p = cart_persist::write_failed(&e);
                self.problem = Some(p.clone());
                Some(("save", Some(p)))
            }
        }
    }
}

/// Tell the listeners about `event` (none borrowed while they run; a
/// throwing listener does not break the cart or the other listeners).
pub(super) fn emit(state: &Rc<RefCell<State>>, event: Option<Event>) {
    let Some((source, problem)) = event else { return };
    let listeners = state.borrow().listeners.snapshot();
    if listeners.is_empty() {
        return;
    }
    let Ok(event) = to_js(&CartEvent { source, problem: problem.as_ref() }) else { return };
    super::listeners::emit(listeners, &event);
}
