//! The tool layer shared by the MCP server and the CLI: one session per agent, the same call
//! giving the same result and the same error text in both.

mod act;
mod args;
mod browser;
mod capture;
pub mod context;
mod dialog;
mod find;
mod image;
pub mod spec;

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use serde_json::Value;

use crate::context::ContextEnv;
use crate::error::{Code, Outcome, ToolError};
use crate::launch::{self, LaunchOptions, Launched};
use crate::link::{Link, LinkState, Reply};
use crate::protocol::{Call, Op, PeerInfo, RelayOp, Scope};
use spec::{ToolOutput, ToolSpec};

/// The file a tool lives in, which runs it.
#[derive(Clone, Copy)]
enum Group {
    Browser,
    Act,
    Capture,
    Find,
    Dialog,
    Context,
}

/// Which group runs a tool, from each group's own specs (built once).
fn group_of(name: &str) -> Option<Group> {
    static TABLE: OnceLock<HashMap<&'static str, Group>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        [
            (Group::Browser, browser::specs()),
            (Group::Act, act::specs()),
            (Group::Capture, capture::specs()),
            (Group::Find, find::specs()),
            (Group::Dialog, dialog::specs()),
            (Group::Context, context::specs()),
        ]
        .into_iter()
        .flat_map(|(group, specs)| specs.into_iter().map(move |s| (s.name, group)))
        .collect()
    });
    table.get(name).copied()
}

fn unknown_tool(name: &str) -> ToolError {
    ToolError::bad_args(format!(
        "there is no tool {name:?}; list them with tools/list or `tabpilot tools`"
    ))
}

/// Every tool, in the order clients list them.
pub fn specs() -> Vec<ToolSpec> {
    let mut all = browser::specs();
    all.extend(act::specs());
    all.extend(capture::specs());
    all.extend(find::specs());
    all.extend(dialog::specs());
    all.extend(context::specs());
    all
}

/// Finds a tool by its name, with or without the `browser_` prefix.
pub fn find(name: &str) -> Option<ToolSpec> {
    let all = specs();
    let exact = all.iter().find(|s| s.name == name).cloned();
    exact.or_else(|| {
        all.into_iter()
            .find(|s| s.name.strip_prefix("browser_") == Some(name))
    })
}

/// One agent's view of tabpilot: its relay link, its tab, and the browser it may launch.
pub struct Session {
    link: Arc<Link>,
    /// `mcp --launch`: start a managed browser the first time a tool needs one.
    launch_on_demand: Option<LaunchOptions>,
    launched: Mutex<Option<Launched>>,
    launching: tokio::sync::Mutex<()>,
    current_tab: Mutex<Option<i64>>,
    /// Send every call to this browser (the one a demo or `mcp --launch` started).
    pinned_browser: Mutex<Option<String>>,
    /// Where the project-context tools look (working directory, workspace, home).
    context_env: ContextEnv,
}

impl Session {
    pub fn new(info: PeerInfo, launch_on_demand: Option<LaunchOptions>) -> Result<Self, ToolError> {
        Ok(Session {
            link: Arc::new(Link::new(info, true)?),
            launch_on_demand,
            launched: Mutex::new(None),
            launching: tokio::sync::Mutex::new(()),
            current_tab: Mutex::new(None),
            pinned_browser: Mutex::new(None),
            context_env: ContextEnv::from_process(),
        })
    }

    pub fn link(&self) -> &Link {
        &self.link
    }

    /// Runs a tool by its full name. Arguments are checked before anything is sent.
    pub async fn call(&self, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        match group_of(name) {
            Some(Group::Context) => context::call(name, args, &self.context_env).await,
            Some(Group::Browser) => self.browser_tool(name, args).await,
            Some(Group::Act) => self.act_tool(name, args).await,
            Some(Group::Find) => self.find_tool(name, args).await,
            Some(Group::Dialog) => self.handle_dialog(args).await,
            Some(Group::Capture) => self.screenshot(args).await,
            None => Err(unknown_tool(name)),
        }
    }

