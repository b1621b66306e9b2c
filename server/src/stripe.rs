//! A minimal Stripe client (form-encoded requests, Bearer secret key) that
//! speaks to real Stripe or to localstripe, chosen by base URL.

use std::time::Duration;

use serde_json::Value;

/// A failed processor call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StripeError {
    /// No HTTP answer (connection refused, timeout) or an unreadable one.
    Unreachable(String),
    /// An HTTP error answer with Stripe's error object.
    Api { status: u16, code: Option<String>, message: String },
}

impl std::fmt::Display for StripeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Unreachable(m) => write!(f, "payment processor unreachable: {m}"),
            Self::Api { status, message, .. } => write!(f, "payment processor answered {status}: {message}"),
        }
    }
}

/// Processor client: base URL + secret key.
pub struct Stripe {
    http: reqwest::Client,
    base: String,
    secret: String,
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
        Ok(Self { http, base: base.trim_end_matches('/').to_string(), secret: secret.to_string() })
    }

    /// Sends one request; `form` is sent as `application/x-www-form-urlencoded` for POST.
    ///
    /// # Errors
    /// [`StripeError`] for transport failures and non-2xx answers.
    pub async fn call(&self, post: bool, path: &str, form: &[(&str, String)], idempotency_key: Option<&str>) -> Result<Value, StripeError> {
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
    #[test]
    fn form_encoding() {
        assert_eq!(
            super::encode_form(&[("metadata[session]", "cs 1&x".into()), ("amount", "100".into())]),
            "metadata%5Bsession%5D=cs%201%26x&amount=100"
        );
    }
}
