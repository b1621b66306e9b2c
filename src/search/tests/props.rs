//! Property: over random catalogs, queries and filters, the hits, totals and every facet count
//! equal a brute-force count over the products themselves (the rules written out plainly).

use std::collections::BTreeMap;

use proptest::prelude::*;

use super::super::input::Product;
use super::super::options::{Facets, Filters, OutOfStock, SearchOptions};
use super::super::SearchIndex;
use super::product;

const WORDS: [&str; 8] = ["red", "hoodie", "velmar", "mug", "sweatpants", "lamp", "kettle", "blue"];
const COLORS: [&str; 3] = ["red", "blue", "green"];
const SIZES: [&str; 3] = ["S", "M", "L"];
const COLLS: [(&str, &str); 3] = [("c1", "Apparel"), ("c2", "Home"), ("c3", "Tech")];
const TAGS: [&str; 4] = ["wool", "sale", "new", "eco"];

type Spec = (Vec<usize>, Vec<usize>, u8, Vec<(usize, usize, u32, bool)>);

fn build(specs: &[Spec]) -> Vec<Product> {
    specs
        .iter()
        .enumerate()
        .map(|(i, (name, tags, colls, vars))| {
            let name: Vec<&str> = name.iter().map(|&w| WORDS[w]).collect();
            let tags: Vec<&str> = tags.iter().map(|&t| TAGS[t]).collect();
            let colls: Vec<(&str, &str)> = (0..3).filter(|b| colls & (1 << b) != 0).map(|b| COLLS[b]).collect();
            let prices: Vec<String> = vars.iter().map(|v| format!("{}.00", v.2)).collect();
            let vars: Vec<(&str, &str, &str, bool)> =
                vars.iter().zip(&prices).map(|(v, p)| (COLORS.get(v.0).copied().unwrap_or(""), SIZES.get(v.1).copied().unwrap_or(""), p.as_str(), v.3)).collect();
            product(&format!("p{i}"), &name.join(" "), &tags, &vars, &colls, "plain words here")
        })
        .collect()
}

fn price(p: &str) -> i64 {
    crate::money::parse_decimal(p, 2).unwrap()
}

/// The plain rules: a variant passes the variant filters but those named by `except`.
fn var_ok(f: &Filters, hide: bool, v: &super::super::input::Variant, except_opt: Option<&str>, no_price: bool, no_stock: bool) -> bool {
    f.options.iter().flatten().filter(|(n, vals)| !vals.is_empty() && Some(n.as_str()) != except_opt).all(|(n, vals)| v.attributes.get(n).is_some_and(|x| vals.contains(x)))
        && (no_price || (f.min_price.is_none_or(|m| price(&v.price) >= m) && f.max_price.is_none_or(|m| price(&v.price) <= m)))
        && (no_stock || !hide || v.in_stock())
}

fn active(f: &Filters, hide: bool, except_opt: Option<&str>, no_price: bool, no_stock: bool) -> bool {
    f.options.iter().flatten().any(|(n, vals)| !vals.is_empty() && Some(n.as_str()) != except_opt)
        || (!no_price && (f.min_price.is_some() || f.max_price.is_some()))
        || (!no_stock && hide)
}

fn brute(products: &[Product], matched: &[usize], f: &Filters, hide: bool) -> (Vec<usize>, Facets) {
    let (fc, ft) = (f.collections.clone().unwrap_or_default(), f.tags.clone().unwrap_or_default());
    let c_ok = |p: &Product| fc.is_empty() || p.collections.iter().any(|c| fc.contains(&c.id));
    let t_ok = |p: &Product| ft.is_empty() || p.tags.iter().any(|t| ft.contains(t));
    let all_ok = |p: &Product| !active(f, hide, None, false, false) || p.variants.iter().any(|v| var_ok(f, hide, v, None, false, false));
    let pass: Vec<usize> = matched.iter().copied().filter(|&i| c_ok(&products[i]) && t_ok(&products[i]) && all_ok(&products[i])).collect();
    let mut colls: BTreeMap<String, u32> = BTreeMap::new();
    let mut tags: BTreeMap<String, u32> = BTreeMap::new();
    let mut opts: BTreeMap<(String, String), u32> = BTreeMap::new();
    let mut prices = Vec::new();
    let mut in_stock = 0;
    for &i in matched {
        let p = &products[i];
        if t_ok(p) && all_ok(p) {
            for c in &p.collections {
                *colls.entry(c.id.clone()).or_default() += 1;
            }
        }
        if c_ok(p) && all_ok(p) {
            let mut ts: Vec<&String> = p.tags.iter().collect();
            ts.sort();
            ts.dedup();
            for t in ts {
                *tags.entry(t.clone()).or_default() += 1;
            }
        }
        if !(c_ok(p) && t_ok(p)) {
            continue;
        }
        for name in ["Color", "Size"] {
            let mut vals: Vec<&String> = p.variants.iter().filter(|v| var_ok(f, hide, v, Some(name), false, false)).filter_map(|v| v.attributes.get(name)).collect();
            vals.sort();
            vals.dedup();
            for v in vals {
                *opts.entry((name.to_owned(), v.clone())).or_default() += 1;
            }
        }
        if let Some(m) = p.variants.iter().filter(|v| var_ok(f, hide, v, None, true, false)).map(|v| price(&v.price)).min() {
            prices.push(m);
        }
        if p.variants.iter().any(|v| v.in_stock() && var_ok(f, hide, v, None, false, true)) {
            in_stock += 1;
        }
    }
    let mut facets = Facets { in_stock, ..Facets::default() };
    facets.collections = colls.into_iter().map(|(id, count)| super::super::options::CollectionFacet { name: COLLS.iter().find(|c| c.0 == id).unwrap().1.into(), id, count }).collect();
    facets.tags = tags.into_iter().map(|(value, count)| super::super::options::FacetValue { value, count }).collect();
    for ((name, value), count) in opts {
        match facets.options.iter_mut().find(|o| o.name == name) {
            Some(o) => o.values.push(super::super::options::FacetValue { value, count }),
            None => facets.options.push(super::super::options::OptionFacet { name, values: vec![super::super::options::FacetValue { value, count }] }),
        }
    }
    if let (Some(&min), Some(&max)) = (prices.iter().min(), prices.iter().max()) {
        facets.price = Some(super::super::options::PriceFacet { min, max, histogram: vec![super::super::options::PriceBucket { min, max, count: prices.len() as u32 }] });
    }
    (pass, facets)
}

