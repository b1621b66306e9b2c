//! Timers (gloo-timers' shapes): a future that resolves after a delay, and an
//! interval cleared when dropped. Through the global `setTimeout` /
//! `setInterval`, so they run in a window, a worker and node alike.

use js_sys::{Function, Promise, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

/// The global function `name` (`setTimeout`, …), if there is one.
fn global(name: &str) -> Option<Function> {
    Reflect::get(&js_sys::global(), &JsValue::from_str(name)).ok()?.dyn_into().ok()
}

/// Waits `ms` (at once where there is no `setTimeout`).
pub(super) async fn sleep(ms: u32) {
    let Some(set) = global("setTimeout") else { return };
    let p = Promise::new(&mut |resolve, _| {
        let _ = set.call2(&JsValue::UNDEFINED, &resolve, &JsValue::from(ms));
    });
    let _ = JsFuture::from(p).await;
}

/// Calls a closure every `ms` until dropped.
pub(super) struct Interval {
    id: JsValue,
    _tick: Closure<dyn FnMut()>,
}

impl Interval {
    /// `None` where there is no `setInterval`.
    pub(super) fn new(ms: u32, tick: impl FnMut() + 'static) -> Option<Interval> {
        let tick = Closure::<dyn FnMut()>::new(tick);
        let id = global("setInterval")?.call2(&JsValue::UNDEFINED, tick.as_ref(), &JsValue::from(ms)).ok()?;
        Some(Interval { id, _tick: tick })
    }
}

impl Drop for Interval {
    fn drop(&mut self) {
        if let Some(clear) = global("clearInterval") {
            let _ = clear.call1(&JsValue::UNDEFINED, &self.id);
        }
    }
}
