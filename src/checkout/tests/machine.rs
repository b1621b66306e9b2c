//! Transitions: the happy path, 3-D Secure, declines, lost confirms,
//! illegal steps, adapter failures, address and URL checks.

use super::*;
use crate::model::PaymentStatus::{Canceled, Processing, RequiresAction as Action, RequiresPaymentMethod, Succeeded as Paid};

fn attempt(s: &CheckoutState) -> Option<&PaymentAttempt> {
    match s {
        CheckoutState::Paying(p) => Some(&p.attempt),
        CheckoutState::RequiresAction(r) => Some(&r.attempt),
        CheckoutState::Confirming(c) => Some(&c.attempt),
        CheckoutState::Failed(f) => f.pending.as_ref(),
        _ => None,
    }
}

fn failure(s: &CheckoutState) -> &Failed {
    match s {
        CheckoutState::Failed(f) => f,
        other => panic!("not failed: {other:?}"),
    }
}

#[test]
fn happy_path_reaches_succeeded() {
    let mut s = initiated();
    assert_eq!(s.name(), "initiated");
    let body = s.update_request(&rate(), &address()).unwrap();
    assert_eq!((body.session_id.as_str(), body.shipping_rate_id.as_str()), ("ps_1", "rate_std"));
    s.shipping_chosen(choice(), update_answer("ps_1", 800)).unwrap();
    assert_eq!(s.session().unwrap().amount, 5298);
    assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
    assert!(!s.payment_unsettled());
    let confirm = s.begin_confirm("tok_1", URL).unwrap();
    assert_eq!((confirm.confirmation_token_id.as_str(), confirm.return_url.as_str()), ("tok_1", URL));
    assert_eq!(confirm.shipping_address, address());
    let a = attempt(&s).unwrap();
    assert!(a.confirm_in_flight);
    assert_eq!((a.payment_intent_id.as_ref(), a.last_status), (None, None));
    assert!(s.payment_unsettled() && !s.is_final());
    assert_eq!(s.confirmed(answer(Paid, None, None)).unwrap(), AfterConfirm::Done);
    let CheckoutState::Succeeded(done) = &s else { panic!("{s:?}") };
    assert_eq!(done.payment_intent_id, "pi_1");
    assert!(s.is_final());
    assert_eq!(s.resume_token(), None);
}

#[test]
fn illegal_steps_are_invalid_state_errors() {
    let idle = CheckoutState::Idle;
    assert_state_err(idle.pay_step(), "cannot pay in checkout state `idle`");
    assert_state_err(idle.update_request(&rate(), &address()), "cannot select shipping in checkout state `idle`");
    let mut i = initiated();
    assert_state_err(i.pay_step(), "`initiated`");
    assert_state_err(i.clone().begin_confirm("tok_1", URL), "cannot confirm");
    assert_state_err(i.initiated(items(), return_answer()), "cannot initiate");
    let mut s = paying("tok_1");
    s.confirmed(answer(Paid, None, None)).unwrap();
    let before = s.clone();
    assert_state_err(s.update_request(&rate(), &address()), "`succeeded`");
    assert_state_err(s.shipping_chosen(choice(), update_answer("ps_1", 800)), "`succeeded`");
    assert_state_err(s.pay_step(), "`succeeded`");
    assert_state_err(s.cancel(), "cannot cancel");
    assert_state_err(s.confirmed(answer(Paid, None, None)), "`succeeded`");
    assert_eq!(s, before, "refused steps change nothing");
    let mut c = chosen();
    assert_state_err(c.confirmed(answer(Paid, None, None)), "`shipping_chosen`");
    assert_state_err(c.confirm_failed(ErrorCode::Network, "x"), "`shipping_chosen`");
    assert_state_err(c.action_finished(), "`shipping_chosen`");
    assert_state_err(CheckoutState::Idle.adapter_failed("x"), "cannot report an adapter failure");
}

fn return_answer() -> InitiateResponse {
    InitiateResponse {
        processor: Processor::Stripe,
        session_id: "ps_2".into(),
        publishable_key: "pk".into(),
        amount: 1,
        currency: "USD".into(),
        breakdown: Breakdown { subtotal: 1, shipping: 0, tax: 0, total: 1 },
    }
}

