//! The shared record's rules (issue 23): which record `start`/`resume`
//! open, what a stale tab may do, and that opening never waits on a person.

use super::*;
use crate::checkout::crosstab::{carries_on, moved_on, reconcile, same_items, Reconciled};
use crate::checkout::Run;
use crate::model::PaymentItem;

fn other_items() -> Vec<PaymentItem> {
    vec![PaymentItem { variant_id: "var_9".into(), quantity: 1 }]
}

fn succeeded() -> CheckoutState {
    let mut s = paying("tok_1");
    s.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
    s
}

fn confirming() -> CheckoutState {
    let mut s = paying("tok_1");
    s.confirm_failed(ErrorCode::Network, "the request failed").unwrap();
    s
}

fn requires_action() -> CheckoutState {
    let mut s = paying("tok_1");
    s.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
    s
}

#[test]
fn items_compare_in_any_order() {
    let mut reversed = items();
    reversed.reverse();
    assert!(same_items(&items(), &reversed));
    assert!(!same_items(&items(), &other_items()));
    assert!(!same_items(&items(), &items()[..1]));
}

#[test]
fn an_unsettled_payment_is_always_opened_whatever_the_cart_holds() {
    for s in [paying("tok_1"), confirming(), requires_action()] {
        for now in [Some(&items()[..]), Some(&other_items()[..]), Some(&[][..]), None] {
            assert!(carries_on(&s, now, true), "{} with {now:?}", s.name());
        }
    }
}

#[test]
fn a_live_checkout_without_a_payment_goes_on_only_for_the_same_items() {
    for s in [initiated(), chosen()] {
        assert!(carries_on(&s, Some(&items()), true));
        assert!(!carries_on(&s, Some(&other_items()), true), "a changed cart starts anew");
        assert!(!carries_on(&s, Some(&[]), true));
        assert!(carries_on(&s, None, true), "no cart named: the record as it is");
    }
}

#[test]
fn success_is_shown_while_the_cart_is_empty_and_never_blocks_the_next_order() {
    let done = succeeded();
    assert!(carries_on(&done, Some(&[]), true), "the emptied cart shows the order");
    assert!(!carries_on(&done, Some(&items()), true), "items in the cart again: the next order, even the same items");
    assert!(!carries_on(&done, Some(&other_items()), true));
}

#[test]
fn a_cancelled_or_finally_failed_checkout_is_over_once_items_are_known() {
    let mut cancelled = chosen();
    cancelled.cancel().unwrap();
    let mut refused = paying("tok_1");
    refused.confirm_failed(ErrorCode::Conflict, "stock gone").unwrap();
    for s in [cancelled, refused] {
        assert!(!carries_on(&s, Some(&items()), true), "{}", s.name());
        assert!(!carries_on(&s, Some(&[]), true), "{}", s.name());
    }
}

#[test]
fn a_stale_tab_adopts_what_another_tab_did_to_the_same_session() {
    assert_eq!(reconcile(&chosen(), Some(&chosen())).unwrap(), Reconciled::Current);
    assert_eq!(reconcile(&chosen(), Some(&confirming())).unwrap(), Reconciled::Adopt(confirming()));
    let mut cancelled = chosen();
    cancelled.cancel().unwrap();
    assert_eq!(reconcile(&chosen(), Some(&cancelled)).unwrap(), Reconciled::Adopt(cancelled));
}

#[test]
fn a_stale_cancel_is_refused_once_another_tab_paid() {
    // Tab B read `shipping_chosen`; tab A paid into `confirming`; B presses cancel.
    let stale = chosen();
    let Reconciled::Adopt(mut live) = reconcile(&stale, Some(&confirming())).unwrap() else { panic!("adopt") };
    let refusal = live.cancel().unwrap_err();
    let e = moved_on(&live, refusal);
    assert_eq!(e.code, ErrorCode::InvalidState);
    assert!(e.message.starts_with("another tab moved this checkout on to `confirming`: cannot cancel"), "{e}");
    // and a stale re-ship likewise
    assert_state_err(live.update_request(&rate(), &address()), "cannot select shipping in checkout state `confirming`");
}

