//! Timers (gloo-timers' shapes), the wasm layer's one binding of each global
//! timer function: a promise and a future that resolve after a delay, a
//! timeout cleared when dropped, and an interval cleared when dropped.
//! Through the global `setTimeout` / `setInterval` (web-sys only has them on
//! `Window`/`WorkerGlobalScope`, and node has neither), so they run in a
//! window, a worker and node alike; where one is missing the call fails
//! softly (`catch`).

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_name = setTimeout, catch)]
    fn set_timeout(handler: &Function, ms: u32) -> Result<JsValue, JsValue>;
    #[wasm_bindgen(js_name = clearTimeout)]
    fn clear_timeout(id: &JsValue);
    #[cfg(feature = "checkout")]
    #[wasm_bindgen(js_name = setInterval, catch)]
    fn set_interval(handler: &Function, ms: u32) -> Result<JsValue, JsValue>;
    #[cfg(feature = "checkout")]
    #[wasm_bindgen(js_name = clearInterval)]
    fn clear_interval(id: &JsValue);
}

/// A promise that resolves after `ms` (at once where there is no `setTimeout`).
pub(super) fn delay(ms: u32) -> Promise {
    Promise::new(&mut |resolve, _| {
        if set_timeout(&resolve, ms).is_err() {
            let _ = resolve.call0(&JsValue::UNDEFINED);
        }
    })
}


/// Calls a closure once after `ms`, unless dropped first.
#[cfg(feature = "client")]
pub(super) struct Timeout {
    id: Option<JsValue>,
    _fire: Closure<dyn FnMut()>,
}

#[cfg(feature = "client")]
impl Timeout {
    /// The closure is not called where there is no `setTimeout`.
    pub(super) fn new(ms: u32, fire: Closure<dyn FnMut()>) -> Timeout {
        let id = set_timeout(fire.as_ref().unchecked_ref(), ms).ok();
        Timeout { id, _fire: fire }
    }
}

#[cfg(feature = "client")]
impl Drop for Timeout {
    fn drop(&mut self) {
        if let Some(id) = &self.id {
            clear_timeout(id);
        }
    }
}

/// Calls a closure every `ms` until dropped.
#[cfg(feature = "checkout")]
pub(super) struct Interval {
    id: JsValue,
    _tick: Closure<dyn FnMut()>,
}

#[cfg(feature = "checkout")]
impl Interval {
    /// `None` where there is no `setInterval`.
    pub(super) fn new(ms: u32, tick: impl FnMut() + 'static) -> Option<Interval> {
        let tick = Closure::<dyn FnMut()>::new(tick);
        let id = set_interval(tick.as_ref().unchecked_ref(), ms).ok()?;
        Some(Interval { id, _tick: tick })
    }
}

#[cfg(feature = "checkout")]
impl Drop for Interval {
    fn drop(&mut self) {
        clear_interval(&self.id);
    }
}
