//! The few MCP requests a one-shot call needs, over Streamable HTTP(S): `initialize` and
//! `notifications/initialized` to open a session, then `tools/call`. Each request is its own
//! connection (hyper's HTTP/1.1 client over a TCP stream, or over tokio-rustls trusting only the
//! pinned certificate), with `Authorization: Bearer TOKEN`; an answer is read as JSON or as an
//! event stream, up to the message that answers it.
//!
//! Why not rmcp's client: it takes a custom TLS configuration only through reqwest (a second HTTP
//! stack with its own TLS and root-store crates), or through its `StreamableHttpClient` trait,
//! five methods of streams and resumption a one-shot call does not use.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::header::{self, HeaderValue};
use hyper::{Method, Request, Response, StatusCode};
use serde_json::{Value, json};
use tokio::io::{AsyncRead, AsyncWrite};

use super::error::RemoteError;
use super::pin;
use super::sse::Events;
use super::store::{Remote, Session};

/// How long a connection (and its TLS handshake) may take.
const CONNECT: Duration = Duration::from_secs(10);
/// How long opening a session may take.
const OPEN: Duration = Duration::from_secs(30);
/// How long a tool call's answer may take: past every tool's own time limits.
const CALL: Duration = Duration::from_secs(600);
/// The largest answer read (a full-page screenshot in base64 fits).
const MOST_BYTES: usize = 64 << 20;
/// How much of a refusal's body is shown.
const SHOWN: usize = 300;

const SESSION_ID: &str = "mcp-session-id";
const PROTOCOL_VERSION: &str = "mcp-protocol-version";

/// A stream a request can go over: TCP, or TLS over it.
trait Io: AsyncRead + AsyncWrite + Unpin + Send {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send> Io for T {}

/// A remote MCP server, as the store has it.
pub(super) struct Client {
    name: String,
    url: String,
    host: String,
    port: u16,
    authority: String,
    target: String,
    token: String,
    tls: Option<Tls>,
}

struct Tls {
    config: Arc<rustls::ClientConfig>,
    pinned: String,
    seen: Arc<Mutex<Option<String>>>,
}

impl Client {
    pub(super) fn new(name: &str, remote: &Remote) -> Result<Client, RemoteError> {
        // Held to the rules again: the store is a file the person may have edited.
        let url = super::store::check_url(&remote.url)?;
        let (host, port) = crate::controller::mcp::http::proof::host_port(url.as_str())
            .ok_or_else(|| RemoteError::BadUrl {
                url: remote.url.clone(),
                why: "no host and port in it".into(),
            })?;
        let tls = match (url.scheme(), &remote.fingerprint) {
            ("https", Some(pinned)) => {
                let pinned = pin::normalize(pinned)?;
                let (config, seen) = pin::client_config(&pinned);
                Some(Tls {
                    config,
                    pinned,
                    seen,
                })
            }
            ("https", None) => return Err(RemoteError::Unpinned { name: name.into() }),
            _ => None,
        };
        let authority = match url.port() {
            Some(p) => format!("{}:{p}", url.host_str().unwrap_or_default()),
            None => url.host_str().unwrap_or_default().to_string(),
        };
        let target = match url.query() {
            Some(q) => format!("{}?{q}", url.path()),
            None => url.path().to_string(),
        };
        Ok(Client {
            name: name.to_string(),
            url: remote.url.clone(),
            host,
            port,
            authority,
            target,
            token: remote.token.clone(),
            tls,
        })
    }

