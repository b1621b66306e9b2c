//! The API and the processor as CONTRACT.md "Payments" describes them (and as
//! `server/src/checkout/` implements them): a session per initiate, its
//! amount changed by update, one live payment per session, the same token
//! re-confirmed is the same payment, a new token while a payment is live
//! answers that payment's status, an order iff a captured payment, stock never
//! negative. What a request did is decided here, atomically, when the request
//! reaches the server (the server finishes what reached the processor).

use crate::model::{
    Breakdown, ConfirmRequest, ConfirmResponse, InitiateResponse, PaymentItem, PaymentStatus, Processor, ServerErrorCode, ShippingRate,
    ShippingRatesResponse, UpdateRequest, UpdateResponse, VariantRates,
};

/// The catalog: (variant, unit price in cents).
pub const VARIANTS: [(&str, i64); 3] = [("var_a", 1_000), ("var_b", 2_500), ("var_c", 450)];
/// The shipping rates: (id, price in cents, its decimal price).
pub const RATES: [(&str, i64, &str); 2] = [("rate_std", 500, "5.00"), ("rate_exp", 900, "9.00")];
/// Tax per country, in percent.
pub const TAX: [(&str, i64); 2] = [("US", 0), ("DE", 19)];
/// Most payment attempts one session accepts (server/src/checkout/confirm.rs).
pub const MAX_ATTEMPTS: u32 = 5;

/// What the processor does with a card (decided when the buyer enters it).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Card {
    Succeeds,
    Declines,
    /// 3-D Secure; the buyer completes it or fails it.
    ThreeDs { completes: bool },
    /// `processing`, then it settles (after a while) as this says.
    Processing { succeeds: bool },
    /// The processor fails the first confirm (502, the payment created and not
    /// confirmed); confirmed again it succeeds.
    FlakyThenSucceeds,
}

/// A server error answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: ServerErrorCode,
    pub message: String,
}

fn refuse(code: ServerErrorCode, message: impl Into<String>) -> Refusal {
    Refusal { code, message: message.into() }
}

#[derive(Debug, Clone)]
pub struct Session {
    pub id: String,
    pub items: Vec<PaymentItem>,
    pub subtotal: i64,
    /// Rate id and country of the last accepted update.
    pub shipping: Option<(String, String)>,
    pub amount: i64,
    /// Index into [`Server::payments`] of the session's current payment.
    pub payment: Option<usize>,
    pub completed: bool,
    pub attempts: u32,
    /// The cart content this session was opened for (the simulation's label).
    pub content: u64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PiStatus {
    /// Created, its confirm not taken yet.
    RequiresConfirmation,
    RequiresAction,
    Processing { succeeds: bool },
    /// Authorized, not captured yet.
    Authorized,
    /// Captured, its order written (one step, [`Server::settle`]).
    Captured,
    RequiresPaymentMethod,
    Canceled,
}

#[derive(Debug, Clone)]
pub struct Payment {
    pub id: String,
    pub session: usize,
    pub token: String,
    pub amount: i64,
    pub status: PiStatus,
    pub card: Card,
    /// A `FlakyThenSucceeds` card already failed its first confirm.
    pub flaked: bool,
}

impl Payment {
    /// A charge: authorized or captured (an authorization is captured by the
    /// next confirm, the webhook or the sweep, whichever comes first).
    pub const fn charged(&self) -> bool {
        matches!(self.status, PiStatus::Authorized | PiStatus::Captured)
    }

