//! Remote destinations: `tabpilot remote add|list|rm` keeps MCP servers (`tabpilot mcp --http
//! --tls` on another machine, or `--http` on loopback) by name, each with its token and the
//! certificate pinned for it (store.rs, pin.rs); `tabpilot --remote NAME <tool> ...` sends the
//! tool call there instead of to the local relay (client.rs), and prints its result as a local
//! call prints one.
//!
//! A token is read from stdin or a prompt that does not echo, never from the command line (which
//! every user of the machine can list). Before it is kept, the server proves it holds that token
//! without it being sent (mcp/http/proof.rs), bound to the certificate it serves, whose
//! fingerprint the person compares with what the server printed, or gives with --fingerprint.

mod client;
mod error;
mod pin;
mod sse;
mod store;

use std::io::{BufRead, IsTerminal};
use std::process::ExitCode;

use anyhow::bail;
use rmcp::model::CallToolResult;
use serde_json::Value;
use zeroize::Zeroizing;

use crate::controller::mcp::http::proof::{self, Found};
use crate::controller::mcp::http::token::MIN_LEN;
use error::RemoteError;

#[derive(clap::Subcommand)]
pub(super) enum RemoteCommand {
    /// Add (or replace) a remote MCP server by name; its token is read from stdin, or from a
    /// prompt that does not echo, never from the command line.
    Add(AddArgs),
    /// The remotes: name, URL and pinned certificate; never a token.
    List,
    /// Remove a remote, and its token.
    Rm { name: String },
}

#[derive(clap::Args)]
pub(super) struct AddArgs {
    /// Letters, digits, `-` and `_`, at most 64: what `--remote NAME` names.
    name: String,
    /// `https://HOST:PORT/mcp` (`tabpilot mcp --http HOST:PORT --tls` there); `http://` only on
    /// loopback.
    url: String,
    /// The certificate's SHA-256 fingerprint the server printed (`AB:CD:...` or 64 hex digits).
    /// Without it, the certificate is fetched and its fingerprint shown for you to compare.
    #[arg(long, value_name = "SHA256HEX")]
    fingerprint: Option<String>,
    /// Ask nothing: an https:// URL then needs --fingerprint.
    #[arg(long)]
    yes: bool,
}

