//! The shipping choice: which rates of a `POST /shipping-rates` answer a whole
//! order can use, cheapest first, and the estimated total.
//!
//! One order uses one `shippingRateId` (CONTRACT.md), so a rate is usable when
//! it is offered for **every** variant of the order (intersection by rate id;
//! a variant missing from the answer has no rates) and the order subtotal lies
//! inside its band `minOrderPrice <= subtotal <= maxOrderPrice` (a `null`
//! bound is open), compared exactly in minor units. Options are sorted by
//! price, then fastest delivery (`deliveryTimeframeMax`, then `…Min`), then id,
//! so the order is total and stable. Tax comes from the server.

use serde::{Deserialize, Serialize};

use crate::cart::Cart;
use crate::error::{Error, Result};
use crate::model::{ShippingRate, ShippingRatesResponse};
use crate::money::{self, Currency};

/// A rate the whole order can use, with exact amounts in minor units.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ShippingOption {
    pub rate: ShippingRate,
    /// The rate's price in minor units.
    pub price: i64,
    /// Order subtotal + this rate's price, in minor units (before tax).
    pub estimated_total: i64,
}

/// Every rate the answer lists for `variant_id`, with its position
/// (`variantRates` index, `rates` index).
fn rates_of<'a>(answer: &'a ShippingRatesResponse, variant_id: &'a str) -> impl Iterator<Item = (usize, usize, &'a ShippingRate)> {
    answer
        .variant_rates
        .iter()
        .enumerate()
        .filter(move |(_, vr)| vr.variant_id == variant_id)
        .flat_map(|(i, vr)| vr.rates.iter().enumerate().map(move |(j, r)| (i, j, r)))
}

/// A rate's order-price band: `min <= value <= max`, both bounds inclusive, `None` open
/// (CONTRACT.md "POST /shipping-rates"). One rule for every caller: [`usable_rates`] in
/// minor units, the dev server in minor units (a session's subtotal) and in the request's
/// `orderTotal` number.
#[must_use]
pub fn in_band<T: PartialOrd>(value: T, min: Option<T>, max: Option<T>) -> bool {
    min.is_none_or(|m| m <= value) && max.is_none_or(|m| value <= m)
}

/// A usable rate by its position in the answer (`answer.variantRates[variant_rates].rates[rate]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct UsableRate {
    pub variant_rates: usize,
    pub rate: usize,
    /// The rate's price in minor units.
    pub price: i64,
    /// Order subtotal + price, in minor units.
    pub estimated_total: i64,
}

fn rate_amount(currency: Currency, rate: &ShippingRate, field: &str, value: &str) -> Result<i64> {
    let minor = currency.parse(value).map_err(|e| {
        Error::invalid_argument(format!("shipping rate {} {field}: {}", money::echo(&rate.id), e.message))
    })?;
    if minor < 0 {
        return Err(Error::invalid_argument(format!("shipping rate {} {field} {} is negative", money::echo(&rate.id), money::echo(value))));
    }
    Ok(minor)
}

/// The rates an order of `variant_ids` with `subtotal` minor units can use,
/// cheapest first.
///
/// # Errors
/// `invalid_argument` when `variant_ids` is empty, a price or band bound of a
/// rate that could apply is not a valid non-negative amount of `currency`, one rate id comes
/// with two different prices, or `subtotal + price` overflows.
pub fn usable_rates(
    answer: &ShippingRatesResponse,
    variant_ids: &[&str],
    subtotal: i64,
    currency: Currency,
) -> Result<Vec<ShippingOption>> {
    Ok(usable_rate_positions(answer, variant_ids, subtotal, currency)?
        .into_iter()
        .map(|u| ShippingOption {
            rate: answer.variant_rates[u.variant_rates].rates[u.rate].clone(),
            price: u.price,
            estimated_total: u.estimated_total,
        })
        .collect())
}

