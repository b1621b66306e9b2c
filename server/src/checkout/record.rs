//! The payment session record: its row, its money (subtotal, shipping, tax) and
//! the store's currency. Every other checkout module reads sessions through here.

use cirrus_storefront::model::{Breakdown, PaymentItem};
use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

use crate::error::{ApiError, ApiResult};

/// Most items one session may hold.
pub(super) const MAX_ITEMS: usize = 250;

pub(super) struct Session {
    pub(super) id: String,
    pub(super) currency: String,
    pub(super) items: Vec<PaymentItem>,
    pub(super) subtotal: i64,
    pub(super) payment_intent_id: Option<String>,
    pub(super) token: Option<String>,
    pub(super) attempt: i64,
    pub(super) completed: bool,
    /// The PaymentIntent whose authorization holds the session's stock (taken, not yet sold).
    pub(super) stock_pi: Option<String>,
    /// `stock_gone` once a payment was cancelled (or refunded) because the stock went elsewhere.
    pub(super) outcome: Option<String>,
}

pub(super) fn load_session(c: &Connection, id: &str) -> ApiResult<Session> {
    c.prepare_cached("SELECT id, currency, items, subtotal, payment_intent_id, token, attempt, completed, stock_pi, outcome FROM sessions WHERE id = ?1")?
        .query_row([id], |r| {
            let items: String = r.get(2)?;
            Ok(Session {
                id: r.get(0)?,
                currency: r.get(1)?,
                items: serde_json::from_str(&items).unwrap_or_default(),
                subtotal: r.get(3)?,
                payment_intent_id: r.get(4)?,
                token: r.get(5)?,
                attempt: r.get(6)?,
                completed: r.get::<_, i64>(7)? != 0,
                stock_pi: r.get(8)?,
                outcome: r.get(9)?,
            })
        })
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("no payment session with id {id:?}")))
}

/// `subtotal + shipping + tax`, checked: an overflow is a 400, never a wrapped amount.
///
/// # Errors
/// 400 when the sum does not fit.
pub fn order_total(subtotal: i64, shipping: i64, tax: i64) -> ApiResult<i64> {
    subtotal
        .checked_add(shipping)
        .and_then(|t| t.checked_add(tax))
        .ok_or_else(|| ApiError::bad_request("items: order total too large"))
}

pub(super) fn breakdown(subtotal: i64, shipping: i64, tax: i64) -> ApiResult<Breakdown> {
    Ok(Breakdown { subtotal, shipping, tax, total: order_total(subtotal, shipping, tax)? })
}

/// Checks every item's variant exists (404), is in stock for the quantity (409); returns the subtotal.
pub(super) fn price_items(c: &Connection, items: &[PaymentItem]) -> ApiResult<i64> {
    let mut subtotal: i64 = 0;
    for (i, item) in items.iter().enumerate() {
        let row: Option<(i64, i64)> = c
            .prepare_cached("SELECT v.price_cents, v.stock FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?1 AND p.status = 'ACTIVE'")?
            .query_row([&item.variant_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let (price, stock) = row.ok_or_else(|| ApiError::not_found(format!("items[{i}].variantId: no variant with id {:?}", item.variant_id)))?;
        if i64::from(item.quantity) > stock {
            return Err(ApiError::conflict(format!(
                "items[{i}].quantity: {} requested but only {stock} in stock for variant {}",
                item.quantity, item.variant_id
            )));
        }
        subtotal = price
            .checked_mul(i64::from(item.quantity))
            .and_then(|line| subtotal.checked_add(line))
            .ok_or_else(|| ApiError::bad_request("items: order total too large"))?;
    }
    Ok(subtotal)
}

pub(super) fn store_currency(c: &Connection) -> ApiResult<String> {
    let raw: String = c.query_row("SELECT value FROM meta WHERE key = 'store'", [], |r| r.get(0))?;
    let v: Value = serde_json::from_str(&raw).map_err(ApiError::internal)?;
    Ok(v["defaultCurrency"].as_str().unwrap_or("USD").to_string())
}

#[cfg(test)]
mod tests {
    use super::order_total;

    #[test]
    fn totals_are_checked() {
        assert_eq!(order_total(100, 20, 3).unwrap(), 123);
        assert_eq!(order_total(i64::MAX - 1, 1, 0).unwrap(), i64::MAX);
        assert!(order_total(i64::MAX, 1, 0).is_err(), "an overflow is an error, never a wrapped amount");
        assert!(order_total(i64::MAX - 5, 3, 3).is_err());
    }
}
