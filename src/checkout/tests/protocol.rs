//! The checkout protocol (issue 31) driven by the small world of
//! [`super::world`]: the decisions one tab makes against the shared record,
//! and the findings of issue 31 on the SDK's side (2, 3, 4, 6, the form
//! unmounted once over).

use super::world::*;
use super::*;
use crate::checkout::protocol::{Effect, Input, Operation, Outcome, Tab};
use crate::error::Error;

fn is_confirm(e: &Effect) -> bool {
    matches!(e, Effect::Confirm(_))
}

#[test]
fn a_checkout_runs_from_start_to_paid_with_each_write_a_new_revision() {
    let mut w = World::default();
    let mut tab = shipped(&mut w);
    assert_eq!(tab.shown(), Some(4498), "the form shows the chosen shipping's amount");
    assert_eq!(w.go(&mut tab, pay()), Ok(Outcome::State));
    assert_eq!(tab.state().name(), "succeeded");
    let revisions: Vec<u64> = w.log.iter().filter_map(|e| if let Effect::Write { record, .. } = e { Some(record.revision) } else { None }).collect();
    assert_eq!(revisions, vec![1, 2, 3, 4], "initiated, shipping_chosen, paying, succeeded");
    assert_eq!(w.record.as_ref().map(|r| r.revision), Some(4));
    // The in-flight record is written before the confirm goes out.
    let first_confirm = w.log.iter().position(is_confirm).unwrap();
    let last_write = w.log[..first_confirm].iter().rev().find(|e| matches!(e, Effect::Write { .. }));
    assert!(matches!(last_write, Some(Effect::Write { record, .. }) if record.state.name() == "paying"), "{last_write:?}");
    assert_eq!(w.count(|e| matches!(e, Effect::EmptyCart { .. })), 1);
    assert!(!tab.holds_lock(), "the lock goes once the checkout is over");
}

#[test]
fn a_checkout_that_ends_or_is_freed_unmounts_its_form() {
    let mut w = World::default();
    let mut tab = shipped(&mut w);
    w.go(&mut tab, pay()).unwrap();
    assert_eq!(w.count(|e| *e == Effect::Unmount), 1, "succeeded: unmounted");
    assert_eq!(tab.shown(), None);

    let mut w = World::default();
    let mut tab = shipped(&mut w);
    w.go(&mut tab, Operation::Cancel).unwrap();
    assert_eq!(w.count(|e| *e == Effect::Unmount), 1, "cancelled: unmounted");

    let mut w = World::default();
    let mut tab = shipped(&mut w);
    assert_eq!(w.go(&mut tab, Operation::Free), Ok(Outcome::Unit));
    assert_eq!(w.count(|e| *e == Effect::Unmount), 1, "freed: unmounted");
    assert_eq!(w.count(|e| *e == Effect::ReleaseLock), 1, "freed with nothing unsettled: the lock goes");
}

#[test]
fn storage_that_cannot_be_written_is_a_typed_error_before_any_session_is_opened() {
    // Finding 3 (issue 31): `setItem` throws.
    let mut w = World { full: true, ..World::default() };
    let mut tab = Tab::new(true, true);
    let e = refusal(w.go(&mut tab, start()));
    assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
    assert!(e.message.contains("storage refused to write this checkout's record (QuotaExceededError): no payment session was opened"), "{e}");
    assert!(!e.message.contains("cleared"), "{e}");
    assert_eq!(w.count(|e| matches!(e, Effect::Initiate(_))), 0, "no session opened");
}

#[test]
fn no_confirm_goes_out_unless_its_in_flight_record_was_written() {
    // Finding 3 (issue 31): storage fills up after shipping was chosen.
    let mut w = World::default();
    let mut tab = shipped(&mut w);
    w.full = true;
    let e = refusal(w.go(&mut tab, pay()));
    assert_eq!(e.code, ErrorCode::InvalidState);
    assert!(e.message.contains("the payment was not sent"), "{e}");
    assert_eq!(w.count(is_confirm), 0);
    assert_eq!(tab.state().name(), "shipping_chosen", "nothing changed");
    assert!(!tab.in_flight());
}

