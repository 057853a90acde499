//! The relay's own asks (status, pairing, this agent's tab, ...), each answer read as its ask
//! declares it (`protocol::ask`).

use std::time::Duration;

use super::{Link, Reply};
use crate::shared::error::ToolError;
use crate::shared::protocol::{Frame, RelayAsk, RelayOp, replies};

impl Link {
    /// Asks the relay itself; the answer reads as the ask declares it (`RelayAsk`).
    pub async fn ask<A: RelayAsk>(&self, ask: A) -> Result<A::Reply, ToolError> {
        replies::read("the relay", self.ask_op(ask.into()).await?.value)
    }

    /// Asks the relay itself, the answer as it came.
    pub async fn ask_op(&self, op: RelayOp) -> Result<Reply, ToolError> {
        let ask = Frame::Ask { id: 0, op };
        self.send("the relay", false, Duration::from_secs(5), ask)
            .await
    }
}
