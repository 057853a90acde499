//! `browser_get_console_logs`: what the agent's tab's console showed, captured in the page from
//! the start of each document without the debugger (extension/main/console-capture.js), paged newest
//! first, uncaught errors and rejections with their stacks, then warnings and errors, apart from
//! the messages; page 1 leads with the older ones too, so what went wrong is never pages away. Also the
//! entries an action gained, for its `include: "console"`.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::args::read_only;
use super::ctx::Ctx;
use super::paging::{footer, page_arg, page_of, pages};
use super::spec::{Cli, Out, Tier};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::act::ConsoleSince;
use crate::shared::protocol::wire::diagnostics::{ConsoleLogs, Entry, Kind, Level, LogEntry};

const NAME: &str = "browser_get_console_logs";
const PAGE_SIZE: u64 = 25;
/// Lines of a stack shown under its error.
const STACK_LINES: usize = 8;
/// Entries an action's reply includes; the rest are one call away.
const SINCE_ACTION: usize = 20;
/// Older uncaught errors, and older warnings and errors, that page 1 leads with, at most (each).
const LEAD: usize = 10;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ConsoleArgs {
    /// Least severe shown (default: all).
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
    /// Page 1: older uncaught errors, warnings and errors, shown first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    lead: Vec<Entry>,
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
            description: "The tab's console, newest first: messages, uncaught errors with stacks, service-worker events (not logs inside one).",
            hints: read_only(),
            cli: Cli {
                aliases: &["console"],
                ..Cli::default()
            },
            tier: Tier::Core,
            ..About::default()
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
    let (lead, unshown) = if page == 1 {
        lead(&all)
    } else {
        (Vec::new(), 0)
    };
    let entries = page_of(all, page, PAGE_SIZE)?;
    let mut again = json!({});
    if let Some(level) = a.level {
        again["level"] = json!(level);
    }
    if preserved {
        again["includePreserved"] = json!(true);
    }
    let mut text = if total == 0 {
        "No console entries in this tab.".to_string()
    } else {
        let first = (page - 1) * PAGE_SIZE + 1;
        let mut head = format!(
            "Console entries {first}-{} of {total}, newest first",
            first + entries.len() as u64 - 1
        );
        if !lead.is_empty() {
            head.push_str(&format!(
                ", led by {} older uncaught errors, warnings and errors",
                lead.len()
            ));
        }
        let shown: Vec<Entry> = entries.iter().chain(&lead).cloned().collect();
        format!("{head}:\n{}", render(&shown))
    };
    if unshown > 0 {
        let mut call = again.clone();
        call["level"] = json!(Level::Warn);
        text.push_str(&format!(
            "\n({unshown} more uncaught errors, warnings and errors: {NAME} {call})"
        ));
    }
    if !captured {
        text.push_str("\n(Not captured in this page: it was open before tabpilot started, or the browser keeps extensions out.)");
    }
    if log.dropped > 0 {
        text.push_str(&format!(
            "\n({} older entries were dropped at the bounds.)",
            log.dropped
        ));
    }
    text.push('\n');
    text.push_str(&footer(NAME, page, total, PAGE_SIZE, again));
    let data = ConsoleOut {
        entries,
        lead,
        page,
        pages: pages(total, PAGE_SIZE),
        total,
        dropped: log.dropped,
    };
    Ok(Out::new(text, data))
}

/// How an entry is shown: what went wrong leads, the messages follow.
#[derive(PartialEq, Clone, Copy)]
enum Group {
    Uncaught,
    Warning,
    Message,
}

fn group(e: &Entry) -> Group {
    match e.kind {
        Kind::Exception | Kind::Rejection => Group::Uncaught,
        _ if e.level.severity() >= Level::Warn.severity() => Group::Warning,
        _ => Group::Message,
    }
}

/// What page 1 leads with beyond its own entries (all newest first): the older uncaught errors,
/// and the older warnings and errors, up to LEAD of each counting those on the page; and how
/// many more there are.
fn lead(all: &[Entry]) -> (Vec<Entry>, usize) {
    let on_page = all.len().min(PAGE_SIZE as usize);
    let mut room = [Group::Uncaught, Group::Warning].map(|g| {
        let seen = all[..on_page].iter().filter(|e| group(e) == g).count();
        (g, LEAD.saturating_sub(seen))
    });
    let mut lead = Vec::new();
    let mut unshown = 0;
    for e in &all[on_page..] {
        let Some((_, left)) = room.iter_mut().find(|(g, _)| *g == group(e)) else {
            continue;
        };
        if *left == 0 {
            unshown += 1;
        } else {
            *left -= 1;
            lead.push(e.clone());
        }
    }
    (lead, unshown)
}

/// Entries as lines: uncaught errors and rejections with their stacks first, then warnings and
/// errors, then the messages, each under its heading (the messages' only when others precede
/// them) and each part in the order given.
fn render(entries: &[Entry]) -> String {
    let heads = [
        (Group::Uncaught, "Uncaught errors and rejections:"),
        (Group::Warning, "Warnings and errors:"),
        (Group::Message, "Messages:"),
    ];
    let mut out = Vec::new();
    for (g, head) in heads {
        let lines: Vec<String> = entries.iter().filter(|e| group(e) == g).map(line).collect();
        if lines.is_empty() {
            continue;
        }
        if g != Group::Message || !out.is_empty() {
            out.push(head.to_string());
        }
        out.extend(lines);
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
             Warnings and errors:\n\
             - [warn] careful [frame http://b/f.html] [earlier page]\n\
             Messages:\n\
             - [log] hello"
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

    #[test]
    fn page_one_leads_with_the_older_warnings_and_errors_up_to_its_bound() {
        let entry = |level: &str, text: String| -> Entry {
            serde_json::from_value::<LogEntry>(wire("console", level, &text))
                .unwrap()
                .shaped()
        };
        // As the page logged them: 3 warnings, 2 errors, then 70 logs; the list is newest first.
        let mut all: Vec<Entry> = (0..3)
            .map(|i| entry("warn", format!("w{i}")))
            .chain((0..2).map(|i| entry("error", format!("e{i}"))))
            .chain((0..70).map(|i| entry("log", format!("l{i}"))))
            .collect();
        all.reverse();
        let (lead, unshown) = super::lead(&all);
        let texts: Vec<&str> = lead.iter().map(|e| e.text.as_str()).collect();
        assert_eq!((texts, unshown), (vec!["e1", "e0", "w2", "w1", "w0"], 0));
        let shown: Vec<Entry> = all[..2].iter().chain(&lead).cloned().collect();
        assert_eq!(
            render(&shown),
            "Warnings and errors:\n- [error] e1\n- [error] e0\n- [warn] w2\n- [warn] w1\n- [warn] w0\n\
             Messages:\n- [log] l69\n- [log] l68"
        );
        let mut many: Vec<Entry> = (0..(LEAD + 4))
            .map(|i| entry("warn", format!("w{i}")))
            .chain((0..PAGE_SIZE).map(|i| entry("log", format!("l{i}"))))
            .collect();
        many.reverse();
        let (lead, unshown) = super::lead(&many);
        assert_eq!((lead.len(), unshown), (LEAD, 4));
        assert_eq!(lead[0].text, format!("w{}", LEAD + 3));
    }
}