#[test]
fn a_late_answer_for_an_older_token_never_overwrites_a_newer_attempt() {
    // Finding 2 (issue 31).
    let mut w = World::default();
    let mut a = shipped(&mut w);
    // A confirms T1 and gets no answer: `confirming`, a re-confirm after a wait.
    w.confirms.push_back(Err(Error::new(ErrorCode::Network, "offline")));
    let mut a_pay = a.begin(pay());
    let e = w.run(&mut a, &mut a_pay, Input::None, |e| matches!(e, Effect::Sleep(_)));
    assert!(matches!(e, Effect::Sleep(_)), "{e:?}");
    assert_eq!(a.state().name(), "confirming");
    // B opens the record and confirms T1 again; its answer is slow.
    let mut b = opened(&mut w);
    let mut b_finish = b.begin(Operation::Finish);
    let e = w.run(&mut b, &mut b_finish, Input::None, is_confirm);
    assert!(is_confirm(&e), "{e:?}");
    // A's re-check: declined. A pays again with T2, whose confirm is in flight.
    w.confirms.push_back(Ok(answer(PaymentStatus::RequiresPaymentMethod, None, Some("declined"))));
    assert_eq!(w.run(&mut a, &mut a_pay, Input::None, |_| false), Effect::Done(Ok(Outcome::State)));
    assert_eq!(a.state().name(), "failed");
    w.tokens.push_back("tok_2".into());
    let mut a_again = a.begin(pay());
    assert!(is_confirm(&w.run(&mut a, &mut a_again, Input::None, is_confirm)));
    let t2 = w.record.clone().unwrap();
    assert_eq!(t2.state.resume_token(), Some("tok_2"));
    // B's late "declined" for T1 lands: it changes nothing.
    let late = Input::Confirmed(Ok(answer(PaymentStatus::RequiresPaymentMethod, None, Some("declined"))));
    assert_eq!(w.run(&mut b, &mut b_finish, late, |_| false), Effect::Done(Ok(Outcome::State)));
    assert_eq!(w.record, Some(t2.clone()), "the record still waits on T2");
    assert_eq!(b.state(), &t2.state, "B shows A's attempt");
    // T2's answer settles it.
    assert_eq!(w.run(&mut a, &mut a_again, Input::Confirmed(Ok(answer(PaymentStatus::Succeeded, None, None))), |_| false), Effect::Done(Ok(Outcome::State)));
    assert_eq!(w.record.as_ref().unwrap().state.name(), "succeeded");
}

#[test]
fn a_confirm_goes_out_only_for_the_amount_the_form_showed() {
    // Finding 4 (issue 31): tab B changes the rate while A collects the card.
    let mut w = World::default();
    let mut a = shipped(&mut w);
    let mut a_pay = a.begin(pay());
    let e = w.run(&mut a, &mut a_pay, Input::None, |e| *e == Effect::CollectToken);
    assert_eq!(e, Effect::CollectToken);
    let mut b = opened(&mut w);
    w.tax = 1200;
    w.go(&mut b, Operation::ShippingOptions { country: "GB".into() }).unwrap();
    w.go(&mut b, Operation::SelectShipping { rate_id: "rate_std".into(), address: address() }).unwrap();
    assert_eq!(w.record.as_ref().unwrap().state.session().unwrap().amount, 5698);
    // A's token was collected at 44.98.
    let before = w.log.len();
    let Effect::Done(r) = w.run(&mut a, &mut a_pay, Input::Token(Ok("tok_1".into())), |_| false) else { panic!() };
    let e = refusal(r);
    assert_eq!(e.code, ErrorCode::InvalidState);
    assert!(e.message.contains("the amount to pay changed to 5698 USD"), "{e}");
    assert_eq!(w.count(is_confirm), 0, "nothing charged");
    assert!(w.log[before..].contains(&Effect::UpdateAmount { amount: 5698, currency: "USD".into() }), "the form is told: {:?}", &w.log[before..]);
    assert_eq!(a.shown(), Some(5698));
    // Paying again confirms the amount shown now.
    assert_eq!(w.go(&mut a, pay()), Ok(Outcome::State));
    assert_eq!(a.state().name(), "succeeded");
}

#[test]
fn choosing_shipping_holds_the_lock() {
    let mut w = World::default();
    let _a = shipped(&mut w);
    let mut b = opened(&mut w);
    w.go(&mut b, Operation::ShippingOptions { country: "GB".into() }).unwrap();
    w.locked_elsewhere = true;
    let before = w.log.len();
    let e = refusal(w.go(&mut b, Operation::SelectShipping { rate_id: "rate_std".into(), address: address() }));
    assert!(e.message.contains("in progress in another tab"), "{e}");
    assert!(!w.log[before..].iter().any(|e| matches!(e, Effect::Update(_))), "no update sent");
}

#[test]
fn a_paid_checkout_of_bare_items_opens_as_the_order_on_reload() {
    // Finding 6 (issue 31).
    let mut w = World::default();
    let mut tab = Tab::new(true, false);
    w.go(&mut tab, Operation::Start { items: items(), currency: "USD".into(), from_cart: false }).unwrap();
    w.go(&mut tab, Operation::ShippingOptions { country: "GB".into() }).unwrap();
    w.go(&mut tab, Operation::SelectShipping { rate_id: "rate_std".into(), address: address() }).unwrap();
    w.go(&mut tab, pay()).unwrap();
    assert_eq!(w.count(|e| matches!(e, Effect::EmptyCart { .. })), 0, "no cart to empty");
    let mut reloaded = Tab::new(true, false);
    let r = w.go(&mut reloaded, Operation::Start { items: items(), currency: "USD".into(), from_cart: false });
    assert_eq!(r, Ok(Outcome::Opened { finish: false }));
    assert_eq!(reloaded.state().name(), "succeeded");
    assert_eq!(w.count(|e| matches!(e, Effect::Initiate(_))), 1, "no second session");
    assert_eq!(w.count(|e| matches!(e, Effect::Mount(_))), 1, "no second payment form");
}

