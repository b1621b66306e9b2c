//! The index's bytes, format version 1 ([`super::codec`]: varints, front-coded strings):
//!
//! `"CSRX"`, version byte, then: product count; option names (front-coded); option values
//! (count, then name index + text each); collections (count, id + name each); tags and terms
//! (front-coded); each term's posting count, then every posting's product as a gap from the
//! one before (the first as is), then every posting's flags byte (fields | name position << 5);
//! the products' ids (prefix-coded against the one before) and names; per product its
//! `createdAt` key (as a difference from the one before), collections, tags, and variants (the
//! first one's price, then each one's price as a difference from it, stock byte, option value
//! ids); last the FNV-1a checksum of everything before it (4 bytes, little-endian).
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
        for t in 0..self.terms.len() {
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
            w.str(&d.name);
        }
        let mut created = 0i64;
        for d in &self.docs {
            w.int(d.created.wrapping_sub(created));
            created = d.created;
            w.uint(d.collections.len() as u64);
            for &c in &d.collections {
                w.uint(u64::from(c));
            }
            w.uint(d.tags.len() as u64);
            for &t in &d.tags {
                w.uint(u64::from(t));
            }
            w.uint(d.variants.len() as u64);
            let base = d.variants.first().map_or(0, |v| v.price);
            w.int(base);
            for v in &d.variants {
                w.int(v.price.wrapping_sub(base));
                w.uint(u64::from(v.in_stock));
                w.uint(v.values.len() as u64);
                for &x in &v.values {
                    w.uint(u64::from(x));
                }
            }
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
            let mut next = 0usize;
            for _ in post_start[t]..post_start[t + 1] {
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
            names.push(r.str()?);
        }
        let mut docs = Vec::with_capacity(n);
        let mut created = 0i64;
        for (id, name) in ids.into_iter().zip(names) {
            created = created.wrapping_add(r.int()?);
            let colls = ids_below(&mut r, collections.len())?;
            let tag_ids = ids_below(&mut r, tags.len())?;
            let nvar = r.count(3)?;
            let base = r.int()?;
            let mut variants = Vec::with_capacity(nvar);
            for _ in 0..nvar {
                let price = base.wrapping_add(r.int()?);
                let in_stock = r.below(2)? == 1;
                variants.push(Var { price, in_stock, values: ids_below(&mut r, values.len())? });
            }
            docs.push(Doc { id, name, created, collections: colls, tags: tag_ids, variants });
        }
        if !r.at_end() {
            return Err(Error::decode("search index: bytes after the end"));
        }
        let name_rank = Self::rank_names(&docs);
        Ok(Self { terms, post_start, post_doc, post_flags, docs, option_names, values, collections, tags, name_rank })
    }
}

/// A count, then that many increasing ids below `limit`.
fn ids_below(r: &mut Reader<'_>, limit: usize) -> Result<Vec<u32>, Error> {
    let k = r.count(1)?;
    let mut out: Vec<u32> = Vec::with_capacity(k);
    for _ in 0..k {
        let x = r.below(limit)? as u32;
        if out.last().is_some_and(|&l| l >= x) {
            return Err(Error::decode("search index: ids out of order"));
        }
        out.push(x);
    }
    Ok(out)
}
