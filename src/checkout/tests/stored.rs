//! The stored form: round trips, tampered and stale states refused with the
//! reason, odd input never panics.

use super::*;
use crate::checkout::stored::{head, restore};
use serde_json::{json, Value};

/// The stored form as the wasm writes it (`checkout_live::Inner::write`): [`head`]'s
/// members, then the state's.
fn stored(s: &CheckoutState) -> Value {
    let mut v = serde_json::Map::new();
    for (k, n) in head(7) {
        v.insert(k.into(), n.into());
    }
    let Value::Object(state) = serde_json::to_value(s).unwrap() else { panic!("a state is an object") };
    v.extend(state);
    Value::Object(v)
}

fn read(v: &Value) -> Result<CheckoutState> {
    restore(|| v.clone(), &v.to_string()).map(|r| r.state)
}

#[test]
fn stored_states_round_trip() {
    for s in samples() {
        let v = stored(&s);
        assert_eq!(v["version"], 1);
        assert_eq!(v["state"], s.name());
        assert_eq!(read(&v).unwrap_or_else(|e| panic!("{v}: {e}")), s, "{v}");
    }
}

#[test]
fn the_stored_form_is_the_state_plus_its_version_and_revision() {
    for s in samples() {
        let mut v = stored(&s);
        assert_eq!(restore(|| v.clone(), &v.to_string()).unwrap().revision, 7);
        v.as_object_mut().unwrap().remove("version");
        v.as_object_mut().unwrap().remove("revision");
        assert_eq!(v, serde_json::to_value(&s).unwrap());
    }
    let v = stored(&paying("tok_1"));
    assert_eq!(v["attempt"], json!({"token": "tok_1", "returnUrl": URL, "confirmInFlight": true, "paymentIntentId": null, "lastStatus": null}));
    assert_eq!(v["shipping"]["address"].get("address2"), None, "absent optional address members stay absent");
}

fn patch(base: &Value, path: &[&str], value: Option<Value>) -> Result<CheckoutState> {
    let mut v = base.clone();
    let (last, parents) = path.split_last().unwrap();
    let obj = parents.iter().fold(&mut v, |o, k| if let Ok(i) = k.parse::<usize>() { &mut o[i] } else { &mut o[*k] });
    match value {
        Some(x) => obj[*last] = x,
        None => {
            obj.as_object_mut().unwrap().remove(*last);
        }
    }
    read(&v)
}

#[test]
fn a_record_written_before_revisions_reads_as_revision_0() {
    let mut v = stored(&paying("tok_1"));
    v.as_object_mut().unwrap().remove("revision");
    let r = restore(|| v.clone(), &v.to_string()).unwrap();
    assert_eq!((r.revision, r.state), (0, paying("tok_1")));
    let mut v = stored(&chosen());
    v["revision"] = json!("3");
    assert!(read(&v).unwrap_err().message.contains("revision"), "a revision that is not a number is refused, naming it");
}

