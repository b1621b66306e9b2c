//! Cart and money exports (issue 4): the rules and the exact math over
//! primitives. The public `Cart` class and the money helpers are TypeScript
//! (`js/cart.ts`): it checks the shape of arguments, keeps the line objects,
//! does persistence, and calls these.
//!
//! Amounts cross as `i64` (a JS `BigInt`; JS checks `Number.isSafeInteger`
//! before converting, and every amount handed back is checked `<= 2^53 − 1`
//! here, so `Number(…)` of it is exact). Per-line numbers come back as one
//! `BigInt64Array`: `[unitPrice, compareAtPrice (−1: null), quantity,
//! stockQuantity, lineTotal, lineSavings]` per line. Nothing in this file
//! handles a floating-point value.

#[allow(unused_imports)]
use crate::prelude::*;

use wasm_bindgen::prelude::*;

use crate::cart::{self, Bare, CartLine, Offer, VariantOffer};
use crate::error::{Error, Result};
use crate::model::{ShippingRate, ShippingRatesResponse, VariantRates};
use crate::money::{self, Currency};
use crate::shipping;

/// The TypeScript types of the cart surface, generated from the Rust types by
/// tests/cart/types.rs (imported by js/cart.ts and re-exported by the entry).
#[wasm_bindgen(typescript_custom_section)]
const CART_TYPES: &str = include_str!("../../js/storage/cart-types.ts");

/// `n` strings joined with U+0000 (JS `strings.join("\0")`): one string
/// crosses the boundary instead of an array of JS strings.
fn split(joined: &str, n: usize) -> Result<Vec<&str>> {
    let parts: Vec<&str> = if n == 0 && joined.is_empty() { Vec::new() } else { joined.split('\0').collect() };
    if parts.len() != n {
        return Err(Error::invalid_argument("identifiers and prices must not contain U+0000"));
    }
    Ok(parts)
}

/// Numbers per line in [`CartCore::numbers`].
const PER_LINE: usize = 6;

fn push_line(out: &mut Vec<i64>, l: &CartLine<Bare>) {
    out.extend_from_slice(&[l.unit_price, l.compare_at_price.unwrap_or(-1), l.quantity.into(), l.stock_quantity.into(), l.line_total, l.line_savings]);
}

/// The rules and numbers of one cart (internal: the public class is `Cart` in js/cart.ts).
#[wasm_bindgen]
pub struct CartCore {
    cart: cart::Cart<Bare>,
}

/// Bits of the `flags` of [`CartCore::refresh`], one entry per line.
const GIVEN: u32 = 1;
const ACTIVE: u32 = 2;
const FOUND: u32 = 4;
const OUT_OF_STOCK: u32 = 8;
const HAS_COMPARE: u32 = 16;

/// The [`Offer`] of `flags` (see [`CartCore::refresh`]).
fn offer<'a>(slug: &'a str, flags: u32, stock: u32, price: &'a str, compare: &'a str) -> Offer<'a> {
    Offer {
        product_slug: slug,
        active: flags & ACTIVE != 0,
        variant: (flags & FOUND != 0).then_some(VariantOffer {
            stock_quantity: stock,
            out_of_stock: flags & OUT_OF_STOCK != 0,
            price,
            compare_at_price: (flags & HAS_COMPARE != 0).then_some(compare),
        }),
    }
}

impl CartCore {
    fn line_at(&self, index: usize) -> Vec<i64> {
        let mut out = Vec::with_capacity(PER_LINE + 1);
        out.push(index as i64);
        if let Some(l) = self.cart.lines().get(index) {
            push_line(&mut out, l);
        }
        out
    }
}

#[wasm_bindgen]
impl CartCore {
    /// An empty cart; `invalid_argument` for an unknown currency.
    #[wasm_bindgen(constructor)]
    pub fn new(currency: &str) -> Result<CartCore> {
        Ok(Self { cart: cart::Cart::empty(currency)? })
    }

