//! The search core's tests: tokenizing, typos, ranking, filters, facets, bytes (`props.rs`:
//! facet counts against a brute-force count; `fuzz.rs`: the index reader on changed bytes, the
//! query parser and the options on bad input).

mod fuzz;
mod props;

use super::input::{CollectionRef, OptionValue, Product, ProductOption, Variant};
use super::options::{Filters, OutOfStock, SearchOptions, Sort};
use super::text::{fold, words};
use super::typo::{matches, osa};
use super::SearchIndex;
use crate::strmap::StrMap;

/// A product: variants as (color, size, price, in stock).
pub(super) fn product(id: &str, name: &str, tags: &[&str], variants: &[(&str, &str, &str, bool)], coll: &[(&str, &str)], desc: &str) -> Product {
    let mut colors: Vec<String> = Vec::new();
    let mut sizes: Vec<String> = Vec::new();
    for (c, s, _, _) in variants {
        if !c.is_empty() && !colors.contains(&(*c).to_owned()) {
            colors.push((*c).to_owned());
        }
        if !s.is_empty() && !sizes.contains(&(*s).to_owned()) {
            sizes.push((*s).to_owned());
        }
    }
    let opt = |name: &str, vals: &[String]| ProductOption { name: name.into(), values: vals.iter().map(|v| OptionValue { value: v.clone() }).collect() };
    let mut options = vec![opt("Color", &colors)];
    if !sizes.is_empty() {
        options.push(opt("Size", &sizes));
    }
    Product {
        id: id.into(),
        name: name.into(),
        description: desc.into(),
        tags: tags.iter().map(|t| (*t).to_owned()).collect(),
        created_at: format!("2026-01-{:02}T00:00:00Z", 1 + id.len() % 28),
        options,
        variants: variants
            .iter()
            .map(|(c, s, price, stock)| {
                let mut a = StrMap::default();
                if !c.is_empty() {
                    a.insert("Color".into(), (*c).to_owned());
                }
                if !s.is_empty() {
                    a.insert("Size".into(), (*s).to_owned());
                }
                Variant { price: (*price).into(), stock_quantity: u32::from(*stock) * 5, stock_status: if *stock { "IN_STOCK" } else { "OUT_OF_STOCK" }.into(), attributes: a }
            })
            .collect(),
        collections: coll.iter().map(|(id, name)| CollectionRef { id: (*id).into(), name: (*name).into() }).collect(),
    }
}

fn catalog() -> Vec<Product> {
    let apparel = [("c1", "Apparel")];
    vec![
        product("p1", "Velmar red wool hoodie", &["wool", "winter"], &[("red", "M", "49.00", true), ("blue", "L", "52.00", true)], &apparel, "A warm hoodie."),
        product("p2", "Basic T-Shirt", &["cotton"], &[("red", "L", "15.00", true), ("blue", "M", "15.00", false)], &apparel, "Soft tee."),
        product("p3", "Café crème mug", &["ceramic"], &[("white", "", "9.50", true)], &[("c2", "Home")], "Mug for coffee."),
        product("p4", "Sold out hoodie", &[], &[("red", "M", "30.00", false)], &apparel, "Gone."),
        product("p5", "SKU AB-1234 charger", &["tech"], &[("black", "", "19.99", true)], &[("c3", "Tech")], "Charges phones."),
        product("p6", "Straße sneakers", &[], &[("white", "S", "80.00", true)], &apparel, "Shoes."),
    ]
}

fn index() -> SearchIndex {
    SearchIndex::build(&catalog()).unwrap()
}

fn ids(ix: &SearchIndex, q: &str, o: &SearchOptions) -> Vec<String> {
    ix.search(q, o).unwrap().hits.into_iter().map(|h| h.id).collect()
}

fn q(ix: &SearchIndex, text: &str) -> Vec<String> {
    ids(ix, text, &SearchOptions::default())
}

#[test]
fn words_are_folded_and_hyphens_joined() {
    let t: Vec<String> = words("Café CRÈME t-shirt Straße men's ÆON", true).into_iter().map(|w| w.text).collect();
    assert_eq!(t, ["cafe", "creme", "t", "shirt", "tshirt", "strasse", "mens", "aeon"]);
    assert_eq!(fold("  Ĳssel\u{0}Łódź\tİstanbul "), "ijssel lodz istanbul");
    let w = words("a 😀 Öl", false);
    assert_eq!((w[1].text.as_str(), w[1].start, w[1].end), ("ol", 5, 7));
}

