//! Differential fuzzing of the server's query-string parser
//! (`extract::query_pairs`) against `form_urlencoded`, the WHATWG
//! application/x-www-form-urlencoded parser of the `url` crate: same pairs, or a
//! 400 exactly when a parameter repeats or there are too many.
//!
//! Cases: `CIRRUS_FUZZ_CASES` (default 2000; stage 20 sets a modest count,
//! `scripts/fuzz-server.sh` runs millions).

use std::collections::HashSet;
use std::time::Instant;

use cirrus_dev_server::extract::{query_pairs, MAX_QUERY_PARAMS};
use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};

fn cases() -> u32 {
    std::env::var("CIRRUS_FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(2_000)
}

/// Query strings built from the pieces that matter to a form decoder.
fn query() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        4 => prop::sample::select(vec![
            "%", "+", "&", "=", "%2", "%20", "%2B", "%26", "%3D", "%25", "%C3%A9", "%E2%82%AC", "%FF", "%C3", "%+1", "%-1", "%1+",
            "%0a", "%Zz", "a", "b", "k", "limit", "offset", "0", "1", "9", "f", "F", "é", "€", ";", "#", "&&", "==",
        ])
        .prop_map(str::to_string),
        1 => any::<char>().prop_map(|c| c.to_string()),
        1 => (0u8..=255).prop_map(|b| format!("%{b:02X}")),
    ];
    prop::collection::vec(piece, 0..48).prop_map(|v| v.concat())
}

fn check(q: &str) -> Result<(), TestCaseError> {
    let theirs: Vec<(String, String)> = form_urlencoded::parse(q.as_bytes()).into_owned().collect();
    let ours = query_pairs(Some(q));
    let mut seen = HashSet::new();
    let repeated = theirs.iter().find(|(k, _)| !seen.insert(k.clone())).map(|(k, _)| k.clone());
    if theirs.len() > MAX_QUERY_PARAMS {
        prop_assert!(ours.is_err(), "{q:?}: too many parameters must be a 400");
    } else if let Some(k) = repeated {
        let e = ours.err().ok_or_else(|| TestCaseError::fail(format!("{q:?}: {k:?} repeats, must be a 400")))?;
        prop_assert!(e.message.contains(&k), "{q:?}: the error names {k:?}: {}", e.message);
    } else {
        prop_assert_eq!(ours.map_err(|e| e.message), Ok(theirs), "{:?}", q);
    }
    Ok(())
}

#[test]
fn query_parsing_matches_form_urlencoded() {
    let cases = cases();
    let mut runner = TestRunner::new(Config { cases, failure_persistence: None, ..Config::default() });
    let t0 = Instant::now();
    runner.run(&query(), |q| check(&q)).unwrap();
    println!("fuzz query_pairs vs form_urlencoded: {cases} cases in {:.2} s, no difference", t0.elapsed().as_secs_f64());
}

#[test]
fn known_differences_stay_fixed() {
    for q in ["%+1=x", "a=%-1", "%1+=2", "a=%", "a=%2", "=", "&&a=1&&", "a", "a=1=2", "%C3=1", "k=%FF%FE", "a+b=c+d"] {
        check(q).unwrap_or_else(|e| panic!("{q:?}: {e}"));
    }
    // Many parameters: one pass, a 400 past the cap.
    let many: Vec<String> = (0..MAX_QUERY_PARAMS + 1).map(|i| format!("p{i}=1")).collect();
    assert!(query_pairs(Some(&many.join("&"))).is_err());
    let ok: Vec<String> = (0..MAX_QUERY_PARAMS).map(|i| format!("p{i}=1")).collect();
    assert_eq!(query_pairs(Some(&ok.join("&"))).unwrap().len(), MAX_QUERY_PARAMS);
}
