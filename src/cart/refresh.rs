//! Stale catalog data: [`Cart::refresh`] applies fresh products and reports
//! what changed for the buyer; [`Cart::check`] reports without applying, so a
//! storefront can show "prices changed" and let the buyer accept.


use serde::{Deserialize, Serialize};

use crate::error::{ErrorCode, Result};

use super::{Cart, CartProduct};

/// What [`Cart::refresh`] found for one line (`kind` tells which).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum CartChange {
    /// The unit price or the compare-at price changed; the line now has the new ones.
    PriceChanged(PriceChange),
    /// Stock fell below the quantity; the quantity is lowered to the stock.
    StockLowered(StockChange),
    /// The variant is out of stock; the line is removed.
    OutOfStock(LineRemoved),
    /// The variant no longer exists (or its product is no longer active); the line is removed.
    VariantGone(LineRemoved),
}

/// Payload of [`CartChange::PriceChanged`] (minor units).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PriceChange {
    pub variant_id: String,
    pub product_name: String,
    pub old_unit_price: i64,
    pub new_unit_price: i64,
    pub old_compare_at_price: Option<i64>,
    pub new_compare_at_price: Option<i64>,
}

/// Payload of [`CartChange::StockLowered`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct StockChange {
    pub variant_id: String,
    pub product_name: String,
    pub old_quantity: u32,
    pub new_quantity: u32,
}

/// Payload of [`CartChange::OutOfStock`] and [`CartChange::VariantGone`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LineRemoved {
    pub variant_id: String,
    pub product_name: String,
    pub removed_quantity: u32,
}

/// What [`Cart::refresh`] / [`Cart::check`] found: the changes made to the cart and the lines
/// not checked.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefreshReport {
    /// Buyer-relevant changes, in line order.
    pub changes: Vec<CartChange>,
    /// Variant ids of lines whose product was not among the given products
    /// (left as they were).
    pub unchecked: Vec<String>,
}

impl Cart {
    /// Apply fresh catalog data and report what changed for the buyer.
    ///
    /// For each line whose product is among `products` (the first product of
    /// an id counts): a product no longer active or without the variant removes
    /// the line ([`CartChange::VariantGone`]); an out-of-stock variant removes it
    /// ([`CartChange::OutOfStock`]); a new price or compare-at price is applied
    /// ([`CartChange::PriceChanged`]); stock below the quantity lowers the
    /// quantity ([`CartChange::StockLowered`]). Names, images, attributes and a
    /// raised stock are updated without a report. Lines whose product is not
    /// given are left alone and listed in `unchecked`.
    ///
    /// # Errors
    /// `invalid_argument` when a fresh price string is invalid or the new total
    /// would exceed 2^53 − 1 minor units; the cart is then unchanged.
    pub fn refresh(&mut self, products: &[CartProduct]) -> Result<RefreshReport> {
        // By id, sorted (the first of a repeated id counts): no ordered tree's code in the wasm.
        let mut by_id: Vec<(&str, &CartProduct)> = Vec::with_capacity(products.len());
        for p in products {
            if let Err(i) = by_id.binary_search_by(|(id, _)| (*id).cmp(p.id.as_str())) {
                by_id.insert(i, (p.id.as_str(), p));
            }
        }
        let find = |id: &str| by_id.binary_search_by(|(k, _)| (*k).cmp(id)).ok().and_then(|i| by_id.get(i)).map(|(_, p)| *p);
        let mut report = RefreshReport::default();
        let mut lines = Vec::with_capacity(self.lines.len());
        for line in &self.lines {
            let Some(product) = find(line.product_id.as_str()) else {
                report.unchecked.push(line.variant_id.clone());
                lines.push(line.clone());
                continue;
            };
            let removed = || LineRemoved {
                variant_id: line.variant_id.clone(),
                product_name: line.product_name.clone(),
                removed_quantity: line.quantity,
            };
            let mut next = match self.priced(product, &line.variant_id) {
                Ok(fresh) => fresh,
                Err(e) if e.code == ErrorCode::NotFound || !product.is_active() => {
                    report.changes.push(CartChange::VariantGone(removed()));
                    continue;
                }
                Err(e) if e.code == ErrorCode::Conflict => {
                    report.changes.push(CartChange::OutOfStock(removed()));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if next.unit_price != line.unit_price || next.compare_at_price != line.compare_at_price {
                report.changes.push(CartChange::PriceChanged(PriceChange {
                    variant_id: line.variant_id.clone(),
                    product_name: line.product_name.clone(),
                    old_unit_price: line.unit_price,
                    new_unit_price: next.unit_price,
                    old_compare_at_price: line.compare_at_price,
                    new_compare_at_price: next.compare_at_price,
                }));
            }
            next.quantity = line.quantity.min(next.stock_quantity);
            if next.quantity < line.quantity {
                report.changes.push(CartChange::StockLowered(StockChange {
                    variant_id: line.variant_id.clone(),
                    product_name: line.product_name.clone(),
                    old_quantity: line.quantity,
                    new_quantity: next.quantity,
                }));
            }
            next.recompute()?;
            lines.push(next);
        }
        let candidate = Self { currency: self.currency, lines, settled: self.settled.clone() };
        candidate.check_totals()?;
        *self = candidate;
        Ok(report)
    }

    /// What [`Cart::refresh`] would report, without changing the cart.
    ///
    /// # Errors
    /// As [`Cart::refresh`].
    pub fn check(&self, products: &[CartProduct]) -> Result<RefreshReport> {
        self.clone().refresh(products)
    }
}
