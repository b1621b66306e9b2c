//! Storefront helpers (issue 18): what every storefront repeats, done once in
//! the core. Pure: no I/O, no panics on input, errors as [`crate::error::Result`].
//!
//! - [`variants`]: which variant a (partial) selection of option values names,
//!   and for every option value whether a variant with it exists and is in
//!   stock given the other selections (hydrogen-react's `getProductOptions`).
//! - [`routes`]: the path of a product, collection or CMS page under the
//!   store's `route*` settings, the reverse, and canonical absolute URLs.
//! - [`seo`]: title, description, canonical URL, Open Graph and schema.org
//!   JSON-LD (escaped for a `<script>` element) for the home page, a product,
//!   a collection and a CMS page.
//!
//! Exported to JS by `src/wasm/storefront.rs`; the TypeScript types are
//! generated from these types by `tools/typegen/` (storefront.rs).
//!
//! [`StoreSettings`] names the members of the model's `Store` the helpers read, not a copy
//! of it: the helpers take any object with these members (a `Store`, or settings a site
//! writes itself), so they cannot require the other 18; and decoding the model's whole
//! `Store` instead made the client entry's wasm 891 B gz larger (95,689 -> 96,580 B,
//! `client storefront` features built and `wasm-opt`ed as `scripts/build-pkg.sh` does,
//! gzip -9), most of issue 33's 1 KB page-weight budget. A member the helpers come to read
//! is added here, with the model's name and type (`From<&Store>` keeps the two in step).

use serde::{Deserialize, Serialize};

pub mod input;
pub mod routes;
pub mod seo;
pub mod variants;

mod jsonld;

pub use routes::{canonical_url, resolve_path, store_path, StoreResource};
pub use seo::{collection_seo, home_seo, page_seo, product_seo, OpenGraph, SeoMeta};
pub use variants::{default_selection, product_options, variant_selection, OptionAvailability, OptionMatrix, OptionSelection, OptionValueAvailability};

/// The members of the store (`GET /store`) the helpers read: the whole
/// `Store` is one, and so is any object with these members.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StoreSettings {
    pub name: String,
    pub default_currency: String,
    pub contact_email: String,
    /// `shop.example`, `127.0.0.1:8787` or `https://shop.example`.
    pub frontend_domain: String,
    pub logo_url: String,
    pub route_products: String,
    pub route_collections: String,
    pub route_pages: String,
    pub home_meta_title: String,
    pub home_meta_description: String,
}

impl From<&crate::model::Store> for StoreSettings {
    fn from(s: &crate::model::Store) -> Self {
        Self {
            name: s.name.clone(),
            default_currency: s.default_currency.clone(),
            contact_email: s.contact_email.clone(),
            frontend_domain: s.frontend_domain.clone(),
            logo_url: s.logo_url.clone(),
            route_products: s.route_products.clone(),
            route_collections: s.route_collections.clone(),
            route_pages: s.route_pages.clone(),
            home_meta_title: s.home_meta_title.clone(),
            home_meta_description: s.home_meta_description.clone(),
        }
    }
}

#[cfg(test)]
mod fixtures;
#[cfg(test)]
mod props;
#[cfg(test)]
mod tests;
