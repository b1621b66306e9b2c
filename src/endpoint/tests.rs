use super::*;
use crate::error::ErrorCode;
use crate::model::PaymentItem;

fn path(op: Op, arg: &str) -> String {
    Call::catalog(op, arg).unwrap().path
}

#[test]
fn slug_is_one_segment_whatever_it_holds() {
    assert_eq!(path(Op::ProductBySlug, "a/b?c#d"), "/products/slug/a%2Fb%3Fc%23d");
    assert_eq!(path(Op::ProductBySlug, "../store"), "/products/slug/..%2Fstore");
    assert_eq!(path(Op::Collection, "x y%"), "/collections/x%20y%25");
    assert_eq!(path(Op::CollectionBySlug, "été"), "/collections/slug/%C3%A9t%C3%A9");
    assert_eq!(path(Op::ProductBySlug, "plain-slug_1.x~"), "/products/slug/plain-slug_1.x~");
}

#[test]
fn empty_and_dot_segments_are_rejected() {
    for bad in ["", ".", ".."] {
        let e = Call::catalog(Op::ProductBySlug, bad).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.starts_with("slug "), "{}", e.message);
    }
    assert!(Call::catalog(Op::Collection, "").unwrap_err().message.contains("id must not be empty"));
    assert!(Call::catalog(Op::CollectionBySlug, "").unwrap_err().message.starts_with("slug "));
}

#[test]
fn every_operation_has_one_endpoint() {
    let gets = [Op::Products, Op::ProductBySlug, Op::Pages, Op::Collections, Op::CollectionBySlug, Op::Collection, Op::Store];
    for op in gets {
        let e = op.endpoint();
        assert_eq!((e.method, e.retry), (Method::Get, Policy::Retried), "{op:?}");
    }
    assert_eq!(path(Op::Pages, "ignored"), "/pages");
    assert_eq!(path(Op::Collections, ""), "/collections");
    assert_eq!(path(Op::Store, ""), "/store");
    assert_eq!(Call::catalog(Op::Store, "").unwrap().response, Root::StoreResponse);
    assert_eq!(Op::Store.endpoint().member, Some("store"));
    // A body or query operation is not reached by a segment.
    assert!(Call::catalog(Op::InitiatePayment, "x").is_err());
    assert!(Call::catalog(Op::Products, "x").is_err());
    let rates = Op::ShippingRates.endpoint();
    assert_eq!((rates.method, rates.retry, rates.path), (Method::Post, Policy::Retried, "/shipping-rates"));
}

#[test]
fn payments_are_sent_once() {
    for (op, p, root) in [
        (Op::InitiatePayment, "/payments/initiate", Root::InitiateResponse),
        (Op::UpdatePayment, "/payments/update", Root::UpdateResponse),
        (Op::ConfirmPayment, "/payments/confirm", Root::ConfirmResponse),
    ] {
        let e = op.endpoint();
        assert_eq!((e.method, e.retry, e.path, e.response, e.member), (Method::Post, Policy::SentOnce, p, root, None), "{op:?}");
    }
}

#[test]
fn products_query_and_limits() {
    let q = ProductsQuery { limit: Some(10), offset: Some(20), include_pagination: true, minimal: true };
    let c = Call::products(&q).unwrap();
    assert_eq!(c.path, "/products?limit=10&offset=20&includePagination=true&minimal=true");
    assert_eq!((c.response, c.pagination), (Root::MinimalProductsResponse, true));
    let c = Call::products(&ProductsQuery::default()).unwrap();
    assert_eq!((c.path.as_str(), c.response, c.pagination), ("/products", Root::ProductsResponse, false));
    assert_eq!(Call::products(&ProductsQuery { offset: Some(5), ..Default::default() }).unwrap().path, "/products?offset=5");
    for bad in [0, 501] {
        let e = Call::products(&ProductsQuery { limit: Some(bad), ..Default::default() }).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument);
        assert!(e.message.contains("limit must be an integer in 1..=500, got "), "{}", e.message);
    }
    assert!(Call::products(&ProductsQuery { limit: Some(500), ..Default::default() }).is_ok());
}

