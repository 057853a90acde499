//! The local-application tools: list what is installed and running, open one, inspect a window's
//! accessibility tree, operate an element of it. Listed only when the person turns them on
//! (`TABPILOT_APPS`, or the group `apps` in `TABPILOT_TOOLS`).

mod inspect;
mod operate;

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::args::acts;
use super::ctx::Ctx;
use super::paging::{footer, page_arg, page_of, pages};
use super::spec::{Hints, Keeps, Out};
use super::tool::{About, Tool};
use crate::controller::apps::desktop::{self, Entry};
use crate::controller::apps::{self, Running, launch};
use crate::shared::error::{Code, Outcome, ToolError};

/// Installed applications in one page.
const PAGE: u64 = 25;
/// How long open waits for the first window, unless told.
const OPEN_WAIT: Duration = Duration::from_secs(15);
const MAX_OPEN_WAIT_MS: u64 = 60_000;

pub(super) fn tools() -> Vec<Tool> {
    let reads = Hints {
        read_only: true,
        ..Hints::default()
    };
    vec![
        Tool::new(
            About {
                name: "list_local_applications",
                description: "Installed desktop applications (id, name) and running ones with an accessibility tree (pid, windows).",
                hints: reads,
                keeps: Keeps::args(&["query"]),
                ..About::default()
            },
            |cx, a| list(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "open_local_application",
                description: "Launch an application by desktop id (files, http(s) urls optional); waits for its first window.",
                hints: acts(),
                keeps: Keeps {
                    args: &["app"],
                    files: Some("files"),
                    ..Keeps::default()
                },
                ..About::default()
            },
            |cx, a| open(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "inspect_local_application",
                description: "A window's accessibility tree as an outline with refs (app by id or name, or pid).",
                hints: reads,
                keeps: Keeps::args(&["app", "pid", "window", "maxNodes"]),
                ..About::default()
            },
            |cx, a| inspect::inspect(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "operate_local_application",
                description: "Act on an element by ref: click, focus, set_text, set_value, select, toggle, press_key. Says what changed.",
                hints: acts(),
                ..About::default()
            },
            |cx, a| operate::operate(cx, a).boxed(),
        ),
    ]
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ListArgs {
    /// Words in the name, id or categories.
    query: Option<String>,
    page: Option<u64>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct Installed {
    id: String,
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    generic_name: Option<String>,
    categories: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct RunningOut {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pid: Option<u32>,
    /// Its desktop id, where tabpilot can tell.
    #[serde(skip_serializing_if = "Option::is_none")]
    id: Option<String>,
    windows: Vec<String>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListOut {
    installed: Vec<Installed>,
    running: Vec<RunningOut>,
    total: u64,
    page: u64,
    pages: u64,
}

fn matches(e: &Entry, query: &str) -> bool {
    let hay = format!(
        "{} {} {} {}",
        e.id,
        e.name,
        e.generic_name.as_deref().unwrap_or_default(),
        e.categories.join(" ")
    )
    .to_lowercase();
    query
        .to_lowercase()
        .split_whitespace()
        .all(|w| hay.contains(w))
}

/// The desktop id of a running application: the one tabpilot launched it as, else the entry
/// whose program it runs.
fn id_of(cx: &Ctx, app: &Running, entries: &[Entry]) -> Option<String> {
    let pid = app.pid?;
    let launched = cx.apps().state().launched_id(pid);
    launched.or_else(|| apps::entry_of_pid(pid, entries))
}

async fn list(cx: &Ctx, a: ListArgs) -> Result<Out<ListOut>, ToolError> {
    let page = page_arg(a.page)?;
    let query = a.query.unwrap_or_default();
    let entries = desktop::entries().await?;
    let shown: Vec<&Entry> = entries
        .iter()
        .filter(|e| !e.hidden && matches(e, &query))
        .collect();
    let total = shown.len() as u64;
    let installed: Vec<Installed> = page_of(shown, page, PAGE)?
        .into_iter()
        .map(|e| Installed {
            id: e.id.clone(),
            name: e.name.clone(),
            generic_name: e.generic_name.clone(),
            categories: e.categories.clone(),
        })
        .collect();
    let mut lines = vec![format!("Installed ({total} in all):")];
    for e in &installed {
        lines.push(format!(
            "- {} \"{}\" ({})",
            e.id,
            e.name,
            e.categories.join(", ")
        ));
    }
    lines.push(footer(
        "list_local_applications",
        page,
        total,
        PAGE,
        json!({ "query": query }),
    ));
    let (running, outcome) = match running_list(cx, &entries, &query).await {
        Ok(r) => (r, Outcome::Done),
        Err(e) => {
            lines.push(format!("Running: not readable ({})", e.text()));
            (Vec::new(), Outcome::Partial)
        }
    };
    if !running.is_empty() {
        lines.push("Running with an accessibility tree:".into());
    }
    for r in &running {
        let id =
            r.id.as_deref()
                .map(|i| format!(" ({i})"))
                .unwrap_or_default();
        let pid = r.pid.map(|p| format!(" pid {p}")).unwrap_or_default();
        lines.push(format!(
            "- \"{}\"{pid}{id}: windows {:?}",
            r.name, r.windows
        ));
    }
    let data = ListOut {
        installed,
        running,
        total,
        page,
        pages: pages(total, PAGE),
    };
    Ok(Out::new(lines.join("\n"), data).with_outcome(outcome))
}

async fn running_list(
    cx: &Ctx,
    entries: &[Entry],
    query: &str,
) -> Result<Vec<RunningOut>, ToolError> {
    let running = cx.apps().bus().await?.running().await?;
    // An application outside the allow list is named as running, no more: its windows' titles
    // are its content (a terminal's, a document's name).
    Ok(running
        .iter()
        .map(|r| {
            let id = id_of(cx, r, entries);
            let readable = apps::check_allowed(id.as_deref(), &r.name).is_ok();
            RunningOut {
                name: r.name.clone(),
                pid: r.pid,
                windows: match readable {
                    true => r.windows.iter().map(|(_, t)| t.clone()).collect(),
                    false => Vec::new(),
                },
                id,
            }
        })
        .filter(|r| {
            let hay = format!("{} {}", r.name, r.id.as_deref().unwrap_or_default()).to_lowercase();
            query
                .to_lowercase()
                .split_whitespace()
                .all(|w| hay.contains(w))
        })
        .collect())
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct OpenArgs {
    /// Desktop id (list_local_applications).
    app: String,
    /// Files to open, inside the sandbox.
    files: Option<Vec<String>>,
    /// http(s) addresses to open.
    urls: Option<Vec<String>>,
    /// Ms to wait for the first window (default 15000).
    timeout: Option<u64>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct OpenOut {
    id: String,
    pid: u32,
    /// Its first window's title, once it shows one.
    #[serde(skip_serializing_if = "Option::is_none")]
    window: Option<String>,
}

async fn open(cx: &Ctx, a: OpenArgs) -> Result<Out<OpenOut>, ToolError> {
    let wait = match a.timeout {
        Some(ms) if ms > MAX_OPEN_WAIT_MS => {
            return Err(ToolError::bad_args(format!(
                "timeout is at most {MAX_OPEN_WAIT_MS} ms"
            )));
        }
        Some(ms) => Duration::from_millis(ms),
        None => OPEN_WAIT,
    };
    let entry = desktop::find(&a.app)
        .await?
        .ok_or_else(|| not_installed(&a.app))?;
    cx.apps().state().last_app = Some(entry.id.clone());
    apps::check_allowed(Some(&entry.id), &entry.name)?;
    let argv = launch::command(
        &entry,
        &a.files.unwrap_or_default(),
        &a.urls.unwrap_or_default(),
    )?;
    launch::check_launchable(&entry, &argv)?;
    let pid = launch::spawn(&argv)?;
    cx.apps().state().launched.push((pid, entry.id.clone()));
    let mut data = OpenOut {
        id: entry.id.clone(),
        pid,
        window: None,
    };
    match launch::first_window(cx.apps(), pid, wait).await {
        Ok(app) => {
            let title = app
                .windows
                .first()
                .map(|(_, t)| t.clone())
                .unwrap_or_default();
            let text = format!(
                "Opened {} (pid {pid}); window \"{title}\". Next: inspect_local_application {{\"pid\": {pid}}}",
                entry.name
            );
            data.window = Some(title);
            Ok(Out::new(text, data))
        }
        Err(e) => {
            let text = format!("Started {} (pid {pid}), but {}", entry.name, e.text());
            Ok(Out::new(text, data).with_outcome(Outcome::Partial))
        }
    }
}

/// Read-only mode's refusal of a tool that opens or operates an application.
pub(super) fn read_only(tool: &str) -> ToolError {
    ToolError::refused(
        Code::ReadOnly,
        format!(
            "{tool} acts on an application, and {} is on",
            crate::shared::settings::Setting::ReadOnly
        ),
    )
    .recovered_by("inspect_local_application")
}

fn not_installed(app: &str) -> ToolError {
    ToolError::refused(
        Code::NotFound,
        format!("no installed application has the desktop id {app:?}"),
    )
    .recovered_by("list_local_applications")
}
