//! One tab's copy of the checkout (`protocol::tab`): what a page reads off
//! it (its revision, its lock, a payment running), an operation refused
//! while a payment runs, how a step's look at the stored record treats
//! another tab's or another checkout's record, and the wording of a refusal
//! after adopting another tab's progress.

use super::world::*;
use super::*;
use crate::checkout::protocol::{Effect, Input, Operation, Outcome, Record, Tab};

fn is_confirm(e: &Effect) -> bool {
    matches!(e, Effect::Confirm(_))
}

#[test]
fn a_tab_reads_the_revision_it_wrote_and_holds_the_lock_while_its_checkout_runs() {
    let mut w = World::default();
    let mut tab = Tab::new(true);
    assert_eq!(tab.revision(), None, "nothing read yet");
    w.go(&mut tab, start()).unwrap();
    assert_eq!(tab.revision(), Some(1), "the first write");
    let mut tab = shipped(&mut World::default());
    assert_eq!(tab.revision(), Some(2), "initiated, then shipping_chosen");
    assert!(tab.holds_lock(), "choosing shipping takes the cart's lock");
    assert!(!tab.in_flight(), "no payment running");
    let mut w = World::default();
    tab = shipped(&mut w);
    w.go(&mut tab, pay()).unwrap();
    assert_eq!(tab.revision(), w.record.as_ref().map(|r| r.revision));
    assert_eq!(tab.revision(), Some(4), "paying, then succeeded");
}

#[test]
fn cancel_or_select_shipping_while_a_payment_runs_in_this_tab_is_refused_and_one_confirm_goes_out() {
    let mut w = World::default();
    let mut tab = shipped(&mut w);
    // The form collects the card: the state is still `shipping_chosen`, only the run says a payment is under way.
    let mut paying = tab.begin(pay());
    let e = w.run(&mut tab, &mut paying, Input::None, |e| *e == Effect::CollectToken);
    assert_eq!(e, Effect::CollectToken);
    assert!(tab.in_flight(), "a payment runs: a second pay() joins it");
    let before = w.record.clone();
    assert_state_err(w.go(&mut tab, Operation::Cancel).map_err(|r| r.error().clone()), "cannot cancel while a payment is in progress");
    let select = Operation::SelectShipping { rate_id: "rate_std".into(), address: address() };
    assert_state_err(w.go(&mut tab, select).map_err(|r| r.error().clone()), "cannot select shipping while a payment is in progress");
    assert_eq!(w.record, before, "nothing written");
    assert_eq!(tab.state().name(), "shipping_chosen");
    let input = w.perform(&e);
    assert_eq!(w.run(&mut tab, &mut paying, input, |_| false), Effect::Done(Ok(Outcome::State)));
    assert_eq!(tab.state().name(), "succeeded");
    assert_eq!(w.count(is_confirm), 1, "one confirm");
    assert!(!tab.in_flight());
}

#[test]
fn a_record_rewritten_with_this_tabs_state_is_read_at_its_new_revision() {
    let mut w = World::default();
    let mut tab = shipped(&mut w);
    let state = tab.state().clone();
    w.record = Some(Record { revision: 7, state: state.clone() });
    let r = w.go(&mut tab, Operation::ShippingOptions { country: "GB".into() });
    assert!(matches!(r, Ok(Outcome::Options(_))), "{r:?}");
    assert_eq!(tab.revision(), Some(7));
    assert_eq!(tab.state(), &state, "nothing adopted");
}

#[test]
fn another_checkouts_record_at_this_tabs_revision_is_not_taken_for_this_tabs_copy() {
    // The record was cleared and another checkout started: its first write is revision 1 too.
    let mut w = World::default();
    let mut tab = Tab::new(true);
    w.go(&mut tab, start()).unwrap();
    let mut other = CheckoutState::default();
    let mut answer = initiate_answer();
    answer.session_id = "ps_2".into();
    other.initiated(items(), answer).unwrap();
    w.record = Some(Record { revision: 1, state: other });
    let e = refusal(w.go(&mut tab, Operation::ShippingOptions { country: "GB".into() }));
    assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
    assert!(e.message.contains("another tab replaced this checkout with a new one (session \"ps_2\")"), "{e}");
    assert_eq!(w.count(|e| matches!(e, Effect::Rates(_))), 0, "no rates asked for the old checkout");
}

#[test]
fn a_refusal_after_another_tab_cancelled_says_another_tab_moved_the_checkout_on() {
    // act (cancel) and look (pay) alike.
    for second in [Operation::Cancel, pay()] {
        let mut w = World::default();
        let mut a = shipped(&mut w);
        let mut b = opened(&mut w);
        w.go(&mut b, Operation::Cancel).unwrap();
        let e = refusal(w.go(&mut a, second));
        assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
        assert!(e.message.contains("another tab moved this checkout on to `cancelled`"), "{e}");
        assert_eq!(a.state().name(), "cancelled", "A shows B's cancel");
        assert_eq!(w.count(is_confirm), 0);
    }
}

#[test]
fn a_refusal_of_this_tabs_own_state_does_not_blame_another_tab() {
    // act (cancel) and look (pay) alike, on this tab's own cancelled checkout.
    for second in [Operation::Cancel, pay()] {
        let mut w = World::default();
        let mut a = shipped(&mut w);
        w.go(&mut a, Operation::Cancel).unwrap();
        let e = refusal(w.go(&mut a, second));
        assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
        assert!(!e.message.contains("another tab"), "{e}");
    }
}

/// Issue 41 (mutation testing): the lock is let go only by the tab that holds
/// it, and only once nothing is unsettled. A tab freed with its payment's
/// outcome unknown keeps it (until it goes away); a tab that never got it
/// (another tab held it) lets nothing go.
#[test]
fn only_a_tab_holding_the_lock_with_nothing_unsettled_lets_it_go() {
    let mut w = World::default();
    let mut a = shipped(&mut w);
    for _ in 0..4 {
        w.confirms.push_back(Err(crate::error::Error::new(ErrorCode::Network, "offline")));
    }
    w.go(&mut a, pay()).unwrap();
    assert_eq!(a.state().name(), "confirming");
    assert!(a.holds_lock());
    w.locked_elsewhere = true;
    let mut b = opened(&mut w);
    assert!(!b.holds_lock());
    let before = w.log.len();
    assert_eq!(w.go(&mut b, Operation::Free), Ok(Outcome::Unit));
    assert_eq!(w.go(&mut a, Operation::Free), Ok(Outcome::Unit));
    assert!(!w.log[before..].contains(&Effect::ReleaseLock), "{:?}", &w.log[before..]);
    assert!(a.holds_lock(), "unsettled: kept");
}