/// [`usable_rates`] as positions in `answer` (same rules, same order).
///
/// # Errors
/// As [`usable_rates`].
pub fn usable_rate_positions(
    answer: &ShippingRatesResponse,
    variant_ids: &[&str],
    subtotal: i64,
    currency: Currency,
) -> Result<Vec<UsableRate>> {
    let Some((first, rest)) = variant_ids.split_first() else {
        return Err(Error::invalid_argument("the order has no variants: no shipping rate applies"));
    };
    let rate_at = |u: &UsableRate| &answer.variant_rates[u.variant_rates].rates[u.rate];
    let mut options: Vec<UsableRate> = Vec::new();
    for (i, j, rate) in rates_of(answer, first) {
        if options.iter().any(|o| rate_at(o).id == rate.id) {
            continue; // the same rate listed twice for one variant
        }
        let price = rate_amount(currency, rate, "price", &rate.price)?;
        let mut everywhere = true;
        for id in rest {
            let mut offered = false;
            for (_, _, other) in rates_of(answer, id).filter(|(_, _, r)| r.id == rate.id) {
                offered = true;
                if rate_amount(currency, other, "price", &other.price)? != price {
                    return Err(Error::invalid_argument(format!("shipping rate {} has two prices: {} for variant {} and {} for variant {}", money::echo(&rate.id), money::echo(&rate.price), money::echo(first), money::echo(&other.price), money::echo(id))));
                }
            }
            if !offered {
                everywhere = false;
                break;
            }
        }
        if !everywhere {
            continue;
        }
        let min = rate.min_order_price.as_deref().map(|v| rate_amount(currency, rate, "minOrderPrice", v)).transpose()?;
        let max = rate.max_order_price.as_deref().map(|v| rate_amount(currency, rate, "maxOrderPrice", v)).transpose()?;
        if !in_band(subtotal, min, max) {
            continue;
        }
        let estimated_total = money::checked_add(subtotal, price)?;
        options.push(UsableRate { variant_rates: i, rate: j, price, estimated_total });
    }
    // Cheapest first, then fastest, then by id (unique here: a total order).
    let key = |u: &UsableRate| {
        let r = rate_at(u);
        (u.price, r.delivery_timeframe_max, r.delivery_timeframe_min, &r.id)
    };
    let order = crate::sorted_indices(options.len(), &|a, b| key(&options[a]).cmp(&key(&options[b])));
    Ok(order.into_iter().map(|i| options[i]).collect())
}

