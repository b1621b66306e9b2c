//! `cirrus-storefront/search` (issue 42): the `SearchIndex` class over [`crate::search`], the
//! only export of the wasm built from the feature `search` alone (scripts/build-pkg.sh,
//! `pkg/search/`). Products are decoded once (the narrow [`crate::search::input::Product`]),
//! options and results cross through [`super::interop`]; the TypeScript types are generated
//! from the core's types by `tools/typegen/` (search.rs).

use wasm_bindgen::prelude::*;

use super::interop::{arg_from_js, to_js};
use crate::error::{Error, Result};
use crate::search::input::Product;
use crate::search::options::SearchOptions;

#[wasm_bindgen(typescript_custom_section)]
const SEARCH_TYPES: &str = include_str!("../../js/generated/search.ts");

/// A product search index: build it from the catalog (`SearchIndex.build(products)`, on a
/// server or in the browser), keep its bytes (`toBytes()`), load them (`SearchIndex.fromBytes`),
/// then `search` and `suggest`, synchronously.
#[wasm_bindgen]
pub struct SearchIndex {
    inner: crate::search::SearchIndex,
}

/// A string argument, `undefined`/`null` read as `""`.
fn text_arg(v: &JsValue, what: &str) -> Result<String> {
    if v.is_undefined() || v.is_null() {
        return Ok(String::new());
    }
    super::js::string_arg(v, &[what, " must be a string"].concat())
}

#[wasm_bindgen]
impl SearchIndex {
    /// The index of the catalog's products (what `client.allProducts()` yields).
    ///
    /// # Errors
    /// `invalid_argument` for a value that is not an array of products, or a price that is not
    /// a decimal amount.
    pub fn build(#[wasm_bindgen(unchecked_param_type = "Product[]")] products: JsValue) -> Result<SearchIndex> {
        if !js_sys::Array::is_array(&products) {
            return Err(Error::invalid_argument("products must be an array of products"));
        }
        let products: Vec<Product> = arg_from_js(products, "products", None, false)?;
        Ok(Self { inner: crate::search::SearchIndex::build(&products)? })
    }

    /// An index from the bytes `toBytes()` gave (a server's build, served as a file).
    ///
    /// # Errors
    /// `decode` for bytes of another format version, truncated or changed bytes.
    #[wasm_bindgen(js_name = fromBytes)]
    pub fn from_bytes(bytes: &[u8]) -> Result<SearchIndex> {
        Ok(Self { inner: crate::search::SearchIndex::from_bytes(bytes)? })
    }

    /// The index as compact, versioned bytes (the same products give the same bytes).
    #[wasm_bindgen(js_name = toBytes)]
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        self.inner.to_bytes()
    }

    /// How many products the index holds.
    #[wasm_bindgen(getter)]
    #[must_use]
    pub fn size(&self) -> u32 {
        self.inner.len() as u32
    }

    /// Search: hits (ranked, paged, highlighted), totals, facet counts, "did you mean".
    /// An empty query lists every product (filters and facets still apply).
    ///
    /// # Errors
    /// `invalid_argument` for options that are not `SearchOptions` (the member named).
    #[wasm_bindgen(unchecked_return_type = "SearchResult")]
    pub fn search(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | null | undefined")] options: Option<JsValue>,
    ) -> Result<JsValue> {
        let query = text_arg(&query, "query")?;
        let options: SearchOptions = arg_from_js(options.unwrap_or(JsValue::UNDEFINED), "options", None, true)?;
        to_js(&self.inner.search(&query, &options)?)
    }

    /// Predictive search for what has been typed so far: completed queries, products,
    /// collections (5 of each at most).
    ///
    /// # Errors
    /// `invalid_argument` when `prefix` is not a string.
    #[wasm_bindgen(unchecked_return_type = "Suggestions")]
    pub fn suggest(&self, #[wasm_bindgen(unchecked_param_type = "string")] prefix: JsValue) -> Result<JsValue> {
        to_js(&self.inner.suggest(&text_arg(&prefix, "prefix")?)?)
    }
}
