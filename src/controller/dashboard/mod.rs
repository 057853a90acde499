//! `tabpilot dashboard`: a local page showing, live, the browsers, the agents with their tabs and
//! lease ages, and the last calls in the audit trail; a person releases an agent from it. The
//! page is plain HTML, CSS and JavaScript built into the binary (page/), served on 127.0.0.1
//! only, to the holder of a one-time link (access.rs), behind the door all our servers have
//! (src/shared/serve/door.rs). The server is a controller like any other: its own link to the relay asks the
//! status, each browser's tab list, and a release.

mod access;
mod view;

use std::net::Ipv4Addr;
use std::ops::RangeInclusive;
use std::path::PathBuf;
use std::sync::Arc;

use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::json;

use crate::controller::link::Link;
use crate::shared::protocol::{AgentId, PeerInfo, ask};

/// The name the dashboard's link gives the relay.
pub const NAME: &str = "tabpilot dashboard";
/// Where it listens when no port is given: the first free of these, beside `mcp --http`'s.
const PORTS: RangeInclusive<u16> = 47330..=47339;

#[derive(Clone)]
struct Shared {
    link: Arc<Link>,
    audit: PathBuf,
}

/// Serves the dashboard on 127.0.0.1 until interrupted; `port` 0 lets the system pick one.
pub async fn run(port: Option<u16>) -> anyhow::Result<()> {
    let listener = bind(port).await?;
    let port = listener.local_addr()?.port();
    let (access, key) = access::Access::new(port);
    let access = Arc::new(access);
    let info = PeerInfo {
        name: NAME.into(),
        pid: std::process::id(),
        ..Default::default()
    };
    let link = Arc::new(Link::new(info, true).map_err(|e| anyhow::anyhow!("{}", e.text()))?);
    let shared = Shared {
        link: link.clone(),
        audit: crate::controller::audit::configured_file(),
    };
    let base = access.base().to_string();
    let app = axum::Router::new()
        .route(
            &base,
            get(|| file("text/html", include_str!("page/index.html"))),
        )
        .route(
            &format!("{base}dashboard.js"),
            get(|| file("text/javascript", include_str!("page/dashboard.js"))),
        )
        .route(
            &format!("{base}dashboard.css"),
            get(|| file("text/css", include_str!("page/dashboard.css"))),
        )
        .route(&format!("{base}api/state"), get(state))
        .route(&format!("{base}api/release"), post(release))
        .route(&format!("{base}api/export/{{agent}}"), get(export))
        .with_state(shared)
        .layer(axum::middleware::from_fn(move |req, next| {
            let access = access.clone();
            async move { access.admit(req, next).await }
        }));
    println!("tabpilot dashboard: open http://127.0.0.1:{port}/?key={key}");
    eprintln!(
        "(the link works once, in one browser: it trades its key for a cookie; Ctrl-C stops the \
         dashboard)"
    );
    tokio::select! {
        served = crate::shared::serve::door::serve(listener, app) => served?,
        _ = crate::shared::serve::interrupted() => {}
    }
    link.stop();
    Ok(())
}

/// The port asked for on 127.0.0.1, or the first free of [`PORTS`].
async fn bind(port: Option<u16>) -> anyhow::Result<tokio::net::TcpListener> {
    if let Some(port) = port {
        return Ok(tokio::net::TcpListener::bind((Ipv4Addr::LOCALHOST, port)).await?);
    }
    crate::shared::serve::first_free(PORTS, "--port PORT").await
}

async fn file(kind: &'static str, body: &'static str) -> Response {
    let kind = format!("{kind}; charset=utf-8");
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

async fn state(State(s): State<Shared>) -> Response {
    axum::Json(view::gather(&s.link, &s.audit).await).into_response()
}

/// An agent's recording as a Playwright test, from the recording on disk (the MCP server keeps
/// it there with `TABPILOT_RECORD=1`; the dashboard is another process).
async fn export(axum::extract::Path(agent): axum::extract::Path<String>) -> Response {
    let filter = crate::controller::record::Filter {
        agent_id: Some(agent.clone()),
        ..Default::default()
    };
    let path = crate::controller::record::file();
    let steps = crate::shared::blocking::run("reading the recording", move || {
        Ok(crate::controller::record::read(&path, &filter))
    })
    .await
    .unwrap_or_default();
    if steps.is_empty() {
        let said = "No recording of this agent on disk: its MCP server records there with \
                    TABPILOT_RECORD=1.\n";
        return (StatusCode::NOT_FOUND, said).into_response();
    }
    let name = format!("attachment; filename=\"tabpilot-{agent}.spec.ts\"");
    let headers = [
        (
            header::CONTENT_TYPE,
            "text/plain; charset=utf-8".to_string(),
        ),
        (header::CONTENT_DISPOSITION, name),
    ];
    (
        headers,
        crate::controller::record::playwright::script(
            &steps,
            &crate::controller::tools::registry::recordable(),
        ),
    )
        .into_response()
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ReleaseArgs {
    agent: AgentId,
}

/// A person releases an agent: the tabs it opened close, the others stay open, and its next
/// call is LEASE_LOST saying a person released it.
async fn release(State(s): State<Shared>, axum::Json(a): axum::Json<ReleaseArgs>) -> Response {
    let release = ask::Release {
        agent: Some(a.agent),
        close_opened: true,
    };
    match s.link.ask(release).await {
        Ok(released) => axum::Json(released).into_response(),
        Err(e) => (
            StatusCode::BAD_REQUEST,
            axum::Json(json!({"error": {"code": e.code.as_str(), "message": e.message}})),
        )
            .into_response(),
    }
}
