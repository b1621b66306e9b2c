//! Shipping rates and payments (CONTRACT.md "POST /shipping-rates", "Payments").
//!
//! Money is computed here from the integer cents in SQLite, independently of
//! the SDK's money code. Tax = round_half_up((subtotal + shipping) * bps / 10000).

use std::collections::{HashMap, HashSet};

use axum::extract::State as AxState;
use cirrus_storefront::model::{
    Breakdown, ConfirmRequest, ConfirmResponse, InitiateRequest, InitiateResponse, PaymentItem, PaymentStatus,
    Processor, ShippingAddress, ShippingRate, ShippingRatesRequest, ShippingRatesResponse, UpdateRequest,
    UpdateResponse, VariantRates,
};
use rusqlite::{params, Connection, OptionalExtension};
use serde_json::Value;

use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::stripe::StripeError;
use crate::util::{apply_bps_half_up, format_cents, now_iso, random_hex};
use cirrus_storefront::model::ServerErrorCode;
use crate::State;

const MAX_VARIANT_IDS: usize = 250;
const MAX_ITEMS: usize = 250;

struct Rate {
    id: String,
    country: String,
    name: String,
    price: i64,
    description: String,
    days: (u32, u32),
    min: Option<i64>,
    max: Option<i64>,
}

impl Rate {
    fn wire(&self) -> ShippingRate {
        ShippingRate {
            id: self.id.clone(),
            name: self.name.clone(),
            price: format_cents(self.price),
            delivery_description: self.description.clone(),
            delivery_timeframe_min: self.days.0,
            delivery_timeframe_max: self.days.1,
            min_order_price: self.min.map(format_cents),
            max_order_price: self.max.map(format_cents),
        }
    }
    fn serves_cents(&self, total: i64) -> bool {
        self.min.is_none_or(|m| m <= total) && self.max.is_none_or(|m| total <= m)
    }
}

const RATE_COLS: &str = "r.id, r.country, r.name, r.price_cents, r.description, r.days_min, r.days_max, r.min_order_cents, r.max_order_cents";

fn rate_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Rate> {
    Ok(Rate {
        id: r.get(0)?,
        country: r.get(1)?,
        name: r.get(2)?,
        price: r.get(3)?,
        description: r.get(4)?,
        days: (r.get(5)?, r.get(6)?),
        min: r.get(7)?,
        max: r.get(8)?,
    })
}

fn check_country(field: &str, c: &str) -> ApiResult<()> {
    if c.len() == 2 && c.bytes().all(|b| b.is_ascii_uppercase()) {
        Ok(())
    } else {
        Err(ApiError::bad_request(format!("{field}: must be an ISO 3166-1 alpha-2 code in uppercase, got {c:?}")))
    }
}

/// Profile of an ACTIVE product's variant, or 404.
fn variant_profile(c: &Connection, variant_id: &str) -> ApiResult<String> {
    c.prepare_cached("SELECT p.profile_id FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?1 AND p.status = 'ACTIVE'")?
        .query_row([variant_id], |r| r.get(0))
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("no variant with id {variant_id:?}")))
}

fn profile_rates(c: &Connection, profile: &str, country: &str) -> ApiResult<Vec<Rate>> {
    let mut stmt = c.prepare_cached(&format!(
        "SELECT {RATE_COLS} FROM profile_rates pr JOIN shipping_rates r ON r.id = pr.rate_id WHERE pr.profile_id = ?1 AND r.country = ?2 ORDER BY r.position"
    ))?;
    let rates = stmt.query_map([profile, country], rate_row)?.collect::<Result<Vec<_>, _>>()?;
    Ok(rates)
}

