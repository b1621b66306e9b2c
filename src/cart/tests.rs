//! Unit tests of the cart core (the property tests are in `props.rs`).

use super::*;
use crate::error::ErrorCode;
use crate::model::{Image, PaymentItem, Product, ProductStatus, StockStatus, Variant};
use crate::money::MAX_SAFE_MINOR;

/// The saved form as the browser writes it (src/wasm/cart_persist.rs `saved_text`:
/// `JSON.stringify` of `{ version, currency, lines }`, the lines as serde serializes
/// [`CartLine`]), written here with `serde_json`.
pub(crate) fn saved_json(cart: &Cart) -> String {
    #[derive(serde::Serialize)]
    struct Saved<'a> {
        version: u32,
        currency: &'a str,
        lines: &'a [CartLine],
        #[serde(skip_serializing_if = "<[String]>::is_empty")]
        settled: &'a [String],
    }
    serde_json::to_string(&Saved { version: STORAGE_VERSION, currency: cart.currency().code(), lines: cart.lines(), settled: cart.settled() }).unwrap()
}

/// [`SavedReader`] over `serde_json`: the native tests' parser of the saved
/// form (the wasm's is `JSON.parse` and serde-wasm-bindgen).
pub(crate) struct SerdeJson;

impl SavedReader for SerdeJson {
    type Doc = serde_json::Value;
    fn parse(text: &str) -> core::result::Result<Self::Doc, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
    fn version(doc: &Self::Doc) -> Option<u64> {
        doc.get("version").and_then(serde_json::Value::as_u64)
    }
    fn saved(doc: Self::Doc) -> core::result::Result<SavedCart, String> {
        serde_json::from_value(doc).map_err(|e| e.to_string())
    }
}

/// [`Cart::restore`] of `data` with [`SerdeJson`].
pub(crate) fn restore(data: Option<&str>, currency: &str) -> Result<Restored> {
    Cart::restore::<SerdeJson>(data, currency)
}

pub(crate) fn variant(id: &str, price: &str, compare: Option<&str>, stock: u32) -> CartVariant {
    CartVariant {
        id: id.to_owned(),
        price: price.to_owned(),
        compare_at_price: compare.map(str::to_owned),
        stock_quantity: stock,
        stock_status: if stock == 0 { StockStatus::OutOfStock } else { StockStatus::InStock },
        image: None,
        attributes: crate::strmap::StrMap::from([("Size".to_owned(), "M".to_owned())]),
    }
}

pub(crate) fn product(id: &str, variants: Vec<CartVariant>) -> CartProduct {
    CartProduct {
        id: id.to_owned(),
        name: format!("Product {id}"),
        slug: format!("product-{id}"),
        status: ProductStatus::Active,
        images: vec![Image { url: format!("https://img.test/{id}.png"), alt: id.to_owned() }],
        variants,
    }
}

fn tee() -> CartProduct {
    product("p1", vec![variant("v1", "19.99", Some("24.99"), 5), variant("v2", "0.10", None, 100), variant("v0", "5.00", None, 0)])
}

/// A saved line with only the variant id and the numbers.
fn saved_line(variant_id: &str, unit_price: i64, compare_at_price: Option<i64>, quantity: u32, stock_quantity: u32) -> CartLine {
    CartLine {
        product_id: String::new(),
        product_name: String::new(),
        product_slug: String::new(),
        variant_id: variant_id.to_owned(),
        attributes: crate::strmap::StrMap::new(),
        image: None,
        unit_price,
        compare_at_price,
        quantity,
        stock_quantity,
        line_total: 0,
        line_savings: 0,
    }
}

