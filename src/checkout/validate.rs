//! Checks of what the checkout accepts: amounts that add up, return URLs,
//! shipping addresses (before they are sent), and the session a stored state
//! carries.

use super::state::CheckoutSession;
use crate::error::{Error, Result};
use crate::model::{Breakdown, ShippingAddress};

/// Longest accepted value of any address field (characters).
pub const MAX_ADDRESS_FIELD: usize = 200;

/// Longest accepted return URL (bytes).
pub const MAX_RETURN_URL: usize = 2048;

/// `amount == breakdown.total == subtotal + shipping + tax`, not negative.
///
/// # Errors
/// `invalid_argument` "payment amount … does not match breakdown …".
pub fn check_amount(amount: i64, b: &Breakdown) -> Result<()> {
    let sum = b.subtotal.checked_add(b.shipping).and_then(|s| s.checked_add(b.tax));
    if amount < 0 || b.total != amount || sum != Some(b.total) {
        return Err(Error::invalid_argument(format!("payment amount {amount} does not match breakdown {} + {} + {} = {}", b.subtotal, b.shipping, b.tax, b.total)));
    }
    Ok(())
}

/// Check a return URL: absolute `http://` or `https://` with a host.
///
/// # Errors
/// `invalid_argument` naming `returnUrl`.
pub fn validate_return_url(url: &str) -> Result<()> {
    let rest = url.strip_prefix("https://").or_else(|| url.strip_prefix("http://"));
    let host = rest.map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
    if url.len() > MAX_RETURN_URL || url.chars().any(char::is_whitespace) || host.is_none_or(str::is_empty) {
        return Err(Error::invalid_argument(format!("returnUrl must be an absolute http(s) URL, got {:?}", truncate(url, 80))));
    }
    Ok(())
}

/// Check a shipping address before it is sent: the fields CONTRACT.md
/// requires are present and not blank, `email` looks like an address,
/// `country` is an uppercase ISO 3166-1 alpha-2 code of the table (`crate::country`), and no field is over
/// [`MAX_ADDRESS_FIELD`] characters.
///
/// # Errors
/// `invalid_argument` naming the first offending field (`shippingAddress.email`, …).
pub fn validate_address(a: &ShippingAddress) -> Result<()> {
    // Every member, named as on the wire: a member added to the type does not compile until
    // it is listed here, so none goes unchecked.
    let ShippingAddress { email, first_name, last_name, address1, address2, city, state, postal_code, country, phone } = a;
    let required =
        [("email", email), ("firstName", first_name), ("lastName", last_name), ("address1", address1), ("city", city), ("postalCode", postal_code), ("country", country)];
    for (name, value) in required {
        if value.trim().is_empty() {
            return Err(Error::invalid_argument(format!("shippingAddress.{name} is required")));
        }
    }
    let optional = [("address2", address2), ("state", state), ("phone", phone)];
    let all = required.into_iter().chain(optional.into_iter().filter_map(|(n, v)| v.as_ref().map(|v| (n, v))));
    for (name, value) in all {
        if value.chars().count() > MAX_ADDRESS_FIELD {
            return Err(Error::invalid_argument(format!("shippingAddress.{name} is longer than {MAX_ADDRESS_FIELD} characters")));
        }
        if value.chars().any(char::is_control) {
            return Err(Error::invalid_argument(format!("shippingAddress.{name} contains control characters")));
        }
    }
    if !email_shaped(&a.email) {
        return Err(Error::invalid_argument(format!("shippingAddress.email is not an e-mail address: {:?}", truncate(&a.email, 80))));
    }
    if !crate::country::is_country(&a.country) {
        return Err(Error::invalid_argument(format!("shippingAddress.country must be an uppercase ISO 3166-1 alpha-2 code like \"DE\", got {:?}", truncate(&a.country, 20))));
    }
    Ok(())
}

/// The currency being paid in is the store's (issue 27): a cart made in another currency is
/// refused before a payment session is asked for, naming both and the fix (the server would
/// refuse the session, later, with an HTTP 400). `cart`: the currency is a cart's (else the
/// `currency` of `Checkout.start`'s options).
///
/// # Errors
/// `invalid_argument` when the two differ.
pub fn same_currency(currency: &str, store: &str, cart: bool) -> Result<()> {
    if currency == store {
        return Ok(());
    }
    Err(Error::invalid_argument(if cart {
        format!("the cart is in {currency} but the store sells in {store}: make the cart with new Cart(store.defaultCurrency)")
    } else {
        format!("currency is {currency} but the store sells in {store}: pass currency: store.defaultCurrency")
    }))
}

/// `local@domain.tld`: one `@`, no whitespace, a non-empty local part, a
/// domain of non-empty dot-separated labels with at least one dot.
fn email_shaped(email: &str) -> bool {
    let Some((local, domain)) = email.split_once('@') else { return false };
    !local.is_empty()
        && local.len() <= 64
        && email.len() <= 254
        && !email.chars().any(|c| c.is_whitespace() || c.is_control())
        && !domain.bytes().any(|b| b == b'@')
        && domain.bytes().any(|b| b == b'.')
        && domain.split('.').all(|l| !l.is_empty() && !l.starts_with('-') && !l.ends_with('-'))
}

fn truncate(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        s.to_owned()
    } else {
        let mut t: String = s.chars().take(max).collect();
        t.push('…');
        t
    }
}

fn bad(path: &str, what: &str) -> Error {
    Error::invalid_argument(format!("{path}: {what}"))
}

/// The invariants of a session read back from storage: a known currency
/// code, amounts that add up, at least one item, each with a variant id and
/// a quantity of at least 1.
///
/// # Errors
/// `invalid_argument` naming the member (`session.currency`, `session.items`, …).
pub fn validate_session(s: &CheckoutSession) -> Result<()> {
    if s.session_id.trim().is_empty() {
        return Err(bad("session.sessionId", "must not be empty"));
    }
    if !(s.currency.len() == 3 && s.currency.bytes().all(|b| b.is_ascii_uppercase())) {
        return Err(bad("session.currency", "not an ISO 4217 code"));
    }
    check_amount(s.amount, &s.breakdown)?;
    if s.items.is_empty() {
        return Err(bad("session.items", "must not be empty"));
    }
    if s.items.iter().any(|i| i.variant_id.is_empty() || i.quantity == 0) {
        return Err(bad("session.items", "every item needs a variantId and a quantity of at least 1"));
    }
    Ok(())
}