/// `POST /shipping-rates`
///
/// # Errors
/// 400 for a bad body, 404 for an unknown variant.
pub async fn shipping_rates(AxState(state): AxState<State>, Json(req): Json<ShippingRatesRequest>) -> ApiResult<axum::Json<ShippingRatesResponse>> {
    if req.variant_ids.is_empty() || req.variant_ids.len() > MAX_VARIANT_IDS {
        return Err(ApiError::bad_request(format!("variantIds: must hold 1 to {MAX_VARIANT_IDS} ids, got {}", req.variant_ids.len())));
    }
    check_country("country", &req.country)?;
    if let Some(t) = req.order_total {
        if !t.is_finite() || t < 0.0 {
            return Err(ApiError::bad_request("orderTotal: must be a number >= 0"));
        }
    }
    state
        .db(move |c| {
            let mut by_profile: HashMap<String, Vec<ShippingRate>> = HashMap::new();
            let mut out = Vec::with_capacity(req.variant_ids.len());
            for vid in &req.variant_ids {
                let profile = variant_profile(c, vid)?;
                if !by_profile.contains_key(&profile) {
                    let rates = profile_rates(c, &profile, &req.country)?
                        .into_iter()
                        // Bounds are exact cents; `cents as f64 / 100.0` is the double nearest the
                        // decimal bound, the same double a client gets by parsing it.
                        .filter(|r| {
                            req.order_total.is_none_or(|t| {
                                r.min.is_none_or(|m| m as f64 / 100.0 <= t) && r.max.is_none_or(|m| t <= m as f64 / 100.0)
                            })
                        })
                        .map(|r| r.wire())
                        .collect();
                    by_profile.insert(profile.clone(), rates);
                }
                out.push(VariantRates { variant_id: vid.clone(), rates: by_profile[&profile].clone(), profile_id: profile });
            }
            Ok(axum::Json(ShippingRatesResponse { variant_rates: out }))
        })
        .await
}

// ------------------------------------------------------------------ sessions

struct Session {
    id: String,
    currency: String,
    items: Vec<PaymentItem>,
    subtotal: i64,
    payment_intent_id: Option<String>,
    token: Option<String>,
    attempt: i64,
    completed: bool,
    /// The PaymentIntent whose authorization holds the session's stock (taken, not yet sold).
    stock_pi: Option<String>,
    /// `stock_gone` once a payment was cancelled (or refunded) because the stock went elsewhere.
    outcome: Option<String>,
}

fn load_session(c: &Connection, id: &str) -> ApiResult<Session> {
    c.prepare_cached("SELECT id, currency, items, subtotal, payment_intent_id, token, attempt, completed, stock_pi, outcome FROM sessions WHERE id = ?1")?
        .query_row([id], |r| {
            let items: String = r.get(2)?;
            Ok(Session {
                id: r.get(0)?,
                currency: r.get(1)?,
                items: serde_json::from_str(&items).unwrap_or_default(),
                subtotal: r.get(3)?,
                payment_intent_id: r.get(4)?,
                token: r.get(5)?,
                attempt: r.get(6)?,
                completed: r.get::<_, i64>(7)? != 0,
                stock_pi: r.get(8)?,
                outcome: r.get(9)?,
            })
        })
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("no payment session with id {id:?}")))
}

/// `subtotal + shipping + tax`, checked: an overflow is a 400, never a wrapped amount.
///
/// # Errors
/// 400 when the sum does not fit.
pub fn order_total(subtotal: i64, shipping: i64, tax: i64) -> ApiResult<i64> {
    subtotal
        .checked_add(shipping)
        .and_then(|t| t.checked_add(tax))
        .ok_or_else(|| ApiError::bad_request("items: order total too large"))
}

fn breakdown(subtotal: i64, shipping: i64, tax: i64) -> ApiResult<Breakdown> {
    Ok(Breakdown { subtotal, shipping, tax, total: order_total(subtotal, shipping, tax)? })
}

/// Checks every item's variant exists (404), is in stock for the quantity (409); returns the subtotal.
fn price_items(c: &Connection, items: &[PaymentItem]) -> ApiResult<i64> {
    let mut subtotal: i64 = 0;
    for (i, item) in items.iter().enumerate() {
        let row: Option<(i64, i64)> = c
            .prepare_cached("SELECT v.price_cents, v.stock FROM variants v JOIN products p ON p.id = v.product_id WHERE v.id = ?1 AND p.status = 'ACTIVE'")?
            .query_row([&item.variant_id], |r| Ok((r.get(0)?, r.get(1)?)))
            .optional()?;
        let (price, stock) = row.ok_or_else(|| ApiError::not_found(format!("items[{i}].variantId: no variant with id {:?}", item.variant_id)))?;
        if i64::from(item.quantity) > stock {
            return Err(ApiError::conflict(format!(
                "items[{i}].quantity: {} requested but only {stock} in stock for variant {}",
                item.quantity, item.variant_id
            )));
        }
        subtotal = price
            .checked_mul(i64::from(item.quantity))
            .and_then(|line| subtotal.checked_add(line))
            .ok_or_else(|| ApiError::bad_request("items: order total too large"))?;
    }
    Ok(subtotal)
}

