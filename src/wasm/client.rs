//! `CirrusClient`: the typed catalog fetchers and the payment calls, a Rust
//! class that does its own I/O.
//!
//! Each exported method decodes its arguments synchronously, once, by
//! serde-wasm-bindgen ([`super::interop`]), checks them by the core's rules
//! into a [`Call`] of its [`crate::endpoint::Op`] (path, method, retry policy,
//! response schema), and hands that to one shared non-generic async body
//! ([`Inner::run`]), so a bad argument is an `invalid_argument` (a rejected
//! promise) before any request. Requests go out through [`super::http`]
//! (gloo-net, timeout, abort, retries). A 2xx body is checked
//! against the response schema of the model types in wasm memory
//! ([`super::body`]), then the engine's `JSON.parse` builds the objects the
//! caller gets, so nullable members are `null` and maps are plain objects.
//!
//! Split by concern: the shared GETs and the answer cache are
//! [`super::client_cache`], the `allProducts` iterator [`super::client_pages`],
//! the TypeScript of the class [`super::client_types`].

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::future_to_promise;
use web_sys::AbortSignal;

use crate::cache::{self, CacheMembers, Strategy};
use crate::endpoint::{Call, Op, ProductsQuery};
use crate::error::{Error, Result};
use crate::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};
use crate::options::{client_cache, AllProductsOptions, CallOptions, ClientOptions};

use super::client_cache::{CallOpts, Inner};
use super::client_pages::ProductPages;
use super::http::Transport;
use super::interop::{arg_from_js, to_js};
use super::js::get;
use super::post_body::BodyArg;
use crate::jsoncheck::Root;

/// A Cirrus V1 storefront client.
#[wasm_bindgen]
pub struct CirrusClient {
    inner: Rc<Inner>,
}

/// A `signal` (the call's last argument, or `callOptions.signal`, named `what`): absent, or
/// something with a boolean `aborted`.
fn signal_arg(what: &str, s: JsValue) -> Result<Option<AbortSignal>> {
    if s.is_undefined() || s.is_null() {
        Ok(None)
    } else if get(&s, "aborted").as_bool().is_some() {
        Ok(Some(s.unchecked_into()))
    } else {
        Err(super::js::wrong_type(&[what, " must be an AbortSignal"].concat(), &s))
    }
}

/// A `cache` option (named `what`): absent, `"no-store"`, or a [`CacheMembers`] object
/// (decoded by [`arg_from_js`] as every option is), checked by the core ([`Strategy`]).
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
    let members: CacheMembers = arg_from_js(v.clone(), what, Some(Root::CacheMembers), true)?;
    Ok(Some(Strategy::from_members(members)))
}

/// A call's last argument: absent, an `AbortSignal`, or [`CallOptions`] (decoded by
/// [`arg_from_js`] as every option is: an unknown member is refused), each member then
/// checked here into [`CallOpts`].
fn call_arg(v: Option<JsValue>) -> Result<CallOpts> {
    let Some(v) = v.filter(|v| !v.is_undefined() && !v.is_null()) else { return Ok(CallOpts::default()) };
    // An AbortSignal, or something else that is not an object: signal_arg says which.
    if get(&v, "aborted").as_bool().is_some() || !v.is_object() || js_sys::Array::is_array(&v) {
        return Ok(CallOpts { signal: signal_arg("signal", v)?, ..CallOpts::default() });
    }
    // Its data decoded (none today but the check of its members); the JS-only members read by name.
    let _: CallOptions = arg_from_js(v.clone(), "callOptions", Some(Root::CallOptions), true)?;
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
        signal: signal_arg("callOptions.signal", get(&v, "signal"))?,
        cache: cache_arg("callOptions.cache", &get(&v, "cache"))?,
        fetch_options,
        on_stale: match get(&v, "onStale") {
            f if f.is_function() => Some(f.unchecked_into()),
            f if f.is_undefined() || f.is_null() => None,
            f => return Err(super::js::wrong_type("callOptions.onStale must be a function", &f)),
        },
    })
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
        let o: ClientOptions = arg_from_js(options.clone(), "options", Some(Root::ClientOptions), true)?;
        // The JS-only members (`fetch`, `cache`), read by name.
        let fetch = match get(&options, "fetch") {
            f if f.is_undefined() || f.is_null() => None,
            f => Some(super::js::function_arg(f, "options.fetch must be a function")?),
        };
        let config = o.validate()?;
        let cache = client_cache(config.cache_ttl_ms, cache_arg("options.cache", &get(&options, "cache"))?)?;
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
        let o: AllProductsOptions = arg_from_js(options, "options", Some(Root::AllProductsOptions), true)?;
        let limit = o.page_size.unwrap_or(100);
        Call::products(&ProductsQuery { limit: Some(limit), ..ProductsQuery::default() })
            .map_err(|_| Error::invalid_argument(format!("options.pageSize must be an integer in 1..=500, got {}", limit)))?;
        Ok(ProductPages::iterator(self.inner.clone(), limit, o.minimal, call))
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
        self.inner.clear_cache();
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
            crate::endpoint::Arg::Segment(what) => super::js::string_arg(arg, &format!("{what} must be a string")).and_then(|a| Call::catalog(op, &a)),
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

