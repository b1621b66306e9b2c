//! The index reader on truncated and changed bytes: a typed error or an index that answers
//! queries, never a panic. Mutations are made past the checksum too (the checksum recomputed),
//! so the reader's own checks are what is tested. Then the query parser and the search's
//! options on bad input (issue 42, item 4): an empty or 10,000-character query, control
//! characters, any text, filters on options that do not exist, a page past the end, extreme
//! numbers: an `invalid_argument` or a result (empty where nothing can match), never a panic,
//! and every call within a time bound (no hang).

use proptest::prelude::*;

use super::super::codec::{checksum, seal};
use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use super::super::options::{Filters, OutOfStock, SearchOptions, SearchResult, Sort};
use super::super::SearchIndex;
use super::catalog;
use crate::error::ErrorCode;

fn bytes() -> Vec<u8> {
    SearchIndex::build(&catalog()).unwrap().to_bytes()
}

/// `bytes` with its checksum made right again.
fn resealed(b: &[u8]) -> Vec<u8> {
    seal(&b[5..b.len().saturating_sub(4).max(5)])
}

#[test]
fn every_truncation_is_refused() {
    let b = bytes();
    for n in 0..b.len() {
        let e = SearchIndex::from_bytes(&b[..n]).unwrap_err();
        assert_eq!(e.code, ErrorCode::Decode);
        // Truncated with a right checksum: the reader itself refuses it.
        if n > 9 {
            let mut t = b[..n - 4].to_vec();
            let sum = checksum(&t);
            t.extend_from_slice(&sum.to_le_bytes());
            assert!(SearchIndex::from_bytes(&t).is_err(), "{n}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]
    #[test]
    fn changed_bytes_never_panic(edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..6), cut in any::<usize>()) {
        let orig = bytes();
        let mut b = orig.clone();
        for (at, v) in edits {
            let i = 5 + at % (b.len() - 9);
            b[i] = v;
        }
        // Without a fix of the checksum: refused as changed.
        prop_assert!(b == orig || SearchIndex::from_bytes(&b).is_err());
        let b = resealed(&b);
        let b = &b[..b.len() - cut % 3];
        if let Ok(ix) = SearchIndex::from_bytes(b) {
            for q in ["", "red hoodie", "hodoie", "t shirt", "cafe"] {
                let _ = ix.search(q, &SearchOptions::default());
                let _ = ix.suggest(q);
            }
        }
    }
}

/// A call that must not hang: its time, checked against a bound far above a normal query's
/// (microseconds) that a loaded machine's debug build still meets.
fn timed<T>(what: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    assert!(t.elapsed() < Duration::from_secs(5), "{what}: {:?}", t.elapsed());
    out
}

fn search(ix: &SearchIndex, q: &str, o: &SearchOptions) -> Result<SearchResult, crate::error::Error> {
    timed(&format!("search({:?})", q.chars().take(40).collect::<String>()), || ix.search(q, o))
}

/// A result's own consistency: the page's hits within the totals.
fn consistent(r: &SearchResult) {
    assert!(r.hits.len() <= r.per_page as usize);
    assert!(r.hits.len() <= r.total as usize);
    assert_eq!(r.pages, r.total.div_ceil(r.per_page));
    if r.page > r.pages {
        assert!(r.hits.is_empty(), "a page past the end has no hits");
    }
}

#[test]
fn empty_long_and_control_queries_answer() {
    let ix = SearchIndex::build(&catalog()).unwrap();
    let all = search(&ix, "", &SearchOptions::default()).unwrap();
    assert_eq!(all.total as usize, catalog().len(), "an empty query lists every product");
    let long_word = "a".repeat(10_000);
    let long_words = "hoodie ".repeat(1_429); // 10,003 characters, 1,429 words
    let mixed: String = (0..10_000u32).map(|i| char::from_u32(0x20 + (i * 7919) % 0x2fd0).unwrap_or('x')).collect();
    for q in [long_word.as_str(), long_words.as_str(), mixed.as_str()] {
        assert!(q.chars().count() >= 10_000);
        let r = search(&ix, q, &SearchOptions::default()).unwrap();
        consistent(&r);
        timed("suggest(10,000 characters)", || ix.suggest(q)).unwrap();
    }
    // The words past the first 512 characters are not read: 1,429 times "hoodie" is "hoodie".
    assert_eq!(search(&ix, &long_words, &SearchOptions::default()).unwrap().total, search(&ix, "hoodie", &SearchOptions::default()).unwrap().total);
    for q in ["\u{0}", "\u{0}hoodie\u{7}", "\t\r\n", "\u{1b}[31mred\u{1b}[0m", "\u{202e}eidooh", "\u{feff}\u{200b}", "\u{7f}\u{9f}\u{85}"] {
        let r = search(&ix, q, &SearchOptions::default()).unwrap();
        consistent(&r);
        timed("suggest(control characters)", || ix.suggest(q)).unwrap();
    }
    // Control characters separate words: they find what the words alone find.
    assert_eq!(
        search(&ix, "\u{0}hoodie\u{7}", &SearchOptions::default()).unwrap().hits.len(),
        search(&ix, "hoodie", &SearchOptions::default()).unwrap().hits.len()
    );
}

#[test]
fn unknown_filters_and_pages_past_the_end_are_empty() {
    let ix = SearchIndex::build(&catalog()).unwrap();
    let with = |filters: Filters| SearchOptions { filters: Some(filters), ..SearchOptions::default() };
    for (name, value) in [("Material", "wool"), ("Color", "mauve"), ("", ""), ("color", "red"), ("Color\u{0}", "red")] {
        let o = with(Filters { options: Some(BTreeMap::from([(name.to_owned(), vec![value.to_owned()])])), ..Filters::default() });
        let r = search(&ix, "hoodie", &o).unwrap();
        assert_eq!((r.total, r.hits.len()), (0, 0), "an unknown option {name:?} = {value:?} matches nothing");
        consistent(&r);
    }
    let o = with(Filters { collections: Some(vec!["no-such".into()]), tags: Some(vec!["\u{0}".into()]), ..Filters::default() });
    assert_eq!(search(&ix, "", &o).unwrap().total, 0);
    // A range that holds nothing, and one the wrong way round: empty, not an error.
    for (min, max) in [(Some(i64::MAX), None), (None, Some(i64::MIN)), (Some(5000), Some(100)), (Some(i64::MIN), Some(i64::MAX))] {
        let r = search(&ix, "", &with(Filters { min_price: min, max_price: max, ..Filters::default() })).unwrap();
        consistent(&r);
    }
    for page in [2, 7, 1000, u32::MAX] {
        let r = search(&ix, "hoodie", &SearchOptions { page: Some(page), per_page: Some(250), ..SearchOptions::default() }).unwrap();
        assert!(r.hits.is_empty(), "page {page}");
        assert!(r.total > 0, "the totals of a page past the end are still there");
        consistent(&r);
    }
    let e = search(&ix, "hoodie", &SearchOptions { page: Some(0), ..SearchOptions::default() }).unwrap_err();
    assert_eq!((e.code, e.message.as_str()), (ErrorCode::InvalidArgument, "page: 1 or more"));
    for per_page in [0, 251, u32::MAX] {
        let e = search(&ix, "", &SearchOptions { per_page: Some(per_page), ..SearchOptions::default() }).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidArgument, "perPage {per_page}");
    }
    let many: BTreeMap<String, Vec<String>> = (0..17).map(|i| (format!("O{i}"), vec!["x".to_owned()])).collect();
    let e = search(&ix, "", &with(Filters { options: Some(many), ..Filters::default() })).unwrap_err();
    assert_eq!(e.code, ErrorCode::InvalidArgument, "more than 16 option filters");
}

/// Text of any characters, control characters and the index's own words weighted in.
fn text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        any::<char>().prop_map(String::from),
        (0u32..0x20).prop_map(|c| char::from_u32(c).unwrap().to_string()),
        prop::sample::select(vec!["hoodie", "hodoie", "t-shirt", "café", "AB-1234", "red", " ", "-", "'", "ß", "\u{301}", "😀"]).prop_map(str::to_owned),
    ];
    prop::collection::vec(piece, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1500, ..ProptestConfig::default() })]
    #[test]
    fn any_query_and_options_answer_or_refuse(
        q in text(),
        names in prop::collection::vec(prop::sample::select(vec!["Color", "Size", "Material", "", "color"]), 0..4),
        values in prop::collection::vec(text(), 0..4),
        page in prop_oneof![Just(0u32), 1u32..5, any::<u32>()],
        per_page in prop_oneof![1u32..=250, any::<u32>()],
        buckets in prop_oneof![1u32..=100, any::<u32>()],
        min in proptest::option::of(any::<i64>()),
        max in proptest::option::of(any::<i64>()),
        sort in prop::sample::select(vec![Sort::Relevance, Sort::PriceAsc, Sort::PriceDesc, Sort::Newest, Sort::Name]),
        stock in prop::sample::select(vec![OutOfStock::Hide, OutOfStock::Last, OutOfStock::Mix]),
    ) {
        let ix = SearchIndex::build(&catalog()).unwrap();
        let options: BTreeMap<String, Vec<String>> = names.iter().map(|n| ((*n).to_owned(), values.clone())).collect();
        let o = SearchOptions {
            filters: Some(Filters { options: Some(options), min_price: min, max_price: max, ..Filters::default() }),
            sort: Some(sort),
            out_of_stock: Some(stock),
            page: Some(page),
            per_page: Some(per_page),
            price_buckets: Some(buckets),
            ..SearchOptions::default()
        };
        match search(&ix, &q, &o) {
            Ok(r) => consistent(&r),
            Err(e) => prop_assert_eq!(e.code, ErrorCode::InvalidArgument, "{}", e.message),
        }
        timed("suggest", || ix.suggest(&q)).unwrap();
    }
}
