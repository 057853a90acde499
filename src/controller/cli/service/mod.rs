//! `tabpilot service install|uninstall|status`: `tabpilot mcp --http` as a service of this user,
//! started with their session and again when it fails: a systemd user unit on Linux, a
//! LaunchAgent on macOS, a scheduled task on Windows (manager.rs says where and how; text.rs
//! writes the definitions).
//!
//! The definition is written owner-only, by a rename, never through a link, into a folder no
//! one else may write: whoever can change it runs their commands as this user. Only a file that
//! carries tabpilot's mark is replaced or removed. The service's output goes to `service.log` in
//! the owner-only state dir. The manager is asked to load the service only when it answers;
//! otherwise the commands are printed for the person to run.

mod manager;
mod text;

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, bail};
use clap::Parser;

use crate::shared::platform::private;
use crate::shared::settings::Setting;
use crate::shared::state;
use manager::{Argv, Manager, Os, shown};

#[derive(clap::Subcommand)]
pub(super) enum ServiceCommand {
    /// Run `tabpilot mcp --http` as your user's service (systemd user unit, LaunchAgent or
    /// scheduled task), with any arguments of `mcp` after it: `tabpilot service install --launch
    /// --headless`, `--http HOST:PORT`.
    Install {
        #[arg(
            value_name = "MCP_ARGS",
            trailing_var_arg = true,
            allow_hyphen_values = true
        )]
        args: Vec<String>,
    },
    /// Stop the service and remove its definition (its log stays in the state dir).
    Uninstall,
    /// Where the definition is, and what the service manager says of it.
    Status,
}

pub(super) fn run(command: ServiceCommand) -> anyhow::Result<ExitCode> {
    match command {
        ServiceCommand::Install { args } => install(&args),
        ServiceCommand::Uninstall => uninstall().map(|()| ExitCode::SUCCESS),
        ServiceCommand::Status => status(),
    }
}

/// This platform's manager, for this user.
fn this_manager() -> anyhow::Result<Manager> {
    let home = crate::shared::platform::dirs::home()
        .context("HOME is not set: there is no user service folder")?;
    let config = crate::shared::platform::dirs::config_home(&home);
    let uid = crate::shared::platform::me::uid();
    Ok(manager::manager(
        Os::current(),
        &config,
        &home,
        &state::state_dir(),
        uid,
    ))
}

/// The definition tabpilot wrote, if there is one; an error for a path that holds something
/// else (a link, a folder, a person's own file), which tabpilot leaves as it is.
pub(super) fn installed() -> anyhow::Result<Option<PathBuf>> {
    let m = this_manager()?;
    mine(&m.file).map(|ours| ours.then_some(m.file))
}

/// Whether `file` is a definition tabpilot wrote: false when there is none; refused when
/// something else is there.
fn mine(file: &Path) -> anyhow::Result<bool> {
    let meta = match std::fs::symlink_metadata(file) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e).with_context(|| file.display().to_string()),
    };
    let shown = file.display();
    if !meta.is_file() {
        bail!(
            "{shown} is not a regular file (a symbolic link, a folder): tabpilot did not write it \
             and leaves it as it is; remove it yourself if it is yours to remove"
        );
    }
    let bytes = std::fs::read(file).with_context(|| shown.to_string())?;
    if !manager::is_ours(&bytes) {
        bail!(
            "{shown} was not written by `tabpilot service install` (it lacks its first line): \
             tabpilot leaves it as it is; move it away to install tabpilot's"
        );
    }
    Ok(true)
}

