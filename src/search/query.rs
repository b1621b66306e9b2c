//! A query: its words (at most [`MAX_WORDS`], from its first [`MAX_CHARS`] characters), each
//! matched through the vocabulary (typos by its length, a prefix for the last word, joined and
//! split forms: "t shirt" / "tshirt" / "t-shirt"), the products that match the most words,
//! filtered and counted ([`super::facets`]), ranked, paged, highlighted.

use super::facets::Passed;
use super::options::{Hit, OutOfStock, SearchOptions, SearchResult, Sort};
use super::text::{typos_allowed, words};
use super::typo::matches;
use super::{sort, SearchIndex, NO_POS};
use crate::error::Error;

pub const MAX_WORDS: usize = 10;
pub const MAX_CHARS: usize = 512;

/// The folded words of a query.
#[must_use]
pub fn parse(q: &str) -> Vec<String> {
    let head: String = q.chars().take(MAX_CHARS).collect();
    words(&head, false).into_iter().map(|w| w.text).take(MAX_WORDS).collect()
}

/// How well a product matched one word: typos, field, inexact, name position, packed so that
/// smaller is better.
fn pack(typos: u8, flags: u8, inexact: bool) -> u16 {
    let field = (flags & 0x1F).trailing_zeros() as u16;
    (u16::from(typos) << 8) | (field << 4) | (u16::from(inexact) << 3) | u16::from(flags >> 5)
}

/// A candidate's score so far.
#[derive(Clone, Copy)]
struct Cand {
    doc: u32,
    matched: u8,
    typos: u8,
    prox: u8,
    fields: u8,
    inexact: u8,
    last_word: u8,
    last_pos: u8,
}

impl SearchIndex {
    /// Every product matching word `i` of `ws` with how well (sorted by product), and the
    /// terms it matched through.
    fn word_docs(&self, ws: &[String], i: usize, terms: &mut Vec<usize>) -> Vec<(u32, u16)> {
        let w = &ws[i];
        let last = i + 1 == ws.len();
        // (product << 16 | how well), sorted: the best of each product comes first.
        let mut out: Vec<u64> = Vec::new();
        let key = |d: u32, p: u16| (u64::from(d) << 16) | u64::from(p);
        let ms = matches(&self.terms, w, typos_allowed(w), last);
        let single = ms.len() == 1;
        for m in ms {
            terms.push(m.term);
            out.extend(self.postings(m.term).map(|(d, f)| key(d, pack(m.typos, f, !m.exact))));
        }
        // Joined with the word before or after ("t shirt" finds "tshirt", "t-shirt").
        let before = out.len();
        let mut joined = |s: String| {
            if let Some(t) = self.term(&s) {
                terms.push(t);
                out.extend(self.postings(t).map(|(d, f)| key(d, pack(0, f, true))));
            }
        };
        if i + 1 < ws.len() {
            joined([w.as_str(), &ws[i + 1]].concat());
        }
        if i > 0 {
            joined([ws[i - 1].as_str(), w].concat());
        }
        // Split in two words the vocabulary has ("tshirt" finds "t shirt").
        if w.len() >= 3 && self.term(w).is_none() {
            for (s, _) in w.char_indices().skip(1) {
                let (Some(a), Some(b)) = (self.term(&w[..s]), self.term(&w[s..])) else { continue };
                terms.push(a);
                terms.push(b);
                let bs: Vec<(u32, u8)> = self.postings(b).collect();
                for (d, f) in self.postings(a) {
                    if bs.binary_search_by_key(&d, |x| x.0).is_ok() {
                        out.push(key(d, pack(0, f, true)));
                    }
                }
            }
        }
        // One term's postings are sorted already.
        if !(single && out.len() == before) {
            sort::keys(&mut out);
        }
        let mut list: Vec<(u32, u16)> = Vec::with_capacity(out.len());
        for k in out {
            let d = (k >> 16) as u32;
            if list.last().is_none_or(|l| l.0 != d) {
                list.push((d, k as u16));
            }
        }
        list
    }

    /// Whether some product matches every word of `ws` (there is one).
    pub(crate) fn finds_all(&self, ws: &[String]) -> bool {
        self.candidates(ws, &mut Vec::new()).first().is_some_and(|c| usize::from(c.matched) == ws.len())
    }

    /// The products matching the most words of `ws`, scored, in product order; all products
    /// when there are no words.
    fn candidates(&self, ws: &[String], terms: &mut Vec<usize>) -> Vec<Cand> {
        let blank = |doc: u32| Cand { doc, matched: 0, typos: 0, prox: 0, fields: 0, inexact: 0, last_word: 0, last_pos: NO_POS };
        if ws.is_empty() {
            return (0..self.docs.len() as u32).map(blank).collect();
        }
        let mut acc: Vec<Cand> = Vec::new();
        for i in 0..ws.len() {
            let list = self.word_docs(ws, i, terms);
            let mut next = Vec::with_capacity(acc.len().max(list.len()));
            let (mut a, mut b) = (0, 0);
            while a < acc.len() || b < list.len() {
                let take_a = b == list.len() || (a < acc.len() && acc[a].doc < list[b].0);
                let take_b = a == acc.len() || (b < list.len() && list[b].0 < acc[a].doc);
                if take_a {
                    next.push(acc[a]);
                    a += 1;
                    continue;
                }
                let mut c = if take_b { blank(list[b].0) } else { acc[a] };
                let p = list[b].1;
                let pos = (p & 7) as u8;
                c.matched += 1;
                c.typos += (p >> 8) as u8;
                c.fields += ((p >> 4) & 7) as u8;
                c.inexact += ((p >> 3) & 1) as u8;
                if i > 0 {
                    let gap = if c.last_word as usize == i && pos != NO_POS && c.last_pos != NO_POS {
                        (i16::from(pos) - i16::from(c.last_pos) - 1).unsigned_abs().min(7) as u8
                    } else {
                        7
                    };
                    c.prox = c.prox.saturating_add(gap);
                }
                c.last_word = (i + 1) as u8;
                c.last_pos = pos;
                next.push(c);
                if !take_b {
                    a += 1;
                }
                b += 1;
            }
            acc = next;
        }
        let most = acc.iter().map(|c| c.matched).max().unwrap_or(0);
        acc.retain(|c| c.matched == most);
        acc
    }

