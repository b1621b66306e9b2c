//! The requests of one `CirrusClient` ([`super::client`]): identical GETs in
//! flight share one request, and answers are kept by the cache strategy of
//! the client or of the call (`cache`: the core's [`crate::cache`] decides
//! fresh, stale-while-revalidate, stale-if-error or miss; bounded: at most
//! [`MAX_CACHED`] answers, expired ones swept). Each request goes out through
//! [`super::http`]; a 2xx body is checked and built by [`super::body`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise};
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{AbortController, AbortSignal};

use super::body;
use super::http::{self, Transport};
use crate::cache::{self, StaleReason, Strategy, Use};
use crate::endpoint::Call;
use crate::error::{Error, Result};

#[wasm_bindgen(inline_js = "export function stale(f, reason, path, ageMs, error) { try { f({ reason, path, ageMs, error }); } catch {} }
export function handled(p) { p.catch(() => {}); }")]
extern "C" {
    /// Calls an `onStale` listener with a [`cache::StaleAnswer`] (what it throws is ignored:
    /// the answer is given all the same).
    fn stale(f: &Function, reason: &str, path: &str, age_ms: f64, error: &JsValue);
    /// Marks a promise's rejection as handled.
    fn handled(p: &Promise);
}

/// Cached answers one client keeps at most (the oldest expiry goes first).
pub(crate) const MAX_CACHED: usize = 256;

/// A GET in flight, shared by its callers (a background refresh counts as one
/// caller that never leaves).
struct Flight {
    id: u32,
    promise: Promise,
    callers: u32,
    ctl: AbortController,
}

/// A stored answer: when it was fetched, and until when it is of use.
struct Stored {
    value: JsValue,
    at: f64,
    until: f64,
}

/// What one request path has: a request in flight, a stored answer, or both
/// (a stale answer being refreshed, or kept for stale-if-error), and the last
/// flight whose failure a stored answer may stand in for ([`cache::stale_on_error`]).
#[derive(Default)]
struct Entry {
    flight: Option<Flight>,
    stored: Option<Stored>,
    failed: u32,
}

/// The shared GETs and stored answers by request path: a few hundred at
/// most ([`MAX_CACHED`] answers plus what is in flight), so a list searched
/// in order (no ordered map's code in the wasm for one lookup table).
#[derive(Default)]
pub(super) struct Entries(Vec<(String, Entry)>);

impl Entries {
    fn get_mut(&mut self, key: &str) -> Option<&mut Entry> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, e)| e)
    }
    /// The entry of `key`, made if there is none.
    fn entry(&mut self, key: &str) -> &mut Entry {
        let i = match self.0.iter().position(|(k, _)| k == key) {
            Some(i) => i,
            None => {
                self.0.push((key.to_owned(), Entry::default()));
                self.0.len() - 1
            }
        };
        &mut self.0[i].1
    }
    /// Drops the entries with neither a flight nor a stored answer.
    fn prune(&mut self) {
        self.0.retain(|(_, e)| e.flight.is_some() || e.stored.is_some());
    }
    /// How many answers are stored.
    pub(super) fn cached(&self) -> usize {
        self.0.iter().filter(|(_, e)| e.stored.is_some()).count()
    }
}

/// A call's last argument: its signal, cache strategy, `fetch` options and stale listener.
#[derive(Clone, Default)]
pub(super) struct CallOpts {
    pub(super) signal: Option<AbortSignal>,
    pub(super) cache: Option<Strategy>,
    pub(super) fetch_options: Option<JsValue>,
    pub(super) on_stale: Option<Function>,
}

/// What a client's requests share: the transport, the client's cache
/// strategy, the shared GETs and the stored answers.
pub(super) struct Inner {
    pub(super) http: Transport,
    pub(super) cache: Strategy,
    pub(super) entries: RefCell<Entries>,
    pub(super) next_id: Cell<u32>,
}

