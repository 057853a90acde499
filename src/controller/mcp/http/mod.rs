//! `tabpilot mcp --http`: MCP over Streamable HTTP, with rmcp's transport (sessions, SSE streams,
//! resumption). Each MCP session is an agent of its own, as a stdio server is: its own link to
//! the relay, its own tab, its books ended with the session (DELETE, or rmcp's idle timeout).
//!
//! Every request carries the token, on loopback too: another user's process on this machine can
//! reach a loopback port as well as ours can, and a browser page can be made to (DNS
//! rebinding), so the port alone proves nothing. `Host` and `Origin` are checked besides, by
//! rmcp: loopback names only when bound to loopback, and no browser origin but a loopback one.
//! Connections come in through the door all our servers have (src/shared/serve/door.rs): a bounded number
//! not yet proven by the token, and a few seconds for each request's head.
//!
//! The server binds the port it is configured for (127.0.0.1:47320, `TABPILOT_HTTP_PORT`, or
//! `--http HOST:PORT`) or
//! stops, naming who holds it: clients are configured with a URL, and a server that moved to
//! another port would leave them sending the token to whoever took the first. It answers a
//! proof that it holds the token (proof.rs) without asking for it, and records its URL in the
//! state directory, so that `tabpilot install --http` writes the URL of a server that is running.
//!
//! With `--tls` it serves HTTPS (tls.rs), and may then serve past loopback; plain HTTP past
//! loopback needs `--allow-plain-http`.

pub mod proof;
mod sessions;
pub mod tls;
pub mod token;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;

use axum::extract::Query;
use axum::http::StatusCode;
use axum::response::IntoResponse;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use tokio_util::sync::CancellationToken;

use super::Server;
use crate::controller::launch::{self, LaunchOptions};
use crate::controller::tools::Session;
use crate::controller::tools::profile::Profile;
use crate::shared::protocol::PeerInfo;
use crate::shared::serve::guesses::Guesses;
use crate::shared::settings::Setting;
use sessions::Sessions;
use token::{Key, Token};

/// The port the server listens on when no address is given, beside the relay's range
/// (47311-47315); `TABPILOT_HTTP_PORT` moves it.
pub const DEFAULT_PORT: u16 = 47320;

/// Where the server listens when no address is given: loopback, at `TABPILOT_HTTP_PORT` or
/// [`DEFAULT_PORT`]; a setting that is not a port is an error naming it.
pub fn default_addr() -> Result<SocketAddr, ListenError> {
    let port = match Setting::HttpPort.get() {
        None => DEFAULT_PORT,
        Some(text) => text
            .trim()
            .parse()
            .ok()
            .filter(|&p: &u16| p != 0)
            .ok_or_else(|| {
                ListenError::BadSetting(format!(
                    "{}={text:?} is not a port (1-65535)",
                    Setting::HttpPort
                ))
            })?,
    };
    Ok(SocketAddr::new(
        IpAddr::V4(std::net::Ipv4Addr::LOCALHOST),
        port,
    ))
}

/// Why the server could not start listening.
#[derive(Debug, thiserror::Error)]
pub enum ListenError {
    #[error("--http takes HOST:PORT, like 127.0.0.1:47320 ({0})")]
    BadAddress(String),
    #[error("{0}")]
    BadSetting(String),
    #[error(
        "{addr} is taken by {holder}. tabpilot mcp --http serves only the port it is configured \
         for, never the next free one: a client configured for {addr} would send its token to \
         whoever holds it. Stop that program, or serve elsewhere: `tabpilot mcp --http \
         127.0.0.1:PORT`, then `tabpilot install CLIENT --http http://127.0.0.1:PORT/mcp`"
    )]
    PortTaken { addr: SocketAddr, holder: String },
    #[error(
        "{addr} is past loopback, and tabpilot mcp --http serves plain HTTP: the token and \
         everything the agents read would cross the network in clear. Serve HTTPS (`--tls`), \
         or serve on loopback (`--http 127.0.0.1:PORT`) and reach it through an SSH tunnel \
         (`ssh -L PORT:127.0.0.1:PORT HOST`) or a TLS proxy, or give --allow-plain-http to \
         serve it anyway"
    )]
    PastLoopback { addr: SocketAddr },
    #[error("cannot listen on {addr}: {source}")]
    Io {
        addr: SocketAddr,
        source: std::io::Error,
    },
}

