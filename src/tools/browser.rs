//! The browser tools: schemas, argument checks, the call through the relay, result shaping.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Session;
use super::args::{
    AfterAction, NoArgs, acts, check_url, parse, read_only, schema, schema_after, timeout,
};
use super::spec::{Hints, ToolOutput, ToolSpec};
use crate::error::{Code, Outcome, ToolError};
use crate::policy::paths;
use crate::protocol::{Op, RelayOp};

const READ_MAX_CHARS: usize = 20_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NavigateArgs {
    /// http, https or about URL (omit with reload).
    url: Option<String>,
    /// Reload the current page instead.
    reload: Option<bool>,
    /// With reload: bypass the cache.
    ignore_cache: Option<bool>,
    /// Return the lean snapshot of the new page (default true).
    include_snapshot: Option<bool>,
    /// Milliseconds to wait for the page to load (default 30000).
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SnapshotArgs {
    /// All text and structure, not just what is interactive; same refs.
    verbose: Option<bool>,
    /// Write the snapshot to this file and answer with a summary.
    file_path: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HistoryArgs {
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ReadArgs {
    /// markdown (default) or text.
    format: Option<ReadFormat>,
    /// Cap on returned characters (default 20000).
    max_chars: Option<usize>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum ReadFormat {
    Markdown,
    Text,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NewTabArgs {
    /// Open this URL (http, https or about; default about:blank).
    url: Option<String>,
    /// Bring the tab to the front (default false: it opens in the background).
    active: Option<bool>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct CloseTabArgs {
    /// Tab to close (default: this agent's tab).
    tab_id: Option<i64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectTabArgs {
    /// The tab to work in (from browser_list_tabs).
    tab_id: i64,
}

pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "browser_status",
            description: "Relay link state, connected browsers and agents.",
            input_schema: schema::<NoArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "link": {"type": "string", "enum": ["CONNECTED", "WAITING", "RETRYING", "STOPPED"]},
                "relay": {"type": "object"}, "browsers": {"type": "array"}, "agents": {"type": "array"}},
                "required": ["link"]})),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_navigate",
            description: "Load a URL in this agent's tab and wait for it; returns the lean snapshot.",
            input_schema: schema_after::<NavigateArgs>(),
            output_schema: Some(navigation_schema()),
            hints: Hints {
                idempotent: true,
                ..acts()
            },
        },
        ToolSpec {
            name: "browser_go_back",
            description: "Go back in this agent's tab's history.",
            input_schema: schema_after::<HistoryArgs>(),
            output_schema: Some(navigation_schema()),
            hints: acts(),
        },
        ToolSpec {
            name: "browser_go_forward",
            description: "Go forward in this agent's tab's history.",
            input_schema: schema_after::<HistoryArgs>(),
            output_schema: Some(navigation_schema()),
            hints: acts(),
        },
        ToolSpec {
            name: "browser_snapshot",
            description: "Lean outline of the page and its frames: interactive elements with refs, headings, landmarks, short text.",
            input_schema: schema::<SnapshotArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "url": {"type": "string"}, "title": {"type": "string"}, "snapshot": {"type": "string"},
                "refs": {"type": "integer"}, "capped": {"type": "boolean"}}, "required": ["snapshot"]})),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_read_page",
            description: "The page's main content as Markdown or text, capped.",
            input_schema: schema::<ReadArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "content": {"type": "string"}, "truncated": {"type": "boolean"}, "totalChars": {"type": "integer"},
                "url": {"type": "string"}}, "required": ["content", "truncated"]})),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_list_tabs",
            description: "All tabs of the browser, marking this agent's.",
            input_schema: schema::<NoArgs>(),
            output_schema: Some(
                json!({"type": "object", "properties": {"tabs": {"type": "array"}}, "required": ["tabs"]}),
            ),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_new_tab",
            description: "Open a tab for this agent (in the background unless active) and work in it.",
            input_schema: schema::<NewTabArgs>(),
            output_schema: Some(
                json!({"type": "object", "properties": {"tabId": {"type": "integer"}, "url": {"type": "string"}}, "required": ["tabId"]}),
            ),
            hints: acts(),
        },
        ToolSpec {
            name: "browser_select_tab",
            description: "Work in this tab from now on (a tab handed to this agent); refused while another agent holds it.",
            input_schema: schema::<SelectTabArgs>(),
            output_schema: Some(
                json!({"type": "object", "properties": {"tabId": {"type": "integer"}, "url": {"type": "string"}}}),
            ),
            hints: Hints {
                idempotent: true,
                ..acts()
            },
        },
        ToolSpec {
            name: "browser_close_tab",
            description: "Close this agent's tab, or the tab given.",
            input_schema: schema::<CloseTabArgs>(),
            output_schema: None,
            hints: Hints {
                destructive: true,
                ..acts()
            },
        },
    ]
}

