//! `CirrusClient`: the catalog fetchers and the shared transport.

use std::rc::Rc;

use js_sys::{Function, Reflect};
use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use crate::error::{Error, Result};
use crate::options::ClientOptions;

use super::error::to_js;
use super::transport::Transport;

/// Parses a JS argument object through `JSON.stringify` into a core type, so
/// a wrong type or an unknown option is an `invalid_argument` naming the path
/// (functions and `undefined` members are dropped by `JSON.stringify`).
///
/// # Errors
/// `invalid_argument` naming `what` and the offending path.
pub(crate) fn parse_arg<T: DeserializeOwned>(what: &str, value: &JsValue) -> Result<T> {
    let json = if value.is_undefined() || value.is_null() {
        "{}".to_owned()
    } else {
        js_sys::JSON::stringify(value)
            .ok()
            .and_then(|s| s.as_string())
            .ok_or_else(|| Error::invalid_argument(format!("{what} must be a plain object")))?
    };
    let de = &mut serde_json::Deserializer::from_str(&json);
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        let msg = inner.to_string();
        // serde_json appends " at line 1 column N", meaningless for a JS object.
        let msg = msg.rsplit_once(" at line ").map_or(msg.as_str(), |(m, _)| m);
        if path == "." {
            Error::invalid_argument(format!("{what}: {msg}"))
        } else {
            Error::invalid_argument(format!("{what}.{path}: {msg}"))
        }
    })
}

pub(crate) struct Inner {
    pub(crate) transport: Transport,
}

/// A Cirrus V1 storefront client.
#[wasm_bindgen(js_name = CirrusClient)]
pub struct CirrusClient {
    inner: Rc<Inner>,
}

impl CirrusClient {
    /// The client's transport (for other areas: checkout sends payments with it).
    pub(crate) fn transport(&self) -> Transport {
        self.inner.transport.clone()
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
    pub fn new(options: JsValue) -> Result<CirrusClient, JsValue> {
        let opts: ClientOptions = parse_arg("options", &options)?;
        let config = opts.validate()?;
        let fetch = if options.is_object() {
            Reflect::get(&options, &JsValue::from_str("fetch")).unwrap_or(JsValue::UNDEFINED)
        } else {
            JsValue::UNDEFINED
        };
        if !fetch.is_undefined() && !fetch.is_instance_of::<Function>() {
            return Err(to_js(&Error::invalid_argument("options.fetch must be a function")));
        }
        Ok(Self { inner: Rc::new(Inner { transport: Transport::new(config, fetch) }) })
    }
}
