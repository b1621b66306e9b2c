//! The cart: lines of product variants with exact prices in integer minor units.
//!
//! Invariants, kept by every operation (an operation that would break one is
//! refused and leaves the cart unchanged):
//! - one line per variant (adding a variant again merges into its line);
//! - every quantity is in `1..=stockQuantity` of the variant as last seen;
//! - the subtotal and the compare-at total fit in 2^53 − 1 minor units, so every
//!   amount crosses to JavaScript as an exact `number`.
//!
//! Catalog data goes stale. [`Cart::refresh`] applies fresh products and reports
//! every change that matters to the buyer (a price change, stock lowered below
//! the quantity, a variant gone); [`Cart::check`] reports the same without
//! applying it, so a storefront can show "prices changed" and let the buyer
//! accept. Adding a variant that is already in the cart keeps the line's price
//! and uses the fresh stock for the cap; prices change only through `refresh`.
//!
//! Persistence: [`Cart::to_json`] writes a versioned JSON form
//! (`{"version":1,"currency":"USD","lines":[…]}`); [`Cart::restore`] reads it
//! back and never fails: corrupt, unknown-version or other-currency data gives
//! an empty cart plus a [`RestoreProblem`] saying why.

#[allow(unused_imports)]
use crate::prelude::*;
use crate::text::{cat, uint};


use serde::{Deserialize, Serialize};

use crate::error::{Error, ErrorCode, Result};
use crate::model::{Image, InitiateRequest, PaymentItem, Product, ProductStatus, StockStatus};
use crate::money::{self, Currency, MAX_SAFE_MINOR};

/// The version [`Cart::to_json`] writes and [`Cart::restore`] reads.
pub const STORAGE_VERSION: u32 = 1;

/// What a line carries besides the variant id and the numbers: [`Full`]
/// (product id, name, slug, attributes, image) natively; [`Bare`] (nothing)
/// in the wasm, where JS keeps those fields.
pub trait Info: Clone + core::fmt::Debug + PartialEq + Eq {
    type Text: Clone + core::fmt::Debug + PartialEq + Eq + Default;
    type Attributes: Clone + core::fmt::Debug + PartialEq + Eq + Default;
    type Image: Clone + core::fmt::Debug + PartialEq + Eq + Default;
}

/// Lines with every catalog field.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Full;
impl Info for Full {
    type Text = String;
    type Attributes = BTreeMap<String, String>;
    type Image = Option<Image>;
}

/// Lines with the variant id and the numbers only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Bare;
impl Info for Bare {
    type Text = ();
    type Attributes = ();
    type Image = ();
}

/// One line of the cart. Amounts are integer minor units of the cart's currency.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartLine<K: Info = Full> {
    pub product_id: K::Text,
    pub product_name: K::Text,
    pub product_slug: K::Text,
    pub variant_id: String,
    /// Option name to value, e.g. `{"Size": "M"}`.
    pub attributes: K::Attributes,
    /// The variant's image, else the product's first image, else `null`.
    pub image: K::Image,
    pub unit_price: i64,
    /// `null` when the variant has no compare-at price.
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

impl<K: Info> CartLine<K> {
    fn recompute(&mut self) -> Result<()> {
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

/// The result of [`Cart::refresh`] / [`Cart::check`].
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RefreshReport {
    /// Buyer-relevant changes, in line order.
    pub changes: Vec<CartChange>,
    /// Variant ids of lines whose product was not among the given products
    /// (left as they were).
    pub unchecked: Vec<String>,
}

/// One finding of [`Cart::refresh_offers`], by line index: the numbers of a
/// [`CartChange`] (`old`/`new`: unit prices, quantities; the removed quantity
/// in `old`) without the strings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Change {
    pub kind: ChangeKind,
    /// Index of the line before the refresh.
    pub line: usize,
    pub old: i64,
    pub new: i64,
    pub old_compare: Option<i64>,
    pub new_compare: Option<i64>,
}

/// The kinds of [`Change`]: those of [`CartChange`], and a line whose product was not given.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChangeKind {
    PriceChanged = 0,
    StockLowered = 1,
    OutOfStock = 2,
    VariantGone = 3,
    Unchecked = 4,
}

/// Why [`Cart::restore`] started with an empty cart.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreProblem {
    pub kind: RestoreProblemKind,
    pub message: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum RestoreProblemKind {
    /// Not JSON, not the cart's shape, or lines that break the cart's invariants.
    Corrupt,
    /// A `version` this SDK does not know.
    UnknownVersion,
    /// Saved for another currency than the store's.
    CurrencyMismatch,
    /// The browser storage could not be read (e.g. storage disabled); the
    /// browser helper then keeps the cart in memory only.
    StorageUnavailable,
    /// Writing the cart to browser storage failed (e.g. quota exceeded); the
    /// cart in memory is intact.
    WriteFailed,
}

/// The outcome of [`Cart::restore`]: always a usable cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    pub cart: Cart,
    /// `None` when the data was absent or restored fully.
    pub problem: Option<RestoreProblem>,
}

#[derive(Serialize, Deserialize)]
pub(crate) struct Stored {
    version: u32,
    currency: String,
    lines: Vec<CartLine>,
}

/// What the catalog says about one variant, as the cart reads it (the
/// primitives a JS caller hands over instead of a whole `Product`).
#[derive(Debug, Clone, Copy)]
pub struct Offer<'a> {
    /// The product's slug (for messages).
    pub product_slug: &'a str,
    /// `status == ACTIVE`.
    pub active: bool,
    /// The variant, or `None` when the product has no variant of that id.
    pub variant: Option<VariantOffer<'a>>,
}

/// The variant part of an [`Offer`].
#[derive(Debug, Clone, Copy)]
pub struct VariantOffer<'a> {
    pub stock_quantity: u32,
    /// `stockStatus == OUT_OF_STOCK`.
    pub out_of_stock: bool,
    /// Decimal price strings of the catalog.
    pub price: &'a str,
    pub compare_at_price: Option<&'a str>,
}

impl<'a> Offer<'a> {
    /// The offer of `product` for `variant_id`.
    #[must_use]
    pub fn of(product: &'a Product, variant_id: &str) -> Self {
        Offer {
            product_slug: &product.slug,
            active: product.status == ProductStatus::Active,
            variant: product.variants.iter().find(|v| v.id == variant_id).map(|v| VariantOffer {
                stock_quantity: v.stock_quantity,
                out_of_stock: v.stock_status == StockStatus::OutOfStock,
                price: &v.price,
                compare_at_price: v.compare_at_price.as_deref(),
            }),
        }
    }
}

/// A line with only the variant id and the numbers (the display fields empty).
#[must_use]
pub fn bare_line<K: Info>(variant_id: &str, unit_price: i64, compare_at_price: Option<i64>, quantity: u32, stock_quantity: u32) -> CartLine<K> {
    CartLine {
        product_id: K::Text::default(),
        product_name: K::Text::default(),
        product_slug: K::Text::default(),
        variant_id: variant_id.to_owned(),
        attributes: K::Attributes::default(),
        image: K::Image::default(),
        unit_price,
        compare_at_price,
        quantity,
        stock_quantity,
        line_total: 0,
        line_savings: 0,
    }
}

/// A cart in one currency ([`Bare`] lines: the numbers only, for the wasm).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cart<K: Info = Full> {
    currency: Currency,
    lines: Vec<CartLine<K>>,
}

fn not_in_cart(variant_id: &str) -> Error {
    Error::new(ErrorCode::NotFound, cat(&["variant ", &money::echo(variant_id), " is not in the cart"]))
}

impl Cart {
    /// An empty cart in `currency` (the store's `defaultCurrency`).
    ///
    /// # Errors
    /// `invalid_argument` when the currency is not an ISO 4217 code of the table.
    pub fn new(currency: &str) -> Result<Self> {
        Self::empty(currency)
    }

    /// A line for `variant_id` of `product` built from catalog data.
    fn line_from(&self, product: &Product, variant_id: &str) -> Result<CartLine> {
        let mut line = self.priced(&Offer::of(product, variant_id), variant_id)?;
        fill_display(&mut line, product);
        Ok(line)
    }

    /// Add `quantity` of the variant `variant_id` of `product`. A variant already in
    /// the cart merges into its line (its price stays; the fresh stock is the cap).
    ///
    /// # Errors
    /// - `not_found`: `product` has no such variant;
    /// - `conflict`: the variant is out of stock or the product is not active;
    /// - `invalid_argument`: `quantity` is 0, the resulting quantity exceeds the
    ///   stock, a price string is invalid, or the cart total would exceed 2^53 − 1
    ///   minor units.
    pub fn add(&mut self, product: &Product, variant_id: &str, quantity: u32) -> Result<()> {
        if quantity == 0 {
            return Err(Error::invalid_argument("quantity must be at least 1, got 0"));
        }
        let fresh = self.line_from(product, variant_id)?;
        self.add_line(fresh, quantity).map(drop)
    }

    /// Apply fresh catalog data and report what changed for the buyer.
    ///
    /// For each line whose product is among `products`: a product no longer
    /// active or without the variant removes the line ([`CartChange::VariantGone`]);
    /// an out-of-stock variant removes it ([`CartChange::OutOfStock`]); a new price
    /// or compare-at price is applied ([`CartChange::PriceChanged`]); stock below
    /// the quantity lowers the quantity ([`CartChange::StockLowered`]). Names,
    /// images, attributes and a raised stock are updated without a report. Lines
    /// whose product is not given are left alone and listed in `unchecked`.
    ///
    /// # Errors
    /// `invalid_argument` when a fresh price string is invalid or the new total
    /// would exceed 2^53 − 1 minor units; the cart is then unchanged.
    pub fn refresh(&mut self, products: &[Product]) -> Result<RefreshReport> {
        let find = |line: &CartLine| products.iter().find(|p| p.id == line.product_id);
        let offers: Vec<Option<Offer<'_>>> = self.lines.iter().map(|l| find(l).map(|p| Offer::of(p, &l.variant_id))).collect();
        let before = self.lines.clone();
        let changes = self.refresh_offers(&offers)?;
        let mut report = RefreshReport::default();
        for c in changes {
            let line = &before[c.line];
            let (variant_id, product_name) = (line.variant_id.clone(), line.product_name.clone());
            let quantity = |q: i64| u32::try_from(q).unwrap_or(u32::MAX);
            report.changes.push(match c.kind {
                ChangeKind::Unchecked => {
                    report.unchecked.push(variant_id);
                    continue;
                }
                ChangeKind::PriceChanged => CartChange::PriceChanged(PriceChange {
                    variant_id,
                    product_name,
                    old_unit_price: c.old,
                    new_unit_price: c.new,
                    old_compare_at_price: c.old_compare,
                    new_compare_at_price: c.new_compare,
                }),
                ChangeKind::StockLowered => {
                    CartChange::StockLowered(StockChange { variant_id, product_name, old_quantity: quantity(c.old), new_quantity: quantity(c.new) })
                }
                ChangeKind::OutOfStock => CartChange::OutOfStock(LineRemoved { variant_id, product_name, removed_quantity: quantity(c.old) }),
                ChangeKind::VariantGone => CartChange::VariantGone(LineRemoved { variant_id, product_name, removed_quantity: quantity(c.old) }),
            });
        }
        // Names, images and attributes follow the catalog without a report.
        for line in &mut self.lines {
            if let Some(p) = products.iter().find(|p| p.id == line.product_id) {
                fill_display(line, p);
            }
        }
        Ok(report)
    }

