//! What the helpers are given, each argument its own serde type (decoded by
//! the wasm's one decoder, `wasm::interop`): the members they use of a
//! `Product`, `Collection` and `Page` (the wire types in [`crate::model`]
//! have these and more; other members are ignored when decoding; fewer
//! members and no nested types the helpers never read keep the wasm's
//! decoders small), and a [`StoreResource`] ([`ResourceArg`]). The store
//! settings are [`super::StoreSettings`].

use serde::Deserialize;

use super::routes::{ResourceKind, StoreResource};
use crate::error::Result;
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

/// A [`StoreResource`] as JS gives it (`storePath`): `kind`, and `slug` but
/// for `home` (`null` reads as absent; other members are ignored).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ResourceArg {
    pub kind: ResourceKind,
    #[serde(default)]
    pub slug: Option<String>,
}

impl ResourceArg {
    /// The resource named: `slug` required but for `home`, which must not have one.
    ///
    /// # Errors
    /// `invalid_argument` naming `resource.slug` when it is missing or not allowed.
    pub fn resource(self) -> Result<StoreResource> {
        StoreResource::from_parts(self.kind, self.slug)
    }
}
