//! The cart: lines of product variants with exact prices in integer minor units.
//!
//! Invariants, kept by every operation (an operation that would break one is
//! refused and leaves the cart unchanged):
//! - one line per variant (adding a variant again merges into its line);
//! - every quantity is in `1..=stockQuantity` of the variant as last seen;
//! - the subtotal and the compare-at total fit in 2^53 − 1 minor units, so every
//!   amount crosses to JavaScript as an exact `number`.
//!
//! The module is split at its seams:
//! - [`lines`]: a line, the catalog data it is priced from ([`CartProduct`]), totals;
//! - this file: the [`Cart`] and its operations (add, set quantity, remove, clear);
//! - [`refresh`]: stale catalog data — [`Cart::refresh`] applies fresh products and
//!   reports every change that matters to the buyer (a price change, stock lowered
//!   below the quantity, a variant gone); [`Cart::check`] reports without applying;
//! - [`storage`]: the versioned saved form ([`Cart::restore`], which never fails on
//!   the data: an empty cart plus a [`RestoreProblem`]);
//! - [`paid`]: what a paid checkout takes out of the cart, once per checkout
//!   ([`Cart::take_paid`], keyed by its payment session in the saved form).
//!
//! Adding a variant that is already in the cart keeps the line's price and uses
//! the fresh stock for the cap; prices change only through `refresh`.

use crate::error::{Error, ErrorCode, Result};
use crate::model::PaymentItem;
use crate::money::{self, Currency, MAX_SAFE_MINOR};

pub mod lines;
pub mod paid;
pub mod persistent;
pub mod refresh;
pub mod storage;

#[cfg(test)]
mod props;
#[cfg(test)]
pub(crate) mod tests;

pub use lines::{CartLine, CartProduct, CartTotals, CartVariant};
pub use persistent::{CartEvent, CartEventSource, PersistentCartOptions};
pub use refresh::{CartChange, LineRemoved, PriceChange, RefreshReport, StockChange};
pub use storage::{CartSummary, Restored, RestoreProblem, RestoreProblemKind, SavedCart, SavedReader, STORAGE_VERSION};

/// A cart in one currency.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cart {
    currency: Currency,
    lines: Vec<CartLine>,
    /// The payment sessions whose paid quantities were taken out of this
    /// cart ([`Cart::take_paid`]), oldest first, at most [`paid::SETTLED_KEPT`].
    settled: Vec<String>,
}

fn not_in_cart(variant_id: &str) -> Error {
    Error::new(ErrorCode::NotFound, format!("variant {} is not in the cart", money::echo(variant_id)))
}

impl Cart {
    /// An empty cart in `currency` (the store's `defaultCurrency`).
    ///
    /// # Errors
    /// `invalid_argument` when the currency is not an ISO 4217 code of the table.
    pub fn new(currency: &str) -> Result<Self> {
        Ok(Self { currency: Currency::from_code(currency)?, lines: Vec::new(), settled: Vec::new() })
    }

    #[must_use]
    pub fn currency(&self) -> Currency {
        self.currency
    }

    #[must_use]
    pub fn lines(&self) -> &[CartLine] {
        &self.lines
    }

    /// The index of the line of `variant_id`.
    #[must_use]
    pub fn position(&self, variant_id: &str) -> Option<usize> {
        self.lines.iter().position(|l| l.variant_id == variant_id)
    }

