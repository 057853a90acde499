//! `browser_eval`: the agent's own JavaScript, run in the page's main world, with its value
//! back as JSON. The one tool that runs code the caller wrote, so `TABPILOT_NO_EVAL` refuses it
//! before anything is sent. No other tool's argument carries script: wait conditions are text,
//! CSS selectors and URL patterns, and `javascript:` URLs are refused by `args::check_url`
//! (`the_only_argument_carrying_script_is_browser_evals` below holds that as tools are added).
//!
//! Outcomes: a script that throws, does not compile, or takes its frame to another page before
//! its value comes back is `SCRIPT_ERROR`, `failed`: it ran (or tried to), what it did before it
//! ended stays done, and the message says what ended it. A script still running at the timeout
//! is `TIMEOUT`, `unknown`: it may go on and change the page. A page whose Content-Security-Policy
//! forbids running script from a string is `CSP_BLOCKED`: nothing of the script ran.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::{acts, ref_arg, timeout};
use super::ctx::Ctx;
use super::spec::{Cli, Out};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::script::{Eval, EvalOut, Script};

const DEFAULT_TIMEOUT_MS: u64 = 10_000;
const DEFAULT_MAX_CHARS: usize = 20_000;
const MAX_CHARS: usize = 500_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EvalArgs {
    /// JavaScript; may await.
    expression: Option<String>,
    /// Or a function's source, given ref's element: (el) => el.value
    function: Option<String>,
    #[serde(rename = "ref")]
    reference: Option<String>,
    element: Option<String>,
    max_chars: Option<usize>,
    timeout: Option<u64>,
    /// Write the value to this file instead (path sandbox; maxChars 500000).
    file_path: Option<String>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_eval",
            description: "Run JavaScript in the page's main world; returns its JSON value, promises awaited.",
            hints: acts(),
            cli: Cli {
                positional: &["expression"],
                ..Cli::default()
            },
            ..About::default()
        },
        |cx, a| eval(cx, a).boxed(),
    )]
}

