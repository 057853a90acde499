//! `tabpilot mcp --http`: MCP over Streamable HTTP, with rmcp's transport (sessions, SSE streams,
//! resumption). Each MCP session is an agent of its own, as a stdio server is: its own link to
//! the relay, its own tab, its books ended with the session (DELETE, or rmcp's idle timeout).
//!
//! Every request carries the token, on loopback too: another user's process on this machine can
//! reach a loopback port as well as ours can, and a browser page can be made to (DNS
//! rebinding), so the port alone proves nothing. `Host` and `Origin` are checked besides, by
//! rmcp: loopback names only when bound to loopback, and no browser origin but a loopback one.
//! Connections come in through the door all our servers have (src/door.rs): a bounded number
//! not yet proven by the token, and a few seconds for each request's head.
//!
//! The server binds the port it is configured for (127.0.0.1:47320, or `--http HOST:PORT`) or
//! stops, naming who holds it: clients are configured with a URL, and a server that moved to
//! another port would leave them sending the token to whoever took the first. It answers a
//! proof that it holds the token (proof.rs) without asking for it, and records its URL in the
//! state directory, so that `tabpilot install --http` writes the URL of a server that is running.

pub mod proof;
mod sessions;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::{Query, Request};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::Server;
use crate::launch::{self, LaunchOptions};
use crate::protocol::PeerInfo;
use crate::serve::Secret;
use crate::settings::Setting;
use crate::tools::Session;
use crate::tools::profile::Profile;
use sessions::Sessions;

/// Where the server listens when no address is given, beside the relay's range (47311-47315).
pub const DEFAULT_ADDR: SocketAddr =
    SocketAddr::new(IpAddr::V4(std::net::Ipv4Addr::LOCALHOST), 47320);

/// Why the server could not start listening.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("--http takes HOST:PORT, like 127.0.0.1:47320 ({0})")]
    BadAddress(String),
    #[error(
        "{addr} is taken by {holder}. tabpilot mcp --http serves only the port it is configured \
         for, never the next free one: a client configured for {addr} would send its token to \
         whoever holds it. Stop that program, or serve elsewhere: `tabpilot mcp --http \
         127.0.0.1:PORT`, then `tabpilot install CLIENT --http http://127.0.0.1:PORT/mcp`"
    )]
    PortTaken { addr: SocketAddr, holder: String },
    #[error("cannot listen on {addr}: {source}")]
    Io {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// Browser origins a request may come from: loopback pages only (a local web client).
const ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

pub struct HttpOptions {
    /// `HOST:PORT` to bind, or none for [`DEFAULT_ADDR`].
    pub addr: Option<String>,
    pub launch: Option<LaunchOptions>,
}

/// Serves MCP over Streamable HTTP until interrupted (Ctrl-C or SIGTERM).
pub async fn serve_http(opts: HttpOptions) -> anyhow::Result<()> {
    let profile = Profile::from_env().map_err(anyhow::Error::msg)?;
    // One session made now, for what every session needs (the policy, the relay's secret), so a
    // setting that cannot work stops the server at start, not its first client; it also owns a
    // browser launched for all of them.
    let first = Session::new(info(), None)?;
    let listener = bind(opts.addr.as_deref()).await?;
    let addr = listener.local_addr()?;
    let token = token()?;
    let launched = match &opts.launch {
        Some(o) => Some(
            launch::start(o, first.link(), std::time::Duration::from_secs(30))
                .await
                .map_err(|e| anyhow::anyhow!("{}", e.text()))?,
        ),
        None => None,
    };

    let stop = CancellationToken::new();
    let catalog = super::catalog(&profile);
    let manager = Arc::new(LocalSessionManager::default());
    let service = StreamableHttpService::new(
        move || {
            let session =
                Session::new(info(), None).map_err(|e| std::io::Error::other(e.text()))?;
            Ok(Server {
                session: Arc::new(session),
                profile: profile.clone(),
                catalog: catalog.clone(),
            })
        },
        manager.clone(),
        config(addr.ip(), stop.child_token()),
    );
    let app = app(service, Sessions::new(manager), &token, addr.port());
    let url = format!("http://{addr}/mcp");
    let record = Record::write(&url)?;

    println!("tabpilot mcp: MCP over Streamable HTTP at http://{addr}/mcp");
    println!(
        "token: {token} (send `Authorization: Bearer TOKEN`, or put `?token=TOKEN` in the URL)"
    );
    tokio::select! {
        served = crate::door::serve(listener, app) => served?,
        _ = crate::serve::interrupted() => stop.cancel(),
    }
    drop(record);
    if let Some(browser) = launched {
        browser.close();
    }
    tokio::task::spawn_blocking(move || first.shutdown()).await?;
    Ok(())
}

fn info() -> PeerInfo {
    PeerInfo {
        name: "tabpilot mcp --http".into(),
        pid: std::process::id(),
        ..Default::default()
    }
}

/// The address asked for, or [`DEFAULT_ADDR`]; a port another program holds is an error that
/// names it, never a move to another port.
async fn bind(addr: Option<&str>) -> Result<tokio::net::TcpListener, ListenError> {
    let addr: SocketAddr = match addr {
        Some(a) => a
            .parse()
            .map_err(|e: std::net::AddrParseError| ListenError::BadAddress(e.to_string()))?,
        None => DEFAULT_ADDR,
    };
    match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => Ok(listener),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => Err(ListenError::PortTaken {
            addr,
            holder: crate::holder::of_port(addr.port()).map_or_else(
                || "a program the system does not name (another user's?)".to_string(),
                |h| h.to_string(),
            ),
        }),
        Err(source) => Err(ListenError::Io { addr, source }),
    }
}