/// Tells the call's `onStale` that a stale answer was given: a [`cache::StaleAnswer`] (`error`
/// the request's error, else `null`).
fn tell_stale(listener: Option<&Function>, reason: StaleReason, path: &str, age_ms: f64, error: &JsValue) {
    if let Some(f) = listener {
        stale(f, reason.as_str(), path, age_ms, error);
    }
}

impl Inner {
    /// Forgets the stored answers (requests in flight still complete).
    pub(super) fn clear_cache(&self) {
        let mut entries = self.entries.borrow_mut();
        for (_, e) in &mut entries.0 {
            e.stored = None;
        }
        entries.prune();
    }

    /// One operation: a GET shared and cached ([`Inner::get`]), a POST sent as it is.
    pub(super) async fn run(self: Rc<Self>, call: Call, body: Option<String>, o: CallOpts) -> Result<JsValue, JsValue> {
        match body {
            None => self.get(call, o).await,
            Some(b) => Ok(self.fetch(&call, Some(&b), o.signal.as_ref(), o.fetch_options.as_ref()).await?),
        }
    }

    /// A GET: answered from the cache as the call's (else the client's)
    /// strategy says ([`Strategy::lookup`]), else shared while in flight.
    /// Each caller's `signal` aborts only that caller; the request itself is
    /// aborted once every caller has given up. A failed request is answered
    /// with a stored answer inside its stale-if-error window.
    pub(super) async fn get(self: Rc<Self>, call: Call, o: CallOpts) -> Result<JsValue, JsValue> {
        let strategy = o.cache.unwrap_or(self.cache);
        let on_stale = o.on_stale.as_ref();
        let path = call.path.clone();
        if let Some(s) = &o.signal {
            if s.aborted() {
                return Err(http::aborted(s).into());
            }
        }
        let now = js_sys::Date::now();
        let joined = {
            let mut entries = self.entries.borrow_mut();
            let entry = entries.get_mut(&path);
            let stored = entry.as_ref().and_then(|e| e.stored.as_ref()).filter(|s| s.until > now);
            let stale = match stored.map(|s| (strategy.lookup(now - s.at), s)) {
                Some((Use::Fresh, s)) => return Ok(s.value.clone()),
                Some((Use::StaleRevalidate, s)) => Some((s.value.clone(), now - s.at)),
                _ => None,
            };
            let flight = entry.and_then(|e| e.flight.as_mut());
            match (stale, flight) {
                (Some((value, age)), flight) => {
                    let refreshing = flight.is_some();
                    drop(entries);
                    if !refreshing {
                        // The one refresh: a flight with a caller that never leaves.
                        let (_, refresh) = self.start(call, strategy, o.fetch_options.clone())?;
                        // Nobody awaits the refresh: its failure must not be an unhandled rejection.
                        handled(&refresh);
                    }
                    tell_stale(on_stale, StaleReason::Revalidating, &path, age, &JsValue::NULL);
                    return Ok(value);
                }
                (None, Some(f)) => {
                    f.callers += 1;
                    Some((f.id, f.promise.clone()))
                }
                (None, None) => None,
            }
        };
        let (id, promise) = match joined {
            Some(j) => j,
            None => self.start(call, strategy, o.fetch_options.clone())?,
        };
        let outcome = match &o.signal {
            None => JsFuture::from(promise).await.map_err(Err),
            Some(s) => http::race_signal(promise, s).await,
        };
        let mut entries = self.entries.borrow_mut();
        if let Some(e) = entries.get_mut(&path) {
            if let Some(f) = e.flight.as_mut().filter(|f| f.id == id) {
                f.callers -= 1;
                if f.callers == 0 && matches!(outcome, Err(Ok(()))) {
                    f.ctl.abort();
                    e.flight = None;
                }
            }
        }
        entries.prune();
        match outcome {
            Ok(v) => Ok(v),
            Err(Ok(())) => Err(o.signal.as_ref().map_or_else(|| Error::new(crate::error::ErrorCode::Aborted, "aborted"), http::aborted).into()),
            // The shared request's own CirrusError, the same object for every caller,
            // unless a stored answer may stand in for it.
            Err(Err(e)) => {
                let now = js_sys::Date::now();
                let stale = entries
                    .get_mut(&path)
                    .filter(|en| en.failed == id)
                    .and_then(|en| en.stored.as_ref())
                    .filter(|s| s.until > now && strategy.serves_on_error(now - s.at))
                    .map(|s| (s.value.clone(), now - s.at));
                drop(entries);
                match stale {
                    Some((value, age)) => {
                        tell_stale(on_stale, StaleReason::Error, &path, age, &e);
                        Ok(value)
                    }
                    None => Err(e),
                }
            }
        }
    }

    /// Starts the shared request for `path`, its first caller counted (for a
    /// background refresh, that caller never leaves, so it is never aborted);
    /// its answer is stored as `strategy` says.
    fn start(self: &Rc<Self>, call: Call, strategy: Strategy, fetch_options: Option<JsValue>) -> Result<(u32, Promise)> {
        let path = call.path.clone();
        let id = self.next_id.get().wrapping_add(1);
        self.next_id.set(id);
        let ctl = AbortController::new().map_err(|_| Error::new(crate::error::ErrorCode::Network, "AbortController is not available"))?;
        let (me, key, sig) = (Rc::clone(self), call.path.clone(), ctl.signal());
        let promise = future_to_promise(async move {
            let r = me.fetch(&call, None, Some(&sig), fetch_options.as_ref()).await;
            let mut entries = me.entries.borrow_mut();
            if let Some(e) = entries.get_mut(&key).filter(|e| e.flight.as_ref().is_some_and(|f| f.id == id)) {
                e.flight = None;
                // A failure keeps the stored answer (stale-if-error); a success replaces it.
                match &r {
                    Ok(value) if strategy.stores() => {
                        let at = js_sys::Date::now();
                        e.stored = Some(Stored { value: value.clone(), at, until: at + strategy.keep_ms() });
                    }
                    Err(err) if cache::stale_on_error(err) => e.failed = id,
                    _ => {}
                }
                entries.prune();
                bound(&mut entries);
            }
            r.map_err(JsValue::from)
        });
        self.entries.borrow_mut().entry(&path).flight = Some(Flight { id, promise: promise.clone(), callers: 1, ctl });
        Ok((id, promise))
    }

    /// Sends `call` and checks the 2xx body against its schema, then builds the value.
    async fn fetch(&self, call: &Call, body: Option<&str>, signal: Option<&AbortSignal>, fetch_options: Option<&JsValue>) -> Result<JsValue> {
        let answer = self.http.send(call, body, signal, fetch_options).await?;
        body::decode(&answer, call).map_err(|e| {
            let method = match call.endpoint.method {
                crate::endpoint::Method::Get => "GET ",
                crate::endpoint::Method::Post => "POST ",
            };
            let message = format!("{method}{}: {}", call.path, e.message);
            Error { message, ..e }.with_status(answer.status).with_request_id(answer.request_id.clone())
        })
    }
}

/// Keeps the cache within [`MAX_CACHED`] answers: answers past all their windows go first,
/// then the answer whose last window ends soonest, whatever its age. (README.md states this
/// rule in these words; scripts/check-docs.sh compares the two.)
fn bound(entries: &mut Entries) {
    if entries.cached() <= MAX_CACHED {
        return;
    }
    let now = js_sys::Date::now();
    for (_, e) in &mut entries.0 {
        if e.stored.as_ref().is_some_and(|s| s.until <= now) {
            e.stored = None;
        }
    }
    while entries.cached() > MAX_CACHED {
        let oldest = entries.0.iter_mut().filter_map(|(_, e)| e.stored.as_ref().map(|s| s.until).map(|u| (u, e))).min_by(|a, b| a.0.total_cmp(&b.0));
        match oldest {
            Some((_, e)) => e.stored = None,
            None => break,
        }
    }
    entries.prune();
}

