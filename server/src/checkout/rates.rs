//! Shipping rates and tax (CONTRACT.md "POST /shipping-rates"): the rates a
//! variant's profile offers in a country, and a session's shipping choice priced
//! with tax = round_half_up((subtotal + shipping) * bps / 10000).

use std::collections::HashMap;

use axum::extract::State as AxState;
use cirrus_storefront::money;
use cirrus_storefront::shipping::in_band;
use cirrus_storefront::model::{ShippingAddress, ShippingRate, ShippingRatesRequest, ShippingRatesResponse, VariantRates};
use rusqlite::{params, Connection, OptionalExtension};

use super::row::{order_total, too_large, Session};
use crate::error::{ApiError, ApiResult};
use crate::extract::Checked;
use crate::util::{apply_bps_half_up, format_cents};
use crate::State;

struct Rate {
    id: String,
    country: String,
    name: String,
    price: i64,
    description: String,
    days: (u32, u32),
    min: Option<i64>,
    max: Option<i64>,
}

impl Rate {
    fn wire(&self) -> ShippingRate {
        ShippingRate {
            id: self.id.clone(),
            name: self.name.clone(),
            price: format_cents(self.price),
            delivery_description: self.description.clone(),
            delivery_timeframe_min: self.days.0,
            delivery_timeframe_max: self.days.1,
            min_order_price: self.min.map(format_cents),
            max_order_price: self.max.map(format_cents),
        }
    }
    /// The band rule (the core's) on a subtotal in cents.
    fn serves_cents(&self, total: i64) -> bool {
        in_band(total, self.min, self.max)
    }
    /// The band rule on the request's `orderTotal` (a number of major units). Bounds are
    /// exact cents; `cents as f64 / 100.0` is the double nearest the decimal bound, the same
    /// double a client gets by parsing it.
    #[allow(clippy::cast_precision_loss)]
    fn serves_number(&self, total: f64) -> bool {
        let major = |cents: i64| cents as f64 / 100.0;
        in_band(total, self.min.map(major), self.max.map(major))
    }
}

const RATE_COLS: &str = "r.id, r.country, r.name, r.price_cents, r.description, r.days_min, r.days_max, r.min_order_cents, r.max_order_cents";

fn rate_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Rate> {
    Ok(Rate {
        id: r.get(0)?,
        country: r.get(1)?,
        name: r.get(2)?,
        price: r.get(3)?,
        description: r.get(4)?,
        days: (r.get(5)?, r.get(6)?),
        min: r.get(7)?,
        max: r.get(8)?,
    })
}

/// Profile of an ACTIVE product's variant, or 404.
fn variant_profile(c: &Connection, variant_id: &str) -> ApiResult<String> {
    c.prepare_cached("SELECT p.profile_id FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?1 AND p.status = 'ACTIVE'")?
        .query_row([variant_id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("no variant with id {variant_id:?}")))
}

fn profile_rates(c: &Connection, profile: &str, country: &str) -> ApiResult<Vec<Rate>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {RATE_COLS} FROM profile_rates pr JOIN shipping_rates r ON r.id = pr.rate_id WHERE pr.profile_id = ?1 AND r.country = ?2 ORDER BY r.position"
    ))?;
    let rates = stmt.query_map([profile, country], rate_row)?.collect::<Result<Vec<_>, _>>()?;
    Ok(rates)
}

/// `POST /shipping-rates`
///
/// # Errors
/// 400 for a body the core's rules refuse ([`Checked`]: id count and ids,
/// country, orderTotal), 404 for an unknown variant.
pub async fn shipping_rates(AxState(state): AxState<State>, Checked(req): Checked<ShippingRatesRequest>) -> ApiResult<axum::Json<ShippingRatesResponse>> {
    state
        .db(move |c| {
            let mut by_profile: HashMap<String, Vec<ShippingRate>> = HashMap::new();
            let mut out = Vec::with_capacity(req.variant_ids.len());
            for vid in &req.variant_ids {
                let profile = variant_profile(c, vid)?;
                if !by_profile.contains_key(&profile) {
                    let rates = profile_rates(c, &profile, &req.country)?
                        .into_iter()
                        .filter(|r| req.order_total.is_none_or(|t| r.serves_number(t)))
                        .map(|r| r.wire())
                        .collect();
                    by_profile.insert(profile.clone(), rates);
                }
                out.push(VariantRates { variant_id: vid.clone(), rates: by_profile[&profile].clone(), profile_id: profile });
            }
            Ok(axum::Json(ShippingRatesResponse { variant_rates: out }))
        })
        .await
}

/// Applies a shipping choice (of a body that passed its rules: the address is
/// checked) to a session; returns (shipping, tax).
pub(super) fn apply_shipping(c: &Connection, s: &Session, rate_id: &str, a: &ShippingAddress) -> ApiResult<(i64, i64)> {
    let rate = c
        .prepare_cached(&format!("SELECT {RATE_COLS} FROM shipping_rates r WHERE r.id = ?1"))?
        .query_row([rate_id], rate_row)
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("shippingRateId: no shipping rate with id {rate_id:?}")))?;
    if rate.country != a.country {
        return Err(ApiError::bad_request(format!(
            "shippingRateId: rate {rate_id} ships to {}, not to shippingAddress.country {}",
            rate.country, a.country
        )));
    }
    for item in &s.items {
        let profile = variant_profile(c, &item.variant_id)?;
        let offered: bool = c
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM profile_rates WHERE profile_id = ?1 AND rate_id = ?2)")?
            .query_row([&profile, rate_id], |r| r.get(0))?;
        if !offered {
            return Err(ApiError::bad_request(format!("shippingRateId: rate {rate_id} is not offered for variant {}", item.variant_id)));
        }
    }
    if !rate.serves_cents(s.subtotal) {
        return Err(ApiError::bad_request(format!(
            "shippingRateId: rate {rate_id} does not apply to a subtotal of {}",
            format_cents(s.subtotal)
        )));
    }
    let bps: i64 = c
        .prepare_cached("SELECT bps FROM tax_rates WHERE country = ?1")?
        .query_row([&a.country], |r| r.get(0))
        .optional()?
        .unwrap_or(0);
    let taxed = money::checked_add(s.subtotal, rate.price).map_err(too_large)?;
    let tax = apply_bps_half_up(taxed, bps);
    order_total(s.subtotal, rate.price, tax)?;
    c.execute(
        "UPDATE sessions SET shipping = ?2, tax = ?3, rate_id = ?4, address = ?5 WHERE id = ?1",
        params![s.id, rate.price, tax, rate_id, serde_json::to_string(a).map_err(ApiError::internal)?],
    )?;
    Ok((rate.price, tax))
}