fn navigation_schema() -> Value {
    json!({"type": "object", "properties": {
        "outcome": {"type": "string"}, "settled": {"type": "boolean"}, "elapsedMs": {"type": "integer"},
        "url": {"type": "string"}, "title": {"type": "string"}, "snapshot": {"type": "string"}},
        "required": ["outcome", "settled", "url"]})
}

impl Session {
    /// Runs one of this file's tools (`Session::call` routes only those here).
    pub(super) async fn browser_tool(
        &self,
        name: &str,
        args: Value,
    ) -> Result<ToolOutput, ToolError> {
        match name {
            "browser_status" => self.status().await,
            "browser_navigate" => self.navigate(args).await,
            "browser_go_back" => self.history(name, "back", args).await,
            "browser_go_forward" => self.history(name, "forward", args).await,
            "browser_snapshot" => self.snapshot(args).await,
            "browser_read_page" => self.read(args).await,
            "browser_list_tabs" => self.list_tabs(args).await,
            "browser_new_tab" => self.new_tab(args).await,
            "browser_close_tab" => self.close_tab(args).await,
            "browser_select_tab" => self.select_tab(args).await,
            _ => Err(super::unknown_tool(name)),
        }
    }

    async fn status(&self) -> Result<ToolOutput, ToolError> {
        use crate::link::LinkState;
        match self.link.ask(RelayOp::Status).await {
            Ok(reply) => {
                let status = reply.value;
                let browsers = status["browsers"].as_array().cloned().unwrap_or_default();
                let agents = status["agents"].as_array().cloned().unwrap_or_default();
                let link = if browsers.is_empty() {
                    "WAITING"
                } else {
                    "CONNECTED"
                };
                let mut text = format!(
                    "{link}: relay {} on port {}; {} browser(s), {} agent(s)",
                    status["relay"]["version"].as_str().unwrap_or("?"),
                    status["relay"]["port"],
                    browsers.len(),
                    agents.len()
                );
                for b in &browsers {
                    let label = b["label"].as_str().or(b["profile"].as_str()).unwrap_or("");
                    text.push_str(&format!(
                        "\n- browser {} {} {label}",
                        b["browserId"].as_str().unwrap_or("?"),
                        b["browser"].as_str().unwrap_or("")
                    ));
                }
                for a in &agents {
                    text.push_str(&format!(
                        "\n- agent {} (pid {})",
                        a["name"].as_str().unwrap_or("?"),
                        a["pid"]
                    ));
                }
                Ok(ToolOutput::new(
                    text,
                    json!({"link": link, "relay": status["relay"], "browsers": browsers, "agents": agents}),
                ))
            }
            Err(e) => {
                let (link, text) = match self.link_state() {
                    LinkState::Retrying { next, reason } => (
                        "RETRYING",
                        format!(
                            "RETRYING: {reason}; next attempt in {} ms",
                            next.as_millis()
                        ),
                    ),
                    LinkState::Stopped => {
                        ("STOPPED", "STOPPED: tabpilot is shutting down".to_string())
                    }
                    LinkState::Connected => ("RETRYING", format!("RETRYING: {}", e.message)),
                };
                Ok(ToolOutput::new(
                    text,
                    json!({"link": link, "browsers": [], "agents": []}),
                ))
            }
        }
    }