pub(super) async fn run(command: RemoteCommand) -> anyhow::Result<ExitCode> {
    let dir = crate::shared::state::state_dir();
    match command {
        RemoteCommand::Add(args) => add(args).await,
        RemoteCommand::List => {
            list(&store::load(&dir)?);
            Ok(ExitCode::SUCCESS)
        }
        RemoteCommand::Rm { name } => {
            store::remove(&dir, &name)?;
            println!("removed remote {name}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn list(remotes: &store::Remotes) {
    if remotes.is_empty() {
        eprintln!("no remotes; `tabpilot remote add NAME URL` adds one");
    }
    let width = remotes.keys().map(String::len).max().unwrap_or(0);
    // Escaped: the store is a file anyone of this user may have edited.
    let line = |t: &str| crate::shared::terminal::line(t).into_owned();
    for (name, remote) in remotes {
        let pinned = remote.fingerprint.as_deref().map_or_else(
            || "(plain HTTP on loopback)".to_string(),
            |f| format!("SHA-256 {}", line(f)),
        );
        println!("{:<width$}  {}  {pinned}", line(name), line(&remote.url));
    }
}

async fn add(args: AddArgs) -> anyhow::Result<ExitCode> {
    store::check_name(&args.name)?;
    let url = store::check_url(&args.url)?;
    let https = url.scheme() == "https";
    let given = args
        .fingerprint
        .as_deref()
        .map(pin::normalize)
        .transpose()?;
    if !https && given.is_some() {
        bail!("--fingerprint is for an https:// URL; {url} is plain HTTP on loopback");
    }
    let asking = !args.yes && std::io::stdin().is_terminal();
    if https && given.is_none() && !asking {
        bail!(
            "no one is here to compare the certificate's fingerprint with the one the server \
             printed (--yes, or stdin is not a terminal): give it with --fingerprint (the \
             `SHA-256 fingerprint` line of `tabpilot mcp --http --tls` on the server)"
        );
    }
    let token = read_token(&args.name)?;
    let (asked, secret) = (url.to_string(), token.clone());
    let (found, served) =
        crate::shared::blocking::call("asking the server for its proof", move || {
            proof::probe_cert(&asked, &secret)
        })
        .await?;
    let fingerprint = match found {
        Found::Ours => pinned(&args.name, &url, given, served, asking)?,
        Found::Nothing if !https || given.is_some() => {
            eprintln!(
                "tabpilot: nothing answers at {url} now; added all the same: the token and the \
                 certificate are checked at the first call"
            );
            given
        }
        Found::Nothing => bail!(RemoteError::NothingListening {
            url: url.to_string(),
            why: "its certificate could not be fetched; give --fingerprint to add it anyway".into(),
        }),
        Found::Other(_) => bail!(
            "what answers at {url} did not prove that it holds this token, so it was not kept \
             (and not sent): the token is not the server's (its `http-token` file, or its \
             TABPILOT_TOKEN), or what answers is not `tabpilot mcp --http`"
        ),
    };
    let remote = store::Remote {
        url: url.to_string(),
        fingerprint: fingerprint.clone(),
        token: token.to_string(),
    };
    let dir = crate::shared::state::state_dir();
    let verb = if store::add(&dir, &args.name, remote)? {
        "replaced"
    } else {
        "added"
    };
    let pinned = fingerprint.map_or_else(String::new, |f| format!(", certificate SHA-256 {f}"));
    println!(
        "{verb} remote {}: {url}{pinned}; its token is kept owner-only in {}",
        args.name,
        dir.join(store::FILE).display()
    );
    Ok(ExitCode::SUCCESS)
}

/// The fingerprint to pin for a server that proved it holds the token, serving the certificate
/// `served`: the one given, if that is it; else the one served, once the person says it is the
/// one the server printed.
fn pinned(
    name: &str,
    url: &url::Url,
    given: Option<String>,
    served: Option<String>,
    asking: bool,
) -> anyhow::Result<Option<String>> {
    let (Some(served), true) = (served, url.scheme() == "https") else {
        return Ok(None);
    };
    match given {
        Some(pinned) if pinned != served => bail!(RemoteError::FingerprintMismatch {
            name: name.to_string(),
            url: url.to_string(),
            pinned,
            served,
        }),
        Some(pinned) => Ok(Some(pinned)),
        None if asking => {
            println!(
                "The server at {url} proved it holds the token, serving the certificate with \
                 the SHA-256 fingerprint\n\n    {served}\n\nCompare it with the `SHA-256 \
                 fingerprint` that `tabpilot mcp --http --tls` printed on the server."
            );
            print!("Is it the same? [y/N] ");
            std::io::Write::flush(&mut std::io::stdout())?;
            let mut said = String::new();
            std::io::stdin().lock().read_line(&mut said)?;
            if !matches!(said.trim().to_ascii_lowercase().as_str(), "y" | "yes") {
                bail!("not added: the fingerprints were not said to match");
            }
            Ok(Some(served))
        }
        None => bail!("no fingerprint to pin for {url}"),
    }
}

/// The token: one line from stdin, or a prompt that does not echo on a terminal.
fn read_token(name: &str) -> anyhow::Result<Zeroizing<String>> {
    let mut text = Zeroizing::new(String::new());
    if std::io::stdin().is_terminal() {
        *text = rpassword::prompt_password(format!("token of remote {name} (not shown): "))?;
    } else {
        std::io::stdin().lock().read_line(&mut text)?;
    }
    let token = Zeroizing::new(text.trim().to_string());
    if token.is_empty() {
        bail!(
            "no token on stdin: give the server's token there (`tabpilot remote add {name} URL \
             < FILE`, FILE a copy of the server's `http-token`), never on the command line"
        );
    }
    if token.chars().count() < MIN_LEN {
        bail!(RemoteError::ShortToken {
            len: token.chars().count(),
            min: MIN_LEN,
        });
    }
    if !token.bytes().all(|b| b.is_ascii_graphic()) {
        bail!("the token has characters an HTTP header cannot carry: it is not a server's token");
    }
    Ok(token)
}

/// Runs `tool` with `args` on the remote `name`, in the session its last call used (a new one
/// when there is none or the server no longer knows it).
pub(super) async fn call(
    name: &str,
    tool: &str,
    args: Value,
) -> Result<CallToolResult, RemoteError> {
    let dir = crate::shared::state::state_dir();
    let remote = store::get(&dir, name)?;
    let client = client::Client::new(name, &remote)?;
    // What a lost answer means: a tool that may change a page may have done so.
    let mutates =
        crate::controller::tools::registry::get(tool).is_none_or(|t| !t.spec.hints.read_only);
    let session = match store::session(&dir, name) {
        Some(kept) => kept,
        None => open(&client, &dir, name).await?,
    };
    let answer = match client
        .call_tool(&session, tool, args.clone(), mutates)
        .await
    {
        // The server did nothing with a call in a session it does not know: sent once more.
        Err(RemoteError::SessionGone { .. }) => {
            let session = open(&client, &dir, name).await?;
            client.call_tool(&session, tool, args, mutates).await
        }
        other => other,
    }?;
    serde_json::from_value(answer).map_err(|e| RemoteError::NotMcp {
        url: remote.url.clone(),
        what: format!("the tool's result is not one: {e}"),
    })
}

async fn open(
    client: &client::Client,
    dir: &std::path::Path,
    name: &str,
) -> Result<store::Session, RemoteError> {
    let session = client.open().await?;
    store::keep_session(dir, name, &session);
    Ok(session)
}
