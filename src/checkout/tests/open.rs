//! Opening a checkout (`start`, `resume`; `src/checkout/protocol/open.rs`):
//! what a start decides before any session is opened.

use super::world::*;
use super::*;
use crate::checkout::protocol::{Effect, Operation, Tab};

/// Issue 41 (mutation testing): a start with no items is refused at once, as
/// `invalid_state` saying what to do: no currency asked, no lock, no session
/// opened on the server, nothing written.
#[test]
fn a_start_of_an_empty_cart_is_refused_before_anything_is_asked_or_opened() {
    let mut w = World::default();
    let mut tab = Tab::new(true);
    let e = refusal(w.go(&mut tab, Operation::Start { items: vec![], currency: "USD".into(), from_cart: true }));
    assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
    assert!(e.message.contains("the cart is empty: add an item before checkout"), "{e}");
    assert_eq!(w.log.len(), 1, "nothing but the refusal: {:?}", w.log);
    assert!(matches!(w.log[0], Effect::Done(Err(_))), "{:?}", w.log);
    assert_eq!(w.record, None);
    assert!(!tab.holds_lock());
}

/// Issue 41 (mutation testing), issue 27's rule: a cart in another currency
/// than the store's is refused once the store's currency is known, before
/// storage is probed, the lock taken or a session opened.
#[test]
fn a_start_in_another_currency_than_the_stores_is_refused_before_a_session() {
    for (from_cart, says) in [(true, "the cart is in EUR but the store sells in USD"), (false, "currency is EUR but the store sells in USD")] {
        let mut w = World::default();
        let mut tab = Tab::new(from_cart);
        let e = refusal(w.go(&mut tab, Operation::Start { items: items(), currency: "EUR".into(), from_cart }));
        assert_eq!(e.code, ErrorCode::InvalidArgument, "{e}");
        assert!(e.message.contains(says), "{e}");
        assert_eq!(w.count(|e| !matches!(e, Effect::StoreCurrency | Effect::Done(_))), 0, "only the store's currency asked: {:?}", w.log);
        assert_eq!(w.record, None);
        assert!(!tab.holds_lock());
    }
}

/// Issue 41 (mutation testing): a tab whose payment is unsettled (`confirming`:
/// no answer to any confirm) follows a record that was cleared meanwhile by
/// writing its copy back: a payment is never forgotten.
#[test]
fn following_a_cleared_record_puts_this_tabs_unsettled_payment_back() {
    let mut w = World::default();
    let mut a = shipped(&mut w);
    for _ in 0..4 {
        w.confirms.push_back(Err(crate::error::Error::new(ErrorCode::Network, "offline")));
    }
    assert_eq!(w.go(&mut a, pay()), Ok(crate::checkout::protocol::Outcome::State));
    assert_eq!(a.state().name(), "confirming");
    w.record = None;
    assert_eq!(w.go(&mut a, Operation::Follow), Ok(crate::checkout::protocol::Outcome::Unit));
    let back = w.record.as_ref().expect("written back");
    assert_eq!(&back.state, a.state());
    assert_eq!(a.revision(), Some(back.revision), "the tab's copy is the record written back");
}
