//! `tabpilot audit`: the audit trail, one line per call, newest last, from the rotated files
//! and the live one in order; filtered by agent and time, or the lines as stored.

use std::path::Path;
use std::process::ExitCode;

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::controller::audit::{self, Record};

#[derive(clap::Args)]
pub(super) struct AuditArgs {
    /// Only calls by this agent: the MCP client's name, or the session (`cli`).
    #[arg(long)]
    agent: Option<String>,
    /// Only calls since this time: RFC 3339 (`2025-06-01T10:00:00Z`) or a span back from now
    /// (`90s`, `10m`, `2h`, `1d`).
    #[arg(long)]
    since: Option<String>,
    /// Only the last N calls.
    #[arg(long)]
    tail: Option<usize>,
    /// The lines as stored (JSON, one a line).
    #[arg(long)]
    json: bool,
}

pub(super) fn run(a: &AuditArgs) -> anyhow::Result<ExitCode> {
    let since = a.since.as_deref().map(since).transpose()?;
    let path = audit::configured_file();
    if audit::file_from_env().is_none() {
        eprintln!(
            "(the audit trail is off: TABPILOT_AUDIT; showing what {} holds)",
            path.display()
        );
    }
    let mut lines = read(&path)?;
    lines.retain(|(_, r)| {
        a.agent
            .as_ref()
            .is_none_or(|name| r.agent.client == *name || r.agent.session == *name)
            && since.is_none_or(|t| time_of(r).is_some_and(|at| at >= t))
    });
    if let Some(n) = a.tail {
        lines.drain(..lines.len().saturating_sub(n));
    }
    for (raw, record) in &lines {
        if a.json {
            println!("{raw}");
        } else {
            println!("{}", readable(record));
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// Every line of the trail with its record, oldest first. Two servers may each have written a
/// line into a file the other rotated a moment later, so the lines are put in time order.
fn read(path: &Path) -> anyhow::Result<Vec<(String, Record)>> {
    let files = audit::file::in_order(path);
    if files.is_empty() {
        eprintln!("(no audit trail at {} yet)", path.display());
    }
    let mut lines = Vec::new();
    let mut unreadable = 0;
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| anyhow::anyhow!("cannot read {}: {e}", file.display()))?;
        for (line, record) in audit::read::lines(&text) {
            match record {
                Some(record) => lines.push((line.to_string(), record)),
                None => unreadable += 1,
            }
        }
    }
    if unreadable > 0 {
        eprintln!("({unreadable} lines of the trail are not audit records; skipped)");
    }
    lines.sort_by(|(_, a), (_, b)| a.time.cmp(&b.time));
    Ok(lines)
}

fn time_of(r: &Record) -> Option<DateTime<Utc>> {
    DateTime::parse_from_rfc3339(&r.time)
        .ok()
        .map(|t| t.with_timezone(&Utc))
}

/// `--since`: a time, or a span back from now.
pub(super) fn since(text: &str) -> anyhow::Result<DateTime<Utc>> {
    if let Ok(t) = DateTime::parse_from_rfc3339(text) {
        return Ok(t.with_timezone(&Utc));
    }
    let bad = || {
        anyhow::anyhow!("--since {text:?} is neither an RFC 3339 time nor a span like 10m or 2h")
    };
    let text = text.trim();
    let split = text.find(|c: char| !c.is_ascii_digit()).ok_or_else(bad)?;
    let n: i64 = text[..split].parse().map_err(|_| bad())?;
    let seconds = match &text[split..] {
        "s" => 1,
        "m" => 60,
        "h" => 3600,
        "d" => 86400,
        _ => return Err(bad()),
    };
    let span = n
        .checked_mul(seconds)
        .and_then(chrono::TimeDelta::try_seconds)
        .ok_or_else(bad)?;
    Ok(Utc::now() - span)
}

/// One call as a line: when, who, what, how it ended, how long, where, on what, with what.
fn readable(r: &Record) -> String {
    let outcome = r
        .outcome
        .and_then(|o| serde_json::to_value(o).ok())
        .and_then(|v| v.as_str().map(String::from))
        .unwrap_or_default();
    let mut line = format!(
        "{} {} {} {} {outcome}",
        r.time,
        shown(&r.agent.client),
        shown(&r.agent.session),
        shown(&r.tool)
    );
    if let Some(code) = &r.code {
        line.push_str(&format!(" {}", shown(code)));
    }
    if let Some(what) = &r.revealed {
        line.push_str(&format!(" REVEALED {}", shown(what)));
    }
    line.push_str(&format!(" {}ms", r.ms));
    if let Some(tab) = r.tab {
        line.push_str(&format!(" tab {tab}"));
    }
    if let Some(url) = &r.url {
        line.push_str(&format!(" {}", shown(url)));
    }
    if let Some(t) = &r.target {
        if let Some(reference) = &t.reference {
            line.push_str(&format!(" {}", shown(reference)));
        }
        if let Some(element) = &t.element {
            line.push_str(&format!(
                " {}",
                shown(&Value::from(element.as_str()).to_string())
            ));
        }
    }
    for (k, v) in &r.args {
        line.push_str(&format!(" {}={}", shown(k), value(v)));
    }
    line
}

/// A value of the arguments: a length as `(N chars)`, a file as `name (N bytes)`, else JSON;
/// whatever the agent sent (keys included) escaped for the terminal. Any shape reads: an
/// argument is recorded before it is checked.
fn value(v: &Value) -> String {
    let field = |o: &serde_json::Map<String, Value>, k: &str| o.get(k).cloned();
    match v {
        Value::Object(o) if o.len() == 1 && o.get("len").is_some_and(Value::is_u64) => {
            format!("({} chars)", o["len"])
        }
        Value::Object(o) if o.len() == 2 && o.contains_key("name") && o.contains_key("bytes") => {
            let (name, bytes) = (field(o, "name"), field(o, "bytes"));
            let (name, bytes) = (name.unwrap_or_default(), bytes.unwrap_or_default());
            format!(
                "{} ({} bytes)",
                shown(&name.to_string()),
                shown(&bytes.to_string())
            )
        }
        Value::Object(o) => {
            let inner: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}={}", shown(k), value(v)))
                .collect();
            format!("{{{}}}", inner.join(" "))
        }
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(value).collect();
            format!("[{}]", inner.join(", "))
        }
        other => shown(&other.to_string()),
    }
}

