//! The one type generator (`cargo run -p cirrus-typegen` writes every generated file): each
//! comes from the Rust types of `cirrus-storefront` through serde-reflection and the one
//! `ts_type` (`ts.rs`), with the types' doc comments (`docs.rs`):
//! - `sdk.rs`: `js/generated/types.ts`, `src/generated/schema.rs`;
//! - `cart.rs`: `js/generated/cart-types.ts`;
//! - `checkout.rs`: `js/generated/checkout.ts`;
//! - `storefront.rs`: `js/generated/storefront.ts`;
//! - `search.rs`: `js/generated/search.ts`;
//! - `openapi.rs`: `server/openapi.yaml` (with the hand-written `server/openapi-frame.yaml`).
//!
//! The shapes that only exist in JavaScript (objects with methods: the processor adapter,
//! the client and the cart as the checkout calls them) are not serde types: they are
//! hand-written in `js/interfaces.d.ts`, which the generated files import
//! (scripts/build-pkg.sh ships it next to the glue).
//!
//! The drift check is a test of this crate (`tests.rs`, stage 10-core):
//! `generated_files_are_up_to_date` fails when a committed file differs from what the
//! types give, and names the command that rewrites them.

mod cart;
mod checkout;
mod docs;
pub mod openapi;
mod sdk;
mod search;
mod storefront;
mod ts;

#[cfg(test)]
mod tests;

use std::path::PathBuf;

/// The repository's root (this crate is `tools/typegen/` in it).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every generated file: its path from the repository's root and its content.
pub fn files() -> Vec<(&'static str, String)> {
    let wire = sdk::trace();
    vec![
        ("js/generated/types.ts", sdk::gen_ts(&wire)),
        ("src/generated/schema.rs", sdk::gen_rust_schema(&wire, &sdk::trace_cart_checkout())),
        ("js/generated/cart-types.ts", cart::generate(&wire)),
        ("js/generated/checkout.ts", checkout::generate()),
        ("js/generated/storefront.ts", storefront::generate(&wire)),
        ("js/generated/search.ts", search::generate()),
        ("server/openapi.yaml", openapi::generate()),
    ]
}

/// The generated files that differ from what is committed.
pub fn stale() -> Vec<&'static str> {
    files().into_iter().filter(|(path, content)| std::fs::read_to_string(root().join(path)).unwrap_or_default() != *content).map(|(p, _)| p).collect()
}

/// Writes every generated file; returns the ones that changed.
///
/// # Panics
/// When a file cannot be written (the message names it).
pub fn write() -> Vec<&'static str> {
    let stale = stale();
    for (path, content) in files() {
        if stale.contains(&path) {
            std::fs::write(root().join(path), content).unwrap_or_else(|e| panic!("writing {path}: {e}"));
        }
    }
    stale
}