    /// Sends a call through the relay, launching the managed browser first when asked to and
    /// none is connected. Only a refused call is retried: nothing of it reached a browser.
    async fn relay(&self, mut call: Call) -> Result<Reply, ToolError> {
        if call.target.browser.is_none() {
            call.target.browser = self.pinned_browser.lock().unwrap().clone();
        }
        let scope = call.op.scope();
        let first = self.link.call(call.clone()).await;
        let reply = match first {
            Err(e)
                if e.code == Code::NoBrowser
                    && e.outcome == Outcome::Refused
                    && self.launch_on_demand.is_some() =>
            {
                self.launch_once().await?;
                self.link.call(call).await?
            }
            other => other?,
        };
        if scope == Scope::Tab {
            *self.current_tab.lock().unwrap() = reply.target.as_ref().and_then(|t| t.tab);
        }
        Ok(reply)
    }

    async fn launch_once(&self) -> Result<(), ToolError> {
        let _guard = self.launching.lock().await;
        if self.launched.lock().unwrap().is_some() {
            return Ok(());
        }
        let opts = self
            .launch_on_demand
            .clone()
            .expect("checked by the caller");
        let browser = launch::launch(&opts)?;
        let label = browser.label.clone();
        *self.launched.lock().unwrap() = Some(browser);
        let id = launch::wait_joined(&self.link, &label, Duration::from_secs(30)).await?;
        self.pin_browser(id);
        Ok(())
    }

    /// Sends every later call to this browser.
    pub fn pin_browser(&self, browser_id: String) {
        *self.pinned_browser.lock().unwrap() = Some(browser_id);
    }

    /// An operation on this agent's tab (opened in the background on first use), or on the
    /// browser, as the operation needs.
    async fn page(&self, op: Op, args: Value, wait: Duration) -> Result<Value, ToolError> {
        Ok(self.relay(Call::new(op, args, wait)).await?.value)
    }

    /// A browser operation on a tab named by the caller.
    async fn on_tab(&self, op: Op, tab: Option<i64>, args: Value) -> Result<Value, ToolError> {
        let call = Call::new(op, args, Duration::from_secs(15)).on_tab(tab);
        Ok(self.relay(call).await?.value)
    }

    /// Runs one browser tool. `Ok(None)` means the name is not a browser tool.
    /// Adds the tab's fresh lean snapshot to a result (`include: "snapshot"`, navigations).
    pub(super) async fn append_snapshot(&self, out: &mut ToolOutput) {
        match self
            .page(Op::Snapshot, serde_json::json!({}), Duration::from_secs(15))
            .await
        {
            Ok(snap) => {
                let body = snap["text"].as_str().unwrap_or("");
                out.text.push_str("\n\n");
                out.text.push_str(body);
                if let Some(data) = out.structured.as_mut().and_then(|d| d.as_object_mut()) {
                    data.insert("snapshot".into(), serde_json::json!(body));
                }
            }
            Err(e) => out.text.push_str(&format!("\n(no snapshot: {})", e.text())),
        }
    }

    fn link_state(&self) -> LinkState {
        self.link.state()
    }

    /// This agent's tab: known here after a page call, else asked of the relay's books (a
    /// one-shot CLI call starts knowing nothing).
    async fn current_tab(&self) -> Option<i64> {
        if let Some(tab) = *self.current_tab.lock().unwrap() {
            return Some(tab);
        }
        let tab = self
            .link
            .ask(RelayOp::MyTab)
            .await
            .ok()
            .and_then(|r| r.value["tab"].as_i64());
        *self.current_tab.lock().unwrap() = tab;
        tab
    }

    fn set_current_tab(&self, tab: Option<i64>) {
        *self.current_tab.lock().unwrap() = tab;
    }

    /// Ends the session: stops the link and closes a browser this session launched.
    pub fn shutdown(&self) {
        self.link.stop();
        if let Some(browser) = self.launched.lock().unwrap().take() {
            browser.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_one_name_and_a_group_to_run_it() {
        let names: Vec<&str> = specs().iter().map(|s| s.name).collect();
        let mut unique = names.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), names.len(), "a tool name is used twice");
        assert!(names.iter().all(|n| group_of(n).is_some()));
        assert!(group_of("browser_nope").is_none());
    }
}
