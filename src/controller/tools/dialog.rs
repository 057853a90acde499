//! browser_handle_dialog: what to do with the next alert, confirm or prompt in the agent's tab.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::acts;
use super::ctx::Ctx;
use super::spec::{Hints, Keeps, Out, Tier};
use super::tool::{About, Tool};
use crate::shared::error::{Outcome, ToolError};
use crate::shared::protocol::wire::dialog::{Action, DialogsOut, ReadDialogs, SetDialogs};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DialogArgs {
    /// Default leave (to the person); omit to report.
    action: Option<Action>,
    /// The answer to a prompt, with accept.
    prompt_text: Option<String>,
    /// Next dialog only (default true).
    once: Option<bool>,
    /// Answer the open dialog.
    answer: Option<bool>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_handle_dialog",
            description: "Next alert/confirm/prompt: accept, dismiss or leave to the person; answer: the open one; no args reports.",
            hints: Hints {
                idempotent: true,
                open_world: false,
                ..acts()
            },
            keeps: Keeps::args(&["answer"]),
            tier: Tier::Core,
            ..About::default()
        },
        |cx, a| handle_dialog(cx, a).boxed(),
    )]
}

async fn handle_dialog(cx: &Ctx, a: DialogArgs) -> Result<Out<DialogsOut>, ToolError> {
    if let Some(accept) = a.answer {
        return answer(cx, accept, a).await;
    }
    if a.prompt_text.is_some() && a.action != Some(Action::Accept) {
        return Err(ToolError::bad_args(
            "promptText goes with action: accept, or answer: true",
        ));
    }
    if a.once.is_some() && a.action.is_none() {
        return Err(ToolError::bad_args("once goes with an action"));
    }
    let r = match a.action {
        Some(action) => {
            let call = SetDialogs {
                action: Some(action),
                prompt_text: a.prompt_text,
                once: a.once.unwrap_or(true),
                answer: None,
            };
            cx.run(call).await?
        }
        None => cx.run(ReadDialogs {}).await?,
    };
    let mut lines = vec![match r.policy.action {
        Action::Leave => {
            "Dialogs are left to the person (a blocked page answers DIALOG_OPEN)".to_string()
        }
        act => format!(
            "The {} dialog will be {}ed{}",
            if r.policy.once == Some(true) {
                "next"
            } else {
                "every"
            },
            match act {
                Action::Accept => "accept",
                _ => "dismiss",
            },
            r.policy
                .prompt_text
                .as_ref()
                .map(|t| format!(" with {t:?}"))
                .unwrap_or_default()
        ),
    }];
    let mut outcome = Outcome::Done;
    if let Some(d) = &r.open {
        lines.push(format!(
            "A {} {:?} is open now: it must be answered in the browser by the person, or, if it opened in advanced mode (browser_advanced_mode), by browser_handle_dialog {{answer}}; the policy applies from the next one",
            d.kind, d.message
        ));
        if a.action.is_some_and(|a| a != Action::Leave) {
            outcome = Outcome::Partial;
        }
    }
    if a.action.is_none() {
        for d in &r.recent {
            lines.push(format!(
                "- {} {:?}: {}",
                d.kind,
                d.message,
                d.action.as_deref().unwrap_or("")
            ));
        }
    }
    Ok(Out::new(lines.join("\n"), r).with_outcome(outcome))
}

/// `answer`: the dialog open now, answered through the debugger; the reply says what the page
/// got.
async fn answer(cx: &Ctx, accept: bool, a: DialogArgs) -> Result<Out<DialogsOut>, ToolError> {
    if a.action.is_some() || a.once.is_some() {
        return Err(ToolError::bad_args(
            "answer is for the dialog open now: give it without action and once",
        ));
    }
    if a.prompt_text.is_some() && !accept {
        return Err(ToolError::bad_args("promptText goes with answer: true"));
    }
    cx.policy()
        .check_advanced("browser_handle_dialog {answer}")?;
    let call = SetDialogs {
        action: None,
        prompt_text: a.prompt_text,
        once: true,
        answer: Some(accept),
    };
    let r = cx.run(call).await?;
    let d = r.answered.as_ref();
    let what = d.map_or("the dialog".to_string(), |d| {
        format!("the {} {:?}", d.kind, d.message)
    });
    let verb = if accept { "Accepted" } else { "Dismissed" };
    let got = match d.and_then(|d| d.answer.as_ref()) {
        Some(v) => format!("; the page got {v}"),
        None => String::new(),
    };
    Ok(Out::new(format!("{verb} {what}{got}"), r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::policy::Policy;
    use crate::shared::error::Code;
    use serde_json::{Value, json};

    async fn refused(policy: Policy, args: Value) -> ToolError {
        let cx = Ctx::offline_under(
            crate::controller::context::ContextEnv::from_process(),
            policy,
        );
        tools().remove(0).call(&cx, args).await.unwrap_err()
    }

    #[tokio::test]
    async fn answer_is_refused_under_no_advanced_before_anything_is_sent() {
        let no_advanced = Policy {
            no_advanced: true,
            ..Policy::default()
        };
        let e = refused(no_advanced, json!({"answer": true})).await;
        assert_eq!(
            (e.code, e.outcome),
            (Code::AdvancedModeRequired, Outcome::Refused),
            "{e}"
        );
        assert!(e.message.contains("TABPILOT_NO_ADVANCED"), "{e}");
        // A policy is not advanced mode's: the switch leaves it alone.
        let no_advanced = Policy {
            no_advanced: true,
            ..Policy::default()
        };
        let e = refused(no_advanced, json!({"action": "accept"})).await;
        assert_ne!(e.code, Code::AdvancedModeRequired, "{e}");
    }

    #[tokio::test]
    async fn answer_takes_no_policy_arguments() {
        for args in [
            json!({"answer": true, "action": "accept"}),
            json!({"answer": true, "once": false}),
            json!({"answer": false, "promptText": "x"}),
        ] {
            let e = refused(Policy::default(), args.clone()).await;
            assert_eq!(e.code, Code::BadArgs, "{args}: {e}");
        }
    }
}
