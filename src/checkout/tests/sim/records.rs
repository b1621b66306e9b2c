//! Stored records as the executor reads them (issue 41, finding 3): the record
//! is read from its JSON text (this version's stored form, or what another SDK
//! version wrote over it: extra members, a newer stored version, a state this
//! version does not know, a member of the wrong type) together with the text
//! kept aside under `<key>:unreadable`, by the same decision the browser
//! executor runs (`checkout::kept::reading`), and what it decides (keep aside,
//! put back) is performed on the simulated storage.
//!
//! Invariant 7 ([`World::no_session_while_kept`], when a page asks for a new
//! payment session): no new session while the stored record, whatever form it
//! is stored in, or a kept-aside one names an unsettled payment; and
//! `Checkout.clearStored` ([`World::clear_stored`]) never loses such a record.

use serde_json::json;

use super::world::{trace, World};
use crate::checkout::kept::{Clear, Keep};
use crate::checkout::protocol::{Record, Stored};
use crate::checkout::state::CheckoutState;
use crate::checkout::tests::kept::{clear_texts, read_texts, stored_value};
use crate::error::{Error, ErrorCode};

/// The record's key (for the messages).
const KEY: &str = "cirrus.checkout";

/// What the record's key and the key where unreadable records are kept hold,
/// beside the record this version wrote ([`World::storage`]).
#[derive(Debug, Clone, Default)]
pub struct Kept {
    /// The text another SDK version wrote over the stored record (which stays
    /// the record it is about, for the checks), until this version writes again.
    pub foreign: Option<String>,
    /// The text kept aside, and the record it is about (if any).
    pub aside: Option<(String, Option<Record>)>,
    /// The last reading, while nothing changed (the reads of one step).
    cache: Option<(u64, u64, Stored)>,
    /// Bumped on every change outside [`super::storage::Storage::write`].
    epoch: u64,
}

impl World {
    /// The stored record as a page that keeps its checkout in storage reads it.
    pub fn read_kept(&mut self) -> Stored {
        if self.storage.read().is_err() {
            return Err(Error::new(ErrorCode::InvalidState, "localStorage is not available"));
        }
        if let Some((w, e, s)) = &self.kept.cache {
            if (*w, *e) == (self.storage.writes, self.kept.epoch) {
                return s.clone();
            }
        }
        for _ in 0..2 {
            let main = self.kept.foreign.clone().or_else(|| self.storage.peek().map(|r| stored_value(r).to_string()));
            let aside = self.kept.aside.as_ref().map(|a| a.0.clone());
            let r = read_texts(KEY, main.as_deref(), aside.as_deref());
            match r.keep {
                Keep::Nothing => {
                    self.kept.cache = Some((self.storage.writes, self.kept.epoch, r.stored.clone()));
                    return r.stored;
                }
                Keep::Aside => {
                    trace!(self, "    the record does not read: kept aside ({})", r.stored.as_ref().err().map_or("", |e| e.message.as_str()));
                    let about = self.storage.peek().cloned();
                    self.kept.aside = main.map(|t| (t, about));
                    self.replace(None, None);
                    return r.stored;
                }
                Keep::Restore => {
                    trace!(self, "    the record kept aside names an unsettled payment: put back");
                    let Some((text, about)) = self.kept.aside.take() else { break };
                    self.replace(about, Some(text));
                }
            }
        }
        Err(Error::invalid_state("the record kept aside could not be put back"))
    }

    /// Storage now holds `record` (in the form `text`, when not this version's), and
    /// the other pages get a `storage` event.
    fn replace(&mut self, record: Option<Record>, text: Option<String>) {
        self.storage.set(record);
        self.kept.foreign = text;
        self.kept.epoch += 1;
        let label = self.storage.writes;
        for page in &mut self.pages {
            page.events.push(label);
        }
    }

    /// This version wrote the record (its own form from now on).
    pub fn kept_written(&mut self) {
        self.kept.foreign = None;
        self.kept.epoch += 1;
    }

    /// A tab of another SDK version rewrites the stored record (its revision
    /// moves on), or an SDK before issue 41 kept it aside (and removed it).
    pub fn other_version(&mut self) {
        let Some(mut record) = self.storage.peek().cloned() else { return };
        record.revision += 1;
        let mut v = stored_value(&record);
        let form = self.rng.below(6);
        match form {
            0 => v["channel"] = json!("web"),
            1 if v.get("attempt").is_some() => v["attempt"]["wallet"] = json!({"kind": "link"}),
            1 => v["session"] = json!({"note": 1}),
            2 => v["version"] = json!(2),
            3 => v["state"] = json!("authorizing"),
            4 => v["revision"] = json!("r7"),
            _ => {}
        }
        if form == 5 {
            if self.kept.aside.as_ref().is_some_and(|a| a.1.as_ref().is_some_and(|r| r.state.payment_unsettled())) {
                return; // that SDK would have lost the first one; not modelled
            }
            v["channel"] = json!("web");
            if self.rng.percent(50) {
                v["version"] = json!(2);
            }
            trace!(self, "an older SDK keeps the record aside: {v}");
            self.kept.aside = Some((v.to_string(), Some(record)));
            self.replace(None, None);
            return;
        }
        trace!(self, "another SDK version rewrites the record: {v}");
        self.replace(Some(record), Some(v.to_string()));
    }