#[test]
fn osa_counts_a_swap_as_one() {
    assert_eq!(osa("hoodie", "hodoie"), 1);
    assert_eq!(osa("ca", "abc"), 3);
    let terms: Vec<String> = ["hoodie", "hoodies", "hood", "hodie", "mug"].iter().map(|s| (*s).to_owned()).collect::<std::collections::BTreeSet<_>>().into_iter().collect();
    let got: Vec<(&str, u8)> = matches(&terms, "hodoie", 1, false).iter().map(|m| (terms[m.term].as_str(), m.typos)).collect();
    assert_eq!(got, [("hodie", 1), ("hoodie", 1)]);
    let got: Vec<&str> = matches(&terms, "hodoi", 1, true).iter().map(|m| terms[m.term].as_str()).collect();
    assert_eq!(got, ["hodie", "hoodie", "hoodies"]);
}

#[test]
fn typo_walk_equals_brute_force() {
    let terms: Vec<String> = ["abc", "abd", "abcd", "bac", "hoodie", "hoddie", "hodie", "hoodies", "hoodiez", "kettle", "ketle", "sweatpants", "swaetpants", "swetapants"]
        .iter()
        .map(|s| (*s).to_owned())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    for w in ["hoodie", "hodoie", "abc", "swaetpantz", "kettel", "sweat"] {
        for k in 0..=2u8 {
            let got: Vec<usize> = matches(&terms, w, k, false).iter().map(|m| m.term).collect();
            let want: Vec<usize> = (0..terms.len()).filter(|&i| osa(&terms[i], w) <= usize::from(k)).collect();
            assert_eq!(got, want, "{w} {k}");
            let got: Vec<usize> = matches(&terms, w, k, true).iter().map(|m| m.term).collect();
            let want: Vec<usize> = (0..terms.len())
                .filter(|&i| (0..=terms[i].len()).filter(|&n| terms[i].is_char_boundary(n)).any(|n| osa(&terms[i][..n], w) <= usize::from(k)))
                .collect();
            assert_eq!(got, want, "prefix {w} {k}");
        }
    }
}

#[test]
fn queries_find_with_typos_prefixes_diacritics_and_joins() {
    let ix = index();
    assert_eq!(q(&ix, "red hoodie"), ["p1", "p4"]);
    assert_eq!(q(&ix, "hodoie"), ["p1", "p4"]); // swap: one typo
    assert_eq!(q(&ix, "hoo"), ["p1", "p4"]); // prefix of the last word
    assert_eq!(q(&ix, "cafe creme"), ["p3"]);
    assert_eq!(q(&ix, "CAFÉ"), ["p3"]);
    assert_eq!(q(&ix, "strasse"), ["p6"]);
    for t in ["t-shirt", "t shirt", "tshirt", "T-SHIRT"] {
        assert_eq!(q(&ix, t), ["p2"], "{t}");
    }
    assert_eq!(q(&ix, "ab1234"), ["p5"]);
    assert_eq!(q(&ix, "1234"), ["p5"]);
    assert!(q(&ix, "1235 ").is_empty() || q(&ix, "1235") != ["p5"]); // numbers: no typos
    assert!(q(&ix, "mig").is_empty()); // under 5 letters: no typos
}

#[test]
fn ranking_words_typos_fields_then_stock() {
    let ix = index();
    // p4 (out of stock) after p1 with the default `last`; `mix` keeps relevance first.
    assert_eq!(q(&ix, "hoodie"), ["p1", "p4"]);
    let r = ix.search("sold hoodie", &SearchOptions::default()).unwrap();
    assert_eq!(r.hits[0].id, "p4");
    // A name match before a description match.
    assert_eq!(q(&ix, "mug"), ["p3"]);
    let r = ix.search("hoodie", &SearchOptions { out_of_stock: Some(OutOfStock::Hide), ..SearchOptions::default() }).unwrap();
    assert_eq!(r.total, 1);
}

#[test]
fn filters_hold_on_one_variant() {
    let ix = index();
    let mut f = Filters::default();
    let opts = f.options.get_or_insert_default();
    opts.insert("Color".into(), vec!["red".into()]);
    opts.insert("Size".into(), vec!["M".into()]);
    let o = SearchOptions { filters: Some(f.clone()), ..SearchOptions::default() };
    assert_eq!(ids(&ix, "", &o), ["p1", "p4"]); // p2 is red L and blue M: no variant both
    let r = ix.search("", &o).unwrap();
    let fc = r.facets.unwrap();
    let size = fc.options.iter().find(|x| x.name == "Size").unwrap();
    // Size counted with Color=red only: p1 M, p2 L, p4 M.
    let got: Vec<(String, u32)> = size.values.iter().map(|v| (v.value.clone(), v.count)).collect();
    assert_eq!(got, [("M".to_owned(), 2), ("L".to_owned(), 1)]);
    let mut f2 = f;
    f2.max_price = Some(4000);
    assert_eq!(ids(&ix, "", &SearchOptions { filters: Some(f2), ..SearchOptions::default() }), ["p4"]);
    let mut f3 = Filters::default();
    f3.options.get_or_insert_default().insert("Material".into(), vec!["wool".into()]);
    assert_eq!(ix.search("", &SearchOptions { filters: Some(f3), ..SearchOptions::default() }).unwrap().total, 0);
}

