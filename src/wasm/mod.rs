//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).
//!
//! For other areas (see "wasm internals" in docs/ARCHITECTURE.md):
//! - [`error::to_js`] turns a core [`crate::error::Error`] into a JS `CirrusError`;
//! - [`interop`]: every structured value in (`arg_from_js`, decoded once, errors naming the path)
//!   and out (`to_js`, plain objects, `null` for `None`), through serde-wasm-bindgen;
//! - [`client`]: the `CirrusClient` class (fetchers, sharing, cache), over
//!   [`http`] (gloo-net, timeout, abort, retries) and [`body`] (2xx bodies);
//! - [`storefront`]: the storefront helpers (variants, store URLs, SEO), in both entries;
//! - `checkout_split`: what the checkout, a wasm module of its own, shares with the
//!   root entry's wasm (`Checkout.clearStored`, which must stay synchronous) and takes
//!   from its glue (types);
//! - the JS plumbing the client, the cart, the checkout and the lock share:
//!   [`js`] (members of JS values, thrown messages), `storage` (one `Store`
//!   type over `localStorage`/`sessionStorage`/doubles), `listeners`
//!   (subscriptions, DOM listeners removed on drop) and `timers` (`sleep`,
//!   `Interval`).
//!
//! Dead code is checked in the build with every module (no feature); the package's
//! trimmed builds leave helpers unused by design.
#![cfg_attr(any(feature = "sdk-only", feature = "no-checkout", feature = "checkout-module"), allow(dead_code))]

// Which modules each of the package's three wasm builds holds (Cargo.toml [features]):
// `sdk-only` the client; `no-checkout` the client, the cart, money, the storefront helpers;
// `checkout-module` the checkout (with its lock, storage, listeners and timers); no feature:
// all of them in one module (the wasm-bindgen tests).
#[cfg(not(any(feature = "sdk-only", feature = "checkout-module")))]
mod cart;
#[cfg(not(any(feature = "sdk-only", feature = "no-checkout")))]
mod checkout;
#[cfg(not(any(feature = "sdk-only", feature = "no-checkout")))]
mod checkout_options;
#[cfg(not(feature = "sdk-only"))]
mod checkout_split;
#[cfg(not(feature = "checkout-module"))]
mod body;
#[cfg(not(feature = "checkout-module"))]
pub(crate) mod client;
mod js;
#[cfg(not(feature = "sdk-only"))]
mod listeners;
#[cfg(not(feature = "sdk-only"))]
mod storage;
#[cfg(not(any(feature = "sdk-only", feature = "no-checkout")))]
mod timers;
#[cfg(not(feature = "checkout-module"))]
mod http;
pub(crate) mod error;
pub(crate) mod interop;
#[cfg(not(any(feature = "sdk-only", feature = "no-checkout")))]
mod lock;
#[cfg(not(any(feature = "sdk-only", feature = "checkout-module")))]
mod money;
#[cfg(not(any(feature = "sdk-only", feature = "no-checkout")))]
mod payment_api;
#[cfg(not(feature = "checkout-module"))]
mod post_body;
#[cfg(not(feature = "checkout-module"))]
mod storefront;

#[cfg(test)]
mod tests;

/// The allocator: lol_alloc's free list (smaller than std's dlmalloc; it
/// never returns memory to the system, which a wasm module cannot do anyway).
// SAFETY: wasm32 without the atomics feature has one thread, which is what
// `AssumeSingleThreaded` requires.
#[global_allocator]
static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };
