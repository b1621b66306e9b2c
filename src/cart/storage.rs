//! The saved form of a cart: versioned JSON,
//! `{"version":1,"currency":"USD","lines":[…CartLine…],"settled":["ps_…"],"summary":{…CartSummary…}}` (the
//! browser writes it: `src/wasm/cart_persist.rs`, `JSON.stringify` of the line snapshots).
//! The [`CartSummary`] is derived, written for readers without the wasm (a cart badge:
//! `cirrus-storefront/cart-summary`, js/cart-summary.ts); [`Cart::restore`] ignores it and
//! recomputes everything from the lines.
//!
//! [`Cart::restore`] never fails on the data: absent or empty data is an empty
//! cart; corrupt data, an unknown version or another currency is an empty cart
//! plus a [`RestoreProblem`] saying why. Derived amounts are recomputed and every
//! rule of the cart is checked again, never trusted. How the text is parsed is a
//! [`SavedReader`]: in the wasm the JS engine's `JSON.parse` and
//! serde-wasm-bindgen (no JSON parser in the binary); the native tests read it
//! with `serde_json` (their `SerdeJson`, src/cart/tests.rs).


use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::money::{self, Currency};

use super::{Cart, CartLine};

/// The version the saved form has and [`Cart::restore`] reads.
pub const STORAGE_VERSION: u32 = 1;

/// Why [`Cart::restore`] started with an empty cart (or, in the browser, why a
/// persistent cart could not be read or saved).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RestoreProblem {
    pub kind: RestoreProblemKind,
    pub message: String,
}

/// Why a saved cart could not be used, or could not be saved.
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
    /// browser cart then keeps the cart in memory only.
    StorageUnavailable,
    /// Writing the cart to browser storage failed (e.g. quota exceeded); the
    /// cart in memory is intact.
    WriteFailed,
}

impl RestoreProblem {
    #[must_use]
    pub fn new(kind: RestoreProblemKind, message: impl Into<String>) -> Self {
        Self { kind, message: message.into() }
    }
}

/// The outcome of [`Cart::restore`]: always a usable cart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Restored {
    pub cart: Cart,
    /// `None` when the data was absent or restored fully.
    pub problem: Option<RestoreProblem>,
}

/// What a badge or a mini-cart shows of a cart: written into the saved form by the
/// cart itself after every change, so a page reads it without the wasm.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CartSummary {
    /// The cart's ISO 4217 currency code (the saved form's `currency`).
    pub currency: String,
    /// The sum of the lines' quantities.
    pub item_count: u64,
    pub line_count: u32,
    /// In minor units of `currency` (<= 2^53 − 1 by the cart's invariants).
    pub subtotal: i64,
}

/// The saved form as read (after its version was checked).
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SavedCart {
    pub currency: String,
    pub lines: Vec<CartLine>,
    /// The payment sessions already taken out of the cart ([`Cart::take_paid`]);
    /// absent in a cart saved before issue 41.
    #[serde(default)]
    pub settled: Vec<String>,
}

/// How saved text is parsed: the document, its `version` (a non-negative
/// integer, else `None`), then its content.
pub trait SavedReader {
    type Doc;
    /// # Errors
    /// The parser's message when `text` is not JSON.
    fn parse(text: &str) -> core::result::Result<Self::Doc, String>;
    fn version(doc: &Self::Doc) -> Option<u64>;
    /// # Errors
    /// A message naming the path of the first shape problem.
    fn saved(doc: Self::Doc) -> core::result::Result<SavedCart, String>;
}

impl Cart {
    /// The summary the saved form carries.
    #[must_use]
    pub fn summary(&self) -> CartSummary {
        let t = self.totals();
        CartSummary { currency: self.currency.code().to_owned(), item_count: t.item_count, line_count: t.line_count, subtotal: t.subtotal }
    }

    /// Read a cart saved as the module documentation says, for the store
    /// currency `currency`, with the parser `R`.
    ///
    /// # Errors
    /// `invalid_argument` only when `currency` itself is unknown.
    pub fn restore<R: SavedReader>(data: Option<&str>, currency: &str) -> Result<Restored> {
        let empty = Self::new(currency)?;
        let data = data.map_or("", str::trim);
        if data.is_empty() {
            return Ok(Restored { cart: empty, problem: None });
        }
        match Self::parse_saved::<R>(data, empty.currency) {
            Ok(cart) => Ok(Restored { cart, problem: None }),
            Err(problem) => Ok(Restored { cart: empty, problem: Some(problem) }),
        }
    }

    fn parse_saved<R: SavedReader>(data: &str, currency: Currency) -> core::result::Result<Self, RestoreProblem> {
        let corrupt = |message: String| RestoreProblem::new(RestoreProblemKind::Corrupt, message);
        let doc = R::parse(data).map_err(|e| corrupt(format!("saved cart is not JSON: {e}")))?;
        match R::version(&doc) {
            Some(v) if v == u64::from(STORAGE_VERSION) => {}
            Some(v) => {
                return Err(RestoreProblem::new(
                    RestoreProblemKind::UnknownVersion,
                    format!("saved cart has version {v}; this SDK reads version {}", STORAGE_VERSION),
                ))
            }
            None => return Err(corrupt("saved cart has no numeric \"version\"".to_owned())),
        }
        let saved = R::saved(doc).map_err(|e| corrupt(format!("saved cart has an invalid shape: {e}")))?;
        if saved.currency != currency.code() {
            return Err(RestoreProblem::new(
                RestoreProblemKind::CurrencyMismatch,
                format!("saved cart is in {}, the store uses {}", money::echo(&saved.currency), currency.code()),
            ));
        }
        let mut cart = Self { currency, lines: Vec::with_capacity(saved.lines.len()), settled: Vec::new() };
        cart.settle_all(saved.settled);
        for line in saved.lines {
            cart.restore_line(line).map_err(|e| corrupt(e.message))?;
        }
        cart.restore_done().map_err(|e| corrupt(e.message))?;
        Ok(cart)
    }

    /// Append a saved line after checking it against the cart's rules
    /// (quantity in `1..=stockQuantity`, non-negative prices, one line per
    /// variant); the derived amounts are recomputed, not trusted. Call
    /// [`Cart::restore_done`] after the last line.
    ///
    /// # Errors
    /// `invalid_argument` saying what is wrong with the line (the cart is unchanged).
    pub(crate) fn restore_line(&mut self, mut line: CartLine) -> Result<usize> {
        let id = money::echo(&line.variant_id);
        if line.quantity == 0 || line.quantity > line.stock_quantity {
            return Err(Error::invalid_argument(format!("saved line {id} has quantity {} outside 1..={}", line.quantity, line.stock_quantity)));
        }
        if line.unit_price < 0 || line.compare_at_price.is_some_and(|c| c < 0) {
            return Err(Error::invalid_argument(format!("saved line {id} has a negative price")));
        }
        if self.line(&line.variant_id).is_some() {
            return Err(Error::invalid_argument(format!("saved cart has two lines for variant {id}")));
        }
        line.recompute().map_err(|e| Error::invalid_argument(format!("saved line {id}: {}", e.message)))?;
        self.lines.push(line);
        Ok(self.lines.len() - 1)
    }

    /// The totals check after the last [`Cart::restore_line`].
    ///
    /// # Errors
    /// `invalid_argument` when the saved cart's totals exceed 2^53 − 1 minor units.
    pub(crate) fn restore_done(&self) -> Result<()> {
        self.check_totals().map_err(|e| Error::invalid_argument(format!("saved cart: {}", e.message)))
    }
}