#[test]
fn products_query_rejects_fractional_and_unknown_options() {
    let e = serde_json::from_str::<ProductsQuery>(r#"{"limit":2.5}"#).unwrap_err();
    assert!(e.to_string().contains("floating point"), "{e}");
    let e = serde_json::from_str::<ProductsQuery>(r#"{"limt":2}"#).unwrap_err();
    assert!(e.to_string().contains("unknown field `limt`"), "{e}");
}

#[test]
fn shipping_rates_rules() {
    let ok = ShippingRatesRequest { variant_ids: vec!["v1".into()], country: "US".into(), order_total: Some(0.0) };
    assert_eq!(Call::body(&ok).unwrap().path, "/shipping-rates");
    let bad_country = ShippingRatesRequest { country: "us".into(), ..ok.clone() };
    assert!(Call::body(&bad_country).unwrap_err().message.contains("country"));
    let unassigned = ShippingRatesRequest { country: "ZZ".into(), ..ok.clone() };
    assert!(Call::body(&unassigned).unwrap_err().message.contains("got \"ZZ\""), "two uppercase letters that name no country");
    let empty = ShippingRatesRequest { variant_ids: vec![], ..ok.clone() };
    assert!(Call::body(&empty).unwrap_err().message.contains("variantIds"));
    let many = ShippingRatesRequest { variant_ids: vec!["v".into(); 251], ..ok.clone() };
    assert!(Call::body(&many).is_err());
    let blank = ShippingRatesRequest { variant_ids: vec!["v".into(), " ".into()], ..ok.clone() };
    assert!(Call::body(&blank).unwrap_err().message.contains("variantIds[1]"));
    let neg = ShippingRatesRequest { order_total: Some(-1.0), ..ok.clone() };
    assert!(Call::body(&neg).unwrap_err().message.contains("orderTotal"));
    let nan = ShippingRatesRequest { order_total: Some(f64::NAN), ..ok.clone() };
    assert!(Call::body(&nan).is_err());
    let inf = ShippingRatesRequest { order_total: Some(f64::INFINITY), ..ok };
    assert!(Call::body(&inf).unwrap_err().message.contains("orderTotal"));
}

#[test]
fn payment_bodies_are_validated() {
    let item = |id: &str, q| PaymentItem { variant_id: id.into(), quantity: q };
    let ok = InitiateRequest { items: vec![item("v1", 1), item("v2", 2)], currency: "USD".into() };
    assert_eq!(Call::body(&ok).unwrap().endpoint.retry, Policy::SentOnce);
    let dup = InitiateRequest { items: vec![item("v1", 1), item("v1", 2)], currency: "USD".into() };
    assert!(Call::body(&dup).unwrap_err().message.contains("items[1].variantId repeats"));
    let zero = InitiateRequest { items: vec![item("v1", 0)], currency: "USD".into() };
    assert!(Call::body(&zero).unwrap_err().message.contains("items[0].quantity"));
    let none = InitiateRequest { items: vec![], currency: "USD".into() };
    assert!(Call::body(&none).unwrap_err().message.starts_with("items"));
    let lines = |n: usize| (0..n).map(|i| item(&format!("v{i}"), 1)).collect::<Vec<_>>();
    assert!(Call::body(&InitiateRequest { items: lines(MAX_ITEMS), currency: "USD".into() }).is_ok());
    let over = InitiateRequest { items: lines(MAX_ITEMS + 1), currency: "USD".into() };
    assert_eq!(Call::body(&over).unwrap_err().message, "items must hold at most 250 items, got 251");
    for cur in ["usd", "EURO"] {
        let bad = InitiateRequest { items: vec![item("v1", 1)], currency: cur.into() };
        assert!(Call::body(&bad).unwrap_err().message.contains("currency"));
    }

    let addr = ShippingAddress {
        email: "a@b.c".into(),
        first_name: "A".into(),
        last_name: "B".into(),
        address1: "1 Road".into(),
        city: "Town".into(),
        postal_code: "12345".into(),
        country: "US".into(),
        ..ShippingAddress::default()
    };
    let up = UpdateRequest { session_id: "s".into(), shipping_rate_id: "r".into(), shipping_address: addr.clone() };
    assert_eq!(Call::body(&up).unwrap().path, "/payments/update");
    let bad = UpdateRequest { shipping_address: ShippingAddress { city: " ".into(), ..addr.clone() }, ..up.clone() };
    assert!(Call::body(&bad).unwrap_err().message.contains("shippingAddress.city"));
    assert!(Call::body(&UpdateRequest { session_id: String::new(), ..up.clone() }).unwrap_err().message.contains("sessionId"));
    assert!(Call::body(&UpdateRequest { shipping_rate_id: String::new(), ..up }).unwrap_err().message.contains("shippingRateId"));
    let c = ConfirmRequest {
        session_id: "s".into(),
        confirmation_token_id: "tok_1".into(),
        shipping_rate_id: "r".into(),
        shipping_address: addr,
        return_url: "https://x/".into(),
    };
    assert_eq!(Call::body(&c).unwrap().path, "/payments/confirm");
    assert!(Call::body(&ConfirmRequest { confirmation_token_id: String::new(), ..c.clone() }).unwrap_err().message.contains("confirmationTokenId"));
    assert!(Call::body(&ConfirmRequest { return_url: " ".into(), ..c.clone() }).unwrap_err().message.contains("returnUrl"));
    // The server's rule, now the core's: an absolute http(s) URL.
    assert!(Call::body(&ConfirmRequest { return_url: "ftp://x/done".into(), ..c.clone() }).unwrap_err().message.contains("returnUrl"));
    assert!(Call::body(&ConfirmRequest { return_url: "/checkout/done".into(), ..c.clone() }).unwrap_err().message.contains("returnUrl"));
    let token = |t: &str| Call::body(&ConfirmRequest { confirmation_token_id: t.to_owned(), ..c.clone() }).map(|_| ());
    let longest = format!("tok_{}", "a".repeat(MAX_TOKEN_ID));
    for ok in ["tok_1", "ctoken_1AbC", "ctoken_test_1", longest.as_str()] {
        assert!(token(ok).is_ok(), "{ok}: {:?}", token(ok));
    }
    let too_long = format!("tok_{}", "a".repeat(MAX_TOKEN_ID + 1));
    for bad in ["t", "tok_", "ctoken_", "pm_card_visa", "TOK_1", " tok_1", "tok_a-b", "tok_../../v1/charges", "tok_é", too_long.as_str()] {
        assert!(token(bad).unwrap_err().message.starts_with("confirmationTokenId must be ctoken_ or tok_"), "{bad}");
    }
}