fn sorted(mut f: Facets) -> Facets {
    for o in &mut f.options {
        o.values.sort_by(|a, b| a.value.cmp(&b.value));
    }
    f.collections.sort_by(|a, b| a.id.cmp(&b.id));
    f.tags.sort_by(|a, b| a.value.cmp(&b.value));
    f
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        proptest::collection::vec(0..WORDS.len(), 1..4),
        proptest::collection::vec(0..TAGS.len(), 0..3),
        0u8..8,
        proptest::collection::vec((0..4usize, 0..4usize, 1u32..20, any::<bool>()), 0..4),
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 200, ..ProptestConfig::default() })]
    #[test]
    fn facet_counts_equal_a_brute_force_count(
        specs in proptest::collection::vec(spec(), 0..30),
        query in proptest::collection::vec(0..WORDS.len() + 2, 0..3),
        colors in proptest::collection::vec(0..4usize, 0..3),
        sizes in proptest::collection::vec(0..4usize, 0..3),
        unknown in 0u8..8,
        colls in proptest::collection::vec(0..4usize, 0..2),
        tags in proptest::collection::vec(0..5usize, 0..2),
        min in proptest::option::of(1i64..20),
        max in proptest::option::of(1i64..20),
        hide in any::<bool>(),
    ) {
        let products = build(&specs);
        let ix = SearchIndex::build(&products).unwrap();
        let q: Vec<&str> = query.iter().map(|&w| WORDS.get(w).copied().unwrap_or(if w == WORDS.len() { "hodoie" } else { "zzz" })).collect();
        let q = q.join(" ");
        let all = SearchOptions { per_page: Some(250), facets: Some(false), out_of_stock: Some(OutOfStock::Mix), ..SearchOptions::default() };
        let matched: Vec<usize> = ix.search(&q, &all).unwrap().hits.iter().map(|h| h.id[1..].parse().unwrap()).collect();
        let mut f = Filters::default();
        let name = |v: &[usize], set: &[&str]| v.iter().map(|&i| set.get(i).copied().unwrap_or("nope").to_owned()).collect::<Vec<_>>();
        let opts = f.options.get_or_insert_default();
        opts.insert("Color".into(), name(&colors, &COLORS));
        opts.insert("Size".into(), name(&sizes, &SIZES));
        if unknown == 0 {
            opts.insert("Material".into(), vec!["wool".into()]);
        }
        f.collections = Some(colls.iter().map(|&i| COLLS.get(i).map_or("c9", |c| c.0).to_owned()).collect());
        f.tags = Some(name(&tags, &TAGS));
        f.min_price = min.map(|m| m * 100);
        f.max_price = max.map(|m| m * 100);
        let o = SearchOptions {
            filters: Some(f.clone()),
            per_page: Some(250),
            facet_limit: Some(u32::MAX),
            out_of_stock: Some(if hide { OutOfStock::Hide } else { OutOfStock::Mix }),
            ..SearchOptions::default()
        };
        let r = ix.search(&q, &o).unwrap();
        let (pass, want) = brute(&products, &matched, &f, hide);
        let mut got_ids: Vec<usize> = r.hits.iter().map(|h| h.id[1..].parse().unwrap()).collect();
        got_ids.sort_unstable();
        let mut pass = pass;
        pass.sort_unstable();
        prop_assert_eq!(r.total as usize, pass.len());
        prop_assert_eq!(got_ids, pass);
        let mut got = sorted(r.facets.unwrap());
        // The histogram's buckets in order, covering min..=max, their counts summing to the priced products.
        if let Some(p) = got.price.as_mut() {
            let h = core::mem::take(&mut p.histogram);
            prop_assert!(h.windows(2).all(|w| w[0].max + 1 == w[1].min));
            prop_assert_eq!((h[0].min, h[h.len() - 1].max), (p.min, p.max));
            p.histogram = vec![super::super::options::PriceBucket { min: p.min, max: p.max, count: h.iter().map(|b| b.count).sum() }];
        }
        prop_assert_eq!(got, sorted(want));
    }
}
