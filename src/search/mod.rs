//! Product search (issue 42): an index built from full products, typo-tolerant, with filters
//! matched on one variant and facets with exact counts. Pure: no I/O; the wasm entry
//! `cirrus-storefront/search` (`src/wasm/search.rs`, feature `search`) binds it.
//!
//! - [`text`]: tokenizing (lower case, diacritics folded, hyphenated words joined);
//! - [`build`]: products → [`SearchIndex`]; [`store`]: its bytes (`to_bytes`/`from_bytes`);
//! - [`typo`]: the vocabulary's terms within a word's typos (OSA distance, walked as a trie);
//! - [`query`]: a query's matches and ranking; [`facets`]: filters and facet counts;
//!   [`suggest`]: predictive search and "did you mean".
//!
//! Fields, weighted in this order: name, tags, option values, collection names, description.

pub mod build;
pub mod facets;
pub mod input;
pub mod options;
pub mod query;
pub mod store;
pub mod suggest;
pub mod text;
pub mod typo;

mod codec;
mod sort;

pub use options::{Facets, Hit, SearchOptions, SearchResult, Suggestions};

/// A field's bit in a posting's flags; its index is its weight (0 weighs most).
pub const NAME: u8 = 0;
pub const FIELDS: usize = 5;
/// A posting's name position is kept up to this (3 bits); this value means "not in the name".
pub const NO_POS: u8 = 7;

/// A search index: the vocabulary (sorted terms) with each term's postings, and what filters,
/// facets, sorting and hits read of each product.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SearchIndex {
    /// Sorted, distinct.
    pub(crate) terms: Vec<String>,
    /// The postings of term `t` are `post_start[t]..post_start[t + 1]`.
    pub(crate) post_start: Vec<u32>,
    /// Product index, increasing within a term.
    pub(crate) post_doc: Vec<u32>,
    /// Fields the term is in (bits 0..5, bit `i` field `i`) | its first name position << 5.
    pub(crate) post_flags: Vec<u8>,
    pub(crate) docs: Vec<Doc>,
    /// Option names, sorted.
    pub(crate) option_names: Vec<String>,
    /// Option values: (option name index, value), sorted.
    pub(crate) values: Vec<(u32, String)>,
    /// Collections: (id, name), sorted by id.
    pub(crate) collections: Vec<(String, String)>,
    /// Tags, sorted.
    pub(crate) tags: Vec<String>,
    /// Each product's place in name order (derived, not stored).
    pub(crate) name_rank: Vec<u32>,
}

/// What the index keeps of a product besides its words.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Doc {
    pub id: String,
    pub name: String,
    /// `createdAt`'s digits as a number: later is larger.
    pub created: i64,
    pub collections: Vec<u32>,
    pub tags: Vec<u32>,
    pub variants: Vec<Var>,
}

/// A variant: its price in minor units, whether it is in stock, its option values (ids into
/// `SearchIndex::values`, increasing).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Var {
    pub price: i64,
    pub in_stock: bool,
    pub values: Vec<u32>,
}

impl SearchIndex {
    /// How many products the index holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Whether it holds none.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.docs.is_empty()
    }

    /// The postings of term `t`: (product, flags).
    pub(crate) fn postings(&self, t: usize) -> impl Iterator<Item = (u32, u8)> + '_ {
        let (a, b) = (self.post_start[t] as usize, self.post_start[t + 1] as usize);
        self.post_doc[a..b].iter().copied().zip(self.post_flags[a..b].iter().copied())
    }

    /// The index of an exact term.
    pub(crate) fn term(&self, word: &str) -> Option<usize> {
        self.terms.binary_search_by(|t| t.as_str().cmp(word)).ok()
    }

    /// Each product's place in name order (folded name, then id).
    pub(crate) fn rank_names(docs: &[Doc]) -> Vec<u32> {
        let keys: Vec<String> = docs.iter().map(|d| text::fold(&d.name)).collect();
        let order = sort::indices(docs.len(), &|a, b| keys[a as usize].cmp(&keys[b as usize]).then_with(|| docs[a as usize].id.cmp(&docs[b as usize].id)));
        let mut rank = vec![0u32; docs.len()];
        for (r, &d) in order.iter().enumerate() {
            rank[d as usize] = r as u32;
        }
        rank
    }
}

#[cfg(test)]
mod tests;