#[test]
fn no_second_pay_while_a_confirm_is_in_flight() {
    let mut s = paying("tok_1");
    assert_state_err(s.pay_step(), "`paying`");
    // A different token can never be confirmed while tok_1 may be live.
    assert_arg_err(s.begin_confirm("tok_2", URL), "tok_1");
    assert_state_err(s.cancel(), "cannot cancel in checkout state `paying`");
    assert_state_err(s.update_request(&rate(), &address()), "`paying`");
    assert_state_err(s.action_finished(), "`paying`");
    // Resume after a reload: the same token, once more, with its return URL.
    assert_eq!(s.resume_token(), Some("tok_1"));
    let body = s.begin_confirm("tok_1", "").unwrap();
    assert_eq!(body.return_url, URL, "the attempt keeps its return URL");
}

#[test]
fn three_d_secure_then_success() {
    let mut s = paying("tok_1");
    assert_eq!(s.confirmed(answer(Action, Some("pi_1_secret"), None)).unwrap(), AfterConfirm::NextAction("pi_1_secret".into()));
    let CheckoutState::RequiresAction(r) = &s else { panic!("{s:?}") };
    assert_eq!(r.client_secret, "pi_1_secret");
    assert!(!r.attempt.confirm_in_flight);
    assert_eq!((r.attempt.payment_intent_id.as_deref(), r.attempt.last_status), (Some("pi_1"), Some(Action)));
    assert_eq!(s.resume_token(), Some("tok_1"));
    assert!(s.payment_unsettled());
    assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()), "pay carries the payment on (another tab's take-over)");
    assert_state_err(s.cancel(), "`requires_action`");
    assert_eq!(s.action_finished().unwrap(), "tok_1");
    s.begin_confirm("tok_1", URL).unwrap();
    s.confirmed(answer(Paid, None, None)).unwrap();
    assert_eq!(s.name(), "succeeded");
}

#[test]
fn failed_three_d_secure_releases_the_token() {
    let mut s = paying("tok_1");
    s.confirmed(answer(Action, Some("sec"), None)).unwrap();
    s.begin_confirm("tok_1", URL).unwrap();
    s.confirmed(answer(RequiresPaymentMethod, None, None)).unwrap();
    let f = failure(&s);
    assert_eq!((f.code, f.retryable, f.pending.is_none()), (CheckoutFailureCode::ActionFailed, true, true));
    assert_eq!(f.payment_intent_id.as_deref(), Some("pi_1"));
    assert!(f.message.contains("authentication"));
    assert!(!s.is_final());
    assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
    // A payment exists: its amount must not change under it.
    assert_state_err(s.update_request(&rate(), &address()), "cannot select shipping");
    s.begin_confirm("tok_new", URL).unwrap();
    assert_eq!(attempt(&s).unwrap().token, "tok_new");
}

#[test]
fn decline_then_retry_with_a_new_token() {
    let mut s = paying("tok_declined");
    s.confirmed(answer(RequiresPaymentMethod, None, Some("Your card was declined."))).unwrap();
    assert_eq!((failure(&s).code, failure(&s).message.as_str()), (CheckoutFailureCode::Declined, "Your card was declined."));
    let mut fallback = paying("tok_declined");
    fallback.confirmed(answer(RequiresPaymentMethod, None, Some("  "))).unwrap();
    assert!(failure(&fallback).message.contains("declined"));
    assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
    s.begin_confirm("tok_good", URL).unwrap();
    s.confirmed(answer(Paid, None, None)).unwrap();
    assert_eq!(s.name(), "succeeded");
}

fn confirming(s: &CheckoutState) -> &Confirming {
    match s {
        CheckoutState::Confirming(c) => c,
        other => panic!("not confirming: {other:?}"),
    }
}

#[test]
fn lost_confirm_is_an_unknown_outcome_confirmed_again_with_the_token() {
    let mut s = paying("tok_1");
    assert_eq!(s.confirm_failed(ErrorCode::Network, "connection reset").unwrap(), AfterConfirm::Unknown);
    let c = confirming(&s);
    assert_eq!((c.error_code, c.message.as_str()), (ErrorCode::Network, "connection reset"));
    assert_eq!((c.attempt.token.as_str(), c.attempt.confirm_in_flight), ("tok_1", false), "kept, not in flight");
    assert!(!s.is_final(), "an unknown outcome is not a failure");
    assert!(s.payment_unsettled());
    assert_state_err(s.cancel(), "`confirming`");
    assert_state_err(s.shipping_session(), "`confirming`");
    assert_eq!(s.resume_token(), Some("tok_1"), "resume() in any tab checks it again");
    assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    assert_arg_err(s.begin_confirm("tok_2", URL), "only that token");
    s.begin_confirm("tok_1", URL).unwrap();
    s.confirmed(answer(Paid, None, None)).unwrap();
    assert_eq!(s.name(), "succeeded");
}

