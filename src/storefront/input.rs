//! What the helpers read of a `Product`, `Collection` and `Page` (decoded by the wasm's one
//! decoder, `wasm::interop`): the wire types in [`crate::model`] have these members and more;
//! the others are ignored when decoding. A narrow type of its own because of the decoder's
//! size: the helpers decoding the model's own `Product`/`Collection`/`Page` (every member,
//! and `CollectionProduct` for a collection's products) made the client entry's wasm
//! 2,648 B gz larger (95,110 -> 97,758 B, `client storefront` features, built as
//! `scripts/build-pkg.sh` does; the catalog page of `scripts/bench-size.sh` +2.9 KB), over
//! issue 33's 1 KB page-weight budget. A member added to these is one the helpers read; its
//! type is the model's (`Image`, `Variant`, `CollectionRef`). The store settings are
//! [`super::StoreSettings`], the resource of `storePath` [`super::routes::ResourceArg`].

use serde::Deserialize;

use crate::model::{nullable, CollectionRef, Image, Variant};

/// The members of a catalog `Product` the helpers read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Product {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub description: String,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub meta_title: Option<String>,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub meta_description: Option<String>,
    pub images: Vec<Image>,
    pub options: Vec<ProductOption>,
    pub variants: Vec<Variant>,
}

/// The members of a product option the helpers read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ProductOption {
    pub name: String,
    pub position: u32,
    pub values: Vec<OptionValue>,
}

/// The members of an option value the helpers read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OptionValue {
    pub value: String,
    pub position: u32,
}

/// The members of a `Collection` the helpers read (not its products).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Collection {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub description: String,
    pub meta_title: String,
    pub meta_description: String,
    #[serde(deserialize_with = "nullable::deserialize")]
    pub image: Option<Image>,
    /// From the root to this collection itself.
    pub breadcrumb: Vec<CollectionRef>,
}

/// The members of a CMS `Page` the helpers read.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Page {
    pub title: String,
    pub slug: String,
    pub content: String,
    pub meta_title: String,
    pub meta_description: String,
}
