//! Listeners (gloo-events' shapes): the callbacks a class's `subscribe` adds
//! ([`Listeners`], each removed by the function `subscribe` returns), and a
//! DOM event listener removed when dropped ([`EventListener`]).

use js_sys::Function;
use wasm_bindgen::prelude::*;

/// Subscribed callbacks, in the order they were added.
#[derive(Default)]
pub(super) struct Listeners {
    list: Vec<(u32, Function)>,
    next: u32,
}

impl Listeners {
    /// Adds `f`; the id removes it again.
    pub(super) fn add(&mut self, f: Function) -> u32 {
        let id = self.next;
        self.next = self.next.wrapping_add(1);
        self.list.push((id, f));
        id
    }

    pub(super) fn remove(&mut self, id: u32) {
        self.list.retain(|(i, _)| *i != id);
    }

    /// The callbacks as they are now, to call once nothing is borrowed (a
    /// listener may subscribe, unsubscribe or call the class).
    pub(super) fn snapshot(&self) -> Vec<Function> {
        self.list.iter().map(|(_, f)| f.clone()).collect()
    }
}

/// Calls each of `listeners` with `value`; a listener's error is its own.
pub(super) fn emit(listeners: Vec<Function>, value: &JsValue) {
    for f in listeners {
        let _ = f.call1(&JsValue::NULL, value);
    }
}

/// The function `subscribe` returns: runs `remove` (which drops the
/// listener from its registry if the owner is still there; calling it again
/// is harmless).
pub(super) fn unsubscriber(remove: impl FnMut() + 'static) -> JsValue {
    Closure::<dyn FnMut()>::new(remove).into_js_value()
}

/// A listener for `kind` events on `target`, removed when dropped (or kept
/// for the page's lifetime with [`EventListener::forget`]).
pub(super) struct EventListener {
    target: web_sys::EventTarget,
    kind: &'static str,
    callback: Option<Closure<dyn FnMut(JsValue)>>,
}

impl EventListener {
    /// `None` when `addEventListener` throws.
    pub(super) fn new(target: &web_sys::EventTarget, kind: &'static str, callback: impl FnMut(JsValue) + 'static) -> Option<EventListener> {
        let callback = Closure::<dyn FnMut(JsValue)>::new(callback);
        target.add_event_listener_with_callback(kind, callback.as_ref().unchecked_ref()).ok()?;
        Some(EventListener { target: target.clone(), kind, callback: Some(callback) })
    }

    /// Keeps the listener for the page's lifetime.
    #[cfg(feature = "checkout")]
    pub(super) fn forget(mut self) {
        if let Some(c) = self.callback.take() {
            c.forget();
        }
    }
}

impl Drop for EventListener {
    fn drop(&mut self) {
        if let Some(c) = &self.callback {
            let _ = self.target.remove_event_listener_with_callback(self.kind, c.as_ref().unchecked_ref());
        }
    }
}
