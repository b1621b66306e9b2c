//! `CirrusClient`: the typed catalog fetchers and the payment calls, a Rust
//! class that does its own I/O.
//!
//! Each exported method decodes its arguments synchronously, once, by
//! serde-wasm-bindgen ([`super::interop`]), checks them by the core's rules
//! into a [`Call`] of its [`crate::endpoint::Op`] (path, method, retry policy,
//! response schema), and hands that to one shared non-generic async body
//! ([`Inner::run`]), so a bad argument is an `invalid_argument` (a rejected
//! promise) before any request. Requests go out through [`super::http`]
//! (gloo-net, timeout, abort, retries). Identical GETs
//! in flight share one request; with `cacheTtlMs` answers are cached (bounded:
//! at most [`MAX_CACHED`] answers, expired ones swept). A 2xx body is checked
//! against the response schema of the model types in wasm memory
//! ([`super::body`]), then the engine's `JSON.parse` builds the objects the
//! caller gets, so nullable members are `null` and maps are plain objects.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::{Function, Promise, Reflect};
use serde::Deserialize;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};
use web_sys::{AbortController, AbortSignal};

use crate::endpoint::{Call, Op, ProductsQuery};
use crate::error::{Error, Result};
use crate::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};
use crate::options::ClientOptions;
use crate::text::{cat, uint};

use super::body;
use super::http::{self, Transport};
use super::interop::{arg_from_js, to_js};
use super::js::get;
use super::post_body::BodyArg;
use crate::jsoncheck::Root;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../js/generated/types.ts");

#[wasm_bindgen(typescript_custom_section)]
const CLIENT_TYPES: &str = r#"
/** The value of option `K` in an options type `O` (`undefined` when absent). */
type FlagOf<O, K extends string> = O extends object ? (K extends keyof O ? O[K] : undefined) : undefined;

/** The product type `products(options)` yields: `MinimalProduct` when `minimal: true`. */
export type ProductOf<O> = [FlagOf<O, "minimal">] extends [true]
  ? MinimalProduct
  : [FlagOf<O, "minimal">] extends [false | null | undefined]
    ? Product
    : Product | MinimalProduct;

/** `pagination` is present exactly when `includePagination: true`. */
export type PaginationOf<O> = [FlagOf<O, "includePagination">] extends [true]
  ? { pagination: Pagination }
  : [FlagOf<O, "includePagination">] extends [false | null | undefined]
    ? { pagination?: never }
    : { pagination?: Pagination };

/** What `products(options)` resolves with. */
export type ProductsResult<O> = { products: ProductOf<O>[] } & PaginationOf<O>;

/** Options of `allProducts()`: page size and the minimal flag. */
export interface AllProductsOptions {
  /** Products per request, 1..=500 (default 100). */
  pageSize?: number;
  minimal?: boolean;
}

export interface CirrusClient {
  /**
   * `GET /products`: `limit` 1..=500 (an integer), `offset` >= 0. With `minimal: true`
   * the products are `MinimalProduct`s; with `includePagination: true` the result has
   * `pagination`.
   */
  products<const O extends ProductsOptions | undefined = undefined>(options?: O, signal?: AbortSignal): Promise<ProductsResult<O>>;
  /** Every active product, fetched page by page (`for await (const p of client.allProducts())`). */
  allProducts<const O extends AllProductsOptions | undefined = undefined>(options?: O, signal?: AbortSignal): AsyncIterableIterator<ProductOf<O>>;
}
"#;

#[wasm_bindgen(inline_js = "export function iterable(o) { o[Symbol.asyncIterator] = function () { return this; }; return o; }")]
extern "C" {
    /// Makes an object with `next()` usable by `for await`.
    fn iterable(o: JsValue) -> JsValue;
}

/// Cached answers one client keeps at most (the oldest expiry goes first).
pub(crate) const MAX_CACHED: usize = 256;

/// The client's options as JS passes them: the core's [`ClientOptions`] plus
/// the JS-only `fetch`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct Options {
    base_url: String,
    api_key: String,
    #[serde(default)]
    timeout_ms: Option<u32>,
    #[serde(default)]
    retries: Option<u32>,
    #[serde(default)]
    cache_ttl_ms: Option<u32>,
    #[serde(default, with = "serde_wasm_bindgen::preserve")]
    fetch: JsValue,
}

/// Options of `allProducts()`.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct AllProductsOptions {
    #[serde(default)]
    page_size: Option<u32>,
    #[serde(default)]
    minimal: bool,
}

/// A GET in flight (shared by its callers) or a cached answer.
enum Entry {
    Flight { id: u32, promise: Promise, callers: u32, ctl: AbortController },
    Cached { value: JsValue, expires: f64 },
}

/// The shared GETs and cached answers by request path: a few hundred at
/// most ([`MAX_CACHED`] answers plus what is in flight), so a list searched
/// in order (no ordered map's code in the wasm for one lookup table).
#[derive(Default)]
struct Entries(Vec<(String, Entry)>);

impl Entries {
    fn get_mut(&mut self, key: &str) -> Option<&mut Entry> {
        self.0.iter_mut().find(|(k, _)| k == key).map(|(_, e)| e)
    }
    fn get(&self, key: &str) -> Option<&Entry> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, e)| e)
    }
    fn insert(&mut self, key: String, entry: Entry) {
        match self.get_mut(&key) {
            Some(e) => *e = entry,
            None => self.0.push((key, entry)),
        }
    }
    fn remove(&mut self, key: &str) -> Option<Entry> {
        let i = self.0.iter().position(|(k, _)| k == key)?;
        Some(self.0.swap_remove(i).1)
    }
    fn retain(&mut self, mut keep: impl FnMut(&Entry) -> bool) {
        self.0.retain(|(_, e)| keep(e));
    }
    fn cached(&self) -> usize {
        self.0.iter().filter(|(_, e)| matches!(e, Entry::Cached { .. })).count()
    }
}

struct Inner {
    http: Transport,
    ttl_ms: u32,
    entries: RefCell<Entries>,
    next_id: Cell<u32>,
}

/// A Cirrus V1 storefront client.
#[wasm_bindgen]
pub struct CirrusClient {
    inner: Rc<Inner>,
}

/// The caller's `signal` argument: absent, or something with a boolean `aborted`.
fn signal_arg(signal: Option<JsValue>) -> Result<Option<AbortSignal>> {
    match signal {
        None => Ok(None),
        Some(s) if s.is_undefined() || s.is_null() => Ok(None),
        Some(s) if get(&s, "aborted").as_bool().is_some() => Ok(Some(s.unchecked_into())),
        Some(_) => Err(Error::invalid_argument("signal must be an AbortSignal")),
    }
}

/// A slug or id argument.
fn string_arg(what: &str, v: &JsValue) -> Result<String> {
    v.as_string().ok_or_else(|| Error::invalid_argument(cat(&[what, " must be a string"])))
}

/// `JSON.stringify` of a request body's serde value: exactly the members the
/// API knows, in the model's order.
fn json(body: &impl serde::Serialize) -> Result<String> {
    let v = to_js(body)?;
    js_sys::JSON::stringify(&v)
        .ok()
        .and_then(|s| s.as_string())
        .ok_or_else(|| Error::invalid_argument("the request body could not be encoded"))
}

#[wasm_bindgen]
impl CirrusClient {
    /// Makes a client. Options are checked here: `baseUrl` (ends with `/api/v1`, https
    /// unless loopback), `apiKey` (`ak_` + 48 hex), `timeoutMs` (default 10000), `retries`
    /// (default 2), `cacheTtlMs` (default 0: no cache), `fetch` (default `globalThis.fetch`;
    /// called with the `Request` the client built).
    ///
    /// # Errors
    /// `invalid_argument` for a bad option.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue) -> Result<CirrusClient, JsValue> {
        let o: Options = arg_from_js(options, "options", Some(Root::ClientOptions), true)?;
        let fetch = if o.fetch.is_undefined() || o.fetch.is_null() {
            None
        } else if o.fetch.is_function() {
            Some(o.fetch.unchecked_into::<Function>())
        } else {
            return Err(Error::invalid_argument("options.fetch must be a function").into());
        };
        let core = ClientOptions { base_url: o.base_url, api_key: o.api_key, timeout_ms: o.timeout_ms, retries: o.retries, cache_ttl_ms: o.cache_ttl_ms };
        let config = core.validate()?;
        let http = Transport { authorization: config.authorization(), base_url: config.base_url, fetch, timeout_ms: config.timeout_ms, retries: config.retries };
        Ok(CirrusClient {
            inner: Rc::new(Inner { http, ttl_ms: config.cache_ttl_ms, entries: RefCell::default(), next_id: Cell::new(0) }),
        })
    }

    /// `GET /products` (typed by its options in the `.d.ts`, see `ProductsResult`).
    #[wasm_bindgen(skip_typescript)]
    pub fn products(&self, options: JsValue, signal: Option<JsValue>) -> Promise {
        let call = arg_from_js::<ProductsQuery>(options, "options", Some(Root::ProductsOptions), true).and_then(|q| Call::products(&q));
        self.run(call, None, signal)
    }

    /// Every active product, page by page (`for await`).
    #[wasm_bindgen(js_name = allProducts, skip_typescript)]
    pub fn all_products(&self, options: JsValue, signal: Option<JsValue>) -> Result<JsValue, JsValue> {
        let signal = signal_arg(signal)?;
        let o: AllProductsOptions = arg_from_js(options, "options", None, true)?;
        let limit = o.page_size.unwrap_or(100);
        Call::products(&ProductsQuery { limit: Some(limit), ..ProductsQuery::default() })
            .map_err(|_| Error::invalid_argument(cat(&["options.pageSize must be an integer in 1..=500, got ", &uint(limit.into())])))?;
        let pages = ProductPages { client: self.inner.clone(), limit, minimal: o.minimal, signal, state: RefCell::default() };
        Ok(iterable(pages.into()))
    }

    /// `GET /products/slug/{slug}`: the product.
    #[wasm_bindgen(js_name = productBySlug, unchecked_return_type = "Promise<Product>")]
    pub fn product_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.catalog(Op::ProductBySlug, &slug, signal)
    }

    /// `GET /pages`: every page.
    #[wasm_bindgen(unchecked_return_type = "Promise<Page[]>")]
    pub fn pages(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>) -> Promise {
        self.catalog(Op::Pages, &JsValue::UNDEFINED, signal)
    }

    /// `GET /collections`: every collection, with products and breadcrumb.
    #[wasm_bindgen(unchecked_return_type = "Promise<Collection[]>")]
    pub fn collections(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>) -> Promise {
        self.catalog(Op::Collections, &JsValue::UNDEFINED, signal)
    }

    /// `GET /collections/slug/{slug}`: the collection.
    #[wasm_bindgen(js_name = collectionBySlug, unchecked_return_type = "Promise<Collection>")]
    pub fn collection_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.catalog(Op::CollectionBySlug, &slug, signal)
    }

    /// `GET /collections/{id}`: the collection.
    #[wasm_bindgen(unchecked_return_type = "Promise<Collection>")]
    pub fn collection(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.catalog(Op::Collection, &id, signal)
    }

    /// `GET /store`: the store configuration.
    #[wasm_bindgen(unchecked_return_type = "Promise<Store>")]
    pub fn store(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>) -> Promise {
        self.catalog(Op::Store, &JsValue::UNDEFINED, signal)
    }

    /// `POST /shipping-rates`: the rates per variant (retried like a GET).
    #[wasm_bindgen(js_name = shippingRates, unchecked_return_type = "Promise<VariantRates[]>")]
    pub fn shipping_rates(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ShippingRatesRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<ShippingRatesRequest>(body, signal)
    }

    /// `POST /payments/initiate` (sent once, never retried).
    #[wasm_bindgen(js_name = initiatePayment, unchecked_return_type = "Promise<InitiateResponse>")]
    pub fn initiate_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "InitiateRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<InitiateRequest>(body, signal)
    }

    /// `POST /payments/update` (sent once, never retried).
    #[wasm_bindgen(js_name = updatePayment, unchecked_return_type = "Promise<UpdateResponse>")]
    pub fn update_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "UpdateRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<UpdateRequest>(body, signal)
    }

    /// `POST /payments/confirm` (sent once, never retried; the server makes it
    /// idempotent, so calling it again after 3-D Secure is safe).
    #[wasm_bindgen(js_name = confirmPayment, unchecked_return_type = "Promise<ConfirmResponse>")]
    pub fn confirm_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConfirmRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<ConfirmRequest>(body, signal)
    }

    /// Forgets cached answers (requests in flight still complete).
    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        self.inner.entries.borrow_mut().retain(|e| matches!(e, Entry::Flight { .. }));
    }

    /// How many answers the cache holds now (at most 256; expired ones are
    /// swept as new ones arrive).
    #[wasm_bindgen(getter, js_name = cacheSize)]
    pub fn cache_size(&self) -> u32 {
        let n = self.inner.entries.borrow().cached();
        u32::try_from(n).unwrap_or(u32::MAX)
    }
}

impl CirrusClient {
    /// A catalog GET: its slug or id (ignored by the endpoints without one).
    fn catalog(&self, op: Op, arg: &JsValue, signal: Option<JsValue>) -> Promise {
        let call = match op.endpoint().arg {
            crate::endpoint::Arg::Segment(what) => string_arg(what, arg).and_then(|a| Call::catalog(op, &a)),
            _ => Call::catalog(op, ""),
        };
        self.run(call, None, signal)
    }

    /// A POST of the body `B`: decoded, checked by its rules, encoded.
    fn post<B: BodyArg>(&self, body: JsValue, signal: Option<JsValue>) -> Promise {
        let call = B::from_js(body).and_then(|b| Ok((Call::body(&b)?, json(&b)?)));
        match call {
            Ok((call, json)) => self.run(Ok(call), Some(json), signal),
            Err(e) => self.run(Err(e), None, signal),
        }
    }

    /// The promise of every operation: the argument errors (the signal's
    /// first) as a rejection, else [`Inner::run`].
    fn run(&self, call: Result<Call>, body: Option<String>, signal: Option<JsValue>) -> Promise {
        let prepared = signal_arg(signal).and_then(|s| Ok((call?, s)));
        match prepared {
            Ok((call, signal)) => future_to_promise(self.inner.clone().run(call, body, signal)),
            Err(e) => Promise::reject(&e.into()),
        }
    }
}

impl Inner {
    /// One operation: a GET shared and cached ([`Inner::get`]), a POST sent as it is.
    async fn run(self: Rc<Self>, call: Call, body: Option<String>, signal: Option<AbortSignal>) -> Result<JsValue, JsValue> {
        match body {
            None => self.get(call, signal).await,
            Some(b) => Ok(self.fetch(&call, Some(&b), signal.as_ref()).await?),
        }
    }

    /// A GET: shared while in flight, cached with a TTL. Each caller's
    /// `signal` aborts only that caller; the request itself is aborted once
    /// every caller has given up.
    async fn get(self: Rc<Self>, call: Call, signal: Option<AbortSignal>) -> Result<JsValue, JsValue> {
        let path = call.path.clone();
        if let Some(s) = &signal {
            if s.aborted() {
                return Err(http::aborted(s).into());
            }
        }
        let now = js_sys::Date::now();
        let joined = {
            let mut entries = self.entries.borrow_mut();
            match entries.get_mut(&path) {
                Some(Entry::Cached { value, expires }) if *expires > now => return Ok(value.clone()),
                Some(Entry::Flight { id, promise, callers, .. }) => {
                    *callers += 1;
                    Some((*id, promise.clone()))
                }
                _ => None,
            }
        };
        let (id, promise) = match joined {
            Some(j) => j,
            None => self.start(call)?,
        };
        let outcome = match &signal {
            None => JsFuture::from(promise).await.map_err(Err),
            Some(s) => http::race_signal(promise, s).await,
        };
        let mut entries = self.entries.borrow_mut();
        if let Some(Entry::Flight { id: fid, callers, ctl, .. }) = entries.get_mut(&path) {
            if *fid == id {
                *callers -= 1;
                if *callers == 0 && matches!(outcome, Err(Ok(()))) {
                    ctl.abort();
                    entries.remove(&path);
                }
            }
        }
        drop(entries);
        match outcome {
            Ok(v) => Ok(v),
            Err(Ok(())) => Err(signal.as_ref().map_or_else(|| Error::new(crate::error::ErrorCode::Aborted, "aborted"), http::aborted).into()),
            // The shared request's own CirrusError, the same object for every caller.
            Err(Err(e)) => Err(e),
        }
    }

    /// Starts the shared request for `path` (its first caller counted).
    fn start(self: &Rc<Self>, call: Call) -> Result<(u32, Promise)> {
        let path = call.path.clone();
        let id = self.next_id.get().wrapping_add(1);
        self.next_id.set(id);
        let ctl = AbortController::new().map_err(|_| Error::new(crate::error::ErrorCode::Network, "AbortController is not available"))?;
        let (me, key, sig) = (Rc::clone(self), call.path.clone(), ctl.signal());
        let promise = future_to_promise(async move {
            let r = me.fetch(&call, None, Some(&sig)).await;
            let mut entries = me.entries.borrow_mut();
            if matches!(entries.get(&key), Some(Entry::Flight { id: f, .. }) if *f == id) {
                match &r {
                    Ok(v) if me.ttl_ms > 0 => {
                        let expires = js_sys::Date::now() + f64::from(me.ttl_ms);
                        entries.insert(key, Entry::Cached { value: v.clone(), expires });
                        bound(&mut entries);
                    }
                    _ => drop(entries.remove(&key)),
                }
            }
            r.map_err(JsValue::from)
        });
        self.entries.borrow_mut().insert(path, Entry::Flight { id, promise: promise.clone(), callers: 1, ctl });
        Ok((id, promise))
    }

    /// Sends `call` and checks the 2xx body against its schema, then builds the value.
    async fn fetch(&self, call: &Call, body: Option<&str>, signal: Option<&AbortSignal>) -> Result<JsValue> {
        let answer = self.http.send(call, body, signal).await?;
        body::decode(&answer, call).map_err(|e| {
            let method = match call.endpoint.method {
                crate::endpoint::Method::Get => "GET ",
                crate::endpoint::Method::Post => "POST ",
            };
            let message = cat(&[method, &call.path, ": ", &e.message]);
            Error { message, ..e }.with_status(answer.status).with_request_id(answer.request_id.clone())
        })
    }
}

/// Keeps the cache within [`MAX_CACHED`] answers: expired ones go first, then
/// the ones closest to expiring.
fn bound(entries: &mut Entries) {
    if entries.cached() <= MAX_CACHED {
        return;
    }
    let now = js_sys::Date::now();
    entries.retain(|e| !matches!(e, Entry::Cached { expires, .. } if *expires <= now));
    while entries.cached() > MAX_CACHED {
        let oldest = entries
            .0
            .iter()
            .enumerate()
            .filter_map(|(i, (_, e))| match e {
                Entry::Cached { expires, .. } => Some((i, *expires)),
                Entry::Flight { .. } => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1));
        match oldest {
            Some((i, _)) => drop(entries.0.swap_remove(i)),
            None => break,
        }
    }
}

/// Where `allProducts` is.
#[derive(Default)]
struct PagesState {
    offset: u64,
    /// The last page's products (a JS array, read in place) and the next one to give.
    page: Option<js_sys::Array>,
    next: u32,
    done: bool,
}

/// The iterator `allProducts()` returns: one `GET /products` per page.
#[wasm_bindgen]
pub struct ProductPages {
    client: Rc<Inner>,
    limit: u32,
    minimal: bool,
    signal: Option<AbortSignal>,
    state: RefCell<PagesState>,
}

#[wasm_bindgen]
impl ProductPages {
    /// The next product: `{ value, done }`.
    #[wasm_bindgen(unchecked_return_type = "IteratorResult<Product | MinimalProduct, undefined>")]
    pub async fn next(&self) -> Result<JsValue, JsValue> {
        let result = |value: &JsValue, done: bool| -> Result<JsValue, JsValue> {
            let o = js_sys::Object::new();
            Reflect::set(&o, &"value".into(), value)?;
            Reflect::set(&o, &"done".into(), &done.into())?;
            Ok(o.into())
        };
        loop {
            let (offset, done) = {
                let mut st = self.state.borrow_mut();
                if let Some(v) = st.page.as_ref().filter(|p| st.next < p.length()).map(|p| p.get(st.next)) {
                    st.next += 1;
                    return result(&v, false);
                }
                (st.offset, st.done)
            };
            if done {
                return result(&JsValue::UNDEFINED, true);
            }
            let q = ProductsQuery { limit: Some(self.limit), offset: Some(offset), include_pagination: true, minimal: self.minimal };
            let page = self.client.clone().get(Call::products(&q)?, self.signal.clone()).await?;
            let products: js_sys::Array = get(&page, "products").unchecked_into();
            let has_more = get(&get(&page, "pagination"), "hasMore").as_bool() == Some(true);
            let mut st = self.state.borrow_mut();
            st.offset += u64::from(products.length());
            st.done = !has_more || products.length() == 0;
            st.page = Some(products);
            st.next = 0;
        }
    }
}
