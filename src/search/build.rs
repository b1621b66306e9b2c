//! Products → [`SearchIndex`]: deterministic (the same products give the same index, and the
//! same bytes): terms, option values, collections and tags are sorted; products keep their order.

use std::collections::{BTreeMap, HashMap};

use super::input::Product;
use super::text::words;
use super::{Doc, SearchIndex, Var, NAME, NO_POS};
use crate::error::Error;
use crate::model;

impl SearchIndex {
    /// The index of the catalog's products (what `client.allProducts()` yields).
    ///
    /// # Errors
    /// `invalid_argument` naming the product when a variant's price is not a decimal amount.
    pub fn from_products(products: &[model::Product]) -> Result<Self, Error> {
        let narrow: Vec<Product> = products.iter().map(Product::from).collect();
        Self::build(&narrow)
    }

    /// The index of `products` (the members [`Product`] reads of each).
    ///
    /// # Errors
    /// `invalid_argument` naming the product when a variant's price is not a decimal amount.
    pub fn build(products: &[Product]) -> Result<Self, Error> {
        // Dictionaries, keyed by their text; numbered in first-seen order, sorted at the end.
        let mut option_names: BTreeMap<&str, u32> = BTreeMap::new();
        let mut values: BTreeMap<(&str, &str), u32> = BTreeMap::new();
        let mut collections: BTreeMap<&str, &str> = BTreeMap::new();
        let mut tags: BTreeMap<&str, u32> = BTreeMap::new();
        for p in products {
            for v in &p.variants {
                for (name, value) in &v.attributes {
                    option_names.insert(name, 0);
                    values.insert((name, value), 0);
                }
            }
            for c in &p.collections {
                collections.entry(&c.id).or_insert(&c.name);
            }
            for t in &p.tags {
                tags.insert(t, 0);
            }
        }
        for (i, v) in option_names.values_mut().enumerate() {
            *v = i as u32;
        }
        for (i, v) in values.values_mut().enumerate() {
            *v = i as u32;
        }
        for (i, v) in tags.values_mut().enumerate() {
            *v = i as u32;
        }
        let coll_ids: Vec<&str> = collections.keys().copied().collect();

        let mut term_ids: HashMap<String, u32> = HashMap::new();
        let mut term_texts: Vec<String> = Vec::new();
        let mut postings: Vec<Vec<(u32, u8)>> = Vec::new();
        let mut docs = Vec::with_capacity(products.len());
        let mut seen: Vec<(u32, u8)> = Vec::new();
        for (d, p) in products.iter().enumerate() {
            seen.clear();
            let mut add = |text: &str, field: u8| {
                for w in words(text, true) {
                    let id = match term_ids.get(w.text.as_str()) {
                        Some(&id) => id,
                        None => {
                            let id = term_texts.len() as u32;
                            term_ids.insert(w.text.clone(), id);
                            term_texts.push(w.text);
                            postings.push(Vec::new());
                            id
                        }
                    };
                    let pos = if field == NAME { (w.pos.min(u32::from(NO_POS) - 1)) as u8 } else { NO_POS };
                    seen.push((id, (1 << field) | (pos << 5)));
                }
            };
            add(&p.name, 0);
            for t in &p.tags {
                add(t, 1);
            }
            for o in &p.options {
                for v in &o.values {
                    add(&v.value, 2);
                }
            }
            for v in &p.variants {
                for (_, value) in &v.attributes {
                    add(value, 2);
                }
            }
            for c in &p.collections {
                add(&c.name, 3);
            }
            add(&p.description, 4);
            seen.sort_unstable();
            let mut i = 0;
            while i < seen.len() {
                let (id, mut flags) = seen[i];
                let mut pos = flags >> 5;
                let mut j = i + 1;
                while j < seen.len() && seen[j].0 == id {
                    flags |= seen[j].1 & 0x1F;
                    pos = pos.min(seen[j].1 >> 5);
                    j += 1;
                }
                postings[id as usize].push((d as u32, (flags & 0x1F) | (pos << 5)));
                i = j;
            }
            docs.push(doc_of(p, &values, &coll_ids, &tags)?);
        }

        let mut order: Vec<u32> = (0..term_texts.len() as u32).collect();
        order.sort_unstable_by(|&a, &b| term_texts[a as usize].cmp(&term_texts[b as usize]));
        let mut post_start = Vec::with_capacity(order.len() + 1);
        let total: usize = postings.iter().map(Vec::len).sum();
        let (mut post_doc, mut post_flags) = (Vec::with_capacity(total), Vec::with_capacity(total));
        post_start.push(0);
        for &t in &order {
            for &(d, f) in &postings[t as usize] {
                post_doc.push(d);
                post_flags.push(f);
            }
            post_start.push(post_doc.len() as u32);
        }
        let terms: Vec<String> = order.iter().map(|&t| core::mem::take(&mut term_texts[t as usize])).collect();
        let name_rank = Self::rank_names(&docs);
        Ok(Self {
            terms,
            post_start,
            post_doc,
            post_flags,
            docs,
            option_names: option_names.keys().map(|s| (*s).to_owned()).collect(),
            values: values.keys().map(|(n, v)| (option_names[n], (*v).to_owned())).collect(),
            collections: collections.iter().map(|(i, n)| ((*i).to_owned(), (*n).to_owned())).collect(),
            tags: tags.keys().map(|s| (*s).to_owned()).collect(),
            name_rank,
        })
    }
}

fn doc_of(p: &Product, values: &BTreeMap<(&str, &str), u32>, colls: &[&str], tags: &BTreeMap<&str, u32>) -> Result<Doc, Error> {
    let mut variants = Vec::with_capacity(p.variants.len());
    for v in &p.variants {
        let price = crate::money::parse_decimal(&v.price, 2)
            .map_err(|e| Error::invalid_argument(format!("product {}: {}", p.id, e.message)))?;
        let mut ids: Vec<u32> = v.attributes.iter().map(|(n, val)| values[&(n.as_str(), val.as_str())]).collect();
        ids.sort_unstable();
        variants.push(Var { price, in_stock: v.in_stock(), values: ids });
    }
    let mut collections: Vec<u32> = p.collections.iter().filter_map(|c| colls.binary_search(&c.id.as_str()).ok()).map(|i| i as u32).collect();
    collections.sort_unstable();
    collections.dedup();
    let mut tag_ids: Vec<u32> = p.tags.iter().map(|t| tags[t.as_str()]).collect();
    tag_ids.sort_unstable();
    tag_ids.dedup();
    Ok(Doc { id: p.id.clone(), name: p.name.clone(), created: created_key(&p.created_at), collections, tags: tag_ids, variants })
}

/// `createdAt`'s first 14 digits as a number (`2026-03-01T10:00:00Z` → 20260301100000).
fn created_key(s: &str) -> i64 {
    let mut k: i64 = 0;
    let mut n = 0;
    for b in s.bytes().filter(u8::is_ascii_digit).take(14) {
        k = k * 10 + i64::from(b - b'0');
        n += 1;
    }
    while n < 14 {
        k *= 10;
        n += 1;
    }
    k
}
