//! The iterator `CirrusClient.allProducts()` returns ([`super::client`]): one
//! `GET /products` per page, through the client's shared and cached GETs.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Reflect;
use wasm_bindgen::prelude::*;

use super::client_cache::{CallOpts, Inner};
use super::js::get;
use crate::endpoint::{Call, ProductsQuery};

#[wasm_bindgen(inline_js = "export function iterable(o) { o[Symbol.asyncIterator] = function () { return this; }; return o; }")]
extern "C" {
    /// Makes an object with `next()` usable by `for await`.
    fn iterable(o: JsValue) -> JsValue;
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

impl ProductPages {
    /// The pages of `limit` products (`minimal` ones) for a caller with `call` options, usable by `for await`.
    pub(super) fn iterator(client: Rc<Inner>, limit: u32, minimal: bool, call: CallOpts) -> JsValue {
        iterable(ProductPages { client, limit, minimal, call, state: RefCell::default() }.into())
    }
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