    /// Not settled yet: it may still become a charge.
    pub const fn unsettled(&self) -> bool {
        matches!(self.status, PiStatus::RequiresConfirmation | PiStatus::RequiresAction | PiStatus::Processing { .. })
    }
}

#[derive(Debug, Clone)]
pub struct Order {
    pub session: usize,
    pub payment: usize,
    pub amount: i64,
}

#[derive(Debug, Clone)]
pub struct Server {
    pub sessions: Vec<Session>,
    pub payments: Vec<Payment>,
    pub orders: Vec<Order>,
    pub stock: [u32; VARIANTS.len()],
}

fn variant(id: &str) -> Option<usize> {
    VARIANTS.iter().position(|(v, _)| *v == id)
}

/// The rate as the API describes it.
pub fn rate(index: usize) -> ShippingRate {
    let (id, _, price) = RATES[index];
    ShippingRate {
        id: id.into(),
        name: id.trim_start_matches("rate_").into(),
        price: price.into(),
        delivery_description: "2-4 days".into(),
        delivery_timeframe_min: 2,
        delivery_timeframe_max: 4,
        min_order_price: None,
        max_order_price: None,
    }
}

fn rate_price(id: &str) -> Option<i64> {
    RATES.iter().find(|(r, _, _)| *r == id).map(|&(_, p, _)| p)
}

fn tax(country: &str, taxable: i64) -> Option<i64> {
    let pct = TAX.iter().find(|(c, _)| *c == country)?.1;
    Some((taxable * pct + 50) / 100)
}

fn breakdown(subtotal: i64, shipping: i64, tax: i64) -> Breakdown {
    Breakdown { subtotal, shipping, tax, total: subtotal + shipping + tax }
}

impl Server {
    pub fn new(stock: [u32; VARIANTS.len()]) -> Self {
        Self { sessions: Vec::new(), payments: Vec::new(), orders: Vec::new(), stock }
    }

    fn session(&self, id: &str) -> Result<usize, Refusal> {
        self.sessions.iter().position(|s| s.id == id).ok_or_else(|| refuse(ServerErrorCode::NotFound, format!("unknown session {id}")))
    }

    /// `POST /payments/initiate`.
    pub fn initiate(&mut self, items: &[PaymentItem], content: u64) -> Result<InitiateResponse, Refusal> {
        if items.is_empty() {
            return Err(refuse(ServerErrorCode::InvalidRequest, "items must not be empty"));
        }
        let mut subtotal = 0;
        for (i, item) in items.iter().enumerate() {
            let v = variant(&item.variant_id).ok_or_else(|| refuse(ServerErrorCode::NotFound, format!("unknown variant {}", item.variant_id)))?;
            if item.quantity == 0 || item.quantity > self.stock[v] {
                return Err(refuse(ServerErrorCode::Conflict, format!("not enough stock of {}", item.variant_id)));
            }
            if items[..i].iter().any(|o| o.variant_id == item.variant_id) {
                return Err(refuse(ServerErrorCode::InvalidRequest, "duplicate variantId"));
            }
            subtotal += VARIANTS[v].1 * i64::from(item.quantity);
        }
        let id = format!("ps_{}", self.sessions.len() + 1);
        self.sessions.push(Session {
            id: id.clone(),
            items: items.to_vec(),
            subtotal,
            shipping: None,
            amount: subtotal,
            payment: None,
            completed: false,
            attempts: 0,
            content,
        });
        Ok(InitiateResponse {
            processor: Processor::Stripe,
            session_id: id,
            publishable_key: "pk_test_sim".into(),
            amount: subtotal,
            currency: "USD".into(),
            breakdown: breakdown(subtotal, 0, 0),
        })
    }

    /// `POST /shipping-rates` (every rate serves every variant here).
    pub fn rates(&self, variant_ids: &[String]) -> Result<ShippingRatesResponse, Refusal> {
        let mut variant_rates = Vec::new();
        for v in variant_ids {
            variant(v).ok_or_else(|| refuse(ServerErrorCode::NotFound, format!("unknown variant {v}")))?;
            variant_rates.push(VariantRates { variant_id: v.clone(), profile_id: "prof_1".into(), rates: (0..RATES.len()).map(rate).collect() });
        }
        Ok(ShippingRatesResponse { variant_rates })
    }

