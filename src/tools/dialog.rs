//! browser_handle_dialog: what to do with the next alert, confirm or prompt in the agent's tab.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::acts;
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::error::{Outcome, ToolError};
use crate::protocol::wire::dialog::{Action, DialogsOut, ReadDialogs, SetDialogs};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DialogArgs {
    /// accept, dismiss, or leave (to the person; the default). Omit to report.
    action: Option<Action>,
    /// The answer to a prompt, with accept.
    prompt_text: Option<String>,
    /// Apply to the next dialog only (default true); false keeps the policy.
    once: Option<bool>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_handle_dialog",
            description: "Policy for the next alert/confirm/prompt: accept, dismiss, or leave to the person; no arguments reports the policy and recent dialogs.",
            hints: Hints {
                idempotent: true,
                open_world: false,
                ..acts()
            },
            cli: Cli::default(),
        },
        |cx, a| handle_dialog(cx, a).boxed(),
    )]
}

async fn handle_dialog(cx: &Ctx, a: DialogArgs) -> Result<Out<DialogsOut>, ToolError> {
    if a.prompt_text.is_some() && a.action != Some(Action::Accept) {
        return Err(ToolError::bad_args("promptText goes with action: accept"));
    }
    if a.once.is_some() && a.action.is_none() {
        return Err(ToolError::bad_args("once goes with an action"));
    }
    let r = match a.action {
        Some(action) => {
            let call = SetDialogs {
                action,
                prompt_text: a.prompt_text,
                once: a.once.unwrap_or(true),
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
            "A {} {:?} is open now, in the tab in front of the person: it must be answered in the browser (a dialog that opened before a policy was set is Chrome's, not tabpilot's); the policy applies from the next one",
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
