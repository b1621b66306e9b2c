//! Serde helper for fields that are nullable but must be present.
//!
//! With plain `Option<T>` serde treats a missing field as `None`; routing the
//! field through `deserialize_with` turns "missing" into a `missing field`
//! error while `null` still decodes to `None`. Its visitor reads `null`
//! (`visit_none`) and a value (`visit_some`), not `visit_unit`: serde-wasm-bindgen
//! (vendor/README.md) offers an absent member to an `Option` as a unit, which
//! serde's own `Option` reads as `None` and this one refuses.

use core::marker::PhantomData;
use serde::de::{Deserialize, Deserializer, Visitor};

struct Nullable<T>(PhantomData<T>);

impl<'de, T: Deserialize<'de>> Visitor<'de> for Nullable<T> {
    type Value = Option<T>;

    fn expecting(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("a value or null")
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Option<T>, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        T::deserialize(d).map(Some)
    }
}

/// Deserialize a present-but-possibly-null field.
///
/// # Errors
/// Whatever the inner type's deserializer reports.
pub fn deserialize<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    deserializer.deserialize_option(Nullable(PhantomData))
}