    /// What [`Cart::refresh`] would report, without changing the cart.
    ///
    /// # Errors
    /// As [`Cart::refresh`].
    pub fn check(&self, products: &[Product]) -> Result<RefreshReport> {
        self.clone().refresh(products)
    }

    /// The versioned JSON form, for [`Cart::restore`].
    #[must_use]
    pub fn to_json(&self) -> String {
        let stored = StoredRef { version: STORAGE_VERSION, currency: self.currency.code(), lines: &self.lines };
        // Serializing plain structs of strings, integers and maps cannot fail.
        serde_json::to_string(&stored).unwrap_or_default()
    }

    /// Read a cart saved by [`Cart::to_json`] for the store currency `currency`.
    /// Never fails on the data: `None` or empty data is an empty cart with no
    /// problem; corrupt data, an unknown version or another currency is an
    /// empty cart with the problem. (The wasm build reads the JSON in JS and
    /// hands the lines to [`Cart::restore_line`].)
    ///
    /// # Errors
    /// `invalid_argument` only when `currency` itself is unknown.
    pub fn restore(data: Option<&str>, currency: &str) -> Result<Restored> {
        let empty = Self::new(currency)?;
        let data = data.map_or("", str::trim);
        if data.is_empty() {
            return Ok(Restored { cart: empty, problem: None });
        }
        match Self::parse_stored(data, empty.currency) {
            Ok(cart) => Ok(Restored { cart, problem: None }),
            Err(problem) => Ok(Restored { cart: empty, problem: Some(problem) }),
        }
    }

    fn parse_stored(data: &str, currency: Currency) -> Result<Self, RestoreProblem> {
        let corrupt = |message: String| RestoreProblem { kind: RestoreProblemKind::Corrupt, message };
        let value: serde_json::Value = serde_json::from_str(data).map_err(|e| corrupt(format!("saved cart is not JSON: {e}")))?;
        match value.get("version").and_then(serde_json::Value::as_u64) {
            Some(v) if v == u64::from(STORAGE_VERSION) => {}
            Some(v) => {
                return Err(RestoreProblem {
                    kind: RestoreProblemKind::UnknownVersion,
                    message: format!("saved cart has version {v}; this SDK reads version {STORAGE_VERSION}"),
                })
            }
            _ => return Err(corrupt("saved cart has no numeric \"version\"".to_owned())),
        }
        let stored: Stored =
            serde_json::from_value(value).map_err(|e| corrupt(format!("saved cart has an invalid shape: {e}")))?;
        if stored.currency != currency.code() {
            return Err(RestoreProblem {
                kind: RestoreProblemKind::CurrencyMismatch,
                message: format!("saved cart is in {}, the store uses {currency}", money::echo(&stored.currency)),
            });
        }
        let mut cart = Self { currency, lines: Vec::with_capacity(stored.lines.len()) };
        for line in stored.lines {
            cart.restore_line(line).map_err(|e| corrupt(e.message))?;
        }
        cart.restore_done().map_err(|e| corrupt(e.message))?;
        Ok(cart)
    }
}

impl<K: Info> Cart<K> {
    /// An empty cart in `currency` with lines of kind `K`.
    ///
    /// # Errors
    /// As [`Cart::new`].
    pub fn empty(currency: &str) -> Result<Self> {
        Ok(Self { currency: Currency::from_code(currency)?, lines: Vec::new() })
    }

    #[must_use]
    pub fn currency(&self) -> Currency {
        self.currency
    }

    #[must_use]
    pub fn lines(&self) -> &[CartLine<K>] {
        &self.lines
    }