    async fn navigate(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let (args, after) = AfterAction::split("browser_navigate", args)?;
        let a: NavigateArgs = parse("browser_navigate", args)?;
        let reload = a.reload.unwrap_or(false);
        let call = match (&a.url, reload) {
            (Some(url), false) => {
                check_url(url)?;
                json!({"url": url, "after": after.wire()})
            }
            (None, true) => {
                json!({"reload": true, "ignoreCache": a.ignore_cache.unwrap_or(false), "after": after.wire()})
            }
            _ => return Err(ToolError::bad_args("give url, or reload: true, not both")),
        };
        if a.ignore_cache.is_some() && !reload {
            return Err(ToolError::bad_args("ignoreCache goes with reload: true"));
        }
        let nav = self.page(Op::Navigate, call, timeout(a.timeout)?).await?;
        let requested = a.url.as_deref().unwrap_or("the reload");
        let snapshot = a.include_snapshot.unwrap_or(true) || after.wants_snapshot();
        Ok(self.navigation_output(nav, requested, snapshot).await)
    }

    async fn history(
        &self,
        name: &str,
        direction: &str,
        args: Value,
    ) -> Result<ToolOutput, ToolError> {
        let (args, after) = AfterAction::split(name, args)?;
        let a: HistoryArgs = parse(name, args)?;
        let call = json!({"direction": direction, "after": after.wire()});
        let nav = self.page(Op::History, call, timeout(a.timeout)?).await?;
        Ok(self
            .navigation_output(nav, &format!("going {direction}"), after.wants_snapshot())
            .await)
    }

    /// One line on where the tab went and whether it settled, then the snapshot when asked.
    async fn navigation_output(&self, nav: Value, requested: &str, snapshot: bool) -> ToolOutput {
        let settled = nav["settled"].as_bool().unwrap_or(false);
        let url = nav["url"].as_str().unwrap_or("").to_string();
        let title = nav["title"].as_str().unwrap_or("");
        let ms = nav["elapsedMs"].as_u64().unwrap_or(0);
        let verb = match nav["what"].as_str() {
            Some("reload") => "Reloaded",
            Some("back") => "Went back to",
            Some("forward") => "Went forward to",
            _ => "Navigated to",
        };
        let text = if settled {
            format!("{verb} {url} \"{title}\" (settled in {ms} ms)")
        } else {
            format!("{requested} had not settled after {ms} ms; the tab shows {url}")
        };
        let outcome = if settled {
            Outcome::Done
        } else {
            Outcome::Partial
        };
        let data = json!({"outcome": outcome, "settled": settled, "elapsedMs": ms, "url": url, "title": title});
        let mut out = ToolOutput::new(text, data);
        out.outcome = outcome;
        if snapshot && settled {
            self.append_snapshot(&mut out).await;
        }
        out
    }

    async fn snapshot(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: SnapshotArgs = parse("browser_snapshot", args)?;
        let file = a
            .file_path
            .as_deref()
            .map(|p| paths::checked_output(p, &paths::roots()))
            .transpose()?;
        let verbose = a.verbose.unwrap_or(false);
        let snap = self
            .page(
                Op::Snapshot,
                json!({"verbose": verbose}),
                Duration::from_secs(30),
            )
            .await?;
        let body = snap["text"].as_str().unwrap_or("");
        let (url, title) = (
            snap["url"].as_str().unwrap_or(""),
            snap["title"].as_str().unwrap_or(""),
        );
        let mut notes = Vec::new();
        if snap["capped"] == true {
            notes.push("(cut at the node limit; read the rest with browser_read_page)".to_string());
        }
        if snap["framesCapped"] == true {
            notes.push(format!(
                "(only the first 10 of {} frames were walked)",
                snap["frames"]
            ));
        }
        let data = json!({"url": url, "title": title, "refs": snap["refs"], "capped": snap["capped"],
            "framesCapped": snap["framesCapped"]});
        if let Some(path) = file {
            std::fs::write(&path, format!("Page: {url} \"{title}\"\n{body}\n")).map_err(|e| {
                ToolError::failed(
                    Code::Internal,
                    format!("cannot write {}: {e}", path.display()),
                )
            })?;
            let mut data = data;
            data["filePath"] = json!(path.display().to_string());
            let text = format!(
                "Wrote the {} snapshot of {url} ({} lines, {} refs) to {} {}",
                if verbose { "verbose" } else { "lean" },
                body.lines().count(),
                snap["refs"],
                path.display(),
                notes.join(" ")
            );
            return Ok(ToolOutput::new(text.trim_end().to_string(), data));
        }
        let mut text = format!("Page: {url} \"{title}\"\n{body}");
        for note in &notes {
            text.push('\n');
            text.push_str(note);
        }
        let mut data = data;
        data["snapshot"] = json!(body);
        Ok(ToolOutput::new(text, data))
    }