/// A word from the file, with anything a terminal would act on (controls, bidi and zero-width
/// characters) escaped.
fn shown(s: &str) -> String {
    crate::shared::terminal::line(s).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn since_takes_a_time_or_a_span() {
        let t = since("2025-06-01T10:00:00Z").unwrap();
        assert_eq!(t.to_rfc3339(), "2025-06-01T10:00:00+00:00");
        let ten = Utc::now() - since("10m").unwrap();
        assert!((599..=601).contains(&ten.num_seconds()), "{ten}");
        assert!((Utc::now() - since("2h").unwrap()).num_minutes() >= 119);
        for bad in ["", "10", "m", "10y", "-5m", "99999999999999999d"] {
            assert!(since(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_call_reads_as_one_line_with_lengths_for_what_was_typed() {
        let record: Record = serde_json::from_value(json!({
            "time": "2025-06-01T10:00:00.123Z",
            "agent": {"client": "claude-code", "session": "agent:0123456789ab"},
            "tool": "browser_fill_form", "browser": "b1", "tab": 7,
            "origin": "http://127.0.0.1:8000", "url": "http://127.0.0.1:8000/pay\u{1b}[2J",
            "args": {"fields": [{"ref": "e1", "value": {"len": 16}}],
                     "paths": [{"name": "a.pdf", "bytes": 10}]},
            "outcome": "partial", "code": null, "ms": 42
        }))
        .unwrap();
        assert_eq!(
            readable(&record),
            "2025-06-01T10:00:00.123Z claude-code agent:0123456789ab browser_fill_form partial \
             42ms tab 7 http://127.0.0.1:8000/pay\\u{1b}[2J \
             fields=[{ref=\"e1\" value=(16 chars)}] paths=[\"a.pdf\" (10 bytes)]"
        );
    }

    /// Issue 28, findings 6 and 7: an argument is recorded before it is checked, so any shape
    /// reaches the trail; a one-key object that is not a length made `tabpilot audit` panic,
    /// and a nested key reached the terminal raw.
    #[test]
    fn any_argument_an_agent_sends_reads_without_a_panic_or_a_raw_escape() {
        let record: Record = serde_json::from_value(json!({
            "time": "2025-06-01T10:00:00.123Z", "tool": "browser_click", "ms": 1,
            "agent": {"client": "evil\u{202e}name", "session": "s"},
            "args": {"ref": {"x": 1}, "files": [{"name": 1, "bytes": "\u{1b}[2J"}],
                     "k": {"\u{1b}]0;pwned\u{7}\u{1b}[2J": {"len": "no"}},
                     "s": "\u{200b}\u{1b}]52;c;aGk=\u{7}"}
        }))
        .unwrap();
        let line = readable(&record);
        assert!(
            !line.chars().any(crate::shared::terminal::is_unsafe),
            "{line}"
        );
        assert!(line.contains("ref={x=1}"), "{line}");
        assert!(
            line.contains("k={\\u{1b}]0;pwned\\u{7}\\u{1b}[2J={len=\"no\"}}"),
            "{line}"
        );
        assert!(line.contains("evil\\u{202e}name"), "{line}");
    }
}
