//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).

mod cart;
mod checkout;