async fn eval(cx: &Ctx, a: EvalArgs) -> Result<Out<EvalOut>, ToolError> {
    cx.policy().check_eval("browser_eval")?;
    let wait = timeout(Some(a.timeout.unwrap_or(DEFAULT_TIMEOUT_MS)))?;
    // A path outside the sandbox is refused before the script runs.
    let file = match &a.file_path {
        Some(p) => Some(cx.sandbox().await.output(p)?),
        None => None,
    };
    let max = a.max_chars.unwrap_or(if file.is_some() {
        MAX_CHARS
    } else {
        DEFAULT_MAX_CHARS
    });
    if max == 0 || max > MAX_CHARS {
        return Err(ToolError::bad_args(format!(
            "maxChars must be between 1 and {MAX_CHARS}"
        )));
    }
    let script = match (&a.expression, &a.function) {
        (Some(e), None) if a.reference.is_none() => Script::Expression(e.clone()),
        (Some(_), None) => {
            return Err(ToolError::bad_args(
                "ref goes with function, which is called with its element",
            ));
        }
        (None, Some(f)) => Script::Function(f.clone()),
        _ => {
            return Err(ToolError::bad_args(
                "give exactly one of expression and function",
            ));
        }
    };
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    }
    let call = Eval {
        script,
        reference: a.reference.clone(),
        max_chars: max,
    };
    let mut r = cx.run(call).within(wait).await?;
    let on = match (&a.element, &r.element) {
        (Some(words), Some(found)) => format!(" on {words} ({found})"),
        (None, Some(found)) => format!(" on {found}"),
        _ => String::new(),
    };
    let mut text = format!("Ran{on} in the main world of {}\n", r.url);
    match file {
        Some(file) => {
            let json = std::mem::take(&mut r.value).to_string();
            let chars = json.chars().count();
            let path = file.write_off_runtime(json.into_bytes()).await?;
            text.push_str(&format!(
                "Wrote its value ({chars} characters of JSON) to {}",
                path.display()
            ));
            r.file_path = Some(path.display().to_string());
        }
        None => text.push_str(&r.value.to_string()),
    }
    if let Some(at) = &r.cut {
        text.push_str(&format!(
            "\n[cut at {max} characters, at {at}; raise maxChars to read more]"
        ));
    }
    Ok(Out::new(text, r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::policy::Policy;
    use crate::shared::error::Code;
    use serde_json::{Value, json};

    fn offline(policy: Policy) -> Ctx {
        Ctx::offline_under(
            crate::controller::context::ContextEnv::from_process(),
            policy,
        )
    }

    async fn refused(cx: &Ctx, args: Value) -> ToolError {
        let tool = crate::controller::tools::registry::get("browser_eval").unwrap();
        tool.call(cx, args).await.unwrap_err()
    }

    #[tokio::test]
    async fn arguments_are_checked_before_anything_is_sent() {
        let cx = offline(Policy::default());
        for (args, says) in [
            (json!({}), "exactly one"),
            (
                json!({"expression": "1", "function": "(e) => e"}),
                "exactly one",
            ),
            (
                json!({"expression": "1", "ref": "e1abc"}),
                "ref goes with function",
            ),
            (json!({"function": "(e) => e", "ref": "nope"}), "not a ref"),
            (json!({"expression": "1", "maxChars": 0}), "maxChars"),
            (json!({"expression": "1", "timeout": 0}), "timeout"),
        ] {
            let e = refused(&cx, args.clone()).await;
            assert_eq!(e.code, Code::BadArgs, "{args}");
            assert!(e.message.contains(says), "{args}: {}", e.message);
        }
    }

    #[tokio::test]
    async fn no_eval_refuses_before_anything_is_sent() {
        let cx = offline(Policy {
            no_eval: true,
            ..Policy::default()
        });
        let e = refused(&cx, json!({"expression": "document.title"})).await;
        assert_eq!(e.code, Code::EvalBlocked);
        assert_eq!(e.outcome, crate::shared::error::Outcome::Refused);
        assert!(e.message.contains("TABPILOT_NO_EVAL"), "{}", e.message);
    }

    /// Names an argument that carries script goes by (and any name ending in "script"); a new
    /// one elsewhere must be refused under TABPILOT_NO_EVAL like browser_eval, and then listed
    /// in `REFUSED` with a call that carries it, which this test makes under the switch.
    #[tokio::test]
    async fn the_only_argument_carrying_script_is_browser_evals() {
        const SCRIPTY: [&str; 7] = [
            "expression",
            "function",
            "script",
            "code",
            "js",
            "javascript",
            "predicate",
        ];
        // Besides browser_eval's own: (tool, argument, a call carrying it).
        let refused_too = [(
            "browser_navigate",
            "initScript",
            json!({"url": "http://127.0.0.1:9/", "initScript": "window.x = 1"}),
        )];
        for spec in crate::controller::tools::registry::all()
            .iter()
            .map(|t| &t.spec)
        {
            let props = spec.input_schema["properties"]
                .as_object()
                .map(|p| p.keys().cloned().collect::<Vec<_>>())
                .unwrap_or_default();
            for p in props {
                let lower = p.to_ascii_lowercase();
                let scripty = SCRIPTY.contains(&lower.as_str()) || lower.ends_with("script");
                let listed = refused_too
                    .iter()
                    .any(|(tool, arg, _)| *tool == spec.name && *arg == p);
                assert!(
                    !scripty || spec.name == "browser_eval" || listed,
                    "{}'s argument {p} looks like script: refuse it under TABPILOT_NO_EVAL",
                    spec.name
                );
            }
        }
        let cx = offline(Policy {
            no_eval: true,
            ..Policy::default()
        });
        for (tool, arg, call) in refused_too {
            let e = crate::controller::tools::registry::get(tool)
                .unwrap()
                .call(&cx, call)
                .await
                .unwrap_err();
            assert_eq!(
                (e.code, e.outcome),
                (Code::EvalBlocked, crate::shared::error::Outcome::Refused),
                "{tool} {{{arg}}}: {e}"
            );
        }
    }
}
