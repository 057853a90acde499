//! The token `mcp --http` asks of every request: where it comes from, how a server keeps up with
//! its rotation, and what a wrong one costs.
//!
//! It is `TABPILOT_TOKEN` when set (at least [`MIN_LEN`] characters), fixed for the server's
//! life; else the owner-only file in the state directory (`http-token`, 256 random bits), made
//! on first use and read again when it changes, so that `tabpilot token rotate` takes effect in
//! running servers from their next request. A server never prints it: it says where it lives
//! (stdout is often a log file others can read).

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::{Arc, PoisonError, RwLock};

use axum::extract::{ConnectInfo, Request};
use axum::http::{StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::shared::serve::Secret;
use crate::shared::serve::guesses::Guesses;
use crate::shared::settings::Setting;

/// The shortest `TABPILOT_TOKEN` taken: 32 characters, 128 bits as hex.
pub const MIN_LEN: usize = 32;

/// Why there is no token to serve with.
#[derive(Debug, thiserror::Error)]
pub enum TokenError {
    #[error(
        "{setting} is {len} characters; it must be at least {MIN_LEN}, or anyone on this machine \
         could guess it. Unset it to use the token tabpilot keeps owner-only in {file}, or set a \
         longer one (`openssl rand -hex 32`)"
    )]
    TooShort {
        setting: Setting,
        len: usize,
        file: String,
    },
    #[error("cannot read or make the token file {path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
}

/// The token file in the state directory.
pub fn file() -> PathBuf {
    crate::shared::state::state_dir().join("http-token")
}

/// The token as it stands: `TABPILOT_TOKEN`, or the file's (made on first use).
pub fn current() -> Result<String, TokenError> {
    if let Some(t) = Setting::Token.get() {
        let t = t.trim();
        if t.chars().count() < MIN_LEN {
            return Err(TokenError::TooShort {
                setting: Setting::Token,
                len: t.chars().count(),
                file: file().display().to_string(),
            });
        }
        return Ok(t.to_string());
    }
    crate::shared::state::http_token().map_err(|source| TokenError::File {
        path: file().display().to_string(),
        source,
    })
}

/// What a server checks requests against, kept up with the file.
pub struct Token {
    /// The file it was read from; none for `TABPILOT_TOKEN`.
    file: Option<PathBuf>,
    now: RwLock<Arc<Now>>,
}

/// The token as last read, and what its file looked like then.
struct Now {
    stamp: Option<(u64, i64, i64)>,
    /// None when the file holds no token: every request is refused until it does.
    token: Option<(String, Secret)>,
}

impl Token {
    pub fn load() -> Result<Token, TokenError> {
        let text = current()?;
        let file = Setting::Token.get().is_none().then(file);
        let stamp = file.as_ref().and_then(|f| stamp(f));
        Ok(Token {
            file,
            now: RwLock::new(Arc::new(Now {
                stamp,
                token: Some((text.clone(), Secret::new(&text))),
            })),
        })
    }

    /// Where the token lives, in words for the person.
    pub fn whereabouts(&self) -> String {
        match &self.file {
            Some(f) => format!(
                "in {} (owner-only; `tabpilot token rotate` replaces it)",
                f.display()
            ),
            None => format!("the value of {}", Setting::Token),
        }
    }

    /// The token now, read again if its file changed since.
    fn now(&self) -> Arc<Now> {
        let last = self
            .now
            .read()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let Some(file) = &self.file else { return last };
        let stamp = stamp(file);
        if stamp == last.stamp {
            return last;
        }
        let token = read(file).map(|t| {
            let secret = Secret::new(&t);
            (t, secret)
        });
        if token.is_none() {
            tracing::warn!(
                "{} holds no token; every request is refused until it does",
                file.display()
            );
        }
        let now = Arc::new(Now { stamp, token });
        *self.now.write().unwrap_or_else(PoisonError::into_inner) = now.clone();
        now
    }

    /// Whether `given` is the token now.
    pub fn matches(&self, given: &str) -> bool {
        self.now()
            .token
            .as_ref()
            .is_some_and(|(_, s)| s.matches(given))
    }

