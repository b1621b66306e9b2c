//! The index reader on truncated and changed bytes: a typed error or an index that answers
//! queries, never a panic. Mutations are made past the checksum too (the checksum recomputed),
//! so the reader's own checks are what is tested.

use proptest::prelude::*;

use super::super::codec::{checksum, seal};
use super::super::options::SearchOptions;
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
