//! Abuse limits (issue #16, item 6): the rate limit is per client address
//! before it is per key (one visitor flooding with the storefront's public key
//! does not give every shopper 429; a confirm is counted per client only), and
//! a session accepts a bounded number of payment attempts (card testing).

mod common;

use std::net::IpAddr;

use common::pay::{card_token, confirm_body, initiate, payment_intents, pick_variant};
use common::{assert_error, spawn_with, Server};
use reqwest::{Client, Method, Response};

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
    let mut limited = 0;
    for _ in 0..40 {
        let r = send(&s, &flooder, Method::GET, "/store").await;
        if r.status() == 429 {
            limited += 1;
            if limited == 1 {
                assert!(r.headers().contains_key("retry-after"));
                assert_error(r, 429, "rate_limited", "per client").await;
            }
        }
    }
    assert!(limited >= 30, "the flooder is limited: {limited} of 40 refused");
    // Same key, another address: served.
    let shopper = from("127.0.0.3");
    for _ in 0..3 {
        assert_eq!(send(&s, &shopper, Method::GET, "/store").await.status(), 200, "another shopper is not limited by the flooder");
    }
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
    let sid = initiate(&s, &v, 1).await["sessionId"].as_str().unwrap().to_string();
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
