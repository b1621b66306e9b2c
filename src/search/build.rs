//! Products → [`SearchIndex`]: deterministic (the same products give the same index, and the
//! same bytes): terms, option values, collections and tags are sorted; products keep their order.

use super::input::Product;
use super::text::words;
use super::{sort, Doc, SearchIndex, Var, NAME, NO_POS};
use crate::error::Error;
use crate::model;

/// The vocabulary being built: an open-addressing table (FNV-1a) from a term to its number,
/// numbers in first-seen order (std's `HashMap` and its SipHash cost the wasm ~4 KB).
#[derive(Default)]
struct Vocab {
    slots: Vec<u32>,
    texts: Vec<String>,
}

impl Vocab {
    fn hash(s: &str) -> usize {
        s.bytes().fold(0x811C_9DC5_u32, |h, b| (h ^ u32::from(b)).wrapping_mul(0x0100_0193)) as usize
    }
    fn id(&mut self, w: &str) -> u32 {
        if self.texts.len() * 2 >= self.slots.len() {
            let n = (self.slots.len() * 2).max(1024);
            self.slots = vec![u32::MAX; n];
            for (i, t) in self.texts.iter().enumerate() {
                let mut at = Self::hash(t) & (n - 1);
                while self.slots[at] != u32::MAX {
                    at = (at + 1) & (n - 1);
                }
                self.slots[at] = i as u32;
            }
        }
        let mask = self.slots.len() - 1;
        let mut at = Self::hash(w) & mask;
        loop {
            match self.slots[at] {
                u32::MAX => {
                    let id = self.texts.len() as u32;
                    self.slots[at] = id;
                    self.texts.push(w.to_owned());
                    return id;
                }
                id if self.texts[id as usize] == w => return id,
                _ => at = (at + 1) & mask,
            }
        }
    }
}

/// The distinct items, sorted.
fn distinct<T: Ord + Copy>(items: &[T]) -> Vec<T> {
    let order = sort::indices(items.len(), &|a, b| items[a as usize].cmp(&items[b as usize]));
    let mut out: Vec<T> = order.iter().map(|&i| items[i as usize]).collect();
    out.dedup();
    out
}

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
        // Dictionaries: option names, option values, collections (id, the first name seen), tags.
        let (mut names, mut vals, mut colls, mut tag_list) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for p in products {
            for v in &p.variants {
                for (name, value) in &v.attributes {
                    names.push(name.as_str());
                    vals.push((name.as_str(), value.as_str()));
                }
            }
            colls.extend(p.collections.iter().map(|c| (c.id.as_str(), c.name.as_str())));
            tag_list.extend(p.tags.iter().map(String::as_str));
        }
        let names = distinct(&names);
        let vals = distinct(&vals);
        let order = sort::indices(colls.len(), &|a, b| colls[a as usize].0.cmp(colls[b as usize].0));
        let mut colls: Vec<(&str, &str)> = order.iter().map(|&i| colls[i as usize]).collect();
        colls.dedup_by(|b, a| a.0 == b.0);
        let tags = distinct(&tag_list);
        let dict = Dict { vals: &vals, colls: &colls, tags: &tags };

        let mut vocab = Vocab::default();
        let mut postings: Vec<Vec<(u32, u8)>> = Vec::new();
        let mut docs = Vec::with_capacity(products.len());
        let mut seen: Vec<u64> = Vec::new();
        for (d, p) in products.iter().enumerate() {
            seen.clear();
            let mut add = |text: &str, field: u8| {
                for w in words(text, true) {
                    let id = vocab.id(&w.text);
                    if id as usize == postings.len() {
                        postings.push(Vec::new());
                    }
                    let pos = if field == NAME { (w.pos.min(u32::from(NO_POS) - 1)) as u8 } else { NO_POS };
                    seen.push((u64::from(id) << 8) | u64::from((1 << field) | (pos << 5)));
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
            sort::keys(&mut seen);
            let mut i = 0;
            while i < seen.len() {
                let id = seen[i] >> 8;
                let (mut fields, mut pos) = (0u8, NO_POS);
                while i < seen.len() && seen[i] >> 8 == id {
                    let f = seen[i] as u8;
                    fields |= f & 0x1F;
                    pos = pos.min(f >> 5);
                    i += 1;
                }
                postings[id as usize].push((d as u32, fields | (pos << 5)));
            }
            docs.push(doc_of(p, &dict)?);
        }
        let mut term_texts = vocab.texts;

        let order = sort::indices(term_texts.len(), &|a, b| term_texts[a as usize].cmp(&term_texts[b as usize]));
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
            values: vals.iter().map(|(n, v)| (names.binary_search(n).unwrap_or(0) as u32, (*v).to_owned())).collect(),
            option_names: names.iter().map(|s| (*s).to_owned()).collect(),
            collections: colls.iter().map(|(i, n)| ((*i).to_owned(), (*n).to_owned())).collect(),
            tags: tags.iter().map(|s| (*s).to_owned()).collect(),
            name_rank,
        })
    }
}

/// The sorted dictionaries a product's ids are found in.
struct Dict<'a> {
    vals: &'a [(&'a str, &'a str)],
    colls: &'a [(&'a str, &'a str)],
    tags: &'a [&'a str],
}

fn doc_of(p: &Product, dict: &Dict<'_>) -> Result<Doc, Error> {
    let mut variants = Vec::with_capacity(p.variants.len());
    for v in &p.variants {
        let price = crate::money::parse_decimal(&v.price, 2).map_err(|e| Error::invalid_argument(["product ", &p.id, ": ", &e.message].concat()))?;
        let mut ids: Vec<u32> = v.attributes.iter().filter_map(|(n, val)| dict.vals.binary_search(&(n.as_str(), val.as_str())).ok()).map(|i| i as u32).collect();
        sort::ids(&mut ids);
        variants.push(Var { price, in_stock: v.in_stock(), values: ids });
    }
    let mut collections: Vec<u32> =
        p.collections.iter().filter_map(|c| dict.colls.binary_search_by(|x| x.0.cmp(c.id.as_str())).ok()).map(|i| i as u32).collect();
    sort::ids(&mut collections);
    let mut tag_ids: Vec<u32> = p.tags.iter().filter_map(|t| dict.tags.binary_search(&t.as_str()).ok()).map(|i| i as u32).collect();
    sort::ids(&mut tag_ids);
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
