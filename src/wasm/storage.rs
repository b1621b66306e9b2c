//! Storage (gloo-storage's shape, without its panics): `localStorage`,
//! `sessionStorage` or anything with the same methods, behind one extern
//! type. Every call can fail (disabled or full storage, a throwing double):
//! callers get a `Result`/`Option` and report it as a `problem` or carry on.

use wasm_bindgen::prelude::*;

type JsResult<T> = std::result::Result<T, JsValue>;

#[wasm_bindgen]
extern "C" {
    /// `localStorage`, `sessionStorage`, or anything with `getItem`/`setItem`/`removeItem`.
    #[derive(Clone)]
    pub type Store;
    #[wasm_bindgen(method, catch, js_name = getItem)]
    pub(super) fn get_item(this: &Store, key: &str) -> JsResult<Option<String>>;
    #[wasm_bindgen(method, catch, js_name = setItem)]
    pub(super) fn set_item(this: &Store, key: &str, value: &str) -> JsResult<()>;
    #[wasm_bindgen(method, catch, js_name = removeItem)]
    pub(super) fn remove_item(this: &Store, key: &str) -> JsResult<()>;
}

/// `localStorage`: `Ok(None)` without a window or storage, `Err` when
/// reading it throws (storage disabled).
pub(super) fn local() -> JsResult<Option<Store>> {
    let Some(w) = web_sys::window() else { return Ok(None) };
    Ok(w.local_storage()?.map(JsCast::unchecked_into))
}

/// `sessionStorage`, as [`local`].
pub(super) fn session() -> JsResult<Option<Store>> {
    let Some(w) = web_sys::window() else { return Ok(None) };
    Ok(w.session_storage()?.map(JsCast::unchecked_into))
}