#[test]
fn sorting_paging_and_bad_input() {
    let ix = index();
    let o = |sort| SearchOptions { sort: Some(sort), out_of_stock: Some(OutOfStock::Mix), ..SearchOptions::default() };
    assert_eq!(ids(&ix, "", &o(Sort::PriceAsc)), ["p3", "p2", "p5", "p4", "p1", "p6"]);
    assert_eq!(ids(&ix, "", &o(Sort::PriceDesc))[0], "p6");
    assert_eq!(ids(&ix, "", &o(Sort::Name)), ["p2", "p3", "p5", "p4", "p6", "p1"]);
    let r = ix.search("", &SearchOptions { page: Some(9), per_page: Some(2), ..SearchOptions::default() }).unwrap();
    assert!(r.hits.is_empty());
    assert_eq!((r.total, r.pages), (6, 3));
    assert!(ix.search("", &SearchOptions { page: Some(0), ..SearchOptions::default() }).is_err());
    assert!(ix.search("", &SearchOptions { per_page: Some(0), ..SearchOptions::default() }).is_err());
    let long = "hoodie ".repeat(1500) + &"x".repeat(10_000);
    assert_eq!(q(&ix, &long), ["p1", "p4"]);
    assert_eq!(q(&ix, "\u{0}\u{7}\n\t").len(), 6);
    assert_eq!(q(&ix, "").len(), 6);
}

#[test]
fn highlights_did_you_mean_and_suggest() {
    let ix = index();
    let r = ix.search("red hood", &SearchOptions::default()).unwrap();
    assert_eq!(r.hits[0].highlights, [[7, 10], [16, 22]]);
    let r = ix.search("Café", &SearchOptions::default()).unwrap();
    assert_eq!(r.hits[0].highlights, [[0, 4]]);
    let r = ix.search("hooodiexx", &SearchOptions::default()).unwrap();
    assert_eq!((r.total, r.did_you_mean.as_deref()), (0, Some("hoodie")));
    let s = ix.suggest("red ho").unwrap();
    assert_eq!(s.queries, ["red hoodie"]);
    assert_eq!(s.products[0].id, "p1");
    let s = ix.suggest("app").unwrap();
    assert_eq!(s.collections[0].name, "Apparel");
    assert!(ix.suggest("").unwrap().products.is_empty());
}

#[test]
fn bytes_round_trip_and_are_deterministic() {
    let ix = index();
    let b = ix.to_bytes();
    assert_eq!(b, index().to_bytes());
    let back = SearchIndex::from_bytes(&b).unwrap();
    assert_eq!(back, ix);
    let mut other = b.clone();
    other[4] = 2;
    let e = SearchIndex::from_bytes(&other).unwrap_err();
    assert!(e.message.contains("format version 2"), "{}", e.message);
    assert!(SearchIndex::from_bytes(&b[..b.len() - 1]).is_err());
    assert!(SearchIndex::from_bytes(b"").is_err());
    // Names kept as their terms ("red wool hoodie") and as text ("Red t-shirt") both come back.
    let two = vec![product("a", "red wool hoodie", &[], &[], &[], ""), product("b", "Red t-shirt", &[], &[], &[], "")];
    let ix = SearchIndex::build(&two).unwrap();
    assert_eq!(SearchIndex::from_bytes(&ix.to_bytes()).unwrap(), ix);
}

proptest::proptest! {
    #[test]
    fn the_sorts_equal_std(mut v in proptest::collection::vec(proptest::prelude::any::<u64>(), 0..300), small in proptest::collection::vec(0u32..8, 0..200)) {
        let mut want = v.clone();
        want.sort_unstable();
        super::sort::keys(&mut v);
        proptest::prop_assert_eq!(v, want);
        let got = super::sort::indices(small.len(), &|a, b| small[a as usize].cmp(&small[b as usize]));
        let mut want: Vec<u32> = (0..small.len() as u32).collect();
        want.sort_by_key(|&i| small[i as usize]);
        proptest::prop_assert_eq!(got, want);
    }
}
