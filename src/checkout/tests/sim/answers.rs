//! Answers as the executor reads them (issue 41, finding 2): the simulated
//! `CheckoutClient` answers a confirm as JSON text, now and then with members
//! missing (the null ones a storefront's own client leaves out, or ones it
//! needs), extra, of the wrong type, or a status this version does not know,
//! before the server acted (a client that makes up an answer instead of
//! throwing) or after. The text is read by the same code the browser executor
//! runs (`checkout::answer`: [`crate::checkout::answer::ConfirmAnswer`]'s serde,
//! then `read_confirm`), here from JSON text with serde_json.
//!
//! Invariant 6 (checked after every step, [`World::check_answers`]): no page
//! shows a final failure while its session's payment may still be charged.

use serde_json::{json, Value};

use super::server::PiStatus;
use super::world::{trace, World};
use crate::checkout::definitive;
use crate::checkout::protocol::Input;
use crate::checkout::state::{CheckoutState, Failed};
use crate::checkout::tests::kept::read_answer;

impl World {
    /// A confirm's answer as the simulated client gives it and the executor
    /// reads it; other inputs as they are.
    pub fn as_read(&mut self, input: Input) -> Input {
        let Input::Confirmed(answer) = input else { return input };
        let text = match &answer {
            Ok(a) => {
                let mut v = serde_json::to_value(a).unwrap_or(Value::Null);
                // The damaging forms only while faults happen; an answer without its null members any time.
                let forms: &[u32] = if self.calm { &[60, 40] } else { &[50, 25, 10, 5, 5, 5] };
                let form = self.rng.weighted(forms);
                reshape(&mut v, form);
                v.to_string()
            }
            // A client that answers something of its own instead of the error it got.
            Err(e) if !definitive(e.code) && !self.calm && self.rng.percent(10) => {
                ["{}", r#"{"success":false}"#, r#"{"success":false,"status":"unknown","error":"upstream"}"#][self.rng.below(3)].to_owned()
            }
            Err(_) => return Input::Confirmed(answer),
        };
        let read = read_answer(&text);
        trace!(self, "    the client answers {text} -> {}", if read.is_ok() { "read" } else { "not read: an unknown outcome" });
        Input::Confirmed(read)
    }

    /// Invariant 6: a page showing a final failure (`failed`, not retryable)
    /// while the payment of its session is not settled at the server.
    pub fn check_answers(&self) -> Option<String> {
        for (p, page) in self.pages.iter().enumerate() {
            let CheckoutState::Failed(f @ Failed { retryable: false, .. }) = self.showing(p) else { continue };
            let session = self.server.sessions.iter().position(|s| s.id == f.session.session_id);
            let open = self.server.payments.iter().find(|x| Some(x.session) == session && (x.unsettled() || matches!(x.status, PiStatus::Authorized | PiStatus::Captured)));
            if let Some(pay) = open {
                return Some(format!("invariant 6: page {} shows a final failure ({:?}: {}) while payment {} of its session is {:?}", page.id, f.code, f.message, pay.id, pay.status));
            }
        }
        None
    }
}

/// One form of a confirm's answer (`v`, all members as the server writes them):
/// 0 as it is, 1 without its null members, 2 with extra members, 3 a member of the
/// wrong type, 4 without `status`, 5 a status this version does not know.
fn reshape(v: &mut Value, form: usize) {
    let Value::Object(m) = v else { return };
    match form {
        1 => m.retain(|_, x| !x.is_null()),
        2 => {
            m.insert("livemode".into(), json!(false));
            m.insert("nextAction".into(), json!({"type": "use_stripe_sdk", "steps": [1, 2]}));
        }
        3 => {
            m.insert("paymentIntentId".into(), json!(7));
        }
        4 => {
            m.remove("status");
        }
        5 => {
            m.insert("status".into(), json!("requires_capture"));
        }
        _ => {}
    }
}