fn install(passed: &[String]) -> anyhow::Result<ExitCode> {
    let (args, url) = mcp_args(passed)?;
    let exe = std::env::current_exe().context("finding this tabpilot binary")?;
    let dir = state::state_dir();
    let dir = std::path::absolute(&dir).unwrap_or(dir);
    // The service's token and log go there: never through a link, nor into a folder another
    // user could read or fill.
    if let Some(why) = state::unsafe_dir(&dir)? {
        bail!(
            "the state dir {} {why}: the service's token and log will not go there. Use a \
             folder of your own ({}=DIR)",
            dir.display(),
            Setting::StateDir
        );
    }
    state::ensure_private_dir(&dir).with_context(|| dir.display().to_string())?;
    let log = dir.join("service.log");
    private::open(std::fs::OpenOptions::new().append(true).create(true), &log)
        .with_context(|| log.display().to_string())?;
    // The state dir is named, so the service finds the token where this command says it is,
    // whatever its own environment holds.
    let mut env = vec![(Setting::StateDir.to_string(), dir.display().to_string())];
    if let Some(port) = Setting::HttpPort.get() {
        env.push((Setting::HttpPort.to_string(), port));
    }
    let m = this_manager()?;
    let spec = text::Spec {
        exe: &exe,
        args: &args,
        env: &env,
        log: &log,
    };
    let user = std::env::var("USERDOMAIN")
        .map(|d| format!("{d}\\"))
        .unwrap_or_default()
        + &std::env::var("USERNAME").unwrap_or_default();
    let bytes = m.definition(&spec, &user)?;
    let again = mine(&m.file)?;
    let answers = answers(&m.probe);
    if again && answers {
        run_all(&m.stop, true);
    }
    write_definition(&m.file, &bytes)?;
    println!("wrote {} (owner-only)", m.file.display());
    start(&m, answers)?;
    told(&url, &dir, &log)?;
    Ok(ExitCode::SUCCESS)
}

/// The arguments of `tabpilot mcp` for the service (`--http` added unless given), held to the
/// command line's own rules now rather than in a service that fails at every start; and the URL
/// it will serve.
fn mcp_args(passed: &[String]) -> anyhow::Result<(Vec<String>, String)> {
    let given = passed
        .iter()
        .any(|a| a == "--http" || a.starts_with("--http="));
    let mut args = vec!["mcp".to_string()];
    if !given {
        args.push("--http".into());
    }
    args.extend(passed.iter().cloned());
    let words = std::iter::once("tabpilot".to_string()).chain(args.iter().cloned());
    let parsed = super::Cli::try_parse_from(words).map_err(|e| {
        anyhow::anyhow!(
            "the arguments for `tabpilot {}` do not parse:\n{}",
            args.join(" "),
            e.render()
        )
    })?;
    let super::Command::Mcp {
        http: Some(addr), ..
    } = parsed.command
    else {
        unreachable!("the words start with `mcp` and hold --http");
    };
    let addr = match addr.as_str() {
        "" => crate::controller::mcp::http::default_addr()?.to_string(),
        given => given.to_string(),
    };
    Ok((args, format!("http://{addr}/mcp")))
}

