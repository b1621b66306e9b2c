//! Abuse limits (issue #16, item 6): the rate limit is per client address
//! before it is per key (one visitor flooding with the storefront's public key
//! does not give every shopper 429; a confirm is counted per client only), a
//! session accepts a bounded number of payment attempts (card testing), and so
//! does a client address across sessions (initiates, failed attempts).

mod common;

use std::net::IpAddr;

use common::pay::{card_token, confirm_body, new_session, payment_intents, pick_variant};
use common::{assert_error, localstripe, spawn_with, Server};
use reqwest::{Client, Method, Response};
use serde_json::{json, Value};

/// A client whose requests come from `ip` (any 127.0.0.0/8 address is this host).
fn from(ip: &str) -> Client {
    Client::builder().local_address(ip.parse::<IpAddr>().unwrap()).pool_max_idle_per_host(0).build().unwrap()
}

async fn send(s: &Server, c: &Client, method: Method, path: &str) -> Response {
    let mut req = c.request(method.clone(), format!("{}{path}", s.base)).bearer_auth(&s.key);
    if method == Method::POST {
        req = req.json(&confirm_body("cs_nope", "tok_nope", "rate_us_express"));
    }
    req.send().await.unwrap()
}

#[tokio::test]
async fn one_client_flooding_does_not_limit_other_shoppers() {
    let s = spawn_with(|c| c.rate_limit = 3).await; // 3/s per client (burst 6), 60/s per key
    let flooder = from("127.0.0.2");
    let mut refusals = Vec::new();
    for _ in 0..40 {
        let r = send(&s, &flooder, Method::GET, "/store").await;
        if r.status() == 429 {
            refusals.push(r);
        }
    }
    assert!(refusals.len() >= 30, "the flooder is limited: {} of 40 refused", refusals.len());
    // Same key, another address: served.
    let shopper = from("127.0.0.3");
    for _ in 0..3 {
        assert_eq!(send(&s, &shopper, Method::GET, "/store").await.status(), 200, "another shopper is not limited by the flooder");
    }
    let first = refusals.remove(0);
    assert!(first.headers().contains_key("retry-after"));
    assert_error(first, 429, "rate_limited", "per client").await;
}

#[tokio::test]
async fn a_drained_key_does_not_starve_confirm() {
    let s = spawn_with(|c| c.rate_limit = 1).await; // 1/s per client (burst 2), 20/s per key (burst 40)
    // 60 addresses, 2 requests each: within every client's burst, over the key's.
    let mut tasks = Vec::new();
    for i in 0..60 {
        let (s, c) = (s.clone(), from(&format!("127.0.1.{}", i + 1)));
        tasks.push(tokio::spawn(async move {
            let mut out = Vec::new();
            for _ in 0..2 {
                let r = send(&s, &c, Method::GET, "/store").await;
                let st = r.status().as_u16();
                out.push((st, r.text().await.unwrap()));
            }
            out
        }));
    }
    let mut key_limited = 0;
    for t in tasks {
        for (st, body) in t.await.unwrap() {
            key_limited += usize::from(st == 429 && body.contains("for this API key"));
        }
    }
    assert!(key_limited > 0, "the key's bucket was drained");
    // Confirms from shoppers who sent nothing else: counted per client only, never refused for the key.
    for i in 0..5 {
        let r = send(&s, &from(&format!("127.0.2.{}", i + 1)), Method::POST, "/payments/confirm").await;
        assert_error(r, 404, "not_found", "payment session").await;
    }
    // One client flooding confirms (card testing) is limited by its own bucket.
    let tester = from("127.0.3.1");
    let mut refused = 0;
    for _ in 0..6 {
        refused += usize::from(send(&s, &tester, Method::POST, "/payments/confirm").await.status() == 429);
    }
    assert!(refused >= 3, "a client's confirms are limited: {refused} of 6 refused");
}

