//! The browser tools: schemas, argument checks, the call through the relay, result shaping.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::Session;
use super::image::{self as shot, Shrunk};
use super::spec::{Hints, Image, ToolOutput, ToolSpec};
use crate::error::{Code, Outcome, ToolError};
use crate::link::Request;
use crate::policy::paths;
use crate::protocol::{Scope, Target};

const DEFAULT_TIMEOUT_MS: u64 = 30_000;
const MAX_TIMEOUT_MS: u64 = 300_000;
const READ_MAX_CHARS: usize = 20_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NavigateArgs {
    /// http, https or about URL.
    url: String,
    /// Return the lean snapshot of the new page (default true).
    include_snapshot: Option<bool>,
    /// Milliseconds to wait for the page to load (default 30000).
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ClickArgs {
    /// Ref from a snapshot, like e7k2f.
    #[serde(rename = "ref")]
    reference: String,
    /// What the element is, in words (for messages and the audit log).
    element: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TypeArgs {
    #[serde(rename = "ref")]
    reference: String,
    /// Replaces the field's text.
    text: String,
    /// Press Enter afterwards (submits the form).
    submit: Option<bool>,
    element: Option<String>,
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
struct ScreenshotArgs {
    /// png (default) or jpeg.
    format: Option<ImageFormat>,
    /// jpeg quality 1-100.
    quality: Option<u8>,
    /// Write the full-size image here instead of returning it.
    file_path: Option<String>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum ImageFormat {
    Png,
    Jpeg,
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

fn schema<T: JsonSchema>() -> Value {
    let mut v = serde_json::to_value(schemars::schema_for!(T)).expect("schemas serialize");
    if let Some(o) = v.as_object_mut() {
        o.remove("$schema");
        o.remove("title");
    }
    v
}

fn parse<T: DeserializeOwned>(tool: &str, args: Value) -> Result<T, ToolError> {
    let args = if args.is_null() { json!({}) } else { args };
    serde_json::from_value(args).map_err(|e| ToolError::bad_args(format!("{tool}: {e}")))
}

fn timeout(ms: Option<u64>) -> Result<Duration, ToolError> {
    match ms.unwrap_or(DEFAULT_TIMEOUT_MS) {
        0 => Err(ToolError::bad_args("timeout must be at least 1 ms")),
        t if t > MAX_TIMEOUT_MS => Err(ToolError::bad_args(format!(
            "timeout is at most {MAX_TIMEOUT_MS} ms"
        ))),
        t => Ok(Duration::from_millis(t)),
    }
}

/// Only http, https and about URLs; anything else is refused by name before a byte is sent.
fn check_url(url: &str) -> Result<(), ToolError> {
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("http") | Some("https") if url.len() > scheme.as_deref().map_or(0, str::len) + 3 => {
            Ok(())
        }
        Some("about") => Ok(()),
        Some(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c)) =>
        {
            Err(ToolError::bad_args(format!(
                "{s}: URLs are not allowed; use an http, https or about URL"
            )))
        }
        _ => Err(ToolError::bad_args(format!(
            "{url:?} is not a URL; give one with http:// or https://"
        ))),
    }
}

/// A ref as snapshots write it: an optional frame prefix `fN:`, then `e` and five base-36
/// characters, then `.N` (N >= 2) for a twin. Checked here so a malformed one never reaches a page.
fn ref_arg(reference: &str) -> Result<(), ToolError> {
    let (frame, local) = match reference.split_once(':') {
        Some((f, rest)) => (Some(f), rest),
        None => (None, reference),
    };
    let frame_ok = frame.is_none_or(|f| {
        f.len() > 1 && f.starts_with('f') && f[1..].chars().all(|c| c.is_ascii_digit())
    });
    let (hash, twin) = match local.split_once('.') {
        Some((h, n)) => (h, Some(n)),
        None => (local, None),
    };
    let hash_ok = hash.len() == 6
        && hash.starts_with('e')
        && hash[1..].chars().all(|c| c.is_ascii_digit() || c.is_ascii_lowercase());
    let twin_ok = twin.is_none_or(|n| n.parse::<u32>().is_ok_and(|n| n >= 2));
    if frame_ok && hash_ok && twin_ok {
        Ok(())
    } else if !frame_ok {
        Err(ToolError::bad_args(format!(
            "{reference:?} has a malformed frame prefix; frame refs look like f3:e7k2fa"
        )))
    } else {
        Err(ToolError::bad_args(format!(
            "{reference:?} is not a ref from a snapshot (like e7k2fa, e7k2fa.2 or f3:e7k2fa)"
        )))
    }
}

fn read_only() -> Hints {
    Hints {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
    }
}

fn acts() -> Hints {
    Hints {
        read_only: false,
        destructive: false,
        idempotent: false,
        open_world: true,
    }
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
            input_schema: schema::<NavigateArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "outcome": {"type": "string"}, "settled": {"type": "boolean"}, "elapsedMs": {"type": "integer"},
                "url": {"type": "string"}, "title": {"type": "string"}, "snapshot": {"type": "string"}},
                "required": ["outcome", "settled", "url"]})),
            hints: Hints {
                idempotent: true,
                ..acts()
            },
        },
        ToolSpec {
            name: "browser_snapshot",
            description: "Lean outline of the page: interactive elements with refs, headings, landmarks, short text.",
            input_schema: schema::<NoArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "url": {"type": "string"}, "title": {"type": "string"}, "snapshot": {"type": "string"},
                "refs": {"type": "integer"}, "capped": {"type": "boolean"}}, "required": ["snapshot"]})),
            hints: read_only(),
        },
        ToolSpec {
            name: "browser_click",
            description: "Click an element by ref.",
            input_schema: schema::<ClickArgs>(),
            output_schema: Some(action_schema()),
            hints: acts(),
        },
        ToolSpec {
            name: "browser_type",
            description: "Replace a field's text by ref; submit presses Enter.",
            input_schema: schema::<TypeArgs>(),
            output_schema: Some(action_schema()),
            hints: acts(),
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
            name: "browser_screenshot",
            description: "Image of this agent's viewport (under 1536 px wide inline), or saved to filePath.",
            input_schema: schema::<ScreenshotArgs>(),
            output_schema: Some(json!({"type": "object", "properties": {
                "width": {"type": "integer"}, "height": {"type": "integer"}, "format": {"type": "string"},
                "shrunkFrom": {"type": ["array", "null"]}, "debugger": {"type": "boolean"},
                "filePath": {"type": ["string", "null"]}}, "required": ["width", "height", "debugger"]})),
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

fn action_schema() -> Value {
    json!({"type": "object", "properties": {
        "outcome": {"type": "string"}, "navigated": {"type": "boolean"}, "url": {"type": ["string", "null"]},
        "element": {"type": "string"}, "retagged": {"type": "boolean"}}, "required": ["outcome", "navigated"]})
}

impl Session {
    async fn page(
        &self,
        tool: &str,
        args: Value,
        mutates: bool,
        wait: Duration,
    ) -> Result<Value, ToolError> {
        let req = Request {
            tool: tool.into(),
            scope: Scope::Tab,
            target: Target::default(),
            mutates,
            args,
            timeout: wait,
        };
        Ok(self.relay(req).await?.0)
    }

    async fn browser_scoped(
        &self,
        tool: &str,
        tab: Option<i64>,
        args: Value,
        mutates: bool,
    ) -> Result<Value, ToolError> {
        let target = Target { browser: None, tab };
        let req = Request {
            tool: tool.into(),
            scope: Scope::Browser,
            target,
            mutates,
            args,
            timeout: Duration::from_secs(15),
        };
        Ok(self.relay(req).await?.0)
    }

    /// Runs one browser tool. `Ok(None)` means the name is not a browser tool.
    pub(super) async fn browser_tool(
        &self,
        name: &str,
        args: Value,
    ) -> Option<Result<ToolOutput, ToolError>> {
        Some(match name {
            "browser_status" => self.status().await,
            "browser_navigate" => self.navigate(args).await,
            "browser_snapshot" => self.snapshot(args).await,
            "browser_click" => self.click(args).await,
            "browser_type" => self.type_text(args).await,
            "browser_read_page" => self.read(args).await,
            "browser_screenshot" => self.screenshot(args).await,
            "browser_list_tabs" => self.list_tabs(args).await,
            "browser_new_tab" => self.new_tab(args).await,
            "browser_close_tab" => self.close_tab(args).await,
            _ => return None,
        })
    }

    async fn status(&self) -> Result<ToolOutput, ToolError> {
        use crate::link::LinkState;
        match self.relay(Request::status()).await {
            Ok((status, _)) => {
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
        let a: NavigateArgs = parse("browser_navigate", args)?;
        check_url(&a.url)?;
        let wait = timeout(a.timeout)?;
        let nav = self
            .page("navigate", json!({"url": a.url}), true, wait)
            .await?;
        let settled = nav["settled"].as_bool().unwrap_or(false);
        let url = nav["url"].as_str().unwrap_or("").to_string();
        let title = nav["title"].as_str().unwrap_or("");
        let ms = nav["elapsedMs"].as_u64().unwrap_or(0);
        let mut text = if settled {
            format!("Navigated to {url} \"{title}\" (settled in {ms} ms)")
        } else {
            format!(
                "Navigation to {} had not finished after {ms} ms; the tab shows {url}",
                a.url
            )
        };
        let mut data = json!({"outcome": if settled { Outcome::Done } else { Outcome::Partial },
            "settled": settled, "elapsedMs": ms, "url": url, "title": title});
        if a.include_snapshot.unwrap_or(true) && settled {
            match self
                .page("snapshot", json!({}), false, Duration::from_secs(15))
                .await
            {
                Ok(snap) => {
                    let body = snap["text"].as_str().unwrap_or("");
                    text.push_str("\n\n");
                    text.push_str(body);
                    data["snapshot"] = json!(body);
                }
                Err(e) => text.push_str(&format!("\n(no snapshot: {})", e.text())),
            }
        }
        let mut out = ToolOutput::new(text, data);
        if !settled {
            out.outcome = Outcome::Partial;
        }
        Ok(out)
    }

    async fn snapshot(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let _: NoArgs = parse("browser_snapshot", args)?;
        let snap = self
            .page("snapshot", json!({}), false, Duration::from_secs(15))
            .await?;
        let body = snap["text"].as_str().unwrap_or("");
        let mut text = format!(
            "Page: {} \"{}\"\n{body}",
            snap["url"].as_str().unwrap_or(""),
            snap["title"].as_str().unwrap_or("")
        );
        if snap["capped"].as_bool() == Some(true) {
            text.push_str(
                "\n(snapshot cut at its node limit; read the rest with browser_read_page)",
            );
        }
        Ok(ToolOutput::new(
            text,
            json!({"url": snap["url"], "title": snap["title"], "snapshot": body,
            "refs": snap["refs"], "capped": snap["capped"]}),
        ))
    }

    async fn click(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: ClickArgs = parse("browser_click", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let r = self
            .page("click", json!({"ref": a.reference}), true, wait)
            .await?;
        Ok(action_output(
            format!("Clicked {}", named(&a.element, &r)),
            r,
        ))
    }

    async fn type_text(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: TypeArgs = parse("browser_type", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let submit = a.submit.unwrap_or(false);
        let r = self
            .page(
                "type",
                json!({"ref": a.reference, "text": a.text, "submit": submit}),
                true,
                wait,
            )
            .await?;
        let mut head = format!(
            "Typed {} characters into {}",
            r["chars"],
            named(&a.element, &r)
        );
        if submit {
            head.push_str(" and pressed Enter");
        }
        Ok(action_output(head, r))
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
                "read",
                json!({"format": format, "maxChars": max}),
                false,
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

    async fn screenshot(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: ScreenshotArgs = parse("browser_screenshot", args)?;
        let format = a.format.unwrap_or(ImageFormat::Png);
        if a.quality.is_some_and(|q| q == 0 || q > 100)
            || (a.quality.is_some() && format == ImageFormat::Png)
        {
            return Err(ToolError::bad_args("quality is 1-100 and only for jpeg"));
        }
        let file = a
            .file_path
            .as_deref()
            .map(|p| paths::checked_output(p, &paths::roots()))
            .transpose()?;
        let name = if format == ImageFormat::Png {
            "png"
        } else {
            "jpeg"
        };
        let r = self
            .page(
                "screenshot",
                json!({"format": name, "quality": a.quality}),
                false,
                Duration::from_secs(20),
            )
            .await?;
        let bytes = shot::decode_base64(r["data"].as_str().unwrap_or(""))?;
        let used_debugger = r["debugger"].as_bool().unwrap_or(false);
        let banner = if used_debugger {
            "; the debugger was attached to capture this background tab (Chrome shows its banner while attached)"
        } else {
            ""
        };
        if let Some(path) = file {
            let (w, h) = shot::dimensions(&bytes)?;
            std::fs::write(&path, &bytes).map_err(|e| {
                ToolError::failed(
                    Code::Internal,
                    format!("cannot write {}: {e}", path.display()),
                )
            })?;
            let text = format!(
                "Saved a {w}x{h} {name} screenshot to {}{banner}",
                path.display()
            );
            return Ok(ToolOutput::new(
                text,
                json!({"width": w, "height": h, "format": name, "debugger": used_debugger,
                "filePath": path.display().to_string(), "shrunkFrom": null}),
            ));
        }
        let Shrunk {
            bytes,
            width,
            height,
            from,
        } = shot::fit_inline(bytes, format == ImageFormat::Jpeg)?;
        let mut text = format!("Screenshot {width}x{height} {name}");
        if let Some((w, h)) = from {
            text.push_str(&format!(
                " (shrunk from {w}x{h} to fit 1536 px wide; use filePath for full size)"
            ));
        }
        text.push_str(banner);
        let mut out = ToolOutput::new(
            text,
            json!({"width": width, "height": height, "format": name,
            "debugger": used_debugger, "shrunkFrom": from.map(|(w, h)| json!([w, h])), "viewport": r["viewport"], "filePath": null}),
        );
        out.images.push(Image {
            data: shot::encode_base64(&bytes),
            mime_type: format!("image/{name}"),
        });
        Ok(out)
    }

    async fn list_tabs(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let _: NoArgs = parse("browser_list_tabs", args)?;
        let r = self
            .browser_scoped("tab.list", None, json!({}), false)
            .await?;
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
            .browser_scoped(
                "tab.open",
                None,
                json!({"url": a.url, "active": a.active.unwrap_or(false)}),
                true,
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

    async fn close_tab(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: CloseTabArgs = parse("browser_close_tab", args)?;
        let tab = match a.tab_id.or(self.current_tab().await) {
            Some(tab) => tab,
            None => return Err(ToolError::bad_args("this agent has no tab; give tabId")),
        };
        self.browser_scoped("tab.close", Some(tab), json!({}), true)
            .await?;
        if self.current_tab().await == Some(tab) {
            self.set_current_tab(None);
        }
        Ok(ToolOutput::new(
            format!("Closed tab {tab}"),
            json!({"closed": tab}),
        ))
    }
}

/// The element as the caller named it, with what the page says it is.
fn named(element: &Option<String>, r: &Value) -> String {
    let found = r["element"].as_str().unwrap_or("the element");
    match element {
        Some(words) => format!("{words} ({found})"),
        None => found.to_string(),
    }
}

fn action_output(head: String, r: Value) -> ToolOutput {
    let navigated = r["navigated"].as_bool().unwrap_or(false);
    let mut text = head;
    if navigated {
        text.push_str(&format!(
            "; the page navigated to {}",
            r["url"].as_str().unwrap_or("?")
        ));
        if r["settled"] == false {
            text.push_str(" (still loading)");
        }
    } else if let Some(err) = r["navigationError"].as_str() {
        text.push_str(&format!("; a navigation started and failed: {err}"));
    } else {
        text.push_str("; no navigation");
    }
    if r["retagged"] == true {
        text.push_str(" (ref re-resolved after the page re-rendered)");
    }
    ToolOutput::new(
        text,
        json!({"outcome": Outcome::Done, "navigated": navigated, "url": r["url"],
        "element": r["element"], "retagged": r["retagged"].as_bool().unwrap_or(false)}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_https_and_about_urls_pass() {
        for ok in ["http://127.0.0.1:8/x", "https://example.com", "about:blank"] {
            assert!(check_url(ok).is_ok(), "{ok}");
        }
        for (bad, named) in [
            ("javascript:alert(1)", "javascript"),
            ("file:///etc/passwd", "file"),
            ("data:text/html,hi", "data"),
            ("chrome://settings", "chrome"),
        ] {
            let e = check_url(bad).unwrap_err();
            assert_eq!(e.code, Code::BadArgs);
            assert!(e.message.starts_with(named), "{}", e.message);
        }
        assert!(check_url("example.com").is_err());
    }

    #[test]
    fn refs_are_checked_before_sending() {
        assert!(ref_arg("e7k2fa").is_ok());
        assert!(ref_arg("e7k2fa.2").is_ok());
        assert!(ref_arg("f12:e7k2fa.3").is_ok());
        for bad in ["f:e7k2fa", "fx:e7k2fa", "12:e7k2fa", "f1:f2:e7k2fa", "f1:"] {
            let e = ref_arg(bad).unwrap_err();
            assert_eq!(e.code, Code::BadArgs, "{bad}");
        }
        assert!(ref_arg("fx:e7k2fa").unwrap_err().message.contains("frame prefix"));
        for bad in ["", "e1", "x7k2fa", "e7k2fa.1", "e7k2fa.x", "E7K2FA"] {
            assert!(ref_arg(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_arguments_are_refused() {
        let e = parse::<ClickArgs>("browser_click", json!({"ref": "e1", "bogus": 1}))
            .err()
            .unwrap();
        assert_eq!(e.code, Code::BadArgs);
        assert!(e.message.contains("bogus"));
    }

    #[test]
    fn every_tool_has_an_object_schema() {
        for spec in specs() {
            assert_eq!(spec.input_schema["type"], "object", "{}", spec.name);
        }
    }
}
