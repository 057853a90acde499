//! `tabpilot replay FILE`: a recorded session run again through the same tools, with no model:
//! each target found by its locators in the page as it is now, each step reported done or with
//! the code that stopped it, stopping at the first failure.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use serde_json::{Map, Value, json};

use crate::error::{Outcome, ToolError};
use crate::record::{Step, env_name};
use crate::tools::Session;

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
}

pub(super) async fn run(a: &ReplayArgs) -> anyhow::Result<ExitCode> {
    let text = std::fs::read_to_string(&a.file)?;
    let steps: Vec<Step> = text
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(serde_json::from_str)
        .collect::<Result<_, _>>()?;
    let session = super::call::cli_session().map_err(|e| anyhow::anyhow!(e.text()))?;
    if let Some(label) = &a.browser {
        session.pin_browser(label.clone());
    }
    let rebase = Rebase::new(&steps, a.base_url.as_deref());
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
                    crate::terminal::text(&e.text())
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

async fn replay(session: &Session, step: &Step, rebase: &Rebase) -> Result<(), ToolError> {
    let args = args_of(session, step, rebase).await?;
    let out = session.call(&step.tool, args).await?;
    match out.outcome {
        Outcome::Done => Ok(()),
        other => Err(ToolError::failed(
            crate::error::Code::Internal,
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