#[test]
fn another_tabs_progress_is_followed_and_a_paid_record_empties_the_cart_once() {
    let mut w = World::default();
    let mut a = shipped(&mut w);
    let mut b = opened(&mut w);
    w.go(&mut a, pay()).unwrap();
    assert_eq!(w.go(&mut b, Operation::Follow), Ok(Outcome::Unit));
    assert_eq!(b.state().name(), "succeeded");
    assert_eq!(w.count(|e| matches!(e, Effect::EmptyCart { .. })), 2, "each tab's own cart object, once each");
    w.go(&mut b, Operation::Follow).unwrap();
    assert_eq!(w.count(|e| matches!(e, Effect::EmptyCart { .. })), 2, "once per checkout");
    assert!(b.shown().is_none(), "B's form unmounted too");
}

#[test]
fn a_start_that_finds_a_payment_made_meanwhile_finishes_it_instead_of_a_new_session() {
    let mut w = World::default();
    let mut tab = Tab::new(true, true);
    let mut op = tab.begin(start());
    assert_eq!(w.run(&mut tab, &mut op, Input::None, |e| *e == Effect::AcquireLock), Effect::AcquireLock);
    // Another tab (no lock API) paid meanwhile; its answer is unknown.
    let mut lost = paying("tok_1");
    lost.confirm_failed(ErrorCode::Network, "offline").unwrap();
    w.record = Some(crate::checkout::protocol::Record { revision: 3, state: lost });
    let r = w.run(&mut tab, &mut op, Input::Lock(Ok(())), |_| false);
    assert_eq!(r, Effect::Done(Ok(Outcome::Opened { finish: true })));
    assert_eq!(w.count(|e| matches!(e, Effect::Initiate(_))), 0, "no session beside an unsettled payment");
    assert_eq!(tab.state().name(), "confirming");
}

#[test]
fn nothing_awaited_comes_between_an_in_flight_write_and_its_confirm() {
    // sim-2 (issue 31): the form shows another amount than the record this tab adopts; telling it
    // (an await) must not split the write of the in-flight record from the confirm it allows.
    let mut w = World::default();
    let mut a = shipped(&mut w);
    let mut lost = chosen();
    lost.begin_confirm("tok_1", URL).unwrap();
    lost.confirm_failed(ErrorCode::Network, "offline").unwrap();
    let revision = w.record.as_ref().unwrap().revision + 1;
    w.record = Some(crate::checkout::protocol::Record { revision, state: lost });
    let before = w.log.len();
    assert_eq!(w.go(&mut a, pay()), Ok(Outcome::State));
    let run: Vec<&Effect> = w.log[before..].iter().filter(|e| !matches!(e, Effect::Emit(_) | Effect::FirstAnswer)).collect();
    let write = run.iter().position(|e| matches!(e, Effect::Write { record, .. } if record.state.name() == "paying")).unwrap();
    assert!(is_confirm(run[write + 1]), "{run:?}");
    let told = run.iter().position(|e| matches!(e, Effect::UpdateAmount { amount: 5298, .. })).expect("the form is told the amount");
    assert!(told > write + 1, "{run:?}");
}

#[test]
fn a_start_decides_again_once_it_holds_the_lock_never_a_session_for_items_paid_meanwhile() {
    // sim-3 (issue 31): a start frozen before its lock while another tab pays the same items.
    for from_cart in [false, true] {
        let mut w = World::default();
        let mut late = Tab::new(true, from_cart);
        let mut op = late.begin(Operation::Start { items: items(), currency: "USD".into(), from_cart });
        assert_eq!(w.run(&mut late, &mut op, Input::None, |e| *e == Effect::AcquireLock), Effect::AcquireLock);
        let mut other = Tab::new(true, from_cart);
        w.go(&mut other, Operation::Start { items: items(), currency: "USD".into(), from_cart }).unwrap();
        w.go(&mut other, Operation::ShippingOptions { country: "GB".into() }).unwrap();
        w.go(&mut other, Operation::SelectShipping { rate_id: "rate_std".into(), address: address() }).unwrap();
        w.go(&mut other, pay()).unwrap();
        let r = w.run(&mut late, &mut op, Input::Lock(Ok(())), |_| false);
        assert_eq!(r, Effect::Done(Ok(Outcome::Opened { finish: false })), "from_cart {from_cart}");
        assert_eq!(late.state().name(), "succeeded", "the order is shown");
        assert_eq!(w.count(|e| matches!(e, Effect::Initiate(_))), 1, "no second session (from_cart {from_cart})");
    }
}
