//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).
//!
//! For other areas (see "wasm internals" in docs/ARCHITECTURE.md):
//! - [`error::to_js`] turns a core [`crate::error::Error`] into a JS `CirrusError`;
//! - [`interop`]: every structured value in (`arg_from_js`, decoded once, errors naming the path)
//!   and out (`to_js`, plain objects, `null` for `None`), through serde-wasm-bindgen;
//! - [`client`]: the `CirrusClient` class (fetchers, sharing, cache), over
//!   [`http`] (gloo-net, timeout, abort, retries) and [`body`] (2xx bodies);
//! - [`storefront`]: the storefront helpers (variants, store URLs, SEO), in both builds;
//! - the JS plumbing the client, the cart, the checkout and the lock share:
//!   [`js`] (members of JS values, thrown messages), `storage` (one `Store`
//!   type over `localStorage`/`sessionStorage`/doubles), `listeners`
//!   (subscriptions, DOM listeners removed on drop) and `timers` (`sleep`,
//!   `Interval`).

#[cfg(not(feature = "sdk-only"))]
mod cart;
#[cfg(not(feature = "sdk-only"))]
mod checkout;
#[cfg(not(feature = "sdk-only"))]
mod checkout_options;
mod body;
pub(crate) mod client;
mod js;
#[cfg(not(feature = "sdk-only"))]
mod listeners;
#[cfg(not(feature = "sdk-only"))]
mod storage;
#[cfg(not(feature = "sdk-only"))]
mod timers;
mod http;
pub(crate) mod error;
pub(crate) mod interop;
#[cfg(not(feature = "sdk-only"))]
mod lock;
#[cfg(not(feature = "sdk-only"))]
mod money;
#[cfg(not(feature = "sdk-only"))]
mod payment_api;
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
