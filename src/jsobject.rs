//! [`JsObject`]: a member of an options type that only JavaScript can give (a function,
//! the processor adapter, a `Storage`, a `Cart`, an `AbortSignal`). It is not data serde can
//! decode, so the options type holds no value for it: the member is declared there (the
//! one check of unknown members, `src/wasm/interop.rs`, accepts its name; `tools/typegen/`
//! types it from its table of JS-only members and documents it from the member's doc
//! comment), serde reads nothing of it, and the one place that reads those options takes its
//! value from the argument by that name (`js::get(&options, "adapter")`) and checks it there.
//!
//! (Carrying the value through serde, serde-wasm-bindgen's `preserve`, makes the pages 0.9 KB
//! gz (catalog), 1.0 KB (product) and 1.8 KB (checkout) larger: issue 43, docs/ARCHITECTURE.md
//! "Written for bytes".)

use serde::{Deserialize, Deserializer};

/// A member only JavaScript can give: declared by the options type, its value read by name
/// from the argument where the options are read.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct JsObject;

impl<'de> Deserialize<'de> for JsObject {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = JsObject;
            fn expecting(&self, f: &mut core::fmt::Formatter) -> core::fmt::Result {
                f.write_str("a JavaScript value")
            }
            fn visit_unit<E>(self) -> Result<JsObject, E> {
                Ok(JsObject)
            }
        }
        // serde-wasm-bindgen reads nothing of an ignored value (whatever it is); the type
        // generator's tracer sees a unit struct named `JsObject`.
        #[cfg(target_arch = "wasm32")]
        return d.deserialize_ignored_any(V);
        #[cfg(not(target_arch = "wasm32"))]
        d.deserialize_unit_struct("JsObject", V)
    }
}
