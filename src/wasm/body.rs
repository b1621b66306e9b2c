//! 2xx bodies: checked against the response schema of the model types in
//! wasm memory, then built into JS objects by the engine's `JSON.parse`
//! (so nullable members are `null` and maps plain objects, and nothing is
//! converted member by member across the boundary).

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use crate::error::{Error, Result};
use crate::model::{
    CollectionResponse, CollectionsResponse, ConfirmResponse, InitiateResponse, MinimalProduct, PagesResponse, Product, ProductResponse,
    ProductsResponse, ShippingRatesResponse, StoreResponse, UpdateResponse,
};

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

    /// Checks `text` against the model type.
    fn check(self, text: &str) -> Result<()> {
        use crate::decode::decode_json as d;
        match self {
            Self::Products { minimal: false, pagination } => d::<ProductsResponse<Product>>(text).and_then(|r| paginated(r.pagination.is_some(), pagination)),
            Self::Products { minimal: true, pagination } => d::<ProductsResponse<MinimalProduct>>(text).and_then(|r| paginated(r.pagination.is_some(), pagination)),
            Self::Product => d::<ProductResponse>(text).map(drop),
            Self::Pages => d::<PagesResponse>(text).map(drop),
            Self::Collections => d::<CollectionsResponse>(text).map(drop),
            Self::Collection => d::<CollectionResponse>(text).map(drop),
            Self::Store => d::<StoreResponse>(text).map(drop),
            Self::ShippingRates => d::<ShippingRatesResponse>(text).map(drop),
            Self::Initiate => d::<InitiateResponse>(text).map(drop),
            Self::Update => d::<UpdateResponse>(text).map(drop),
            Self::Confirm => d::<ConfirmResponse>(text).map(drop),
        }
    }
}

fn paginated(present: bool, asked: bool) -> Result<()> {
    if asked && !present {
        return Err(Error::decode("at pagination: missing field `pagination` (asked for with includePagination)"));
    }
    Ok(())
}

/// The caller's value of a 2xx answer.
///
/// # Errors
/// `decode` naming the JSON path (the caller adds the request and status).
pub(crate) fn decode(answer: &Answer, schema: Schema) -> Result<JsValue> {
    let text = String::from(&answer.body);
    schema.check(&text)?;
    let value = json_parse(&answer.body).map_err(|_| Error::decode("the response body is not valid JSON"))?;
    match schema.member() {
        None => Ok(value),
        Some(m) => Reflect::get(&value, &m.into()).map_err(|_| Error::decode("the response body could not be read")),
    }
}
