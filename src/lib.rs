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
//! - [`money`], [`cart`], [`shipping`]: exact pricing; [`locale`]: the locale to display in.
//! - [`checkout`]: the checkout state machine.
//! - [`storefront`]: variant selection, store URLs, SEO metadata.
//! - `search` (feature `search`): product search, filters, facet counts.

pub mod cache;
pub mod cart;
pub mod checkout;
pub mod country;
pub mod decode;
pub mod endpoint;
pub mod error;
pub mod jsobject;
pub mod jsoncheck;
pub mod locale;
pub mod model;
pub mod money;
pub mod options;
pub mod retry;
#[cfg(feature = "search")]
pub mod search;
pub mod shipping;
pub mod storefront;
pub mod strmap;

#[cfg(target_arch = "wasm32")]
mod wasm;

/// The indices `0..len` in the order `cmp` gives, ties in index order (a stable order).
///
/// The crate's one sort, written out as an insertion sort (it orders product options,
/// option values and shipping rates: a handful each). std's `sort_by` in its place makes the
/// pages 2.3 KB gz (catalog), 2.6 KB (product) and 5.3 KB (checkout) larger (issue 43,
/// docs/ARCHITECTURE.md "Written for bytes"); the test below holds it to `sort_by`.
pub(crate) fn sorted_indices(len: usize, cmp: &dyn Fn(usize, usize) -> core::cmp::Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = Vec::with_capacity(len);
    for i in 0..len {
        let at = order.iter().rposition(|&o| cmp(o, i).is_le()).map_or(0, |p| p + 1);
        order.insert(at, i);
    }
    order
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        #[test]
        fn sorted_indices_is_a_stable_sort(keys in proptest::collection::vec(0_u8..6, 0..40)) {
            let mut expected: Vec<usize> = (0..keys.len()).collect();
            expected.sort_by_key(|&i| keys[i]);
            proptest::prop_assert_eq!(super::sorted_indices(keys.len(), &|a, b| keys[a].cmp(&keys[b])), expected);
        }
    }
}