#[test]
fn tampered_or_stale_stored_states_are_refused() {
    let base = stored(&paying("tok_1"));
    let cases: Vec<(Result<CheckoutState>, &str)> = vec![
        (patch(&base, &["state"], Some(json!("pending"))), "state: expected one of idle, initiated, shipping_chosen, paying, requires_action, confirming, succeeded, failed, cancelled, got the string \"pending\""),
        (patch(&base, &["state"], Some(json!(3))), "state: expected one of idle, initiated, shipping_chosen, paying, requires_action, confirming, succeeded, failed, cancelled, got the number 3"),
        (patch(&base, &["state"], None), "missing field `state`"),
        (patch(&base, &["version"], None), "missing field `version`"),
        (patch(&base, &["version"], Some(json!(2))), "version: unsupported version 2"),
        (patch(&base, &["shipping", "rate", "price"], Some(json!(""))), "shipping.rate.price: not a decimal amount"),
        (patch(&base, &["shipping", "rate", "maxOrderPrice"], Some(json!(""))), "shipping.rate.maxOrderPrice: not a decimal amount"),
        (patch(&base, &["session", "sessionId"], Some(json!(""))), "session.sessionId: must not be empty"),
        (patch(&base, &["session"], None), "missing field `session`"),
        (patch(&base, &["session", "amount"], Some(json!(1))), "does not match"),
        (patch(&base, &["session", "amount"], Some(json!(5298.5))), "session.amount: expected a safe integer, got the number 5298.5"),
        (patch(&base, &["session", "amount"], Some(json!("5298"))), "session.amount: expected a safe integer, got the string \"5298\""),
        (patch(&base, &["session", "processor"], Some(json!("paypal"))), "session.processor"),
        (patch(&base, &["session", "currency"], Some(json!("usd"))), "session.currency"),
        (patch(&base, &["session", "items"], Some(json!([]))), "session.items: must not be empty"),
        (patch(&base, &["session", "items", "0", "quantity"], Some(json!(0))), "session.items: every item needs a variantId and a quantity of at least 1"),
        (patch(&base, &["session", "items", "0", "quantity"], Some(json!(-1))), "session.items[0].quantity: expected an integer in 0..=4294967295, got the number -1"),
        (patch(&base, &["session", "items", "1", "variantId"], None), "session.items[1]: missing field `variantId`"),
        (patch(&base, &["session", "extra"], Some(json!(1))), "session.extra: unknown member"),
        (patch(&base, &["extra"], Some(json!(1))), "extra: unknown member"),
        (patch(&base, &["shipping", "address", "email"], Some(json!("nope"))), "shippingAddress.email"),
        (patch(&base, &["shipping", "address", "phone"], Some(json!(12))), "shipping.address.phone: expected a string, got the number 12"),
        (patch(&base, &["shipping", "rate", "id"], Some(json!(""))), "shipping.rate.id"),
        (patch(&base, &["shipping", "rate", "deliveryTimeframeMin"], Some(json!(-1))), "deliveryTimeframeMin"),
        (patch(&base, &["attempt", "token"], Some(json!(" "))), "attempt.token"),
        (patch(&base, &["attempt", "returnUrl"], Some(json!("javascript:alert(1)"))), "returnUrl"),
        (patch(&base, &["attempt", "confirmInFlight"], Some(json!("yes"))), "attempt.confirmInFlight: expected a boolean, got the string \"yes\""),
        (patch(&base, &["attempt", "lastStatus"], Some(json!("paid"))), "attempt.lastStatus: expected one of "),
        (patch(&base, &["attempt"], None), "missing field `attempt`"),
        (patch(&base, &["clientSecret"], Some(json!("x"))), "clientSecret: unknown member"),
        (patch(&base, &["pending"], Some(base["attempt"].clone())), "pending: unknown member"),
    ];
    for (r, needle) in cases {
        let e = r.unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{e}");
        assert!(e.message.starts_with("stored checkout state is not valid: "), "{e}");
        assert!(e.message.contains(needle), "{} !~ {needle}", e.message);
    }
    let mut action = {
        let mut s = paying("tok_1");
        s.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
        stored(&s)
    };
    action["attempt"]["confirmInFlight"] = json!(true);
    assert_arg_err(read(&action), "attempt.confirmInFlight: a confirm in flight outside `paying`");
    action["attempt"]["confirmInFlight"] = json!(false);
    action["clientSecret"] = json!("");
    assert_arg_err(read(&action), "clientSecret: must not be empty");
    let mut confirming = {
        let mut s = paying("tok_1");
        s.confirm_failed(ErrorCode::Network, "x").unwrap();
        stored(&s)
    };
    assert_eq!(confirming["state"], "confirming");
    confirming["attempt"]["confirmInFlight"] = json!(true);
    assert_arg_err(read(&confirming), "attempt.confirmInFlight: a confirm in flight outside `paying`");
    confirming["attempt"]["confirmInFlight"] = json!(false);
    confirming["errorCode"] = Value::Null;
    assert_arg_err(read(&confirming), "errorCode: expected one of invalid_argument, ");
    confirming["errorCode"] = json!("network");
    confirming["retryable"] = json!(true);
    assert_arg_err(read(&confirming), "retryable: unknown member");
    let mut failed = {
        // Authentication abandoned: the payment exists, the attempt is pending.
        let mut s = paying("tok_1");
        s.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
        s.adapter_failed("closed").unwrap();
        stored(&s)
    };
    failed["pending"]["confirmInFlight"] = json!(true);
    assert_arg_err(read(&failed), "pending.confirmInFlight");
    failed["pending"] = json!("tok_1");
    assert_arg_err(read(&failed), "pending: expected an object, got the string \"tok_1\"");
    failed["pending"] = Value::Null;
    failed["code"] = json!("oops");
    assert_arg_err(read(&failed), "code: expected one of declined, ");
    failed["code"] = json!("request");
    failed["errorCode"] = json!("oops");
    assert_arg_err(read(&failed), "errorCode: expected one of invalid_argument, ");
    assert_arg_err(read(&json!("paying")), "stored checkout state is not valid: expected an object, got the string \"paying\"");
    // Every member of a sample is required (nullable ones may be absent).
    for s in samples() {
        let full = stored(&s);
        for key in full.as_object().unwrap().keys() {
            let mut v = full.clone();
            v.as_object_mut().unwrap().remove(key);
            let nullable = full[key].is_null() || matches!(key.as_str(), "pending" | "sessionId" | "revision");
            let nullable = nullable || (key == "errorCode" && full["state"] == "failed");
            let nullable = nullable || (key == "paymentIntentId" && full["state"] == "failed");
            assert_eq!(read(&v).is_ok(), nullable, "{key} removed from {full}");
        }
    }
}

