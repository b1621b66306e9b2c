//! A search's options and its result (serde types: the wasm entry decodes and encodes them
//! once). Prices are minor units (integers, `MinorUnits` in TypeScript).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How results are ordered.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Sort {
    /// Words matched, typos, proximity, field weight, exactness; then availability, then
    /// catalog order.
    #[default]
    Relevance,
    /// The lowest price of a variant that matches the filters.
    PriceAsc,
    PriceDesc,
    /// `createdAt`, latest first.
    Newest,
    /// Name, A to Z (folded: "Éclair" sorts with "eclair").
    Name,
}

/// Products none of whose (filtered) variants is in stock.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutOfStock {
    /// Left out (a variant that matches the filters must be in stock).
    Hide,
    /// After every product in stock.
    #[default]
    Last,
    /// Where the order puts them (availability only breaks ties).
    Mix,
}

/// Filters: OR within one, AND across them. The option filters, the price range and `hide`
/// hold on ONE variant: `{ Color: ["red"], Size: ["M"] }` is a product with a variant that is
/// both red and M.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Filters {
    /// Option name → accepted values (exact text, as the facets give them).
    pub options: BTreeMap<String, Vec<String>>,
    /// Collection ids.
    pub collections: Vec<String>,
    pub tags: Vec<String>,
    /// Lowest price accepted, in minor units.
    pub min_price: Option<i64>,
    /// Highest price accepted, in minor units.
    pub max_price: Option<i64>,
}

/// The options of `search`; every member may be left out.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct SearchOptions {
    pub filters: Filters,
    pub sort: Sort,
    pub out_of_stock: OutOfStock,
    /// 1-based; a page past the end gives no hits (and the totals).
    pub page: u32,
    /// 1..=250, default 20.
    pub per_page: u32,
    /// Facet counts computed (default true).
    pub facets: bool,
    /// The most values of each facet returned, most frequent first (default 50).
    pub facet_limit: u32,
    /// Buckets of the price histogram, 1..=100 (default 10).
    pub price_buckets: u32,
}

impl Default for SearchOptions {
    fn default() -> Self {
        Self {
            filters: Filters::default(),
            sort: Sort::default(),
            out_of_stock: OutOfStock::default(),
            page: 1,
            per_page: 20,
            facets: true,
            facet_limit: 50,
            price_buckets: 10,
        }
    }
}

/// A product found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    pub id: String,
    pub name: String,
    /// The lowest price of a variant that matches the filters (minor units); null without variants.
    pub price: Option<i64>,
    /// A variant that matches the filters is in stock.
    pub available: bool,
    /// The matched words of the name: `[start, end)` in UTF-16 code units (JS string indices).
    pub highlights: Vec<[u32; 2]>,
}

/// A facet value and how many products it would give.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct FacetValue {
    pub value: String,
    pub count: u32,
}

/// An option's values with their counts.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OptionFacet {
    pub name: String,
    pub values: Vec<FacetValue>,
}

/// A collection with its count.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CollectionFacet {
    pub id: String,
    pub name: String,
    pub count: u32,
}

/// A histogram bucket: prices in `[min, max]` (minor units).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceBucket {
    pub min: i64,
    pub max: i64,
    pub count: u32,
}

/// The price facet: products' prices (the lowest of their matching variants) with every
/// filter but the price range.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PriceFacet {
    pub min: i64,
    pub max: i64,
    pub histogram: Vec<PriceBucket>,
}

/// Facet counts: each counted with the query and every OTHER filter applied (what a filter
/// sidebar shows: the count a value would give if it were chosen).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Facets {
    pub options: Vec<OptionFacet>,
    pub collections: Vec<CollectionFacet>,
    pub tags: Vec<FacetValue>,
    /// Null when no product is left to price.
    pub price: Option<PriceFacet>,
    /// Products with a matching variant in stock (every filter applied but `hide`).
    pub in_stock: u32,
}

/// The result of `search`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchResult {
    pub hits: Vec<Hit>,
    /// Products matching the query and filters.
    pub total: u32,
    pub page: u32,
    pub per_page: u32,
    pub pages: u32,
    /// Null when `facets: false`.
    pub facets: Option<Facets>,
    /// A query with the words corrected, when nothing matched and a correction would.
    pub did_you_mean: Option<String>,
}

/// A product suggested.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuggestedProduct {
    pub id: String,
    pub name: String,
}

/// A collection suggested.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct SuggestedCollection {
    pub id: String,
    pub name: String,
}

/// Predictive search: completed queries, products, collections.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Suggestions {
    pub queries: Vec<String>,
    pub products: Vec<SuggestedProduct>,
    pub collections: Vec<SuggestedCollection>,
}
