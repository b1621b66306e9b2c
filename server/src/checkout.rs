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
}

fn load_session(c: &Connection, id: &str) -> ApiResult<Session> {
    c.prepare_cached("SELECT id, currency, items, subtotal, payment_intent_id, token, attempt, completed FROM sessions WHERE id = ?1")?
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
            })
        })
        .optional()?
        .ok_or_else(|| ApiError::not_found(format!("no payment session with id {id:?}")))
}

fn breakdown(subtotal: i64, shipping: i64, tax: i64) -> Breakdown {
    Breakdown { subtotal, shipping, tax, total: subtotal + shipping + tax }
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
                breakdown: breakdown(subtotal, 0, 0),
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
    let tax = apply_bps_half_up(s.subtotal + rate.price, bps);
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
    let _guard = state.confirm_lock.lock().await;
    let sid = req.session_id.clone();
    let session = state.db(move |c| load_session(c, &sid)).await?;
    if session.completed {
        return Err(ApiError::conflict("payment session is already completed"));
    }
    // A payment awaiting authentication (or done) fixes the amount: changing
    // shipping now would make the session disagree with what is charged.
    if let Some(pi_id) = &session.payment_intent_id {
        let pi = state.stripe.call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None).await.map_err(|e| processor_error(&e))?;
        let status = pi["status"].as_str().unwrap_or("");
        if !matches!(status, "requires_payment_method" | "canceled") {
            return Err(ApiError::conflict(format!("payment session has a payment in progress ({status})")));
        }
    }
    state
        .db(move |c| {
            let s = load_session(c, &req.session_id)?;
            let (shipping, tax) = apply_shipping(c, &s, &req.shipping_rate_id, &req.shipping_address)?;
            let b = breakdown(s.subtotal, shipping, tax);
            Ok(axum::Json(UpdateResponse { session_id: s.id, amount: b.total, currency: s.currency, breakdown: b }))
        })
        .await
}

// ------------------------------------------------------------------ confirm

fn processor_error(e: &StripeError) -> ApiError {
    ApiError::processor(e.to_string())
}

