//! The MCP server (`tabpilot mcp`): the tool catalog over rmcp, on stdio (calls run one at a time
//! in the order they arrive, and an exit within seconds of the client going away) or over
//! Streamable HTTP (http.rs).

pub mod http;
mod order;

pub use http::tls::TlsFiles;
pub use http::token::current as http_token;
pub use http::{HttpOptions, serve_http};

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock as Content, DiscoverResult, Implementation,
    InitializeRequestParams, InitializeResult, ListToolsResult, PaginatedRequestParams,
    ProgressNotificationParam, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{NotificationContext, Peer, RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::controller::context::{self, ContextEnv};
use crate::controller::launch::LaunchOptions;
use crate::controller::link::identity;
use crate::controller::policy::client_roots::path_of;
use crate::controller::tools::{self, Session, more, profile::Profile, spec::ToolOutput};
use crate::shared::error::ToolError;
use crate::shared::protocol::PeerInfo;

const INSTRUCTIONS: &str = "tabpilot drives real browser tabs. You work in your own tab, in a \
window of its own that never takes the person's focus, opened on your first page action. With no \
browser connected (NO_BROWSER), ask the person to connect theirs (`tabpilot pair`) or to add \
--launch to this server's command for one tabpilot starts. Start with browser_navigate; act on elements by the refs \
in its snapshot (browser_click, browser_type); browser_snapshot refreshes refs, and an action's \
include: \"diff\" answers with only the snapshot lines that changed. Every result's \
structuredContent says its outcome (refused, done, partial, failed, unknown); every failure \
names its code and the tool that recovers. A timeout is milliseconds, 30000 by default. \
Page-changing tools take waitUntil (when the call counts as finished: none, auto (the default), \
load (navigations' default) or networkidle), settleMs, and include (one or several \
of snapshot, diff, console, network, comma-separated: what the action changed, logged or \
requested); their reply \
ends with a line naming browser_get_console_logs or browser_issues when the page logged an error \
or a request failed meanwhile. `element` is the element in words, for messages. The project's \
own instructions, skills and commands: session_bootstrap, agent_context, resolve_task_capabilities.";

/// How long the client has to answer `roots/list` before the sandbox goes on without its roots.
const ROOTS_ANSWER: Duration = Duration::from_secs(3);

/// How much of the project's context goes into `initialize`; the rest is a tool call away.
const PROJECT_CHARS: usize = 16_000;

pub struct Server {
    session: Arc<Session>,
    /// What this session lists: the server's profile, and the groups its agent asked for since.
    profile: Mutex<Profile>,
}

/// A tool as clients see it: name, description, input schema, and annotations only where they
/// differ from MCP's defaults (not read-only, destructive, not idempotent, open world). No output
/// schema: MCP makes it optional, every client pays for the tool list in tokens on every
/// connection (an output schema cost more than the descriptions of all tools together), and
/// every result's `structuredContent` carries its outcome and data all the same. The tests
/// hold each result to the schema the tool derives (`ToolSpec::output_schema`).
fn to_tool(spec: &tools::spec::ToolSpec, profile: &Profile) -> Tool {
    let mut schema = spec.input_schema.as_object().cloned().unwrap_or_default();
    if let Some(Value::Object(props)) = schema.get_mut("properties") {
        props.retain(|name, _| profile.shows_argument(name));
    }
    let schema = Arc::new(schema);
    let h = spec.hints;
    let mut notes = ToolAnnotations::new();
    notes.read_only_hint = h.read_only.then_some(true);
    notes.destructive_hint = (!h.read_only && !h.destructive).then_some(false);
    notes.idempotent_hint = (!h.read_only && h.idempotent).then_some(true);
    notes.open_world_hint = (!h.open_world).then_some(false);
    let tool = Tool::new(spec.name, spec.description, schema);
    if notes == ToolAnnotations::new() {
        tool
    } else {
        tool.with_annotations(notes)
    }
}

/// The tool list as clients see it, under a profile: `browser_more_tools` last, where the
/// profile leaves out a group the agent may ask for.
pub fn catalog(profile: &Profile) -> Vec<Tool> {
    let more = profile.offers_more().then(more::spec);
    profile
        .listed()
        .map(|t| &t.spec)
        .chain(more)
        .map(|spec| to_tool(spec, profile))
        .collect()
}

/// Shapes a tool's answer as MCP content: text, images, and `structuredContent` with the outcome.
pub fn to_result(answer: Result<ToolOutput, ToolError>) -> CallToolResult {
    match answer {
        Ok(out) => {
            // Page text and the like, as a terminal may show it (the client's, or the CLI's).
            let mut content = vec![Content::text(crate::shared::terminal::text(&out.text))];
            content.extend(
                out.images
                    .into_iter()
                    .map(|i| Content::image(i.data, i.mime_type)),
            );
            let mut result = CallToolResult::success(content);
            result.structured_content = Some(out.structured);
            result
        }
        Err(e) => {
            let text = crate::shared::terminal::text(&e.text()).into_owned();
            let mut result = CallToolResult::error(vec![Content::text(text)]);
            result.structured_content = Some(e.structured());
            result
        }
    }
}

/// The instructions a client is given: the static text, then the project's own guidance,
/// discovered afresh for each client (off the async workers, `context::bootstrap_instructions`);
/// when there is none, or discovery fails, the static text alone.
async fn instructions() -> String {
    match context::bootstrap_instructions(&ContextEnv::from_process(), PROJECT_CHARS).await {
        Some(p) => format!("{INSTRUCTIONS}\n\n{p}"),
        None => INSTRUCTIONS.to_string(),
    }
}

impl Server {
    pub fn new(session: Arc<Session>, profile: Profile) -> Server {
        Server {
            session,
            profile: Mutex::new(profile),
        }
    }

    fn profile(&self) -> std::sync::MutexGuard<'_, Profile> {
        self.profile.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// `browser_more_tools`: the session's list grows by the groups asked for, and a client
    /// that holds the list is told it changed (before the answer, so that it lists again as
    /// soon as it reads it).
    async fn more_tools(
        &self,
        args: Value,
        peer: &Peer<RoleServer>,
    ) -> Result<ToolOutput, ToolError> {
        let answer = more::call(&mut self.profile(), args.clone());
        if let Ok((_, true)) = answer {
            // A client that no longer listens gets its answer all the same.
            let _ = peer.notify_tool_list_changed().await;
        }
        let answer = answer.map(|(out, _)| out);
        self.session.note(more::spec(), &args, &answer).await;
        answer
    }

    /// Asks the client for its roots, off the message loop (the answer comes through it), and
    /// hands them to the session's path sandbox. MCP's 2026 revision deprecates roots (SEP-2577);
    /// the clients people run still offer them, and a sandbox without them leaves such a client
    /// only tabpilot's temp folder.
    #[expect(deprecated, reason = "roots: the clients people run still offer them")]
    fn list_roots(&self, peer: Peer<RoleServer>) {
        let session = self.session.clone();
        tokio::spawn(async move {
            // A client that never reads the server's requests (an HTTP client with no stream
            // open for them) would keep every sandboxed call waiting: it is given up on.
            let listed = tokio::time::timeout(ROOTS_ANSWER, peer.list_roots()).await;
            let paths = match listed {
                Ok(Ok(list)) => {
                    let paths: Vec<PathBuf> =
                        list.roots.iter().filter_map(|r| path_of(&r.uri)).collect();
                    tracing::debug!(roots = ?paths, "the client's roots");
                    Some(paths)
                }
                Ok(Err(e)) => {
                    tracing::warn!("the client did not list its roots: {e}");
                    None
                }
                Err(_) => {
                    tracing::warn!("the client did not list its roots within {ROOTS_ANSWER:?}");
                    None
                }
            };
            session.client_roots().answered(paths);
        });
    }
}

impl ServerHandler for Server {
    /// What the server is and can do, asked for by rmcp on every request it checks: no files
    /// read here. The instructions a client reads (`initialize`, `discover`) carry the project's
    /// guidance as well.
    fn get_info(&self) -> ServerConfig {
        let tools = ServerCapabilities::builder()
            .enable_tools()
            .enable_tool_list_changed();
        ServerConfig::new(tools.build())
            .with_server_info(Implementation::new("tabpilot", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS)
    }

    /// The client says its name here; the audit trail records each call under it.
    async fn initialize(
        &self,
        request: InitializeRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<InitializeResult, McpError> {
        self.session.set_client(&request.client_info.name);
        // Asked once the client says it is initialized; calls before then wait for the list.
        if request.capabilities.roots.is_some() {
            self.session.client_roots().asking();
        }
        context.peer.set_peer_info(request.clone());
        let mut result = self.negotiate_initialize(&request)?;
        result.instructions = Some(instructions().await);
        Ok(result)
    }

    async fn on_initialized(&self, context: NotificationContext<RoleServer>) {
        let offered = context
            .peer
            .peer_info()
            .is_some_and(|i| i.capabilities.roots.is_some());
        if offered {
            self.list_roots(context.peer);
        }
    }

    async fn on_roots_list_changed(&self, context: NotificationContext<RoleServer>) {
        self.session.client_roots().asking();
        self.list_roots(context.peer);
    }

    async fn discover(
        &self,
        _context: RequestContext<RoleServer>,
    ) -> Result<DiscoverResult, McpError> {
        let info = self.get_info().with_instructions(instructions().await);
        let versions = self.supported_protocol_versions().into_owned();
        Ok(DiscoverResult::from_server_info(versions, info))
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(catalog(&self.profile())))
    }

    /// Runs the call, telling a client that asked (a `progressToken`) every second that it
    /// still runs, and ending it when the client cancels it: the wait stops there, and a call
    /// cancelled before it was sent to the browser never acts.
    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, McpError> {
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        let refused = self.profile().refusal(&request.name);
        let answer = if let Some(refusal) = refused {
            Err(refusal)
        } else if request.name == more::NAME {
            self.more_tools(args, &context.peer).await
        } else {
            // rmcp sends no answer to a cancelled call (the spec's SHOULD): the answer made here
            // is for the audit trail.
            let call = self
                .session
                .call_until(&request.name, args, context.ct.cancelled());
            tokio::select! {
                answer = call => answer,
                () = progress(&context, &request.name) => {
                    unreachable!("progress reports until the call ends")
                }
            }
        };
        Ok(to_result(answer).into())
    }
}

/// How often a running call tells a client that asked that it still runs.
const PROGRESS_EVERY: Duration = Duration::from_secs(1);

/// Reports a call's progress (seconds it has run, and what) to a client that asked for it, for
/// as long as it is polled; pending for ever when the client did not ask.
async fn progress(context: &RequestContext<RoleServer>, tool: &str) {
    let Some(token) = context.meta.get_progress_token() else {
        return std::future::pending().await;
    };
    let mut ticks = tokio::time::interval(PROGRESS_EVERY);
    ticks.tick().await; // the first tick is now
    for seconds in 1u32.. {
        ticks.tick().await;
        let note = ProgressNotificationParam::new(token.clone(), f64::from(seconds))
            .with_message(format!("{tool} has run {seconds} s"));
        // A client that stopped listening still gets its answer.
        let _ = context.peer.notify_progress(note).await;
    }
}

pub struct McpOptions {
    pub launch: Option<LaunchOptions>,
    /// The process that started us, read as early as possible: when it goes, so do we.
    pub parent: i32,
}

/// Serves MCP on stdio until the client closes stdin or the process that started us is gone.
pub async fn serve_stdio(opts: McpOptions) -> anyhow::Result<()> {
    // Who this agent is: its client's restarted server takes the key it had; a second server of
    // that client in that directory, running beside it, gets a key of its own. Held (and so
    // locked) until we exit.
    // An orphan (its starter gone before it looked) has no evidence, and takes a fresh key.
    // Both read files (the parent's, the slots'), so off the async workers.
    let parent = opts.parent;
    let resumable = crate::shared::blocking::call("taking this agent's key", move || {
        let (_, evidence) = identity::evidence(parent);
        evidence.and_then(|evidence| {
            identity::take(&evidence).unwrap_or_else(|e| {
                tracing::warn!("cannot keep this agent's key for its restarts: {e}");
                None
            })
        })
    })
    .await?;
    let info = PeerInfo {
        name: "tabpilot mcp".into(),
        pid: std::process::id(),
        session_key: resumable.as_ref().map(|r| r.key().to_string()),
        ..Default::default()
    };
    let launch = opts.launch.map(|o| LaunchOptions {
        tied_to_us: true,
        ..o
    });
    let profile = Profile::from_env().map_err(anyhow::Error::msg)?;
    let session = Arc::new(Session::new(info, launch)?.recording());
    let server = Server::new(session.clone(), profile);
    let parent = opts.parent;
    let orphaned = async move {
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            if crate::shared::platform::me::parent() != parent {
                return;
            }
        }
    };
    // Watched from the start: a parent can go before the client ever initializes.
    let serve = async {
        let running = server
            .serve(order::ordered(tokio::io::stdin(), tokio::io::stdout()))
            .await?;
        running.waiting().await?;
        anyhow::Ok(())
    };
    tokio::select! {
        r = serve => r?,
        _ = orphaned => tracing::info!("the process that started tabpilot mcp is gone; exiting"),
    }
    session.end().await;
    let s = session.clone();
    crate::shared::blocking::call("closing the session", move || s.shutdown()).await?;
    drop(resumable);
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The schemas list waitUntil as a string: the instructions are where its values are named.
    #[test]
    fn the_instructions_name_every_wait_until_value() {
        use crate::shared::protocol::wire::act::WaitUntil;
        for w in [
            WaitUntil::None,
            WaitUntil::Auto,
            WaitUntil::Load,
            WaitUntil::Networkidle,
        ] {
            let name = serde_json::to_value(w).unwrap();
            let name = name.as_str().unwrap();
            assert!(INSTRUCTIONS.contains(&format!(" {name}")), "{name}");
        }
    }

    /// Every client pays for the tool list on every connection; this holds each profile's size
    /// (`browser_more_tools` included, where it is listed) to the budget issue 12 set for it.
    #[test]
    fn each_profile_s_tool_list_stays_within_its_budget() {
        let o200k = tiktoken_rs::o200k_base().unwrap();
        for (name, budget) in [("full", 6_500), ("core", 2_500), ("slim", 800)] {
            let tools = catalog(&Profile::parse(name).unwrap());
            let text = serde_json::to_string(&tools).unwrap();
            let tokens = o200k.encode_with_special_tokens(&text).len();
            println!(
                "{name}: {} tools, {} bytes, {tokens} o200k tokens",
                tools.len(),
                text.len()
            );
            if name == "slim" {
                // Why slim does not list it: it would not fit (profile.rs, offers_more).
                let more = serde_json::to_string(&to_tool(more::spec(), &Profile::default()));
                let more = o200k.encode_with_special_tokens(&more.unwrap()).len();
                println!("browser_more_tools: {more} o200k tokens more");
            }
            // full lists every group: a tool more is room made by listing a group on request.
            let fix = if name == "full" {
                "; mark a group `on_request` in GROUPS (src/controller/tools/registry.rs), one \
                 whose tools a task rarely needs: full then lists browser_more_tools in its place, \
                 and an agent asks for the group when it needs it"
            } else {
                ""
            };
            assert!(
                tokens <= budget,
                "the {name} tool list is {tokens} o200k tokens, over {budget}{fix}"
            );
        }
    }
}
