//! The storefront helpers (issue 18) as free functions: variant selection,
//! store URLs and SEO metadata from [`crate::storefront`]. Exported by both
//! entries (`cirrus-storefront` and the catalog-only `cirrus-storefront/client`).
//!
//! Every argument is decoded once through [`super::interop`] (a bad one is an
//! `invalid_argument` naming its path), every result handed back as a plain
//! object through `to_js`. The TypeScript types are generated from the core's
//! types by `tests/typegen/` (storefront.rs).

use wasm_bindgen::prelude::*;

use super::interop::{arg_fail, arg_from_js, expect_object, required_arg, string_members, to_js};
use crate::jsoncheck::Root;
use crate::error::Result;
use crate::storefront::input::{Listing, Product};
use crate::storefront::{self, routes::ResourceKind, OptionSelection, StoreResource, StoreSettings};

#[wasm_bindgen(typescript_custom_section)]
const STOREFRONT_TYPES: &str = include_str!("../../js/generated/storefront.ts");

/// The store settings: ten strings, read by [`string_members`] (no decoder
/// of their own); refused as `required_arg` would refuse them.
pub(super) fn store(value: JsValue) -> Result<StoreSettings> {
    const NAMES: &[&str] = &[
        "name", "defaultCurrency", "contactEmail", "frontendDomain", "logoUrl",
        "routeProducts", "routeCollections", "routePages", "homeMetaTitle", "homeMetaDescription",
    ];
    if value.is_undefined() || value.is_null() {
        return Err(crate::error::Error::invalid_argument("store is required"));
    }
    expect_object(&value, "store")?;
    let members = string_members(&value, NAMES).map_err(|e| arg_fail(e, &value, "store", Root::Store))?;
    let mut m = members.into_iter().map(Option::unwrap_or_default);
    let mut next = || m.next().unwrap_or_default();
    Ok(StoreSettings {
        name: next(),
        default_currency: next(),
        contact_email: next(),
        frontend_domain: next(),
        logo_url: next(),
        route_products: next(),
        route_collections: next(),
        route_pages: next(),
        home_meta_title: next(),
        home_meta_description: next(),
    })
}

/// A `StoreResource` as JS gives it (`kind`, and `slug` but for `home`): its
/// `kind` and `slug` members (`null` or `undefined` read as absent, other
/// members ignored, as the struct it was decoded as did) decoded as the string
/// map a selection is (one decoder for both).
fn resource_of(value: JsValue) -> Result<StoreResource> {
    let given = !value.is_undefined() && !value.is_null(); // else `required` says "resource is required"
    if given && (!value.is_object() || js_sys::Array::is_array(&value) || value.is_function()) {
        let got = if js_sys::Array::is_array(&value) { "an array" } else { "a value that is not an object" };
        return Err(crate::error::Error::invalid_argument(["resource: expected an object, got ", got].concat()));
    }
    let picked = js_sys::Object::new();
    for key in ["kind", "slug"] {
        let key = JsValue::from_str(key);
        let v = js_sys::Reflect::get(&value, &key).unwrap_or(JsValue::UNDEFINED);
        if !v.is_undefined() && !v.is_null() {
            let _ = js_sys::Reflect::set(&picked, &key, &v);
        }
    }
    let r: OptionSelection = required_arg(if given { picked.into() } else { value }, "resource", None)?;
    // `get`, not `remove`: a removal brings the map's rebalancing code in (~4 KB).
    StoreResource::from_parts(ResourceKind::parse(r.get("kind").map(String::as_str))?, r.get("slug").cloned())
}

/// A collection or a page: one decoded type for both ([`Listing`]).
fn listing(value: JsValue, what: &str, root: Root) -> Result<Listing> {
    required_arg(value, what, Some(root))
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

/// The selection (option name → value) variant `variantId` corresponds to.
///
/// # Errors
/// `invalid_argument` when the product has no such variant.
#[wasm_bindgen(js_name = variantSelection, unchecked_return_type = "OptionSelection")]
pub fn variant_selection(
    #[wasm_bindgen(unchecked_param_type = "Product")] product: JsValue,
    #[wasm_bindgen(js_name = variantId)] variant_id: &str,
) -> Result<JsValue> {
    let product: Product = required_arg(product, "product", Some(Root::Product))?;
    to_js(&storefront::variant_selection(&product, variant_id)?)
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
    storefront::store_path(&settings, &resource_of(resource)?)
}

/// Which resource `path` (or an absolute URL) names, or `null`.
///
/// # Errors
/// `invalid_argument` for a bad route setting.
#[wasm_bindgen(js_name = resolveStorePath, unchecked_return_type = "StoreResource | null")]
pub fn resolve_store_path(#[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue, path: &str) -> Result<JsValue> {
    // As the string map a selection is: no serializer of its own for `StoreResource`.
    match storefront::resolve_path(&store(settings)?, path)? {
        Some(r) => to_js(&r.to_map()),
        None => Ok(JsValue::NULL),
    }
}

/// The canonical absolute URL of `path` on the store's `frontendDomain`.
///
/// # Errors
/// `invalid_argument` for a bad `frontendDomain` or a path not starting with `/`.
#[wasm_bindgen(js_name = canonicalUrl)]
pub fn canonical_url(#[wasm_bindgen(js_name = store, unchecked_param_type = "StoreSettings")] settings: JsValue, path: &str) -> Result<String> {
    storefront::canonical_url(&store(settings)?, path)
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
    to_js(&storefront::collection_seo(&settings, &listing(collection, "collection", Root::Collection)?.collection()?)?)
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
    to_js(&storefront::page_seo(&settings, &listing(page, "page", Root::Page)?.page()?)?)
}
