//! # cirrus-storefront
//!
//! A typed SDK for Cirrus V1 storefront APIs. The crate is a pure Rust core
//! (models, money, cart, shipping choice, checkout state machine, request
//! building and response decoding, errors, retry policy) with no I/O, tested
//! natively, plus one `wasm` module (compiled only for `wasm32`) that binds it
//! to JavaScript.
//!
//! Module ownership (see `docs/ARCHITECTURE.md`):
//! - [`model`]: wire types shared with the dev server in `server/`.
//! - [`error`], [`options`], [`cache`], [`endpoint`], [`decode`], [`retry`]: the client core.
//! - [`jsoncheck`]: a response body checked against the generated schemas, without allocating.
//! - [`money`], [`cart`], [`shipping`]: exact pricing.
//! - [`checkout`]: the checkout state machine.
//! - [`storefront`]: variant selection, store URLs, SEO metadata.

extern crate alloc;

/// What `src/storefront/` still imports from `alloc` (kept from the crate's
/// no_std days; the other modules use std's prelude).
#[allow(unused_imports)]
mod prelude {
    pub(crate) use alloc::borrow::ToOwned;
    pub(crate) use alloc::boxed::Box;
    pub(crate) use alloc::collections::BTreeMap;
    pub(crate) use alloc::string::{String, ToString};
    pub(crate) use alloc::vec::Vec;
    pub(crate) use alloc::{format, vec};
}

pub mod cache;
pub mod cart;
pub mod checkout;
pub mod decode;
pub mod endpoint;
pub mod error;
pub mod jsoncheck;
pub mod model;
pub mod money;
pub mod options;
pub mod retry;
pub mod shipping;
pub mod storefront;
pub mod strmap;
pub mod text;

#[cfg(target_arch = "wasm32")]
mod wasm;
