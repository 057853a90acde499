//! browser_downloads: the downloads the agent's tabs started, and waiting for one to end. The
//! extension attributes each download to the tab that started it (sw/downloads.js); this side
//! words the list and says whether a finished file is one that tools reading files (an upload)
//! can take, through the path sandbox.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::{hints_of, timeout};
use super::ctx::Ctx;
use super::spec::{Keeps, Out};
use super::tool::{About, Tool};
use crate::controller::policy::paths::Sandbox;
use crate::shared::error::ToolError;
use crate::shared::protocol::Op;
use crate::shared::protocol::wire::downloads::{Download, Downloads, DownloadsOut, State, WaitFor};

/// Most downloads listed in the text (all of them are in the data).
const SHOWN: usize = 10;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DownloadsArgs {
    /// An id to wait for, or true: your newest (or next).
    wait: Option<WaitFor>,
    timeout: Option<u64>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_downloads",
            description: "Downloads your tabs started (path, URL, type, size, state, danger); wait for one.",
            hints: hints_of(Op::Downloads),
            keeps: Keeps::args(&["wait"]),
            ..About::default()
        },
        |cx, a| downloads(cx, a).boxed(),
    )]
}

async fn downloads(cx: &Ctx, a: DownloadsArgs) -> Result<Out<DownloadsOut>, ToolError> {
    let wait = match a.wait {
        Some(WaitFor::Newest(false)) | None => {
            if a.timeout.is_some() {
                return Err(ToolError::bad_args("timeout goes with wait"));
            }
            None
        }
        w => w,
    };
    let limit = timeout(Some(a.timeout.unwrap_or(30_000)))?;
    let out = cx.run(Downloads { wait }).within(limit).await?;
    let sandbox = cx.sandbox().await;
    let mut lines: Vec<String> = out
        .downloads
        .iter()
        .take(SHOWN)
        .map(|d| line(d, &sandbox))
        .collect();
    if out.downloads.is_empty() {
        lines.push("No downloads from your tabs yet.".into());
    } else if out.downloads.len() > SHOWN {
        lines.push(format!(
            "… {} more in the data",
            out.downloads.len() - SHOWN
        ));
    }
    Ok(Out::new(lines.join("\n"), out))
}

/// One download in one line: id, state, file (or, for another agent's, only where it came
/// from), size, type, Chrome's verdict when it is not plainly safe.
fn line(d: &Download, sandbox: &Sandbox) -> String {
    let state = match d.state {
        State::Complete => "complete".to_string(),
        State::InProgress => match d.total_bytes {
            Some(total) => format!("in progress {}/{total} bytes", d.bytes),
            None => format!("in progress {} bytes", d.bytes),
        },
        State::Interrupted => format!(
            "interrupted ({})",
            d.error.as_deref().unwrap_or("no reason given")
        ),
    };
    let mut s = format!("- {} {state}", d.id);
    match (&d.file, d.mine) {
        (Some(file), true) => s.push_str(&format!(" {file}")),
        _ => s.push_str(&format!(" another agent's, from {}", d.url)),
    }
    if d.mine {
        s.push_str(&format!(" from {}", d.url));
    }
    if d.state == State::Complete {
        s.push_str(&format!(" {} bytes", d.bytes));
    }
    if let Some(mime) = &d.mime {
        s.push_str(&format!(" {mime}"));
    }
    if !matches!(d.danger.as_str(), "safe" | "accepted") {
        s.push_str(&format!(
            " danger: {} (the person accepts or discards it in the browser)",
            d.danger
        ));
    }
    if d.mine
        && d.state == State::Complete
        && let Some(file) = &d.file
        && let Err(e) = sandbox.input(file)
    {
        s.push_str(&format!(
            "; tools that read files cannot take it: {}",
            e.message
        ));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn download(v: serde_json::Value) -> Download {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn a_file_outside_the_sandbox_is_said_so_and_another_agents_shows_no_file() {
        let root = crate::shared::state::test_support::temp_dir("downloads-line");
        let inside = root.join("report.csv");
        std::fs::write(&inside, "a,b\n").unwrap();
        let sandbox = Sandbox::new(vec![], vec![]);
        let mine = |file: &str| {
            download(
                json!({"id": 1, "mine": true, "url": "http://a.test/r.csv", "file": file,
                "bytes": 4, "state": "complete", "danger": "safe", "mime": "text/csv"}),
            )
        };
        let said = line(&mine(inside.to_str().unwrap()), &sandbox);
        assert!(
            said.contains("tools that read files cannot take it"),
            "{said}"
        );
        let roots = vec![crate::controller::policy::paths::Place {
            path: root.canonicalize().unwrap(),
            what: "a test root",
        }];
        let said = line(
            &mine(inside.to_str().unwrap()),
            &Sandbox::new(roots, vec![]),
        );
        assert_eq!(
            said,
            format!(
                "- 1 complete {} from http://a.test/r.csv 4 bytes text/csv",
                inside.display()
            )
        );

        let theirs = download(json!({"id": 2, "mine": false, "url": "http://a.test",
            "bytes": 0, "state": "in_progress", "danger": "file"}));
        let said = line(&theirs, &sandbox);
        assert!(
            said.starts_with("- 2 in progress 0 bytes another agent's, from http://a.test"),
            "{said}"
        );
        assert!(said.contains("danger: file"), "{said}");
        let _ = std::fs::remove_dir_all(root);
    }
}
