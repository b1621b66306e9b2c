//! The wasm-bindgen boundary: converts and forwards to the core, nothing more.
//! Compiled only for `wasm32`. Submodules are owned per area (docs/ARCHITECTURE.md).
//!
//! For other areas (see "wasm internals" in docs/ARCHITECTURE.md):
//! - [`error::to_js`] turns a core [`crate::error::Error`] into a JS `CirrusError`;
//! - [`interop`]: every structured value in (`arg_from_js`, decoded once, errors naming the path)
//!   and out (`to_js`, plain objects, `null` for `None`), through serde-wasm-bindgen;
//! - [`client`]: the `CirrusClient` class (fetchers, arguments), its shared GETs and answer
//!   cache (`client_cache`), its `allProducts` pages (`client_pages`) and TypeScript
//!   (`client_types`), over [`http`] (gloo-net, timeout, abort, retries) and [`body`] (2xx
//!   bodies);
//! - `cart`: the `Cart` class, its line snapshots (`cart_snapshots`) and its storage and
//!   other tabs (`cart_persist`); `money`: the money helpers;
//! - `checkout`: the `Checkout` class, the executor of the checkout protocol
//!   (`crate::checkout::protocol`): its steps run and their effects performed
//!   (`checkout_exec`), what a live checkout holds and the storage I/O of its record
//!   (`checkout_live`), its options (`checkout_options`), its calls to the client
//!   (`payment_api`) and the cross-tab lock (`lock`);
//! - [`storefront`]: the storefront helpers (variants, store URLs, SEO), in both entries;
//! - `search`: the `SearchIndex` class, alone in the `cirrus-storefront/search` entry's wasm
//!   (feature `search`);
//! - `checkout_split`: what the checkout, a wasm module of its own, shares with the
//!   root entry's wasm (`Checkout.clearStored`, which must stay synchronous) and takes
//!   from its glue (types);
//! - the JS plumbing the client, the cart, the checkout and the lock share:
//!   `js` (members of JS values, thrown messages, `JSON.parse`), `storage` (one `Store`
//!   type over `localStorage`/`sessionStorage`/doubles), `listeners`
//!   (subscriptions, DOM listeners removed on drop) and `timers` (the one binding of each
//!   timer function: `delay`, `sleep`, `Timeout`, `Interval`).
//!
//! Each module is compiled with the Cargo features that use it (Cargo.toml [features]:
//! `client`, `cart`, `checkout`, `storefront`, all on by default; scripts/build-pkg.sh builds each
//! package entry's wasm from the ones it needs), so every build checks dead code.

// What the package's wasm builds hold: the client entry `client storefront`; the root entry
// `client cart storefront`; the checkout module `checkout`; default: all in one (the
// wasm-bindgen tests).
#[cfg(feature = "client")]
mod body;
#[cfg(feature = "cart")]
mod cart;
#[cfg(feature = "cart")]
mod cart_persist;
#[cfg(feature = "cart")]
mod cart_snapshots;
#[cfg(feature = "cart")]
mod cart_state;
#[cfg(feature = "checkout")]
mod checkout;
#[cfg(feature = "checkout")]
mod checkout_options;
#[cfg(feature = "checkout")]
mod checkout_exec;
#[cfg(feature = "checkout")]
mod checkout_live;
#[cfg(any(feature = "cart", feature = "checkout"))]
mod checkout_split;
#[cfg(feature = "client")]
pub(crate) mod client;
#[cfg(feature = "client")]
mod client_cache;
#[cfg(feature = "client")]
mod client_pages;
#[cfg(feature = "client")]
mod client_types;
pub(crate) mod error;
#[cfg(feature = "client")]
mod http;
pub(crate) mod interop;
mod js;
#[cfg(any(feature = "cart", feature = "checkout"))]
mod listeners;
#[cfg(feature = "checkout")]
mod lock;
#[cfg(feature = "cart")]
mod money;
#[cfg(feature = "checkout")]
mod payment_api;
#[cfg(feature = "client")]
mod post_body;
#[cfg(any(feature = "cart", feature = "checkout"))]
mod storage;
#[cfg(feature = "search")]
mod search;
#[cfg(feature = "storefront")]
mod storefront;
#[cfg(any(feature = "client", feature = "checkout"))]
mod timers;

#[cfg(test)]
mod tests;

/// The allocator: lol_alloc's free list (smaller than std's dlmalloc; it
/// never returns memory to the system, which a wasm module cannot do anyway).
/// Not in a build with `search`: its free list is walked on every allocation, and an index of
/// 10,000 products (millions of small allocations) took 18 s to build with it; std's dlmalloc
/// builds it in the time in BENCHMARKS.md "Search".
// SAFETY: wasm32 without the atomics feature has one thread, which is what
// `AssumeSingleThreaded` requires.
#[cfg(not(feature = "search"))]
#[global_allocator]
static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };
