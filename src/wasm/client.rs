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
//! in flight share one request; answers are cached by the cache strategy of the
//! client or of the call (`cache`: the core's [`crate::cache`] decides fresh,
//! stale-while-revalidate, stale-if-error or miss; bounded: at most
//! [`MAX_CACHED`] answers, expired ones swept). A 2xx body is checked
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

use crate::cache::{self, Strategy, Use};
use crate::endpoint::{Call, Op, ProductsQuery};
use crate::error::{Error, Result};
use crate::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};
use crate::options::{client_cache, ClientOptions};
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

/**
 * The options `O` a call was given, with each member its options type `T` lacks typed as a
 * message naming it: an unknown or misspelled option is a compile error also next to known
 * ones (`Type 'number' is not assignable to type '"pageSize is not an option of products()"'`).
 */
type ExactOptions<T, O, Call extends string> = [Exclude<keyof O, keyof T>] extends [never]
  ? O
  : { [K in keyof O]: K extends keyof T ? O[K] : `${K & string} is not an option of ${Call}` };

/** What `products(options)` resolves with. */
export type ProductsResult<O> = { products: ProductOf<O>[] } & PaginationOf<O>;

/** Options of `allProducts()`: page size and the minimal flag. */
export interface AllProductsOptions {
  /** Products per request, 1..=500 (default 100). */
  pageSize?: number;
  minimal?: boolean;
}

/**
 * A cache strategy (Hydrogen's, in milliseconds): `"no-store"` (nothing cached), or how long
 * an answer is used: fresh for `maxAgeMs` (no request); then for `staleWhileRevalidateMs`
 * more it is given at once while one request refreshes it in the background; and for
 * `staleIfErrorMs` after `maxAgeMs` it is given instead of a network error, a timeout or a
 * 5xx (the call's `onStale` hears of it). Absent members are 0. Presets: `CacheShort()`, `CacheLong()`,
 * `CacheNone()`, `CacheCustom({...})`.
 */
export type CacheStrategy = "no-store" | { maxAgeMs?: number; staleWhileRevalidateMs?: number; staleIfErrorMs?: number };

/** What `onStale` is told when a call was answered with a stored answer past its `maxAgeMs`. */
export interface StaleAnswer {
  /** `"revalidating"`: stale-while-revalidate (a refresh runs in the background); `"error"`: stale-if-error (`error` is what the request failed with). */
  reason: "revalidating" | "error";
  /** The request path (`"/products?limit=12"`). */
  path: string;
  /** Milliseconds since the answer was fetched. */
  ageMs: number;
  /** The request's error (`reason: "error"`), else `null`. */
  error: Error | null;
}

/**
 * The last argument of every call: an `AbortSignal`, or these options.
 * `fetchOptions` go to `fetch` as its second argument (Next's `{ next: { revalidate, tags } }`,
 * Workers' `cf`, `cache: "force-cache"` …); `method`, `headers`, `body` and `signal` are the
 * client's and are refused. Identical GETs in flight share one request, sent with the first
 * caller's `fetchOptions`.
 */
export interface CallOptions {
  signal?: AbortSignal;
  /** This call's cache strategy, instead of the client's (GETs; POSTs are never cached). */
  cache?: CacheStrategy;
  fetchOptions?: { [member: string]: unknown };
  /** Told (before the promise resolves) when this call is answered with a stale answer. */
  onStale?: (answer: StaleAnswer) => void;
}

export interface CirrusClient {
  /**
   * `GET /products`: `limit` 1..=500 (an integer), `offset` >= 0. With `minimal: true`
   * the products are `MinimalProduct`s; with `includePagination: true` the result has
   * `pagination`.
   */
  products<const O extends ProductsOptions | undefined = undefined>(options?: ExactOptions<ProductsOptions, O, "products()">, signal?: AbortSignal | CallOptions): Promise<ProductsResult<O>>;
  /** Options whose members are not known here (a generic wrapper's `O extends ProductsOptions`). */
  products(options?: ProductsOptions, signal?: AbortSignal | CallOptions): Promise<ProductsResult<ProductsOptions>>;
  /** Every active product, fetched page by page (`for await (const p of client.allProducts())`). */
  allProducts<const O extends AllProductsOptions | undefined = undefined>(options?: ExactOptions<AllProductsOptions, O, "allProducts()">, signal?: AbortSignal | CallOptions): AsyncIterableIterator<ProductOf<O>>;
  /** Options whose members are not known here (a generic wrapper's `O extends AllProductsOptions`). */
  allProducts(options?: AllProductsOptions, signal?: AbortSignal | CallOptions): AsyncIterableIterator<ProductOf<AllProductsOptions>>;
}
"#;

#[wasm_bindgen(inline_js = "export function iterable(o) { o[Symbol.asyncIterator] = function () { return this; }; return o; }
export function stale(f, reason, path, ageMs, error) { try { f({ reason, path, ageMs, error }); } catch {} }
export function handled(p) { p.catch(() => {}); }")]
extern "C" {
    /// Makes an object with `next()` usable by `for await`.
    fn iterable(o: JsValue) -> JsValue;
    /// Calls an `onStale` listener with a `StaleAnswer` (what it throws is ignored:
    /// the answer is given all the same).
    fn stale(f: &Function, reason: &str, path: &str, age_ms: f64, error: &JsValue);
    /// Marks a promise's rejection as handled.
    fn handled(p: &Promise);
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
    cache: JsValue,
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
struct Entries(Vec<(String, Entry)>);

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
    fn cached(&self) -> usize {
        self.0.iter().filter(|(_, e)| e.stored.is_some()).count()
    }
}

/// A call's last argument: its signal, cache strategy, `fetch` options and stale listener.
#[derive(Clone, Default)]
struct CallOpts {
    signal: Option<AbortSignal>,
    cache: Option<Strategy>,
    fetch_options: Option<JsValue>,
    on_stale: Option<Function>,
}

struct Inner {
    http: Transport,
    cache: Strategy,
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

/// Whether the object `v` has own enumerable members besides `known`
/// (members whose value is `undefined` count as absent).
fn has_others(v: &JsValue, known: &[&str]) -> bool {
    let given = js_sys::Object::values(v.unchecked_ref::<js_sys::Object>()).iter().filter(|x| !x.is_undefined()).count();
    given > known.iter().filter(|k| !get(v, k).is_undefined()).count()
}


/// A `cache` option: absent, `"no-store"`, or `{ maxAgeMs, staleWhileRevalidateMs,
/// staleIfErrorMs }`, checked by the core ([`Strategy`]).
fn cache_arg(what: &str, v: &JsValue) -> Result<Option<Strategy>> {
    if v.is_undefined() || v.is_null() {
        return Ok(None);
    }
    if let Some(s) = v.as_string() {
        return Strategy::from_keyword(what, &s).map(Some);
    }
    if !v.is_object() || js_sys::Array::is_array(v) {
        return Strategy::from_keyword(what, "").map(Some);
    }
    // Absent: `None`; not a number: NaN, which the core refuses.
    let members = cache::MEMBERS.map(|m| {
        let x = get(v, m);
        (!x.is_undefined() && !x.is_null()).then(|| x.as_f64().unwrap_or(f64::NAN))
    });
    Strategy::from_members(what, has_others(v, &cache::MEMBERS), members).map(Some)
}

/// A call's last argument: absent, an `AbortSignal`, or `{ signal, cache,
/// fetchOptions, onStale }` ([`CallOpts`]).
fn call_arg(v: Option<JsValue>) -> Result<CallOpts> {
    let Some(v) = v.filter(|v| !v.is_undefined() && !v.is_null()) else { return Ok(CallOpts::default()) };
    // An AbortSignal, or something else that is not an object: signal_arg says which.
    if get(&v, "aborted").as_bool().is_some() || !v.is_object() || js_sys::Array::is_array(&v) {
        return Ok(CallOpts { signal: signal_arg(Some(v))?, ..CallOpts::default() });
    }
    let fetch_options = get(&v, "fetchOptions");
    let fetch_options = if fetch_options.is_undefined() || fetch_options.is_null() {
        None
    } else if fetch_options.is_object() && !js_sys::Array::is_array(&fetch_options) {
        cache::check_fetch_options(cache::FETCH_OPTIONS_REFUSED.into_iter().filter(|k| !get(&fetch_options, k).is_undefined()))?;
        Some(fetch_options)
    } else {
        return Err(Error::invalid_argument("callOptions.fetchOptions must be an object"));
    };
    Ok(CallOpts {
        signal: signal_arg(Some(get(&v, "signal")))?,
        cache: cache_arg("callOptions.cache", &get(&v, "cache"))?,
        fetch_options,
        on_stale: match get(&v, "onStale") {
            f if f.is_function() => Some(f.unchecked_into()),
            f if f.is_undefined() || f.is_null() => None,
            _ => return Err(Error::invalid_argument("callOptions.onStale must be a function")),
        },
    })
}

/// Tells the call's `onStale` that a stale answer was given.
fn tell_stale(listener: Option<&Function>, revalidating: bool, path: &str, age_ms: f64, error: &JsValue) {
    if let Some(f) = listener {
        stale(f, if revalidating { "revalidating" } else { "error" }, path, age_ms, error);
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
    /// (default 2), `cache` (a `CacheStrategy`, default none) or `cacheTtlMs` (= `cache:
    /// { maxAgeMs }`), `fetch` (default
    /// `globalThis.fetch`; called with the `Request` the client built, and the call's
    /// `fetchOptions` when it has some).
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
        let cache = client_cache(config.cache_ttl_ms, cache_arg("options.cache", &o.cache)?)?;
        let http = Transport { authorization: config.authorization(), base_url: config.base_url, fetch, timeout_ms: config.timeout_ms, retries: config.retries };
        Ok(CirrusClient { inner: Rc::new(Inner { http, cache, entries: RefCell::default(), next_id: Cell::new(0) }) })
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
        let call = call_arg(signal)?;
        let o: AllProductsOptions = arg_from_js(options, "options", None, true)?;
        let limit = o.page_size.unwrap_or(100);
        Call::products(&ProductsQuery { limit: Some(limit), ..ProductsQuery::default() })
            .map_err(|_| Error::invalid_argument(cat(&["options.pageSize must be an integer in 1..=500, got ", &uint(limit.into())])))?;
        let pages = ProductPages { client: self.inner.clone(), limit, minimal: o.minimal, call, state: RefCell::default() };
        Ok(iterable(pages.into()))
    }

    /// `GET /products/slug/{slug}`: the product.
    #[wasm_bindgen(js_name = productBySlug, unchecked_return_type = "Promise<Product>")]
    pub fn product_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.catalog(Op::ProductBySlug, &slug, signal)
    }

    /// `GET /pages`: every page.
    #[wasm_bindgen(unchecked_return_type = "Promise<Page[]>")]
    pub fn pages(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>) -> Promise {
        self.catalog(Op::Pages, &JsValue::UNDEFINED, signal)
    }

    /// `GET /collections`: every collection, with products and breadcrumb.
    #[wasm_bindgen(unchecked_return_type = "Promise<Collection[]>")]
    pub fn collections(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>) -> Promise {
        self.catalog(Op::Collections, &JsValue::UNDEFINED, signal)
    }

    /// `GET /collections/slug/{slug}`: the collection.
    #[wasm_bindgen(js_name = collectionBySlug, unchecked_return_type = "Promise<Collection>")]
    pub fn collection_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.catalog(Op::CollectionBySlug, &slug, signal)
    }

    /// `GET /collections/{id}`: the collection.
    #[wasm_bindgen(unchecked_return_type = "Promise<Collection>")]
    pub fn collection(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.catalog(Op::Collection, &id, signal)
    }

    /// `GET /store`: the store configuration.
    #[wasm_bindgen(unchecked_return_type = "Promise<Store>")]
    pub fn store(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>) -> Promise {
        self.catalog(Op::Store, &JsValue::UNDEFINED, signal)
    }

    /// `POST /shipping-rates`: the rates per variant (retried like a GET).
    #[wasm_bindgen(js_name = shippingRates, unchecked_return_type = "Promise<VariantRates[]>")]
    pub fn shipping_rates(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ShippingRatesRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<ShippingRatesRequest>(body, signal)
    }

    /// `POST /payments/initiate` (sent once, never retried).
    #[wasm_bindgen(js_name = initiatePayment, unchecked_return_type = "Promise<InitiateResponse>")]
    pub fn initiate_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "InitiateRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<InitiateRequest>(body, signal)
    }

    /// `POST /payments/update` (sent once, never retried).
    #[wasm_bindgen(js_name = updatePayment, unchecked_return_type = "Promise<UpdateResponse>")]
    pub fn update_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "UpdateRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<UpdateRequest>(body, signal)
    }

    /// `POST /payments/confirm` (sent once, never retried; the server makes it
    /// idempotent, so calling it again after 3-D Secure is safe).
    #[wasm_bindgen(js_name = confirmPayment, unchecked_return_type = "Promise<ConfirmResponse>")]
    pub fn confirm_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConfirmRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal | CallOptions")] signal: Option<JsValue>,
    ) -> Promise {
        self.post::<ConfirmRequest>(body, signal)
    }

    /// Forgets cached answers (requests in flight still complete).
    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        let mut entries = self.inner.entries.borrow_mut();
        for (_, e) in &mut entries.0 {
            e.stored = None;
        }
        entries.prune();
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

    /// The promise of every operation: the argument errors (the call
    /// options' first) as a rejection, else [`Inner::run`].
    fn run(&self, call: Result<Call>, body: Option<String>, opts: Option<JsValue>) -> Promise {
        let prepared = call_arg(opts).and_then(|o| Ok((call?, o)));
        match prepared {
            Ok((call, o)) => future_to_promise(self.inner.clone().run(call, body, o)),
            Err(e) => Promise::reject(&e.into()),
        }
    }
}

impl Inner {
    /// One operation: a GET shared and cached ([`Inner::get`]), a POST sent as it is.
    async fn run(self: Rc<Self>, call: Call, body: Option<String>, o: CallOpts) -> Result<JsValue, JsValue> {
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
    async fn get(self: Rc<Self>, call: Call, o: CallOpts) -> Result<JsValue, JsValue> {
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
                    tell_stale(on_stale, true, &path, age, &JsValue::NULL);
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
                        tell_stale(on_stale, false, &path, age, &e);
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
            let message = cat(&[method, &call.path, ": ", &e.message]);
            Error { message, ..e }.with_status(answer.status).with_request_id(answer.request_id.clone())
        })
    }
}

/// Keeps the cache within [`MAX_CACHED`] answers: the ones past use go
/// first, then the ones closest to it.
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
    call: CallOpts,
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
            let page = self.client.clone().get(Call::products(&q)?, self.call.clone()).await?;
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
