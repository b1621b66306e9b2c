//! Issue 41, finding 1: the paid quantities leave the cart exactly once per
//! paid checkout, whichever tabs follow it and whenever they wake. Every tab
//! that sees the payment succeed asks the cart (`Effect::EmptyCart` with the
//! checkout's session); the cart decides, by the session (`Cart::take_paid`).
//! The world's one cart stands for the saved form every tab's cart reads
//! before it changes (`src/wasm/cart.rs`).

use super::world::*;
use super::*;
use crate::cart::tests::{product, variant};
use crate::cart::Cart;
use crate::checkout::protocol::{Effect, Input, Operation, Outcome};

/// A cart holding [`items`] (2 × `var_1`, 1 × `var_2`).
fn world() -> World {
    let mut cart = Cart::new("USD").unwrap();
    for i in items() {
        add(&mut cart, &i.variant_id, i.quantity);
    }
    World { cart: Some(cart), ..World::default() }
}

fn add(cart: &mut Cart, v: &str, n: u32) {
    cart.add(&product(&format!("prod_{v}"), vec![variant(v, "19.99", None, 9)]), v, n).unwrap();
}

/// The buyer adds `n` of `v` (in whichever tab: the cart is the saved one).
fn buyer_adds(w: &mut World, v: &str, n: u32) {
    add(w.cart.as_mut().unwrap(), v, n);
}

fn quantity(w: &World, v: &str) -> Option<u32> {
    w.cart.as_ref().unwrap().line(v).map(|l| l.quantity)
}

#[test]
fn a_tab_holding_the_checkout_open_adopts_the_paid_record_and_leaves_the_mug_added_again() {
    let mut w = world();
    let mut a = shipped(&mut w);
    let mut b = opened(&mut w);
    assert_eq!(w.go(&mut a, pay()), Ok(Outcome::State));
    assert!(w.cart.as_ref().unwrap().is_empty(), "A took the paid items out");
    buyer_adds(&mut w, "var_1", 1);
    let _ = w.go(&mut b, pay());
    assert_eq!(b.state().name(), "succeeded", "B adopted the paid record");
    assert_eq!(quantity(&w, "var_1"), Some(1), "the unit added after the payment stays");
    assert_eq!(w.count(|e| matches!(e, Effect::EmptyCart { session, .. } if session == "ps_1")), 2, "each tab asks, with the checkout's session");
}

#[test]
fn a_processing_payment_finished_by_another_tab_leaves_the_cart_once_whoever_re_reads_it() {
    let mut w = world();
    let mut a = shipped(&mut w);
    w.confirms.push_back(Ok(answer(PaymentStatus::Processing, None, None)));
    let mut a_pay = a.begin(pay());
    assert!(matches!(w.run(&mut a, &mut a_pay, Input::None, |e| matches!(e, Effect::Sleep(_))), Effect::Sleep(_)));
    let mut b = opened(&mut w);
    assert_eq!(w.go(&mut b, Operation::Finish), Ok(Outcome::State));
    assert_eq!(b.state().name(), "succeeded");
    assert!(w.cart.as_ref().unwrap().is_empty(), "B shows the order and takes the paid items out");
    buyer_adds(&mut w, "var_1", 1);
    // A wakes: its re-read finds the paid record, and so does every later one.
    assert_eq!(w.run(&mut a, &mut a_pay, Input::None, |_| false), Effect::Done(Ok(Outcome::State)));
    assert_eq!(a.state().name(), "succeeded");
    w.go(&mut a, Operation::Follow).unwrap();
    w.go(&mut b, Operation::Follow).unwrap();
    assert_eq!(quantity(&w, "var_1"), Some(1), "the mug added again stays");
}

#[test]
fn a_unit_added_during_the_payment_stays_when_both_tabs_hear_it_succeeded() {
    let mut w = world();
    let mut a = shipped(&mut w);
    let mut a_pay = a.begin(pay());
    assert!(matches!(w.run(&mut a, &mut a_pay, Input::None, |e| matches!(e, Effect::Confirm(_))), Effect::Confirm(_)));
    buyer_adds(&mut w, "var_1", 1);
    let mut b = opened(&mut w);
    assert_eq!(w.go(&mut b, Operation::Finish), Ok(Outcome::State));
    let landed = Input::Confirmed(Ok(answer(PaymentStatus::Succeeded, None, None)));
    assert_eq!(w.run(&mut a, &mut a_pay, landed, |_| false), Effect::Done(Ok(Outcome::State)));
    assert_eq!((a.state().name(), b.state().name()), ("succeeded", "succeeded"));
    assert_eq!(quantity(&w, "var_1"), Some(1), "3 in the cart, 2 paid: one unit remains");
    assert_eq!(quantity(&w, "var_2"), None);
}

#[test]
fn storage_refusing_the_paid_write_then_another_tab_finishing_the_payment_leaves_the_cart_once() {
    let mut w = world();
    let mut a = shipped(&mut w);
    let mut a_pay = a.begin(pay());
    assert!(matches!(w.run(&mut a, &mut a_pay, Input::None, |e| matches!(e, Effect::Confirm(_))), Effect::Confirm(_)));
    w.full = true;
    let landed = Input::Confirmed(Ok(answer(PaymentStatus::Succeeded, None, None)));
    let _ = w.run(&mut a, &mut a_pay, landed, |_| false);
    w.full = false;
    buyer_adds(&mut w, "var_1", 1);
    let mut b = opened(&mut w);
    let _ = w.go(&mut b, Operation::Finish);
    assert_eq!(b.state().name(), "succeeded", "the next tab finished the payment");
    w.go(&mut a, Operation::Follow).unwrap();
    assert_eq!(quantity(&w, "var_1"), Some(1), "3 in the cart, 2 paid, taken out once: {:?}", w.cart);
    assert_eq!(quantity(&w, "var_2"), None);
}
