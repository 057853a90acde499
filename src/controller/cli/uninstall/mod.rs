//! `tabpilot uninstall --all`: everything tabpilot put on this machine, listed, agreed to, then
//! removed, each thing reported as removed or failed.
//!
//! In order: the service (first, since a running one would make the state anew), each MCP
//! client's entry (by `uninstall CLIENT`'s own code), then the state dir's files (files.rs
//! decides what is tabpilot's there) and the dir once empty. Secrets (the index, the file of
//! values, and each value in the OS keyring) go only when the person says so a second time, or
//! passes `--secrets` with `--yes`; otherwise they stay, and so does the state dir that holds
//! their index. Nothing is removed without a terminal to ask on, or `--yes`.

mod files;

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use super::install::{self, Client};
use crate::controller::secrets::{self, KEYRING_NAME};
use files::StateDir;

/// What is there to remove, as found before anything is asked.
struct Plan {
    /// The service's definition, or why what is at its place is left.
    service: Result<Option<PathBuf>, String>,
    /// Each client's config holding an entry, or why it could not be read.
    clients: Vec<(Client, Result<PathBuf, String>)>,
    state: Result<Option<StateDir>, String>,
    /// How many secrets are registered, and where their values are.
    secrets: Option<Result<secrets::Counts, String>>,
    /// The audit trail, when `TABPILOT_AUDIT_FILE` puts it outside the state dir: left, since
    /// nothing outside the state dir is taken (a folder of the person's, maybe shared).
    trail_elsewhere: Option<PathBuf>,
}

pub(super) fn all(a: &install::UninstallArgs) -> anyhow::Result<ExitCode> {
    let plan = Plan::gather();
    plan.print();
    if a.dry_run {
        println!("(dry run: nothing removed)");
        return Ok(ExitCode::SUCCESS);
    }
    if plan.is_empty() {
        println!("nothing of tabpilot's to remove");
        return Ok(ExitCode::SUCCESS);
    }
    if !a.yes && !asked("Remove all of the above?")? {
        println!("Nothing removed.");
        return Ok(ExitCode::FAILURE);
    }
    let with_secrets = plan.has_secrets()
        && (a.secrets
            || (!a.yes
                && asked(&format!(
                    "Remove the secrets too ({})? They cannot be brought back.",
                    plan.secrets_said()
                ))?));
    let failed = plan.carry_out(with_secrets);
    if failed > 0 {
        eprintln!("tabpilot: {failed} thing(s) could not be removed; see the lines above");
        return Ok(ExitCode::FAILURE);
    }
    Ok(ExitCode::SUCCESS)
}

