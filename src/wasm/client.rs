//! `CirrusClient`: the catalog fetchers and the shared transport.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::future_to_promise;

use crate::error::{Error, ErrorCode, Result};
use crate::model::{ConfirmRequest, InitiateRequest, ShippingRatesRequest, UpdateRequest};
use crate::options::ClientOptions;
use crate::request::{self, ProductsQuery, Request};

use super::de::from_js;
use super::error::to_js;
use super::transport::{RawOk, Transport};

/// Decodes a JS argument object into a core type (directly from the JS value,
/// see [`super::de`]), so a wrong type or an unknown option is an
/// `invalid_argument` naming the path (functions and `undefined` members are
/// skipped, as `JSON.stringify` would; `undefined`/`null` reads as `{}`).
///
/// # Errors
/// `invalid_argument` naming `what` and the offending path.
pub(crate) fn parse_arg<T: DeserializeOwned>(what: &str, value: &JsValue) -> Result<T> {
    let r = if value.is_undefined() || value.is_null() { from_js(&Object::new().into()) } else { from_js(value) };
    r.map_err(|e| {
        let path = e.path();
        let sep = if path.is_empty() { ": " } else if path.starts_with('[') { "" } else { "." };
        let mut m = String::with_capacity(what.len() + path.len() + e.message().len() + 3);
        m.push_str(what);
        m.push_str(sep);
        if !path.is_empty() {
            m.push_str(&path);
            m.push_str(": ");
        }
        m.push_str(e.message());
        Error::invalid_argument(m)
    })
}

/// A Cirrus V1 storefront client.
#[wasm_bindgen(js_name = CirrusClient)]
pub struct CirrusClient {
    shared: Rc<Shared>,
}

impl CirrusClient {
    /// The client's transport (for other areas: checkout sends payments with it).
    #[cfg_attr(feature = "sdk-only", allow(dead_code))]
    pub(crate) fn transport(&self) -> Transport {
        self.shared.transport.clone()
    }
}

#[wasm_bindgen(js_class = CirrusClient)]
impl CirrusClient {
    /// Makes a client. Options are checked here: `baseUrl` (ends with
    /// `/api/v1`, https unless loopback), `apiKey` (`ak_` + 48 hex),
    /// `timeoutMs` (default 10000), `retries` (default 2), `cacheTtlMs`
    /// (default 0: no cache), `fetch` (default `globalThis.fetch`).
    ///
    /// # Errors
    /// A `CirrusError` with code `invalid_argument` naming the bad option.
    #[wasm_bindgen(constructor)]
    pub fn new(#[wasm_bindgen(unchecked_param_type = "ClientOptions")] options: JsValue) -> Result<CirrusClient, JsValue> {
        let opts: ClientOptions = parse_arg("options", &options)?;
        let config = opts.validate()?;
        let fetch = if options.is_object() { field(&options, "fetch") } else { JsValue::UNDEFINED };
        if !fetch.is_undefined() && !fetch.is_instance_of::<Function>() {
            return Err(to_js(&Error::invalid_argument("options.fetch must be a function")));
        }
        let shared = Shared { transport: Transport::new(config, fetch), entries: RefCell::default(), next_id: Cell::new(0) };
        Ok(Self { shared: Rc::new(shared) })
    }

    /// `GET /products`: `{ products, pagination? }`. `limit` 1..=500 (an
    /// integer), `offset` >= 0; `minimal` gives `MinimalProduct`s;
    /// `includePagination` adds `pagination`.
    #[wasm_bindgen(unchecked_return_type = "Promise<{ products: (Product | MinimalProduct)[]; pagination?: Pagination }>")]
    pub fn products(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ProductsOptions")] options: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let q: Result<ProductsQuery> = parse_arg("options", &options);
        let shape = match &q {
            Ok(q) => Shape {
                schema: if q.minimal { "MinimalProductsResponse" } else { "ProductsResponse" },
                member: None,
                pagination: q.include_pagination,
            },
            Err(_) => shape("ProductsResponse", None),
        };
        self.shared.get(q.and_then(|q| request::products(&q)), shape, signal_arg(signal))
    }