    #[must_use]
    pub fn line(&self, variant_id: &str) -> Option<&CartLine> {
        self.position(variant_id).map(|i| &self.lines[i])
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Subtotal, savings, item and line counts. Infallible: the invariants
    /// guarantee the sums fit.
    #[must_use]
    pub fn totals(&self) -> CartTotals {
        let mut t = CartTotals { subtotal: 0, total_savings: 0, item_count: 0, line_count: 0 };
        for l in &self.lines {
            // Cannot overflow: `check_totals` bounds both sums by MAX_SAFE_MINOR.
            t.subtotal += l.line_total;
            t.total_savings += l.line_savings;
            t.item_count += u64::from(l.quantity);
            t.line_count += 1;
        }
        t
    }

    /// Subtotal in minor units.
    #[must_use]
    pub fn subtotal(&self) -> i64 {
        self.lines.iter().map(|l| l.line_total).sum()
    }

    /// Verify the amount invariant (sums within 2^53 − 1, no overflow).
    fn check_totals(&self) -> Result<()> {
        let mut subtotal: i64 = 0;
        let mut savings: i64 = 0;
        for l in &self.lines {
            subtotal = money::checked_add(subtotal, l.line_total)?;
            savings = money::checked_add(savings, l.line_savings)?;
        }
        let compare_total = money::checked_add(subtotal, savings)?;
        if compare_total > MAX_SAFE_MINOR {
            return Err(Error::invalid_argument(format!("cart total {} {} would exceed the exact range of {} minor units", self.currency.format(compare_total), self.currency.code(), money::MAX_SAFE_TEXT)));
        }
        Ok(())
    }

    /// Run `change` on the line at `index`, and keep it only if the cart's
    /// invariants hold afterwards.
    fn apply_to_line(&mut self, index: usize, change: impl FnOnce(&mut CartLine) -> Result<()>) -> Result<()> {
        let old = self.lines[index].clone();
        let result = change(&mut self.lines[index])
            .and_then(|()| self.lines[index].recompute())
            .and_then(|()| self.check_totals());
        if result.is_err() {
            self.lines[index] = old;
        }
        result
    }

    /// Add `quantity` of the variant `variant_id` of `product`. A variant already in
    /// the cart merges into its line (its price stays; the fresh stock is the cap).
    /// Returns the index of the line.
    ///
    /// # Errors
    /// - `not_found`: `product` has no such variant;
    /// - `conflict`: the variant is out of stock or the product is not active;
    /// - `invalid_argument`: `quantity` is 0, the resulting quantity exceeds the
    ///   stock, a price string is invalid, or the cart total would exceed 2^53 − 1
    ///   minor units.
    pub fn add(&mut self, product: &CartProduct, variant_id: &str, quantity: u32) -> Result<usize> {
        if quantity == 0 {
            return Err(Error::invalid_argument("quantity must be at least 1, got 0"));
        }
        let fresh = self.priced(product, variant_id)?;
        let stock = fresh.stock_quantity;
        let index = if let Some(i) = self.position(variant_id) {
            i
        } else {
            self.lines.push(fresh);
            self.lines.len() - 1
        };
        let before = self.lines[index].quantity;
        let result = self.apply_to_line(index, |line| {
            let total = line.quantity.checked_add(quantity).filter(|&q| q <= stock).ok_or_else(|| {
                Error::invalid_argument(format!("quantity {quantity} of variant {} exceeds the stock: {stock} available, {before} already in the cart", money::echo(variant_id)))
            })?;
            line.quantity = total;
            line.stock_quantity = stock;
            Ok(())
        });
        if result.is_err() && before == 0 {
            self.lines.pop();
        }
        result.map(|()| index)
    }

    /// Set the quantity of the line of `variant_id` (use [`Cart::remove`] to drop
    /// it). Returns the index of the line.
    ///
    /// # Errors
    /// - `not_found`: the variant is not in the cart;
    /// - `invalid_argument`: `quantity` outside `1..=stockQuantity`, or the cart
    ///   total would exceed 2^53 − 1 minor units.
    pub fn set_quantity(&mut self, variant_id: &str, quantity: u32) -> Result<usize> {
        let index = self.position(variant_id).ok_or_else(|| not_in_cart(variant_id))?;
        self.apply_to_line(index, |line| {
            if quantity == 0 || quantity > line.stock_quantity {
                return Err(Error::invalid_argument(format!("quantity of variant {} must be 1..={}, got {quantity}", money::echo(variant_id), line.stock_quantity)));
            }
            line.quantity = quantity;
            Ok(())
        })?;
        Ok(index)
    }

    /// Remove the line of `variant_id`; returns its index, `None` when there was none.
    pub fn remove(&mut self, variant_id: &str) -> Option<usize> {
        let index = self.position(variant_id)?;
        self.lines.remove(index);
        Some(index)
    }

    /// Remove every line.
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// The `items` of `POST /payments/initiate`, one per line, in line order.
    #[must_use]
    pub fn payment_items(&self) -> Vec<PaymentItem> {
        self.lines.iter().map(|l| PaymentItem { variant_id: l.variant_id.clone(), quantity: l.quantity }).collect()
    }
}
