//! Client and server agree on every request body (issue 43): a generated set of bodies, the
//! edge cases of every rule of the core's `Body::check` (the check the client runs before
//! sending, `endpoint::Call::body`) one at a time and two at a time, is sent to the server. A
//! body the core refuses is refused with 400 `invalid_request` and the core's message, exactly;
//! a body it accepts gets past the rules to the store's own answer (200; for a confirm, 404: its
//! session does not exist, so no payment is made). The bodies are well-typed JSON (a member of
//! the wrong type is the decoder's, not a rule) and keep to the store's data (its currency, its
//! variants and their stock, a rate that serves the address), so the only refusals are rules.

mod common;

use cirrus_storefront::endpoint::{Body, MAX_ITEMS, MAX_VARIANT_IDS};
use cirrus_storefront::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};
use common::{spawn_with, Server};
use serde::de::DeserializeOwned;
use serde_json::{json, Value};

/// One edit of a base body: a name (its group before `=`: two edits of one group are not
/// combined) and the members it sets (a JSON pointer and the value; `None` removes it).
struct Edit {
    name: String,
    set: Vec<(String, Option<Value>)>,
}

fn edit(name: impl Into<String>, ptr: &str, value: Option<Value>) -> Edit {
    Edit { name: name.into(), set: vec![(ptr.to_owned(), value)] }
}

fn group(e: &Edit) -> &str {
    e.name.split('=').next().unwrap_or(&e.name)
}

fn apply(base: &Value, edits: &[&Edit]) -> Value {
    let mut v = base.clone();
    for e in edits {
        for (ptr, value) in &e.set {
            let (parent, key) = ptr.rsplit_once('/').unwrap();
            let obj = v.pointer_mut(parent).and_then(Value::as_object_mut).unwrap_or_else(|| panic!("no object at {parent:?}"));
            match value {
                Some(x) => obj.insert(key.to_owned(), x.clone()),
                None => obj.remove(key),
            };
        }
    }
    v
}

/// The base body alone, each edit alone, and every two edits of different groups.
fn bodies(base: &Value, edits: &[Edit]) -> Vec<(String, Value)> {
    let mut out = vec![("base".to_owned(), base.clone())];
    for (i, a) in edits.iter().enumerate() {
        out.push((a.name.clone(), apply(base, &[a])));
        for b in &edits[i + 1..] {
            if group(a) != group(b) {
                out.push((format!("{} + {}", a.name, b.name), apply(base, &[a, b])));
            }
        }
    }
    out
}

/// What came of a set of bodies: how many, how many the core refused, the disagreements.
#[derive(Default)]
struct Tally {
    bodies: usize,
    refused: usize,
    disagree: Vec<String>,
}

/// Sends every body to `path`; compares the answer with the core's check of the same body.
async fn agree<B: Body + DeserializeOwned>(s: &Server, path: &str, base: &Value, edits: &[Edit], accepted: u16) -> Tally {
    let mut t = Tally::default();
    for (name, body) in bodies(base, edits) {
        let typed: B = serde_json::from_value(body.clone()).unwrap_or_else(|e| panic!("{path} {name}: not a well-typed body: {e}"));
        let core = typed.check();
        let r = s.post(path, &body).await;
        let status = r.status().as_u16();
        let has_id = r.headers().contains_key("x-request-id");
        let answer: Value = r.json().await.unwrap();
        t.bodies += 1;
        let verdict = match &core {
            Err(e) => {
                t.refused += 1;
                let want = json!({ "error": e.message, "code": "invalid_request" });
                (status == 400 && answer == want && has_id)
                    .then_some(())
                    .ok_or_else(|| format!("{path} {name}: the core refuses it ({:?}), the server answered {status} {answer}", e.message))
            }
            Ok(()) => (status == accepted)
                .then_some(())
                .ok_or_else(|| format!("{path} {name}: the core accepts it, the server answered {status} {answer} (expected {accepted})")),
        };
        if let Err(why) = verdict {
            t.disagree.push(why);
        }
    }
    t
}

fn chars(n: usize, c: char) -> String {
    std::iter::repeat_n(c, n).collect()
}