#[tokio::test]
async fn a_session_accepts_at_most_five_payment_attempts() {
    let s = common::pay::hooks_server().await;
    let (v, _, _, _) = pick_variant(&s, 1, 0).await;
    let sid = new_session(&s, &v, 1).await;
    let mut last = String::new();
    for _ in 0..5 {
        last = card_token("4000000000000341").await;
        let r = s.post_json("/payments/confirm", &confirm_body(&sid, &last, "rate_us_express")).await;
        assert_eq!(r["status"], "requires_payment_method", "{r}");
    }
    // A sixth card: refused before anything reaches the processor.
    let good = card_token("4242424242424242").await;
    let r = s.post("/payments/confirm", &confirm_body(&sid, &good, "rate_us_express")).await;
    assert_error(r, 409, "conflict", "5 payment attempts").await;
    assert_eq!(payment_intents(&sid).await.len(), 5, "no sixth PaymentIntent");
    // The last attempt can still be read back (its decline), with its own token.
    let r = s.post_json("/payments/confirm", &confirm_body(&sid, &last, "rate_us_express")).await;
    assert_eq!(r["status"], "requires_payment_method");
}

/// POSTs `body` to `path` from `client`: (status, Retry-After, body).
async fn post_from(s: &Server, c: &Client, path: &str, body: &Value) -> (u16, Option<u64>, Value) {
    let r = c.post(format!("{}{path}", s.base)).bearer_auth(&s.key).json(body).send().await.unwrap();
    let retry = r.headers().get("retry-after").map(|v| v.to_str().unwrap().parse().unwrap());
    (r.status().as_u16(), retry, r.json().await.unwrap())
}

/// A server with `CIRRUS_PAYMENT_LIMIT` `limit` on the real localstripe, and the
/// body of an initiate of one unit of an in-stock variant.
async fn payment_limited(limit: u32) -> (Server, Value) {
    let ls = localstripe();
    let s = spawn_with(|c| {
        c.payment_limit = limit;
        c.stripe_api_base = ls;
    })
    .await;
    let (v, _, _, _) = pick_variant(&s, 1, 0).await;
    (s, json!({ "items": [{ "variantId": v, "quantity": 1 }], "currency": "USD" }))
}

/// `n` initiates of `init` from `client`, each answered 200: their session ids.
async fn initiates_from(s: &Server, client: &Client, init: &Value, n: usize) -> Vec<String> {
    let mut sessions = Vec::new();
    for i in 0..n {
        let (st, _, body) = post_from(s, client, "/payments/initiate", init).await;
        assert_eq!(st, 200, "initiate {i}: {body}");
        sessions.push(body["sessionId"].as_str().unwrap().to_string());
    }
    sessions
}

