//! What the helpers read of the catalog's resources: the members they use of
//! a `Product`, `Collection` and `Page` (the wire types in [`crate::model`]
//! have these and more; other members are ignored when decoding). Fewer
//! members and no nested types the helpers never read keep the wasm's
//! decoders small.

use serde::Deserialize;

use crate::error::{Error, Result};
use crate::model::{nullable, CollectionRef, Image, Variant};
use crate::text::cat;

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

/// A `Collection` or a CMS `Page` as the wasm decodes it: one type for both,
/// so one decoder in the wasm instead of two. The members one of them has and
/// the other has not are optional here; [`Listing::collection`] and
/// [`Listing::page`] require them as those types do, in serde's words
/// (`collection: missing field `breadcrumb``).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    #[serde(default)]
    pub id: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    pub slug: String,
    #[serde(default)]
    pub description: Option<String>,
    #[serde(default)]
    pub content: Option<String>,
    pub meta_title: String,
    pub meta_description: String,
    /// `None` when absent, `Some(None)` when `null`.
    #[serde(default, deserialize_with = "present")]
    pub image: Option<Option<Image>>,
    #[serde(default)]
    pub breadcrumb: Option<Vec<CollectionRef>>,
}

/// A nullable member that may be absent (`#[serde(default)]` gives `None`).
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> core::result::Result<Option<Option<Image>>, D::Error> {
    nullable::deserialize(d).map(Some)
}

/// Serde's `missing field` error for `what` (the argument) and the first member
/// of `members` that is not there (`(name, present)`).
fn need(what: &str, members: &[(&str, bool)]) -> Result<()> {
    match members.iter().find(|(_, present)| !present) {
        Some((field, _)) => Err(Error::invalid_argument(cat(&[what, ": missing field `", field, "`"]))),
        None => Ok(()),
    }
}

impl Listing {
    /// The collection this is: `id`, `name`, `description`, `image` (may be
    /// `null`) and `breadcrumb` must be there.
    ///
    /// # Errors
    /// `invalid_argument` naming the first missing member.
    pub fn collection(self) -> Result<Collection> {
        need(
            "collection",
            &[
                ("id", self.id.is_some()),
                ("name", self.name.is_some()),
                ("description", self.description.is_some()),
                ("image", self.image.is_some()),
                ("breadcrumb", self.breadcrumb.is_some()),
            ],
        )?;
        Ok(Collection {
            id: self.id.unwrap_or_default(),
            name: self.name.unwrap_or_default(),
            slug: self.slug,
            description: self.description.unwrap_or_default(),
            meta_title: self.meta_title,
            meta_description: self.meta_description,
            image: self.image.flatten(),
            breadcrumb: self.breadcrumb.unwrap_or_default(),
        })
    }

    /// The page this is: `title` and `content` must be there.
    ///
    /// # Errors
    /// `invalid_argument` naming the first missing member.
    pub fn page(self) -> Result<Page> {
        need("page", &[("title", self.title.is_some()), ("content", self.content.is_some())])?;
        Ok(Page {
            title: self.title.unwrap_or_default(),
            slug: self.slug,
            content: self.content.unwrap_or_default(),
            meta_title: self.meta_title,
            meta_description: self.meta_description,
        })
    }
}