fn store_currency(c: &Connection) -> ApiResult<String> {
    let raw: String = c.query_row("SELECT value FROM meta WHERE key = 'store'", [], |r| r.get(0))?;
    let v: Value = serde_json::from_str(&raw).map_err(ApiError::internal)?;
    Ok(v["defaultCurrency"].as_str().unwrap_or("USD").to_string())
}

/// `POST /payments/initiate`
///
/// # Errors
/// 400 for a bad body, 404 for an unknown variant, 409 when stock is short.
pub async fn initiate(AxState(state): AxState<State>, Json(req): Json<InitiateRequest>) -> ApiResult<axum::Json<InitiateResponse>> {
    if req.items.is_empty() || req.items.len() > MAX_ITEMS {
        return Err(ApiError::bad_request(format!("items: must hold 1 to {MAX_ITEMS} items, got {}", req.items.len())));
    }
    let mut seen = HashSet::new();
    for (i, item) in req.items.iter().enumerate() {
        if item.quantity == 0 {
            return Err(ApiError::bad_request(format!("items[{i}].quantity: must be at least 1")));
        }
        if !seen.insert(item.variant_id.as_str()) {
            return Err(ApiError::bad_request(format!("items[{i}].variantId: duplicate variant {:?}", item.variant_id)));
        }
    }
    let publishable_key = state.config.stripe_publishable_key.clone();
    state
        .db(move |c| {
            let currency = store_currency(c)?;
            if req.currency != currency {
                return Err(ApiError::bad_request(format!("currency: must be the store currency {currency}, got {:?}", req.currency)));
            }
            let subtotal = price_items(c, &req.items)?;
            let id = format!("cs_{}", random_hex(16));
            let items = serde_json::to_string(&req.items).map_err(ApiError::internal)?;
            c.execute(
                "INSERT INTO sessions (id, currency, items, subtotal, shipping, tax, created_at) VALUES (?1, ?2, ?3, ?4, 0, 0, ?5)",
                params![id, currency, items, subtotal, now_iso()],
            )?;
            Ok(axum::Json(InitiateResponse {
                processor: Processor::Stripe,
                session_id: id,
                publishable_key,
                amount: subtotal,
                currency,
                breakdown: breakdown(subtotal, 0, 0)?,
            }))
        })
        .await
}

fn check_address(a: &ShippingAddress) -> ApiResult<()> {
    // The same definition of a valid address the SDK checks before sending, so client and
    // server cannot disagree on what is accepted.
    cirrus_storefront::checkout::validate_address(a).map_err(|e| ApiError::bad_request(e.message))
}

/// Applies a shipping choice to a session (validating it); returns (shipping, tax).
fn apply_shipping(c: &Connection, s: &Session, rate_id: &str, a: &ShippingAddress) -> ApiResult<(i64, i64)> {
    check_address(a)?;
    let rate = c
        .prepare_cached(&format!("SELECT {RATE_COLS} FROM shipping_rates r WHERE r.id = ?1"))?
        .query_row([rate_id], rate_row)
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("shippingRateId: no shipping rate with id {rate_id:?}")))?;
    if rate.country != a.country {
        return Err(ApiError::bad_request(format!(
            "shippingRateId: rate {rate_id} ships to {}, not to shippingAddress.country {}",
            rate.country, a.country
        )));
    }
    for item in &s.items {
        let profile = variant_profile(c, &item.variant_id)?;
        let offered: bool = c
            .prepare_cached("SELECT EXISTS (SELECT 1 FROM profile_rates WHERE profile_id = ?1 AND rate_id = ?2)")?
            .query_row([&profile, rate_id], |r| r.get(0))?;
        if !offered {
            return Err(ApiError::bad_request(format!("shippingRateId: rate {rate_id} is not offered for variant {}", item.variant_id)));
        }
    }
    if !rate.serves_cents(s.subtotal) {
        return Err(ApiError::bad_request(format!(
            "shippingRateId: rate {rate_id} does not apply to a subtotal of {}",
            format_cents(s.subtotal)
        )));
    }
    let bps: i64 = c
        .prepare_cached("SELECT bps FROM tax_rates WHERE country = ?1")?
        .query_row([&a.country], |r| r.get(0))
        .optional()?
        .unwrap_or(0);
    let taxed = s.subtotal.checked_add(rate.price).ok_or_else(|| ApiError::bad_request("items: order total too large"))?;
    let tax = apply_bps_half_up(taxed, bps);
    order_total(s.subtotal, rate.price, tax)?;
    c.execute(
        "UPDATE sessions SET shipping = ?2, tax = ?3, rate_id = ?4, address = ?5 WHERE id = ?1",
        params![s.id, rate.price, tax, rate_id, serde_json::to_string(a).map_err(ApiError::internal)?],
    )?;
    Ok((rate.price, tax))
}

