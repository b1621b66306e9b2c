//! The checks of `validate.rs` at their bounds (issue 41, mutation testing):
//! what is exactly at a limit is accepted, one past it refused.

use super::*;
use crate::checkout::validate::{check_amount, MAX_RETURN_URL};
use crate::checkout::{validate_address, MAX_ADDRESS_FIELD};

#[test]
fn an_amount_of_zero_is_accepted_and_a_negative_one_refused_even_when_it_adds_up() {
    check_amount(0, &Breakdown { subtotal: 0, shipping: 0, tax: 0, total: 0 }).unwrap();
    assert_arg_err(check_amount(-1, &Breakdown { subtotal: -1, shipping: 0, tax: 0, total: -1 }), "payment amount -1 does not match");
    assert_arg_err(check_amount(-500, &Breakdown { subtotal: 0, shipping: -500, tax: 0, total: -500 }), "payment amount -500");
}

#[test]
fn a_return_url_of_exactly_the_longest_length_is_accepted_and_one_byte_more_refused() {
    let head = "https://shop.example/";
    let longest = format!("{head}{}", "a".repeat(MAX_RETURN_URL - head.len()));
    assert_eq!(longest.len(), MAX_RETURN_URL);
    validate_return_url(&longest).unwrap();
    assert_arg_err(validate_return_url(&format!("{longest}a")), "returnUrl must be an absolute http(s) URL");
}

#[test]
fn an_address_field_of_exactly_the_longest_length_is_accepted_and_one_character_more_refused() {
    let mut a = address();
    a.city = "é".repeat(MAX_ADDRESS_FIELD);
    validate_address(&a).unwrap();
    a.city.push('x');
    assert_arg_err(validate_address(&a), "shippingAddress.city is longer than 200 characters");
}

#[test]
fn an_email_needs_a_dot_in_its_domain_and_labels_neither_empty_nor_hyphen_edged() {
    for bad in ["ada@localhost", "ada@-shop.example", "ada@shop-.example", "ada@shop..example", "ada@shop.example-"] {
        let mut a = address();
        a.email = bad.into();
        assert_arg_err(validate_address(&a), "shippingAddress.email is not an e-mail address");
    }
    let mut a = address();
    a.email = "ada@my-shop.example".into();
    validate_address(&a).unwrap();
}

#[test]
fn a_refused_value_is_quoted_whole_up_to_80_characters_and_cut_after() {
    let mut a = address();
    a.email = "e".repeat(80);
    let e = validate_address(&a).unwrap_err();
    assert!(e.message.ends_with(&format!("{:?}", "e".repeat(80))), "{e}");
    a.email = "e".repeat(81);
    let e = validate_address(&a).unwrap_err();
    assert!(e.message.ends_with(&format!("{:?}", format!("{}…", "e".repeat(80)))), "{e}");
}
