//! [`StrMap`]: a map of strings to strings kept as a list sorted by key, for
//! the small maps the wire types carry (a variant's attributes, an option
//! selection). It reads and writes as a JSON object exactly like
//! `BTreeMap<String, String>` (members in key order, a repeated key's last
//! value kept) without bringing an ordered tree's code into the wasm (a `BTreeMap` makes the
//! pages 2.5 KB gz (catalog) to 2.7 KB (product, checkout) larger: issue 43,
//! docs/ARCHITECTURE.md "Written for bytes").

use std::fmt;
use std::ops::Index;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Keys in byte order (that of `str`'s `Ord`), each once.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct StrMap(Vec<(String, String)>);

impl StrMap {
    /// An empty map.
    #[must_use]
    pub const fn new() -> Self {
        Self(Vec::new())
    }

    fn find(&self, key: &str) -> Result<usize, usize> {
        self.0.binary_search_by(|(k, _)| k.as_str().cmp(key))
    }

    /// The value of `key`.
    #[must_use]
    pub fn get(&self, key: &str) -> Option<&String> {
        self.find(key).ok().and_then(|i| self.0.get(i)).map(|(_, v)| v)
    }

    /// Sets `key` to `value`; the value it had, if any.
    pub fn insert(&mut self, key: String, value: String) -> Option<String> {
        match self.find(&key) {
            Ok(i) => self.0.get_mut(i).map(|(_, v)| std::mem::replace(v, value)),
            Err(i) => {
                self.0.insert(i, (key, value));
                None
            }
        }
    }

    /// Whether `key` has a value.
    #[must_use]
    pub fn contains_key(&self, key: &str) -> bool {
        self.find(key).is_ok()
    }

    /// The entries in key order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &String)> {
        self.0.iter().map(|(k, v)| (k, v))
    }

    /// The keys in order.
    pub fn keys(&self) -> impl Iterator<Item = &String> {
        self.0.iter().map(|(k, _)| k)
    }

    /// How many entries.
    #[must_use]
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromIterator<(String, String)> for StrMap {
    fn from_iter<I: IntoIterator<Item = (String, String)>>(iter: I) -> Self {
        let mut map = Self::new();
        for (k, v) in iter {
            map.insert(k, v);
        }
        map
    }
}

impl<const N: usize> From<[(String, String); N]> for StrMap {
    fn from(entries: [(String, String); N]) -> Self {
        entries.into_iter().collect()
    }
}

impl<'a> IntoIterator for &'a StrMap {
    type Item = (&'a String, &'a String);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (String, String)>, fn(&'a (String, String)) -> (&'a String, &'a String)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl Index<&str> for StrMap {
    type Output = String;
    /// # Panics
    /// If `key` has no value (as `BTreeMap`'s index does).
    fn index(&self, key: &str) -> &String {
        self.get(key).expect("no entry for this key in the StrMap")
    }
}

impl Serialize for StrMap {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for StrMap {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct Entries;
        impl<'de> Visitor<'de> for Entries {
            type Value = StrMap;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<StrMap, A::Error> {
                let mut map = StrMap::new();
                while let Some((k, v)) = access.next_entry::<String, String>()? {
                    map.insert(k, v);
                }
                Ok(map)
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

#[cfg(test)]
mod tests {
    use super::StrMap;
    use proptest::prelude::*;
    use std::collections::BTreeMap;

    proptest! {
        /// Built from the same entries, it holds, iterates and writes what a
        /// `BTreeMap` does, and reads back the same from either's JSON.
        #[test]
        fn behaves_like_a_btreemap(entries in proptest::collection::vec(("[a-c]{0,3}|Size|Color|é|10|2", "[a-z]{0,3}"), 0..12), probe in "[a-c]{0,3}|Size") {
            let ours: StrMap = entries.iter().cloned().collect();
            let std: BTreeMap<String, String> = entries.iter().cloned().collect();
            prop_assert_eq!(ours.len(), std.len());
            prop_assert_eq!(ours.iter().collect::<Vec<_>>(), std.iter().collect::<Vec<_>>());
            prop_assert_eq!(ours.get(&probe), std.get(&probe));
            prop_assert_eq!(ours.contains_key(&probe), std.contains_key(&probe));
            let json = serde_json::to_string(&ours).unwrap();
            prop_assert_eq!(&json, &serde_json::to_string(&std).unwrap());
            prop_assert_eq!(serde_json::from_str::<StrMap>(&json).unwrap(), ours);
        }
    }

    #[test]
    fn a_repeated_key_keeps_its_last_value_and_non_strings_are_refused() {
        let m: StrMap = serde_json::from_str(r#"{"b": "1", "a": "2", "b": "3"}"#).unwrap();
        assert_eq!(m.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>(), ["a=2", "b=3"]);
        assert_eq!(m["b"], "3");
        assert!(serde_json::from_str::<StrMap>(r#"{"a": 1}"#).is_err());
        assert!(serde_json::from_str::<StrMap>(r#"["a", "b"]"#).is_err());
    }
}