/// `POST /payments/update`
///
/// # Errors
/// 400 for a bad body or a rate that does not serve the order, 404 for an
/// unknown session or rate, 409 for a completed session or one whose payment
/// awaits authentication, 502 if the processor cannot be asked about it.
pub async fn update(AxState(state): AxState<State>, Json(req): Json<UpdateRequest>) -> ApiResult<axum::Json<UpdateResponse>> {
    let _guard = state.lock_session(&req.session_id).await;
    let sid = req.session_id.clone();
    let session = state.db(move |c| load_session(c, &sid)).await?;
    if session.completed {
        return Err(ApiError::conflict("payment session is already completed"));
    }
    // A payment awaiting authentication (or done) fixes the amount: changing
    // shipping now would make the session disagree with what is charged. A failed
    // or never-confirmed one is cancelled first (and verified), so it cannot
    // complete later at the old amount.
    if let Some(pi_id) = &session.payment_intent_id {
        let pi = retrieve(&state, pi_id).await?;
        match status(&pi) {
            "canceled" => {}
            "requires_payment_method" | "requires_confirmation" => match cancel_verified(&state, &session, pi_id).await? {
                Verified::Canceled => {
                    let sid = session.id.clone();
                    // The next confirm starts a new attempt, whatever its token.
                    state.db(move |c| Ok(c.execute("UPDATE sessions SET token = NULL WHERE id = ?1", [&sid])?)).await?;
                }
                Verified::Moved(pi) => {
                    return Err(ApiError::conflict(format!("payment session has a payment in progress ({})", status(&pi))));
                }
            },
            st => return Err(ApiError::conflict(format!("payment session has a payment in progress ({st})"))),
        }
    }
    state
        .db(move |c| {
            let s = load_session(c, &req.session_id)?;
            let (shipping, tax) = apply_shipping(c, &s, &req.shipping_rate_id, &req.shipping_address)?;
            let b = breakdown(s.subtotal, shipping, tax)?;
            Ok(axum::Json(UpdateResponse { session_id: s.id, amount: b.total, currency: s.currency, breakdown: b }))
        })
        .await
}

// ------------------------------------------------------------------ confirm

/// A processor failure in the contract's words (502 `processor_error`); the
/// library's or the processor's own text goes to the log only.
fn processor_error(e: &StripeError) -> ApiError {
    eprintln!("processor call failed: {e}");
    match e {
        StripeError::Unreachable(_) => ApiError::processor("the payment processor is unreachable; try again"),
        StripeError::Api { status, .. } if *status >= 500 || *status == 429 => ApiError::processor("the payment processor failed; try again"),
        StripeError::Api { .. } => ApiError::processor("the payment processor refused the request"),
    }
}

fn status(pi: &Value) -> &str {
    pi["status"].as_str().unwrap_or("")
}

/// Why a payment needs a new payment method, in our words (never the processor's text).
fn decline_message(pi: &Value) -> &'static str {
    match pi["last_payment_error"]["code"].as_str() {
        Some("payment_intent_authentication_failure") => "card authentication failed; try again or use another card",
        Some("expired_card") => "the card has expired",
        Some("incorrect_cvc") => "the card's security code is incorrect",
        Some("card_declined" | "insufficient_funds" | "card_velocity_exceeded") => "the card was declined",
        _ => "the payment was not completed; use another payment method",
    }
}

