//! Shipping rates and payments (CONTRACT.md "POST /shipping-rates", "Payments").
//!
//! Money is computed here from the integer cents in SQLite. The rules are the
//! core's where it has them ([`rates`]: its body check, band and checked sum);
//! [`record`]'s session sums are still its own (issue 33). One concern per module:
//! - [`record`]: the session row and its money;
//! - [`rates`]: shipping rates and tax;
//! - [`sessions`]: `initiate` and `update`;
//! - [`confirm`]: `confirm` (creates and confirms the payment);
//! - [`processor`]: reading and cancelling a payment, idempotency keys, wording;
//! - [`settle`]: the one way a charge becomes an order, called by confirm, the
//!   processor's webhook (`crate::webhook`) and the reconciliation sweep
//!   ([`reconcile_every`]: at start-up, then periodically), each run to its end
//!   whether or not its caller is still there.

mod confirm;
mod processor;
mod rates;
mod record;
mod sessions;
mod settle;

pub use confirm::confirm;
pub use rates::shipping_rates;
pub use record::order_total;
pub use sessions::{initiate, update};
pub use settle::{reconcile_every, settle_event, Settled};