#[test]
fn only_definitive_answers_end_an_attempt_every_other_error_is_unknown() {
    for (code, unknown) in [
        (ErrorCode::Conflict, false),
        (ErrorCode::NotFound, false),
        (ErrorCode::InvalidRequest, false),
        (ErrorCode::PayloadTooLarge, false),
        (ErrorCode::Unauthorized, true),
        (ErrorCode::Network, true),
        (ErrorCode::Timeout, true),
        (ErrorCode::Aborted, true),
        (ErrorCode::Decode, true),
        (ErrorCode::Http, true),
        (ErrorCode::Internal, true),
        (ErrorCode::RateLimited, true),
        (ErrorCode::ProcessorError, true),
    ] {
        let mut s = paying("tok_1");
        let after = s.confirm_failed(code, "x").unwrap();
        assert_eq!(s.name(), if unknown { "confirming" } else { "failed" }, "{code:?}");
        assert_eq!(after, if unknown { AfterConfirm::Unknown } else { AfterConfirm::Done }, "{code:?}");
        assert_eq!(s.is_final(), !unknown, "{code:?}");
        assert_eq!(s.pay_step().is_ok(), unknown, "{code:?}");
        assert_eq!(s.payment_unsettled(), unknown, "{code:?}");
    }
}

#[test]
fn a_final_failure_leaves_nothing_pending_so_a_new_checkout_may_start() {
    // Item 6 of issue 16: a final failure with a pending attempt made start()
    // refuse ("finish it with resume") while resume had nothing to finish.
    let mut s = paying("tok_1");
    s.confirm_failed(ErrorCode::Conflict, "stock gone").unwrap();
    let f = failure(&s);
    assert_eq!((f.retryable, f.pending.is_none(), f.error_code), (false, true, Some(ErrorCode::Conflict)));
    assert!(!s.payment_unsettled(), "start() is not refused");
    assert_eq!(s.resume_token(), None);
    // Every unsettled state is one resume() can act on.
    for s in samples() {
        assert_eq!(s.payment_unsettled(), s.resume_token().is_some(), "{}", s.name());
    }
}

#[test]
fn unusable_answers_are_unknown_outcomes() {
    let mut s = paying("tok_1");
    assert_eq!(s.confirmed(answer(Action, None, None)).unwrap(), AfterConfirm::Unknown);
    assert_eq!(confirming(&s).error_code, ErrorCode::Decode);
    assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
}

#[test]
fn unknown_outcomes_and_processing_are_confirmed_again_with_bounded_backoff() {
    let (unknown, processing) = (AfterConfirm::Unknown, AfterConfirm::Processing);
    let delays = |a: &AfterConfirm| (0..).map_while(|r| a.delay_ms(r)).collect::<Vec<_>>();
    assert_eq!(delays(&unknown), RECHECK_DELAYS_MS.to_vec());
    assert_eq!(delays(&processing), PROCESSING_DELAYS_MS.to_vec());
    for d in [delays(&unknown), delays(&processing)] {
        assert!(d.windows(2).all(|w| w[0] < w[1]), "backoff grows: {d:?}");
        assert!(d.iter().sum::<u32>() <= 45_000, "bounded: {d:?}");
    }
    assert_eq!(AfterConfirm::Done.delay_ms(0), None);
    assert_eq!(AfterConfirm::NextAction("s".into()).delay_ms(0), None);
}

#[test]
fn requires_action_taken_over_carries_the_same_payment_on() {
    // Another tab resumed the cart's checkout while it waits for 3-D Secure:
    // paying there confirms the same token (the server re-reads the payment
    // and asks for the action again); a new token is refused.
    let mut s = paying("tok_1");
    s.confirmed(answer(Action, Some("sec"), None)).unwrap();
    assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    assert_eq!(s.resume_token(), Some("tok_1"));
    assert_arg_err(s.begin_confirm("tok_2", URL), "only that token");
}