/// Card testing across sessions (a session alone accepts 5 attempts, but a new
/// one is free): initiates and failed payment attempts are bounded per client
/// address (`CIRRUS_PAYMENT_LIMIT`), never per key: one address over its limit
/// gets 429 with Retry-After while another buyer with the same key goes on.
#[tokio::test]
async fn card_testing_is_bounded_per_client_address_across_sessions() {
    // 40 initiates per hour per address, 2 failed payment attempts.
    let (s, init) = payment_limited(40).await;
    let tester = from("127.0.4.1");
    let sessions = initiates_from(&s, &tester, &init, 40).await;
    let (st, retry, body) = post_from(&s, &tester, "/payments/initiate", &init).await;
    assert_eq!((st, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("client address"), "{body}");
    assert!(retry.is_some_and(|r| (1..=90).contains(&r)), "Retry-After about an hour / 40: {retry:?}");
    // Another address, same key: served.
    let buyer = from("127.0.4.2");
    let (st, _, body) = post_from(&s, &buyer, "/payments/initiate", &init).await;
    assert_eq!(st, 200, "{body}");
    let buyer_session = body["sessionId"].as_str().unwrap().to_string();

    // Failed payment attempts, one session each: the third is refused before the processor.
    for sid in &sessions[..2] {
        let (st, _, body) = post_from(&s, &tester, "/payments/confirm", &confirm_body(sid, &card_token("4000000000000341").await, "rate_us_express")).await;
        assert_eq!((st, body["status"].as_str()), (200, Some("requires_payment_method")), "{body}");
    }
    let (st, retry, body) = post_from(&s, &tester, "/payments/confirm", &confirm_body(&sessions[2], &card_token("4242424242424242").await, "rate_us_express")).await;
    assert_eq!((st, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("failed payment attempts"), "{body}");
    assert!(retry.is_some_and(|r| r >= 60), "Retry-After about an hour / 2: {retry:?}");
    assert!(payment_intents(&sessions[2]).await.is_empty(), "nothing reached the processor");
    // The other buyer pays, and a decline of theirs is their own.
    let (st, _, body) = post_from(&s, &buyer, "/payments/confirm", &confirm_body(&buyer_session, &card_token("4000000000000341").await, "rate_us_express")).await;
    assert_eq!((st, body["status"].as_str()), (200, Some("requires_payment_method")), "{body}");
    let (st, _, body) = post_from(&s, &buyer, "/payments/confirm", &confirm_body(&buyer_session, &card_token("4242424242424242").await, "rate_us_express")).await;
    assert_eq!((st, body["status"].as_str()), (200, Some("succeeded")), "{body}");

    // 0 turns it off.
    let off = spawn_with(|c| c.payment_limit = 0).await;
    for _ in 0..60 {
        assert_eq!(post_from(&off, &tester, "/payments/initiate", &init).await.0, 200);
    }
}

/// The failed-attempt budget is taken before the processor is called (and given
/// back when the attempt did not fail), so attempts in flight together cannot
/// pass it: 30 concurrent declined confirms on 30 sessions with a budget of 5.
#[tokio::test]
async fn thirty_concurrent_declines_cannot_pass_a_budget_of_five() {
    // 100 initiates per hour per address, 5 failed payment attempts.
    let (s, init) = payment_limited(100).await;
    let tester = from("127.0.6.1");
    let mut bodies = Vec::new();
    for sid in initiates_from(&s, &tester, &init, 30).await {
        let body = confirm_body(&sid, &card_token("4000000000000341").await, "rate_us_express");
        bodies.push((sid, body));
    }
    let tasks: Vec<_> = bodies
        .iter()
        .map(|(_, body)| {
            let (s, c, body) = (s.clone(), tester.clone(), body.clone());
            tokio::spawn(async move { post_from(&s, &c, "/payments/confirm", &body).await })
        })
        .collect();
    let (mut declined, mut refused) = (0, 0);
    for t in tasks {
        let (st, _, body) = t.await.unwrap();
        match (st, body["status"].as_str(), body["code"].as_str()) {
            (200, Some("requires_payment_method"), _) => declined += 1,
            (429, _, Some("rate_limited")) => refused += 1,
            _ => panic!("unexpected answer {st}: {body}"),
        }
    }
    assert_eq!((declined, refused), (5, 25), "declines answered, confirms refused");
    let mut reached = 0;
    for (sid, _) in &bodies {
        reached += payment_intents(sid).await.len();
    }
    assert_eq!(reached, 5, "PaymentIntents created at the processor for the 30 sessions");

    // Given back when the attempt did not fail: 6 payments that succeed from another
    // address leave its whole budget; a decline after them is still answered.
    let buyer = from("127.0.6.2");
    for i in 0..6 {
        let (_, _, body) = post_from(&s, &buyer, "/payments/initiate", &init).await;
        let sid = body["sessionId"].as_str().unwrap();
        let (st, _, body) = post_from(&s, &buyer, "/payments/confirm", &confirm_body(sid, &card_token("4242424242424242").await, "rate_us_express")).await;
        assert_eq!((st, body["status"].as_str()), (200, Some("succeeded")), "payment {i}: {body}");
    }
    for i in 0..5 {
        let (_, _, body) = post_from(&s, &buyer, "/payments/initiate", &init).await;
        let sid = body["sessionId"].as_str().unwrap();
        let (st, _, body) = post_from(&s, &buyer, "/payments/confirm", &confirm_body(sid, &card_token("4000000000000341").await, "rate_us_express")).await;
        assert_eq!((st, body["status"].as_str()), (200, Some("requires_payment_method")), "decline {i} within the budget: {body}");
    }
}

/// The failed-attempt budget is given back only when the attempt's payment
/// succeeds (CONTRACT.md "Card testing"): 30 confirms, one after the other, on 30
/// sessions that each stop at 3-D Secure (`requires_action`, then abandoned) with a budget of
/// 5: 5 reach the processor, 25 are refused. A confirm that only reads back its
/// session's payment is no attempt (never refused); an abandoned challenge the
/// buyer finishes later gives its attempt back once its order is written.
#[tokio::test]
async fn thirty_abandoned_three_d_secure_attempts_cannot_pass_a_budget_of_five() {
    // 100 initiates per hour per address, 5 failed payment attempts.
    let (s, init) = payment_limited(100).await;
    let tester = from("127.0.7.1");
    let mut bodies = Vec::new();
    for sid in initiates_from(&s, &tester, &init, 30).await {
        let body = confirm_body(&sid, &card_token("4000002760003184").await, "rate_us_express");
        bodies.push((sid, body));
    }
    // One after the other: each answer is in before the next card is tried.
    let (mut challenged, mut refused) = (Vec::new(), 0);
    for (i, (_, body)) in bodies.iter().enumerate() {
        let (st, _, body) = post_from(&s, &tester, "/payments/confirm", body).await;
        match (st, body["status"].as_str(), body["code"].as_str()) {
            (200, Some("requires_action"), _) => challenged.push((i, body)),
            (429, _, Some("rate_limited")) => refused += 1,
            _ => panic!("unexpected answer {st}: {body}"),
        }
    }
    assert_eq!((challenged.len(), refused), (5, 25), "challenges answered, confirms refused");
    let mut reached = 0;
    for (sid, _) in &bodies {
        reached += payment_intents(sid).await.len();
    }
    assert_eq!(reached, 5, "PaymentIntents created at the processor for the 30 sessions");

    // Reading back a challenged payment is no attempt: answered, though the budget is spent.
    let (i, first) = &challenged[0];
    let (st, _, again) = post_from(&s, &tester, "/payments/confirm", &bodies[*i].1).await;
    assert_eq!((st, again["status"].as_str()), (200, Some("requires_action")), "{again}");
    // A new card on a refused session is still refused.
    let refused_ix: Vec<usize> = (0..bodies.len()).filter(|k| !challenged.iter().any(|(j, _)| j == k)).collect();
    let (st, _, body) = post_from(&s, &tester, "/payments/confirm", &bodies[refused_ix[0]].1).await;
    assert_eq!((st, body["code"].as_str()), (429, Some("rate_limited")), "{body}");
    // The buyer finishes the first challenge: paid, its order written, its attempt given back.
    common::pay::authenticate(first["paymentIntentId"].as_str().unwrap(), first["clientSecret"].as_str().unwrap(), true).await;
    let (st, _, paid) = post_from(&s, &tester, "/payments/confirm", &bodies[*i].1).await;
    assert_eq!((st, paid["status"].as_str()), (200, Some("succeeded")), "{paid}");
    let (st, _, body) = post_from(&s, &tester, "/payments/confirm", &bodies[refused_ix[1]].1).await;
    assert_eq!((st, body["status"].as_str()), (200, Some("requires_action")), "one attempt given back: {body}");
    let (st, _, body) = post_from(&s, &tester, "/payments/confirm", &bodies[refused_ix[2]].1).await;
    assert_eq!((st, body["code"].as_str()), (429, Some("rate_limited")), "only one: {body}");
}

/// IPv6 clients are counted per /64 (one host is given a whole /64 and can
/// use any address in it); an IPv4-mapped address is its IPv4 address.
#[test]
fn ipv6_clients_are_counted_per_64() {
    use cirrus_dev_server::middleware::{per_client, Counted, PaymentLimiter};
    let ip = |s: &str| Some(s.parse::<IpAddr>().unwrap());
    let limiter = PaymentLimiter::new(40); // 2 failed attempts per hour
    let failed = |a: &str| limiter.count(Counted::FailedPayment, ip(a), true);
    assert!(failed("2001:db8:1:2::1").is_ok() && failed("2001:db8:1:2:ffff:ffff:ffff:fffe").is_ok());
    let e = failed("2001:db8:1:2:abcd::9").unwrap_err();
    assert_eq!((e.code.status(), e.retry_after.is_some()), (429, true), "a third address of the same /64: {e:?}");
    assert!(failed("2001:db8:1:3::1").is_ok(), "the next /64 is another client");
    // Given back (the attempt did not fail): one more for the whole /64.
    limiter.give_back(Counted::FailedPayment, ip("2001:db8:1:2::77"));
    assert!(failed("2001:db8:1:2::78").is_ok());
    assert!(failed("2001:db8:1:2::79").is_err());
    // IPv4: per address; mapped into IPv6, the same address.
    assert!(failed("192.0.2.1").is_ok() && failed("::ffff:192.0.2.1").is_ok());
    assert!(failed("192.0.2.1").is_err() && failed("192.0.2.2").is_ok());
    assert_eq!(per_client("2001:db8:aaaa:bbbb:1:2:3:4".parse().unwrap()), "2001:db8:aaaa:bbbb::".parse::<IpAddr>().unwrap());
    assert_eq!(per_client("::ffff:10.1.2.3".parse().unwrap()), "10.1.2.3".parse::<IpAddr>().unwrap());
}
