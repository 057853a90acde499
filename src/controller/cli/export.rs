//! `tabpilot export`: a recorded session as a Playwright test or a replay file, from the
//! recording on disk (`TABPILOT_RECORD=1` on the MCP server: another process's recording is
//! only there; an agent exports its own with `browser_export`).

use std::path::PathBuf;
use std::process::ExitCode;

use crate::controller::record::{self, Filter, Format};

#[derive(clap::Args)]
#[command(
    after_help = "The recording is on disk only when the MCP server ran with \
TABPILOT_RECORD=1 (recording.jsonl beside the audit trail)."
)]
pub(super) struct ExportArgs {
    /// Only this agent's steps: the MCP client's name.
    #[arg(long, conflicts_with = "session")]
    agent: Option<String>,
    /// Only this session's steps (as the audit trail names it). Default: the last session.
    #[arg(long)]
    session: Option<String>,
    /// Only steps since this time: RFC 3339 or a span back from now (`10m`, `2h`).
    #[arg(long)]
    since: Option<String>,
    #[arg(long, value_enum)]
    format: Format,
    /// Where to write it (default: stdout).
    out: Option<PathBuf>,
}

pub(super) fn run(a: &ExportArgs) -> anyhow::Result<ExitCode> {
    let since = a.since.as_deref().map(super::audit::since).transpose()?;
    let filter = Filter {
        agent: a.agent.clone(),
        session: a.session.clone(),
        agent_id: None,
        since: since.map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true)),
    };
    let path = record::file();
    let steps = record::read(&path, &filter);
    if steps.is_empty() {
        anyhow::bail!(
            "no recorded steps in {} for that (the MCP server records to disk with \
             TABPILOT_RECORD=1)",
            path.display()
        );
    }
    let text = record::render(
        &steps,
        a.format,
        &crate::controller::tools::registry::recordable(),
    );
    match &a.out {
        Some(out) => {
            std::fs::write(out, text)?;
            eprintln!("wrote {} steps to {}", steps.len(), out.display());
        }
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