    /// The amount of `session` with this rate and country.
    fn price(&self, s: usize, rate_id: &str, country: &str) -> Result<(i64, i64), Refusal> {
        let shipping = rate_price(rate_id).ok_or_else(|| refuse(ServerErrorCode::NotFound, format!("unknown rate {rate_id}")))?;
        let tax = tax(country, self.sessions[s].subtotal + shipping)
            .ok_or_else(|| refuse(ServerErrorCode::InvalidRequest, format!("no shipping to {country}")))?;
        Ok((shipping, tax))
    }

    /// `POST /payments/update`: refused for a completed session or one whose
    /// payment may still go through.
    pub fn update(&mut self, req: &UpdateRequest) -> Result<UpdateResponse, Refusal> {
        let s = self.session(&req.session_id)?;
        if self.sessions[s].completed {
            return Err(refuse(ServerErrorCode::Conflict, "payment session is already completed"));
        }
        if let Some(p) = self.sessions[s].payment {
            if !matches!(self.payments[p].status, PiStatus::RequiresPaymentMethod | PiStatus::Canceled) {
                return Err(refuse(ServerErrorCode::Conflict, "payment session has a payment in progress"));
            }
        }
        let (shipping, tax) = self.price(s, &req.shipping_rate_id, &req.shipping_address.country)?;
        let session = &mut self.sessions[s];
        session.shipping = Some((req.shipping_rate_id.clone(), req.shipping_address.country.clone()));
        let b = breakdown(session.subtotal, shipping, tax);
        session.amount = b.total;
        Ok(UpdateResponse { session_id: session.id.clone(), amount: b.total, currency: "USD".into(), breakdown: b })
    }

    /// `POST /payments/confirm`; `card` is what the processor does with this
    /// token (the simulation knows every token it handed out).
    pub fn confirm(&mut self, req: &ConfirmRequest, card: Card) -> Result<ConfirmResponse, Refusal> {
        let s = self.session(&req.session_id)?;
        let token = req.confirmation_token_id.as_str();
        if let Some(p) = self.sessions[s].payment {
            let same = self.payments[p].token == token;
            let status = self.payments[p].status;
            if same && !self.sessions[s].completed && status == PiStatus::RequiresConfirmation {
                return self.confirm_and_settle(p);
            }
            match status {
                PiStatus::RequiresPaymentMethod | PiStatus::Canceled | PiStatus::RequiresConfirmation => {
                    if same || self.sessions[s].completed {
                        return self.settle(p);
                    }
                    if self.sessions[s].attempts >= MAX_ATTEMPTS {
                        return Err(refuse(ServerErrorCode::Conflict, "too many payment attempts for this session"));
                    }
                    self.payments[p].status = PiStatus::Canceled;
                }
                _ => return self.settle(p),
            }
        } else if self.sessions[s].completed {
            return Err(refuse(ServerErrorCode::Conflict, "payment session is already completed"));
        }
        // A token is used once (the processor refuses it again).
        if self.payments.iter().any(|p| p.token == token) {
            return Err(refuse(ServerErrorCode::InvalidRequest, "this confirmation token was already used"));
        }
        // A new attempt, priced from the confirm's own rate and address (as the server does).
        for item in &self.sessions[s].items {
            let v = variant(&item.variant_id).expect("initiate checked the variants");
            if self.stock[v] < item.quantity {
                return Err(refuse(ServerErrorCode::Conflict, format!("stock gone: {}", item.variant_id)));
            }
        }
        let (shipping, tax) = self.price(s, &req.shipping_rate_id, &req.shipping_address.country)?;
        let amount = self.sessions[s].subtotal + shipping + tax;
        let p = self.payments.len();
        self.payments.push(Payment {
            id: format!("pi_{}", p + 1),
            session: s,
            token: token.to_string(),
            amount,
            status: PiStatus::RequiresConfirmation,
            card,
            flaked: false,
        });
        self.sessions[s].payment = Some(p);
        self.sessions[s].attempts += 1;
        self.confirm_and_settle(p)
    }

