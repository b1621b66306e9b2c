//! What a paid checkout takes out of the cart (issue 41, finding 1): the
//! paid quantities leave the cart exactly once per paid checkout, whichever
//! tabs follow that checkout to `succeeded` and whenever they wake.
//!
//! The decision is the cart's, keyed by the checkout's payment session and
//! kept in the cart's saved form (`settled`, [`super::storage`]): every tab
//! that sees the payment succeed asks ([`Cart::take_paid`]), the first ask
//! subtracts the paid quantities from the cart as it is then, every later ask
//! for the same session (another tab, a tab woken from the back/forward
//! cache, the next tab finishing a payment whose `succeeded` write storage
//! refused) finds the session settled and changes nothing. A persistent cart
//! reads its saved form right before the ask (`src/wasm/cart.rs`), so the
//! record of what was settled is the one every tab shares, not a tab's copy.
//! Pure: no I/O.

use super::Cart;
use crate::model::PaymentItem;

/// How many settled sessions a cart remembers (the oldest is forgotten
/// first). A session is asked about only while a tab still shows its
/// checkout; a buyer does not pay this many checkouts of one cart meanwhile.
pub const SETTLED_KEPT: usize = 16;

impl Cart {
    /// Take what the checkout of payment session `session` paid for (`paid`)
    /// out of the cart, once: the first call for a session subtracts each
    /// paid quantity from its line as the cart is now (a line left at 0 is
    /// removed; what the buyer added beyond the paid quantities stays) and
    /// records the session; a later call for the same session changes
    /// nothing. Returns whether the cart changed (the lines or the record of
    /// settled sessions). An empty `session` is never recorded (the paid
    /// quantities are taken, as before issue 41).
    pub fn take_paid(&mut self, session: &str, paid: &[PaymentItem]) -> bool {
        if self.settled.iter().any(|s| s == session) {
            return false;
        }
        if !session.is_empty() {
            self.settle_all([session.to_owned()]);
        }
        for p in paid {
            let Some(i) = self.position(&p.variant_id) else { continue };
            let left = self.lines[i].quantity.saturating_sub(p.quantity);
            if left == 0 {
                self.lines.remove(i);
            } else {
                // A lower quantity of a line that fits its stock: nothing to refuse.
                self.lines[i].quantity = left;
                let _ = self.lines[i].recompute();
            }
        }
        true
    }

    /// The payment sessions whose paid quantities left this cart, oldest first.
    #[must_use]
    pub fn settled(&self) -> &[String] {
        &self.settled
    }

    /// Record `sessions` as settled (a restored cart's, or a new one), keeping
    /// the last [`SETTLED_KEPT`].
    pub(crate) fn settle_all(&mut self, sessions: impl IntoIterator<Item = String>) {
        for s in sessions {
            if !self.settled.contains(&s) {
                self.settled.push(s);
            }
        }
        let over = self.settled.len().saturating_sub(SETTLED_KEPT);
        self.settled.drain(..over);
    }
}
