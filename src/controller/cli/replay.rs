//! `tabpilot replay FILE`: a recorded session run again through the same tools, with no model:
//! each target found by its locators in the page as it is now, each step reported done or with
//! the code that stopped it, stopping at the first failure.
//!
//! A replay file is text anyone can write and hand over, so before anything runs it is held to
//! what a recording holds (src/controller/record/replay.rs: its tools, its hidden fields' variables, its
//! secrets on recorded pages), the origins it visits and the variables it reads are listed, and
//! the person is asked on the terminal (`--yes` for a script; with neither, nothing runs). A
//! secret is filled only while the page is at the origin the step recorded.

use std::io::{BufRead, IsTerminal, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::controller::record::replay::{check, origin_of};
use crate::controller::record::{Step, env_name};
use crate::controller::tools::{Session, registry};
use crate::shared::error::{Code, Outcome, ToolError};

/// How long a step's element is waited for.
const FIND_WAIT: Duration = Duration::from_secs(10);

#[derive(clap::Args)]
pub(super) struct ReplayArgs {
    /// A replay file (`tabpilot export --format tabpilot`).
    file: PathBuf,
    /// The browser to run it in, by label.
    #[arg(long, value_name = "LABEL")]
    browser: Option<String>,
    /// Run it against another copy of the app: the recording's first origin is replaced by this.
    #[arg(long, value_name = "URL")]
    base_url: Option<String>,
    /// Run it without asking (after saying what it visits and reads): for scripts, where no
    /// terminal is there to ask.
    #[arg(long)]
    yes: bool,
}

/// Says what the file will do and asks the person, unless `--yes`; no terminal is a refusal.
fn agreed(summary: &str, yes: bool) -> anyhow::Result<bool> {
    eprintln!("{summary}");
    if yes {
        return Ok(true);
    }
    if !std::io::stdin().is_terminal() {
        anyhow::bail!("no terminal to ask whether to run it: pass --yes to run it from a script");
    }
    eprint!("Run it? [y/N] ");
    std::io::stderr().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(matches!(answer.trim().to_lowercase().as_str(), "y" | "yes"))
}

pub(super) async fn run(a: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&a.file)?;
    let steps: Vec<Step> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let rebase = Rebase::new(&steps, a.base_url.as_deref());
    let plan = check(&steps, |u| rebase.url(u), &registry::recordable())
        .map_err(|e| anyhow::anyhow!(e.text()))?;
    if !agreed(&plan.summary(steps.len()), a.yes)? {
        eprintln!("Not run.");
        return Ok(ExitCode::FAILURE);
    }
    let session = super::call::cli_session().map_err(|e| anyhow::anyhow!(e.text()))?;
    if let Some(label) = &a.browser {
        session.pin_browser(label.clone());
    }
    for (n, step) in steps.iter().enumerate() {
        let n = n + 1;
        if !matches!(step.outcome, Outcome::Done | Outcome::Partial) {
            println!(
                "step {n} {}: skipped (recorded as {:?})",
                step.tool, step.outcome
            );
            continue;
        }
        match replay(&session, step, &rebase).await {
            Ok(()) => println!("step {n} {}: done", step.tool),
            Err(e) => {
                println!(
                    "step {n} {}: {}",
                    step.tool,
                    crate::shared::terminal::text(&e.text())
                );
                session.shutdown();
                return Ok(ExitCode::FAILURE);
            }
        }
    }
    session.shutdown();
    Ok(ExitCode::SUCCESS)
}

/// The recording's first origin, and the one to put in its place.
struct Rebase {
    from: Option<String>,
    to: Option<String>,
}

impl Rebase {
    fn new(steps: &[Step], to: Option<&str>) -> Rebase {
        let first = steps.iter().find_map(|s| {
            s.url
                .clone()
                .or_else(|| s.args.get("url")?.as_str().map(String::from))
        });
        let from = first
            .and_then(|u| url::Url::parse(&u).ok())
            .map(|u| u.origin().ascii_serialization());
        Rebase {
            from,
            to: to.map(|t| t.trim_end_matches('/').to_string()),
        }
    }

    fn url(&self, url: &str) -> String {
        match (&self.from, &self.to) {
            (Some(from), Some(to)) if url.starts_with(from.as_str()) => {
                format!("{to}{}", &url[from.len()..])
            }
            _ => url.to_string(),
        }
    }
}