/// A PaymentIntent as the confirm response reports it.
fn result_of(pi: &Value) -> ConfirmResponse {
    let status = match status(pi) {
        "succeeded" => PaymentStatus::Succeeded,
        "requires_action" => PaymentStatus::RequiresAction,
        "processing" | "requires_capture" => PaymentStatus::Processing,
        "canceled" => PaymentStatus::Canceled,
        _ => PaymentStatus::RequiresPaymentMethod,
    };
    let error = match status {
        PaymentStatus::RequiresPaymentMethod => Some(decline_message(pi).to_string()),
        PaymentStatus::Canceled => Some("the payment was canceled".to_string()),
        _ => None,
    };
    ConfirmResponse {
        success: status == PaymentStatus::Succeeded,
        status,
        client_secret: (status == PaymentStatus::RequiresAction).then(|| pi["client_secret"].as_str().unwrap_or("").to_string()),
        payment_intent_id: pi["id"].as_str().map(str::to_string),
        error,
    }
}

fn stock_gone() -> ApiError {
    ApiError::conflict("stock gone: the last units went to another buyer; this payment was cancelled and not charged")
}

async fn retrieve(state: &State, pi_id: &str) -> ApiResult<Value> {
    state.stripe.call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None).await.map_err(|e| processor_error(&e))
}

/// The outcome of cancelling a payment.
enum Verified {
    /// Re-read (or answered) as `canceled`: it can never be charged.
    Canceled,
    /// It moved on (authorized or captured) and must be settled instead.
    Moved(Value),
}

/// Cancels `pi_id` and makes sure it is cancelled: when the cancel fails, the
/// payment is read again. Only a payment known to be cancelled lets a new one
/// be created (CONTRACT.md: "a new payment only after the previous one is known
/// cancelled or failed").
///
/// # Errors
/// 502 when it cannot be read, or it is still open (the next call tries again).
async fn cancel_verified(state: &State, session: &Session, pi_id: &str) -> ApiResult<Verified> {
    let idem = format!("cirrus-{}-cancel-{pi_id}", session.id);
    match state.stripe.call(true, &format!("/v1/payment_intents/{pi_id}/cancel"), &[], Some(&idem)).await {
        Ok(pi) if status(&pi) == "canceled" => return Ok(Verified::Canceled),
        Ok(pi) => eprintln!("cancel of {pi_id} answered {}", status(&pi)),
        Err(e) => eprintln!("cancel of {pi_id} failed: {e}"),
    }
    let pi = retrieve(state, pi_id).await?;
    match status(&pi) {
        "canceled" => Ok(Verified::Canceled),
        "requires_payment_method" | "requires_confirmation" | "requires_action" => {
            Err(ApiError::processor("the payment processor failed to cancel the previous payment; try again"))
        }
        _ => Ok(Verified::Moved(pi)),
    }
}

/// Sends the confirm of the session's current attempt. The idempotency key is
/// the attempt's, so a re-sent confirm (after a failure) is the same request.
async fn send_confirm(state: &State, session: &Session, pi_id: &str, attempt: i64, token: &str, return_url: &str) -> ApiResult<Value> {
    let mut form = Vec::new();
    if token.starts_with("ctoken_") {
        form.push(("confirmation_token", token.to_string()));
        form.push(("return_url", return_url.to_string()));
    }
    let idem = format!("cirrus-{}-confirm-{attempt}", session.id);
    match state.stripe.call(true, &format!("/v1/payment_intents/{pi_id}/confirm"), &form, Some(&idem)).await {
        Ok(pi) => Ok(pi),
        // A decline is an answer about the payment, not a processor failure: re-read it.
        Err(StripeError::Api { status: 402, .. }) => retrieve(state, pi_id).await,
        Err(e) => Err(processor_error(&e)),
    }
}

/// The outcome of taking a session's stock for a payment.
enum Stock {
    Taken,
    Gone,
}

/// Drops the rendered JSON of the products of `items` (their stock changed).
fn forget_products(state: &State, c: &Connection, items: &[PaymentItem]) -> ApiResult<()> {
    let mut cache = state.product_json.lock().map_err(|_| ApiError::internal("cache lock poisoned"))?;
    for item in items {
        let pid: Option<String> =
            c.prepare_cached("SELECT product_id FROM variants WHERE id = ?1")?.query_row([&item.variant_id], |r| r.get(0)).optional()?;
        if let Some(pid) = pid {
            cache.remove(&pid);
        }
    }
    Ok(())
}