/// Writes the definition owner-only through a new file renamed over the old one (never through
/// a link left at its path), into a folder only this user may write.
fn write_definition(file: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let dir = file.parent().context("the definition's folder")?;
    std::fs::create_dir_all(dir).with_context(|| format!("making {}", dir.display()))?;
    if let Some(who) = private::others_may_write(dir)? {
        bail!(
            "{} is {who}: another user could replace the service's definition there and run \
             their commands as you. Make it yours alone (chmod go-w), then run this again",
            dir.display()
        );
    }
    let tmp = dir.join(format!(".tabpilot-service.tmp{}", std::process::id()));
    let written = (|| {
        use std::io::Write;
        let mut f = private::open(
            std::fs::OpenOptions::new().write(true).create_new(true),
            &tmp,
        )?;
        f.write_all(bytes)?;
        f.sync_all()?;
        std::fs::rename(&tmp, file)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written.with_context(|| format!("writing {}", file.display()))
}

/// Loads and starts the service when the manager answers; otherwise says how.
fn start(m: &Manager, answers: bool) -> anyhow::Result<()> {
    if !answers {
        println!(
            "{} does not answer here, so the service was not started; to start it, run:",
            shown(&m.probe)
        );
        for argv in &m.start {
            println!("  {}", shown(argv));
        }
        return Ok(());
    }
    if !run_all(&m.start, false) {
        bail!(
            "the service's definition is written but it did not start: see the lines above, and \
             `tabpilot service status`"
        );
    }
    Ok(())
}

/// Where to reach the service and find its token and log.
fn told(url: &str, dir: &Path, log: &Path) -> anyhow::Result<()> {
    // Made now, owner-only, so the file named here is there before the service first starts.
    state::http_token().with_context(|| format!("making the token in {}", dir.display()))?;
    println!("URL: {url}");
    println!(
        "token: in {} (owner-only); `tabpilot install CLIENT --http` gives it to a client",
        dir.join("http-token").display()
    );
    if Setting::Token.get().is_some() {
        println!(
            "{} is set here, but not written into the definition (others may read it there): \
             the service uses the token file",
            Setting::Token
        );
    }
    println!("log: {}", log.display());
    Ok(())
}

/// Stops the service and removes the definition tabpilot wrote; nothing installed is not an
/// error. `tabpilot uninstall --all` removes the service this way too.
pub(super) fn uninstall() -> anyhow::Result<()> {
    let m = this_manager()?;
    if !mine(&m.file)? {
        println!("no service installed ({} is not there)", m.file.display());
        return Ok(());
    }
    let answers = answers(&m.probe);
    if answers {
        // Stopped first, so that a manager that does not answer (or a stop that fails) leaves
        // the definition in place for the person to deal with, never a service with no file.
        if !run_all(&m.stop, false) {
            bail!(
                "the service did not stop: {} is left in place",
                m.file.display()
            );
        }
    }
    std::fs::remove_file(&m.file).with_context(|| format!("removing {}", m.file.display()))?;
    println!("removed {}", m.file.display());
    if answers {
        run_all(&m.after_removal, false);
    } else {
        println!(
            "{} does not answer here; if the service runs, stop it with:",
            shown(&m.probe)
        );
        for argv in &m.stop {
            println!("  {}", shown(argv));
        }
    }
    Ok(())
}

fn status() -> anyhow::Result<ExitCode> {
    let m = this_manager()?;
    match installed()? {
        Some(file) => println!("installed: {}", file.display()),
        None => {
            println!("not installed ({} is not there)", m.file.display());
            return Ok(ExitCode::FAILURE);
        }
    }
    if !answers(&m.probe) {
        println!("{} does not answer here", shown(&m.probe));
        return Ok(ExitCode::SUCCESS);
    }
    let ran = std::process::Command::new(&m.status[0])
        .args(&m.status[1..])
        .stdin(std::process::Stdio::null())
        .status();
    Ok(match ran {
        Ok(s) if s.success() => ExitCode::SUCCESS,
        _ => ExitCode::FAILURE,
    })
}

/// Whether the service manager answers for this user.
fn answers(probe: &Argv) -> bool {
    std::process::Command::new(&probe[0])
        .args(&probe[1..])
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Runs each command, saying what came of it; whether all succeeded. `quiet`: only what failed
/// is said, as a note (stopping a service before it is replaced).
fn run_all(commands: &[Argv], quiet: bool) -> bool {
    let mut all = true;
    for argv in commands {
        let out = std::process::Command::new(&argv[0])
            .args(&argv[1..])
            .stdin(std::process::Stdio::null())
            .output();
        match out {
            Ok(o) if o.status.success() => {
                if !quiet {
                    println!("ran: {}", shown(argv));
                }
            }
            Ok(o) => {
                all = false;
                let err = String::from_utf8_lossy(&o.stderr);
                eprintln!("tabpilot: `{}` failed: {}", shown(argv), err.trim());
            }
            Err(e) => {
                all = false;
                eprintln!("tabpilot: `{}` did not run: {e}", shown(argv));
            }
        }
    }
    all
}
