//! The test hooks' endpoints (`--test-hooks`, ARCHITECTURE.md "Test hooks"):
//! arming and disarming faults on requests (applied by
//! [`crate::middleware::faults`]) and on the calls to the processor, and the
//! recorded orders.

use axum::extract::State as AxState;
use axum::http::StatusCode;
use serde::Deserialize;
use serde_json::json;

use crate::db::stored_json;
use crate::error::{ApiError, ApiResult};
use crate::extract::Json;
use crate::middleware::faults::{Fault, FaultKind};
use crate::State;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct FaultRequest {
    method: String,
    path: String,
    kind: FaultKind,
    status: Option<u16>,
    times: Option<u32>,
    retry_after: Option<u64>,
    delay_ms: Option<u64>,
}

/// `times` (default 1, at least 1) and `delayMs` (default 0, at most 60 s) of a fault.
fn fault_numbers(times: Option<u32>, delay_ms: Option<u64>) -> ApiResult<(u32, u64)> {
    let times = times.unwrap_or(1);
    if times == 0 {
        return Err(ApiError::bad_request("times: must be at least 1"));
    }
    let delay_ms = delay_ms.unwrap_or(0);
    if delay_ms > 60_000 {
        return Err(ApiError::bad_request("delayMs: must be at most 60000"));
    }
    Ok((times, delay_ms))
}

/// `POST /__test/faults`: arms a fault. 204.
///
/// # Errors
/// 400 for a bad body.
pub async fn arm_fault(AxState(state): AxState<State>, Json(r): Json<FaultRequest>) -> ApiResult<StatusCode> {
    if !r.path.starts_with('/') || r.path.contains('?') {
        return Err(ApiError::bad_request("path: must start with / and have no query"));
    }
    let method = r.method.to_ascii_uppercase();
    if !["GET", "POST", "DELETE", "PUT", "PATCH"].contains(&method.as_str()) {
        return Err(ApiError::bad_request("method: must be GET, POST, DELETE, PUT or PATCH"));
    }
    let status = r.status.unwrap_or(500);
    if r.kind == FaultKind::Status && !(400..=599).contains(&status) {
        return Err(ApiError::bad_request("status: must be 400..=599"));
    }
    let (times, delay_ms) = fault_numbers(r.times, r.delay_ms)?;
    let fault = Fault { method, path: r.path, kind: r.kind, status, times, retry_after: r.retry_after.unwrap_or(1), delay_ms };
    state.faults.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(fault);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /__test/faults`: disarms every fault. 204.
pub async fn disarm_faults(AxState(state): AxState<State>) -> StatusCode {
    state.faults.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
    StatusCode::NO_CONTENT
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProcessorFaultRequest {
    op: crate::stripe::Op,
    kind: crate::stripe::ProcessorFaultKind,
    status: Option<u16>,
    /// `code` and `param` of the error object a `status` fault answers (Stripe's names).
    code: Option<String>,
    param: Option<String>,
    times: Option<u32>,
    delay_ms: Option<u64>,
}

/// `POST /__test/processor-faults`: arms a fault on the server's calls to the
/// payment processor (`op`: create, confirm, cancel, capture, refund, retrieve,
/// token; `kind`: status, timeout, lost, slow, noid; a `status` fault's error object
/// carries `code` and `param` when given). 204.
///
/// # Errors
/// 400 for a bad body.
pub async fn arm_processor_fault(AxState(state): AxState<State>, Json(r): Json<ProcessorFaultRequest>) -> ApiResult<StatusCode> {
    let status = r.status.unwrap_or(500);
    if !(400..=599).contains(&status) {
        return Err(ApiError::bad_request("status: must be 400..=599"));
    }
    let (times, delay_ms) = fault_numbers(r.times, r.delay_ms)?;
    let fault = crate::stripe::ProcessorFault { op: r.op, kind: r.kind, status, code: r.code, param: r.param, times, delay_ms };
    state.stripe.faults.lock().unwrap_or_else(std::sync::PoisonError::into_inner).push(fault);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /__test/processor-faults`: disarms every processor fault. 204.
pub async fn disarm_processor_faults(AxState(state): AxState<State>) -> StatusCode {
    state.stripe.faults.lock().unwrap_or_else(std::sync::PoisonError::into_inner).clear();
    StatusCode::NO_CONTENT
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ProcessingRequest {
    times: Option<u32>,
}

/// `POST /__test/processor-processing` `{ "times": N }`: the server's next N
/// reads of a PaymentIntent from the processor (the answer of its creation or
/// confirm, a retrieve) that find it authorized or captured report
/// `processing` instead; then reads are real again. 204.
///
/// # Errors
/// 400 for a bad body (`times` must be at least 1).
pub async fn arm_processing(AxState(state): AxState<State>, Json(r): Json<ProcessingRequest>) -> ApiResult<StatusCode> {
    let (times, _) = fault_numbers(r.times, None)?;
    state.stripe.processing.store(times, std::sync::atomic::Ordering::SeqCst);
    Ok(StatusCode::NO_CONTENT)
}

/// `DELETE /__test/processor-processing`: reads are real again. 204.
pub async fn disarm_processing(AxState(state): AxState<State>) -> StatusCode {
    state.stripe.processing.store(0, std::sync::atomic::Ordering::SeqCst);
    StatusCode::NO_CONTENT
}

/// `GET /__test/orders`: every recorded order, oldest first.
///
/// # Errors
/// 500 on a database error.
pub async fn orders(AxState(state): AxState<State>) -> ApiResult<axum::Json<serde_json::Value>> {
    let orders = state
        .db(|c| {
            let mut stmt = c.prepare(
                "SELECT id, session_id, payment_intent_id, amount, currency, items, created_at FROM orders ORDER BY created_at, id",
            )?;
            let rows = stmt.query_map([], |r| {
                Ok(json!({
                    "id": r.get::<_, String>(0)?, "sessionId": r.get::<_, String>(1)?,
                    "paymentIntentId": r.get::<_, String>(2)?, "amount": r.get::<_, i64>(3)?,
                    "currency": r.get::<_, String>(4)?,
                    "items": stored_json::<serde_json::Value>(r, 5)?,
                    "createdAt": r.get::<_, String>(6)?,
                }))
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
        .await?;
    Ok(axum::Json(json!({ "orders": orders })))
}

/// `GET /__test/processor-calls`: how many PaymentIntents the server has read
/// from the processor since it started (`{ "retrieve": n }`): the settlement
/// sweep's reads among them.
pub async fn processor_calls(AxState(state): AxState<State>) -> axum::Json<serde_json::Value> {
    axum::Json(json!({ "retrieve": state.stripe.retrieves.load(std::sync::atomic::Ordering::Relaxed) }))
}