/// Takes every item's stock for `pi_id` in one transaction, or none of it.
async fn take_stock(state: &State, session: &Session, pi_id: &str) -> ApiResult<Stock> {
    let (sid, pi_id, st) = (session.id.clone(), pi_id.to_string(), state.clone());
    state
        .db(move |c| {
            let tx = c.transaction()?;
            let s = load_session(&tx, &sid)?;
            if s.stock_pi.as_deref() == Some(pi_id.as_str()) {
                return Ok(Stock::Taken);
            }
            for item in &s.items {
                let n = tx.execute(
                    "UPDATE variants SET stock = stock - ?2 WHERE id = ?1 AND stock >= ?2",
                    params![item.variant_id, item.quantity],
                )?;
                if n == 0 {
                    return Ok(Stock::Gone); // dropped: rolled back, nothing taken
                }
            }
            tx.execute("UPDATE sessions SET stock_pi = ?2 WHERE id = ?1", params![sid, pi_id])?;
            tx.commit()?;
            forget_products(&st, c, &s.items)?;
            Ok(Stock::Taken)
        })
        .await
}

/// Gives back the stock `pi_id` held (its authorization was cancelled or expired).
async fn release_stock(state: &State, session: &Session, pi_id: &str) -> ApiResult<()> {
    let (sid, pi_id, st) = (session.id.clone(), pi_id.to_string(), state.clone());
    state
        .db(move |c| {
            let tx = c.transaction()?;
            let s = load_session(&tx, &sid)?;
            if s.completed || s.stock_pi.as_deref() != Some(pi_id.as_str()) {
                return Ok(());
            }
            for item in &s.items {
                tx.execute("UPDATE variants SET stock = stock + ?2 WHERE id = ?1", params![item.variant_id, item.quantity])?;
            }
            tx.execute("UPDATE sessions SET stock_pi = NULL WHERE id = ?1", [&sid])?;
            tx.commit()?;
            forget_products(&st, c, &s.items)
        })
        .await
}

async fn mark_stock_gone(state: &State, session: &Session) -> ApiResult<()> {
    let sid = session.id.clone();
    state.db(move |c| Ok(c.execute("UPDATE sessions SET outcome = 'stock_gone' WHERE id = ?1", [&sid])?)).await?;
    Ok(())
}

/// Records the order of a captured payment and closes the session, once.
async fn record_order(state: &State, session: &Session, pi: &Value) -> ApiResult<()> {
    let sid = session.id.clone();
    let pi_id = pi["id"].as_str().unwrap_or_default().to_string();
    let amount = pi["amount"].as_i64().ok_or_else(|| ApiError::internal("captured payment without an amount"))?;
    state
        .db(move |c| {
            let tx = c.transaction()?;
            let s = load_session(&tx, &sid)?;
            if s.completed {
                return Ok(());
            }
            tx.execute(
                "INSERT INTO orders (id, session_id, payment_intent_id, amount, currency, items, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                params![
                    format!("ord_{}", random_hex(12)), s.id, pi_id, amount, s.currency,
                    serde_json::to_string(&s.items).map_err(ApiError::internal)?, now_iso()
                ],
            )?;
            tx.execute("UPDATE sessions SET completed = 1 WHERE id = ?1", [&s.id])?;
            tx.commit()?;
            Ok(())
        })
        .await
}