/// The edits of a shipping address at `at` (a JSON pointer): each rule of
/// `checkout::validate_address` at its edges, on each member it applies to.
fn address_edits(at: &str) -> Vec<Edit> {
    let mut out = Vec::new();
    for f in ["email", "firstName", "lastName", "address1", "city", "postalCode", "country"] {
        let p = format!("{at}/{f}");
        out.push(edit(format!("{f}=\"\""), &p, Some(json!(""))));
        out.push(edit(format!("{f}=blank"), &p, Some(json!("   "))));
        out.push(edit(format!("{f}=control"), &p, Some(json!("A\u{7}B"))));
    }
    for f in ["firstName", "lastName", "address1", "city", "postalCode"] {
        let p = format!("{at}/{f}");
        out.push(edit(format!("{f}=200 chars"), &p, Some(json!(chars(200, 'é')))));
        out.push(edit(format!("{f}=201 chars"), &p, Some(json!(chars(201, 'é')))));
        out.push(edit(format!("{f}=tab"), &p, Some(json!("A\tB"))));
    }
    for f in ["address2", "state", "phone"] {
        let p = format!("{at}/{f}");
        out.push(edit(format!("{f}=absent"), &p, None));
        out.push(edit(format!("{f}=null"), &p, Some(Value::Null)));
        out.push(edit(format!("{f}=\"\""), &p, Some(json!(""))));
        out.push(edit(format!("{f}=200 chars"), &p, Some(json!(chars(200, 'x')))));
        out.push(edit(format!("{f}=201 chars"), &p, Some(json!(chars(201, 'x')))));
        out.push(edit(format!("{f}=control"), &p, Some(json!("1\u{0}2"))));
    }
    let email = format!("{at}/email");
    for e in ["ada@example", "ada example@example.com", "@example.com", "ada@-example.com", "ada@example..com", "ada@@example.com", "a+b@x.co"] {
        out.push(edit(format!("email={e:?}"), &email, Some(json!(e))));
    }
    out.push(edit("email=65-char local part", &email, Some(json!(format!("{}@example.com", chars(65, 'a'))))));
    out.push(edit("email=64-char local part", &email, Some(json!(format!("{}@example.com", chars(64, 'a'))))));
    let country = format!("{at}/country");
    for c in ["us", "Us", "ZZ", "USA", "U", "XK"] {
        out.push(edit(format!("country={c:?}"), &country, Some(json!(c))));
    }
    out
}

fn address() -> Value {
    json!({ "email": "ada@example.com", "firstName": "Ada", "lastName": "Lovelace", "address1": "1 Analytical Way",
            "address2": "Flat 2", "city": "New York", "state": "NY", "postalCode": "10001", "country": "US", "phone": "+1 555 0100" })
}

/// Variant ids in stock, most stock first.
async fn in_stock(s: &Server) -> Vec<(String, u64)> {
    let mut out: Vec<(String, u64)> = s
        .all_products()
        .await
        .iter()
        .flat_map(|p| p["variants"].as_array().unwrap().clone())
        .map(|v| (v["id"].as_str().unwrap().to_owned(), v["stockQuantity"].as_u64().unwrap()))
        .filter(|(_, n)| *n > 0)
        .collect();
    out.sort_by(|a, b| b.1.cmp(&a.1));
    out
}

fn report(what: &str, t: &Tally) -> usize {
    println!("{what}: {} bodies, {} refused by the core, {} disagreements", t.bodies, t.refused, t.disagree.len());
    for d in t.disagree.iter().filter(|d| !d.contains(" + ")).chain(t.disagree.iter().filter(|d| d.contains(" + "))).take(16) {
        println!("  {d}");
    }
    t.disagree.len()
}