    /// Opens an MCP session: `initialize`, then `notifications/initialized`.
    pub(super) async fn open(&self) -> Result<Session, RemoteError> {
        let version = serde_json::to_value(rmcp::model::ProtocolVersion::LATEST_WITH_INITIALIZE)
            .expect("a version serializes");
        let init = json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": version, "capabilities": {},
            "clientInfo": {"name": "tabpilot-cli", "version": env!("CARGO_PKG_VERSION")}}});
        let opened = async {
            let answer = self.post(&init, None, false).await?;
            let id = answer
                .headers()
                .get(SESSION_ID)
                .and_then(|v| v.to_str().ok())
                .map(str::to_string)
                .ok_or_else(|| self.not_mcp("no session id in the answer to initialize"))?;
            let result = self.answer(answer, 0, false).await?;
            let version = result["protocolVersion"]
                .as_str()
                .ok_or_else(|| self.not_mcp("no protocol version in the answer to initialize"))?;
            let session = Session {
                id,
                version: version.to_string(),
            };
            let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
            self.post(&done, Some(&session), false).await?;
            Ok(session)
        };
        tokio::time::timeout(OPEN, opened)
            .await
            .unwrap_or_else(|_| Err(self.not_mcp("no session within 30 s")))
    }

    /// `tools/call` in `session`; the result as the server wrote it. `mutates`: whether the tool
    /// may change a page, for what a lost answer means.
    pub(super) async fn call_tool(
        &self,
        session: &Session,
        tool: &str,
        args: Value,
        mutates: bool,
    ) -> Result<Value, RemoteError> {
        let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": tool, "arguments": args}});
        let called = async {
            let answer = self.post(&call, Some(session), mutates).await?;
            self.answer(answer, 1, mutates).await
        };
        tokio::time::timeout(CALL, called)
            .await
            .unwrap_or_else(|_| Err(self.lost("no answer within 10 minutes", mutates)))
    }

    /// One POST on a connection of its own; its answer once its status is one to read.
    async fn post(
        &self,
        body: &Value,
        session: Option<&Session>,
        mutates: bool,
    ) -> Result<Response<Incoming>, RemoteError> {
        let mut bearer =
            HeaderValue::try_from(format!("Bearer {}", self.token)).map_err(|_| self.refused())?;
        bearer.set_sensitive(true);
        let mut request = Request::builder()
            .method(Method::POST)
            .uri(&self.target)
            .header(header::HOST, &self.authority)
            .header(header::CONTENT_TYPE, "application/json")
            .header(header::ACCEPT, "application/json, text/event-stream")
            .header(header::AUTHORIZATION, bearer);
        if let Some(s) = session {
            request = request
                .header(SESSION_ID, &s.id)
                .header(PROTOCOL_VERSION, &s.version);
        }
        let request = request
            .body(Full::new(Bytes::from(body.to_string())))
            .map_err(|e| self.not_mcp(&e.to_string()))?;
        let io = self.connect().await?;
        let (mut sender, connection) =
            hyper::client::conn::http1::handshake(hyper_util::rt::TokioIo::new(io))
                .await
                .map_err(|e| self.nothing(&e.to_string()))?;
        tokio::spawn(async move {
            // Ends with the answer's body, or the server's close; nothing to report either way.
            let _ = connection.await;
        });
        let answer = sender
            .send_request(request)
            .await
            .map_err(|e| self.lost(&e.to_string(), mutates))?;
        self.checked(answer, session.is_some()).await
    }

    /// A connection to the server: TCP, then TLS with the pinned certificate for `https://`.
    async fn connect(&self) -> Result<Box<dyn Io>, RemoteError> {
        let tcp = tokio::time::timeout(
            CONNECT,
            tokio::net::TcpStream::connect((self.host.as_str(), self.port)),
        )
        .await
        .map_err(|_| self.nothing("no connection within 10 s"))?
        .map_err(|e| self.nothing(&e.to_string()))?;
        let Some(tls) = &self.tls else {
            return Ok(Box::new(tcp));
        };
        let name = rustls::pki_types::ServerName::try_from(self.host.clone())
            .map_err(|e| self.tls_failed(&e.to_string()))?;
        let connector = tokio_rustls::TlsConnector::from(tls.config.clone());
        let shaken = tokio::time::timeout(CONNECT, connector.connect(name, tcp))
            .await
            .map_err(|_| self.tls_failed("no handshake within 10 s"))?;
        match shaken {
            Ok(stream) => Ok(Box::new(stream)),
            Err(e) => Err(match pin::seen(&tls.seen) {
                Some(served) if served != tls.pinned => RemoteError::FingerprintMismatch {
                    name: self.name.clone(),
                    url: self.url.clone(),
                    pinned: tls.pinned.clone(),
                    served,
                },
                _ => self.tls_failed(&e.to_string()),
            }),
        }
    }

    /// The answer if its status is one whose body is an MCP message; else the error it means.
    async fn checked(
        &self,
        answer: Response<Incoming>,
        in_session: bool,
    ) -> Result<Response<Incoming>, RemoteError> {
        let status = answer.status();
        if status.is_success() {
            return Ok(answer);
        }
        match status {
            StatusCode::UNAUTHORIZED => return Err(self.refused()),
            // A session the server does not know: it did nothing with the request.
            StatusCode::NOT_FOUND if in_session => {
                return Err(RemoteError::SessionGone {
                    url: self.url.clone(),
                });
            }
            StatusCode::TOO_MANY_REQUESTS => {
                let secs = answer
                    .headers()
                    .get(header::RETRY_AFTER)
                    .and_then(|v| v.to_str().ok())
                    .unwrap_or("a few")
                    .to_string();
                return Err(RemoteError::Throttled {
                    url: self.url.clone(),
                    secs: crate::shared::terminal::line(&secs).into_owned(),
                });
            }
            _ => {}
        }
        let body = read(answer, SHOWN * 4).await.unwrap_or_default();
        let body = String::from_utf8_lossy(&body);
        let body: String = body.chars().take(SHOWN).collect();
        Err(RemoteError::Status {
            url: self.url.clone(),
            status: status.as_u16(),
            body: crate::shared::terminal::line(body.trim()).into_owned(),
        })
    }

    /// The `result` of the JSON-RPC message answering request `id`, from a JSON body or an
    /// event stream.
    async fn answer(
        &self,
        answer: Response<Incoming>,
        id: u64,
        mutates: bool,
    ) -> Result<Value, RemoteError> {
        let streamed = answer
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|t| t.starts_with("text/event-stream"));
        let message = if streamed {
            self.streamed(answer, id, mutates).await?
        } else {
            let body = read(answer, MOST_BYTES)
                .await
                .map_err(|e| self.lost(&e, mutates))?;
            serde_json::from_slice::<Value>(&body)
                .ok()
                .filter(|m| m["id"] == id)
                .ok_or_else(|| self.not_mcp("the answer is not the JSON-RPC message asked for"))?
        };
        if let Some(error) = message.get("error") {
            let text = error["message"].as_str().unwrap_or("no message");
            return Err(RemoteError::Rpc {
                url: self.url.clone(),
                message: crate::shared::terminal::line(text).into_owned(),
            });
        }
        Ok(message["result"].clone())
    }

    /// The message answering request `id` in an event stream, read up to it.
    async fn streamed(
        &self,
        mut answer: Response<Incoming>,
        id: u64,
        mutates: bool,
    ) -> Result<Value, RemoteError> {
        let mut events = Events::new(MOST_BYTES);
        loop {
            let frame = match answer.body_mut().frame().await {
                None => return Err(self.lost("the stream ended without the answer", mutates)),
                Some(Err(e)) => return Err(self.lost(&e.to_string(), mutates)),
                Some(Ok(frame)) => frame,
            };
            let Ok(data) = frame.into_data() else {
                continue;
            };
            let done = events
                .feed(&data)
                .map_err(|_| self.not_mcp("an event past 64 MiB"))?;
            for event in done {
                // Other messages (notifications, the server's own requests) are not asked for.
                let found = serde_json::from_str::<Value>(&event).ok().filter(|m| {
                    m["id"] == id && (m.get("result").is_some() || m.get("error").is_some())
                });
                if let Some(message) = found {
                    return Ok(message);
                }
            }
        }
    }

    fn nothing(&self, why: &str) -> RemoteError {
        RemoteError::NothingListening {
            url: self.url.clone(),
            why: why.to_string(),
        }
    }

    fn tls_failed(&self, why: &str) -> RemoteError {
        RemoteError::Tls {
            url: self.url.clone(),
            why: why.to_string(),
        }
    }

    fn refused(&self) -> RemoteError {
        RemoteError::TokenRefused {
            name: self.name.clone(),
            url: self.url.clone(),
        }
    }

    fn not_mcp(&self, what: &str) -> RemoteError {
        RemoteError::NotMcp {
            url: self.url.clone(),
            what: what.to_string(),
        }
    }

    fn lost(&self, why: &str, mutates: bool) -> RemoteError {
        RemoteError::Lost {
            url: self.url.clone(),
            why: why.to_string(),
            mutates,
        }
    }
}

/// A body, whole, up to `most` bytes.
async fn read(mut answer: Response<Incoming>, most: usize) -> Result<Vec<u8>, String> {
    let mut bytes = Vec::new();
    while let Some(frame) = answer.body_mut().frame().await {
        let frame = frame.map_err(|e| e.to_string())?;
        if let Ok(data) = frame.into_data() {
            if bytes.len() + data.len() > most {
                return Err(format!("an answer past {most} bytes"));
            }
            bytes.extend_from_slice(&data);
        }
    }
    Ok(bytes)
}
