//! The payment session's database row, its money (subtotal, shipping, tax: the
//! core's checked sums, `money::checked_add` and `checked_mul`) and the store's
//! currency. Every other checkout module reads sessions through here. A stored
//! value that does not read is an error naming it (500 `internal`, the detail
//! logged), never a default.

use cirrus_storefront::model::{Breakdown, PaymentItem};
use cirrus_storefront::money;
use rusqlite::{Connection, OptionalExtension};
use serde_json::Value;

use crate::db::stored_json;
use crate::error::{ApiError, ApiResult};

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
            Ok(Session {
                id: r.get(0)?,
                currency: r.get(1)?,
                items: stored_json(r, 2)?,
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

/// The 400 of a sum that does not fit (the core's overflow error, named).
pub(super) fn too_large(e: cirrus_storefront::error::Error) -> ApiError {
    ApiError::bad_request(format!("items: order total too large ({})", e.message))
}

/// `subtotal + shipping + tax`, checked (`money::checked_add`): an overflow is a
/// 400, never a wrapped amount.
///
/// # Errors
/// 400 when the sum does not fit.
pub fn order_total(subtotal: i64, shipping: i64, tax: i64) -> ApiResult<i64> {
    money::checked_add(subtotal, shipping).and_then(|t| money::checked_add(t, tax)).map_err(too_large)
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
        subtotal = money::checked_mul(price, item.quantity).and_then(|line| money::checked_add(subtotal, line)).map_err(too_large)?;
    }
    Ok(subtotal)
}

/// The store's `defaultCurrency`, as stored in `meta`.
///
/// # Errors
/// 500 `internal` (the detail logged) when the stored store is not JSON or has
/// no `defaultCurrency` string; never a default currency.
pub(super) fn store_currency(c: &Connection) -> ApiResult<String> {
    let raw: String = c.query_row("SELECT value FROM meta WHERE key = 'store'", [], |r| r.get(0))?;
    currency_of(&raw)
}

/// `defaultCurrency` of the stored store JSON `raw`.
fn currency_of(raw: &str) -> ApiResult<String> {
    let v: Value = serde_json::from_str(raw).map_err(|e| ApiError::internal(format_args!("stored meta.store is not JSON: {e}")))?;
    match &v["defaultCurrency"] {
        Value::String(s) => Ok(s.clone()),
        other => Err(ApiError::internal(format_args!("stored meta.store has no defaultCurrency string (found {other})"))),
    }
}

#[cfg(test)]
mod tests {
    use cirrus_storefront::model::ServerErrorCode;
    use rusqlite::Connection;

    use super::{currency_of, load_session, order_total};

    #[test]
    fn totals_are_checked() {
        assert_eq!(order_total(100, 20, 3).unwrap(), 123);
        assert_eq!(order_total(i64::MAX - 1, 1, 0).unwrap(), i64::MAX);
        assert!(order_total(i64::MAX, 1, 0).is_err(), "an overflow is an error, never a wrapped amount");
        assert!(order_total(i64::MAX - 5, 3, 3).is_err());
    }

    #[test]
    fn a_store_without_a_currency_is_an_error_never_usd() {
        assert_eq!(currency_of(r#"{"defaultCurrency":"EUR"}"#).unwrap(), "EUR");
        for raw in [r#"{"name":"x"}"#, r#"{"defaultCurrency":7}"#, "not json"] {
            assert_eq!(currency_of(raw).unwrap_err().code, ServerErrorCode::Internal, "{raw}");
        }
    }

    #[test]
    fn stored_items_that_do_not_read_are_an_error_naming_the_column() {
        let c = Connection::open_in_memory().unwrap();
        c.execute_batch(
            "CREATE TABLE sessions (id TEXT, currency TEXT, items TEXT, subtotal INTEGER, payment_intent_id TEXT, token TEXT,
               attempt INTEGER, completed INTEGER, stock_pi TEXT, outcome TEXT);
             INSERT INTO sessions VALUES ('ok', 'USD', '[{\"variantId\":\"v1\",\"quantity\":2}]', 10, NULL, NULL, 0, 0, NULL, NULL);
             INSERT INTO sessions VALUES ('bad', 'USD', '{broken', 10, NULL, NULL, 0, 0, NULL, NULL);",
        )
        .unwrap();
        assert_eq!(load_session(&c, "ok").unwrap().items.len(), 1);
        assert_eq!(load_session(&c, "bad").err().map(|e| e.code), Some(ServerErrorCode::Internal), "never an empty list");
    }
}