#[tokio::test]
async fn the_server_refuses_exactly_the_bodies_the_core_refuses_with_its_message() {
    let s = spawn_with(|c| c.payment_limit = 0).await;
    let ids = in_stock(&s).await;
    assert!(ids.len() > MAX_ITEMS, "the seed has {} variants in stock; the test needs {}", ids.len(), MAX_ITEMS + 1);
    let (top, top_stock) = ids[0].clone();
    let item = |i: usize, q: u64| json!({ "variantId": ids[i].0, "quantity": q });
    let many = |n: usize| Value::Array((0..n).map(|i| item(i, 1)).collect());
    let mut bad = 0;

    // POST /payments/initiate
    let base = json!({ "items": [item(0, 1)], "currency": "USD" });
    let mut edits = vec![
        edit("items=[]", "/items", Some(json!([]))),
        edit("items=2", "/items", Some(many(2))),
        edit(format!("items={MAX_ITEMS}"), "/items", Some(many(MAX_ITEMS))),
        edit(format!("items={}", MAX_ITEMS + 1), "/items", Some(many(MAX_ITEMS + 1))),
        edit("items=repeated", "/items", Some(json!([item(0, 1), item(0, 1)]))),
        edit("items=repeated later", "/items", Some(json!([item(0, 1), item(1, 1), item(0, 2)]))),
        edit("items=empty id", "/items", Some(json!([{ "variantId": "", "quantity": 1 }]))),
        edit("items=blank id", "/items", Some(json!([item(0, 1), { "variantId": "  ", "quantity": 1 }]))),
        edit("items=quantity 0", "/items", Some(json!([item(0, 0)]))),
        edit("items=second quantity 0", "/items", Some(json!([item(0, 1), item(1, 0)]))),
        edit("items=all the stock", "/items", Some(json!([{ "variantId": top, "quantity": top_stock }]))),
    ];
    for c in ["usd", "US", "USDX", "", "U$D", "ÜSD", " USD"] {
        edits.push(edit(format!("currency={c:?}"), "/currency", Some(json!(c))));
    }
    bad += report("initiate", &agree::<InitiateRequest>(&s, "/payments/initiate", &base, &edits, 200).await);

    // POST /shipping-rates
    let ids_of = |n: usize| Value::Array((0..n).map(|i| json!(ids[i].0)).collect());
    let base = json!({ "variantIds": ids_of(1), "country": "US" });
    let mut edits = vec![
        edit("variantIds=[]", "/variantIds", Some(json!([]))),
        edit(format!("variantIds={MAX_VARIANT_IDS}"), "/variantIds", Some(ids_of(MAX_VARIANT_IDS))),
        edit(format!("variantIds={}", MAX_VARIANT_IDS + 1), "/variantIds", Some(ids_of(MAX_VARIANT_IDS + 1))),
        edit("variantIds=empty id", "/variantIds", Some(json!([""]))),
        edit("variantIds=blank second", "/variantIds", Some(json!([ids[0].0, " "]))),
        edit("variantIds=repeated", "/variantIds", Some(json!([ids[0].0, ids[0].0]))),
        edit("orderTotal=0", "/orderTotal", Some(json!(0))),
        edit("orderTotal=-0", "/orderTotal", Some(json!(-0.0))),
        edit("orderTotal=12.5", "/orderTotal", Some(json!(12.5))),
        edit("orderTotal=-0.01", "/orderTotal", Some(json!(-0.01))),
        edit("orderTotal=1e300", "/orderTotal", Some(json!(1e300))),
        edit("orderTotal=null", "/orderTotal", Some(Value::Null)),
    ];
    for c in ["DE", "JP", "us", "ZZ", "USA", "", "U"] {
        edits.push(edit(format!("country={c:?}"), "/country", Some(json!(c))));
    }
    bad += report("shipping-rates", &agree::<ShippingRatesRequest>(&s, "/shipping-rates", &base, &edits, 200).await);

    // POST /payments/update: a session of one unit and the first rate that serves it in the US.
    let session = s.post_json("/payments/initiate", &json!({ "items": [item(0, 1)], "currency": "USD" })).await["sessionId"].as_str().unwrap().to_owned();
    let rates = s.post_json("/shipping-rates", &json!({ "variantIds": [ids[0].0], "country": "US" })).await;
    let rate = rates["variantRates"][0]["rates"][0]["id"].as_str().unwrap().to_owned();
    let base = json!({ "sessionId": session, "shippingRateId": rate, "shippingAddress": address() });
    let mut edits = address_edits("/shippingAddress");
    for (f, v) in [("sessionId", ""), ("sessionId", " "), ("shippingRateId", ""), ("shippingRateId", "\t")] {
        edits.push(edit(format!("{f}={v:?}"), &format!("/{f}"), Some(json!(v))));
    }
    bad += report("update", &agree::<UpdateRequest>(&s, "/payments/update", &base, &edits, 200).await);

    // POST /payments/confirm of a session that does not exist: past the rules, 404.
    let base = json!({ "sessionId": "cs_00000000000000000000000000000000", "confirmationTokenId": "tok_1", "shippingRateId": rate,
                       "shippingAddress": address(), "returnUrl": "https://shop.example/checkout/done" });
    let mut edits = address_edits("/shippingAddress");
    for (f, v) in [("sessionId", ""), ("sessionId", " "), ("shippingRateId", ""), ("shippingRateId", " ")] {
        edits.push(edit(format!("{f}={v:?}"), &format!("/{f}"), Some(json!(v))));
    }
    let long = |n: usize| format!("tok_{}", chars(n, 'a'));
    for t in ["ctoken_1AbC", "ctoken_test_1", "tok_", "ctoken_", "", " ", "pm_card_visa", "tok-1", "tok_a-b", "tok_../../v1/charges", "tok_é", "TOK_1", " tok_1"] {
        edits.push(edit(format!("confirmationTokenId={t:?}"), "/confirmationTokenId", Some(json!(t))));
    }
    edits.push(edit("confirmationTokenId=200 after tok_", "/confirmationTokenId", Some(json!(long(200)))));
    edits.push(edit("confirmationTokenId=201 after tok_", "/confirmationTokenId", Some(json!(long(201)))));
    let url = |n: usize| format!("https://shop.example/{}", chars(n - "https://shop.example/".len(), 'p'));
    for u in ["http://127.0.0.1:8787/done", "https://h", "ftp://shop.example/", "https://", "https:///done", "/checkout/done", "", "https://shop.example/a b", "HTTPS://shop.example/"] {
        edits.push(edit(format!("returnUrl={u:?}"), "/returnUrl", Some(json!(u))));
    }
    edits.push(edit("returnUrl=2048 chars", "/returnUrl", Some(json!(url(2048)))));
    edits.push(edit("returnUrl=2049 chars", "/returnUrl", Some(json!(url(2049)))));
    bad += report("confirm", &agree::<ConfirmRequest>(&s, "/payments/confirm", &base, &edits, 404).await);

    assert_eq!(bad, 0, "bodies on which the client's rules and the server's disagree (listed above)");
}
