//! The tool layer shared by the MCP server and the CLI: one session per agent, the same call
//! giving the same result and the same error text in both.

mod a11y;
mod act;
mod advanced;
mod after;
mod apps;
mod args;
mod browsers;
mod capture;
mod console;
mod context;
mod cookies;
mod ctx;
mod dialog;
mod diff;
mod downloads;
mod emulate;
mod eval;
mod export;
mod find;
mod footer;
mod image;
mod include;
mod issues;
pub mod more;
mod navigate;
mod network;
mod page_tools;
mod paging;
mod perf;
pub mod profile;
mod proxy;
mod read;
pub mod registry;
mod run;
pub mod snapshot;
pub mod spec;
mod storage;
mod tab_list;
mod tabs;
pub mod tool;

use serde_json::Value;

use crate::controller::audit::{Agent, Audit};
use crate::controller::launch::LaunchOptions;
use crate::controller::policy::Policy;
use crate::controller::record;
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::PeerInfo;
use crate::shared::settings::Setting;
use ctx::Ctx;
use spec::ToolOutput;

/// One agent's view of tabpilot: the context its tools work through, and its audit trail.
pub struct Session {
    ctx: Ctx,
    audit: Audit,
}

impl Session {
    /// A session under the policy its environment sets; a policy it cannot read is an error
    /// naming the setting, so nothing runs under half of one.
    pub fn new(
        mut info: PeerInfo,
        launch_on_demand: Option<LaunchOptions>,
    ) -> Result<Self, ToolError> {
        let policy = Policy::from_env().map_err(ToolError::bad_args)?;
        let ttl = Setting::LeaseTtlMs.millis().map_err(ToolError::bad_args)?;
        info.lease_ttl_ms = ttl.map(|t| t.as_millis() as u64);
        let audit = crate::controller::audit::file_checked().map_err(ToolError::bad_args)?;
        let ctx = Ctx::new(info, launch_on_demand, policy)?;
        let agent = Agent::of(ctx.link().info());
        Ok(Session {
            audit: Audit::new(audit, agent),
            ctx,
        })
    }

    /// Records this session's page actions as `TABPILOT_RECORD` says (the MCP server's
    /// sessions; a one-shot CLI call records nothing).
    pub fn recording(mut self) -> Self {
        self.ctx.record_from_env();
        self
    }

    /// The steps recorded so far.
    pub fn recorded(&self) -> Vec<crate::controller::record::Step> {
        self.ctx.recorder().steps()
    }

    /// The ref of the element a recorded target names, looked for in the agent's tab now
    /// (waiting up to `wait` for it to appear).
    pub async fn resolve(
        &self,
        target: &crate::shared::protocol::wire::locate::Target,
        wait: std::time::Duration,
    ) -> Result<String, ToolError> {
        let ask = crate::shared::protocol::wire::locate::ResolveLocator {
            frames: target.frames.clone(),
            locators: target.locators.clone(),
            timeout: wait.as_millis() as u64,
        };
        let found = self
            .ctx
            .run(ask)
            .within(wait + std::time::Duration::from_secs(5))
            .await?;
        Ok(found.reference)
    }

    /// Names the client whose calls these are (the MCP client's name): for the audit trail, and
    /// for the relay, which shows other agents and the person who holds a tab. A name is never
    /// who the agent is: that is its link's key (src/controller/link/identity.rs).
    pub fn set_client(&self, name: &str) {
        // Every other agent and the person read it: one bounded line, whatever the client sent.
        let name = &crate::shared::terminal::name(name, crate::shared::protocol::MAX_NAME);
        self.audit.set_client(name);
        self.ctx.link().name_agent(name);
    }

    pub fn link(&self) -> &crate::controller::link::Link {
        self.ctx.link()
    }

    /// The MCP client's roots, which this session's path sandbox adds.
    pub fn client_roots(&self) -> &crate::controller::policy::client_roots::ClientRoots {
        self.ctx.client_roots()
    }

    /// The address of the page this session's calls last ran in (none before the first).
    pub fn page_url(&self) -> Option<String> {
        self.ctx.place().url
    }

    /// Sends every later call to this browser.
    pub fn pin_browser(&self, browser_id: String) {
        self.ctx.pin_browser(browser_id);
    }

    /// Runs a tool by its full name, and records the call in the audit trail, whatever its
    /// outcome. Arguments are checked before anything is sent.
    pub async fn call(&self, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        self.call_until(name, args, std::future::pending()).await
    }

