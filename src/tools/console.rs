//! `browser_get_console_logs`: what the agent's tab's console showed, captured in the page from
//! the start of each document without the debugger (extension/main/console-capture.js), paged newest
//! first, uncaught errors and rejections with their stacks apart from the messages. Also the
//! entries an action gained, for its `include: "console"`.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::args::read_only;
use super::ctx::Ctx;
use super::paging::{footer, page_arg, page_of, pages};
use super::spec::{Cli, Out};
use super::tool::{About, Tool};
use crate::error::ToolError;
use crate::protocol::wire::act::ConsoleSince;
use crate::protocol::wire::diagnostics::{ConsoleLogs, Entry, Kind, Level, LogEntry};

const NAME: &str = "browser_get_console_logs";
const PAGE_SIZE: u64 = 25;
/// Lines of a stack shown under its error.
const STACK_LINES: usize = 8;
/// Entries an action's reply includes; the rest are one call away.
const SINCE_ACTION: usize = 20;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ConsoleArgs {
    /// Least severe level shown (default debug: all).
    level: Option<Level>,
    /// 1 = newest.
    page: Option<u64>,
    /// Also the tab's earlier pages.
    include_preserved: Option<bool>,
}

impl Level {
    fn name(self) -> &'static str {
        match self {
            Level::Debug => "debug",
            Level::Log => "log",
            Level::Info => "info",
            Level::Warn => "warn",
            Level::Error => "error",
        }
    }

    /// log and info are one severity, as the console filters them.
    fn severity(self) -> u8 {
        match self {
            Level::Debug => 0,
            Level::Log | Level::Info => 1,
            Level::Warn => 2,
            Level::Error => 3,
        }
    }
}

impl LogEntry {
    fn shaped(self) -> Entry {
        Entry {
            frame: self.url.filter(|_| self.frame_id != Some(0)),
            earlier: !self.current,
            ..self.entry
        }
    }
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ConsoleOut {
    /// This page's entries, newest first.
    entries: Vec<Entry>,
    page: u64,
    pages: u64,
    /// Entries at this level or above, on all pages.
    total: u64,
    /// Entries the page's bounds dropped (the oldest).
    dropped: u64,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: NAME,
            description: "The tab's console: messages, uncaught errors with stacks, service-worker events; newest first. Not seen: logs inside a service worker.",
            hints: read_only(),
            cli: Cli {
                aliases: &["console"],
                ..Cli::default()
            },
        },
        |cx, a| console_logs(cx, a).boxed(),
    )]
}

async fn console_logs(cx: &Ctx, a: ConsoleArgs) -> Result<Out<ConsoleOut>, ToolError> {
    let page = page_arg(a.page)?;
    let least = a.level.unwrap_or(Level::Debug).severity();
    let preserved = a.include_preserved.unwrap_or(false);
    let log = cx.run(ConsoleLogs { preserved }).await?;
    let captured = log.captured;
    let all: Vec<Entry> = log
        .entries
        .into_iter()
        .map(LogEntry::shaped)
        .filter(|e| e.level.severity() >= least)
        .collect();
    let total = all.len() as u64;
    let entries = page_of(all, page, PAGE_SIZE)?;
    let mut text = if total == 0 {
        "No console entries in this tab.".to_string()
    } else {
        let first = (page - 1) * PAGE_SIZE + 1;
        format!(
            "Console entries {first}-{} of {total}, newest first:\n{}",
            first + entries.len() as u64 - 1,
            render(&entries)
        )
    };
    if !captured {
        text.push_str("\n(Not captured in this page: it was open before tabpilot started, or the browser keeps extensions out.)");
    }
    if log.dropped > 0 {
        text.push_str(&format!(
            "\n({} older entries were dropped at the bounds.)",
            log.dropped
        ));
    }
    let mut again = json!({});
    if let Some(level) = a.level {
        again["level"] = json!(level);
    }
    if preserved {
        again["includePreserved"] = json!(true);
    }
    text.push('\n');
    text.push_str(&footer(NAME, page, total, PAGE_SIZE, again));
    let data = ConsoleOut {
        entries,
        page,
        pages: pages(total, PAGE_SIZE),
        total,
        dropped: log.dropped,
    };
    Ok(Out::new(text, data))
}