/// [`usable_rates`] for the cart's variants, subtotal and currency.
///
/// # Errors
/// As [`usable_rates`] (an empty cart is `invalid_argument`).
pub fn cart_rates(cart: &Cart, answer: &ShippingRatesResponse) -> Result<Vec<ShippingOption>> {
    let ids: Vec<&str> = cart.lines().iter().map(|l| l.variant_id.as_str()).collect();
    usable_rates(answer, &ids, cart.subtotal(), cart.currency())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cart::tests::{product, variant};
    use crate::error::ErrorCode;
    use crate::model::VariantRates;

    fn rate(id: &str, price: &str, days: (u32, u32), band: (Option<&str>, Option<&str>)) -> ShippingRate {
        ShippingRate {
            id: id.into(),
            name: format!("Rate {id}"),
            price: price.into(),
            delivery_description: String::new(),
            delivery_timeframe_min: days.0,
            delivery_timeframe_max: days.1,
            min_order_price: band.0.map(Into::into),
            max_order_price: band.1.map(Into::into),
        }
    }

    fn answer(entries: Vec<(&str, Vec<ShippingRate>)>) -> ShippingRatesResponse {
        ShippingRatesResponse {
            variant_rates: entries
                .into_iter()
                .map(|(v, rates)| VariantRates { variant_id: v.into(), profile_id: "pr".into(), rates })
                .collect(),
        }
    }

    fn usd() -> Currency {
        Currency::from_code("USD").unwrap()
    }

    fn ids(options: &[ShippingOption]) -> Vec<&str> {
        options.iter().map(|o| o.rate.id.as_str()).collect()
    }

    #[test]
    fn intersection_by_rate_id_cheapest_first() {
        let std = rate("std", "5.00", (3, 5), (None, None));
        let exp = rate("exp", "15.00", (1, 2), (None, None));
        let eco = rate("eco", "2.50", (7, 14), (None, None));
        let a = answer(vec![("a", vec![exp.clone(), std.clone(), eco.clone()]), ("b", vec![std.clone(), exp.clone()])]);
        let opts = usable_rates(&a, &["a", "b"], 4000, usd()).unwrap();
        assert_eq!(ids(&opts), ["std", "exp"], "eco is not offered for b");
        assert_eq!((opts[0].price, opts[0].estimated_total), (500, 4500));
        assert_eq!((opts[1].rate.id.as_str(), opts[1].estimated_total), ("exp", 5500));
        assert!(usable_rates(&a, &["a", "c"], 4000, usd()).unwrap().is_empty(), "variant without rates");
        assert_eq!(usable_rates(&a, &[], 0, usd()).unwrap_err().code, ErrorCode::InvalidArgument);
    }

    #[test]
    fn order_total_band_is_inclusive_and_exact() {
        let free = rate("free", "0.00", (3, 5), (Some("50.00"), None));
        let small = rate("small", "4.99", (3, 5), (None, Some("49.99")));
        let a = answer(vec![("a", vec![free, small])]);
        assert_eq!(ids(&usable_rates(&a, &["a"], 4999, usd()).unwrap()), ["small"]);
        assert_eq!(ids(&usable_rates(&a, &["a"], 5000, usd()).unwrap()), ["free"]);
        assert_eq!(ids(&usable_rates(&a, &["a"], 0, usd()).unwrap()), ["small"]);
    }

    #[test]
    fn the_band_is_inclusive_and_a_missing_bound_is_open() {
        assert!(in_band(5000, Some(5000), Some(5000)));
        assert!(!in_band(4999, Some(5000), None) && !in_band(5001, None, Some(5000)));
        assert!(in_band(i64::MAX, None, None) && in_band(0, None, Some(0)));
        // (The dev server applies it to the request's `orderTotal` number too: server/tests/api.rs.)
    }

    #[test]
    fn ties_break_by_delivery_time_then_id() {
        let a = answer(vec![(
            "a",
            vec![
                rate("z", "5.00", (2, 3), (None, None)),
                rate("slow", "5.00", (5, 9), (None, None)),
                rate("y", "5.00", (2, 3), (None, None)),
                rate("fast", "5.00", (1, 2), (None, None)),
            ],
        )]);
        assert_eq!(ids(&usable_rates(&a, &["a"], 100, usd()).unwrap()), ["fast", "y", "z", "slow"]);
    }

    #[test]
    fn many_rates_come_out_in_key_order() {
        // Prices and days in a scrambled order; the result must equal a full sort by the key.
        let rates: Vec<ShippingRate> = (0..40u32)
            .map(|i| {
                let k = (i * 17 + 5) % 40;
                rate(&format!("r{k:02}"), &format!("{}.00", k % 7), (k % 3, k % 5), (None, None))
            })
            .collect();
        let a = answer(vec![("a", rates.clone())]);
        let got = ids(&usable_rates(&a, &["a"], 100, usd()).unwrap()).into_iter().map(str::to_owned).collect::<Vec<_>>();
        let mut want = rates;
        want.sort_by(|x, y| {
            let p = |r: &ShippingRate| usd().parse(&r.price).unwrap();
            (p(x), x.delivery_timeframe_max, x.delivery_timeframe_min, &x.id).cmp(&(p(y), y.delivery_timeframe_max, y.delivery_timeframe_min, &y.id))
        });
        assert_eq!(got, want.iter().map(|r| r.id.clone()).collect::<Vec<_>>());
    }

    #[test]
    fn bad_amounts_and_inconsistent_prices_are_errors() {
        let a = answer(vec![("a", vec![rate("r", "5.001", (1, 2), (None, None))])]);
        let e = usable_rates(&a, &["a"], 100, usd()).unwrap_err();
        assert!(e.message.contains("\"r\"") && e.message.contains("5.001"), "{}", e.message);
        let a = answer(vec![("a", vec![rate("r", "5.00", (1, 2), (None, None))]), ("b", vec![rate("r", "6.00", (1, 2), (None, None))])]);
        assert!(usable_rates(&a, &["a", "b"], 100, usd()).unwrap_err().message.contains("two prices"));
        let a = answer(vec![("a", vec![rate("r", "-1.00", (1, 2), (None, None))])]);
        assert!(usable_rates(&a, &["a"], 100, usd()).unwrap_err().message.contains("negative"));
    }

    #[test]
    fn zero_decimal_currency_rates() {
        let a = answer(vec![("a", vec![rate("r", "800", (1, 2), (Some("5000"), None))])]);
        let jpy = Currency::from_code("JPY").unwrap();
        assert!(usable_rates(&a, &["a"], 4999, jpy).unwrap().is_empty());
        assert_eq!(usable_rates(&a, &["a"], 5000, jpy).unwrap()[0].estimated_total, 5800);
    }

    #[test]
    fn positions_point_at_the_rates_of_usable_rates() {
        let std = rate("std", "5.00", (3, 5), (None, None));
        let exp = rate("exp", "15.00", (1, 2), (None, None));
        let a = answer(vec![("a", vec![exp.clone(), std.clone()]), ("b", vec![std.clone(), exp.clone()])]);
        let pos = usable_rate_positions(&a, &["a", "b"], 4000, usd()).unwrap();
        let opts = usable_rates(&a, &["a", "b"], 4000, usd()).unwrap();
        assert_eq!(pos.len(), opts.len());
        for (p, o) in pos.iter().zip(&opts) {
            assert_eq!(&a.variant_rates[p.variant_rates].rates[p.rate], &o.rate);
            assert_eq!((p.price, p.estimated_total), (o.price, o.estimated_total));
        }
        assert_eq!((pos[0].variant_rates, pos[0].rate), (0, 1), "std, as listed for the first variant");
    }

    #[test]
    fn cart_rates_use_the_cart() {
        let mut cart = Cart::new("USD").unwrap();
        cart.add(&product("p", vec![variant("a", "30.00", None, 5), variant("b", "25.00", None, 5)]), "a", 1).unwrap();
        cart.add(&product("p", vec![variant("a", "30.00", None, 5), variant("b", "25.00", None, 5)]), "b", 1).unwrap();
        let free = rate("free", "0.00", (3, 5), (Some("50.00"), None));
        let a = answer(vec![("a", vec![free.clone()]), ("b", vec![free])]);
        let opts = cart_rates(&cart, &a).unwrap();
        assert_eq!((opts.len(), opts[0].estimated_total), (1, 5500));
    }
}
