//! A confirm's answer as the checkout reads it (issue 41, finding 2), from any
//! `CheckoutClient`: a `CirrusClient`, or a storefront's own client that may
//! leave out the members CONTRACT "Payments" says are null or absent
//! (`clientSecret` is there only for `requires_action`, `error` only on a
//! failure). [`ConfirmAnswer`] reads those leniently; [`read_confirm`] is the
//! one rule of what an answer that cannot be read is.
//!
//! The rule: once a confirm was sent, an answer that cannot be read (members
//! missing, extra or of the wrong type, a status this version does not know)
//! is an unknown outcome, never a final failure: the state `confirming`, and
//! the same token is confirmed again (`ErrorCode::Decode` is not
//! [`super::definitive`]). The browser executor (`src/wasm/checkout_exec.rs`)
//! and the simulation (`src/checkout/tests/sim/`) both read an answer with
//! [`ConfirmAnswer`]'s `Deserialize` and [`read_confirm`].

use serde::Deserialize;

use crate::error::{Error, ErrorCode, Result};
use crate::model::{ConfirmResponse, PaymentStatus};

/// The answer of `confirmPayment` as the checkout decodes it: `status` is
/// required (one of [`PaymentStatus`], matched exhaustively by
/// [`crate::checkout::CheckoutState::confirmed`]; a status this version does
/// not know does not decode); the others may be absent or null.
#[derive(Debug, Clone, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ConfirmAnswer {
    #[serde(default)]
    pub success: bool,
    pub status: PaymentStatus,
    #[serde(default)]
    pub client_secret: Option<String>,
    #[serde(default)]
    pub payment_intent_id: Option<String>,
    #[serde(default)]
    pub error: Option<String>,
}

/// What the protocol is given for a confirm whose call settled with a value:
/// the answer when it decoded (`decoded`), else an unknown outcome
/// (`ErrorCode::Decode`, not definitive: the same token is confirmed again),
/// whatever the decoder said.
///
/// # Errors
/// `decode` "the confirm's answer could not be read (…); its outcome is
/// unknown: the same payment is checked again".
pub fn read_confirm<E: core::fmt::Display>(decoded: core::result::Result<ConfirmAnswer, E>) -> Result<ConfirmResponse> {
    match decoded {
        Ok(a) => Ok(ConfirmResponse { success: a.success, status: a.status, client_secret: a.client_secret, payment_intent_id: a.payment_intent_id, error: a.error }),
        Err(e) => Err(Error::new(ErrorCode::Decode, format!("the confirm's answer could not be read ({e}); its outcome is unknown: the same payment is checked again"))),
    }
}