/// The person's yes on the terminal; with no terminal, a refusal before anything is removed.
fn asked(question: &str) -> anyhow::Result<bool> {
    if !std::io::stdin().is_terminal() {
        anyhow::bail!(
            "no terminal to ask on, so nothing was removed: pass --yes to remove the above from a \
             script (and --secrets as well to remove the secrets), or --dry-run to list it only"
        );
    }
    print!("{question} [y/N] ");
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

impl Plan {
    fn gather() -> Plan {
        let service = super::service::installed().map_err(|e| format!("{e:#}"));
        let clients = Client::ALL
            .into_iter()
            .filter_map(|c| match install::entry_in(c) {
                Ok(found) => found.map(|p| (c, Ok(p))),
                Err(e) => Some((c, Err(format!("{e:#}")))),
            })
            .collect();
        let state = files::look(&crate::shared::state::state_dir()).map_err(|e| format!("{e:#}"));
        let secrets = match &state {
            Ok(Some(dir)) if dir.ours.iter().any(|f| f.secret) => {
                Some(secrets::status().counts.map_err(|e| e.to_string()))
            }
            _ => None,
        };
        let trail = crate::controller::audit::configured_file();
        let trail_elsewhere = (trail.parent() != Some(&crate::shared::state::state_dir())
            && std::fs::symlink_metadata(&trail).is_ok())
        .then_some(trail);
        Plan {
            service,
            clients,
            state,
            secrets,
            trail_elsewhere,
        }
    }

    fn is_empty(&self) -> bool {
        matches!(self.service, Ok(None))
            && self.clients.is_empty()
            && matches!(&self.state, Ok(None))
    }

    fn has_secrets(&self) -> bool {
        self.secrets.is_some()
    }

    /// The secrets in words: how many, and where their values are.
    fn secrets_said(&self) -> String {
        match &self.secrets {
            Some(Ok(c)) => {
                let uploads = c.total - c.keyring - c.file;
                let parts = [
                    (c.keyring, format!("in {KEYRING_NAME}")),
                    (c.file, "in the owner-only file".to_string()),
                    (uploads, "files for uploads (the files stay)".to_string()),
                ];
                let said: Vec<String> = parts
                    .iter()
                    .filter(|(n, _)| *n > 0)
                    .map(|(n, w)| format!("{n} {w}"))
                    .collect();
                format!("{} secret(s): {}", c.total, said.join(", "))
            }
            Some(Err(e)) => format!("the index cannot be read: {e}"),
            None => "none".into(),
        }
    }

    fn print(&self) {
        println!("tabpilot uninstall --all removes:");
        match &self.service {
            Ok(Some(file)) => println!("  the service: stopped, then {}", file.display()),
            Ok(None) => {}
            Err(e) => println!("  the service: left ({e})"),
        }
        for (client, found) in &self.clients {
            match found {
                Ok(path) => println!(
                    "  {}: tabpilot's entry in {}",
                    client.name(),
                    path.display()
                ),
                Err(e) => println!("  {}: cannot be read, so it stays: {e}", client.name()),
            }
        }
        match &self.state {
            Ok(Some(dir)) => {
                let files: Vec<_> = dir.ours.iter().filter(|f| !f.secret).collect();
                if !files.is_empty() {
                    println!("  in the state dir {}:", dir.dir.display());
                }
                for f in files {
                    let link = if f.link {
                        " (a symbolic link: the link alone)"
                    } else {
                        ""
                    };
                    println!("    {}: {}{link}", name(&f.path), f.what);
                }
                if dir.left.is_empty() {
                    println!(
                        "  the state dir {}, once nothing else is in it",
                        dir.dir.display()
                    );
                }
                for (path, why) in &dir.left {
                    println!("  left as it is: {} ({why})", path.display());
                }
            }
            Ok(None) => {}
            Err(e) => println!("  the state dir: left ({e})"),
        }
        if let Some(trail) = &self.trail_elsewhere {
            println!(
                "  left as it is: {} (the audit trail {} names, and any recordings beside it: \
                 outside the state dir, so yours to remove)",
                trail.display(),
                crate::shared::settings::Setting::AuditFile
            );
        }
        if self.has_secrets() {
            println!(
                "  secrets, only when you say so a second time (or pass --secrets with --yes): {}",
                self.secrets_said()
            );
            println!(
                "  (without that they stay, values in {KEYRING_NAME} included, and the state dir \
                 with their index)"
            );
        }
    }

    /// Removes what was listed (the secrets when `with_secrets`), saying what came of each;
    /// returns how many failed.
    fn carry_out(&self, with_secrets: bool) -> usize {
        let mut failed = 0;
        let mut said = |what: String, done: Result<(), String>| match done {
            Ok(()) => println!("removed: {what}"),
            Err(e) => {
                failed += 1;
                println!("FAILED: {what}: {e}");
            }
        };
        let service_gone = match &self.service {
            Ok(Some(_)) => {
                let done = super::service::uninstall().map_err(|e| format!("{e:#}"));
                let gone = done.is_ok();
                said("the service".into(), done);
                gone
            }
            Ok(None) => true,
            Err(e) => {
                said("the service".into(), Err(e.clone()));
                false
            }
        };
        for (client, found) in &self.clients {
            let done = match found {
                Ok(_) => install::remove_entry(*client, false).map_err(|e| format!("{e:#}")),
                Err(e) => Err(e.clone()),
            };
            said(format!("{}'s entry", client.name()), done);
        }
        let dir = match &self.state {
            Ok(Some(dir)) => dir,
            Ok(None) => return failed,
            Err(e) => {
                said("the state dir".into(), Err(e.clone()));
                return failed;
            }
        };
        if !service_gone {
            said(
                format!("the files in {}", dir.dir.display()),
                Err("left, since the service still runs and would make them again".into()),
            );
            return failed;
        }
        let secrets_gone = with_secrets && remove_secrets(&mut said);
        for f in dir.ours.iter().filter(|f| !f.secret || secrets_gone) {
            let what = format!("{} ({})", f.path.display(), f.what);
            said(what, files::remove(f).map_err(|e| e.to_string()));
        }
        if !dir.ours.iter().any(|f| f.secret && !secrets_gone) && dir.left.is_empty() {
            let done = std::fs::remove_dir(&dir.dir).map_err(|e| e.to_string());
            said(format!("the state dir {}", dir.dir.display()), done);
        } else {
            println!(
                "kept: the state dir {}, which holds what is left",
                dir.dir.display()
            );
        }
        failed
    }
}

/// Removes every secret through the store (each value from the keyring or the file, then its
/// line in the index); whether all went, so the store's files may go too. A secret whose value
/// could not be removed keeps its line, which names it for a later `tabpilot secret rm`.
fn remove_secrets(said: &mut impl FnMut(String, Result<(), String>)) -> bool {
    let listed = match secrets::list() {
        Ok(listed) => listed,
        Err(e) => {
            said(
                "the secrets".into(),
                Err(format!("{e}; their files are kept")),
            );
            return false;
        }
    };
    let mut all = true;
    for s in listed {
        let done = secrets::remove(&s.name).map_err(|e| e.to_string());
        all &= done.is_ok();
        said(
            format!("secret {}", crate::shared::terminal::line(&s.name)),
            done,
        );
    }
    all
}

/// The file name of `path`, for the listing.
fn name(path: &std::path::Path) -> String {
    path.file_name()
        .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
}