#[test]
fn processing_is_re_read_with_the_same_token() {
    let mut s = paying("tok_1");
    assert_eq!(s.confirmed(answer(Processing, None, None)).unwrap(), AfterConfirm::Processing);
    assert_eq!((s.name(), attempt(&s).unwrap().confirm_in_flight), ("paying", false));
    assert_state_err(s.confirmed(answer(Paid, None, None)), "no confirm is in flight");
    assert_state_err(s.confirm_failed(ErrorCode::Network, "x"), "no confirm is in flight");
    assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    assert_eq!(s.resume_token(), Some("tok_1"));
}

#[test]
fn canceled_payment_is_final() {
    let mut s = paying("tok_1");
    s.confirmed(answer(Canceled, None, None)).unwrap();
    assert_eq!((failure(&s).code, failure(&s).retryable), (CheckoutFailureCode::Canceled, false));
    assert_eq!(failure(&s).message, "the payment was canceled");
    assert!(s.is_final());
    assert_state_err(s.begin_confirm("tok_1", URL), "cannot confirm");
}

#[test]
fn adapter_failures() {
    // Before any confirm: nothing sent, retry collects a new token.
    let mut s = chosen();
    s.adapter_failed("Your card number is incomplete.").unwrap();
    assert_eq!((failure(&s).code, failure(&s).pending.is_none(), failure(&s).retryable), (CheckoutFailureCode::Adapter, true, true));
    assert_eq!(s.pay_step().unwrap(), PayStep::CollectToken);
    s.adapter_failed("again").unwrap();
    assert_eq!(failure(&s).message, "again");
    // Shipping may still change: no payment exists.
    s.update_request(&rate(), &address()).unwrap();
    s.cancel().unwrap();
    assert_eq!(s, CheckoutState::Cancelled(Cancelled { session_id: Some("ps_1".into()) }));
    // During a next action: the payment exists, so the attempt stays pending.
    let mut s = paying("tok_1");
    s.confirmed(answer(Action, Some("sec"), None)).unwrap();
    s.adapter_failed("").unwrap();
    assert_eq!((failure(&s).code, attempt(&s).unwrap().token.as_str()), (CheckoutFailureCode::ActionFailed, "tok_1"));
    assert_eq!(failure(&s).message, "the payment form reported an error");
    assert_eq!(s.pay_step().unwrap(), PayStep::Reconfirm("tok_1".into()));
    assert_state_err(s.adapter_failed("x"), "`failed`");
    // A failure after a declined payment keeps that payment's id.
    let mut d = paying("tok_1");
    d.confirmed(answer(RequiresPaymentMethod, None, None)).unwrap();
    d.adapter_failed("incomplete").unwrap();
    assert_eq!((failure(&d).code, failure(&d).payment_intent_id.as_deref()), (CheckoutFailureCode::Adapter, Some("pi_1")));
}

#[test]
fn a_currency_that_is_not_the_stores_is_refused_naming_both() {
    use crate::checkout::validate::same_currency;
    assert!(same_currency("USD", "USD", true).is_ok());
    let e = same_currency("EUR", "USD", true).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument);
    assert_eq!(e.message, "the cart is in EUR but the store sells in USD: make the cart with new Cart(store.defaultCurrency)");
    let e = same_currency("EUR", "USD", false).unwrap_err();
    assert_eq!(e.message, "currency is EUR but the store sells in USD: pass currency: store.defaultCurrency");
}

#[test]
fn address_is_checked_field_by_field() {
    let s = initiated();
    type Patch = fn(&mut ShippingAddress);
    let cases: [(Patch, &str); 13] = [
        (|a| a.email = "  ".into(), "shippingAddress.email is required"),
        (|a| a.first_name = String::new(), "shippingAddress.firstName is required"),
        (|a| a.last_name = String::new(), "shippingAddress.lastName is required"),
        (|a| a.address1 = String::new(), "shippingAddress.address1 is required"),
        (|a| a.city = String::new(), "shippingAddress.city is required"),
        (|a| a.postal_code = String::new(), "shippingAddress.postalCode is required"),
        (|a| a.email = "ada.example.com".into(), "shippingAddress.email is not an e-mail"),
        (|a| a.email = "ada @example.com".into(), "shippingAddress.email is not an e-mail"),
        (|a| a.country = "gb".into(), "shippingAddress.country must be an uppercase"),
        (|a| a.country = "GBR".into(), "shippingAddress.country must be an uppercase"),
        (|a| a.country = "ZZ".into(), "shippingAddress.country must be an uppercase"),
        (|a| a.city = "x".repeat(201), "shippingAddress.city is longer than 200"),
        (|a| a.phone = Some("1\u{0}2".into()), "shippingAddress.phone contains control"),
    ];
    for (patch, needle) in cases {
        let mut a = address();
        patch(&mut a);
        assert_arg_err(s.update_request(&rate(), &a), needle);
    }
    let mut blank = rate();
    blank.id = " ".into();
    assert_arg_err(s.update_request(&blank, &address()), "shipping rate id");
    let mut good = address();
    good.address2 = Some("Flat 2".into());
    good.email = "ada+shop@mail.example.co.uk".into();
    s.update_request(&rate(), &good).unwrap();
}

