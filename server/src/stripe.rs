//! A minimal Stripe client (form-encoded requests, Bearer secret key) that
//! speaks to real Stripe or to localstripe, chosen by base URL.
//!
//! With test hooks on, `POST /__test/processor-faults` arms faults here
//! ([`ProcessorFault`]): a processor call answers an error status, times
//! out before or after reaching the processor, or is slowed down; and
//! `POST /__test/processor-processing` makes the next reads of a
//! PaymentIntent report `processing` ([`Stripe::processing`]).

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use serde::Deserialize;
use serde_json::Value;

/// A failed processor call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StripeError {
    /// No HTTP answer (connection refused, timeout) or an unreadable one.
    Unreachable(String),
    /// An HTTP error answer with Stripe's error object (`code` and `param` as Stripe names them).
    Api { status: u16, code: Option<String>, param: Option<String>, message: String },
}

impl std::fmt::Display for StripeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unreachable(m) => write!(f, "payment processor unreachable: {m}"),
            Self::Api { status, message, .. } => write!(f, "payment processor answered {status}: {message}"),
        }
    }
}

/// The processor operation a call performs (what a fault is armed for).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Op {
    /// `POST /v1/payment_intents`
    Create,
    /// `POST /v1/payment_intents/{id}/confirm`
    Confirm,
    /// `POST /v1/payment_intents/{id}/cancel`
    Cancel,
    /// `POST /v1/payment_intents/{id}/capture`
    Capture,
    /// `POST /v1/refunds`
    Refund,
    /// `GET /v1/payment_intents/{id}`
    Retrieve,
    /// `GET /v1/tokens/{id}`
    Token,
}

impl Op {
    fn of(post: bool, path: &str) -> Option<Self> {
        let rest = path.strip_prefix("/v1/")?;
        if let Some(pi) = rest.strip_prefix("payment_intents") {
            return match (post, pi.rsplit('/').next().unwrap_or("")) {
                (true, "") => Some(Self::Create),
                (true, "confirm") => Some(Self::Confirm),
                (true, "cancel") => Some(Self::Cancel),
                (true, "capture") => Some(Self::Capture),
                (false, _) => Some(Self::Retrieve),
                _ => None,
            };
        }
        match (post, rest.split('/').next()) {
            (true, Some("refunds")) => Some(Self::Refund),
            (false, Some("tokens")) => Some(Self::Token),
            _ => None,
        }
    }
}

/// How an armed processor fault behaves.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ProcessorFaultKind {
    /// Not sent; the processor "answers" `status` with an error object.
    Status,
    /// Not sent; fails as a timeout after `delayMs`.
    Timeout,
    /// Sent and carried out by the processor, but the answer is lost: fails as a timeout.
    Lost,
    /// Sent after `delayMs`, answered normally.
    Slow,
    /// Sent and carried out by the processor; its answer comes back without the
    /// object's `id` (an answer the server must not settle from).
    NoId,
}

/// One armed processor fault: the next `times` calls of `op` get it.
#[derive(Debug, Clone)]
pub struct ProcessorFault {
    pub op: Op,
    pub kind: ProcessorFaultKind,
    pub status: u16,
    /// `code` and `param` of the error object a `status` fault answers.
    pub code: Option<String>,
    pub param: Option<String>,
    pub times: u32,
    pub delay_ms: u64,
}

/// Processor client: base URL + secret key.
pub struct Stripe {
    http: reqwest::Client,
    base: String,
    secret: String,
    /// Armed test faults (only ever filled through the test hooks).
    pub faults: Mutex<Vec<ProcessorFault>>,
    /// Test hook: how many more reads of a PaymentIntent (the answer of its
    /// creation, its confirm, a retrieve) report `processing` instead of an
    /// authorized or captured status (only ever set through the test hooks).
    pub processing: AtomicU32,
    /// PaymentIntents read (`GET /v1/payment_intents/{id}`) since start, faults
    /// included (the test hook `GET /__test/processor-calls` reports it).
    pub retrieves: AtomicU64,
}

