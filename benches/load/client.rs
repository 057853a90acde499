//! An agent's `tabpilot mcp`, started as one MCP client starts its servers: by this process,
//! over stdio, in one working directory, every one with the same client name and the default
//! identity (no `TABPILOT_INSTANCE`, nothing else that tells them apart). Its tool results are
//! read as an agent reads them: `structuredContent`'s `outcome`, and an error's `code`.

use std::fs::File;
use std::path::Path;
use std::process::Command;

use serde_json::{Value, json};
use tabpilot::shared::error::Outcome;

use crate::mcp_client::McpClient;

/// The client name every agent says in `initialize`, as one MCP client (Claude Code) would.
pub(crate) const CLIENT: &str = "claude-code";

/// Starts `tabpilot mcp` in `dir` and shakes hands as `CLIENT`. The relay's state dir and port
/// range come from this process's environment, the same for every agent; its stderr goes to
/// `log`, one file for all.
pub(crate) fn start(dir: &Path, log: &File) -> McpClient {
    let mut cmd = Command::new(crate::BIN);
    cmd.arg("mcp")
        .current_dir(dir)
        .env_remove("TABPILOT_INSTANCE")
        .env_remove("TABPILOT_SESSION")
        .env_remove("TABPILOT_BROWSER_LABEL")
        .stderr(log.try_clone().expect("the agents' log"));
    let mut mcp = McpClient::spawn(cmd);
    // A line that is not JSON is reported, not a panic in the middle of the run.
    mcp.strict = false;
    mcp.exit_grace = std::time::Duration::from_secs(3);
    mcp.initialize(CLIENT);
    mcp
}

/// A tool call that did not end `done`: its code (from `structuredContent`, else the text's
/// `CODE: message`), its outcome and its message.
#[derive(Clone, Debug)]
pub(crate) struct Failure {
    pub(crate) code: String,
    pub(crate) outcome: Outcome,
    pub(crate) message: String,
}

/// Calls `tool`; its `structuredContent` when it ended `done`, else what went wrong.
pub(crate) fn call(mcp: &mut McpClient, tool: &str, args: Value) -> Result<Value, Failure> {
    let r = mcp.call_tool(tool, args);
    if let Some(e) = r.get("error") {
        return Err(Failure {
            code: "JSON-RPC".into(),
            outcome: Outcome::Failed,
            message: e["message"].as_str().unwrap_or_default().to_string(),
        });
    }
    let data = r["structuredContent"].clone();
    let outcome = serde_json::from_value(data["outcome"].clone()).ok();
    if r["isError"] != true && matches!(outcome, None | Some(Outcome::Done)) {
        return Ok(data);
    }
    let text = r["content"][0]["text"].as_str().unwrap_or_default();
    let (code, message) = match &data["error"] {
        Value::Object(e) => (
            e["code"].as_str().unwrap_or("?").to_string(),
            e["message"].as_str().unwrap_or_default().to_string(),
        ),
        // A result that is not an error but not done (a partial form fill): the first field's.
        _ => (
            data["errors"][0]["code"]
                .as_str()
                .unwrap_or("(no code)")
                .to_string(),
            text.lines().next().unwrap_or_default().to_string(),
        ),
    };
    let code = match code.as_str() {
        "?" => text.split_once(':').map_or(code.clone(), |(c, _)| c.into()),
        _ => code,
    };
    Err(Failure {
        code,
        outcome: outcome.unwrap_or(Outcome::Failed),
        message,
    })
}

/// The tab this agent works in, as the relay's books say (`browser_status`: the agent that is
/// `you`, its tab marked `current`): `(browserId, tab)`; none while the link is down or the
/// agent has no tab.
pub(crate) fn current_tab(mcp: &mut McpClient) -> Option<(String, i64)> {
    let status = call(mcp, "browser_status", json!({})).ok()?;
    let you = status["you"].as_str()?;
    let me = status["agents"]
        .as_array()?
        .iter()
        .find(|a| a["id"] == you)?;
    let tab = me["tabs"]
        .as_array()?
        .iter()
        .find(|t| t["current"] == true)?;
    Some((tab["browserId"].as_str()?.to_string(), tab["tab"].as_i64()?))
}
