//! What the index reads of a `Product`: the wire type ([`crate::model::Product`]) has these
//! members and more, ignored when decoding (a narrow type: the wasm decodes only these). A
//! variant is in stock when its `stockQuantity` is above 0 and its `stockStatus` is not
//! `OUT_OF_STOCK`.

use serde::Deserialize;

use crate::model;
use crate::strmap::StrMap;

/// The members of a catalog `Product` the index reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: String,
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub tags: Vec<String>,
    #[serde(default)]
    pub created_at: String,
    #[serde(default)]
    pub options: Vec<ProductOption>,
    #[serde(default)]
    pub variants: Vec<Variant>,
    #[serde(default)]
    pub collections: Vec<CollectionRef>,
}

/// A product option's name and values.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct ProductOption {
    pub name: String,
    pub values: Vec<OptionValue>,
}

/// One value of an option.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct OptionValue {
    pub value: String,
}

/// What the index reads of a variant.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Variant {
    /// Decimal string, e.g. `"19.99"`.
    pub price: String,
    pub stock_quantity: u32,
    #[serde(default)]
    pub stock_status: String,
    pub attributes: StrMap,
}

impl Variant {
    /// In stock: a quantity above 0 and a status that is not `OUT_OF_STOCK`.
    #[must_use]
    pub fn in_stock(&self) -> bool {
        self.stock_quantity > 0 && !self.stock_status.eq_ignore_ascii_case("out_of_stock")
    }
}

/// A collection the product is in.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct CollectionRef {
    pub id: String,
    pub name: String,
}

impl From<&model::Product> for Product {
    fn from(p: &model::Product) -> Self {
        Self {
            id: p.id.clone(),
            name: p.name.clone(),
            description: p.description.clone(),
            tags: p.tags.clone(),
            created_at: p.created_at.clone(),
            options: p
                .options
                .iter()
                .map(|o| ProductOption {
                    name: o.name.clone(),
                    values: o.values.iter().map(|v| OptionValue { value: v.value.clone() }).collect(),
                })
                .collect(),
            variants: p
                .variants
                .iter()
                .map(|v| Variant {
                    price: v.price.clone(),
                    stock_quantity: v.stock_quantity,
                    stock_status: match v.stock_status {
                        model::StockStatus::InStock => "IN_STOCK".into(),
                        model::StockStatus::OutOfStock => "OUT_OF_STOCK".into(),
                    },
                    attributes: v.attributes.clone(),
                })
                .collect(),
            collections: p.collections.iter().map(|c| CollectionRef { id: c.id.clone(), name: c.name.clone() }).collect(),
        }
    }
}
