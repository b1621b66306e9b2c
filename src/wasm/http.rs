//! The client's transport: one request through gloo-net, with the timeout, the
//! caller's `AbortSignal` and the retry loop, all in Rust.
//!
//! gloo-net builds the request (method, headers, body, abort signal) into a
//! `web_sys::Request`; it is sent with the caller's `options.fetch` when one
//! was given (SSR, tests), else with `globalThis.fetch`. Every attempt has its
//! own `AbortController`, aborted by the timeout timer or by the caller's
//! signal; whichever fired decides the error (`timeout` or `aborted`). The
//! retry policy is the core's ([`crate::retry::decide`]). The body is read
//! once, with `text()`, within the same race; a 2xx body is then checked and
//! built by [`super::body`], a non-2xx body `JSON.parse`d as the JS string it
//! is (never copied into wasm memory) for the error's code and message.

use std::cell::Cell;
use std::rc::Rc;

use gloo_net::http::{Method, RequestBuilder};
use js_sys::{Function, JsString, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use web_sys::{AbortController, AbortSignal};

use crate::decode;
use crate::endpoint::{self, Call};
use crate::error::{Error, ErrorCode, Result};
use crate::retry;

use super::js::{self, get};
use super::timers::{delay, Timeout};

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = Math)]
    fn random() -> f64;
    #[wasm_bindgen(js_name = fetch, js_namespace = globalThis, catch)]
    fn global_fetch(request: &web_sys::Request, init: &JsValue) -> Result<JsValue, JsValue>;
}

/// Why an attempt ended without a response.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cut {
    Timeout,
    Aborted,
}

/// A promise that rejects when `cut` fires, and the two sources of a cut: the
/// timer and the caller's signal. Dropping it clears the timer and removes
/// the listener, so nothing outlives the attempt.
struct Guard {
    ctl: AbortController,
    cut: Rc<Cell<Option<Cut>>>,
    rejected: Promise,
    _timer: Option<Timeout>,
    listener: Option<(AbortSignal, Closure<dyn FnMut()>)>,
}

impl Guard {
    /// A guard for one attempt: `timeout_ms` (0: none) and the caller's signal.
    fn new(timeout_ms: u32, signal: Option<&AbortSignal>) -> Result<Guard> {
        let ctl = AbortController::new().map_err(|_| Error::new(ErrorCode::Network, "AbortController is not available"))?;
        let cut = Rc::new(Cell::new(None));
        let mut reject_slot = None;
        let rejected = Promise::new(&mut |_, reject| reject_slot = Some(reject));
        let reject = reject_slot.unwrap_or_else(|| Function::from(JsValue::UNDEFINED));
        let fire = |why: Cut| {
            let (cut, ctl, reject) = (Rc::clone(&cut), ctl.clone(), reject.clone());
            Closure::<dyn FnMut()>::new(move || {
                if cut.get().is_none() {
                    cut.set(Some(why));
                    ctl.abort();
                    let _ = reject.call0(&JsValue::UNDEFINED);
                }
            })
        };
        if signal.is_some_and(AbortSignal::aborted) {
            return Err(signal.map_or_else(|| Error::new(ErrorCode::Aborted, "aborted"), aborted));
        }
        let timer = (timeout_ms > 0).then(|| Timeout::new(timeout_ms, fire(Cut::Timeout)));
        let listener = signal.map(|s| (s.clone(), fire(Cut::Aborted)));
        if let Some((s, f)) = &listener {
            s.add_event_listener_with_callback("abort", f.as_ref().unchecked_ref())
                .map_err(|_| Error::invalid_argument("signal must be an AbortSignal"))?;
        }
        let guard = Guard { ctl, cut, rejected, _timer: timer, listener };
        Ok(guard)
    }

    /// Awaits `p`, unless the timer or the caller's signal fires first
    /// (`Err((Some(cut), _))`); `Err((None, e))` when `p` rejected with `e`.
    async fn race(&self, p: Promise) -> Result<JsValue, (Option<Cut>, JsValue)> {
        let both = js_sys::Array::of2(&p, &self.rejected);
        JsFuture::from(Promise::race(&both)).await.map_err(|e| (self.cut.get(), e))
    }
}

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some((signal, f)) = &self.listener {
            let _ = signal.remove_event_listener_with_callback("abort", f.as_ref().unchecked_ref());
        }
    }
}