    /// `GET /products/slug/{slug}`: the product.
    #[wasm_bindgen(js_name = productBySlug, unchecked_return_type = "Promise<Product>")]
    pub fn product_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = string_arg("slug", &slug).and_then(|s| request::product_by_slug(&s));
        self.shared.get(req, shape("ProductResponse", Some("product")), signal_arg(signal))
    }

    /// `GET /pages`: every page.
    #[wasm_bindgen(unchecked_return_type = "Promise<Page[]>")]
    pub fn pages(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>) -> Promise {
        self.shared.get(Ok(request::pages()), shape("PagesResponse", Some("pages")), signal_arg(signal))
    }

    /// `GET /collections`: every collection, with products and breadcrumb.
    #[wasm_bindgen(unchecked_return_type = "Promise<Collection[]>")]
    pub fn collections(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>) -> Promise {
        self.shared.get(Ok(request::collections()), shape("CollectionsResponse", Some("collections")), signal_arg(signal))
    }

    /// `GET /collections/slug/{slug}`: the collection.
    #[wasm_bindgen(js_name = collectionBySlug, unchecked_return_type = "Promise<Collection>")]
    pub fn collection_by_slug(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] slug: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = string_arg("slug", &slug).and_then(|s| request::collection_by_slug(&s));
        self.shared.get(req, shape("CollectionResponse", Some("collection")), signal_arg(signal))
    }

    /// `GET /collections/{id}`: the collection.
    #[wasm_bindgen(unchecked_return_type = "Promise<Collection>")]
    pub fn collection(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] id: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = string_arg("id", &id).and_then(|s| request::collection(&s));
        self.shared.get(req, shape("CollectionResponse", Some("collection")), signal_arg(signal))
    }

    /// `GET /store`: the store configuration.
    #[wasm_bindgen(unchecked_return_type = "Promise<Store>")]
    pub fn store(&self, #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>) -> Promise {
        self.shared.get(Ok(request::store()), shape("StoreResponse", Some("store")), signal_arg(signal))
    }

    /// `POST /shipping-rates`: the rates per variant (retried like a GET).
    #[wasm_bindgen(js_name = shippingRates, unchecked_return_type = "Promise<VariantRates[]>")]
    pub fn shipping_rates(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ShippingRatesRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = parse_arg::<ShippingRatesRequest>("body", &body).and_then(|b| request::shipping_rates(&b));
        self.shared.post(req, shape("ShippingRatesResponse", Some("variantRates")), signal_arg(signal))
    }

    /// `POST /payments/initiate` (sent once, never retried).
    #[wasm_bindgen(js_name = initiatePayment, unchecked_return_type = "Promise<InitiateResponse>")]
    pub fn initiate_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "InitiateRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = parse_arg::<InitiateRequest>("body", &body).and_then(|b| request::initiate_payment(&b));
        self.shared.post(req, shape("InitiateResponse", None), signal_arg(signal))
    }

    /// `POST /payments/update` (sent once, never retried).
    #[wasm_bindgen(js_name = updatePayment, unchecked_return_type = "Promise<UpdateResponse>")]
    pub fn update_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "UpdateRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = parse_arg::<UpdateRequest>("body", &body).and_then(|b| request::update_payment(&b));
        self.shared.post(req, shape("UpdateResponse", None), signal_arg(signal))
    }

    /// `POST /payments/confirm` (sent once, never retried; the server makes
    /// it idempotent, so calling it again after 3-D Secure is safe).
    #[wasm_bindgen(js_name = confirmPayment, unchecked_return_type = "Promise<ConfirmResponse>")]
    pub fn confirm_payment(
        &self,
        #[wasm_bindgen(unchecked_param_type = "ConfirmRequest")] body: JsValue,
        #[wasm_bindgen(unchecked_optional_param_type = "AbortSignal")] signal: Option<js_sys::Object>,
    ) -> Promise {
        let req = parse_arg::<ConfirmRequest>("body", &body).and_then(|b| request::confirm_payment(&b));
        self.shared.post(req, shape("ConfirmResponse", None), signal_arg(signal))
    }

    /// Forgets cached answers (requests in flight still complete).
    #[wasm_bindgen(js_name = clearCache)]
    pub fn clear_cache(&self) {
        self.shared.entries.borrow_mut().retain(|_, e| matches!(e, Entry::InFlight { .. }));
    }
}

