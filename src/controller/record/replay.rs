//! What a replay file may run, judged before any of it runs (`tabpilot replay`). A replay file
//! is text anyone can write, so it is held to what the recorder itself writes: only the tools a
//! recording keeps, an environment variable only for a field the file marks hidden (and by the
//! name the recorder gives that field, after its label), and a secret by name only on a page the file recorded.
//! What it will read and where it will go are listed for the person before it runs.

use std::collections::BTreeSet;

use serde_json::{Map, Value};

use super::{Recordable, Step, env_name, field_words};
use crate::shared::error::ToolError;

/// What a checked file will do: the variables it reads, the origins it visits.
#[derive(Debug, Default, PartialEq)]
pub struct Plan {
    pub vars: BTreeSet<String>,
    pub origins: BTreeSet<String>,
}

impl Plan {
    /// The lines said to the person before anything runs.
    pub fn summary(&self, steps: usize) -> String {
        let list = |set: &BTreeSet<String>| {
            if set.is_empty() {
                "none".to_string()
            } else {
                set.iter().cloned().collect::<Vec<_>>().join(", ")
            }
        };
        format!(
            "This replay runs {steps} steps.\nIt visits: {}\nIt reads from your environment: {}",
            list(&self.origins),
            list(&self.vars)
        )
    }
}

/// An address's origin (`https://a.test:8443`); None for one that has none.
pub fn origin_of(url: &str) -> Option<String> {
    let parsed = url::Url::parse(url).ok()?;
    let origin = parsed.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

fn refuse(n: usize, why: &str) -> ToolError {
    ToolError::bad_args(format!("step {n}: {why}; nothing was run"))
}

/// Checks the steps (their addresses as `rebase` moves them) and says what they will do; the
/// first step that asks for more than a recording holds refuses the whole file.
pub fn check(
    steps: &[Step],
    rebase: impl Fn(&str) -> String,
    recordable: &Recordable,
) -> Result<Plan, ToolError> {
    let mut plan = Plan::default();
    for (i, step) in steps.iter().enumerate() {
        let n = i + 1;
        if recordable.kind(&step.tool).is_none() {
            return Err(refuse(
                n,
                &format!(
                    "{} is not a tool a recording holds (replay runs only {})",
                    step.tool,
                    recordable.names().join(", ")
                ),
            ));
        }
        let places = [
            step.url.as_deref(),
            step.after.as_deref(),
            step.args.get("url").and_then(Value::as_str),
        ];
        for url in places.into_iter().flatten() {
            plan.origins.extend(origin_of(&rebase(url)));
        }
        for (k, kept) in values(step) {
            let target = step.targets.get(k);
            if let Some(name) = kept.get("env") {
                let name = name.as_str().unwrap_or_default();
                // The recorder names a hidden field's variable after the field's own words.
                let declared =
                    target.is_some_and(|t| t.secret && env_name(&field_words(t)) == name);
                if !declared {
                    return Err(refuse(
                        n,
                        &format!(
                            "it reads ${{{name}}} from the environment, but the file declares \
                             no hidden field for it (a recording reads a variable only for a \
                             field it marks secret)"
                        ),
                    ));
                }
                plan.vars.insert(name.to_string());
            }
            if kept.contains_key("secret") && step.url.as_deref().and_then(origin_of).is_none() {
                return Err(refuse(n, "it fills a secret on no page the file recorded"));
            }
        }
    }
    Ok(plan)
}

/// The values a step fills, each with the index of its target: `browser_type`'s own, and each
/// of `browser_fill_form`'s fields.
fn values(step: &Step) -> Vec<(usize, Map<String, Value>)> {
    let mut out = Vec::new();
    if step.args.contains_key("env") || step.args.contains_key("secret") {
        out.push((0, step.args.clone()));
    }
    if let Some(Value::Array(fields)) = step.args.get("fields") {
        for (k, f) in fields.iter().enumerate() {
            out.push((k, f.as_object().cloned().unwrap_or_default()));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::tools::registry;
    use crate::shared::error::Outcome;
    use crate::shared::protocol::wire::locate::{Locator, Target};
    use serde_json::json;

    fn step(tool: &str, url: &str, args: Value, secret_field: Option<bool>) -> Step {
        let targets = secret_field
            .map(|secret| Target {
                locators: vec![Locator {
                    label: Some("Password".into()),
                    ..Default::default()
                }],
                frames: vec![],
                kind: "text".into(),
                secret,
            })
            .into_iter()
            .collect();
        Step {
            time: "t".into(),
            agent: Default::default(),
            tool: tool.into(),
            agent_id: None,
            url: Some(url.into()),
            after: None,
            args: match args {
                Value::Object(args) => args,
                _ => panic!("a step's arguments are an object"),
            },
            targets,
            outcome: Outcome::Done,
            code: None,
        }
    }

    fn same(u: &str) -> String {
        u.to_string()
    }

    #[test]
    fn a_recordings_steps_pass_and_say_what_they_read_and_where_they_go() {
        let steps = [
            step(
                "browser_navigate",
                "about:blank",
                json!({"url": "http://127.0.0.1:4000/login"}),
                None,
            ),
            step(
                "browser_type",
                "http://127.0.0.1:4000/login",
                json!({"env": "PASSWORD"}),
                Some(true),
            ),
            step(
                "browser_type",
                "http://127.0.0.1:4000/login",
                json!({"secret": "app-password"}),
                Some(true),
            ),
        ];
        let plan = check(
            &steps,
            |u| u.replace(":4000", ":5000"),
            &registry::recordable(),
        )
        .unwrap();
        assert_eq!(
            plan.origins.iter().collect::<Vec<_>>(),
            ["http://127.0.0.1:5000"]
        );
        assert_eq!(plan.vars.iter().collect::<Vec<_>>(), ["PASSWORD"]);
        let said = plan.summary(3);
        assert!(
            said.contains("http://127.0.0.1:5000") && said.contains("PASSWORD"),
            "{said}"
        );
    }

    #[test]
    fn a_tool_no_recording_holds_is_refused() {
        let eval = step(
            "browser_eval",
            "https://a.test/",
            json!({"expression": "1"}),
            None,
        );
        let e = check(&[eval], same, &registry::recordable()).unwrap_err();
        assert_eq!(e.code, crate::shared::error::Code::BadArgs);
        assert!(e.message.contains("browser_eval"), "{}", e.message);
    }

    #[test]
    fn a_variable_is_read_only_for_a_field_the_file_marks_hidden_by_its_own_name() {
        let url = "https://a.test/";
        for (args, hidden) in [
            (json!({"env": "HOME"}), None),
            (json!({"env": "HOME"}), Some(false)),
            (json!({"env": "HOME"}), Some(true)),
            (
                json!({"fields": [{"env": "AWS_SECRET_ACCESS_KEY"}]}),
                Some(false),
            ),
        ] {
            let tool = if args.get("fields").is_some() {
                "browser_fill_form"
            } else {
                "browser_type"
            };
            let e = check(
                &[step(tool, url, args.clone(), hidden)],
                same,
                &registry::recordable(),
            )
            .unwrap_err();
            assert!(e.message.contains("declares no hidden field"), "{args}");
        }
    }

    #[test]
    fn a_secret_needs_a_recorded_page() {
        let mut s = step(
            "browser_type",
            "https://a.test/",
            json!({"secret": "bank"}),
            Some(true),
        );
        s.url = None;
        assert!(check(&[s], same, &registry::recordable()).is_err());
    }
}