/// Browser origins a request may come from: loopback pages only (a local web client).
const ORIGINS: [&str; 3] = ["http://localhost:*", "http://127.0.0.1:*", "http://[::1]:*"];

pub struct HttpOptions {
    /// `HOST:PORT` to bind, or none for [`default_addr`].
    pub addr: Option<String>,
    pub launch: Option<LaunchOptions>,
    /// Serve past loopback over plain HTTP all the same (`--allow-plain-http`).
    pub allow_plain_http: bool,
    /// Serve HTTPS (`--tls`), with the person's files (`--tls-cert`, `--tls-key`) or the made
    /// pair.
    pub tls: Option<Option<tls::TlsFiles>>,
}

/// Serves MCP over Streamable HTTP until interrupted (Ctrl-C or SIGTERM).
pub async fn serve_http(opts: HttpOptions) -> anyhow::Result<()> {
    let profile = Profile::from_env().map_err(anyhow::Error::msg)?;
    // One session made now, for what every session needs (the policy, the relay's secret), so a
    // setting that cannot work stops the server at start, not its first client; it also owns a
    // browser launched for all of them.
    let first = Session::new(info(), None)?;
    let plain_allowed = opts.allow_plain_http || opts.tls.is_some();
    let listener = bind(opts.addr.as_deref(), plain_allowed).await?;
    let addr = listener.local_addr()?;
    let token = Arc::new(Token::load()?);
    let identity = match &opts.tls {
        Some(files) => Some(tls::identity(files.as_ref(), addr.ip())?),
        None => None,
    };
    let launched = match &opts.launch {
        Some(o) => Some(
            launch::start(o, first.link(), std::time::Duration::from_secs(30))
                .await
                .map_err(|e| anyhow::anyhow!("{}", e.text()))?,
        ),
        None => None,
    };

    let stop = CancellationToken::new();
    let manager = Arc::new(LocalSessionManager::default());
    let service = service(
        profile,
        manager.clone(),
        config(addr.ip(), stop.child_token()),
    );
    let key = Key {
        token: token.clone(),
        guesses: Guesses::new(addr.port()),
    };
    let fingerprint = identity.as_ref().map(|i| i.fingerprint.clone());
    let app = app(
        service,
        Sessions::new(manager),
        key,
        addr.port(),
        fingerprint,
    );
    let scheme = if identity.is_some() { "https" } else { "http" };
    let url = format!("{scheme}://{addr}/mcp");
    let record = Record::write(&url)?;
    tell(addr, &url, &token, identity.as_ref());
    let served = async move {
        match identity {
            Some(identity) => {
                let tls = tokio_rustls::TlsAcceptor::from(identity.config);
                crate::shared::serve::door::serve_tls(listener, app, tls).await
            }
            None => crate::shared::serve::door::serve(listener, app).await,
        }
    };
    tokio::select! {
        served = served => served?,
        _ = crate::shared::serve::interrupted() => stop.cancel(),
    }
    drop(record);
    if let Some(browser) = launched {
        browser.close();
    }
    crate::shared::blocking::call("closing the session", move || first.shutdown()).await?;
    Ok(())
}

/// What the person needs at start: the URL, where the token lives, the certificate.
fn tell(addr: SocketAddr, url: &str, token: &Token, identity: Option<&tls::Identity>) {
    if !addr.ip().is_loopback() && identity.is_none() {
        eprintln!(
            "tabpilot: WARNING: serving plain HTTP on {addr}, past loopback (--allow-plain-http): \
             the token and everything the agents read cross the network in clear, and any Host \
             is served"
        );
    }
    // The token itself never: stdout is often a log file others can read.
    println!("tabpilot mcp: MCP over Streamable HTTP at {url}");
    println!(
        "token: {}; clients send it as `Authorization: Bearer TOKEN` (or `?token=TOKEN` in the \
         URL), and `tabpilot install CLIENT --http` sets that up",
        token.whereabouts()
    );
    if let Some(identity) = identity {
        tell_certificate(identity);
    }
}