// ------------------------------------------------------------------ JS imports

#[wasm_bindgen(module = "/js/validate.js")]
extern "C" {
    #[wasm_bindgen(js_name = parseChecked, catch)]
    fn parse_checked(text: &JsValue, name: &str, schema: &JsValue) -> Result<JsValue, JsValue>;
}

#[wasm_bindgen(module = "/js/generated/schema.js")]
extern "C" {
    #[wasm_bindgen(thread_local_v2, js_name = SCHEMA)]
    static SCHEMA: JsValue;
}

#[wasm_bindgen(module = "/js/transport.js")]
extern "C" {
    #[wasm_bindgen(js_name = raceAbort)]
    fn race_abort(promise: &Promise, signal: &JsValue, make_error: &JsValue, on_abandon: &JsValue) -> Promise;
    fn now() -> f64;
    fn quiet(promise: &Promise);
}

#[wasm_bindgen]
extern "C" {
    type AbortController;
    #[wasm_bindgen(constructor)]
    fn new() -> AbortController;
    #[wasm_bindgen(method, getter)]
    fn signal(this: &AbortController) -> JsValue;
    #[wasm_bindgen(method)]
    fn abort(this: &AbortController);
}

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = include_str!("../../js/generated/types.ts");

// ------------------------------------------------------------------ the client

/// Checks a 2xx body against the generated schema `name`, in JS (one
/// `JSON.parse`, then an in-place check; see BENCHMARKS.md "SDK").
fn validated(resp: &RawOk, name: &str) -> Result<JsValue> {
    SCHEMA.with(|schema| parse_checked(&resp.body, name, schema)).map_err(|msg| {
        Error::decode(msg.as_string().unwrap_or_else(|| "invalid response body".to_owned()))
            .with_status(resp.status)
            .with_request_id(resp.request_id.clone())
    })
}

fn field(v: &JsValue, name: &str) -> JsValue {
    Reflect::get(v, &JsValue::from_str(name)).unwrap_or(JsValue::UNDEFINED)
}

/// What the response of a catalog GET becomes.
#[derive(Clone, Copy)]
struct Shape {
    schema: &'static str,
    /// Unwrap this member (`{ product }` → the product); `None` keeps the body.
    member: Option<&'static str>,
    /// `pagination` must be present (asked for with `includePagination`).
    pagination: bool,
}

fn shape_out(resp: &RawOk, shape: Shape) -> Result<JsValue> {
    let v = validated(resp, shape.schema)?;
    if shape.pagination && field(&v, "pagination").is_undefined() {
        return Err(Error::decode("at pagination: missing field `pagination` (asked for with includePagination)")
            .with_status(resp.status)
            .with_request_id(resp.request_id.clone()));
    }
    Ok(match shape.member {
        Some(m) => field(&v, m),
        None => v,
    })
}

enum Entry {
    InFlight { id: u64, promise: Promise, waiters: Rc<Cell<u32>>, controller: Rc<AbortController> },
    Done { value: JsValue, expires: f64 },
}

struct Shared {
    transport: Transport,
    entries: RefCell<HashMap<String, Entry>>,
    next_id: Cell<u64>,
}

/// Accepts `undefined`/`null` or an `AbortSignal`-like object.
fn signal_arg(signal: Option<js_sys::Object>) -> Result<JsValue> {
    match signal {
        None => Ok(JsValue::UNDEFINED),
        Some(s) if field(&s, "aborted").as_bool().is_some() => Ok(s.into()),
        Some(_) => Err(Error::invalid_argument("signal must be an AbortSignal")),
    }
}