    /// The token's text now, for the proof that the server holds it.
    pub fn text(&self) -> Option<String> {
        self.now().token.as_ref().map(|(t, _)| t.clone())
    }
}

/// The token in `file`: 64 hex digits, as tabpilot writes it (whole, by a rename).
fn read(file: &std::path::Path) -> Option<String> {
    let text = std::fs::read_to_string(file).ok()?;
    let text = text.trim();
    (text.len() == 64 && text.bytes().all(|b| b.is_ascii_hexdigit())).then(|| text.to_string())
}

/// What tells a rewritten file from the one read: its inode, its change time and its size.
#[cfg(unix)]
fn stamp(file: &std::path::Path) -> Option<(u64, i64, i64)> {
    use std::os::unix::fs::MetadataExt;
    let m = std::fs::metadata(file).ok()?;
    Some((
        m.ino(),
        m.ctime_nsec() + m.ctime() * 1_000_000_000,
        m.size() as i64,
    ))
}

/// What tells a rewritten file from the one read, on Windows: its creation time (a rename
/// puts a new file in place), its last write and its size.
#[cfg(windows)]
fn stamp(file: &std::path::Path) -> Option<(u64, i64, i64)> {
    use std::os::windows::fs::MetadataExt;
    let m = std::fs::metadata(file).ok()?;
    Some((
        m.creation_time(),
        m.last_write_time() as i64,
        m.file_size() as i64,
    ))
}

/// The door of `/mcp`: the token, and the cost of a wrong one.
pub struct Key {
    pub token: Arc<Token>,
    pub guesses: Guesses,
}

impl Key {
    /// Lets a request with the token through: `Authorization: Bearer TOKEN`, or `token=TOKEN`
    /// in the query (for clients that take only a URL). A sender that guessed wrong a moment
    /// ago is 429 without a look at what it sends; anything else is 401.
    pub async fn admit(&self, req: Request, next: Next) -> Response {
        let peer = req
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0);
        if let Some(wait) = peer.and_then(|p| self.guesses.waiting(p)) {
            let secs = wait.as_secs() + 1;
            return (
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, secs.to_string())],
                format!("tabpilot: a wrong token was sent from here; wait {secs} s"),
            )
                .into_response();
        }
        let bearer = req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.strip_prefix("Bearer "));
        let query = crate::shared::serve::query_value(req.uri(), "token");
        let given = bearer.map(str::to_string).or(query);
        match given {
            Some(t) if self.token.matches(&t) => {
                crate::shared::serve::door::proven(&req);
                return next.run(req).await;
            }
            Some(_) => {
                if let Some(peer) = peer {
                    self.guesses.wrong(peer);
                }
            }
            None => {}
        }
        (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "tabpilot: this needs the token of `tabpilot mcp --http` (`Authorization: Bearer \
             TOKEN`): TABPILOT_TOKEN where it is set, else the owner-only file `http-token` in \
             tabpilot's state directory, which `tabpilot token rotate` replaces",
        )
            .into_response()
    }
}

/// `tabpilot token rotate`: a new token in the owner-only file. Returns the file and what the
/// person should know.
pub fn rotate() -> Result<(PathBuf, Vec<String>), TokenError> {
    let path = file();
    crate::shared::state::rotate_http_token().map_err(|source| TokenError::File {
        path: path.display().to_string(),
        source,
    })?;
    let mut notes = vec![
        "Running `tabpilot mcp --http` servers refuse the old token from their next request."
            .to_string(),
        format!(
            "Clients read it from {0}: set it again where you set it (`{1}`) \
             and restart them. A config written with --token-in-config holds the old one: run \
             `tabpilot install CLIENT --http --token-in-config` again.",
            Setting::Token,
            crate::shared::platform::shell::set_from_file(
                &Setting::Token.to_string(),
                &path.display().to_string()
            )
        ),
    ];
    if Setting::Token.get().is_some() {
        notes.push(format!(
            "{} is set here: a server started with it uses it, not the file; change it where it \
             is set.",
            Setting::Token
        ));
    }
    Ok((path, notes))
}