/// The certificate's fingerprint, for the person to compare with what a client sees: on stdout
/// beside the URL, and on stderr.
fn tell_certificate(identity: &tls::Identity) {
    let file = identity.cert_file.display();
    println!(
        "tls: certificate {file} ({}), SHA-256 fingerprint {}; compare it with what the client \
         sees (`openssl x509 -noout -fingerprint -sha256 -in {file}`); Node clients trust it \
         with NODE_EXTRA_CA_CERTS={file}",
        identity.origin, identity.fingerprint
    );
    eprintln!(
        "tabpilot: serving HTTPS with the certificate {file}, SHA-256 fingerprint {}",
        identity.fingerprint
    );
}

/// rmcp's service: each MCP session an agent of its own.
fn service(
    profile: Profile,
    manager: Arc<LocalSessionManager>,
    config: StreamableHttpServerConfig,
) -> StreamableHttpService<Server, LocalSessionManager> {
    StreamableHttpService::new(
        move || {
            let session =
                Session::new(info(), None).map_err(|e| std::io::Error::other(e.text()))?;
            // Each session its own list: what one agent asks for, another is not given.
            Ok(Server::new(Arc::new(session.recording()), profile.clone()))
        },
        manager,
        config,
    )
}

fn info() -> PeerInfo {
    PeerInfo {
        name: "tabpilot mcp --http".into(),
        pid: std::process::id(),
        ..Default::default()
    }
}

/// The address asked for, or [`default_addr`]; a port another program holds is an error that
/// names it, never a move to another port; an address past loopback, one unless the server
/// serves TLS or the person allowed plain HTTP there (`past_loopback`).
async fn bind(
    addr: Option<&str>,
    past_loopback: bool,
) -> Result<tokio::net::TcpListener, ListenError> {
    let addr: SocketAddr = match addr {
        Some(a) => a
            .parse()
            .map_err(|e: std::net::AddrParseError| ListenError::BadAddress(e.to_string()))?,
        None => default_addr()?,
    };
    if !addr.ip().is_loopback() && !past_loopback {
        return Err(ListenError::PastLoopback { addr });
    }
    match tokio::net::TcpListener::bind(addr).await {
        Ok(listener) => Ok(listener),
        Err(e) if e.kind() == std::io::ErrorKind::AddrInUse => {
            // Who holds it is a scan of every process's descriptors: off the async workers.
            let port = addr.port();
            let holder =
                crate::shared::blocking::call("looking up who holds the port", move || {
                    crate::shared::serve::holder::of_port(port)
                });
            Err(ListenError::PortTaken {
                addr,
                holder: holder.await.ok().flatten().map_or_else(
                    || "a program the system does not name (another user's?)".to_string(),
                    |h| h.to_string(),
                ),
            })
        }
        Err(source) => Err(ListenError::Io { addr, source }),
    }
}

/// The routes: `/mcp` behind the token and the bounds on sessions, and the proof beside it,
/// which asks for none.
fn app(
    service: StreamableHttpService<Server, LocalSessionManager>,
    sessions: Sessions,
    key: Key,
    port: u16,
    cert: Option<String>,
) -> axum::Router {
    let sessions = Arc::new(sessions);
    let key = Arc::new(key);
    let token = key.token.clone();
    let prove = move |Query(q): Query<HashMap<String, String>>| {
        let token = token.text();
        let cert = cert.clone();
        async move {
            match (q.get("nonce").filter(|n| proof::fair_nonce(n)), token) {
                (Some(nonce), Some(token)) => {
                    let proof = proof::proof(&token, port, nonce, cert.as_deref());
                    (StatusCode::OK, proof).into_response()
                }
                (None, _) => {
                    (StatusCode::BAD_REQUEST, "nonce: 32 to 128 hex digits").into_response()
                }
                (_, None) => (StatusCode::SERVICE_UNAVAILABLE, "no token").into_response(),
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
        let dir = crate::shared::state::state_dir();
        crate::shared::state::ensure_private_dir(&dir)?;
        let path = dir.join("http-server");
        let url = url.replace("//0.0.0.0:", "//127.0.0.1:");
        crate::shared::state::write_private(
            &path,
            format!("{url} {}\n", std::process::id()).as_bytes(),
        )?;
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
    let text =
        std::fs::read_to_string(crate::shared::state::state_dir().join("http-server")).ok()?;
    let mut words = text.split_whitespace();
    let (url, pid) = (words.next()?, words.next()?);
    let pid: u32 = pid.parse().ok()?;
    crate::shared::platform::me::alive(pid).then(|| url.to_string())
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
