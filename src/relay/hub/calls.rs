//! A controller's calls in flight: each run on a task of its own and answered under the
//! controller's own number, cancelled only by that controller, and posted to browsers.

use std::sync::Arc;

use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;

use super::super::route::{BrowserRef, Browsers, Reply};
use super::{Hub, Outgoing, PendingCall, answer_to, kind_of};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::{self, Answer, BrowserId, Call, Frame};

impl Hub {
    /// Runs a controller's request on its own task and sends the answer back under `id`, counting
    /// it against the controller's calls in flight; `stop`, for a call, is what its cancel ends.
    pub(super) fn answer_later<F, Fut>(
        self: &Arc<Self>,
        peer: u64,
        id: u64,
        stop: Option<CancellationToken>,
        work: F,
    ) -> Result<(), &'static str>
    where
        F: FnOnce(Arc<Hub>) -> Fut,
        Fut: std::future::Future<Output = Result<Answer, ToolError>> + Send + 'static,
    {
        let tx = {
            let mut r = self.roster();
            let c = r.controllers.get_mut(&peer).ok_or("unknown peer")?;
            if c.pending >= protocol::MAX_PENDING_CALLS {
                return Err("too many calls in flight");
            }
            c.pending += 1;
            if let Some(stop) = stop {
                c.calls.insert(id, stop);
            }
            c.tx.clone()
        };
        let hub = self.clone();
        let work = work(self.clone());
        tokio::spawn(async move {
            let answer = work.await;
            if let Some(c) = hub.roster().controllers.get_mut(&peer) {
                c.pending -= 1;
                c.calls.remove(&id);
            }
            let _ = tx
                .send(Outgoing::frame(Frame::Result(answer_to(id, answer))))
                .await;
        });
        Ok(())
    }

    /// A controller's cancel: its own call numbered `id`, if still in flight. Another agent's
    /// calls are not in its book, whatever number it sends.
    pub(super) fn cancel_own(&self, peer: u64, id: u64) {
        if let Some(stop) = self
            .roster()
            .controllers
            .get(&peer)
            .and_then(|c| c.calls.get(&id))
        {
            stop.cancel();
        }
    }
}

impl Browsers for Hub {
    fn connected(&self) -> Vec<BrowserRef> {
        let mut all: Vec<BrowserRef> = self
            .roster()
            .browsers
            .iter()
            .map(|(id, b)| BrowserRef {
                id: id.clone(),
                label: b.info.label.clone(),
                kind: kind_of(&b.info),
            })
            .collect();
        // In one order, so a listing reads the same each time.
        all.sort_by(|a, b| a.id.cmp(&b.id));
        all
    }

    async fn post(&self, browser: &BrowserId, mut call: Call) -> Result<(u64, Reply), ToolError> {
        let id = self.id();
        call.id = id;
        let mutates = call.op.mutates();
        let (reply, answer) = oneshot::channel();
        let tx = {
            let mut r = self.roster();
            let b = r
                .browsers
                .get(browser)
                .ok_or_else(|| ToolError::refused(Code::NoBrowser, "the browser disconnected"))?;
            let tx = b.tx.clone();
            r.pending.insert(
                id,
                PendingCall {
                    browser: browser.clone(),
                    mutates,
                    reply,
                },
            );
            tx
        };
        if tx.send(Outgoing::frame(Frame::Call(call))).await.is_err() {
            self.roster().pending.remove(&id);
            return Err(ToolError::refused(
                Code::NoBrowser,
                "the browser disconnected",
            ));
        }
        Ok((id, answer))
    }

    fn forget(&self, id: u64) {
        self.roster().pending.remove(&id);
    }

    fn cancel(&self, browser: &BrowserId, id: u64) {
        let r = self.roster();
        let still_out = r.pending.get(&id).is_some_and(|p| p.browser == *browser);
        if let (true, Some(b)) = (still_out, r.browsers.get(browser)) {
            let _ = b.tx.try_send(Outgoing::frame(Frame::Cancel { id }));
        }
    }
}