    /// Price a catalog variant and add `quantity` of it (merging into its
    /// line): `strs` `[product slug, variant id, price, compareAt]` (joined
    /// with U+0000), `flags`
    /// as in [`CartCore::refresh`] (given not needed), `stock` the variant's
    /// stock. Returns `[index, …the line's numbers]`.
    pub fn add(&mut self, strs: &str, flags: u32, stock: u32, quantity: u32) -> Result<Vec<i64>> {
        let s = split(strs, 4)?;
        let (slug, variant_id, price, compare) = (s[0], s[1], s[2], s[3]);
        if quantity == 0 {
            return Err(Error::invalid_argument("quantity must be at least 1, got 0"));
        }
        let fresh = self.cart.priced(&offer(slug, flags, stock, price, compare), variant_id)?;
        let index = self.cart.add_line(fresh, quantity)?;
        Ok(self.line_at(index))
    }

    /// Set a line's quantity; returns `[index, …the line's numbers]`.
    #[wasm_bindgen(js_name = setQuantity)]
    pub fn set_quantity(&mut self, variant_id: &str, quantity: u32) -> Result<Vec<i64>> {
        self.cart.set_quantity(variant_id, quantity)?;
        let index = self.cart.lines().iter().position(|l| l.variant_id == variant_id).unwrap_or(0);
        Ok(self.line_at(index))
    }

    /// Remove a line; whether there was one.
    pub fn remove(&mut self, variant_id: &str) -> bool {
        self.cart.remove(variant_id)
    }

    /// `[subtotal, totalSavings, itemCount, lineCount]`.
    pub fn totals(&self) -> Vec<i64> {
        let t = self.cart.totals();
        vec![t.subtotal, t.total_savings, t.item_count as i64, t.line_count.into()]
    }

    /// Refresh (`apply`) or check against the catalog: per line `nums`
    /// `[flags, stock]` (flags: 1 product given, 2 active, 4 variant found,
    /// 8 out of stock, 16 has compare-at) and `strs` `[price, compareAt]`
    /// (joined with U+0000).
    /// Returns `[record count, …records, …numbers]`: the report as records
    /// of 6, `[kind, line index, a, b, c, d]`, kind 0 price changed (old
    /// unit, new unit, old compare, new compare; −1 null), 1 stock lowered
    /// (old, new), 2 out of stock (removed), 3 variant gone (removed),
    /// 4 unchecked; then, when applied, the numbers of every line.
    pub fn refresh(&mut self, apply: bool, nums: &[u32], strs: &str) -> Result<Vec<i64>> {
        let n = self.cart.lines().len();
        let strs = split(strs, 2 * n)?;
        if nums.len() != 2 * n {
            return Err(Error::invalid_argument("refresh needs one entry per cart line"));
        }
        let offers: Vec<Option<Offer<'_>>> =
            (0..n).map(|i| (nums[2 * i] & GIVEN != 0).then(|| offer("", nums[2 * i], nums[2 * i + 1], strs[2 * i], strs[2 * i + 1]))).collect();
        let mut scratch;
        let target = if apply {
            &mut self.cart
        } else {
            scratch = self.cart.clone();
            &mut scratch
        };
        let changes = target.refresh_offers(&offers)?;
        let mut out = Vec::with_capacity(1 + changes.len() * 6 + PER_LINE * n);
        out.push(changes.len() as i64);
        for c in &changes {
            out.extend_from_slice(&[c.kind as i64, c.line as i64, c.old, c.new, c.old_compare.unwrap_or(-1), c.new_compare.unwrap_or(-1)]);
        }
        if apply {
            for l in self.cart.lines() {
                push_line(&mut out, l);
            }
        }
        Ok(out)
    }

    /// Append a saved line after checking the cart's rules (the totals
    /// included); returns `[index, …its numbers]` (derived amounts
    /// recomputed). Errors say what is wrong with the line.
    #[wasm_bindgen(js_name = restoreLine)]
    pub fn restore_line(&mut self, variant_id: &str, unit_price: i64, compare_at_price: Option<i64>, quantity: u32, stock: u32) -> Result<Vec<i64>> {
        let index = self.cart.restore_line(cart::bare_line(variant_id, unit_price, compare_at_price, quantity, stock))?;
        self.cart.restore_done()?;
        Ok(self.line_at(index))
    }

