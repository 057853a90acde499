//! The MCP server (`tabpilot mcp`): the tool catalog over rmcp, calls run one at a time in the
//! order they arrive, and an exit within seconds of the client going away.

mod order;

use std::sync::Arc;
use std::time::Duration;

use rmcp::model::{
    CallToolRequestParams, CallToolResult, ContentBlock as Content, ListToolsResult,
    PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool, ToolAnnotations,
};
use rmcp::service::{RequestContext, RoleServer};
use rmcp::{ErrorData as McpError, ServerHandler, ServiceExt};
use serde_json::Value;

use crate::context::{self, ContextEnv};
use crate::error::ToolError;
use crate::launch::LaunchOptions;
use crate::protocol::PeerInfo;
use crate::tools::{self, Session, spec::ToolOutput};

const INSTRUCTIONS: &str = "tabpilot drives real browser tabs. You work in your own background \
tab, opened on your first page action. Start with browser_navigate; act on elements by the refs \
in its snapshot (browser_click, browser_type); browser_snapshot refreshes refs, and an action's \
include: \"diff\" answers with only the snapshot lines that changed. Every result's \
structuredContent says its outcome (refused, done, partial, failed, unknown); every failure \
names its code and the tool that recovers. The project's own instructions, skills and \
commands: session_bootstrap, agent_context, resolve_task_capabilities.";

/// How much of the project's context goes into `initialize`; the rest is a tool call away.
const PROJECT_CHARS: usize = 16_000;

pub struct Server {
    session: Arc<Session>,
    catalog: Vec<Tool>,
}

fn to_tool(spec: &tools::spec::ToolSpec) -> Tool {
    let schema = |v: &Value| Arc::new(v.as_object().cloned().unwrap_or_default());
    Tool::new(spec.name, spec.description, schema(&spec.input_schema))
        .with_annotations(
            ToolAnnotations::new()
                .read_only(spec.hints.read_only)
                .destructive(spec.hints.destructive)
                .idempotent(spec.hints.idempotent)
                .open_world(spec.hints.open_world),
        )
        .with_raw_output_schema(schema(&shallow(&spec.output_schema)))
}

/// The tool list as clients see it.
pub fn catalog() -> Vec<Tool> {
    tools::registry::all()
        .iter()
        .map(|t| to_tool(&t.spec))
        .collect()
}

/// An output schema as clients need it: the fields and their types, not their insides (every
/// client pays for the tool list in tokens on every connection).
fn shallow(schema: &Value) -> Value {
    let props = schema["properties"].as_object().map(|props| {
        props
            .iter()
            .map(|(k, v)| {
                let field = match v.get("type") {
                    Some(ty) => serde_json::json!({ "type": ty }),
                    None => serde_json::json!({}),
                };
                (k.clone(), field)
            })
            .collect::<serde_json::Map<_, _>>()
    });
    serde_json::json!({"type": "object", "properties": props.unwrap_or_default()})
}

/// Shapes a tool's answer as MCP content: text, images, and `structuredContent` with the outcome.
pub fn to_result(answer: Result<ToolOutput, ToolError>) -> CallToolResult {
    match answer {
        Ok(out) => {
            let mut content = vec![Content::text(out.text)];
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
            let mut result = CallToolResult::error(vec![Content::text(e.text())]);
            result.structured_content = Some(e.structured());
            result
        }
    }
}

impl ServerHandler for Server {
    /// The instructions carry the project's own guidance, discovered afresh for each client;
    /// when there is none, or discovery fails, the static text alone.
    fn get_info(&self) -> ServerConfig {
        let project = context::bootstrap_instructions(&ContextEnv::from_process(), PROJECT_CHARS);
        let text = match project {
            Some(p) => format!("{INSTRUCTIONS}\n\n{p}"),
            None => INSTRUCTIONS.to_string(),
        };
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_instructions(text)
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, McpError> {
        Ok(ListToolsResult::with_all_items(self.catalog.clone()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, McpError> {
        let args = request.arguments.map(Value::Object).unwrap_or(Value::Null);
        Ok(to_result(self.session.call(&request.name, args).await).into())
    }
}

pub struct McpOptions {
    pub launch: Option<LaunchOptions>,
    /// The process that started us, read as early as possible: when it goes, so do we.
    pub parent: i32,
}

/// Serves MCP on stdio until the client closes stdin or the process that started us is gone.
pub async fn serve_stdio(opts: McpOptions) -> anyhow::Result<()> {
    let info = PeerInfo {
        name: "tabpilot mcp".into(),
        pid: std::process::id(),
        ..Default::default()
    };
    let launch = opts.launch.map(|o| LaunchOptions {
        tied_to_us: true,
        ..o
    });
    let session = Arc::new(Session::new(info, launch)?);
    let catalog = catalog();
    let server = Server {
        session: session.clone(),
        catalog,
    };
    let parent = opts.parent;
    let orphaned = async move {
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            // SAFETY: getppid has no preconditions.
            if unsafe { libc::getppid() } != parent {
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
    let s = session.clone();
    tokio::task::spawn_blocking(move || s.shutdown()).await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every client pays for the tool list on every connection; this holds its size.
    #[test]
    fn the_tool_list_stays_small() {
        let tools = catalog();
        let text = serde_json::to_string(&tools).unwrap();
        let tokens = tiktoken_rs::o200k_base()
            .unwrap()
            .encode_with_special_tokens(&text)
            .len();
        println!(
            "{} tools, {} bytes, {tokens} o200k tokens",
            tools.len(),
            text.len()
        );
        // The full list's budget is 6,500 whatever the tool count (33 tools came to 6,347 with
        // snapshot budgets and `include: "diff"`).
        assert!(tokens <= 6500, "the tool list is {tokens} o200k tokens");
    }
}