#[test]
fn a_catalog_product_reads_as_a_cart_product() {
    let full = Product {
        id: "p9".to_owned(),
        store_id: "st_1".to_owned(),
        name: "Product p9".to_owned(),
        slug: "product-p9".to_owned(),
        status: ProductStatus::Active,
        description: String::new(),
        meta_title: None,
        meta_description: None,
        images: vec![],
        tags: vec![],
        created_at: String::new(),
        updated_at: String::new(),
        options: vec![],
        variants: vec![Variant {
            id: "a".to_owned(),
            price: "1.50".to_owned(),
            compare_at_price: None,
            stock_quantity: 3,
            stock_status: StockStatus::InStock,
            image: None,
            attributes: crate::strmap::StrMap::new(),
        }],
        collections: vec![],
    };
    let mut cart = Cart::new("USD").unwrap();
    assert_eq!(cart.add(&CartProduct::from(&full), "a", 2).unwrap(), 0);
    assert_eq!((cart.subtotal(), cart.lines()[0].image.clone()), (300, None));
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
fn the_summary_the_saved_form_carries_is_the_totals() {
    let mut cart = Cart::new("JPY").unwrap();
    assert_eq!(cart.summary(), CartSummary { currency: "JPY".into(), item_count: 0, line_count: 0, subtotal: 0 });
    let mut jpy = tee();
    jpy.variants[1].price = "150".into();
    cart.add(&jpy, "v2", 3).unwrap();
    assert_eq!(cart.summary(), CartSummary { currency: "JPY".into(), item_count: 3, line_count: 1, subtotal: 450 });
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
    assert_eq!(cart.remove("v1"), Some(0));
    assert_eq!(cart.remove("v1"), None);
    cart.add(&tee(), "v2", 1).unwrap();
    assert!(!cart.is_empty(), "a cart with a line is not empty");
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
    assert_eq!(cart.payment_items(), []);
    cart.add(&tee(), "v1", 2).unwrap();
    cart.add(&tee(), "v2", 1).unwrap();
    cart.add(&tee(), "v1", 1).unwrap();
    assert_eq!(
        cart.payment_items(),
        vec![PaymentItem { variant_id: "v1".into(), quantity: 3 }, PaymentItem { variant_id: "v2".into(), quantity: 1 }]
    );
}

#[test]
fn persistence_round_trips() {
    let mut cart = Cart::new("USD").unwrap();
    cart.add(&tee(), "v1", 2).unwrap();
    cart.add(&tee(), "v2", 7).unwrap();
    let json = saved_json(&cart);
    assert!(json.starts_with(r#"{"version":1,"currency":"USD","lines":["#), "{json}");
    let restored = restore(Some(&json), "USD").unwrap();
    assert_eq!(restored.problem, None);
    assert_eq!(restored.cart, cart);
    let none = restore(None, "USD").unwrap();
    assert!(none.cart.is_empty() && none.problem.is_none());
}

#[test]
fn bad_saved_data_gives_an_empty_cart_and_a_reason() {
    let mut cart = Cart::new("USD").unwrap();
    cart.add(&tee(), "v1", 2).unwrap();
    let good = saved_json(&cart);
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
        let r = restore(Some(data), "USD").unwrap();
        assert!(r.cart.is_empty(), "{data}");
        let p = r.problem.unwrap_or_else(|| panic!("no problem reported for {data}"));
        assert_eq!(p.kind, kind, "{data}: {}", p.message);
        assert!(!p.message.is_empty());
    }
    let doubled = good.replace("}]}", &format!("}},{}]}}", &good[good.find("{\"productId").unwrap()..good.len() - 2]));
    let r = restore(Some(&doubled), "USD").unwrap();
    assert!(r.problem.unwrap().message.contains("two lines"));
    assert!(restore(Some(&good), "XXX").is_err(), "unknown store currency is an argument error");
}

#[test]
fn restore_line_checks_each_rule() {
    let mut cart = Cart::new("USD").unwrap();
    assert_eq!(cart.restore_line(saved_line("a", 100, Some(150), 2, 5)).unwrap(), 0);
    assert_eq!((cart.lines()[0].line_total, cart.lines()[0].line_savings), (200, 100), "derived amounts recomputed");
    for (line, why) in [
        (saved_line("b", 100, None, 0, 5), "outside 1..=5"),
        (saved_line("b", 100, None, 6, 5), "outside 1..=5"),
        (saved_line("b", -1, None, 1, 5), "negative"),
        (saved_line("b", 1, Some(-1), 1, 5), "negative"),
        (saved_line("a", 1, None, 1, 5), "two lines"),
        (saved_line("b", i64::MAX, None, 2, 5), "overflow"),
    ] {
        let e = cart.restore_line(line).unwrap_err();
        assert!(e.message.contains(why), "{why}: {}", e.message);
    }
    assert_eq!(cart.lines().len(), 1, "refused lines are not kept");
    cart.restore_done().unwrap();
    cart.restore_line(saved_line("big", MAX_SAFE_MINOR, None, 1, 1)).unwrap();
    assert!(cart.restore_done().unwrap_err().message.contains("saved cart"));
}

#[test]
fn derived_fields_are_recomputed_on_load_not_trusted() {
    let mut cart = Cart::new("USD").unwrap();
    cart.add(&tee(), "v1", 2).unwrap();
    let tampered = saved_json(&cart).replace("\"lineTotal\":3998", "\"lineTotal\":1");
    let r = restore(Some(&tampered), "USD").unwrap();
    assert_eq!(r.cart.subtotal(), 3998);
}

/// Issue 41, finding 1: the paid quantities leave the cart once per paid
/// checkout, whichever tabs ask, and the saved form carries the record of it.
#[test]
fn a_paid_checkout_leaves_the_cart_once_and_what_was_added_since_stays() {
    let mug = product("prod_mug", vec![variant("var_mug", "12.00", None, 9)]);
    let paid = [PaymentItem { variant_id: "var_mug".into(), quantity: 1 }];
    let mut cart = Cart::new("USD").unwrap();
    cart.add(&mug, "var_mug", 1).unwrap();
    assert!(cart.take_paid("ps_1", &paid), "the first tab that sees the payment succeed takes it out");
    assert!(cart.is_empty());
    cart.add(&mug, "var_mug", 1).unwrap();
    // Another tab, or the same tab's next re-read, asks again: nothing leaves.
    assert!(!cart.take_paid("ps_1", &paid));
    assert_eq!(cart.line("var_mug").map(|l| l.quantity), Some(1), "the mug added again stays");
    // In another tab, through the saved form (the tabs share it, not their copies).
    let other = restore(Some(&saved_json(&cart)), "USD").unwrap();
    assert_eq!(other.problem, None);
    let mut other = other.cart;
    assert!(!other.take_paid("ps_1", &paid), "the saved form says ps_1 was taken out");
    assert_eq!(other.line("var_mug").map(|l| l.quantity), Some(1));
    // A unit added during the payment stays, once: the next checkout takes its own.
    other.add(&mug, "var_mug", 1).unwrap();
    assert!(other.take_paid("ps_2", &paid));
    assert!(!other.take_paid("ps_2", &paid));
    assert_eq!(other.line("var_mug").map(|l| l.quantity), Some(1));
    assert_eq!(other.line("var_mug").map(|l| l.line_total), Some(1200), "the line's total follows its quantity");
    assert_eq!(other.settled(), ["ps_1", "ps_2"]);
}

#[test]
fn the_cart_remembers_the_last_settled_checkouts_and_reads_a_saved_form_without_them() {
    let mut cart = Cart::new("USD").unwrap();
    for i in 0..(paid::SETTLED_KEPT + 3) {
        cart.take_paid(&format!("ps_{i}"), &[]);
    }
    assert_eq!(cart.settled().len(), paid::SETTLED_KEPT);
    assert_eq!(cart.settled().first().map(String::as_str), Some("ps_3"), "the oldest are forgotten first");
    let before = r#"{"version":1,"currency":"USD","lines":[]}"#;
    let r = restore(Some(before), "USD").unwrap();
    assert_eq!((r.problem, r.cart.settled().len()), (None, 0), "a cart saved before issue 41");
}

/// A quantity may be the whole stock (mutation testing, issue 41 item 3: `>` → `>=` in
/// `set_quantity` refused it and no test said so).
#[test]
fn a_line_may_hold_the_whole_stock() {
    let mut cart = Cart::new("USD").unwrap();
    cart.add(&tee(), "v1", 1).unwrap();
    assert_eq!(cart.set_quantity("v1", 5).unwrap(), 0, "v1's stock is 5");
    assert_eq!((cart.line("v1").unwrap().quantity, cart.subtotal()), (5, 5 * 1999));
}

/// The exact range is inclusive: a cart of exactly 2^53 − 1 minor units (its compare-at total)
/// is kept, one minor unit more is refused (mutation testing: `>` → `>=` in `check_totals`).
#[test]
fn a_cart_of_exactly_2_pow_53_minus_1_minor_units_is_kept() {
    let mut cart = Cart::new("USD").unwrap();
    let max = product("m", vec![variant("m1", "90071992547408.91", Some("90071992547409.91"), 1)]);
    cart.add(&max, "m1", 1).unwrap();
    assert_eq!(cart.totals(), CartTotals { subtotal: MAX_SAFE_MINOR - 100, total_savings: 100, item_count: 1, line_count: 1 });
    let cent = product("c", vec![variant("c1", "0.01", None, 1)]);
    assert_eq!(cart.add(&cent, "c1", 1).unwrap_err().code, ErrorCode::InvalidArgument);
    let restored = restore(Some(&saved_json(&cart)), "USD").unwrap();
    assert_eq!((restored.problem, restored.cart), (None, cart));
}

/// A price of zero is a price (a free sample), added and restored from the saved form; a negative
/// price or compare-at price is refused (mutation testing: `<` → `<=` or `==` in `Cart::priced`
/// and in `Cart::restore_line`).
#[test]
fn a_free_variant_is_added_and_a_negative_price_is_refused() {
    let mut cart = Cart::new("USD").unwrap();
    let free = product("f", vec![variant("f1", "0.00", Some("0.00"), 3)]);
    cart.add(&free, "f1", 2).unwrap();
    assert_eq!(cart.totals(), CartTotals { subtotal: 0, total_savings: 0, item_count: 2, line_count: 1 });
    let restored = restore(Some(&saved_json(&cart)), "USD").unwrap();
    assert_eq!((restored.problem, &restored.cart), (None, &cart), "a saved free line is read back");
    for (price, compare) in [("-0.01", None), ("1.00", Some("-0.01"))] {
        let e = cart.add(&product("n", vec![variant("n1", price, compare, 3)]), "n1", 1).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.contains("is negative"), "{price} {compare:?}: {}", e.message);
    }
    assert!(cart.line("n1").is_none());
}
