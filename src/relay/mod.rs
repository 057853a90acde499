//! The relay: one per user and port range. It owns the port, the roster of controllers and
//! browsers, the agents' books of tabs with their leases, and routing. It knows a tool only by
//! its target and whether it changes the page.

mod books;
mod codes;
mod extensions;
mod hub;
#[cfg(test)]
mod interleavings;
mod pairing;
mod peer;
mod release;
mod remote;
mod route;

use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::{ConnectInfo, State, WebSocketUpgrade};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Extension, Router};

use crate::shared::platform::private;
use crate::shared::protocol::{self, Role, handshake};
use crate::shared::serve::door;
use crate::shared::settings::Setting;
use crate::shared::state;

use hub::Door;
pub use hub::Hub;

/// How long the relay lives after its last peer leaves: `TABPILOT_RELAY_IDLE_MS`, else 5 min.
fn idle_after() -> Duration {
    Setting::RelayIdleMs
        .get()
        .and_then(|v| v.parse().ok())
        .map(Duration::from_millis)
        .unwrap_or(Duration::from_secs(300))
}

/// Where the relay listens past loopback for browsers on other computers: `listen` (the
/// command line's `--listen`), else `TABPILOT_RELAY_LISTEN`; None: loopback only.
fn past_loopback(listen: Option<String>) -> anyhow::Result<Option<std::net::SocketAddr>> {
    let Some(text) = listen.or_else(|| Setting::RelayListen.get()) else {
        return Ok(None);
    };
    text.trim().parse().map(Some).map_err(|_| {
        anyhow::anyhow!(
            "--listen takes an IP address and a port, such as 192.168.1.20:47400 or 0.0.0.0:47400 \
             (port 0: any free one); `{text}` is not one"
        )
    })
}

/// Runs the relay until it idles out. Returns at once, successfully, when another relay already
/// holds this port range: two never run at once. With `listen` (or its setting) it also listens
/// there for browsers on other computers; then another relay in the range is an error, since it
/// may not be listening there.
pub async fn run(listen: Option<String>) -> anyhow::Result<()> {
    // A relay the person started past loopback waits for the other computer however long the
    // person takes; one a controller started (with the setting) idles out as any other.
    let stays = listen.is_some();
    let listen = past_loopback(listen)?;
    let ports = protocol::port_range().map_err(anyhow::Error::msg)?;
    let secret = state::secret()?;
    state::ensure_private_dir(&state::state_dir())?;
    let mut lock = private::open(
        std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true),
        &state::relay_lock(&ports),
    )?;
    if !state::try_lock(&lock) {
        if listen.is_some() {
            anyhow::bail!(
                "another relay already runs for ports {ports:?}, listening on loopback only; stop \
                 it (its controllers start it again) or set {} to another range",
                Setting::Ports
            );
        }
        tracing::info!("another relay holds ports {ports:?}; leaving it be");
        return Ok(());
    }
    let mut bound = None;
    for port in ports.clone() {
        if let Ok(listener) = tokio::net::TcpListener::bind(("127.0.0.1", port)).await {
            bound = Some((listener, port));
            break;
        }
    }
    let Some((listener, port)) = bound else {
        anyhow::bail!(
            "no free port in {ports:?}; set {} to a free range",
            Setting::Ports
        );
    };
    tracing::info!(port, "relay listening on 127.0.0.1");
    lock.set_len(0)?;
    lock.write_all(format!("{port} {}", std::process::id()).as_bytes())?;
    let mut hub = Hub::new(secret, port, (*ports.start(), *ports.end()));
    let remote = match listen {
        Some(addr) => {
            let listener = tokio::net::TcpListener::bind(addr)
                .await
                .map_err(|e| anyhow::anyhow!("cannot listen on {addr}: {e}"))?;
            let door = remote::Remote::load(listener.local_addr()?)?;
            tracing::info!(
                addr = %door.addr,
                key = %door.fingerprint,
                "relay listening past loopback for browsers on other computers"
            );
            hub = hub.listening_past_loopback(door);
            Some(listener)
        }
        None => None,
    };
    let hub = Arc::new(hub);
    let app = Router::new()
        .route(handshake::BROWSER_PATH, get(browser_endpoint))
        .route(handshake::CONTROLLER_PATH, get(controller_endpoint))
        .route(handshake::PAIR_PATH, get(pairing::page))
        .route(handshake::CLAIM_PATH, post(pairing::claim))
        .with_state(hub.clone());
    let idle = idle_after();
    let server = door::serve(listener, app);
    let remote = async {
        match remote {
            Some(listener) => door::serve(listener, remote::routes(hub.clone())).await,
            None => std::future::pending().await,
        }
    };
    tokio::select! {
        r = server => r?,
        r = remote => r?,
        _ = hub.idled_out(idle), if !stays => tracing::info!("no peers for {idle:?}; relay exits"),
    }
    drop(lock);
    Ok(())
}

async fn browser_endpoint(
    State(hub): State<Arc<Hub>>,
    ConnectInfo(addr): door::Peer,
    Extension(unproven): Extension<door::Unproven>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    browser_at(Door::Loopback, hub, addr, unproven, &headers, ws)
}

/// A browser's socket at `door`: upgraded only for an extension that has paired (its Origin),
/// then proven and sealed as that door asks.
fn browser_at(
    door: Door,
    hub: Arc<Hub>,
    addr: std::net::SocketAddr,
    unproven: door::Unproven,
    headers: &HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    let origin = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok());
    if !hub.pairing().extensions.admits(origin) {
        tracing::warn!(%addr, ?door, "refused a /browser peer: not an extension that paired");
        let how = match door {
            Door::Loopback => {
                "tabpilot: /browser takes only the tabpilot extension, once it has paired"
            }
            Door::Remote => "tabpilot: pair this browser first (tabpilot pair --remote)",
        };
        return (StatusCode::FORBIDDEN, how).into_response();
    }
    ws.max_message_size(protocol::BROWSER_MAX_FRAME)
        .max_frame_size(protocol::BROWSER_MAX_FRAME)
        .on_upgrade(move |socket| peer::serve(hub, socket, Role::Browser, unproven, door))
}

async fn controller_endpoint(
    State(hub): State<Arc<Hub>>,
    Extension(unproven): Extension<door::Unproven>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    // Controllers are local programs, never web pages: a browser always sends an Origin.
    if headers.contains_key(header::ORIGIN) {
        return (
            StatusCode::FORBIDDEN,
            "tabpilot: web pages may not control the relay",
        )
            .into_response();
    }
    ws.max_message_size(protocol::CONTROLLER_MAX_FRAME)
        .max_frame_size(protocol::CONTROLLER_MAX_FRAME)
        .on_upgrade(move |socket| {
            peer::serve(hub, socket, Role::Controller, unproven, Door::Loopback)
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_takes_an_ip_address_and_a_port_and_says_so_otherwise() {
        let at = past_loopback(Some(" 10.0.0.5:47400 ".into())).unwrap();
        assert_eq!(at, Some("10.0.0.5:47400".parse().unwrap()));
        assert_eq!(
            past_loopback(Some("[fd00::1]:0".into()))
                .unwrap()
                .unwrap()
                .port(),
            0
        );
        for bad in ["devbox:47400", "10.0.0.5", "0.0.0.0:99999"] {
            let e = past_loopback(Some(bad.into())).unwrap_err().to_string();
            assert!(
                e.contains("--listen takes an IP address and a port") && e.contains(bad),
                "{e}"
            );
        }
    }
}