/// Entries as lines: uncaught errors and rejections with their stacks first, under their own
/// heading, then the messages, each part newest first.
fn render(entries: &[Entry]) -> String {
    let (errors, messages): (Vec<&Entry>, Vec<&Entry>) = entries
        .iter()
        .partition(|e| matches!(e.kind, Kind::Exception | Kind::Rejection));
    let mut out = Vec::new();
    if !errors.is_empty() {
        out.push("Uncaught errors and rejections:".to_string());
        out.extend(errors.iter().map(|e| line(e)));
    }
    if !messages.is_empty() {
        if !errors.is_empty() {
            out.push("Messages:".to_string());
        }
        out.extend(messages.iter().map(|e| line(e)));
    }
    out.join("\n")
}

fn line(e: &Entry) -> String {
    let head = match e.kind {
        Kind::Console => format!("[{}]", e.level.name()),
        Kind::Exception => "Uncaught".to_string(),
        Kind::Rejection => "Unhandled rejection:".to_string(),
        Kind::Worker => "[service worker]".to_string(),
    };
    let mut s = format!("- {head} {}", e.text);
    if let Some(at) = &e.at {
        s.push_str(&format!(" ({at})"));
    }
    if let Some(frame) = &e.frame {
        s.push_str(&format!(" [frame {frame}]"));
    }
    if e.earlier {
        s.push_str(" [earlier page]");
    }
    if let Some(stack) = &e.stack {
        for frame in stack
            .lines()
            .filter(|l| l.trim_start().starts_with("at "))
            .take(STACK_LINES)
        {
            s.push_str(&format!("\n    {}", frame.trim()));
        }
    }
    s
}

/// What the console gained since an action began, for its `include: "console"`: the entries,
/// newest first, up to a few; said as unreadable when the probe did not answer.
pub(super) fn since_action(probe: Option<ConsoleSince>) -> String {
    let entries: Option<Vec<Entry>> = probe
        .and_then(|p| p.entries)
        .map(|w| w.into_iter().map(LogEntry::shaped).collect());
    match entries {
        None => "Console since the action: not readable in this page.".to_string(),
        Some(e) if e.is_empty() => "Console since the action: nothing.".to_string(),
        Some(e) => {
            let shown = &e[..e.len().min(SINCE_ACTION)];
            let mut text = format!("Console since the action, newest first:\n{}", render(shown));
            if e.len() > shown.len() {
                text.push_str(&format!(
                    "\n({} more: browser_get_console_logs)",
                    e.len() - shown.len()
                ));
            }
            text
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn wire(kind: &str, level: &str, text: &str) -> Value {
        json!({"kind": kind, "level": level, "text": text, "frameId": 0, "url": "http://a/", "current": true, "t": 1, "seq": 1})
    }

    #[test]
    fn errors_and_their_stacks_come_apart_from_the_messages() {
        let mut error = wire("exception", "error", "Error: boom");
        error["stack"] =
            json!("Error: boom\n    at explode (http://a/x.js:3:9)\n    at http://a/x.js:9:1");
        error["at"] = json!("http://a/x.js:3:9");
        let mut framed = wire("console", "warn", "careful");
        framed["frameId"] = json!(4);
        framed["url"] = json!("http://b/f.html");
        framed["current"] = json!(false);
        let probe =
            json!({"errors": 1, "entries": [wire("console", "log", "hello"), error, framed]});
        let text = since_action(serde_json::from_value(probe).unwrap());
        assert_eq!(
            text,
            "Console since the action, newest first:\n\
             Uncaught errors and rejections:\n\
             - Uncaught Error: boom (http://a/x.js:3:9)\n    at explode (http://a/x.js:3:9)\n    at http://a/x.js:9:1\n\
             Messages:\n\
             - [log] hello\n\
             - [warn] careful [frame http://b/f.html] [earlier page]"
        );
        assert_eq!(
            since_action(None),
            "Console since the action: not readable in this page."
        );
        assert_eq!(
            since_action(serde_json::from_value(json!({"errors": 0, "entries": []})).unwrap()),
            "Console since the action: nothing."
        );
    }

    #[test]
    fn log_and_info_are_one_severity_below_warn() {
        assert_eq!(Level::Log.severity(), Level::Info.severity());
        assert!(Level::Debug.severity() < Level::Log.severity());
        assert!(Level::Warn.severity() < Level::Error.severity());
    }
}