/// A PaymentIntent as the confirm response reports it.
fn result_of(pi: &Value) -> ConfirmResponse {
    let status = match pi["status"].as_str().unwrap_or("") {
        "succeeded" => PaymentStatus::Succeeded,
        "requires_action" => PaymentStatus::RequiresAction,
        "processing" | "requires_capture" => PaymentStatus::Processing,
        "canceled" => PaymentStatus::Canceled,
        _ => PaymentStatus::RequiresPaymentMethod,
    };
    let error = match status {
        PaymentStatus::RequiresPaymentMethod => Some(
            pi["last_payment_error"]["message"].as_str().unwrap_or("the payment needs a new payment method").to_string(),
        ),
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
/// re-reads it when the session already has one (never charges twice).
///
/// # Errors
/// 400 bad body, 404 unknown session/rate, 409 different token on a session
/// whose payment is not retryable or short stock, 502 processor failure.
pub async fn confirm(AxState(state): AxState<State>, Json(req): Json<ConfirmRequest>) -> ApiResult<axum::Json<ConfirmResponse>> {
    let is_ctoken = check_token(&req.confirmation_token_id)?;
    if !(req.return_url.starts_with("https://") || req.return_url.starts_with("http://")) || req.return_url.len() > 2000 {
        return Err(ApiError::bad_request("returnUrl: must be an absolute http(s) URL"));
    }
    check_address(&req.shipping_address)?;
    // One confirmation at a time: the session row is read, the processor called
    // and the outcome written without another confirm interleaving.
    let _guard = state.confirm_lock.lock().await;
    let sid = req.session_id.clone();
    let session = state.db(move |c| load_session(c, &sid)).await?;
    let token = req.confirmation_token_id.clone();

    if let Some(pi_id) = session.payment_intent_id.clone() {
        let pi = state.stripe.call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None).await.map_err(|e| processor_error(&e))?;
        let same_token = session.token.as_deref() == Some(token.as_str());
        let status = pi["status"].as_str().unwrap_or("");
        if same_token {
            return finish(&state, &session, &pi).await;
        }
        if session.completed || !matches!(status, "requires_payment_method" | "canceled") {
            return Err(ApiError::conflict(format!(
                "payment session already has a payment ({status}) confirmed with a different token"
            )));
        }
        // The earlier attempt failed (declined or 3-D Secure failed): cancel it and start a new one.
        if status == "requires_payment_method" {
            let _ = state.stripe.call(true, &format!("/v1/payment_intents/{pi_id}/cancel"), &[], None).await;
        }
    } else if session.completed {
        return Err(ApiError::conflict("payment session is already completed"));
    }

    // A new attempt: price the shipping choice, check stock, create the PaymentIntent
    // and record its id BEFORE confirming it.
    let (sid, rate, addr) = (session.id.clone(), req.shipping_rate_id.clone(), req.shipping_address.clone());
    let (amount, attempt) = state
        .db(move |c| {
            let s = load_session(c, &sid)?;
            price_items(c, &s.items)?;
            let (shipping, tax) = apply_shipping(c, &s, &rate, &addr)?;
            Ok((s.subtotal + shipping + tax, s.attempt + 1))
        })
        .await?;
    let currency = session.currency.to_ascii_lowercase();
    let mut form = vec![
        ("amount", amount.to_string()),
        ("currency", currency),
        ("metadata[cirrus_session]", session.id.clone()),
    ];
    if is_ctoken {
        form.push(("automatic_payment_methods[enabled]", "true".into()));
    } else {
        let tok = state.stripe.call(false, &format!("/v1/tokens/{token}"), &[], None).await.map_err(|e| match e {
            StripeError::Api { status: 404, .. } => ApiError::bad_request("confirmationTokenId: unknown card token"),
            e => processor_error(&e),
        })?;
        let card = tok["card"]["id"].as_str().ok_or_else(|| ApiError::processor("card token has no card"))?;
        form.push(("payment_method", card.to_string()));
    }
    let idem = format!("cirrus-{}-pi-{attempt}", session.id);
    let pi = state.stripe.call(true, "/v1/payment_intents", &form, Some(&idem)).await.map_err(|e| processor_error(&e))?;
    let pi_id = pi["id"].as_str().ok_or_else(|| ApiError::processor("processor answered without a payment id"))?.to_string();
    {
        let (sid, pi_id, token) = (session.id.clone(), pi_id.clone(), token.clone());
        state
            .db(move |c| {
                c.execute(
                    "UPDATE sessions SET payment_intent_id = ?2, token = ?3, attempt = ?4 WHERE id = ?1",
                    params![sid, pi_id, token, attempt],
                )?;
                Ok(())
            })
            .await?;
    }
    let mut confirm_form = Vec::new();
    if is_ctoken {
        confirm_form.push(("confirmation_token", token.clone()));
        confirm_form.push(("return_url", req.return_url.clone()));
    }
    let idem = format!("cirrus-{}-confirm-{token}", session.id);
    let pi = match state.stripe.call(true, &format!("/v1/payment_intents/{pi_id}/confirm"), &confirm_form, Some(&idem)).await {
        Ok(pi) => pi,
        // A decline is an answer about the payment, not a processor failure: re-read it.
        Err(StripeError::Api { status: 402, .. }) => state
            .stripe
            .call(false, &format!("/v1/payment_intents/{pi_id}"), &[], None)
            .await
            .map_err(|e| processor_error(&e))?,
        Err(e) => return Err(processor_error(&e)),
    };
    finish(&state, &session, &pi).await
}

/// Reports `pi`; on `succeeded` records the order, decrements stock and closes
/// the session in one transaction, exactly once.
async fn finish(state: &State, session: &Session, pi: &Value) -> ApiResult<axum::Json<ConfirmResponse>> {
    let result = result_of(pi);
    if result.status == PaymentStatus::Succeeded && !session.completed {
        let sid = session.id.clone();
        let pi_id = result.payment_intent_id.clone().unwrap_or_default();
        let amount = pi["amount"].as_i64().unwrap_or(0);
        let st = state.clone();
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
                for item in &s.items {
                    let short = tx.execute("UPDATE variants SET stock = stock - ?2 WHERE id = ?1 AND stock >= ?2", params![item.variant_id, item.quantity])?;
                    if short == 0 {
                        // Paid but oversold meanwhile: keep the order, floor the stock at zero.
                        eprintln!("oversold variant {} in session {}", item.variant_id, s.id);
                        tx.execute("UPDATE variants SET stock = 0 WHERE id = ?1", [&item.variant_id])?;
                    }
                }
                tx.execute("UPDATE sessions SET completed = 1 WHERE id = ?1", [&s.id])?;
                tx.commit()?;
                // Stock changed: drop the rendered JSON of the affected products.
                let mut cache = st.product_json.lock().map_err(|_| ApiError::internal("cache lock poisoned"))?;
                for item in &s.items {
                    let pid: Option<String> = c
                        .prepare_cached("SELECT product_id FROM variants WHERE id = ?1")?
                        .query_row([&item.variant_id], |r| r.get(0))
                        .optional()?;
                    if let Some(pid) = pid {
                        cache.remove(&pid);
                    }
                }
                Ok(())
            })
            .await?;
    }
    Ok(axum::Json(result))
}