    #[must_use]
    pub fn line(&self, variant_id: &str) -> Option<&CartLine<K>> {
        self.lines.iter().find(|l| l.variant_id == variant_id)
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
            return Err(Error::invalid_argument(cat(&[
                "cart total ",
                &self.currency.format(compare_total),
                " ",
                self.currency.code(),
                " would exceed the exact range of ",
                money::MAX_SAFE_TEXT,
                " minor units",
            ])));
        }
        Ok(())
    }

    /// Run `change` on a copy of the line at `index`, and keep it only if the
    /// cart's invariants hold afterwards.
    fn apply_to_line(&mut self, index: usize, change: impl FnOnce(&mut CartLine<K>) -> Result<()>) -> Result<()> {
        let old = self.lines[index].clone();
        let result = change(&mut self.lines[index])
            .and_then(|()| self.lines[index].recompute())
            .and_then(|()| self.check_totals());
        if result.is_err() {
            self.lines[index] = old;
        }
        result
    }

    /// A bare line (numbers only, quantity 0) for `variant_id` from the catalog's `offer`.
    ///
    /// # Errors
    /// `not_found` (no such variant), `conflict` (product not active, out of
    /// stock), `invalid_argument` (a price is not a valid non-negative amount).
    pub fn priced(&self, offer: &Offer<'_>, variant_id: &str) -> Result<CartLine<K>> {
        let slug = offer.product_slug;
        let variant = offer.variant.ok_or_else(|| {
            Error::new(ErrorCode::NotFound, cat(&["product ", &money::echo(slug), " has no variant ", &money::echo(variant_id)]))
        })?;
        if !offer.active {
            return Err(Error::new(ErrorCode::Conflict, cat(&["product ", &money::echo(slug), " is not available"])));
        }
        if variant.stock_quantity == 0 || variant.out_of_stock {
            return Err(Error::new(
                ErrorCode::Conflict,
                cat(&["variant ", &money::echo(variant_id), " of ", &money::echo(slug), " is out of stock"]),
            ));
        }
        let price = |field: &str, value: &str| {
            let minor = self.currency.parse(value).map_err(|e| {
                Error::invalid_argument(cat(&["variant ", &money::echo(variant_id), " ", field, ": ", &e.message]))
            })?;
            if minor < 0 {
                return Err(Error::invalid_argument(cat(&[
                    "variant ",
                    &money::echo(variant_id),
                    " ",
                    field,
                    " ",
                    &money::echo(value),
                    " is negative",
                ])));
            }
            Ok(minor)
        };
        let unit_price = price("price", variant.price)?;
        let compare_at_price = variant.compare_at_price.map(|c| price("compareAtPrice", c)).transpose()?;
        Ok(bare_line(variant_id, unit_price, compare_at_price, 0, variant.stock_quantity))
    }

    /// [`Cart::add`] of a line priced with [`Cart::priced`]: merges into the
    /// line of the same variant (keeping its price and display fields; the
    /// fresh stock is the cap) or appends `fresh`. Returns the line's index.
    ///
    /// # Errors
    /// As [`Cart::add`].
    pub fn add_line(&mut self, fresh: CartLine<K>, quantity: u32) -> Result<usize> {
        if quantity == 0 {
            return Err(Error::invalid_argument("quantity must be at least 1, got 0"));
        }
        let variant_id = fresh.variant_id.clone();
        let variant_id = variant_id.as_str();
        let stock = fresh.stock_quantity;
        let index = if let Some(i) = self.lines.iter().position(|l| l.variant_id == variant_id) {
            i
        } else {
            self.lines.push(fresh);
            self.lines.len() - 1
        };
        let before = self.lines[index].quantity;
        let result = self.apply_to_line(index, |line| {
            let total = line.quantity.checked_add(quantity).filter(|&q| q <= stock).ok_or_else(|| {
                Error::invalid_argument(cat(&[
                    "quantity ",
                    &uint(quantity.into()),
                    " of variant ",
                    &money::echo(variant_id),
                    " exceeds the stock: ",
                    &uint(stock.into()),
                    " available, ",
                    &uint(before.into()),
                    " already in the cart",
                ]))
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

    /// Set the quantity of the line of `variant_id` (use [`Cart::remove`] to drop it).
    ///
    /// # Errors
    /// - `not_found`: the variant is not in the cart;
    /// - `invalid_argument`: `quantity` outside `1..=stockQuantity`, or the cart
    ///   total would exceed 2^53 − 1 minor units.
    pub fn set_quantity(&mut self, variant_id: &str, quantity: u32) -> Result<()> {
        let index = self.lines.iter().position(|l| l.variant_id == variant_id).ok_or_else(|| not_in_cart(variant_id))?;
        self.apply_to_line(index, |line| {
            if quantity == 0 || quantity > line.stock_quantity {
                return Err(Error::invalid_argument(cat(&[
                    "quantity of variant ",
                    &money::echo(variant_id),
                    " must be 1..=",
                    &uint(line.stock_quantity.into()),
                    ", got ",
                    &uint(quantity.into()),
                ])));
            }
            line.quantity = quantity;
            Ok(())
        })
    }

    /// Remove the line of `variant_id`; returns whether there was one.
    pub fn remove(&mut self, variant_id: &str) -> bool {
        let before = self.lines.len();
        self.lines.retain(|l| l.variant_id != variant_id);
        self.lines.len() != before
    }

    /// Remove every line.
    pub fn clear(&mut self) {
        self.lines.clear();
    }

    /// [`Cart::refresh`] from one offer per line, in line order (`None`: the
    /// line's product was not given; the line stays and is `unchecked`).
    /// Only the numbers change (price, compare-at, stock, quantity); display
    /// fields are the caller's. The report comes as [`Change`]s by line index
    /// (into the lines before the refresh), in line order.
    ///
    /// # Errors
    /// As [`Cart::refresh`]; `invalid_argument` too when `offers` does not
    /// have one entry per line.
    pub fn refresh_offers(&mut self, offers: &[Option<Offer<'_>>]) -> Result<Vec<Change>> {
        if offers.len() != self.lines.len() {
            return Err(Error::invalid_argument("refresh needs one offer per cart line"));
        }
        let mut changes = Vec::new();
        let mut lines = Vec::with_capacity(self.lines.len());
        for (index, (line, offer)) in self.lines.iter().zip(offers).enumerate() {
            let change = |kind, old: i64, new: i64| Change { kind, line: index, old, new, old_compare: None, new_compare: None };
            let Some(offer) = offer else {
                changes.push(change(ChangeKind::Unchecked, 0, 0));
                lines.push(line.clone());
                continue;
            };
            let quantity = i64::from(line.quantity);
            let fresh = match self.priced(offer, &line.variant_id) {
                Ok(fresh) => fresh,
                Err(e) if e.code == ErrorCode::NotFound || !offer.active => {
                    changes.push(change(ChangeKind::VariantGone, quantity, 0));
                    continue;
                }
                Err(e) if e.code == ErrorCode::Conflict => {
                    changes.push(change(ChangeKind::OutOfStock, quantity, 0));
                    continue;
                }
                Err(e) => return Err(e),
            };
            if fresh.unit_price != line.unit_price || fresh.compare_at_price != line.compare_at_price {
                changes.push(Change {
                    old_compare: line.compare_at_price,
                    new_compare: fresh.compare_at_price,
                    ..change(ChangeKind::PriceChanged, line.unit_price, fresh.unit_price)
                });
            }
            let mut next = line.clone();
            next.unit_price = fresh.unit_price;
            next.compare_at_price = fresh.compare_at_price;
            next.stock_quantity = fresh.stock_quantity;
            next.quantity = line.quantity.min(fresh.stock_quantity);
            if next.quantity < line.quantity {
                changes.push(change(ChangeKind::StockLowered, quantity, i64::from(next.quantity)));
            }
            next.recompute()?;
            lines.push(next);
        }
        let candidate = Self { currency: self.currency, lines };
        candidate.check_totals()?;
        *self = candidate;
        Ok(changes)
    }

    /// The `items` of `POST /payments/initiate`, one per line, in line order.
    #[must_use]
    pub fn payment_items(&self) -> Vec<PaymentItem> {
        self.lines.iter().map(|l| PaymentItem { variant_id: l.variant_id.clone(), quantity: l.quantity }).collect()
    }

    /// The body of `POST /payments/initiate` for this cart.
    ///
    /// # Errors
    /// `invalid_state` when the cart is empty (the server requires items).
    pub fn initiate_request(&self) -> Result<InitiateRequest> {
        if self.lines.is_empty() {
            return Err(Error::invalid_state("the cart is empty: add an item before checkout"));
        }
        Ok(InitiateRequest { items: self.payment_items(), currency: self.currency.code().to_owned() })
    }

    /// Append a saved line after checking it against the cart's rules
    /// (quantity in `1..=stockQuantity`, non-negative prices, one line per
    /// variant); the derived amounts are recomputed, not trusted. Call
    /// [`Cart::restore_done`] after the last line.
    ///
    /// # Errors
    /// `invalid_argument` saying what is wrong with the line (the cart is unchanged).
    pub fn restore_line(&mut self, mut line: CartLine<K>) -> Result<usize> {
        let id = money::echo(&line.variant_id);
        if line.quantity == 0 || line.quantity > line.stock_quantity {
            return Err(Error::invalid_argument(cat(&[
                "saved line ",
                &id,
                " has quantity ",
                &uint(line.quantity.into()),
                " outside 1..=",
                &uint(line.stock_quantity.into()),
            ])));
        }
        if line.unit_price < 0 || line.compare_at_price.is_some_and(|c| c < 0) {
            return Err(Error::invalid_argument(cat(&["saved line ", &id, " has a negative price"])));
        }
        if self.line(&line.variant_id).is_some() {
            return Err(Error::invalid_argument(cat(&["saved cart has two lines for variant ", &id])));
        }
        line.recompute().map_err(|e| Error::invalid_argument(cat(&["saved line ", &id, ": ", &e.message])))?;
        self.lines.push(line);
        Ok(self.lines.len() - 1)
    }

    /// The totals check after the last [`Cart::restore_line`].
    ///
    /// # Errors
    /// `invalid_argument` when the saved cart's totals exceed 2^53 − 1 minor units.
    pub fn restore_done(&self) -> Result<()> {
        self.check_totals().map_err(|e| Error::invalid_argument(cat(&["saved cart: ", &e.message])))
    }
}

/// Copy the display fields of `product` (and of the line's variant) into `line`.
fn fill_display(line: &mut CartLine, product: &Product) {
    line.product_id.clone_from(&product.id);
    line.product_name.clone_from(&product.name);
    line.product_slug.clone_from(&product.slug);
    if let Some(v) = product.variants.iter().find(|v| v.id == line.variant_id) {
        line.attributes.clone_from(&v.attributes);
        line.image = v.image.clone().or_else(|| product.images.first().cloned());
    }
}

#[derive(Serialize)]
struct StoredRef<'a> {
    version: u32,
    currency: &'a str,
    lines: &'a [CartLine],
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::model::{ProductStatus, StockStatus, Variant};

    pub(crate) fn variant(id: &str, price: &str, compare: Option<&str>, stock: u32) -> Variant {
        Variant {
            id: id.to_owned(),
            price: price.to_owned(),
            compare_at_price: compare.map(str::to_owned),
            stock_quantity: stock,
            stock_status: if stock == 0 { StockStatus::OutOfStock } else { StockStatus::InStock },
            image: None,
            attributes: BTreeMap::from([("Size".to_owned(), "M".to_owned())]),
        }
    }

    pub(crate) fn product(id: &str, variants: Vec<Variant>) -> Product {
        Product {
            id: id.to_owned(),
            store_id: "st_1".to_owned(),
            name: format!("Product {id}"),
            slug: format!("product-{id}"),
            status: ProductStatus::Active,
            description: String::new(),
            meta_title: None,
            meta_description: None,
            images: vec![Image { url: format!("https://img.test/{id}.png"), alt: id.to_owned() }],
            tags: vec![],
            created_at: "2026-01-01T00:00:00Z".to_owned(),
            updated_at: "2026-01-01T00:00:00Z".to_owned(),
            options: vec![],
            variants,
            collections: vec![],
        }
    }

    fn tee() -> Product {
        product("p1", vec![variant("v1", "19.99", Some("24.99"), 5), variant("v2", "0.10", None, 100), variant("v0", "5.00", None, 0)])
    }

    #[test]
    fn lines_carry_catalog_data_and_exact_totals() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 2).unwrap();
        cart.add(&tee(), "v2", 3).unwrap();
        let l = cart.line("v1").unwrap();
        assert_eq!((l.unit_price, l.compare_at_price, l.line_total, l.line_savings), (1999, Some(2499), 3998, 1000));
        assert_eq!(l.product_name, "Product p1");
        assert_eq!(l.attributes["Size"], "M");
        assert_eq!(l.image.as_ref().unwrap().url, "https://img.test/p1.png");
        // 0.10 × 3 is exactly 30 cents (floats say 0.30000000000000004).
        assert_eq!(cart.line("v2").unwrap().line_total, 30);
        assert_eq!(cart.totals(), CartTotals { subtotal: 4028, total_savings: 1000, item_count: 5, line_count: 2 });
        assert_eq!(cart.subtotal(), 4028);
    }

    #[test]
    fn adding_twice_merges_and_is_capped_by_stock() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 2).unwrap();
        cart.add(&tee(), "v1", 3).unwrap();
        assert_eq!(cart.lines().len(), 1);
        assert_eq!(cart.line("v1").unwrap().quantity, 5);
        let e = cart.add(&tee(), "v1", 1).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.contains("5 available, 5 already"), "{}", e.message);
        assert_eq!(cart.line("v1").unwrap().quantity, 5, "refused add leaves the line");
        let e = cart.add(&tee(), "v2", 101).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(cart.line("v2").is_none(), "refused new line is not kept");
    }

    #[test]
    fn unknown_out_of_stock_and_zero_are_refused_with_typed_errors() {
        let mut cart = Cart::new("USD").unwrap();
        assert_eq!(cart.add(&tee(), "nope", 1).unwrap_err().code, ErrorCode::NotFound);
        assert_eq!(cart.add(&tee(), "v0", 1).unwrap_err().code, ErrorCode::Conflict);
        assert_eq!(cart.add(&tee(), "v1", 0).unwrap_err().code, ErrorCode::InvalidArgument);
        let mut draft = tee();
        draft.status = ProductStatus::Draft;
        assert_eq!(cart.add(&draft, "v1", 1).unwrap_err().code, ErrorCode::Conflict);
        let bad = product("p2", vec![variant("b", "1.999", None, 3)]);
        let e = cart.add(&bad, "b", 1).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.contains("\"1.999\""), "{}", e.message);
        assert!(cart.is_empty());
    }

    #[test]
    fn set_quantity_remove_clear() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 1).unwrap();
        cart.set_quantity("v1", 4).unwrap();
        assert_eq!(cart.subtotal(), 7996);
        for q in [0, 6] {
            assert_eq!(cart.set_quantity("v1", q).unwrap_err().code, ErrorCode::InvalidArgument);
        }
        assert_eq!(cart.line("v1").unwrap().quantity, 4);
        assert_eq!(cart.set_quantity("zz", 1).unwrap_err().code, ErrorCode::NotFound);
        assert!(cart.remove("v1"));
        assert!(!cart.remove("v1"));
        cart.add(&tee(), "v2", 1).unwrap();
        cart.clear();
        assert!(cart.is_empty());
        assert_eq!(cart.totals().subtotal, 0);
    }

    #[test]
    fn totals_beyond_safe_javascript_range_are_refused() {
        let mut cart = Cart::new("USD").unwrap();
        let rich = product("r", vec![variant("r1", "45035996273704.96", None, 10)]);
        cart.add(&rich, "r1", 1).unwrap(); // 2^52 cents
        let e = cart.add(&rich, "r1", 1).unwrap_err(); // 2^53 > 2^53 - 1
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert_eq!(cart.line("r1").unwrap().quantity, 1);
        let huge = product("h", vec![variant("h1", "92233720368547758.07", None, 10)]);
        assert!(cart.add(&huge, "h1", 2).is_err(), "i64 overflow refused");
        assert!(cart.line("h1").is_none());
    }

    #[test]
    fn refresh_reports_and_applies_changes() {
        let mut cart = Cart::new("USD").unwrap();
        let other = product("p2", vec![variant("w", "3.00", None, 9)]);
        let third = product("p3", vec![variant("x", "1.00", None, 9)]);
        cart.add(&tee(), "v1", 4).unwrap();
        cart.add(&tee(), "v2", 2).unwrap();
        cart.add(&other, "w", 1).unwrap();
        cart.add(&third, "x", 1).unwrap();
        let fresh = product("p1", vec![variant("v1", "17.99", Some("24.99"), 3)]); // v2 gone
        let fresh_other = product("p2", vec![variant("w", "3.00", None, 0)]);
        let before = cart.clone();
        let preview = cart.check(&[fresh.clone(), fresh_other.clone()]).unwrap();
        assert_eq!(cart, before, "check does not change the cart");
        let report = cart.refresh(&[fresh, fresh_other]).unwrap();
        assert_eq!(report, preview);
        assert_eq!(
            report.changes,
            vec![
                CartChange::PriceChanged(PriceChange {
                    variant_id: "v1".into(),
                    product_name: "Product p1".into(),
                    old_unit_price: 1999,
                    new_unit_price: 1799,
                    old_compare_at_price: Some(2499),
                    new_compare_at_price: Some(2499),
                }),
                CartChange::StockLowered(StockChange { variant_id: "v1".into(), product_name: "Product p1".into(), old_quantity: 4, new_quantity: 3 }),
                CartChange::VariantGone(LineRemoved { variant_id: "v2".into(), product_name: "Product p1".into(), removed_quantity: 2 }),
                CartChange::OutOfStock(LineRemoved { variant_id: "w".into(), product_name: "Product p2".into(), removed_quantity: 1 }),
            ]
        );
        assert_eq!(report.unchecked, vec!["x".to_owned()]);
        assert_eq!(cart.subtotal(), 3 * 1799 + 100);
        let again = cart.refresh(&[product("p1", vec![variant("v1", "17.99", Some("24.99"), 3)])]).unwrap();
        assert!(again.changes.is_empty(), "no change, no report");
    }

    #[test]
    fn refresh_with_invalid_price_leaves_cart_unchanged() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 1).unwrap();
        let before = cart.clone();
        let e = cart.refresh(&[product("p1", vec![variant("v1", "abc", None, 3)])]).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert_eq!(cart, before);
    }

    #[test]
    fn payment_items_follow_the_lines() {
        let mut cart = Cart::new("USD").unwrap();
        assert_eq!(cart.initiate_request().unwrap_err().code, ErrorCode::InvalidState);
        cart.add(&tee(), "v1", 2).unwrap();
        cart.add(&tee(), "v2", 1).unwrap();
        cart.add(&tee(), "v1", 1).unwrap();
        let req = cart.initiate_request().unwrap();
        assert_eq!(req.currency, "USD");
        assert_eq!(
            req.items,
            vec![PaymentItem { variant_id: "v1".into(), quantity: 3 }, PaymentItem { variant_id: "v2".into(), quantity: 1 }]
        );
    }

    #[test]
    fn persistence_round_trips() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 2).unwrap();
        cart.add(&tee(), "v2", 7).unwrap();
        let json = cart.to_json();
        assert!(json.starts_with(r#"{"version":1,"currency":"USD","lines":["#), "{json}");
        let restored = Cart::restore(Some(&json), "USD").unwrap();
        assert_eq!(restored.problem, None);
        assert_eq!(restored.cart, cart);
        let none = Cart::restore(None, "USD").unwrap();
        assert!(none.cart.is_empty() && none.problem.is_none());
    }

    #[test]
    fn bad_saved_data_gives_an_empty_cart_and_a_reason() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 2).unwrap();
        let good = cart.to_json();
        let cases = [
            ("{not json", RestoreProblemKind::Corrupt),
            ("[]", RestoreProblemKind::Corrupt),
            ("null", RestoreProblemKind::Corrupt),
            (r#"{"version":"1"}"#, RestoreProblemKind::Corrupt),
            (r#"{"version":2,"currency":"USD","lines":[]}"#, RestoreProblemKind::UnknownVersion),
            (r#"{"version":1,"currency":"USD","lines":{}}"#, RestoreProblemKind::Corrupt),
            (&good.replace("\"quantity\":2", "\"quantity\":99"), RestoreProblemKind::Corrupt),
            (&good.replace("\"quantity\":2", "\"quantity\":0"), RestoreProblemKind::Corrupt),
            (&good.replace("\"quantity\":2", "\"quantity\":-1"), RestoreProblemKind::Corrupt),
            (&good.replace("\"unitPrice\":1999", "\"unitPrice\":-1"), RestoreProblemKind::Corrupt),
            (&good.replace("\"unitPrice\":1999", "\"unitPrice\":19.99"), RestoreProblemKind::Corrupt),
            (&good.replace("\"unitPrice\":1999", "\"unitPrice\":9007199254740993"), RestoreProblemKind::Corrupt),
            (&good.replace("\"USD\"", "\"EUR\""), RestoreProblemKind::CurrencyMismatch),
        ];
        for (data, kind) in cases {
            let r = Cart::restore(Some(data), "USD").unwrap();
            assert!(r.cart.is_empty(), "{data}");
            let p = r.problem.unwrap_or_else(|| panic!("no problem reported for {data}"));
            assert_eq!(p.kind, kind, "{data}: {}", p.message);
            assert!(!p.message.is_empty());
        }
        let doubled = good.replace("}]}", &format!("}},{}]}}", &good[good.find("{\"productId").unwrap()..good.len() - 2]));
        let r = Cart::restore(Some(&doubled), "USD").unwrap();
        assert!(r.problem.unwrap().message.contains("two lines"));
        assert!(Cart::restore(Some(&good), "XXX").is_err(), "unknown store currency is an argument error");
    }

    #[test]
    fn offers_price_like_products() {
        let mut by_offer = Cart::new("USD").unwrap();
        let mut by_product = Cart::new("USD").unwrap();
        for (vid, q) in [("v1", 2), ("v2", 3), ("v1", 1)] {
            let fresh = by_offer.priced(&Offer::of(&tee(), vid), vid).unwrap();
            let index = by_offer.add_line(fresh, q).unwrap();
            assert_eq!(by_offer.lines()[index].variant_id, vid);
            by_product.add(&tee(), vid, q).unwrap();
        }
        let nums = |c: &Cart| c.lines().iter().map(|l| (l.variant_id.clone(), l.unit_price, l.compare_at_price, l.quantity, l.line_total, l.line_savings)).collect::<Vec<_>>();
        assert_eq!(nums(&by_offer), nums(&by_product));
        assert!(by_offer.lines()[0].product_name.is_empty(), "an offer line carries numbers only");
        let gone = Offer { product_slug: "s", active: true, variant: None };
        assert_eq!(by_offer.priced(&gone, "x").unwrap_err().code, ErrorCode::NotFound);
        let t = tee();
        let inactive = Offer { active: false, ..Offer::of(&t, "v1") };
        assert_eq!(by_offer.priced(&inactive, "v1").unwrap_err().code, ErrorCode::Conflict);
        assert_eq!(by_offer.add_line(by_offer.priced(&Offer::of(&tee(), "v2"), "v2").unwrap(), 0).unwrap_err().code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn refresh_offers_is_refresh_without_display_fields() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 4).unwrap();
        cart.add(&tee(), "v2", 2).unwrap();
        let fresh = product("p1", vec![variant("v1", "17.99", None, 3)]);
        let mut by_offer = cart.clone();
        let offers = vec![Some(Offer::of(&fresh, "v1")), None];
        let changes = by_offer.refresh_offers(&offers).unwrap();
        let kinds: Vec<(ChangeKind, usize)> = changes.iter().map(|c| (c.kind, c.line)).collect();
        assert_eq!(kinds, [(ChangeKind::PriceChanged, 0), (ChangeKind::StockLowered, 0), (ChangeKind::Unchecked, 1)]);
        assert_eq!((changes[0].old, changes[0].new, changes[0].old_compare, changes[0].new_compare), (1999, 1799, Some(2499), None));
        assert_eq!((by_offer.lines()[0].unit_price, by_offer.lines()[0].compare_at_price, by_offer.lines()[0].quantity), (1799, None, 3));
        assert_eq!(by_offer.refresh_offers(&offers[..1]).unwrap_err().code, ErrorCode::InvalidArgument, "one offer per line");
    }

    #[test]
    fn restore_line_checks_each_rule() {
        let mut cart = Cart::new("USD").unwrap();
        assert_eq!(cart.restore_line(bare_line("a", 100, Some(150), 2, 5)).unwrap(), 0);
        assert_eq!((cart.lines()[0].line_total, cart.lines()[0].line_savings), (200, 100), "derived amounts recomputed");
        for (line, why) in [
            (bare_line("b", 100, None, 0, 5), "outside 1..=5"),
            (bare_line("b", 100, None, 6, 5), "outside 1..=5"),
            (bare_line("b", -1, None, 1, 5), "negative"),
            (bare_line("b", 1, Some(-1), 1, 5), "negative"),
            (bare_line("a", 1, None, 1, 5), "two lines"),
            (bare_line("b", i64::MAX, None, 2, 5), "overflow"),
        ] {
            let e = cart.restore_line(line).unwrap_err();
            assert!(e.message.contains(why), "{why}: {}", e.message);
        }
        assert_eq!(cart.lines().len(), 1, "refused lines are not kept");
        cart.restore_done().unwrap();
        cart.restore_line(bare_line("big", MAX_SAFE_MINOR, None, 1, 1)).unwrap();
        assert!(cart.restore_done().unwrap_err().message.contains("saved cart"));
    }

    #[test]
    fn derived_fields_are_recomputed_on_load_not_trusted() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&tee(), "v1", 2).unwrap();
        let tampered = cart.to_json().replace("\"lineTotal\":3998", "\"lineTotal\":1");
        let r = Cart::restore(Some(&tampered), "USD").unwrap();
        assert_eq!(r.cart.subtotal(), 3998);
    }
}

