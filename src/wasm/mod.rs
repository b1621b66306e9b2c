//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).
//!
//! For other areas (see "wasm internals" in docs/ARCHITECTURE.md):
//! - [`error::to_js`] turns a core [`crate::error::Error`] into a JS `CirrusError`;
//! - [`interop`]: every structured value in (`from_js`, errors naming the path)
//!   and out (`to_js`, plain objects, `null` for `None`), through serde-wasm-bindgen;
//! - [`client`]: the `CirrusClient` class (fetchers, sharing, cache), over
//!   [`http`] (gloo-net, timeout, abort, retries) and [`body`] (2xx bodies);
//! - [`storefront`]: the storefront helpers (variants, store URLs, SEO), in both builds.

#[cfg(not(feature = "sdk-only"))]
mod cart;
#[cfg(not(feature = "sdk-only"))]
mod checkout;
mod body;
pub(crate) mod client;
mod http;
pub(crate) mod error;
pub(crate) mod interop;
#[cfg(not(feature = "sdk-only"))]
mod lock;
mod storefront;

#[cfg(test)]
mod tests;
