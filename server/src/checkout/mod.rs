//! Shipping rates and payments (CONTRACT.md "POST /shipping-rates", "Payments").
//!
//! Money is computed here from the integer cents in SQLite with the core's
//! rules: the body checks, a rate's band and the checked sums (`money::checked_add`,
//! `checked_mul`); the server keeps no money rule of its own. One concern per module:
//! - [`row`]: the payment session's database row and its money;
//! - [`rates`]: shipping rates and tax;
//! - [`sessions`]: `initiate` and `update`;
//! - [`confirm`]: `confirm` (creates and confirms the payment);
//! - [`processor`]: reading and cancelling a payment, idempotency keys, wording;
//! - [`settle`]: the one way a charge becomes an order, called by confirm, the
//!   processor's webhook (`crate::webhook`) and the settlement sweep, each run
//!   to its end whether or not its caller is still there;
//! - [`sweep`]: the settlement sweep ([`sweep_every`]: at start-up, then
//!   periodically; ready payments first, idle ones backed off per session).

mod confirm;
mod processor;
mod rates;
mod row;
mod sessions;
mod settle;
mod sweep;

pub use confirm::confirm;
pub use rates::shipping_rates;
pub use row::order_total;
pub use sessions::{initiate, update};
pub use settle::{settle_event, Settled};
pub use sweep::sweep_every;