    /// Search: `query`'s matches, filtered, counted, sorted and paged by `options`.
    ///
    /// # Errors
    /// `invalid_argument` for a page of 0, `perPage` outside 1..=250, `priceBuckets` outside
    /// 1..=100, or more than 16 option filters.
    pub fn search(&self, query: &str, options: &SearchOptions) -> Result<SearchResult, Error> {
        let o = options;
        let (page, per_page) = (o.page(), o.per_page());
        if page == 0 {
            return Err(Error::invalid_argument("page: 1 or more"));
        }
        if !(1..=250).contains(&per_page) {
            return Err(Error::invalid_argument("perPage: from 1 to 250"));
        }
        if !(1..=100).contains(&o.price_buckets()) {
            return Err(Error::invalid_argument("priceBuckets: from 1 to 100"));
        }
        let ws = parse(query);
        let mut terms = Vec::new();
        let cands = self.candidates(&ws, &mut terms);
        let ids: Vec<u32> = cands.iter().map(|c| c.doc).collect();
        let (passed, facets) = self.filter(&ids, o, o.out_of_stock() == OutOfStock::Hide)?;
        // `passed` is in candidate order: its scores are found by walking both.
        let mut scored: Vec<(&Passed, Cand)> = Vec::with_capacity(passed.len());
        let mut k = 0;
        for p in &passed {
            while cands[k].doc != p.doc {
                k += 1;
            }
            scored.push((p, cands[k]));
        }
        let last = o.out_of_stock() == OutOfStock::Last;
        let sort = o.sort();
        let order = sort::indices(scored.len(), &|x, y| {
            let ((pa, a), (pb, b)) = (&scored[x as usize], &scored[y as usize]);
            let stock = if last { pb.available.cmp(&pa.available) } else { core::cmp::Ordering::Equal };
            let by = match sort {
                Sort::Relevance => (b.matched.cmp(&a.matched))
                    .then(a.typos.cmp(&b.typos))
                    .then(a.prox.cmp(&b.prox))
                    .then(a.fields.cmp(&b.fields))
                    .then(a.inexact.cmp(&b.inexact)),
                Sort::PriceAsc => pa.price.unwrap_or(i64::MAX).cmp(&pb.price.unwrap_or(i64::MAX)),
                Sort::PriceDesc => pb.price.unwrap_or(i64::MIN).cmp(&pa.price.unwrap_or(i64::MIN)),
                Sort::Newest => self.docs[pb.doc as usize].created.cmp(&self.docs[pa.doc as usize].created),
                Sort::Name => self.name_rank[pa.doc as usize].cmp(&self.name_rank[pb.doc as usize]),
            };
            stock.then(by).then(pb.available.cmp(&pa.available)).then(pa.doc.cmp(&pb.doc))
        });
        let total = scored.len() as u32;
        let per = per_page as usize;
        let from = (page as usize - 1).saturating_mul(per);
        let mut matched: Vec<u64> = terms.iter().map(|&t| t as u64).collect();
        sort::keys(&mut matched);
        let hits = order
            .iter()
            .skip(from)
            .take(per)
            .map(|&i| {
                let p = scored[i as usize].0;
                let d = &self.docs[p.doc as usize];
                Hit { id: d.id.clone(), name: d.name.clone(), price: p.price, available: p.available, highlights: self.highlights(&d.name, &matched) }
            })
            .collect();
        let did_you_mean = if total == 0 && !ws.is_empty() { self.did_you_mean(&ws) } else { None };
        Ok(SearchResult { hits, total, page, per_page, pages: total.div_ceil(per_page), facets, did_you_mean })
    }
}

impl SearchIndex {
    /// The ranges of `name`'s words whose terms are among `matched` (sorted term indices),
    /// merged, in UTF-16 units.
    fn highlights(&self, name: &str, matched: &[u64]) -> Vec<[u32; 2]> {
        let mut found: Vec<u64> = words(name, true)
            .into_iter()
            .filter(|w| self.term(&w.text).is_some_and(|t| matched.binary_search(&(t as u64)).is_ok()))
            .map(|w| (u64::from(w.start) << 32) | u64::from(w.end))
            .collect();
        sort::keys(&mut found);
        let mut out: Vec<[u32; 2]> = Vec::new();
        for r in found {
            let r = [(r >> 32) as u32, r as u32];
            match out.last_mut() {
                Some(l) if r[0] <= l[1] => l[1] = l[1].max(r[1]),
                _ => out.push(r),
            }
        }
        out
    }
}
