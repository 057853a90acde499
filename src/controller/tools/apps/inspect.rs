//! inspect_local_application: a running application's window as an outline with refs.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::super::ctx::Ctx;
use super::super::spec::Out;
use super::id_of;
use crate::controller::apps::{self, desktop};
use crate::controller::apps::{Obj, Running, launch, outline};
use crate::shared::error::{Code, ToolError};

/// Elements read when no budget is given: a dialog or a calculator whole, a big window's start.
const MAX_NODES: usize = 400;
const MAX_NODES_CAP: usize = 5000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct InspectArgs {
    /// Desktop id or name of a running application.
    app: Option<String>,
    pid: Option<u32>,
    /// Words of the window's title (default: its first window).
    window: Option<String>,
    /// Elements read at most (default 400).
    max_nodes: Option<usize>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct InspectOut {
    app: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pid: Option<u32>,
    window: String,
    outline: String,
    /// Elements left unread past maxNodes.
    unread: usize,
}

pub(super) async fn inspect(cx: &Ctx, a: InspectArgs) -> Result<Out<InspectOut>, ToolError> {
    let max = a.max_nodes.unwrap_or(MAX_NODES);
    if max == 0 || max > MAX_NODES_CAP {
        return Err(ToolError::bad_args(format!(
            "maxNodes is from 1 to {MAX_NODES_CAP}"
        )));
    }
    let (app, label) = target(cx, a.app.as_deref(), a.pid).await?;
    cx.apps().state().last_app = Some(label.clone());
    let (window, title) = pick_window(&app, a.window.as_deref())?;
    let (text, unread) = window_outline(cx, &window, &label, max).await?;
    let data = InspectOut {
        app: label.clone(),
        pid: app.pid,
        window: title.clone(),
        outline: text.clone(),
        unread,
    };
    let pid = app.pid.map(|p| format!(", pid {p}")).unwrap_or_default();
    Ok(Out::new(
        format!("Window \"{title}\" of {label}{pid}:\n{text}"),
        data,
    ))
}

/// Reads a window's outline and keeps it as this session's last of that window.
pub(super) async fn window_outline(
    cx: &Ctx,
    window: &Obj,
    label: &str,
    max: usize,
) -> Result<(String, usize), ToolError> {
    let tree = cx.apps().bus().await?.tree(window, max).await?;
    let mut state = cx.apps().state();
    let text = outline::render(&tree, &mut state.refs, label);
    state.remember(window, text.clone(), max);
    Ok((text, tree.unread))
}

/// The running application named by desktop id, name or pid, and how to call it.
async fn target(
    cx: &Ctx,
    app: Option<&str>,
    pid: Option<u32>,
) -> Result<(Running, String), ToolError> {
    if app.is_none() == pid.is_none() {
        return Err(ToolError::bad_args("name one of app and pid"));
    }
    let running = cx.apps().bus().await?.running().await?;
    let entries = desktop::entries().await?;
    let mut fits: Vec<(Running, String)> = running
        .into_iter()
        .filter_map(|r| {
            let id = id_of(cx, &r, &entries);
            let fit = match (app, pid) {
                (_, Some(p)) => r.pid.is_some_and(|rp| launch::descends(rp, p)),
                (Some(name), None) => {
                    id.as_deref() == Some(name.strip_suffix(".desktop").unwrap_or(name))
                        || r.name.eq_ignore_ascii_case(name)
                }
                (None, None) => false,
            };
            fit.then(|| {
                let label = id.unwrap_or_else(|| r.name.clone());
                (r, label)
            })
        })
        .collect();
    match fits.len() {
        1 => {
            // The allow list bounds reading too: a window outside it may show anything (a
            // terminal's scrollback).
            let (r, label) = fits.remove(0);
            let id = id_of(cx, &r, &entries);
            apps::check_allowed(id.as_deref(), &label)?;
            Ok((r, label))
        }
        0 => Err(not_running(app, pid)),
        _ => {
            let pids: Vec<String> = fits
                .iter()
                .map(|(r, _)| r.pid.map_or("?".into(), |p| p.to_string()))
                .collect();
            Err(ToolError::refused(
                Code::ElementAmbiguous,
                format!(
                    "{} instances run (pids {}); name one by pid",
                    fits.len(),
                    pids.join(", ")
                ),
            )
            .recovered_by("inspect_local_application with its pid"))
        }
    }
}

fn not_running(app: Option<&str>, pid: Option<u32>) -> ToolError {
    if let Some(p) = pid
        && std::path::Path::new(&format!("/proc/{p}")).exists()
    {
        return ToolError::failed(
            Code::AppNoTree,
            format!("pid {p} runs, but shows no accessibility tree"),
        );
    }
    let who = app.map_or_else(
        || format!("pid {}", pid.unwrap_or_default()),
        str::to_string,
    );
    ToolError::failed(
        Code::AppGone,
        format!("{who} is not running with an accessibility tree"),
    )
    .recovered_by("list_local_applications, or open_local_application")
}

/// The window whose title holds `words`, else the first.
fn pick_window(app: &Running, words: Option<&str>) -> Result<(Obj, String), ToolError> {
    let found = match words {
        None => app.windows.first(),
        Some(w) => {
            let w = w.to_lowercase();
            app.windows
                .iter()
                .find(|(_, t)| t.to_lowercase().contains(&w))
        }
    };
    found.cloned().ok_or_else(|| match words {
        None => ToolError::failed(Code::AppNoTree, format!("{} shows no window", app.name)),
        Some(w) => {
            let titles: Vec<&str> = app.windows.iter().map(|(_, t)| t.as_str()).collect();
            ToolError::refused(
                Code::NotFound,
                format!(
                    "no window of {} has {w:?} in its title; its windows: {titles:?}",
                    app.name
                ),
            )
            .recovered_by("list_local_applications")
        }
    })
}
