//! The checkout state machine for JavaScript (issue 5): a small class over
//! [`crate::checkout::Flow`] that takes and returns primitives only.
//! The package's `Checkout` (js/checkout.ts) does the I/O (client calls,
//! the processor adapter, storage, listeners) and builds the objects users
//! see; every transition and what to do next is decided here, by
//! [`Flow::step`] (events in [`crate::checkout::event`]).
//!
//! Guarantees kept by that split: single flight (js/checkout.ts holds the
//! running payment's promise; the core refuses a second confirm while one is
//! in flight), one token in flight (the core only ever re-confirms the
//! unsettled token; js/checkout.ts stores the state the `BEGIN` event
//! produced before it sends the confirm), resume (a stored state comes back
//! through [`Flow::from_entries`], checked field by field, and
//! `RESUME` gives the token to confirm again).

#[allow(unused_imports)]
use crate::prelude::*;

use wasm_bindgen::prelude::*;

use crate::checkout::Flow;

#[wasm_bindgen(typescript_custom_section)]
const TS_CHECKOUT: &str = include_str!("../../js/adapters/checkout-types.d.ts");

/// Internal: the state machine behind the package's `Checkout` (not exported by the entry).
#[wasm_bindgen]
pub struct CheckoutCore(Flow);

#[wasm_bindgen]
impl CheckoutCore {
    /// A machine in `idle`.
    #[wasm_bindgen(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> CheckoutCore {
        CheckoutCore(Flow::default())
    }

    /// A stored state from its flat `path, value` entries (see
    /// [`Flow::from_entries`]); `invalid_argument` if anything is off.
    pub fn restore(entries: Vec<String>) -> Result<CheckoutCore, JsValue> {
        Ok(CheckoutCore(Flow::from_entries(&entries)?))
    }

    /// One scalar member of the state ([`Flow::member`]).
    pub fn get(&self, i: u32) -> Option<String> {
        self.0.member(i)
    }

    /// Apply an event ([`Flow::step`]).
    pub fn step(&mut self, ev: u32, s: Vec<String>, n: &[f64]) -> Result<Option<String>, JsValue> {
        Ok(self.0.step(ev, &s, n)?)
    }
}