/// Settles the session's current PaymentIntent and answers the confirm.
///
/// Payments are authorized only (`capture_method=manual`). An authorized one
/// takes the stock (all items, one transaction) and is captured, then the order
/// is written; when the stock is gone it is cancelled instead and the buyer gets
/// 409 `conflict` without being charged. A failure in between is retried by the
/// next confirm, which reads the payment again and carries on from its status.
async fn settle(state: &State, session: &Session, pi: Value) -> ApiResult<axum::Json<ConfirmResponse>> {
    let pi_id = pi["id"].as_str().ok_or_else(|| ApiError::processor("the payment processor answered without a payment id"))?.to_string();
    let holds_stock = session.stock_pi.as_deref() == Some(pi_id.as_str());
    match status(&pi) {
        "requires_capture" => {
            if !holds_stock {
                if let Stock::Gone = take_stock(state, session, &pi_id).await? {
                    return match cancel_verified(state, session, &pi_id).await? {
                        Verified::Canceled => {
                            mark_stock_gone(state, session).await?;
                            Err(stock_gone())
                        }
                        Verified::Moved(_) => Err(ApiError::processor("the payment processor failed to cancel the payment; try again")),
                    };
                }
            }
            let idem = format!("cirrus-{}-capture-{pi_id}", session.id);
            let captured = state
                .stripe
                .call(true, &format!("/v1/payment_intents/{pi_id}/capture"), &[], Some(&idem))
                .await
                .map_err(|e| processor_error(&e))?;
            if status(&captured) == "succeeded" {
                record_order(state, session, &captured).await?;
            }
            Ok(axum::Json(result_of(&captured)))
        }
        "succeeded" if session.outcome.as_deref() == Some("stock_gone") => Err(stock_gone()),
        "succeeded" => {
            // Captured without holding stock (a payment made with automatic capture):
            // take it now, or give the money back.
            if !holds_stock && !session.completed {
                if let Stock::Gone = take_stock(state, session, &pi_id).await? {
                    let idem = format!("cirrus-{}-refund-{pi_id}", session.id);
                    state
                        .stripe
                        .call(true, "/v1/refunds", &[("payment_intent", pi_id.clone())], Some(&idem))
                        .await
                        .map_err(|e| processor_error(&e))?;
                    mark_stock_gone(state, session).await?;
                    return Err(stock_gone());
                }
            }
            record_order(state, session, &pi).await?;
            Ok(axum::Json(result_of(&pi)))
        }
        "canceled" => {
            if holds_stock {
                release_stock(state, session, &pi_id).await?;
            }
            if session.outcome.as_deref() == Some("stock_gone") {
                return Err(stock_gone());
            }
            Ok(axum::Json(result_of(&pi)))
        }
        // Created but never confirmed: never reported as a decline.
        "requires_confirmation" => Err(ApiError::processor("the payment processor has not confirmed the payment; try again")),
        _ => Ok(axum::Json(result_of(&pi))),
    }
}

fn check_token(t: &str) -> ApiResult<bool> {
    let (is_ctoken, rest) = if let Some(r) = t.strip_prefix("ctoken_") {
        (true, r)
    } else if let Some(r) = t.strip_prefix("tok_") {
        (false, r)
    } else {
        return Err(ApiError::bad_request("confirmationTokenId: must be a ctoken_… or tok_… id"));
    };
    if rest.is_empty() || rest.len() > 200 || !rest.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        return Err(ApiError::bad_request("confirmationTokenId: malformed token id"));
    }
    Ok(is_ctoken)
}

