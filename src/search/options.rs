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
/// both red and M. Every member may be left out (or `undefined`, or `null`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Filters {
    /// Option name → accepted values (exact text, as the facets give them).
    #[serde(default)]
    pub options: Option<BTreeMap<String, Vec<String>>>,
    /// Collection ids.
    #[serde(default)]
    pub collections: Option<Vec<String>>,
    #[serde(default)]
    pub tags: Option<Vec<String>>,
    /// Lowest price accepted, in minor units.
    #[serde(default)]
    pub min_price: Option<i64>,
    /// Highest price accepted, in minor units.
    #[serde(default)]
    pub max_price: Option<i64>,
}

/// The options of `search`; every member may be left out (or `undefined`, or `null`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SearchOptions {
    #[serde(default)]
    pub filters: Option<Filters>,
    /// Default `relevance`.
    #[serde(default)]
    pub sort: Option<Sort>,
    /// Default `last`.
    #[serde(default)]
    pub out_of_stock: Option<OutOfStock>,
    /// 1-based (default 1); a page past the end gives no hits (and the totals).
    #[serde(default)]
    pub page: Option<u32>,
    /// 1..=250, default 20.
    #[serde(default)]
    pub per_page: Option<u32>,
    /// Facet counts computed (default true).
    #[serde(default)]
    pub facets: Option<bool>,
    /// The most values of each facet returned, most frequent first (default 50).
    #[serde(default)]
    pub facet_limit: Option<u32>,
    /// Buckets of the price histogram, 1..=100 (default 10).
    #[serde(default)]
    pub price_buckets: Option<u32>,
}

impl SearchOptions {
    #[must_use]
    pub fn page(&self) -> u32 {
        self.page.unwrap_or(1)
    }
    #[must_use]
    pub fn per_page(&self) -> u32 {
        self.per_page.unwrap_or(20)
    }
    #[must_use]
    pub fn facets(&self) -> bool {
        self.facets.unwrap_or(true)
    }
    #[must_use]
    pub fn facet_limit(&self) -> u32 {
        self.facet_limit.unwrap_or(50)
    }
    #[must_use]
    pub fn price_buckets(&self) -> u32 {
        self.price_buckets.unwrap_or(10)
    }
    #[must_use]
    pub fn sort(&self) -> Sort {
        self.sort.unwrap_or_default()
    }
    #[must_use]
    pub fn out_of_stock(&self) -> OutOfStock {
        self.out_of_stock.unwrap_or_default()
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