    fn confirm_and_settle(&mut self, p: usize) -> Result<ConfirmResponse, Refusal> {
        let pay = &mut self.payments[p];
        pay.status = match pay.card {
            Card::FlakyThenSucceeds if !pay.flaked => {
                pay.flaked = true;
                return Err(refuse(ServerErrorCode::ProcessorError, "the payment processor failed; call again"));
            }
            Card::Succeeds | Card::FlakyThenSucceeds => PiStatus::Authorized,
            Card::Declines => PiStatus::RequiresPaymentMethod,
            Card::ThreeDs { .. } => PiStatus::RequiresAction,
            Card::Processing { succeeds } => PiStatus::Processing { succeeds },
        };
        self.settle(p)
    }

    /// What a confirm answers about payment `p`, settling an authorized one
    /// (stock taken, captured, order written, session completed; or, stock
    /// gone, cancelled and 409).
    pub fn settle(&mut self, p: usize) -> Result<ConfirmResponse, Refusal> {
        let (s, id) = (self.payments[p].session, self.payments[p].id.clone());
        let answer = |status, success, error: Option<&str>| ConfirmResponse {
            success,
            status,
            client_secret: (status == PaymentStatus::RequiresAction).then(|| format!("{id}_secret")),
            payment_intent_id: Some(id.clone()),
            error: error.map(str::to_string),
        };
        match self.payments[p].status {
            PiStatus::Authorized => {
                if !self.take_stock(s) {
                    self.payments[p].status = PiStatus::Canceled;
                    return Err(refuse(ServerErrorCode::Conflict, "stock gone: the payment was cancelled"));
                }
                self.payments[p].status = PiStatus::Captured;
                self.orders.push(Order { session: s, payment: p, amount: self.payments[p].amount });
                self.sessions[s].completed = true;
                Ok(answer(PaymentStatus::Succeeded, true, None))
            }
            PiStatus::Captured => Ok(answer(PaymentStatus::Succeeded, true, None)),
            PiStatus::RequiresAction => Ok(answer(PaymentStatus::RequiresAction, false, Some("authentication required"))),
            PiStatus::Processing { .. } => Ok(answer(PaymentStatus::Processing, false, None)),
            PiStatus::RequiresPaymentMethod | PiStatus::RequiresConfirmation => {
                Ok(answer(PaymentStatus::RequiresPaymentMethod, false, Some("Your card was declined.")))
            }
            PiStatus::Canceled => Ok(answer(PaymentStatus::Canceled, false, Some("the payment was canceled"))),
        }
    }

    fn take_stock(&mut self, s: usize) -> bool {
        let items = &self.sessions[s].items;
        let ok = items.iter().all(|i| self.stock[variant(&i.variant_id).expect("known")] >= i.quantity);
        if ok {
            for i in items {
                self.stock[variant(&i.variant_id).expect("known")] -= i.quantity;
            }
        }
        ok
    }

    /// The buyer finished (or failed) the 3-D Secure challenge of the payment
    /// whose client secret is `secret`. `None` when no such payment waits.
    pub fn next_action(&mut self, secret: &str, completes: bool) -> Option<()> {
        let p = self.payments.iter().position(|p| format!("{}_secret", p.id) == secret)?;
        let pay = &mut self.payments[p];
        if pay.status != PiStatus::RequiresAction {
            return None;
        }
        pay.status = if completes { PiStatus::Authorized } else { PiStatus::RequiresPaymentMethod };
        Some(())
    }

    /// The processor finishes `processing` payments.
    pub fn processor_settles(&mut self) {
        for p in &mut self.payments {
            if let PiStatus::Processing { succeeds } = p.status {
                p.status = if succeeds { PiStatus::Authorized } else { PiStatus::RequiresPaymentMethod };
            }
        }
    }

    /// The webhook / periodic reconciliation: every authorized payment settled
    /// as a confirm would settle it.
    pub fn sweep(&mut self) {
        for p in 0..self.payments.len() {
            if self.payments[p].status == PiStatus::Authorized {
                let _ = self.settle(p);
            }
        }
    }

    /// Another buyer takes the last units of a variant.
    pub fn stock_sold_elsewhere(&mut self, v: usize) {
        self.stock[v] = 0;
    }
}