fn string_arg(what: &str, v: &JsValue) -> Result<String> {
    v.as_string().ok_or_else(|| Error::invalid_argument(format!("{what} must be a string")))
}

fn reject(e: &Error) -> Promise {
    Promise::reject(&to_js(e))
}

fn aborted_error_maker() -> JsValue {
    Closure::<dyn Fn(JsValue) -> JsValue>::new(|reason: JsValue| {
        to_js(&Error::new(ErrorCode::Aborted, reason.as_string().unwrap_or_else(|| "aborted".to_owned())))
    })
    .into_js_value()
}

impl Shared {
    /// A catalog GET: identical requests in flight share one; with a TTL,
    /// answers are cached. Each caller's `signal` aborts only that caller (the
    /// request itself is aborted once every caller has given up).
    fn get(self: &Rc<Self>, req: Result<Request>, shape: Shape, signal: Result<JsValue>) -> Promise {
        let (req, signal) = match (req, signal) {
            (Ok(r), Ok(s)) => (r, s),
            (Err(e), _) | (_, Err(e)) => return reject(&e),
        };
        let key = req.path_and_query();
        let ttl = self.transport.config.cache_ttl_ms;
        let mut entries = self.entries.borrow_mut();
        let (promise, waiters, controller) = match entries.get(&key) {
            Some(Entry::Done { value, expires }) if *expires > now() => return Promise::resolve(value),
            Some(Entry::InFlight { promise, waiters, controller, .. }) => {
                waiters.set(waiters.get() + 1);
                (promise.clone(), waiters.clone(), controller.clone())
            }
            _ => {
                let id = self.next_id.get() + 1;
                self.next_id.set(id);
                let controller = Rc::new(AbortController::new());
                let waiters = Rc::new(Cell::new(1));
                let this = Rc::clone(self);
                let key2 = key.clone();
                let ctl_signal = controller.signal();
                let promise = future_to_promise(async move {
                    let result = this.transport.send_raw(&req, &ctl_signal).await.and_then(|r| shape_out(&r, shape));
                    let mut entries = this.entries.borrow_mut();
                    if matches!(entries.get(&key2), Some(Entry::InFlight { id: i, .. }) if *i == id) {
                        match &result {
                            Ok(value) if ttl > 0 => {
                                entries.insert(key2, Entry::Done { value: value.clone(), expires: now() + f64::from(ttl) });
                            }
                            _ => drop(entries.remove(&key2)),
                        }
                    }
                    result.map_err(|e| to_js(&e))
                });
                // Every caller may have gone; keep the rejection from being "unhandled".
                quiet(&promise);
                entries.insert(key, Entry::InFlight { id, promise: promise.clone(), waiters: waiters.clone(), controller: controller.clone() });
                (promise, waiters, controller)
            }
        };
        drop(entries);
        if signal.is_undefined() {
            return promise;
        }
        let on_abandon = Closure::once_into_js(move || {
            waiters.set(waiters.get().saturating_sub(1));
            if waiters.get() == 0 {
                controller.abort();
            }
        });
        race_abort(&promise, &signal, &aborted_error_maker(), &on_abandon)
    }

    /// A POST: never shared or cached; retried only if the request says so.
    fn post(self: &Rc<Self>, req: Result<Request>, shape: Shape, signal: Result<JsValue>) -> Promise {
        let (req, signal) = match (req, signal) {
            (Ok(r), Ok(s)) => (r, s),
            (Err(e), _) | (_, Err(e)) => return reject(&e),
        };
        let this = Rc::clone(self);
        future_to_promise(async move {
            let resp = this.transport.send_raw(&req, &signal).await.map_err(|e| to_js(&e))?;
            shape_out(&resp, shape).map_err(|e| to_js(&e))
        })
    }
}

const fn shape(schema: &'static str, member: Option<&'static str>) -> Shape {
    Shape { schema, member, pagination: false }
}
