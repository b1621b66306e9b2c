//! Benchmark-only exports (cargo feature `bench`, never in the package): the
//! decoding designs measured against the one shipped (scripts/bench-decode.sh).

#[allow(unused_imports)]
use crate::prelude::*;

use wasm_bindgen::prelude::*;

use crate::model::{Product, ProductsResponse};

/// Alternative A: serde_json in wasm, body text → Rust `ProductsResponse`
/// (a lower bound for that design: handing the values back to JS costs more).
///
/// # Errors
/// A `CirrusError` (`decode`) naming the JSON path.
#[wasm_bindgen(js_name = benchSerdeDecodeProducts)]
pub fn bench_serde_decode_products(text: &str) -> Result<u32, JsValue> {
    let r: ProductsResponse<Product> = crate::decode::decode_json(text)?;
    Ok(u32::try_from(r.products.len()).unwrap_or(u32::MAX))
}