#[test]
fn inconsistent_server_answers_are_rejected() {
    let mut s = CheckoutState::Idle;
    let mut bad = return_answer();
    bad.amount = 2;
    assert_arg_err(s.initiated(items(), bad), "does not match");
    assert_arg_err(s.initiated(Vec::new(), return_answer()), "items must not be empty");
    assert_eq!(s, CheckoutState::Idle);
    let mut s = initiated();
    let e = s.shipping_chosen(choice(), update_answer("ps_2", 800)).unwrap_err();
    assert!(e.message.contains("ps_2"), "{e}");
    assert_arg_err(s.shipping_chosen(choice(), update_answer("ps_1", 801)), "does not match");
    assert_eq!(s.name(), "initiated");
}

#[test]
fn return_url_and_token_are_checked() {
    let s = chosen();
    for bad in ["", "/relative", "ftp://x", "https://", "https:// x"] {
        assert_arg_err(s.clone().begin_confirm("tok_1", bad), "returnUrl");
    }
    assert_arg_err(s.clone().begin_confirm(" ", URL), "token");
    s.clone().begin_confirm("tok_1", "http://127.0.0.1:18793/checkout?x=1").unwrap();
}

#[test]
fn cancel_before_payment() {
    let mut s = CheckoutState::Idle;
    s.cancel().unwrap();
    assert_eq!(s, CheckoutState::Cancelled(Cancelled { session_id: None }));
    assert_state_err(s.cancel(), "`cancelled`");
    let mut c = chosen();
    c.cancel().unwrap();
    assert_state_err(c.pay_step(), "`cancelled`");
    assert!(c.is_final());
}

#[test]
fn the_actions_of_every_state_are_the_rules_of_their_methods() {
    // (state, canSelectShipping, canPay, canCancel), in the order of `samples()`, by hand.
    let table = [
        ("idle", false, false, true),
        ("cancelled", false, false, false),
        ("initiated", true, false, true),
        ("shipping_chosen", true, true, true),
        ("paying", false, false, false),         // a confirm in flight
        ("requires_action", false, true, false), // pay() runs the challenge
        ("paying", false, true, false),          // `processing`: pay() reads it again
        ("confirming", false, true, false),
        ("failed", false, true, true), // declined: another card, but the payment exists (no new shipping)
        ("failed", true, true, true),  // the adapter failed: nothing was sent
        ("succeeded", false, false, false),
        ("cancelled", false, false, false),
        ("failed", false, false, true), // final (stock gone)
        ("failed", false, true, false), // 3-D Secure abandoned: that payment is pending
    ];
    let samples = samples();
    assert_eq!(samples.len(), table.len());
    for (s, (name, select, pay, cancel)) in samples.iter().zip(table) {
        assert_eq!(s.name(), name);
        let a = s.actions();
        assert_eq!((a.can_select_shipping, a.can_pay, a.can_cancel), (select, pay, cancel), "{s:?}");
        // Each is exactly whether its method is allowed.
        assert_eq!(s.update_request(&rate(), &address()).is_ok(), select, "{name}: selectShipping");
        assert_eq!(s.pay_step().is_ok(), pay, "{name}: pay");
        assert_eq!(s.clone().cancel().is_ok(), cancel, "{name}: cancel");
    }
    assert_eq!(
        serde_json::to_value(chosen().actions()).unwrap(),
        serde_json::json!({ "canSelectShipping": true, "canPay": true, "canCancel": true }),
        "the names a page reads"
    );
}
