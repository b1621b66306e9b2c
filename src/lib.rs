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
//! - [`error`], [`options`], [`request`], [`decode`], [`retry`]: the client core.
//! - [`jsoncheck`]: a response body checked against the generated schemas, without allocating.
//! - [`money`], [`cart`], [`shipping`]: exact pricing.
//! - [`checkout`]: the checkout state machine.

// The release wasm build (the package) is no_std: no std formatting, panic or
// allocator machinery in the binary. Tests, the `bench` build and debug builds
// keep std. (Debug too, because `wasm-pack test` builds the crate without
// `cfg(test)` for the integration-test targets while a dev-dependency links
// std, and std's panic handler would clash with ours below. So a
// `--release` wasm build with std dev-dependencies — `wasm-pack test
// --release` — does not build; nothing here runs one.)
#![cfg_attr(all(target_arch = "wasm32", not(test), not(feature = "bench"), not(debug_assertions)), no_std)]

extern crate alloc;

/// What every module of the crate uses from `alloc` (the std prelude's
/// allocating items, which a no_std build does not have).
#[allow(unused_imports)]
mod prelude {
    pub(crate) use alloc::borrow::ToOwned;
    pub(crate) use alloc::boxed::Box;
    pub(crate) use alloc::collections::BTreeMap;
    pub(crate) use alloc::string::{String, ToString};
    pub(crate) use alloc::vec::Vec;
    pub(crate) use alloc::{format, vec};
}

pub mod cart;
pub mod checkout;
pub mod decode;
pub mod error;
pub mod jsoncheck;
pub mod model;
pub mod money;
pub mod options;
pub mod request;
pub mod retry;
pub mod shipping;
pub mod text;

#[cfg(target_arch = "wasm32")]
mod wasm;

/// A panic in the wasm aborts the instance, as `panic = "abort"` does, without
/// std's message formatting. (Inputs never panic: they are errors.)
#[cfg(all(target_arch = "wasm32", not(test), not(feature = "bench"), not(debug_assertions)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo<'_>) -> ! {
    core::arch::wasm32::unreachable()
}

/// A small allocator: the wasm allocates little and is single-threaded.
#[cfg(all(target_arch = "wasm32", not(test), not(feature = "bench"), not(debug_assertions)))]
#[global_allocator]
static ALLOC: lol_alloc::AssumeSingleThreaded<lol_alloc::FreeListAllocator> =
    // SAFETY: wasm32-unknown-unknown without atomics runs one thread.
    unsafe { lol_alloc::AssumeSingleThreaded::new(lol_alloc::FreeListAllocator::new()) };
