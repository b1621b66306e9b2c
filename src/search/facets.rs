//! Filters and facet counts over the products a query matched. The option filters, the price
//! range and `hide` hold on one variant: each variant gets a mask of the filters it fails (bit
//! `j` the `j`-th option filter, then price, then stock), a product passes when one variant's
//! mask is 0 (or no variant filter is set), and each facet is counted over the products that
//! pass every OTHER filter: the variants whose mask is 0 once that facet's own bit is cleared.

use super::options::{CollectionFacet, FacetValue, Facets, Filters, OptionFacet, PriceBucket, PriceFacet, SearchOptions};
use super::{sort, Doc, SearchIndex};
use crate::error::Error;

const PRICE: u32 = 1 << 16;
const STOCK: u32 = 1 << 17;

/// A product that passed every filter: its index, price (lowest of its matching variants) and
/// whether a matching variant is in stock.
pub(crate) struct Passed {
    pub doc: u32,
    pub price: Option<i64>,
    pub available: bool,
}

/// The filters as ids of the index.
struct Compiled {
    /// (option name index, accepted value ids sorted); an unknown option's name is `u32::MAX`.
    options: Vec<(u32, Vec<u32>)>,
    collections: Option<Vec<u32>>,
    tags: Option<Vec<u32>>,
    min: i64,
    max: i64,
    hide: bool,
    /// Every variant-level bit in use.
    active: u32,
}

fn ids_of<'a>(wanted: &'a [String], find: impl Fn(&'a str) -> Option<usize>) -> Option<Vec<u32>> {
    if wanted.is_empty() {
        return None;
    }
    let mut ids: Vec<u32> = wanted.iter().filter_map(|w| find(w)).map(|i| i as u32).collect();
    sort::ids(&mut ids);
    Some(ids)
}

impl SearchIndex {
    fn compile(&self, f: &Filters, hide: bool) -> Result<Compiled, Error> {
        let mut options = Vec::new();
        let mut active = 0u32;
        for (name, vals) in f.options.iter().flatten() {
            if vals.is_empty() {
                continue;
            }
            if options.len() == 16 {
                return Err(Error::invalid_argument("filters.options: more than 16 options"));
            }
            let n = self.option_names.binary_search(name).map_or(u32::MAX, |i| i as u32);
            let mut ids: Vec<u32> = vals
                .iter()
                .filter_map(|v| self.values.binary_search_by(|(vn, vv)| vn.cmp(&n).then_with(|| vv.as_str().cmp(v))).ok())
                .map(|i| i as u32)
                .collect();
            sort::ids(&mut ids);
            active |= 1 << options.len();
            options.push((n, ids));
        }
        let (min, max) = (f.min_price.unwrap_or(i64::MIN), f.max_price.unwrap_or(i64::MAX));
        if f.min_price.is_some() || f.max_price.is_some() {
            active |= PRICE;
        }
        if hide {
            active |= STOCK;
        }
        let collections = ids_of(f.collections.as_deref().unwrap_or_default(), |c| self.collections.binary_search_by(|(id, _)| id.as_str().cmp(c)).ok());
        let tags = ids_of(f.tags.as_deref().unwrap_or_default(), |t| self.tags.binary_search_by(|x| x.as_str().cmp(t)).ok());
        Ok(Compiled { options, collections, tags, min, max, hide, active })
    }

    /// The filters' failures of one variant.
    fn mask(&self, c: &Compiled, v: &super::Var) -> u32 {
        let mut m = 0;
        for (j, (name, ok)) in c.options.iter().enumerate() {
            let has = v.values.iter().any(|&x| self.values[x as usize].0 == *name && ok.binary_search(&x).is_ok());
            if !has {
                m |= 1 << j;
            }
        }
        if v.price < c.min || v.price > c.max {
            m |= PRICE;
        }
        if c.hide && !v.in_stock {
            m |= STOCK;
        }
        m
    }