    /// As `call`, ended when `cancelled` resolves first (the MCP client cancelled the call): it
    /// stops waiting there, and the trail records it as `CANCELLED`, its outcome `unknown` for a
    /// tool that changes the page (it may have reached the page before).
    pub async fn call_until(
        &self,
        name: &str,
        args: Value,
        cancelled: impl std::future::Future<Output = ()>,
    ) -> Result<ToolOutput, ToolError> {
        let tool = registry::get(name).ok_or_else(|| registry::unknown_tool(name));
        let spec = tool.as_ref().ok().map(|t| &t.spec);
        let noted = self
            .audit
            .begin(name, &spec.map(|s| s.keeps).unwrap_or_default(), &args);
        let recorded = spec
            .and_then(|s| s.recorded)
            .filter(|_| self.ctx.recorder().is_on())
            .map(|kind| (kind, self.ctx.place().url, args.clone()));
        let run = async {
            match tool {
                Ok(tool) => {
                    let stop = tokio_util::sync::CancellationToken::new();
                    let work =
                        crate::controller::link::cancellable(stop.clone(), self.run(tool, args));
                    tokio::pin!(work);
                    tokio::select! {
                        result = &mut work => result,
                        () = cancelled => {
                            // The browser is told, and says what the call had done by then.
                            stop.cancel();
                            let mutates = !tool.spec.hints.read_only;
                            match tokio::time::timeout(CANCEL_GRACE, work).await {
                                Ok(result) => Err(cancelled_after(result)),
                                Err(_) => Err(ToolError::lost(
                                    Code::Cancelled,
                                    format!("{name} did not say how far it had got"),
                                    mutates,
                                )),
                            }
                        }
                    }
                }
                Err(unknown) => Err(unknown),
            }
        };
        // A recorded call's action describes its elements as it acts (record::describe).
        let (result, targets) = if recorded.is_some() {
            record::describe::described(run).await
        } else {
            (run.await, Vec::new())
        };
        if let Some(mut noted) = noted {
            if let Err(e) = &result
                && e.code == Code::Cancelled
            {
                noted.cancelled(&e.message);
            }
            let place = match spec {
                Some(s) if s.group == registry::APPS => self.ctx.app_place(),
                _ => self.ctx.place(),
            };
            self.audit.finish(noted, place, spec::ending(&result)).await;
        }
        if let Some((kind, before, args)) = recorded {
            let call = record::Call {
                agent: self.audit.agent(),
                tool: name,
                kind,
                args: &args,
                targets,
                before,
                after: self.ctx.place().url,
            };
            self.ctx.recorder().keep(call, spec::ending(&result)).await;
        }
        result
    }

    /// Records a call the MCP server answers itself (`browser_more_tools`) in the audit trail,
    /// as every call is.
    pub async fn note(
        &self,
        spec: &spec::ToolSpec,
        args: &Value,
        result: &Result<ToolOutput, ToolError>,
    ) {
        if let Some(noted) = self.audit.begin(spec.name, &spec.keeps, args) {
            let place = self.ctx.place();
            self.audit.finish(noted, place, spec::ending(result)).await;
        }
    }

    async fn run(&self, tool: &tool::Tool, args: Value) -> Result<ToolOutput, ToolError> {
        self.check_read_only(tool)?;
        tool.call(&self.ctx, args).await
    }

    fn check_read_only(&self, tool: &tool::Tool) -> Result<(), ToolError> {
        let hints = tool.spec.hints;
        if !hints.read_only && !hints.navigates && !hints.mixed {
            let checked = self.ctx.policy().check_read_only(tool.spec.name);
            if tool.spec.group == registry::APPS {
                checked.map_err(|_| apps::read_only(tool.spec.name))?;
            } else {
                checked?;
            }
        }
        Ok(())
    }

    /// Ends the session: stops the link and closes a browser this session launched.
    pub fn shutdown(&self) {
        self.ctx.shutdown();
    }

    /// The client ended this session (it closed our input, or it is gone): the agent's tabs are
    /// released now, those it opened closed, rather than kept for a restart that is not coming.
    /// Only a server that dies (killed, crashed) leaves them the grace period. Asked only of a
    /// link that is up: a session that never reached the relay has nothing to give up.
    pub async fn end(&self) {
        if self.ctx.link_state() != crate::controller::link::LinkState::Connected {
            return;
        }
        let release = self.ctx.ask(crate::shared::protocol::ask::Release {
            agent: None,
            close_opened: true,
        });
        if tokio::time::timeout(std::time::Duration::from_secs(2), release)
            .await
            .is_err()
        {
            tracing::debug!("the relay did not answer our release in time");
        }
    }
}

/// How long a cancelled call may take to say what it had done (the link waits for the browser's
/// word a little less than this).
const CANCEL_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

/// What a cancelled call's trail line says: `CANCELLED` with what the call had done by then, as
/// the browser said (or the link, for a call never sent). One that finished before the cancel
/// reached it is done, and says so.
fn cancelled_after(result: Result<ToolOutput, ToolError>) -> ToolError {
    match result {
        Err(e) if e.code == Code::Cancelled => e,
        Err(e) => ToolError {
            code: Code::Cancelled,
            message: format!("it had ended first, in {}: {}", e.code.as_str(), e.message),
            ..e
        },
        Ok(out) => ToolError {
            code: Code::Cancelled,
            message: "it had finished before the cancel reached it".into(),
            outcome: out.outcome,
            recovery: None,
        },
    }
}
