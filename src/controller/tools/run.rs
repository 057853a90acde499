//! A typed call on its way to the browser: its arguments, the tab or browser the tool names, how
//! long it waits (its class's, or the tool's, stretched while throttling slows the tab), and its
//! answer read as the operation's declared reply.

use std::future::IntoFuture;
use std::time::Duration;

use futures::future::BoxFuture;

use super::args::Wait;
use super::ctx::Ctx;
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::{Call, Op, TabId, WireOp};

impl Ctx {
    /// An operation on this agent's tab (opened in the background on first use), or on its
    /// browser, as the operation needs; `Run` names another tab or browser, and the wait where
    /// the tool decides it. Its answer is read as the operation's declared reply.
    pub fn run<A: WireOp>(&self, args: A) -> Run<'_, A> {
        Run {
            cx: self,
            args,
            browser: None,
            tab: None,
            wait: None,
        }
    }

    async fn send<A: WireOp>(&self, run: Run<'_, A>) -> Result<A::Reply, ToolError> {
        let op = A::OP;
        let wait = self.wait_of(op, run.wait, run.tab)?;
        let call = Call::of(&run.args, wait)
            .on_tab(run.tab)
            .in_browser(run.browser);
        let value = self.relay(call).await?.value;
        #[cfg(debug_assertions)]
        crate::shared::protocol::replies::check(op, &value)
            .map_err(|e| ToolError::failed(Code::Internal, e))?;
        crate::shared::protocol::replies::read(op.name(), value)
    }

    /// How long a call of `op` on `tab` waits: its class's, or the tool's; a default stretched
    /// while throttling slows the tab.
    fn wait_of(
        &self,
        op: Op,
        wait: Option<Wait>,
        tab: Option<TabId>,
    ) -> Result<Duration, ToolError> {
        match (op.timeout().fixed(), wait) {
            (Some(time), None) => Ok(self.stretched(Wait { time, given: false }, tab)),
            (None, Some(w)) => Ok(self.stretched(w, tab)),
            (fixed, given) => Err(ToolError::refused(
                Code::Internal,
                format!(
                    "{} waits {fixed:?} by its declaration, and was given {given:?}",
                    op.name()
                ),
            )),
        }
    }
}

/// A typed call on its way: its arguments, and where and how long, as the tool says.
pub struct Run<'a, A> {
    cx: &'a Ctx,
    args: A,
    browser: Option<String>,
    tab: Option<TabId>,
    wait: Option<Wait>,
}

impl<A: WireOp> Run<'_, A> {
    /// How long to wait, for an operation whose wait the tool decides (`Timeout::Caller`).
    pub fn within(mut self, wait: impl Into<Wait>) -> Self {
        self.wait = Some(wait.into());
        self
    }

    /// On the tab the caller named (none: the agent's).
    pub fn on_tab(mut self, tab: Option<TabId>) -> Self {
        self.tab = tab;
        self
    }

    /// In the browser the caller named, by label or id (none: the agent's).
    pub fn in_browser(mut self, browser: Option<String>) -> Self {
        self.browser = browser;
        self
    }
}

impl<'a, A: WireOp + 'a> IntoFuture for Run<'a, A> {
    type Output = Result<A::Reply, ToolError>;
    type IntoFuture = BoxFuture<'a, Self::Output>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.cx.send(self))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::context::ContextEnv;

    #[test]
    fn a_class_s_wait_and_a_default_are_stretched_and_a_caller_s_timeout_is_not() {
        let cx = Ctx::offline(ContextEnv::from_process());
        cx.set_current_tab(Some(TabId(7)));
        cx.note_slowdown(3.0);
        let wait = |op, w| cx.wait_of(op, w, None).unwrap().as_secs();
        assert_eq!(wait(Op::Emulate, None), 30, "the quick class's 10 s");
        let default = super::super::args::timeout(None).unwrap();
        assert_eq!(wait(Op::Navigate, Some(default)), 90);
        let given = super::super::args::timeout(Some(30_000)).unwrap();
        assert_eq!(wait(Op::Navigate, Some(given)), 30);
        assert!(cx.wait_of(Op::Emulate, Some(given), None).is_err());
    }
}
