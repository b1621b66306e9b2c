//! Property tests: any sequence of operations keeps the cart's invariants.

use proptest::prelude::*;

use super::tests::{product, variant};
use super::*;
use crate::money::Currency;

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
        let mut catalog: Vec<CartProduct> = prices
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
                Op::Add(i, q) => cart.add(&catalog[i], &format!("v{i}"), q).map(drop),
                Op::Set(i, q) => cart.set_quantity(&format!("v{i}"), q).map(drop),
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
            let restored = super::tests::restore(Some(&super::tests::saved_json(&cart)), "USD").unwrap();
            prop_assert_eq!(restored.problem, None);
            prop_assert_eq!(&restored.cart, &cart);
        }
    }
}
