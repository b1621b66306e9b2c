//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).
//!
//! For other areas (see "wasm internals" in docs/ARCHITECTURE.md):
//! - [`error::to_js`] turns a core [`crate::error::Error`] into a JS `CirrusError`;
//! - [`transport::Transport`] sends a core [`crate::request::Request`] (with the
//!   retry policy; payments are never retried) and decodes the response;
//! - [`client::CirrusClient::transport`] hands out the client's transport.

#[cfg(feature = "bench")]
mod bench;
#[cfg(not(feature = "sdk-only"))]
mod cart;
#[cfg(not(feature = "sdk-only"))]
mod checkout;
pub(crate) mod client;
pub(crate) mod de;
pub(crate) mod error;
pub(crate) mod transport;

#[cfg(test)]
mod tests;
