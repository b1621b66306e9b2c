//! The network between the tabs and the server: every request and answer is
//! a message in flight that the schedule delivers when it likes (so answers
//! are delayed and reordered), loses before the server acted (the request
//! never arrived) or after (the answer never came back), while the tab that
//! sent it may time out first, go away or reload. A request that reached the
//! server is acted on whatever happens to the tab (the server finishes what
//! reached the processor).

use crate::error::{Error, ErrorCode};
use crate::model::{ConfirmRequest, ConfirmResponse, InitiateResponse, PaymentItem, ShippingRatesResponse, UpdateRequest, UpdateResponse};

/// A request as sent.
#[derive(Debug, Clone)]
pub enum Request {
    /// With the cart content it was opened for (the simulation's label).
    Initiate { items: Vec<PaymentItem>, content: u64 },
    Rates(Vec<String>),
    Update(UpdateRequest),
    Confirm(ConfirmRequest),
}

/// An answer on its way back (`Err`: the error the client gets).
#[derive(Debug, Clone)]
pub enum Answer {
    Initiated(Result<InitiateResponse, Error>),
    Rates(Result<ShippingRatesResponse, Error>),
    Updated(Result<UpdateResponse, Error>),
    Confirmed(Result<ConfirmResponse, Error>),
}

/// Which request a message is about.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Initiate,
    Rates,
    Update,
    Confirm,
}

impl Answer {
    /// The answer a client gets when the request or its answer was lost, or
    /// it gave up waiting (`code`: `network` or `timeout`).
    pub fn lost(kind: Kind, code: ErrorCode) -> Self {
        let e = Error::new(code, if code == ErrorCode::Timeout { "no answer within timeoutMs" } else { "the connection was lost" });
        match kind {
            Kind::Initiate => Self::Initiated(Err(e)),
            Kind::Rates => Self::Rates(Err(e)),
            Kind::Update => Self::Updated(Err(e)),
            Kind::Confirm => Self::Confirmed(Err(e)),
        }
    }
}

#[derive(Debug, Clone)]
pub enum Leg {
    /// On its way to the server.
    Out(Request),
    /// The server acted (or it was lost); this comes back.
    Back(Answer),
}

/// One message in flight, for page `tab` (the operation that waits for it
/// waits for its `id`).
#[derive(Debug, Clone)]
pub struct Message {
    pub id: u64,
    pub tab: u32,
    pub leg: Leg,
    pub kind: Kind,
}

impl Request {
    pub const fn kind(&self) -> Kind {
        match self {
            Self::Initiate { .. } => Kind::Initiate,
            Self::Rates(_) => Kind::Rates,
            Self::Update(_) => Kind::Update,
            Self::Confirm(_) => Kind::Confirm,
        }
    }
}
