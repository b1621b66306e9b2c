//! 2xx bodies: checked against the response schema of the model types in
//! wasm memory ([`crate::jsoncheck`], one allocation-free pass over the bytes), then built into JS objects by the engine's `JSON.parse`
//! (so nullable members are `null` and maps plain objects, and nothing is
//! converted member by member across the boundary).

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::error::{Error, Result};

use super::http::Answer;

#[wasm_bindgen]
extern "C" {
    /// `JSON.parse` of a JS string as it is (js-sys's takes a `&str`, which
    /// would copy the body out of wasm memory once more).
    #[wasm_bindgen(js_namespace = JSON, js_name = parse, catch)]
    fn json_parse(text: &js_sys::JsString) -> Result<JsValue, JsValue>;
}

/// Which response a body must be, and the member the caller gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Schema {
    /// `GET /products`; `pagination` is required when asked for.
    Products { minimal: bool, pagination: bool },
    Product,
    Pages,
    Collections,
    Collection,
    Store,
    ShippingRates,
    Initiate,
    Update,
    Confirm,
}

impl Schema {
    /// The member of the body the caller gets (`None`: the whole body).
    fn member(self) -> Option<&'static str> {
        match self {
            Self::Product => Some("product"),
            Self::Pages => Some("pages"),
            Self::Collections => Some("collections"),
            Self::Collection => Some("collection"),
            Self::Store => Some("store"),
            Self::ShippingRates => Some("variantRates"),
            Self::Products { .. } | Self::Initiate | Self::Update | Self::Confirm => None,
        }
    }

    /// The response schema (generated from the model types, `src/generated/schema.rs`).
    fn root(self) -> &'static str {
        match self {
            Self::Products { minimal: false, .. } => "ProductsResponse",
            Self::Products { minimal: true, .. } => "MinimalProductsResponse",
            Self::Product => "ProductResponse",
            Self::Pages => "PagesResponse",
            Self::Collections => "CollectionsResponse",
            Self::Collection => "CollectionResponse",
            Self::Store => "StoreResponse",
            Self::ShippingRates => "ShippingRatesResponse",
            Self::Initiate => "InitiateResponse",
            Self::Update => "UpdateResponse",
            Self::Confirm => "ConfirmResponse",
        }
    }
}


/// The largest 2xx body the SDK copies into wasm memory: 8 MiB, counted in
/// UTF-16 code units of the JS string (each is at least one UTF-8 byte, so
/// a longer string is always more than 8 MiB). The largest answer the
/// contract allows (a page of 100 full products) is far below it.
pub(crate) const MAX_BODY: u32 = 8 * 1024 * 1024;

/// The caller's value of a 2xx answer.
///
/// # Errors
/// `decode` naming the JSON path (the caller adds the request and status);
/// `decode` "the response body is larger than 8 MiB …" for a body over
/// [`MAX_BODY`], refused before it is copied into wasm memory.
pub(crate) fn decode(answer: &Answer, schema: Schema) -> Result<JsValue> {
    let length = answer.body.length();
    if length > MAX_BODY {
        return Err(Error::decode(crate::text::cat(&[
            "the response body is larger than 8 MiB (",
            &crate::text::uint(u64::from(length)),
            " characters); refused before decoding",
        ])));
    }
    // One copy of the body into wasm memory, one allocation-free pass over it.
    let text = String::from(&answer.body);
    crate::jsoncheck::check(text.as_bytes(), schema.root()).map_err(|p| Error::decode(p.text()))?;
    drop(text);
    let value = json_parse(&answer.body).map_err(|_| Error::decode("the response body is not valid JSON"))?;
    if let Schema::Products { pagination: true, .. } = schema {
        if Reflect::get(&value, &"pagination".into()).map_or(true, |p| p.is_undefined()) {
            return Err(Error::decode("at pagination: missing field `pagination` (asked for with includePagination)"));
        }
    }
    match schema.member() {
        None => Ok(value),
        Some(m) => Reflect::get(&value, &m.into()).map_err(|_| Error::decode("the response body could not be read")),
    }
}
