//! The stored form: round trips, tampered and stale states refused with the
//! reason, odd input never panics.

use super::*;
use crate::checkout::stored::{restore, Stored};
use serde_json::{json, Value};

fn stored(s: &CheckoutState) -> Value {
    serde_json::to_value(Stored::of(s)).unwrap()
}

fn read(v: &Value) -> Result<CheckoutState> {
    restore(v.clone())
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
fn the_stored_form_is_the_state_plus_its_version() {
    for s in samples() {
        let mut v = stored(&s);
        v.as_object_mut().unwrap().remove("version");
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
fn tampered_or_stale_stored_states_are_refused() {
    let base = stored(&paying("tok_1"));
    let cases: Vec<(Result<CheckoutState>, &str)> = vec![
        (patch(&base, &["state"], Some(json!("pending"))), "state: unknown checkout state"),
        (patch(&base, &["state"], Some(json!(3))), "state: invalid type"),
        (patch(&base, &["state"], None), "missing field `state`"),
        (patch(&base, &["version"], None), "missing field `version`"),
        (patch(&base, &["version"], Some(json!(2))), "version: unsupported version 2"),
        (patch(&base, &["session"], None), "missing field `session`"),
        (patch(&base, &["session", "amount"], Some(json!(1))), "does not match"),
        (patch(&base, &["session", "amount"], Some(json!(5298.5))), "session.amount: invalid type"),
        (patch(&base, &["session", "amount"], Some(json!("5298"))), "session.amount: invalid type"),
        (patch(&base, &["session", "processor"], Some(json!("paypal"))), "session.processor"),
        (patch(&base, &["session", "currency"], Some(json!("usd"))), "session.currency"),
        (patch(&base, &["session", "items"], Some(json!([]))), "session.items: must not be empty"),
        (patch(&base, &["session", "items", "0", "quantity"], Some(json!(0))), "session.items: every item needs a variantId and a quantity of at least 1"),
        (patch(&base, &["session", "items", "0", "quantity"], Some(json!(-1))), "session.items[0].quantity: invalid value"),
        (patch(&base, &["session", "items", "1", "variantId"], None), "session.items[1]: missing field `variantId`"),
        (patch(&base, &["session", "extra"], Some(json!(1))), "session.extra: unknown field"),
        (patch(&base, &["extra"], Some(json!(1))), "extra: unknown field"),
        (patch(&base, &["shipping", "address", "email"], Some(json!("nope"))), "shippingAddress.email"),
        (patch(&base, &["shipping", "address", "phone"], Some(json!(12))), "shipping.address.phone: invalid type"),
        (patch(&base, &["shipping", "rate", "id"], Some(json!(""))), "shipping.rate.id"),
        (patch(&base, &["shipping", "rate", "deliveryTimeframeMin"], Some(json!(-1))), "deliveryTimeframeMin"),
        (patch(&base, &["attempt", "token"], Some(json!(" "))), "attempt.token"),
        (patch(&base, &["attempt", "returnUrl"], Some(json!("javascript:alert(1)"))), "returnUrl"),
        (patch(&base, &["attempt", "confirmInFlight"], Some(json!("yes"))), "attempt.confirmInFlight: invalid type"),
        (patch(&base, &["attempt", "lastStatus"], Some(json!("paid"))), "attempt.lastStatus: unknown variant"),
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
    let mut failed = {
        let mut s = paying("tok_1");
        s.confirm_failed(ErrorCode::Network, "x").unwrap();
        stored(&s)
    };
    failed["pending"]["confirmInFlight"] = json!(true);
    assert_arg_err(read(&failed), "pending.confirmInFlight");
    failed["pending"] = json!("tok_1");
    assert_arg_err(read(&failed), "pending: invalid type");
    failed["pending"] = Value::Null;
    failed["code"] = json!("oops");
    assert_arg_err(read(&failed), "code: unknown variant");
    failed["code"] = json!("request");
    failed["errorCode"] = json!("oops");
    assert_arg_err(read(&failed), "errorCode: unknown variant");
    assert_arg_err(read(&json!("paying")), "invalid type");
    // Every member of a sample is required (nullable ones may be absent).
    for s in samples() {
        let full = stored(&s);
        for key in full.as_object().unwrap().keys() {
            let mut v = full.clone();
            v.as_object_mut().unwrap().remove(key);
            let nullable = full[key].is_null() || matches!(key.as_str(), "errorCode" | "pending" | "sessionId");
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
