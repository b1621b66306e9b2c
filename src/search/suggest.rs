//! Predictive search (`suggest`: completed queries, products, collections) and "did you mean"
//! (each word replaced by the closest term the vocabulary has, one typo more than a search allows).

use super::options::{SearchOptions, SuggestedCollection, SuggestedProduct, Suggestions};
use super::query::parse;
use super::text::{fold, typos_allowed};
use super::typo::matches;
use super::{sort, SearchIndex};
use crate::error::Error;

/// How many of each kind `suggest` gives.
pub const SUGGESTIONS: usize = 5;

impl SearchIndex {
    /// Products found by the term (number of postings).
    fn df(&self, t: usize) -> u32 {
        self.post_start[t + 1] - self.post_start[t]
    }

    /// The query with its words corrected, when some word has a close term; else `None`.
    pub(crate) fn did_you_mean(&self, ws: &[String]) -> Option<String> {
        let mut changed = false;
        let mut out: Vec<String> = Vec::with_capacity(ws.len());
        for w in ws {
            if self.term(w).is_some() {
                out.push(w.clone());
                continue;
            }
            let k = typos_allowed(w) + 1;
            let k = if w.bytes().any(|b| b.is_ascii_digit()) || w.chars().count() < 3 { 0 } else { k };
            let best = matches(&self.terms, w, k, false).into_iter().min_by_key(|m| (m.typos, u32::MAX - self.df(m.term), m.term));
            match best {
                Some(m) => {
                    changed = true;
                    out.push(self.terms[m.term].clone());
                }
                None => out.push(w.clone()),
            }
        }
        changed.then(|| out.join(" "))
    }

    /// Predictive search for what the buyer has typed so far: up to [`SUGGESTIONS`] completed
    /// queries (the last word completed by the vocabulary's most frequent terms, kept when some
    /// product has every word), products and collections (a word of the name starting
    /// with the last word).
    ///
    /// # Errors
    /// None in practice (the search it runs has valid options); typed for the boundary.
    pub fn suggest(&self, prefix: &str) -> Result<Suggestions, Error> {
        let ws = parse(prefix);
        let Some(last) = ws.last() else { return Ok(Suggestions::default()) };
        let opts = SearchOptions { per_page: Some(SUGGESTIONS as u32), facets: Some(false), ..SearchOptions::default() };
        let found = self.search(prefix, &opts)?;
        let products = found.hits.into_iter().map(|h| SuggestedProduct { id: h.id, name: h.name }).collect();
        let mut completions = matches(&self.terms, last, 0, true);
        if completions.is_empty() {
            completions = matches(&self.terms, last, typos_allowed(last), true);
        }
        let order = sort::indices(completions.len(), &|a, b| {
            let (a, b) = (&completions[a as usize], &completions[b as usize]);
            a.typos.cmp(&b.typos).then(self.df(b.term).cmp(&self.df(a.term)))
        });
        let head = ws[..ws.len() - 1].join(" ");
        let mut queries = Vec::new();
        for m in order.iter().take(SUGGESTIONS * 4).map(|&i| completions[i as usize]) {
            if queries.len() == SUGGESTIONS {
                break;
            }
            let q = if head.is_empty() { self.terms[m.term].clone() } else { format!("{head} {}", self.terms[m.term]) };
            // A query the buyer can run: its words all found (without the prefix), something matching.
            let found = head.is_empty() || self.finds_all(&parse(&q));
            if found && !queries.contains(&q) {
                queries.push(q);
            }
        }
        let collections = self
            .collections
            .iter()
            .filter(|(_, name)| fold(name).split(' ').any(|w| w.starts_with(last.as_str())))
            .take(SUGGESTIONS)
            .map(|(id, name)| SuggestedCollection { id: id.clone(), name: name.clone() })
            .collect();
        Ok(Suggestions { queries, products, collections })
    }
}