/// The routes: `/mcp` behind the token and the bounds on sessions, and the proof beside it,
/// which asks for none.
fn app(
    service: StreamableHttpService<Server, LocalSessionManager>,
    sessions: Sessions,
    token: &str,
    port: u16,
) -> axum::Router {
    let sessions = Arc::new(sessions);
    let key = Arc::new(Key(Secret::new(token)));
    let token = Arc::new(token.to_string());
    let prove = move |Query(q): Query<HashMap<String, String>>| {
        let token = token.clone();
        async move {
            match q.get("nonce").filter(|n| proof::fair_nonce(n)) {
                Some(nonce) => (StatusCode::OK, proof::proof(&token, port, nonce)).into_response(),
                None => (StatusCode::BAD_REQUEST, "nonce: 32 to 128 hex digits").into_response(),
            }
        }
    };
    axum::Router::new()
        .nest_service("/mcp", service)
        .layer(axum::middleware::from_fn(move |req, next| {
            let sessions = sessions.clone();
            async move { sessions.admit(req, next).await }
        }))
        .layer(axum::middleware::from_fn(move |req, next| {
            let key = key.clone();
            async move { key.admit(req, next).await }
        }))
        .route(proof::PATH, axum::routing::get(prove))
}

/// The running server's URL and pid, owner-only in the state directory while it serves
/// (`http-server`), for `tabpilot install --http` to find it.
struct Record(std::path::PathBuf);

impl Record {
    fn write(url: &str) -> std::io::Result<Record> {
        let dir = crate::state::state_dir();
        crate::state::ensure_private_dir(&dir)?;
        let path = dir.join("http-server");
        let url = url.replace("//0.0.0.0:", "//127.0.0.1:");
        crate::state::write_private(&path, format!("{url} {}\n", std::process::id()).as_bytes())?;
        Ok(Record(path))
    }
}

impl Drop for Record {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

/// The URL a running `tabpilot mcp --http` of this state directory recorded, if its process is
/// still there (whether it answers is for the proof to say).
pub fn recorded_url() -> Option<String> {
    let text = std::fs::read_to_string(crate::state::state_dir().join("http-server")).ok()?;
    let mut words = text.split_whitespace();
    let (url, pid) = (words.next()?, words.next()?);
    let pid: u32 = pid.parse().ok()?;
    std::path::Path::new(&format!("/proc/{pid}"))
        .exists()
        .then(|| url.to_string())
}

/// The token the server asks of every request: `TABPILOT_TOKEN`, or the one made on first use in
/// the state directory. `tabpilot install --http` writes the same into a client's config.
pub fn token() -> anyhow::Result<String> {
    match Setting::Token.get() {
        Some(t) if t.trim().len() >= 16 => Ok(t.trim().to_string()),
        Some(_) => anyhow::bail!("{} must be at least 16 characters", Setting::Token),
        None => Ok(crate::state::http_token()?),
    }
}

/// rmcp's checks against DNS rebinding: on loopback, a `Host` that is a loopback name; past
/// loopback, any `Host` (the token is what a rebinding page cannot have); and no `Origin` but a
/// loopback one.
fn config(ip: IpAddr, stop: CancellationToken) -> StreamableHttpServerConfig {
    let config = StreamableHttpServerConfig::default()
        .with_cancellation_token(stop)
        .with_allowed_origins(ORIGINS)
        .enforce_origin_validation();
    if ip.is_loopback() {
        config
    } else {
        config.disable_allowed_hosts()
    }
}

/// The token every request must carry.
struct Key(Secret);

impl Key {
    /// Lets a request with the token through: `Authorization: Bearer TOKEN`, or `token=TOKEN`
    /// in the query (for clients that take only a URL). Anything else is 401.
    async fn admit(&self, req: Request, next: Next) -> Response {
        let bearer = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let query = crate::serve::query_value(req.uri(), "token");
        let given = bearer.map(str::to_string).or(query);
        if given.is_some_and(|t| self.0.matches(&t)) {
            crate::door::proven(&req);
            return next.run(req).await;
        }
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "tabpilot: this needs the token `tabpilot mcp --http` printed (TABPILOT_TOKEN)",
        )
            .into_response()
    }
}