/// A value the step kept: as it was, a secret by name, or a hidden field's from the environment.
fn value_of(
    kept: &Map<String, Value>,
    into: &mut Map<String, Value>,
    key: &str,
) -> Result<(), ToolError> {
    if let Some(name) = kept.get("secret") {
        into.insert("secret".into(), name.clone());
    } else if let Some(name) = kept.get("env").and_then(Value::as_str) {
        let value = std::env::var(env_name(name)).map_err(|_| {
            ToolError::bad_args(format!(
                "set {name} in the environment: the recording keeps no secret"
            ))
        })?;
        into.insert(key.into(), json!(value));
    } else if let Some(v) = kept.get("value") {
        into.insert(key.into(), v.clone());
    }
    Ok(())
}

/// The tool's arguments for the step, its targets found in the page now.
async fn args_of(session: &Session, step: &Step, rebase: &Rebase) -> Result<Value, ToolError> {
    let mut refs = Vec::new();
    for target in &step.targets {
        refs.push(session.resolve(target, FIND_WAIT).await?);
    }
    check_secret_page(session, step, rebase)?;
    let mut args = step.args.clone();
    if let Some(url) = args.get("url").and_then(Value::as_str) {
        let url = rebase.url(url);
        args.insert("url".into(), json!(url));
    }
    if step.tool == "browser_type" {
        let kept = std::mem::take(&mut args);
        args = kept
            .iter()
            .filter(|(k, _)| !["value", "secret", "env"].contains(&k.as_str()))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        value_of(&kept, &mut args, "text")?;
    }
    if let Some(Value::Array(fields)) = args.remove("fields") {
        let mut out = Vec::new();
        for (field, reference) in fields.iter().zip(&refs) {
            let mut one = Map::new();
            one.insert("ref".into(), json!(reference));
            value_of(field.as_object().unwrap_or(&Map::new()), &mut one, "value")?;
            out.push(Value::Object(one));
        }
        args.insert("fields".into(), Value::Array(out));
    } else if let Some(first) = refs.first() {
        args.insert("ref".into(), json!(first));
    }
    Ok(Value::Object(args))
}

/// A step that fills a secret runs only while the page is at the origin the step recorded
/// (moved as `--base-url` says): a page that went elsewhere meanwhile gets nothing.
fn check_secret_page(session: &Session, step: &Step, rebase: &Rebase) -> Result<(), ToolError> {
    let fields = step.args.get("fields").and_then(Value::as_array);
    let fills_secret = step.args.contains_key("secret")
        || fields.is_some_and(|f| f.iter().any(|f| f.get("secret").is_some()));
    if !fills_secret {
        return Ok(());
    }
    let recorded = step.url.as_deref().map(|u| rebase.url(u));
    let want = recorded.as_deref().and_then(origin_of);
    let now = session.page_url();
    let here = now.as_deref().and_then(origin_of);
    if want.is_some() && here == want {
        return Ok(());
    }
    Err(ToolError::refused(
        Code::SecretOriginMismatch,
        format!(
            "the page is at {}, not at {} where the step filled its secret: nothing was filled",
            here.as_deref().unwrap_or("no origin"),
            want.as_deref().unwrap_or("no recorded origin"),
        ),
    ))
}

async fn replay(session: &Session, step: &Step, rebase: &Rebase) -> Result<(), ToolError> {
    let args = args_of(session, step, rebase).await?;
    let out = session.call(&step.tool, args).await?;
    match out.outcome {
        Outcome::Done => Ok(()),
        other => Err(ToolError::failed(
            crate::shared::error::Code::Internal,
            format!(
                "{:?}: {}",
                other,
                out.text.lines().next().unwrap_or_default()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_recordings_first_origin_is_replaced_and_others_kept() {
        let step: Step = serde_json::from_value(json!({
            "time": "t", "tool": "browser_navigate", "outcome": "done",
            "args": {"url": "http://127.0.0.1:4000/login?next=/"},
        }))
        .unwrap();
        let r = Rebase::new(&[step], Some("http://127.0.0.1:5000/"));
        assert_eq!(
            r.url("http://127.0.0.1:4000/form"),
            "http://127.0.0.1:5000/form"
        );
        assert_eq!(
            r.url("https://elsewhere.test/x"),
            "https://elsewhere.test/x"
        );
        let same = Rebase::new(&[], None);
        assert_eq!(same.url("http://a.test/"), "http://a.test/");
    }

    #[test]
    fn a_secret_goes_by_name_and_a_hidden_field_needs_its_variable() {
        let mut args = Map::new();
        let kept = json!({"secret": "app-password"});
        value_of(kept.as_object().unwrap(), &mut args, "text").unwrap();
        assert_eq!(Value::Object(args), json!({"secret": "app-password"}));
        let kept = json!({"env": "REPLAY_TEST_SURELY_UNSET_27"});
        let e = value_of(kept.as_object().unwrap(), &mut Map::new(), "text").unwrap_err();
        assert!(
            e.message.contains("REPLAY_TEST_SURELY_UNSET_27"),
            "{}",
            e.message
        );
    }
}