/// The `aborted` error, with the signal's reason when it has a message.
pub(crate) fn aborted(signal: &AbortSignal) -> Error {
    let msg = js::message(&signal.reason());
    Error::new(ErrorCode::Aborted, msg.filter(|m| !m.is_empty()).unwrap_or_else(|| "the operation was aborted".to_owned()))
}

/// Awaits `p` for a caller with a `signal`: `Err(Ok(()))` when the signal
/// fired first, `Err(Err(e))` when `p` rejected with `e`.
pub(crate) async fn race_signal(p: Promise, signal: &AbortSignal) -> Result<JsValue, Result<(), JsValue>> {
    let guard = Guard::new(0, Some(signal)).map_err(|_| Ok(()))?;
    guard.race(p).await.map_err(|(cut, e)| if cut.is_some() { Ok(()) } else { Err(e) })
}

/// Waits `ms` milliseconds; `false` if `signal` fired first.
pub(crate) async fn sleep(ms: u32, signal: Option<&AbortSignal>) -> bool {
    let Ok(guard) = Guard::new(0, signal) else { return false };
    guard.race(delay(ms)).await.is_ok()
}

/// A 2xx answer: its body still a JS string (it is copied into wasm memory
/// and checked there, then `JSON.parse`d by the engine: [`super::body`]).
pub(crate) struct Answer {
    pub(crate) status: u16,
    pub(crate) body: JsString,
    pub(crate) request_id: Option<String>,
}

/// Sends requests for one client.
pub(crate) struct Transport {
    pub(crate) base_url: String,
    pub(crate) authorization: String,
    /// `options.fetch`, when given.
    pub(crate) fetch: Option<Function>,
    pub(crate) timeout_ms: u32,
    pub(crate) retries: u32,
}

/// What one attempt ended with.
enum Attempt {
    Answer(u16, gloo_net::http::Response, JsString),
    Failed(Error),
}

impl Transport {
    /// Sends `call` (a POST with its JSON `body`), retrying as the core's
    /// policy and the endpoint's [`crate::retry::Policy`] say, and returns the
    /// 2xx answer. `fetch_options` (the call's `fetchOptions`) go to `fetch`
    /// as its second argument.
    ///
    /// # Errors
    /// `network`, `timeout`, `aborted`, or the server's error for a non-2xx
    /// status (with `status`, `requestId`, `retryAfter`).
    pub(crate) async fn send(&self, call: &Call, body: Option<&str>, signal: Option<&AbortSignal>, fetch_options: Option<&JsValue>) -> Result<Answer> {
        let url = format!("{}{}", self.base_url, call.path);
        let method = match call.endpoint.method {
            endpoint::Method::Get => Method::GET,
            endpoint::Method::Post => Method::POST,
        };
        let mut attempt = 0;
        loop {
            attempt += 1;
            let (status, retry_after, err) = match self.attempt(method.clone(), &url, body, signal, fetch_options).await? {
                Attempt::Answer(status, resp, text) => {
                    let headers = resp.headers();
                    let request_id = headers.get("x-request-id");
                    if (200..300).contains(&status) {
                        return Ok(Answer { status, body: text, request_id });
                    }
                    let retry_after = headers.get("retry-after");
                    (status, retry_after.clone(), http_error(status, &text, request_id, retry_after.as_deref()))
                }
                Attempt::Failed(e) => (0, None, e),
            };
            let Some(ms) = retry::decide(attempt, self.retries, call.endpoint.retry, status, retry_after.as_deref(), random()) else {
                return Err(err);
            };
            if !sleep(ms, signal).await {
                return Err(Error::new(ErrorCode::Aborted, "aborted while waiting to retry"));
            }
        }
    }

