//! The storefront helpers (issue 18) as free functions: variant selection,
//! store URLs and SEO metadata from [`crate::storefront`]. Exported by both
//! entries (`cirrus-storefront` and the catalog-only `cirrus-storefront/client`).
//!
//! Every argument is decoded once through [`super::interop`] (a bad one is an
//! `invalid_argument` naming its path), every result handed back as a plain
//! object through `to_js`. The TypeScript types are generated from the core's
//! types by `tools/typegen/` (storefront.rs).

use wasm_bindgen::prelude::*;

use super::interop::{arg_from_js, required_arg, to_js};
use crate::error::Result;
use crate::jsoncheck::Root;
use crate::storefront::input::{Collection, Page, Product};
use crate::storefront::routes::ResourceArg;
use crate::storefront::{self, OptionSelection, StoreSettings};

#[wasm_bindgen(typescript_custom_section)]
const STOREFRONT_TYPES: &str = include_str!("../../js/generated/storefront.ts");

/// The store settings (`store` in messages), checked against their own
/// schema root: a missing member is named among the settings' members.
pub(super) fn store(value: JsValue) -> Result<StoreSettings> {
    required_arg(value, "store", Some(Root::StoreSettings))
}

/// The option matrix of `product` for a (partial) `selection`: each value's
/// `exists` / `available` given the other selections, the variant the
/// selection names, the first available variant.
///
/// # Errors
/// `invalid_argument` for a product that is not one, or a selection naming an
/// option or value the product does not have.
#[wasm_bindgen(js_name = productOptions, unchecked_return_type = "OptionMatrix")]
pub fn product_options(
    #[wasm_bindgen(unchecked_param_type = "Product")] product: JsValue,
    #[wasm_bindgen(unchecked_param_type = "OptionSelection | null | undefined")] selection: Option<JsValue>,
) -> Result<JsValue> {
    let product: Product = required_arg(product, "product", Some(Root::Product))?;
    let selection: OptionSelection = arg_from_js(selection.unwrap_or(JsValue::UNDEFINED), "selection", None, false)?;
    to_js(&storefront::product_options(&product, &selection)?)
}

/// The selection a product page starts with: the first variant in stock's option
/// values (else the first variant's, else nothing selected). `productOptions(product,
/// defaultSelection(product))` on the server gives the picker's first render.
///
/// # Errors
/// `invalid_argument` for a product that is not one.
#[wasm_bindgen(js_name = defaultSelection, unchecked_return_type = "OptionSelection")]
pub fn default_selection(#[wasm_bindgen(unchecked_param_type = "Product")] product: JsValue) -> Result<JsValue> {
    let product: Product = required_arg(product, "product", Some(Root::Product))?;
    to_js(&storefront::default_selection(&product))
}

/// The selection (option name → value) variant `variantId` corresponds to.
///
/// # Errors
/// `invalid_argument` when the product has no such variant.
#[wasm_bindgen(js_name = variantSelection, unchecked_return_type = "OptionSelection")]
pub fn variant_selection(
    #[wasm_bindgen(unchecked_param_type = "Product")] product: JsValue,
    #[wasm_bindgen(js_name = variantId, unchecked_param_type = "string")] variant_id: JsValue,
) -> Result<JsValue> {
    let product: Product = required_arg(product, "product", Some(Root::Product))?;
    let variant_id = super::js::string_arg(&variant_id, "variantId must be a string")?;
    to_js(&storefront::variant_selection(&product, &variant_id)?)
}

/// A `path` argument: a string.
fn path_arg(v: &JsValue) -> Result<String> {
    super::js::string_arg(v, "path must be a string such as \"/products/tee\"")
}

/// The path of `resource` under the store's route settings, slug percent-encoded.
///
/// # Errors
/// `invalid_argument` for a bad route setting, resource or slug.
#[wasm_bindgen(js_name = storePath)]
pub fn store_path(
    #[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "StoreResource")] resource: JsValue,
) -> Result<String> {
    let settings = store(settings)?;
    let resource: ResourceArg = required_arg(resource, "resource", Some(Root::ResourceArg))?;
    storefront::store_path(&settings, &resource.resource()?)
}

/// Which resource `path` (or an absolute URL) names, or `null`.
///
/// # Errors
/// `invalid_argument` for a bad route setting.
#[wasm_bindgen(js_name = resolveStorePath, unchecked_return_type = "StoreResource | null")]
pub fn resolve_store_path(
    #[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
) -> Result<JsValue> {
    let settings = store(settings)?;
    let path = path_arg(&path)?;
    // As the string map a selection is: no serializer of its own for `StoreResource`.
    match storefront::resolve_path(&settings, &path)? {
        Some(r) => to_js(&r.to_map()),
        None => Ok(JsValue::NULL),
    }
}

/// The canonical absolute URL of `path` on the store's `frontendDomain`.
///
/// # Errors
/// `invalid_argument` for a bad `frontendDomain` or a path not starting with `/`.
#[wasm_bindgen(js_name = canonicalUrl)]
pub fn canonical_url(
    #[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
) -> Result<String> {
    let settings = store(settings)?;
    storefront::canonical_url(&settings, &path_arg(&path)?)
}

/// SEO metadata of the home page.
///
/// # Errors
/// `invalid_argument` for bad store settings.
#[wasm_bindgen(js_name = homeSeo, unchecked_return_type = "SeoMeta")]
pub fn home_seo(#[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue) -> Result<JsValue> {
    to_js(&storefront::home_seo(&store(settings)?)?)
}

/// SEO metadata of a product page (JSON-LD `Product` with an `Offer` per variant).
///
/// # Errors
/// `invalid_argument` for bad store settings, a bad product or price.
#[wasm_bindgen(js_name = productSeo, unchecked_return_type = "SeoMeta")]
pub fn product_seo(
    #[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Product")] product: JsValue,
) -> Result<JsValue> {
    let settings = store(settings)?;
    to_js(&storefront::product_seo(&settings, &required_arg::<Product>(product, "product", Some(Root::Product))?)?)
}

/// SEO metadata of a collection page (JSON-LD `CollectionPage` and `BreadcrumbList`).
///
/// # Errors
/// `invalid_argument` for bad store settings or a bad collection.
#[wasm_bindgen(js_name = collectionSeo, unchecked_return_type = "SeoMeta")]
pub fn collection_seo(
    #[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Collection")] collection: JsValue,
) -> Result<JsValue> {
    let settings = store(settings)?;
    to_js(&storefront::collection_seo(&settings, &required_arg::<Collection>(collection, "collection", Some(Root::Collection))?)?)
}

/// SEO metadata of a CMS page (JSON-LD `WebPage`).
///
/// # Errors
/// `invalid_argument` for bad store settings or a bad page.
#[wasm_bindgen(js_name = pageSeo, unchecked_return_type = "SeoMeta")]
pub fn page_seo(
    #[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Page")] page: JsValue,
) -> Result<JsValue> {
    let settings = store(settings)?;
    to_js(&storefront::page_seo(&settings, &required_arg::<Page>(page, "page", Some(Root::Page))?)?)
}