#[cfg(test)]
mod props {
    use proptest::prelude::*;

    use super::tests::{product, variant};
    use super::*;

    #[derive(Debug, Clone)]
    enum Op {
        Add(usize, u32),
        Set(usize, u32),
        Remove(usize),
        Refresh(usize, u32, u32),
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0..6usize, 0..12u32).prop_map(|(v, q)| Op::Add(v, q)),
            (0..6usize, 0..12u32).prop_map(|(v, q)| Op::Set(v, q)),
            (0..6usize).prop_map(Op::Remove),
            (0..6usize, 0..100_000u32, 0..12u32).prop_map(|(v, p, s)| Op::Refresh(v, p, s)),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(500))]

        /// Any sequence of operations keeps the invariants: one line per variant,
        /// quantities in 1..=stock, exact totals (checked against i128 sums), and
        /// the saved form restores to the same cart.
        #[test]
        fn operations_keep_the_invariants(
            prices in proptest::collection::vec((0..10_000_000i64, proptest::option::of(0..10_000_000i64), 0..10u32), 6),
            ops in proptest::collection::vec(op(), 1..40),
        ) {
            let usd = Currency::from_code("USD").unwrap();
            let mut catalog: Vec<Product> = prices
                .iter()
                .enumerate()
                .map(|(i, (p, c, s))| {
                    let c = c.map(|c| usd.format(c));
                    product(&format!("p{i}"), vec![variant(&format!("v{i}"), &usd.format(*p), c.as_deref(), *s)])
                })
                .collect();
            let mut cart = Cart::new("USD").unwrap();
            for op in ops {
                let before = cart.clone();
                let result = match op {
                    Op::Add(i, q) => cart.add(&catalog[i], &format!("v{i}"), q),
                    Op::Set(i, q) => cart.set_quantity(&format!("v{i}"), q),
                    Op::Remove(i) => {
                        cart.remove(&format!("v{i}"));
                        Ok(())
                    }
                    Op::Refresh(i, p, s) => {
                        catalog[i].variants[0].price = usd.format(i64::from(p));
                        catalog[i].variants[0].stock_quantity = s;
                        cart.refresh(&catalog).map(|_| ())
                    }
                };
                if result.is_err() {
                    prop_assert_eq!(&cart, &before, "a refused operation leaves the cart unchanged");
                }
                let mut sub: i128 = 0;
                let mut ids = std::collections::BTreeSet::new();
                for l in cart.lines() {
                    prop_assert!(ids.insert(l.variant_id.clone()), "one line per variant");
                    prop_assert!(l.quantity >= 1 && l.quantity <= l.stock_quantity);
                    prop_assert_eq!(i128::from(l.line_total), i128::from(l.unit_price) * i128::from(l.quantity));
                    sub += i128::from(l.unit_price) * i128::from(l.quantity);
                }
                prop_assert_eq!(i128::from(cart.totals().subtotal), sub);
                let restored = Cart::restore(Some(&cart.to_json()), "USD").unwrap();
                prop_assert_eq!(restored.problem, None);
                prop_assert_eq!(&restored.cart, &cart);
            }
        }
    }
}