    async fn read(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: ReadArgs = parse("browser_read_page", args)?;
        let max = a.max_chars.unwrap_or(READ_MAX_CHARS);
        if max == 0 || max > 500_000 {
            return Err(ToolError::bad_args("maxChars must be between 1 and 500000"));
        }
        let format = match a.format.unwrap_or(ReadFormat::Markdown) {
            ReadFormat::Markdown => "markdown",
            ReadFormat::Text => "text",
        };
        let r = self
            .page(
                Op::Read,
                json!({"format": format, "maxChars": max}),
                Duration::from_secs(15),
            )
            .await?;
        let content = r["content"].as_str().unwrap_or("");
        let truncated = r["truncated"].as_bool().unwrap_or(false);
        let mut text = content.to_string();
        if truncated {
            text.push_str(&format!(
                "\n\n[cut at {max} of {} characters; raise maxChars to read more]",
                r["totalChars"]
            ));
        }
        Ok(ToolOutput::new(
            text,
            json!({"content": content, "truncated": truncated, "totalChars": r["totalChars"],
            "url": r["url"], "format": format}),
        ))
    }

    async fn list_tabs(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let _: NoArgs = parse("browser_list_tabs", args)?;
        let r = self.on_tab(Op::TabList, None, json!({})).await?;
        let mine = self.current_tab().await;
        let tabs: Vec<Value> = r["tabs"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .map(|mut t| {
                t["mine"] = json!(Some(t["tabId"].as_i64().unwrap_or(-1)) == mine);
                t
            })
            .collect();
        let lines: Vec<String> = tabs
            .iter()
            .map(|t| {
                format!(
                    "- tab {}{}{} {} \"{}\"",
                    t["tabId"],
                    if t["mine"] == true { " (yours)" } else { "" },
                    if t["active"] == true { " (active)" } else { "" },
                    t["url"].as_str().unwrap_or(""),
                    t["title"].as_str().unwrap_or("")
                )
            })
            .collect();
        Ok(ToolOutput::new(
            format!("{} tab(s)\n{}", tabs.len(), lines.join("\n")),
            json!({"tabs": tabs}),
        ))
    }

    async fn new_tab(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: NewTabArgs = parse("browser_new_tab", args)?;
        if let Some(url) = &a.url {
            check_url(url)?;
        }
        let r = self
            .on_tab(
                Op::TabOpen,
                None,
                json!({"url": a.url, "active": a.active.unwrap_or(false)}),
            )
            .await?;
        let tab = r["tabId"].as_i64().unwrap_or(-1);
        self.set_current_tab(Some(tab));
        Ok(ToolOutput::new(
            format!(
                "Opened tab {tab} ({}); this agent now works in it",
                if r["active"] == true {
                    "in front"
                } else {
                    "in the background"
                }
            ),
            json!({"tabId": tab, "url": r["url"], "active": r["active"]}),
        ))
    }

    async fn select_tab(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: SelectTabArgs = parse("browser_select_tab", args)?;
        let tab = self.on_tab(Op::TabInfo, Some(a.tab_id), json!({})).await?;
        let text = format!(
            "This agent now works in tab {} ({} \"{}\")",
            a.tab_id,
            tab["url"].as_str().unwrap_or(""),
            tab["title"].as_str().unwrap_or("")
        );
        Ok(ToolOutput::new(
            text,
            json!({"tabId": a.tab_id, "url": tab["url"]}),
        ))
    }

    async fn close_tab(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: CloseTabArgs = parse("browser_close_tab", args)?;
        let tab = match a.tab_id.or(self.current_tab().await) {
            Some(tab) => tab,
            None => return Err(ToolError::bad_args("this agent has no tab; give tabId")),
        };
        self.on_tab(Op::TabClose, Some(tab), json!({})).await?;
        if self.current_tab().await == Some(tab) {
            self.set_current_tab(None);
        }
        Ok(ToolOutput::new(
            format!("Closed tab {tab}"),
            json!({"closed": tab}),
        ))
    }
}
