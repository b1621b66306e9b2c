//! The async transport: sends a core [`Request`] through `js/transport.js`
//! (`fetch` with timeout and abort), applies the retry policy, and decodes the
//! answer. Payments are built non-retryable by `crate::request`, so they are
//! sent exactly once.

use js_sys::Promise;
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use crate::decode::{self, parse_retry_after};
use crate::model::ErrorBody;

use super::de::from_js;
use crate::error::{Error, ErrorCode, Result};
use crate::options::Config;
use crate::request::Request;
use crate::retry::{self, Outcome};

#[wasm_bindgen(module = "/js/transport.js")]
extern "C" {
    #[wasm_bindgen(js_name = cirrusFetch)]
    fn cirrus_fetch(
        fetch: &JsValue,
        url: &str,
        method: &str,
        authorization: &str,
        body: Option<String>,
        timeout_ms: u32,
        signal: &JsValue,
    ) -> Promise;

    fn sleep(ms: u32, signal: &JsValue) -> Promise;

    /// What `cirrusFetch` resolves with.
    type RawResponse;
    #[wasm_bindgen(method, getter)]
    fn status(this: &RawResponse) -> u16;
    #[wasm_bindgen(method, getter)]
    fn failure(this: &RawResponse) -> Option<String>;
    #[wasm_bindgen(method, getter)]
    fn message(this: &RawResponse) -> Option<String>;
    /// The body text, left in JS (a 2xx catalog body never crosses into wasm memory).
    #[wasm_bindgen(method, getter)]
    fn body(this: &RawResponse) -> JsValue;
    #[wasm_bindgen(method, getter, js_name = requestId)]
    fn request_id(this: &RawResponse) -> Option<String>;
    #[wasm_bindgen(method, getter, js_name = retryAfter)]
    fn retry_after(this: &RawResponse) -> Option<String>;
}

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Math)]
    fn random() -> f64;
}

/// A 2xx answer whose body is still a JS string.
pub(crate) struct RawOk {
    pub(crate) status: u16,
    /// The body text as a JS string.
    pub(crate) body: JsValue,
    pub(crate) request_id: Option<String>,
}

/// Sends requests for one client: validated [`Config`] plus an optional JS
/// `fetch` implementation (`undefined` → `globalThis.fetch`).
#[derive(Debug, Clone)]
pub(crate) struct Transport {
    pub(crate) config: Config,
    fetch: JsValue,
}

impl Transport {
    // Interim: nothing builds one since the client is TypeScript (see client::CirrusClient).
    #[allow(dead_code)]
    pub(crate) fn new(config: Config, fetch: JsValue) -> Self {
        Self { config, fetch }
    }

    /// Sends `req` (retrying it when the policy allows) and returns the 2xx
    /// response, its body still a JS string. `signal` is a JS `AbortSignal` or
    /// `undefined`.
    ///
    /// # Errors
    /// `network`, `timeout`, `aborted`, or the server's error for a non-2xx.
    pub(crate) async fn send_raw(&self, req: &Request, signal: &JsValue) -> Result<RawOk> {
        let url = req.url(&self.config.base_url);
        let auth = self.config.authorization();
        let mut attempt = 0;
        loop {
            attempt += 1;
            let raw: RawResponse = JsFuture::from(cirrus_fetch(
                &self.fetch,
                &url,
                req.method.as_str(),
                &auth,
                req.body.clone(),
                self.config.timeout_ms,
                signal,
            ))
            .await
            .map(JsCast::unchecked_into)
            .map_err(|_| Error::new(ErrorCode::Network, "request failed"))?;
            let (outcome, result) = match raw.failure().as_deref() {
                None => {
                    let status = raw.status();
                    if (200..300).contains(&status) {
                        return Ok(RawOk { status, body: raw.body(), request_id: raw.request_id() });
                    }
                    let body = raw.body().as_string().and_then(|b| js_sys::JSON::parse(&b).ok()).and_then(|v| from_js::<ErrorBody>(&v).ok());
                    let retry_after_raw = raw.retry_after();
                    let retry_after = retry_after_raw.as_deref().and_then(parse_retry_after);
                    (Outcome::Status { status, retry_after }, decode::error_from_parts(status, body, raw.request_id(), retry_after_raw.as_deref()))
                }
                Some(kind) => {
                    let msg = raw.message().unwrap_or_default();
                    match kind {
                        "timeout" => (Outcome::Timeout, Error::new(ErrorCode::Timeout, msg)),
                        "aborted" => return Err(Error::new(ErrorCode::Aborted, msg)),
                        _ => (Outcome::Network, Error::new(ErrorCode::Network, msg)),
                    }
                }
            };
            let Some(ms) = retry::next_delay(attempt, self.config.retries, req.retryable, outcome, random()) else {
                return Err(result);
            };
            let slept = JsFuture::from(sleep(ms, signal)).await.ok().and_then(|v| v.as_bool()).unwrap_or(false);
            if !slept {
                return Err(Error::new(ErrorCode::Aborted, "aborted while waiting to retry"));
            }
        }
    }

    /// Sends `req` and decodes the 2xx JSON body into `T` (for small bodies:
    /// payments, shipping rates; the catalog uses the JS-side validator).
    ///
    /// # Errors
    /// As [`Transport::send_raw`], plus `decode` naming the JSON path.
    #[cfg_attr(feature = "sdk-only", allow(dead_code))]
    pub(crate) async fn send_json<T: DeserializeOwned>(&self, req: &Request, signal: &JsValue) -> Result<T> {
        let resp = self.send_raw(req, signal).await?;
        let fail = |msg: String| Error::decode(msg).with_status(resp.status).with_request_id(resp.request_id.clone());
        let text = resp.body.as_string().unwrap_or_default();
        let value = js_sys::JSON::parse(&text).map_err(|_| fail("response body is not JSON (truncated?)".to_owned()))?;
        from_js(&value).map_err(|e| {
            let path = e.path();
            fail(if path.is_empty() { e.message().to_owned() } else { format!("at {path}: {}", e.message()) })
        })
    }
}
