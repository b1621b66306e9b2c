//! The race for the last units against a REAL localstripe: N buyers, K units,
//! a mix of 4242 and 3-D Secure cards, all concurrently (CONTRACT.md
//! "Payments": never sell what is gone, never charge for what is not sold).
//!
//! Prints the figures recorded in BENCHMARKS.md ("Reliability"):
//! `cargo test -p cirrus-dev-server --test race -- --nocapture`.

mod common;

use std::collections::HashSet;
use std::time::Instant;

use common::pay::{all_charges, hooks_server, initiate, new_session, orders, pay, payment_intents, pick_variant, stock};
use serde_json::Value;

const N: usize = 24;
const K: u64 = 3;

#[tokio::test]
async fn n_buyers_race_for_the_last_k_units() {
    let s = hooks_server().await;
    let (v, slug, before, _) = pick_variant(&s, K + 1, 0).await;
    // Leave exactly K units.
    let sid = initiate(&s, &v, before - K).await["sessionId"].as_str().unwrap().to_string();
    let (st, r) = pay(&s, &sid, "4242424242424242", "rate_us_express").await;
    assert_eq!((st, r["status"].as_str()), (200, Some("succeeded")), "{r}");
    assert_eq!(stock(&s, &slug, &v).await, K);
    let orders_before = orders(&s).await.len();

    // N sessions for one unit each, all started while the K units are there.
    let mut sessions = Vec::new();
    for _ in 0..N {
        sessions.push(new_session(&s, &v, 1).await);
    }
    let t0 = Instant::now();
    let mut tasks = Vec::new();
    for (i, sid) in sessions.iter().enumerate() {
        let card = if i % 2 == 0 { "4242424242424242" } else { "4000002760003184" };
        let (s2, sid) = (s.clone(), sid.clone());
        // 3-D Secure buyers all start at once; 4242 buyers join one every 50 ms, so some
        // 3-D Secure payments are authorized while 4242 buyers pay and either kind can win.
        let delay = std::time::Duration::from_millis(if i % 2 == 0 { (i as u64 / 2) * 50 } else { 0 });
        tasks.push(tokio::spawn(async move {
            tokio::time::sleep(delay).await;
            (card, pay(&s2, &sid, card, "rate_us_express").await)
        }));
    }
    let mut results = Vec::new();
    for t in tasks {
        results.push(t.await.unwrap());
    }
    let elapsed = t0.elapsed();

    let won: Vec<_> = results.iter().filter(|(_, (st, r))| *st == 200 && r["status"] == "succeeded").collect();
    let lost: Vec<_> = results.iter().filter(|(_, (st, r))| *st == 409 && r["code"] == "conflict").collect();
    assert_eq!(won.len() + lost.len(), N, "every buyer either paid or got 409: {results:?}");
    assert_eq!(won.len() as u64, K, "exactly K buyers paid");
    for (_, (_, r)) in &lost {
        assert!(r["error"].as_str().unwrap().contains("stock gone"), "{r}");
    }
    assert_eq!(stock(&s, &slug, &v).await, 0, "stock 0, never negative");
    let all_orders = orders(&s).await;
    assert_eq!(all_orders.len() - orders_before, K as usize, "exactly K orders");

    // In localstripe: each session's PaymentIntents; succeeded only with an order.
    let ordered: HashSet<String> = all_orders.iter().map(|o| o["paymentIntentId"].as_str().unwrap().to_string()).collect();
    let (mut succeeded, mut canceled, mut no_pi) = (0, 0, 0);
    let mut pi_ids = HashSet::new();
    for sid in &sessions {
        let pis = payment_intents(sid).await;
        no_pi += usize::from(pis.is_empty());
        for p in &pis {
            let id = p["id"].as_str().unwrap().to_string();
            match p["status"].as_str().unwrap() {
                "succeeded" => {
                    assert!(ordered.contains(&id), "succeeded PaymentIntent {id} has an order");
                    succeeded += 1;
                }
                "canceled" | "requires_payment_method" => canceled += 1,
                other => panic!("PaymentIntent {id} left {other}"),
            }
            pi_ids.insert(id);
        }
    }
    assert_eq!(succeeded, K as usize);
    let captured: Vec<Value> = all_charges()
        .await
        .into_iter()
        .filter(|c| c["payment_intent"].as_str().is_some_and(|p| pi_ids.contains(p)) && c["captured"] == true && c["status"] == "succeeded")
        .collect();
    assert_eq!(captured.len(), K as usize, "captured charges == orders");
    for c in &captured {
        assert!(ordered.contains(c["payment_intent"].as_str().unwrap()), "no captured charge without an order");
    }
    let three_ds_won = won.iter().filter(|(card, _)| card.starts_with("4000")).count();
    println!(
        "race: N={N} buyers ({} x 4242, {} x 3-D Secure) for K={K} units in {:.2} s: {} orders ({three_ds_won} via 3-D Secure), stock 0, \
         PaymentIntents {} succeeded / {canceled} cancelled or failed, {no_pi} buyers refused before a PaymentIntent, {} captured charges",
        N.div_ceil(2),
        N / 2,
        elapsed.as_secs_f64(),
        won.len(),
        succeeded,
        captured.len()
    );
}
