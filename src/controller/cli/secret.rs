//! `tabpilot secret add/list/rm`: the person's side of secrets, the only way one is made, changed
//! or removed. A value is read from a hidden prompt, stdin or a file, and never printed.

use std::io::{IsTerminal, Read};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use zeroize::Zeroizing;

use crate::controller::secrets::{self, Backend, Content, KEYRING_NAME, New};

#[derive(clap::Subcommand)]
pub(super) enum SecretCommand {
    /// Add a secret (or replace the one of that name): a value read from a hidden prompt,
    /// --stdin or --from-file; a TOTP seed with --totp; a file for uploads with --file.
    Add(AddArgs),
    /// The secrets' names, kinds and origins; never a value.
    List {
        /// As JSON: `[{"name", "kind", "origins"}]`.
        #[arg(long)]
        json: bool,
    },
    /// Remove a secret, and its value from the keyring or the file.
    Rm { name: String },
}

#[derive(clap::Args)]
pub(super) struct AddArgs {
    /// Letters, digits, `_`, `-` and `.`; what an agent names it by.
    name: String,
    /// An origin whose frames it may fill (repeatable), in the site policy's patterns:
    /// `https://example.com`, `https://*.example.com`, `http://localhost:*`.
    #[arg(long = "origin", value_name = "PATTERN")]
    origins: Vec<String>,
    /// Read the value (or the seed) from stdin, up to its end; one trailing newline is dropped.
    #[arg(long, conflicts_with_all = ["from_file", "file"])]
    stdin: bool,
    /// Read the value (or the seed) from this file; one trailing newline is dropped.
    #[arg(long, value_name = "FILE", conflicts_with = "file")]
    from_file: Option<PathBuf>,
    /// The value is a TOTP seed (an otpauth://totp/ URI or a base32 key): a fill types the
    /// code of the moment.
    #[arg(long, conflicts_with = "file")]
    totp: bool,
    /// Register this file for uploads (no value is read).
    #[arg(long, value_name = "PATH")]
    file: Option<PathBuf>,
}

pub(super) fn run(command: SecretCommand) -> anyhow::Result<ExitCode> {
    match command {
        SecretCommand::Add(args) => add(args),
        SecretCommand::List { json } => list(json),
        SecretCommand::Rm { name } => {
            secrets::remove(&name)?;
            println!("removed secret {name}");
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn add(args: AddArgs) -> anyhow::Result<ExitCode> {
    secrets::check_new(&args.name, &args.origins)?;
    let content = match &args.file {
        Some(path) => Content::File(path.clone()),
        None if args.totp => Content::Totp(read_value(&args, "TOTP seed (otpauth:// URI or key)")?),
        None => Content::Value(read_value(&args, "value")?),
    };
    let (name, origins) = (args.name, args.origins);
    let shown = origins.join(", ");
    let added = secrets::add(New {
        name: name.clone(),
        origins,
        content,
    })?;
    if let Some(note) = &added.note {
        eprintln!("tabpilot: {note}");
    }
    let verb = if added.replaced { "replaced" } else { "added" };
    let kept = match added.backend {
        Some(Backend::Keyring) => format!("; its value is in {KEYRING_NAME}"),
        Some(Backend::File) => format!(
            "; its value is in the owner-only file {}",
            crate::shared::state::state_dir()
                .join(secrets::VALUES_FILE)
                .display()
        ),
        None => String::new(),
    };
    println!("{verb} secret {name} for {shown}{kept}");
    Ok(ExitCode::SUCCESS)
}

/// The value from where the arguments say: stdin, a file, or a prompt that does not echo. Stdin
/// that is not a terminal is read only with --stdin, so a value is never taken from a pipe by
/// surprise.
fn read_value(args: &AddArgs, what: &str) -> anyhow::Result<Zeroizing<String>> {
    let mut text = Zeroizing::new(String::new());
    if args.stdin {
        std::io::stdin()
            .read_to_string(&mut text)
            .context("reading the value from stdin")?;
    } else if let Some(file) = &args.from_file {
        let mut f = std::fs::File::open(file).with_context(|| file.display().to_string())?;
        f.read_to_string(&mut text)
            .with_context(|| file.display().to_string())?;
    } else if std::io::stdin().is_terminal() {
        let prompt = format!("{what} for {} (not shown): ", args.name);
        *text = rpassword::prompt_password(prompt).context("reading the value")?;
    } else {
        anyhow::bail!(
            "stdin is not a terminal, so there is no prompt for the value: pass --stdin to read \
             it from stdin, or --from-file FILE"
        );
    }
    for end in ["\r\n", "\n"] {
        if text.ends_with(end) {
            let keep = text.len() - end.len();
            text.truncate(keep);
            break;
        }
    }
    Ok(text)
}

fn list(json: bool) -> anyhow::Result<ExitCode> {
    let listed = secrets::list()?;
    if json {
        println!("{}", serde_json::to_string_pretty(&listed)?);
        return Ok(ExitCode::SUCCESS);
    }
    if listed.is_empty() {
        eprintln!("no secrets; a person adds one with `tabpilot secret add NAME --origin PATTERN`");
    }
    let width = listed.iter().map(|s| s.name.len()).max().unwrap_or(0);
    // Names and origins were checked at `add`; escaped all the same, since the index is a file
    // anyone of this user may have edited.
    let line = |t: &str| crate::shared::terminal::line(t).into_owned();
    for secret in &listed {
        println!(
            "{:<width$}  {:<5}  {}",
            line(&secret.name),
            secret.kind.to_string(),
            line(&secret.origins.join(", "))
        );
    }
    Ok(ExitCode::SUCCESS)
}
