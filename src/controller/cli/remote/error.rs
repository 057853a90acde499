//! What can go wrong with a remote destination, each saying what to do about it. None of them
//! carries the token.

use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub(crate) enum RemoteError {
    #[error("{0:?} is not a remote's name: letters, digits, `-` and `_`, at most 64")]
    BadName(String),
    #[error("there is no remote {name:?}; {}", known_ones(known))]
    Unknown { name: String, known: Vec<String> },
    #[error("{url} is not an MCP server's URL ({why}); give https://HOST:PORT/mcp")]
    BadUrl { url: String, why: String },
    #[error(
        "{url} is plain HTTP past loopback: the token and everything the agent reads would cross \
         the network in clear (the server refuses to serve so without --allow-plain-http). Serve \
         it with `tabpilot mcp --http HOST:PORT --tls` and add https://HOST:PORT/mcp, or reach a \
         loopback server through an SSH tunnel (`ssh -L PORT:127.0.0.1:PORT HOST`) and add \
         http://127.0.0.1:PORT/mcp"
    )]
    PlainPastLoopback { url: String },
    #[error("{0:?} is not a SHA-256 fingerprint: 64 hex digits, with or without colons")]
    BadFingerprint(String),
    #[error(
        "remote {name} has no pinned certificate; run `tabpilot remote add {name} URL \
         --fingerprint SHA256` again"
    )]
    Unpinned { name: String },
    #[error(
        "the token is {len} characters; a server's token is at least {min} (the 64 hex digits of \
         its `http-token` file, or its TABPILOT_TOKEN)"
    )]
    ShortToken { len: usize, min: usize },
    #[error(
        "{path} is open to others ({said}): the tokens in it may have been read, and whoever \
         can write it can point a name elsewhere. Make it owner-only (`chmod 600 {path}`), and \
         rotate the servers' tokens if others may have read them"
    )]
    OpenStore { path: String, said: String },
    #[error("{path}: {source}")]
    Store {
        path: String,
        source: std::io::Error,
    },
    #[error(
        "nothing answers at {url} ({why}): is `tabpilot mcp --http` running there, and is the \
         port open to this machine?"
    )]
    NothingListening { url: String, why: String },
    #[error(
        "the server refused the token; run `tabpilot remote add {name} {url}` again with the \
         token it holds (its `http-token` file, or its TABPILOT_TOKEN; `tabpilot token rotate` \
         there replaces it)"
    )]
    TokenRefused { name: String, url: String },
    #[error(
        "a wrong token was sent to {url} from here a moment ago, and it asks to wait {secs} s \
         before the next try"
    )]
    Throttled { url: String, secs: String },
    #[error(
        "the server at {url} serves a certificate with the SHA-256 fingerprint {served}, not the \
         one pinned for remote {name} ({pinned}); nothing was sent. If the server made a new \
         certificate, compare the fingerprint it prints with the first one here and run \
         `tabpilot remote add {name} {url} --fingerprint {served}`; if not, something between \
         here and the server may be speaking as it"
    )]
    FingerprintMismatch {
        name: String,
        url: String,
        pinned: String,
        served: String,
    },
    #[error("no TLS with {url}: {why}")]
    Tls { url: String, why: String },
    #[error("{url} answered {status}: {body}")]
    Status {
        url: String,
        status: u16,
        body: String,
    },
    #[error("{url} did not answer as an MCP server: {what}")]
    NotMcp { url: String, what: String },
    #[error("{url} answered the call with an error: {message}")]
    Rpc { url: String, message: String },
    #[error(
        "the connection to {url} ended after the call was sent, before its answer ({why}); {}",
        if *mutates { "it may have taken effect: look (`snapshot`) before calling it again" }
        else { "it changed nothing, so it is safe to call again" }
    )]
    Lost {
        url: String,
        why: String,
        mutates: bool,
    },
    /// The server no longer knows the session (it restarted, or the session idled out); nothing
    /// was done, so the caller opens another.
    #[error("{url} no longer knows the session")]
    SessionGone { url: String },
}

impl RemoteError {
    pub(super) fn store(path: &Path, source: std::io::Error) -> RemoteError {
        RemoteError::Store {
            path: path.display().to_string(),
            source,
        }
    }
}

fn known_ones(known: &[String]) -> String {
    if known.is_empty() {
        "none is added: `tabpilot remote add NAME URL` adds one".to_string()
    } else {
        format!("there are {} (`tabpilot remote list`)", known.join(", "))
    }
}