#[test]
fn a_record_of_another_session_is_never_written_over() {
    let mut newer = initiated();
    if let CheckoutState::Initiated(i) = &mut newer {
        i.session.session_id = "ps_2".into();
    }
    assert_state_err(reconcile(&chosen(), Some(&newer)), "another tab replaced this checkout with a new one (session \"ps_2\")");
}

#[test]
fn a_cleared_record_stops_a_checkout_but_never_forgets_a_payment() {
    assert_state_err(reconcile(&chosen(), None), "record was cleared");
    for s in [paying("tok_1"), confirming(), requires_action()] {
        assert_eq!(reconcile(&s, None).unwrap(), Reconciled::Restore, "{}", s.name());
    }
    assert_eq!(reconcile(&CheckoutState::Idle, None).unwrap(), Reconciled::Current);
}

#[test]
fn opening_never_waits_on_a_person() {
    let action = AfterConfirm::NextAction("sec".into());
    assert!(action.runs_action(Run::Pay));
    assert!(!action.runs_action(Run::Resume), "start/resume stop at requires_action");
    for other in [AfterConfirm::Done, AfterConfirm::Processing, AfterConfirm::Unknown] {
        assert!(!other.runs_action(Run::Pay));
    }
}

#[test]
fn the_stored_records_unsettled_rule_is_the_states() {
    for s in samples() {
        let (retryable, pending) = match &s {
            CheckoutState::Failed(f) => (f.retryable, f.pending.is_some()),
            _ => (false, false),
        };
        assert_eq!(CheckoutState::unsettled_record(s.name(), retryable, pending), s.payment_unsettled(), "{}", s.name());
    }
}

#[test]
fn success_empties_what_was_paid_for_and_keeps_what_came_after() {
    use crate::checkout::crosstab::after_paying;
    // The cart holds exactly what was paid: every line goes.
    assert_eq!(after_paying(&items(), &items()), vec![("var_1".to_owned(), 0), ("var_2".to_owned(), 0)]);
    // Another tab added one more of var_1 and a new line meanwhile: those stay.
    let now = vec![
        PaymentItem { variant_id: "var_1".into(), quantity: 3 },
        PaymentItem { variant_id: "var_2".into(), quantity: 1 },
        PaymentItem { variant_id: "var_9".into(), quantity: 1 },
    ];
    assert_eq!(after_paying(&now, &items()), vec![("var_1".to_owned(), 1), ("var_2".to_owned(), 0)]);
    // Already emptied (another tab did it): nothing to do.
    assert!(after_paying(&[], &items()).is_empty());
}

#[test]
fn every_refusal_names_the_step_that_comes_next() {
    // pay() before selectShipping(): choose a shipping rate.
    let e = initiated().pay_step().unwrap_err();
    assert_eq!(
        e.message,
        "cannot pay in checkout state `initiated`; choose a shipping rate first: shippingOptions(country), then selectShipping(rateId, address)"
    );
    assert_state_err(CheckoutState::Idle.pay_step(), "; open a checkout with Checkout.resume(client, { adapter, cart }) ?? Checkout.start(client, { cart, adapter })");
    assert_state_err(requires_action().cancel(), "; the bank asks the buyer to confirm the payment: call pay() to run the challenge");
    assert_state_err(confirming().cancel(), "; the payment's outcome is not known yet: call pay() or Checkout.resume() to check again");
    assert_state_err(succeeded().pay_step(), "; this checkout is paid (see paymentIntentId)");
    // Every state has a hint, and every hint names a method the caller can call.
    for s in samples() {
        let hint = s.next_step();
        assert!(["pay(", "Checkout.start", "Checkout.resume", "selectShipping"].iter().any(|m| hint.contains(m)), "{}: {hint}", s.name());
    }
}

#[test]
fn a_paid_checkout_of_bare_items_is_shown_again_for_the_same_items() {
    // Finding 6 (issue 31): bare `items` are never emptied by the SDK, so the
    // same items after a reload are that order, not a new payment form.
    let done = succeeded();
    assert!(carries_on(&done, Some(&items()), false), "the same items: the order");
    let mut reversed = items();
    reversed.reverse();
    assert!(carries_on(&done, Some(&reversed), false), "in any order");
    assert!(!carries_on(&done, Some(&other_items()), false), "other items: the next order");
}
