//! The tool layer shared by the MCP server and the CLI: one session per agent, the same call
//! giving the same result and the same error text in both.

mod act;
mod args;
mod capture;
mod context;
mod ctx;
mod dialog;
mod diff;
mod find;
mod image;
mod navigate;
mod read;
pub mod registry;
pub mod spec;
mod tabs;
pub mod tool;

use serde_json::Value;

use crate::error::ToolError;
use crate::launch::LaunchOptions;
use crate::policy::Policy;
use crate::protocol::PeerInfo;
use ctx::Ctx;
use spec::ToolOutput;

/// One agent's view of tabpilot: the context its tools work through.
pub struct Session {
    ctx: Ctx,
}

impl Session {
    /// A session under the policy its environment sets; a policy it cannot read is an error
    /// naming the setting, so nothing runs under half of one.
    pub fn new(info: PeerInfo, launch_on_demand: Option<LaunchOptions>) -> Result<Self, ToolError> {
        let policy = Policy::from_env().map_err(ToolError::bad_args)?;
        Ok(Session {
            ctx: Ctx::new(info, launch_on_demand, policy)?,
        })
    }

    pub fn link(&self) -> &crate::link::Link {
        self.ctx.link()
    }

    /// Sends every later call to this browser.
    pub fn pin_browser(&self, browser_id: String) {
        self.ctx.pin_browser(browser_id);
    }

    /// Runs a tool by its full name. Arguments are checked before anything is sent.
    pub async fn call(&self, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        let tool = registry::get(name).ok_or_else(|| registry::unknown_tool(name))?;
        let hints = tool.spec.hints;
        if !hints.read_only && !hints.navigates {
            self.ctx.policy().check_read_only(name)?;
        }
        tool.call(&self.ctx, args).await
    }

    /// Ends the session: stops the link and closes a browser this session launched.
    pub fn shutdown(&self) {
        self.ctx.shutdown();
    }
}
