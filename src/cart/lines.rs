//! A cart line, the catalog data it is priced from, and the totals.

use crate::strmap::StrMap;

use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode, Result};
use crate::model::{Image, Product, ProductStatus, StockStatus, Variant};
use crate::money;

use super::Cart;

/// One line of the cart. Amounts are integer minor units of the cart's currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartLine {
    pub product_id: String,
    pub product_name: String,
    pub product_slug: String,
    pub variant_id: String,
    /// Option name to value, e.g. `{"Size": "M"}` (sorted by name).
    pub attributes: StrMap,
    /// The variant's image, else the product's first image, else `null`.
    #[serde(default)]
    pub image: Option<Image>,
    pub unit_price: i64,
    /// `null` when the variant has no compare-at price.
    #[serde(default)]
    pub compare_at_price: Option<i64>,
    pub quantity: u32,
    /// The variant's stock when last seen: the cap for `quantity`.
    pub stock_quantity: u32,
    /// `unitPrice × quantity` (derived; recomputed on load).
    #[serde(default)]
    pub line_total: i64,
    /// `(compareAtPrice − unitPrice) × quantity` when compare-at is higher, else 0 (derived).
    #[serde(default)]
    pub line_savings: i64,
}

impl CartLine {
    /// Recompute the derived amounts (`lineTotal`, `lineSavings`).
    pub(crate) fn recompute(&mut self) -> Result<()> {
        self.line_total = money::checked_mul(self.unit_price, self.quantity)?;
        let per_unit = match self.compare_at_price {
            Some(c) if c > self.unit_price => c - self.unit_price,
            _ => 0,
        };
        self.line_savings = money::checked_mul(per_unit, self.quantity)?;
        Ok(())
    }
}

/// Cart totals in minor units.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartTotals {
    pub subtotal: i64,
    pub total_savings: i64,
    /// Sum of the quantities.
    pub item_count: u64,
    pub line_count: u32,
}

/// The members of a catalog `Product` the cart reads (what `add` and `refresh`
/// decode from a JS product; the other members are not read). `compareAtPrice`
/// and `image` of a variant may be absent.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartProduct {
    pub id: String,
    pub name: String,
    pub slug: String,
    pub status: ProductStatus,
    pub images: Vec<Image>,
    pub variants: Vec<CartVariant>,
}

/// The members of a catalog `Variant` the cart reads.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartVariant {
    pub id: String,
    /// Decimal string, e.g. `"19.99"`.
    pub price: String,
    #[serde(default)]
    pub compare_at_price: Option<String>,
    pub stock_quantity: u32,
    pub stock_status: StockStatus,
    #[serde(default)]
    pub image: Option<Image>,
    pub attributes: StrMap,
}

impl From<&Variant> for CartVariant {
    fn from(v: &Variant) -> Self {
        Self {
            id: v.id.clone(),
            price: v.price.clone(),
            compare_at_price: v.compare_at_price.clone(),
            stock_quantity: v.stock_quantity,
            stock_status: v.stock_status,
            image: v.image.clone(),
            attributes: v.attributes.clone(),
        }
    }
}

impl From<&Product> for CartProduct {
    fn from(p: &Product) -> Self {
        Self {
            id: p.id.clone(),
            name: p.name.clone(),
            slug: p.slug.clone(),
            status: p.status,
            images: p.images.clone(),
            variants: p.variants.iter().map(CartVariant::from).collect(),
        }
    }
}

impl CartProduct {
    /// `status == ACTIVE`.
    #[must_use]
    pub fn is_active(&self) -> bool {
        self.status == ProductStatus::Active
    }

    #[must_use]
    pub fn variant(&self, variant_id: &str) -> Option<&CartVariant> {
        self.variants.iter().find(|v| v.id == variant_id)
    }
}

impl Cart {
    /// A line (quantity 0) for `variant_id` of `product`, priced from the catalog.
    ///
    /// # Errors
    /// `not_found` (no such variant), `conflict` (product not active, out of
    /// stock), `invalid_argument` (a price is not a valid non-negative amount).
    pub fn priced(&self, product: &CartProduct, variant_id: &str) -> Result<CartLine> {
        let slug = &product.slug;
        let variant = product.variant(variant_id).ok_or_else(|| {
            Error::new(ErrorCode::NotFound, format!("product {} has no variant {}", money::echo(slug), money::echo(variant_id)))
        })?;
        if !product.is_active() {
            return Err(Error::new(ErrorCode::Conflict, format!("product {} is not available", money::echo(slug))));
        }
        if variant.stock_quantity == 0 || variant.stock_status == StockStatus::OutOfStock {
            return Err(Error::new(
                ErrorCode::Conflict,
                format!("variant {} of {} is out of stock", money::echo(variant_id), money::echo(slug)),
            ));
        }
        let price = |field: &str, value: &str| {
            let minor = self.currency.parse(value).map_err(|e| {
                Error::invalid_argument(format!("variant {} {field}: {}", money::echo(variant_id), e.message))
            })?;
            if minor < 0 {
                return Err(Error::invalid_argument(format!("variant {} {field} {} is negative", money::echo(variant_id), money::echo(value))));
            }
            Ok(minor)
        };
        let unit_price = price("price", &variant.price)?;
        let compare_at_price = variant.compare_at_price.as_deref().map(|c| price("compareAtPrice", c)).transpose()?;
        Ok(CartLine {
            product_id: product.id.clone(),
            product_name: product.name.clone(),
            product_slug: product.slug.clone(),
            variant_id: variant.id.clone(),
            attributes: variant.attributes.clone(),
            image: variant.image.clone().or_else(|| product.images.first().cloned()),
            unit_price,
            compare_at_price,
            quantity: 0,
            stock_quantity: variant.stock_quantity,
            line_total: 0,
            line_savings: 0,
        })
    }
}
