//! Native tests of the checkout core: transitions ([`machine`]), the stored
//! form ([`stored`]). Shared fixtures here.

mod cart_once;
mod crosstab;
pub(super) mod kept;
mod machine;
mod open;
mod protocol;
mod sim;
mod stored;
mod tab;
mod validate;
mod world;

use super::*;
use crate::error::{ErrorCode, Result};
use crate::model::{Breakdown, ConfirmResponse, InitiateResponse, PaymentItem, PaymentStatus, Processor, ShippingAddress, ShippingRate, UpdateResponse};

pub(super) const URL: &str = "https://shop.example/return";

pub(super) fn address() -> ShippingAddress {
    ShippingAddress {
        email: "ada@example.com".into(),
        first_name: "Ada".into(),
        last_name: "Lovelace".into(),
        address1: "1 Analytical St".into(),
        city: "London".into(),
        postal_code: "N1 9GU".into(),
        country: "GB".into(),
        phone: Some("+44 1".into()),
        ..ShippingAddress::default()
    }
}

pub(super) fn rate() -> ShippingRate {
    ShippingRate {
        id: "rate_std".into(),
        name: "Standard".into(),
        price: "5.00".into(),
        delivery_description: "3-5 days".into(),
        delivery_timeframe_min: 3,
        delivery_timeframe_max: 5,
        min_order_price: None,
        max_order_price: Some("500.00".into()),
    }
}

/// [`rate`] to [`address`]: the choice `shipping_chosen` applies.
pub(super) fn choice() -> ShippingChoice {
    ShippingChoice { rate: rate(), address: address() }
}

pub(super) fn items() -> Vec<PaymentItem> {
    vec![PaymentItem { variant_id: "var_1".into(), quantity: 2 }, PaymentItem { variant_id: "var_2".into(), quantity: 1 }]
}

pub(super) fn initiated() -> CheckoutState {
    let mut s = CheckoutState::default();
    s.initiated(
        items(),
        InitiateResponse {
            processor: Processor::Stripe,
            session_id: "ps_1".into(),
            publishable_key: "pk_test_localstripe".into(),
            amount: 3998,
            currency: "USD".into(),
            breakdown: Breakdown { subtotal: 3998, shipping: 0, tax: 0, total: 3998 },
        },
    )
    .unwrap();
    s
}

pub(super) fn update_answer(session: &str, tax: i64) -> UpdateResponse {
    UpdateResponse {
        session_id: session.into(),
        amount: 5298,
        currency: "USD".into(),
        breakdown: Breakdown { subtotal: 3998, shipping: 500, tax, total: 5298 },
    }
}

pub(super) fn chosen() -> CheckoutState {
    let mut s = initiated();
    s.shipping_chosen(choice(), update_answer("ps_1", 800)).unwrap();
    s
}

pub(super) fn paying(token: &str) -> CheckoutState {
    let mut s = chosen();
    s.begin_confirm(token, URL).unwrap();
    s
}

pub(super) fn answer(status: PaymentStatus, secret: Option<&str>, error: Option<&str>) -> ConfirmResponse {
    ConfirmResponse {
        success: status == PaymentStatus::Succeeded,
        status,
        client_secret: secret.map(Into::into),
        payment_intent_id: Some("pi_1".into()),
        error: error.map(Into::into),
    }
}

pub(super) fn assert_state_err<T: core::fmt::Debug>(r: Result<T>, needle: &str) {
    let e = r.unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidState, "{e}");
    assert!(e.message.contains(needle), "{} !~ {needle}", e.message);
}

pub(super) fn assert_arg_err<T: core::fmt::Debug>(r: Result<T>, needle: &str) {
    let e = r.unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument, "{e}");
    assert!(e.message.contains(needle), "{} !~ {needle}", e.message);
}

/// One state of every kind (and the interesting variants of `failed`).
pub(super) fn samples() -> Vec<CheckoutState> {
    let mut cancelled_early = CheckoutState::default();
    cancelled_early.cancel().unwrap();
    let mut action = paying("tok_1");
    action.confirmed(answer(PaymentStatus::RequiresAction, Some("sec"), None)).unwrap();
    let mut processing = paying("tok_1");
    processing.confirmed(answer(PaymentStatus::Processing, None, None)).unwrap();
    let mut lost = paying("tok_1");
    lost.confirm_failed(ErrorCode::Timeout, "no answer").unwrap();
    let mut declined = paying("tok_1");
    declined.confirmed(answer(PaymentStatus::RequiresPaymentMethod, None, Some("Declined"))).unwrap();
    let mut adapter = chosen();
    adapter.adapter_failed("incomplete").unwrap();
    let mut done = action.clone();
    done.begin_confirm("tok_1", URL).unwrap();
    done.confirmed(answer(PaymentStatus::Succeeded, None, None)).unwrap();
    let mut cancelled = chosen();
    cancelled.cancel().unwrap();
    let mut refused = paying("tok_1");
    refused.confirm_failed(ErrorCode::Conflict, "stock gone").unwrap();
    let mut abandoned = action.clone();
    abandoned.adapter_failed("closed").unwrap();
    vec![
        CheckoutState::Idle,
        cancelled_early,
        initiated(),
        chosen(),
        paying("tok_1"),
        action,
        processing,
        lost,
        declined,
        adapter,
        done,
        cancelled,
        refused,
        abandoned,
    ]
}