impl Stripe {
    /// # Errors
    /// A message if the HTTP client cannot be built.
    pub fn new(base: &str, secret: &str) -> Result<Self, String> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(20))
            .connect_timeout(Duration::from_secs(5))
            .build()
            .map_err(|e| format!("http client: {e}"))?;
        Ok(Self { http, base: base.trim_end_matches('/').to_string(), secret: secret.to_string(), faults: Mutex::new(Vec::new()), processing: AtomicU32::new(0), retrieves: AtomicU64::new(0) })
    }

    fn take_fault(&self, op: Option<Op>) -> Option<ProcessorFault> {
        let op = op?;
        crate::util::take_armed(&self.faults, |f| f.op == op, |f| &mut f.times)
    }

    /// Sends one request; `form` is sent as `application/x-www-form-urlencoded` for POST.
    ///
    /// # Errors
    /// [`StripeError`] for transport failures and non-2xx answers.
    pub async fn call(&self, post: bool, path: &str, form: &[(&str, String)], idempotency_key: Option<&str>) -> Result<Value, StripeError> {
        let op = Op::of(post, path);
        if op == Some(Op::Retrieve) {
            self.retrieves.fetch_add(1, Ordering::Relaxed);
        }
        let fault = self.take_fault(op);
        if let Some(f) = &fault {
            if f.delay_ms > 0 && f.kind != ProcessorFaultKind::Lost {
                tokio::time::sleep(Duration::from_millis(f.delay_ms)).await;
            }
            match f.kind {
                ProcessorFaultKind::Status => {
                    return Err(StripeError::Api {
                        status: f.status,
                        code: f.code.clone(),
                        param: f.param.clone(),
                        message: format!("injected fault: status {}", f.status),
                    })
                }
                ProcessorFaultKind::Timeout => return Err(StripeError::Unreachable("injected fault: timed out".into())),
                ProcessorFaultKind::Lost | ProcessorFaultKind::Slow | ProcessorFaultKind::NoId => {}
            }
        }
        let mut result = self.send(post, path, form, idempotency_key).await;
        let kind = fault.map(|f| f.kind);
        if kind == Some(ProcessorFaultKind::Lost) {
            return Err(StripeError::Unreachable("injected fault: answer lost (timed out)".into()));
        }
        if kind == Some(ProcessorFaultKind::NoId) {
            if let Ok(Value::Object(answer)) = &mut result {
                answer.remove("id");
            }
        }
        if matches!(op, Some(Op::Create | Op::Confirm | Op::Retrieve)) {
            if let Ok(pi) = &mut result {
                self.report_processing(pi);
            }
        }
        result
    }

    /// Test hook: while armed, a PaymentIntent read as authorized or captured
    /// is reported `processing` (one use per read).
    fn report_processing(&self, pi: &mut Value) {
        if !matches!(pi["status"].as_str(), Some("requires_capture" | "succeeded")) {
            return;
        }
        if self.processing.fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| n.checked_sub(1)).is_ok() {
            pi["status"] = Value::from("processing");
        }
    }

    async fn send(&self, post: bool, path: &str, form: &[(&str, String)], idempotency_key: Option<&str>) -> Result<Value, StripeError> {
        let url = format!("{}{path}", self.base);
        let mut req = if post { self.http.post(&url).body(encode_form(form)) } else { self.http.get(&url) };
        req = req.bearer_auth(&self.secret);
        if post {
            req = req.header("Content-Type", "application/x-www-form-urlencoded");
        }
        if let Some(k) = idempotency_key {
            req = req.header("Idempotency-Key", k);
        }
        let resp = req.send().await.map_err(|e| StripeError::Unreachable(e.without_url().to_string()))?;
        let status = resp.status().as_u16();
        let body: Value = resp.json().await.map_err(|e| StripeError::Unreachable(format!("unreadable answer: {}", e.without_url())))?;
        if (200..300).contains(&status) {
            Ok(body)
        } else {
            let err = body.get("error");
            Err(StripeError::Api {
                status,
                code: err.and_then(|e| e.get("code")).and_then(Value::as_str).map(str::to_string),
                param: err.and_then(|e| e.get("param")).and_then(Value::as_str).map(str::to_string),
                message: err
                    .and_then(|e| e.get("message"))
                    .and_then(Value::as_str)
                    .unwrap_or("unknown processor error")
                    .to_string(),
            })
        }
    }
}

fn encode_form(form: &[(&str, String)]) -> String {
    form.iter().map(|(k, v)| format!("{}={}", enc(k), enc(v))).collect::<Vec<_>>().join("&")
}

fn enc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::Op;

    #[test]
    fn form_encoding() {
        assert_eq!(
            super::encode_form(&[("metadata[session]", "cs 1&x".into()), ("amount", "100".into())]),
            "metadata%5Bsession%5D=cs%201%26x&amount=100"
        );
    }

    #[test]
    fn operations() {
        assert_eq!(Op::of(true, "/v1/payment_intents"), Some(Op::Create));
        assert_eq!(Op::of(true, "/v1/payment_intents/pi_1/confirm"), Some(Op::Confirm));
        assert_eq!(Op::of(true, "/v1/payment_intents/pi_1/cancel"), Some(Op::Cancel));
        assert_eq!(Op::of(true, "/v1/payment_intents/pi_1/capture"), Some(Op::Capture));
        assert_eq!(Op::of(false, "/v1/payment_intents/pi_1"), Some(Op::Retrieve));
        assert_eq!(Op::of(false, "/v1/tokens/tok_1"), Some(Op::Token));
        assert_eq!(Op::of(true, "/v1/refunds"), Some(Op::Refund));
        assert_eq!(Op::of(true, "/v1/payment_intents/pi_1/_authenticate"), None);
    }
}
