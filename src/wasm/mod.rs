//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).
//!
//! For other areas (see "wasm internals" in docs/ARCHITECTURE.md):
//! - [`error::to_js`] turns a core [`crate::error::Error`] into a JS `CirrusError`;
//! - [`client`] holds the SDK client's pure exports; the client itself (fetch,
//!   retries, sharing, cache) is TypeScript, `js/client.ts`.

#[cfg(feature = "bench")]
mod bench;
#[cfg(not(feature = "sdk-only"))]
mod cart;
#[cfg(not(feature = "sdk-only"))]
mod checkout;
pub(crate) mod client;
pub(crate) mod error;
pub(crate) mod interop;
#[cfg(not(feature = "sdk-only"))]
mod lock;

#[cfg(test)]
mod tests;
