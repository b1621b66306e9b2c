//! The index's bytes, format version 1 ([`super::codec`]: varints, front-coded strings):
//!
//! `"CSRX"`, version byte, then: product count; option names (front-coded); option values
//! (count, then name index + text each); collections (count, id + name each); tags and terms
//! (front-coded); each term's posting count, then every posting's product as a gap from the
//! one before (the first as is), or, for a term in more than 1 product of 8, a bitmap of every
//! product; then every posting's flags byte (fields | name position << 5);
//! the products' ids (prefix-coded against the one before) and names (a name that is its folded
//! words joined by spaces as its word count and term numbers, any other as 0 and its text); per product its
//! `createdAt` key (as a difference from the one before), collections, tags (ids as gaps) and
//! variant count; then the variants, a stream per member: each product's first price, each
//! variant's price as a difference from it, the stock bits (8 a byte), the option value ids;
//! last the FNV-1a checksum of everything before it (4 bytes, little-endian).
//! Streams of one kind sit together, which is what gzip compresses best.

use super::codec::{common_prefix, open, seal, Reader, Writer};
use super::{Doc, SearchIndex, Var};
use crate::error::Error;

impl SearchIndex {
    /// The index as bytes: the same index gives the same bytes.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut w = Writer::default();
        w.uint(self.docs.len() as u64);
        w.front_coded(&self.option_names);
        w.uint(self.values.len() as u64);
        for (n, v) in &self.values {
            w.uint(u64::from(*n));
            w.str(v);
        }
        w.uint(self.collections.len() as u64);
        for (id, name) in &self.collections {
            w.str(id);
            w.str(name);
        }
        w.front_coded(&self.tags);
        w.front_coded(&self.terms);
        for t in 0..self.terms.len() {
            w.uint(u64::from(self.post_start[t + 1] - self.post_start[t]));
        }
        let n = self.docs.len();
        for t in 0..self.terms.len() {
            let count = (self.post_start[t + 1] - self.post_start[t]) as usize;
            if dense(count, n) {
                let mut bits = vec![0u8; n.div_ceil(8)];
                for (d, _) in self.postings(t) {
                    bits[d as usize / 8] |= 1 << (d % 8);
                }
                w.buf.extend_from_slice(&bits);
                continue;
            }
            let mut prev = None;
            for (d, _) in self.postings(t) {
                w.uint(u64::from(prev.map_or(d, |p| d - p - 1)));
                prev = Some(d);
            }
        }
        w.buf.extend_from_slice(&self.post_flags);
        let mut prev = "";
        for d in &self.docs {
            let shared = common_prefix(prev, &d.id);
            w.uint(shared as u64);
            w.str(&d.id[shared..]);
            prev = &d.id;
        }
        for d in &self.docs {
            self.write_name(&mut w, &d.name);
        }
        let mut created = 0i64;
        for d in &self.docs {
            w.int(d.created.wrapping_sub(created));
            created = d.created;
            ids(&mut w, &d.collections);
            ids(&mut w, &d.tags);
            w.uint(d.variants.len() as u64);
        }
        // Variants, a stream for each member: first prices, price differences, stock bits, values.
        let vars = || self.docs.iter().flat_map(|d| d.variants.iter().map(move |v| (v, d.variants[0].price)));
        for d in self.docs.iter().filter(|d| !d.variants.is_empty()) {
            w.int(d.variants[0].price);
        }
        for (v, base) in vars() {
            w.int(v.price.wrapping_sub(base));
        }
        let stock: Vec<bool> = vars().map(|(v, _)| v.in_stock).collect();
        for byte in stock.chunks(8) {
            w.buf.push(byte.iter().enumerate().fold(0u8, |b, (i, &s)| b | (u8::from(s) << i)));
        }
        for (v, _) in vars() {
            ids(&mut w, &v.values);
        }
        seal(&w.buf)
    }

    /// The index of bytes made by [`Self::to_bytes`].
    ///
    /// # Errors
    /// `decode` saying why: not an index, another format version ("build the index again"),
    /// a checksum mismatch, or (bytes that pass the checksum but do not read) the byte where
    /// reading stopped.
    pub fn from_bytes(bytes: &[u8]) -> Result<Self, Error> {
        let mut r = Reader::new(open(bytes)?);
        let n = r.count(2)?;
        let option_names = r.front_coded()?;
        let nv = r.count(2)?;
        let mut values: Vec<(u32, String)> = Vec::with_capacity(nv);
        for _ in 0..nv {
            let name = r.below(option_names.len())? as u32;
            let v = (name, r.str()?);
            if values.last().is_some_and(|last| *last >= v) {
                return Err(Error::decode("search index: option values out of order"));
            }
            values.push(v);
        }
        let nc = r.count(2)?;
        let mut collections: Vec<(String, String)> = Vec::with_capacity(nc);
        for _ in 0..nc {
            let c = (r.str()?, r.str()?);
            if collections.last().is_some_and(|last| last.0 >= c.0) {
                return Err(Error::decode("search index: collections out of order"));
            }
            collections.push(c);
        }
        let tags = r.front_coded()?;
        let terms = r.front_coded()?;
        let mut post_start = Vec::with_capacity(terms.len() + 1);
        post_start.push(0u32);
        let mut total = 0usize;
        for _ in 0..terms.len() {
            total += r.count(2)?;
            post_start.push(u32::try_from(total).map_err(|_| Error::decode("search index: too many postings"))?);
        }
        let mut post_doc = Vec::with_capacity(total.min(bytes.len()));
        for t in 0..terms.len() {
            let count = (post_start[t + 1] - post_start[t]) as usize;
            if dense(count, n) {
                let bits = r.take(n.div_ceil(8))?;
                let before = post_doc.len();
                post_doc.extend((0..n as u32).filter(|&d| bits[d as usize / 8] & (1 << (d % 8)) != 0));
                if post_doc.len() - before != count || bits.len() * 8 > n && bits[bits.len() - 1] >> (n % 8) != 0 {
                    return Err(Error::decode("search index: a bitmap of postings that is not its count"));
                }
                continue;
            }
            let mut next = 0usize;
            for _ in 0..count {
                let d = next + r.below(n.saturating_sub(next))?;
                post_doc.push(d as u32);
                next = d + 1;
            }
        }
        let post_flags = r.take(total)?.to_vec();
        let mut ids: Vec<String> = Vec::with_capacity(n);
        for i in 0..n {
            let prev = if i == 0 { "" } else { ids[i - 1].as_str() };
            let shared = r.below(prev.len() + 1)?;
            if !prev.is_char_boundary(shared) {
                return Err(Error::decode("search index: a product id cut inside a character"));
            }
            let id = format!("{}{}", &prev[..shared], r.str()?);
            ids.push(id);
        }
        let mut names = Vec::with_capacity(n);
        for _ in 0..n {
            let k = r.count(1)?;
            if k == 0 {
                names.push(r.str()?);
                continue;
            }
            let mut name = String::new();
            for i in 0..k {
                if i > 0 {
                    name.push(' ');
                }
                name.push_str(&terms[r.below(terms.len())?]);
            }
            names.push(name);
        }
        let mut docs = Vec::with_capacity(n);
        let mut created = 0i64;
        let mut nvars = Vec::with_capacity(n);
        for (id, name) in ids.into_iter().zip(names) {
            created = created.wrapping_add(r.int()?);
            let colls = ids_below(&mut r, collections.len())?;
            let tag_ids = ids_below(&mut r, tags.len())?;
            nvars.push(r.count(3)?);
            docs.push(Doc { id, name, created, collections: colls, tags: tag_ids, variants: Vec::new() });
        }
        let total_vars = nvars.iter().try_fold(0usize, |a, &b| a.checked_add(b).filter(|&t| t <= bytes.len())).ok_or_else(|| Error::decode("search index: too many variants"))?;
        let mut bases = Vec::with_capacity(n);
        for &k in &nvars {
            bases.push(if k > 0 { r.int()? } else { 0 });
        }
        let mut prices = Vec::with_capacity(total_vars);
        for (&k, &base) in nvars.iter().zip(&bases) {
            for _ in 0..k {
                prices.push(base.wrapping_add(r.int()?));
            }
        }
        let stock = r.take(total_vars.div_ceil(8))?;
        let mut at = 0usize;
        for (d, &k) in docs.iter_mut().zip(&nvars) {
            for _ in 0..k {
                let in_stock = stock[at / 8] & (1 << (at % 8)) != 0;
                d.variants.push(Var { price: prices[at], in_stock, values: ids_below(&mut r, values.len())? });
                at += 1;
            }
        }
        if !r.at_end() {
            return Err(Error::decode("search index: bytes after the end"));
        }
        let name_rank = Self::rank_names(&docs);
        Ok(Self { terms, post_start, post_doc, post_flags, docs, option_names, values, collections, tags, name_rank })
    }
}