/// No input panics: every sample with each member cut, retyped or swapped
/// with another's.
#[test]
fn odd_stored_input_is_an_error_never_a_panic() {
    let odd = [json!(null), json!(""), json!(-1), json!(1e300), json!([]), json!({}), json!([1, "x"]), json!({"state": "idle"}), json!(true)];
    for s in samples() {
        let full = stored(&s);
        let _ = read(&full);
        for key in full.as_object().unwrap().keys() {
            for o in &odd {
                let mut v = full.clone();
                v[key.as_str()] = o.clone();
                let _ = read(&v);
                if let Some(inner) = full[key.as_str()].as_object() {
                    for k in inner.keys() {
                        let mut v = full.clone();
                        v[key.as_str()][k.as_str()] = o.clone();
                        let _ = read(&v);
                    }
                }
            }
        }
    }
    for o in &odd {
        assert!(read(o).is_err());
    }
}

/// Fuzz (issue 12 item 11): arbitrary JSON and mutated stored states never
/// panic, and a state that is read back is stored again as the same value
/// (save → restore is the identity on what restore accepts). Cases:
/// `CIRRUS_FUZZ_CASES` (default 2,000; `scripts/fuzz-sdk.sh` runs millions).
mod fuzz {
    use super::*;
    use proptest::prelude::*;

    fn json_value() -> impl Strategy<Value = Value> {
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
            "[a-z_A-Z0-9 .:@-]{0,12}".prop_map(Value::from),
            prop_oneof![Just("idle"), Just("initiated"), Just("shipping_chosen"), Just("paying"), Just("requires_action"), Just("confirming"), Just("succeeded"), Just("failed"), Just("cancelled")]
                .prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..4).prop_map(Value::Array),
                prop::collection::btree_map("[a-zA-Z]{1,16}", inner, 0..6).prop_map(|m| Value::Object(m.into_iter().collect())),
            ]
        })
    }

    /// Every path to a leaf or member of `v`, as keys / indexes.
    fn paths(v: &Value, at: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
        out.push(at.clone());
        match v {
            Value::Object(m) => m.iter().for_each(|(k, x)| {
                at.push(k.clone());
                paths(x, at, out);
                at.pop();
            }),
            Value::Array(a) => a.iter().enumerate().for_each(|(i, x)| {
                at.push(i.to_string());
                paths(x, at, out);
                at.pop();
            }),
            _ => {}
        }
    }

    fn cases() -> u32 {
        std::env::var("CIRRUS_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(2_000)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(cases()))]

        #[test]
        fn arbitrary_json_never_panics_and_what_is_read_round_trips(v in json_value()) {
            if let Ok(s) = read(&v) {
                prop_assert_eq!(read(&stored(&s)).unwrap(), s);
            }
        }

        #[test]
        fn mutated_stored_states_never_panic_and_round_trip(which in any::<prop::sample::Index>(), at in any::<prop::sample::Index>(), with in json_value(), drop in any::<bool>()) {
            let all = samples();
            let base = stored(&all[which.index(all.len())]);
            let mut ps = Vec::new();
            paths(&base, &mut Vec::new(), &mut ps);
            let path = &ps[at.index(ps.len())];
            let mut v = base.clone();
            if let Some((last, parents)) = path.split_last() {
                let parent = parents.iter().fold(&mut v, |o, k| if let Ok(i) = k.parse::<usize>() { &mut o[i] } else { &mut o[k.as_str()] });
                match (parent, drop) {
                    (Value::Object(m), true) => { m.remove(last); }
                    (Value::Object(m), false) => { m.insert(last.clone(), with); }
                    (Value::Array(a), _) => { if let Ok(i) = last.parse::<usize>() { a[i] = with; } }
                    _ => {}
                }
            }
            match read(&v) {
                Ok(s) => prop_assert_eq!(read(&stored(&s)).unwrap(), s),
                Err(e) => prop_assert!(e.message.starts_with("stored checkout state is not valid: "), "{}", e.message),
            }
        }
    }
}
