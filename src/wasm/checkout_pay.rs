//! A `Checkout`'s payment run ([`super::checkout`]): the processor adapter's
//! token and next action, the client's confirm, the core's delays between
//! re-confirms, each step on the live record ([`super::checkout_record`]).

use js_sys::Promise;
use wasm_bindgen::prelude::*;
use wasm_bindgen_futures::JsFuture;

use super::js::error_text;
use super::checkout_record::Inner;
use super::interop::to_js;
use super::js::get;
use super::lock;
use super::timers::sleep;
use crate::checkout::{AfterConfirm, CheckoutState, PayStep, Run};
use crate::error::{ErrorCode, Result};

type JsResult<T> = std::result::Result<T, JsValue>;

/// Await whatever a JS method returned (a promise or a plain value).
pub(super) async fn settle(call: JsResult<JsValue>) -> JsResult<JsValue> {
    JsFuture::from(Promise::resolve(&call?)).await
}

impl Inner {
    pub(super) async fn mount_adapter(&self) -> JsResult<()> {
        let Some(session) = self.state.borrow().adapter_session() else { return Ok(()) };
        let arg = to_js(&session)?;
        settle(self.adapter.mount(&arg)).await.map(drop)
    }

    fn adapter_failed(&self, message: &str) -> Result<()> {
        self.act(|s| s.adapter_failed(message))?;
        self.changed()?;
        Ok(())
    }

    /// Tell `open` that the first confirm of a resumed payment was answered
    /// (or that the run ended without one).
    pub(super) fn answered(&self) {
        if let Some(resolve) = self.first_answer.borrow_mut().take() {
            let _ = resolve.call0(&JsValue::NULL);
        }
    }

    /// One payment run: collect (or reuse) a token, confirm, run at most one
    /// next action per run (only when the buyer asked: [`Run::Pay`]) and
    /// confirm again; an unknown outcome or `processing` is confirmed again
    /// with the same token after the core's delays (bounded). Every step acts
    /// on the live record. Payment outcomes end in the state; only a step
    /// that may not run now is an `Err`.
    pub(super) async fn pay(&self, return_url: &str, run: Run) -> Result<()> {
        let step = match run {
            Run::Resume => match self.act(|s| Ok(s.resume_token().map(str::to_owned)))? {
                Some(t) => PayStep::Reconfirm(t),
                None => return Ok(()),
            },
            Run::Pay => {
                let step = self.act(|s| s.pay_step())?;
                crate::checkout::validate_return_url(return_url)?;
                step
            }
        };
        let mut token = match step {
            PayStep::Reconfirm(t) => t,
            PayStep::CollectToken => {
                // A new payment: only the tab holding the cart's checkout lock may make one.
                lock::acquire(&self.lock_name(), self.id).await?;
                match settle(self.adapter.collect_token()).await {
                    Ok(v) => match v.as_string().filter(|t| !t.trim().is_empty()) {
                        Some(t) => t,
                        None => return self.adapter_failed("the processor adapter returned no token"),
                    },
                    Err(e) => return self.adapter_failed(&error_text(&e)),
                }
            }
        };
        // Next actions run, re-reads of `processing`, re-confirms of an unknown outcome: each bounded.
        let (mut actions, mut polls, mut rechecks) = (0, 0, 0);
        let mut first = true;
        loop {
            // After a wait, another tab may have settled this payment: then this run is over.
            if !std::mem::take(&mut first) && self.sync()? && self.state.borrow().resume_token() != Some(token.as_str()) {
                return Ok(());
            }
            let body = self.act(|s| s.begin_confirm(&token, return_url))?;
            // Stored as in flight before anything is sent.
            if !self.changed()? {
                return Ok(()); // another tab finished this session meanwhile
            }
            let sent = self.client.confirm(&body).await;
            let after = match sent {
                Ok(a) => self.state.borrow_mut().confirmed(a),
                Err(e) => {
                    let code = serde_wasm_bindgen::from_value::<ErrorCode>(get(&e, "code")).unwrap_or(ErrorCode::Internal);
                    self.state.borrow_mut().confirm_failed(code, &error_text(&e))
                }
            };
            let written = self.changed()?;
            self.answered();
            let after = after?;
            if !written {
                return Ok(());
            }
            let round = match after {
                AfterConfirm::Processing => &mut polls,
                AfterConfirm::Unknown => &mut rechecks,
                _ => &mut actions,
            };
            if let Some(ms) = after.delay_ms(*round) {
                *round += 1;
                sleep(ms).await;
                continue;
            }
            let AfterConfirm::NextAction(secret) = &after else { return Ok(()) };
            // `start`/`resume` never wait on a person: the page calls `pay()` for the challenge.
            if !after.runs_action(run) {
                return Ok(());
            }
            if actions > 0 {
                return self.adapter_failed("authentication was not completed");
            }
            actions += 1;
            if let Err(e) = settle(self.adapter.handle_next_action(secret)).await {
                return self.adapter_failed(&error_text(&e));
            }
            if self.sync()? && !matches!(&*self.state.borrow(), CheckoutState::RequiresAction(_)) {
                return Ok(()); // another tab finished it meanwhile
            }
            token = self.state.borrow().action_finished()?;
        }
    }
}