impl SearchIndex {
    /// A name that is its own words (folded) joined by single spaces, as the count of its words
    /// and their terms (2.7 bytes gz a name of the bench's catalog instead of 6.8); any other as
    /// 0 and its text.
    fn write_name(&self, w: &mut Writer, name: &str) {
        let ws = super::text::words(name, false);
        let terms: Vec<usize> = ws.iter().filter_map(|x| self.term(&x.text)).collect();
        let same = !ws.is_empty() && terms.len() == ws.len() && ws.iter().map(|x| x.text.as_str()).collect::<Vec<_>>().join(" ") == name;
        if same {
            w.uint(terms.len() as u64);
            for t in terms {
                w.uint(t as u64);
            }
        } else {
            w.uint(0);
            w.str(name);
        }
    }
}

/// Postings kept as a bitmap of every product (when that is no longer than their gaps).
fn dense(count: usize, n: usize) -> bool {
    count * 8 > n
}

/// A count, then the ids (increasing), the first as is, each next as the gap from the one before.
fn ids(w: &mut Writer, list: &[u32]) {
    w.uint(list.len() as u64);
    let mut prev = 0;
    for (i, &x) in list.iter().enumerate() {
        w.uint(u64::from(if i == 0 { x } else { x - prev - 1 }));
        prev = x;
    }
}

/// A count, then that many increasing ids below `limit` (as [`ids`] writes them).
fn ids_below(r: &mut Reader<'_>, limit: usize) -> Result<Vec<u32>, Error> {
    let k = r.count(1)?;
    let mut out: Vec<u32> = Vec::with_capacity(k);
    let mut next = 0usize;
    for _ in 0..k {
        let x = next + r.below(limit.saturating_sub(next))?;
        out.push(x as u32);
        next = x + 1;
    }
    Ok(out)
}