    /// Whether a tab of another version has something to finish here.
    pub fn other_version_pending(&self) -> bool {
        self.kept.foreign.is_some() || self.kept.aside.as_ref().is_some_and(|a| a.1.is_some())
    }

    /// The tab of the other version finishes what it wrote: the record is
    /// stored again in this version's form (a kept-aside one put back where
    /// nothing is stored).
    pub fn other_version_finishes(&mut self) {
        if self.kept.foreign.is_some() {
            trace!(self, "the other SDK version's tab writes the record in this version's form");
            let record = self.storage.peek().cloned();
            self.replace(record, None);
        } else if self.storage.peek().is_none() {
            if let Some((_, Some(record))) = self.kept.aside.take() {
                trace!(self, "the other SDK version's tab puts the kept-aside record back");
                self.replace(Some(record), None);
            }
        } else if let Some((_, Some(r))) = &self.kept.aside {
            if !r.state.payment_unsettled() {
                self.kept.aside = None;
                self.kept.epoch += 1;
            }
        }
    }

    /// `Checkout.clearStored()` in page `p` (`checkout_split::clear_stored`'s decision,
    /// `checkout::kept::clear`), then, unless refused, the README's `resume() ?? start()`.
    pub fn clear_stored(&mut self, p: usize) {
        if !self.pages[p].kept || self.storage.read().is_err() {
            return;
        }
        let main = self.kept.foreign.clone().or_else(|| self.storage.peek().map(|r| stored_value(r).to_string()));
        let aside = self.kept.aside.as_ref().map(|a| a.0.clone());
        let decided = clear_texts(main.as_deref(), aside.as_deref());
        trace!(self, "page {}: Checkout.clearStored() -> {decided:?}", self.pages[p].id);
        let unsettled = |r: Option<&Record>| r.is_some_and(|r| r.state.payment_unsettled());
        let lost = match decided {
            Clear::Remove => unsettled(self.storage.peek()),
            Clear::Aside => unsettled(self.kept.aside.as_ref().and_then(|a| a.1.as_ref())),
            Clear::Refuse => false,
        };
        if lost {
            self.violate(format!("invariant 7: page {}'s Checkout.clearStored() ({decided:?}) loses a record that names an unsettled payment", self.pages[p].id));
        }
        // A paid record is the only memory of bare `items` bought (`kept::reading`); the
        // storefront clearing it says that purchase is over: the same items bought next are
        // a new purchase (README: `clearStored` "removes the record"), so a new content.
        let paid = |r: Option<&Record>| r.is_some_and(|r| matches!(r.state, CheckoutState::Succeeded(_)));
        if self.cfg.bare && decided != Clear::Refuse && paid(self.storage.peek()) {
            trace!(self, "page {}: the paid record cleared: the same items bought again are a new purchase", self.pages[p].id);
            self.cart_changed(self.pages[p].cart);
        }
        match decided {
            Clear::Refuse => return,
            Clear::Remove if main.is_some() => self.replace(None, None),
            Clear::Remove => {}
            Clear::Aside => {
                let about = self.storage.peek().cloned();
                self.kept.aside = main.map(|t| (t, about));
                self.replace(None, None);
            }
        }
        self.open_checkout(p);
    }

    /// Invariant 7, when a page that keeps its checkout in storage asks for a new payment session.
    pub fn no_session_while_kept(&mut self, p: usize) {
        if !self.pages[p].kept {
            return;
        }
        let stored = self.storage.peek().filter(|r| r.state.payment_unsettled()).map(|r| format!("the stored record (rev {}, {}{})", r.revision, r.state.name(), if self.kept.foreign.is_some() { ", in another version's form" } else { "" }));
        let aside = self.kept.aside.as_ref().and_then(|a| a.1.as_ref()).filter(|r| r.state.payment_unsettled()).map(|r| format!("the record kept aside (rev {}, {})", r.revision, r.state.name()));
        if let Some(what) = stored.or(aside) {
            self.violate(format!("invariant 7: page {} asks for a new payment session while {what} names an unsettled payment", self.pages[p].id));
        }
    }
}