/// `POST /payments/confirm`: creates and confirms the session's payment, or
/// carries on with the one the session has (never charges twice).
///
/// # Errors
/// 400 bad body, 404 unknown session/rate, 409 stock gone or a different token
/// on a session whose payment is not failed, 502 processor failure.
pub async fn confirm(AxState(state): AxState<State>, Json(req): Json<ConfirmRequest>) -> ApiResult<axum::Json<ConfirmResponse>> {
    let is_ctoken = check_token(&req.confirmation_token_id)?;
    if !(req.return_url.starts_with("https://") || req.return_url.starts_with("http://")) || req.return_url.len() > 2000 {
        return Err(ApiError::bad_request("returnUrl: must be an absolute http(s) URL"));
    }
    check_address(&req.shipping_address)?;
    // One confirmation of a session at a time: the session row is read, the processor
    // called and the outcome written without another confirm of it interleaving.
    // Other sessions go on meanwhile.
    let _guard = state.lock_session(&req.session_id).await;
    let sid = req.session_id.clone();
    let session = state.db(move |c| load_session(c, &sid)).await?;
    let token = req.confirmation_token_id.clone();

    if let Some(pi_id) = session.payment_intent_id.clone() {
        let pi = retrieve(&state, &pi_id).await?;
        let same_token = session.token.as_deref() == Some(token.as_str());
        let st = status(&pi).to_string();
        match st.as_str() {
            // The confirm failed at the processor before: send it again, same key.
            "requires_confirmation" if same_token => {
                let pi = send_confirm(&state, &session, &pi_id, session.attempt, &token, &req.return_url).await?;
                return settle(&state, &session, pi).await;
            }
            "requires_payment_method" | "requires_confirmation" | "canceled" => {
                if same_token || session.completed {
                    return settle(&state, &session, pi).await;
                }
                // A new token after a failed attempt: only once the old payment is
                // known cancelled; if it moved on meanwhile, settle that one.
                if st != "canceled" {
                    if let Verified::Moved(pi) = cancel_verified(&state, &session, &pi_id).await? {
                        return settle(&state, &session, pi).await;
                    }
                }
            }
            // requires_action, processing, requires_capture, succeeded: that payment goes on.
            _ => {
                let settled = settle(&state, &session, pi).await?;
                if same_token {
                    return Ok(settled);
                }
                return Err(ApiError::conflict(format!(
                    "payment session already has a payment ({st}) confirmed with a different token"
                )));
            }
        }
    } else if session.completed {
        return Err(ApiError::conflict("payment session is already completed"));
    }

    // A new attempt: price the shipping choice, check stock, create the PaymentIntent
    // (authorization only) and record its id BEFORE confirming it.
    let (sid, rate, addr) = (session.id.clone(), req.shipping_rate_id.clone(), req.shipping_address.clone());
    let (amount, attempt) = state
        .db(move |c| {
            let s = load_session(c, &sid)?;
            price_items(c, &s.items).map_err(|e| {
                if e.code == ServerErrorCode::Conflict {
                    ApiError::conflict(format!("stock gone: {}", e.message))
                } else {
                    e
                }
            })?;
            let (shipping, tax) = apply_shipping(c, &s, &rate, &addr)?;
            Ok((order_total(s.subtotal, shipping, tax)?, s.attempt + 1))
        })
        .await?;
    let currency = session.currency.to_ascii_lowercase();
    let mut form = vec![
        ("amount", amount.to_string()),
        ("currency", currency),
        ("capture_method", "manual".to_string()),
        ("metadata[cirrus_session]", session.id.clone()),
    ];
    if is_ctoken {
        form.push(("automatic_payment_methods[enabled]", "true".into()));
    } else {
        let tok = state.stripe.call(false, &format!("/v1/tokens/{token}"), &[], None).await.map_err(|e| match e {
            StripeError::Api { status: 404, .. } => ApiError::bad_request("confirmationTokenId: unknown card token"),
            e => processor_error(&e),
        })?;
        let card = tok["card"]["id"].as_str().ok_or_else(|| ApiError::processor("the payment processor answered a card token without a card"))?;
        form.push(("payment_method", card.to_string()));
    }
    let idem = format!("cirrus-{}-pi-{attempt}", session.id);
    let pi = state.stripe.call(true, "/v1/payment_intents", &form, Some(&idem)).await.map_err(|e| processor_error(&e))?;
    let pi_id = pi["id"].as_str().ok_or_else(|| ApiError::processor("the payment processor answered without a payment id"))?.to_string();
    let session = {
        let (sid, pi_id, token) = (session.id.clone(), pi_id.clone(), token.clone());
        state
            .db(move |c| {
                c.execute(
                    "UPDATE sessions SET payment_intent_id = ?2, token = ?3, attempt = ?4, outcome = NULL WHERE id = ?1",
                    params![sid, pi_id, token, attempt],
                )?;
                load_session(c, &sid)
            })
            .await?
    };
    let pi = send_confirm(&state, &session, &pi_id, attempt, &token, &req.return_url).await?;
    settle(&state, &session, pi).await
}

#[cfg(test)]
mod tests {
    use super::order_total;

    #[test]
    fn totals_are_checked() {
        assert_eq!(order_total(100, 20, 3).unwrap(), 123);
        assert_eq!(order_total(i64::MAX - 1, 1, 0).unwrap(), i64::MAX);
        assert!(order_total(i64::MAX, 1, 0).is_err(), "an overflow is an error, never a wrapped amount");
        assert!(order_total(i64::MAX - 5, 3, 3).is_err());
    }
}
