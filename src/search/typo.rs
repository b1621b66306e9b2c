//! The terms of the sorted vocabulary within `k` typos of a word, by the optimal string
//! alignment distance (Damerau–Levenshtein where a swap of two neighbouring letters is one
//! typo): the sorted terms walked as a trie, each term reusing the rows of the prefix it
//! shares with the one before, a prefix whose row exceeds `k` skipping every term under it.
//! With `prefix`, a term matches when one of its prefixes is within `k` (the word being typed).

/// A term matched: its index, its typos, and whether it is the word itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TermMatch {
    pub term: usize,
    pub typos: u8,
    pub exact: bool,
}

/// Every term of `terms` (sorted) within `k` typos of `word` (or, with `prefix`, with a prefix
/// within `k`), in term order.
#[must_use]
pub fn matches(terms: &[String], word: &str, k: u8, prefix: bool) -> Vec<TermMatch> {
    let mut out = Vec::new();
    if word.is_empty() {
        return out;
    }
    if k == 0 {
        let lo = terms.partition_point(|t| t.as_str() < word);
        if prefix {
            for (i, t) in terms[lo..].iter().enumerate() {
                if !t.starts_with(word) {
                    break;
                }
                out.push(TermMatch { term: lo + i, typos: 0, exact: t == word });
            }
        } else if terms.get(lo).is_some_and(|t| t == word) {
            out.push(TermMatch { term: lo, typos: 0, exact: true });
        }
        return out;
    }
    let w: Vec<char> = word.chars().collect();
    let m = w.len();
    let k = usize::from(k);
    let max_depth = m + k; // deeper rows are all above k
    // rows[i]: the DP row after the term's first i chars; chars[i]: its i-th char.
    let mut rows: Vec<Vec<usize>> = vec![(0..=m).collect()];
    let mut chars: Vec<char> = Vec::new();
    let mut prev: &str = "";
    let mut i = 0;
    while i < terms.len() {
        let t = terms[i].as_str();
        // Shared prefix with the previous term, in chars.
        let shared = t.chars().zip(prev.chars()).take_while(|(a, b)| a == b).count().min(chars.len());
        rows.truncate(shared + 1);
        chars.truncate(shared);
        let mut best_prefix = rows[..].iter().skip(1).map(|r| r[m]).min().unwrap_or(usize::MAX);
        let mut pruned_at = None;
        for c in t.chars().skip(shared) {
            if chars.len() >= max_depth {
                break;
            }
            let d = chars.len() + 1;
            let mut row = vec![0usize; m + 1];
            row[0] = d;
            let up = &rows[d - 1];
            for j in 1..=m {
                let cost = usize::from(w[j - 1] != c);
                let mut v = (up[j] + 1).min(row[j - 1] + 1).min(up[j - 1] + cost);
                if d > 1 && j > 1 && c == w[j - 2] && chars[d - 2] == w[j - 1] {
                    v = v.min(rows[d - 2][j - 2] + 1);
                }
                row[j] = v;
            }
            let low = *row.iter().min().unwrap_or(&usize::MAX);
            best_prefix = best_prefix.min(row[m]);
            chars.push(c);
            rows.push(row);
            if low > k && !(prefix && best_prefix <= k) {
                pruned_at = Some(d);
                break;
            }
        }
        let n_chars = t.chars().count();
        let done = chars.len() == n_chars;
        let dist = if prefix {
            best_prefix
        } else if done {
            rows[n_chars][m]
        } else {
            usize::MAX
        };
        if dist <= k {
            out.push(TermMatch { term: i, typos: dist as u8, exact: t == word });
        }
        prev = t;
        i += 1;
        if let Some(d) = pruned_at {
            // Every following term that starts with these d chars is out too.
            let stem: String = chars[..d].iter().collect();
            while i < terms.len() && terms[i].starts_with(stem.as_str()) {
                i += 1;
            }
        }
    }
    out
}

/// The optimal string alignment distance of `a` and `b` (a swap of neighbours is one edit).
#[must_use]
pub fn osa(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for j in 0..=b.len() {
        d[0][j] = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1).min(d[i][j - 1] + 1).min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[a.len()][b.len()]
}
