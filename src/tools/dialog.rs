//! browser_handle_dialog: what to do with the next alert, confirm or prompt in the agent's tab.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Session;
use super::args::{parse, schema};
use super::spec::{Hints, ToolOutput, ToolSpec};
use crate::error::ToolError;
use crate::protocol::Op;

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Action {
    Accept,
    Dismiss,
    Leave,
}

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

pub fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "browser_handle_dialog",
        description: "Policy for the next alert/confirm/prompt: accept, dismiss, or leave to the person; no arguments reports the policy and recent dialogs.",
        input_schema: schema::<DialogArgs>(),
        output_schema: Some(json!({"type": "object", "properties": {
            "policy": {"type": "object"}, "open": {}, "recent": {"type": "array"}},
            "required": ["policy", "recent"]})),
        hints: Hints {
            read_only: false,
            destructive: false,
            idempotent: true,
            open_world: false,
        },
    }]
}

impl Session {
    pub(super) async fn handle_dialog(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: DialogArgs = parse("browser_handle_dialog", args)?;
        let action = a.action.map(|x| match x {
            Action::Accept => "accept",
            Action::Dismiss => "dismiss",
            Action::Leave => "leave",
        });
        if a.prompt_text.is_some() && action != Some("accept") {
            return Err(ToolError::bad_args("promptText goes with action: accept"));
        }
        if a.once.is_some() && action.is_none() {
            return Err(ToolError::bad_args("once goes with an action"));
        }
        let call =
            json!({"action": action, "promptText": a.prompt_text, "once": a.once.unwrap_or(true)});
        let r = self
            .page(
                if action.is_some() {
                    Op::Dialog
                } else {
                    Op::Dialogs
                },
                call,
                Duration::from_secs(10),
            )
            .await?;
        let policy = &r["policy"];
        let mut lines = vec![match policy["action"].as_str() {
            Some("leave") | None => {
                "Dialogs are left to the person (a blocked page answers DIALOG_OPEN)".to_string()
            }
            Some(act) => format!(
                "The {} dialog will be {act}ed{}",
                if policy["once"] == true {
                    "next"
                } else {
                    "every"
                },
                policy["promptText"]
                    .as_str()
                    .map(|t| format!(" with {t:?}"))
                    .unwrap_or_default()
            ),
        }];
        let mut out_outcome = crate::error::Outcome::Done;
        if let Some(d) = r["open"].as_object() {
            lines.push(format!(
                "A {} {:?} is open now, in the tab in front of the person: it must be answered in the browser (a dialog that opened before a policy was set is Chrome's, not tabpilot's); the policy applies from the next one",
                d["kind"].as_str().unwrap_or("dialog"),
                d["message"].as_str().unwrap_or("")
            ));
            if action.is_some_and(|a| a != "leave") {
                out_outcome = crate::error::Outcome::Partial;
            }
        }
        if action.is_none() {
            for d in r["recent"].as_array().into_iter().flatten() {
                lines.push(format!(
                    "- {} {:?}: {}",
                    d["kind"].as_str().unwrap_or(""),
                    d["message"].as_str().unwrap_or(""),
                    d["action"].as_str().unwrap_or("")
                ));
            }
        }
        let mut out = ToolOutput::new(lines.join("\n"), r);
        out.outcome = out_outcome;
        if let Some(data) = out.structured.as_mut().and_then(|d| d.as_object_mut()) {
            data.insert("outcome".into(), json!(out_outcome));
        }
        Ok(out)
    }
}