    /// The candidates (product indices) that pass the filters, and the facets when asked.
    pub(crate) fn filter(&self, cands: &[u32], o: &SearchOptions, hide: bool) -> Result<(Vec<Passed>, Option<Facets>), Error> {
        let no_filters = Filters::default();
        let c = self.compile(o.filters.as_ref().unwrap_or(&no_filters), hide)?;
        let want = o.facets();
        let mut passed = Vec::new();
        let (mut coll_n, mut tag_n, mut val_n) = if want {
            (vec![0u32; self.collections.len()], vec![0u32; self.tags.len()], vec![0u32; self.values.len()])
        } else {
            (Vec::new(), Vec::new(), Vec::new())
        };
        let mut val_seen = vec![u32::MAX; if want { self.values.len() } else { 0 }];
        let mut prices: Vec<i64> = Vec::new();
        let mut in_stock = 0u32;
        let mut masks: Vec<u32> = Vec::new();
        let any_in = |set: &Option<Vec<u32>>, have: &[u32]| set.as_ref().is_none_or(|s| have.iter().any(|x| s.binary_search(x).is_ok()));
        for &d in cands {
            let doc: &Doc = &self.docs[d as usize];
            let (c_ok, t_ok) = (any_in(&c.collections, &doc.collections), any_in(&c.tags, &doc.tags));
            if !(want || c_ok && t_ok) {
                continue;
            }
            masks.clear();
            masks.extend(doc.variants.iter().map(|v| self.mask(&c, v)));
            // Passes every variant filter but those of `except`.
            let ok_except = |except: u32| c.active & !except == 0 || masks.iter().any(|&m| m & !except == 0);
            let all_ok = ok_except(0);
            if c_ok && t_ok && all_ok {
                let mut price = None;
                let mut available = false;
                for (v, &m) in doc.variants.iter().zip(&masks) {
                    if m == 0 {
                        price = Some(price.map_or(v.price, |p: i64| p.min(v.price)));
                        available |= v.in_stock;
                    }
                }
                passed.push(Passed { doc: d, price, available });
            }
            if !want {
                continue;
            }
            if t_ok && all_ok {
                for &x in &doc.collections {
                    coll_n[x as usize] += 1;
                }
            }
            if c_ok && all_ok {
                for &x in &doc.tags {
                    tag_n[x as usize] += 1;
                }
            }
            if !(c_ok && t_ok) {
                continue;
            }
            for (v, &m) in doc.variants.iter().zip(&masks) {
                for &x in &v.values {
                    let name = self.values[x as usize].0;
                    let own = c.options.iter().position(|(n, _)| *n == name).map_or(0, |j| 1u32 << j);
                    if m & !own == 0 && val_seen[x as usize] != d {
                        val_seen[x as usize] = d;
                        val_n[x as usize] += 1;
                    }
                }
            }
            let price = doc.variants.iter().zip(&masks).filter(|(_, &m)| m & !PRICE == 0).map(|(v, _)| v.price).min();
            if let Some(p) = price {
                prices.push(p);
            }
            if doc.variants.iter().zip(&masks).any(|(v, &m)| m & !STOCK == 0 && v.in_stock) {
                in_stock += 1;
            }
        }
        if !want {
            return Ok((passed, None));
        }
        let limit = o.facet_limit() as usize;
        let top = |v: Vec<FacetValue>| {
            let order = sort::indices(v.len(), &|a, b| v[b as usize].count.cmp(&v[a as usize].count).then_with(|| v[a as usize].value.cmp(&v[b as usize].value)));
            order.iter().take(limit).map(|&i| v[i as usize].clone()).collect::<Vec<_>>()
        };
        let mut options = Vec::new();
        for (n, name) in self.option_names.iter().enumerate() {
            let vals: Vec<FacetValue> = self
                .values
                .iter()
                .zip(&val_n)
                .filter(|((vn, _), &k)| *vn == n as u32 && k > 0)
                .map(|((_, v), &k)| FacetValue { value: v.clone(), count: k })
                .collect();
            if !vals.is_empty() {
                options.push(OptionFacet { name: name.clone(), values: top(vals) });
            }
        }
        let all: Vec<CollectionFacet> = self
            .collections
            .iter()
            .zip(&coll_n)
            .filter(|(_, &k)| k > 0)
            .map(|((id, name), &k)| CollectionFacet { id: id.clone(), name: name.clone(), count: k })
            .collect();
        // Ids are sorted already: by count, most first, ties in id order (stable).
        let order = sort::indices(all.len(), &|a, b| all[b as usize].count.cmp(&all[a as usize].count));
        let collections = order.iter().take(limit).map(|&i| all[i as usize].clone()).collect();
        let tags = top(self.tags.iter().zip(&tag_n).filter(|(_, &k)| k > 0).map(|(t, &k)| FacetValue { value: t.clone(), count: k }).collect());
        let price = histogram(&prices, o.price_buckets());
        Ok((passed, Some(Facets { options, collections, tags, price, in_stock })))
    }
}

/// Min, max and `buckets` equal buckets of the prices (fewer when the range is narrower).
fn histogram(prices: &[i64], buckets: u32) -> Option<PriceFacet> {
    let (&min, &max) = (prices.iter().min()?, prices.iter().max()?);
    let span = (max as i128 - min as i128) as u128 + 1;
    let b = u128::from(buckets.max(1));
    let width = span.div_ceil(b);
    let n = span.div_ceil(width) as usize;
    let mut histogram: Vec<PriceBucket> = (0..n)
        .map(|i| {
            let lo = min as i128 + (i as i128) * width as i128;
            let hi = (lo + width as i128 - 1).min(max as i128);
            PriceBucket { min: lo as i64, max: hi as i64, count: 0 }
        })
        .collect();
    for &p in prices {
        histogram[((p as i128 - min as i128) as u128 / width) as usize].count += 1;
    }
    Some(PriceFacet { min, max, histogram })
}
