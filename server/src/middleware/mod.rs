//! The layers around the app, one file each, listed from the outermost
//! (`crate::router` puts them on in this order):
//! - [`request_id`]: an `x-request-id` on every response;
//! - [`log`]: one access-log line per request (never a key);
//! - `x-content-type-options: nosniff` on every response (`crate::router`);
//! - [`cors`]: the CORS headers of an allowed origin on every response;
//! - [`host`]: a request whose `Host` is not this server's is refused (DNS rebinding);
//! - [`cors::preflight`]: CORS preflights answered;
//! - [`errors`]: every error is the contract's JSON body, even one the framework produced;
//! - response compression (`crate::www::api_compression`);
//! - [`faults`]: the test hooks' armed faults;
//! - [`auth`] (the API routes only): bearer auth, then the request-rate limiter of [`limit`].
//!
//! The payment endpoints count card-testing attempts per client address
//! themselves ([`payment_limit`], [`limit::ClientAddr`]).

pub mod auth;
pub mod cors;
pub mod errors;
pub mod faults;
pub mod host;
pub mod limit;
pub mod log;
pub mod payment_limit;
pub mod request_id;

pub use limit::{per_client, ClientAddr};
pub use payment_limit::{Counted, PaymentLimiter};