    /// One attempt: build, send, read the body, within the timeout.
    async fn attempt(&self, method: Method, url: &str, body: Option<&str>, signal: Option<&AbortSignal>, init: Option<&JsValue>) -> Result<Attempt> {
        let guard = Guard::new(self.timeout_ms, signal)?;
        let builder = RequestBuilder::new(url)
            .method(method)
            .header("Authorization", &self.authorization)
            .header("Accept", "application/json")
            .abort_signal(Some(&guard.ctl.signal()));
        let built = match body {
            Some(b) => builder.header("Content-Type", "application/json").body(b),
            None => builder.build(),
        };
        let request = web_sys::Request::from(built.map_err(|_| Error::invalid_argument("the request could not be built"))?);
        let sent = match (&self.fetch, init) {
            (Some(f), Some(init)) => f.call2(&JsValue::UNDEFINED, &request, init),
            (Some(f), None) => f.call1(&JsValue::UNDEFINED, &request),
            (None, init) => global_fetch(&request, init.unwrap_or(&JsValue::UNDEFINED)),
        };
        let failed = |why: Option<Cut>, what: &str| match why {
            Some(Cut::Timeout) => Error::new(ErrorCode::Timeout, format!("no response within {} ms", self.timeout_ms)),
            Some(Cut::Aborted) => signal.map_or_else(|| Error::new(ErrorCode::Aborted, "the operation was aborted"), aborted),
            None => Error::new(ErrorCode::Network, what),
        };
        let sent = match sent {
            Ok(v) => Promise::resolve(&v),
            Err(e) => return Ok(Attempt::Failed(failed(None, &network_message(&e, url)))),
        };
        let resp = match guard.race(sent).await {
            Ok(v) => v,
            Err((None, e)) => return Ok(Attempt::Failed(failed(None, &network_message(&e, url)))),
            Err((why, _)) => return Ok(Attempt::Failed(failed(why, ""))),
        };
        let Some(resp) = as_response(resp) else {
            return Ok(Attempt::Failed(Error::new(ErrorCode::Network, "options.fetch resolved to something that is not a Response")));
        };
        let status = resp.status();
        let text = match resp.text() {
            Ok(p) => guard.race(p).await,
            Err(e) => Err((None, e)),
        };
        match text {
            Ok(t) => Ok(Attempt::Answer(status, gloo_net::http::Response::from(resp), t.unchecked_into())),
            Err((why, _)) => Ok(Attempt::Failed(failed(why, "the connection broke while reading the response"))),
        }
    }
}

/// A `fetch` result as a `Response`: an instance of the global class, or an
/// object that looks like one (another realm's, a polyfill's).
fn as_response(v: JsValue) -> Option<web_sys::Response> {
    if v.is_instance_of::<web_sys::Response>() {
        return Some(v.unchecked_into());
    }
    let looks = v.is_object() && get(&v, "status").as_f64().is_some() && get(&v, "text").is_function() && get(&v, "headers").is_object();
    looks.then(|| v.unchecked_into())
}

/// The text of a thrown fetch failure (a `TypeError: Failed to fetch`). A browser says no more
/// when CORS refused the call, so on a page of another origin than the API's the text says
/// that CORS may be the cause and names both origins.
fn network_message(e: &JsValue, url: &str) -> String {
    let text = js::message(e).map_or_else(|| "the request failed (network error)".to_owned(), |m| format!("the request failed: {m}"));
    // scheme://host[:port] of the request: what precedes its third '/' (the base URL was
    // checked as an absolute http(s) URL).
    let api = url.match_indices('/').nth(2).and_then(|(i, _)| url.get(..i)).unwrap_or(url);
    match get(&get(&js_sys::global(), "location"), "origin").as_string() {
        Some(page) if page != api => format!("{text} (CORS may be the cause: this page's origin is {page}, the API's {api})"),
        _ => text,
    }
}

/// The `CirrusError` of a non-2xx answer (CONTRACT.md): the server's `code`
/// and message when the body is a Cirrus error, else `http`.
fn http_error(status: u16, text: &JsString, request_id: Option<String>, retry_after: Option<&str>) -> Error {
    let body = js::json_parse(text).unwrap_or(JsValue::UNDEFINED);
    let field = |k: &str| get(&body, k).as_string();
    decode::error_from_fields(status, field("code").as_deref(), field("error").as_deref(), request_id, retry_after)
}