    /// The shipping rates the whole cart can use, from a `shippingRates`
    /// answer flattened: `counts[i]` rates for the `i`th variant; `strs` (joined
    /// with U+0000) the variant ids, then per rate `[id, price,
    /// minOrderPrice, maxOrderPrice]`; `nums` per rate
    /// `[bounds, days min, days max]` (bounds bit 1: min given, 2: max given).
    /// Returns records of 4: `[variantRates index, rate index, price,
    /// estimatedTotal]`, cheapest first.
    pub fn shipping(&self, counts: &[u32], strs: &str, nums: &[u32]) -> Result<Vec<i64>> {
        let n = nums.len() / 3;
        let strs = split(strs, counts.len() + 4 * n)?;
        if nums.len() != 3 * n {
            return Err(Error::invalid_argument("shipping rates: inconsistent arrays"));
        }
        let (variant_ids, strs) = strs.split_at(counts.len());
        let mut strs = strs.iter();
        let mut rates = nums.chunks_exact(3).map(|k| {
            let mut s = || strs.next().map_or_else(String::new, |s| (*s).to_owned());
            let (id, price, min, max) = (s(), s(), s(), s());
            ShippingRate {
                id,
                name: String::new(),
                price,
                delivery_description: String::new(),
                delivery_timeframe_min: k[1],
                delivery_timeframe_max: k[2],
                min_order_price: (k[0] & 1 != 0).then_some(min),
                max_order_price: (k[0] & 2 != 0).then_some(max),
            }
        });
        let mut variant_rates = Vec::with_capacity(counts.len());
        for (variant_id, &count) in variant_ids.iter().zip(counts) {
            let rates: Vec<ShippingRate> = rates.by_ref().take(count as usize).collect();
            if rates.len() != count as usize {
                return Err(Error::invalid_argument("shipping rates: inconsistent arrays"));
            }
            variant_rates.push(VariantRates { variant_id: (*variant_id).to_owned(), profile_id: String::new(), rates });
        }
        let answer = ShippingRatesResponse { variant_rates };
        let cart = &self.cart;
        let ids: Vec<&str> = cart.lines().iter().map(|l| l.variant_id.as_str()).collect();
        let usable = shipping::usable_rate_positions(&answer, &ids, cart.subtotal(), cart.currency())?;
        let mut out = Vec::with_capacity(usable.len() * 4);
        for u in usable {
            out.extend_from_slice(&[u.variant_rates as i64, u.rate as i64, u.price, money::check_safe(u.estimated_total)?]);
        }
        Ok(out)
    }
}

/// Decimal string → minor units (`moneyParse("19.99", "USD") === 1999n`),
/// checked `<= 2^53 − 1`.
#[wasm_bindgen(js_name = moneyParse)]
pub fn money_parse(value: &str, currency: &str) -> Result<i64> {
    money::check_safe(Currency::from_code(currency)?.parse(value)?)
}

/// Minor units → the exact decimal string of `currency`.
#[wasm_bindgen(js_name = moneyDecimal)]
pub fn money_decimal(minor: i64, currency: &str) -> Result<String> {
    let minor = money::check_safe(minor)?;
    Ok(Currency::from_code(currency)?.format(minor))
}

/// `a + b`, exact, checked `<= 2^53 − 1`.
#[wasm_bindgen(js_name = moneyAdd)]
pub fn money_add(a: i64, b: i64) -> Result<i64> {
    money::check_safe(money::checked_add(money::check_safe(a)?, money::check_safe(b)?)?)
}

/// Digits after the decimal point of an ISO 4217 currency (USD 2, JPY 0, KWD 3).
#[wasm_bindgen(js_name = moneyExponent)]
pub fn money_exponent(currency: &str) -> Result<u32> {
    Ok(Currency::from_code(currency)?.exponent())
}
