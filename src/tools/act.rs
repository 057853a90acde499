//! Acting on elements: click and type (and, as they come, the rest of the interaction set).

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Session;
use super::args::{acts, parse, ref_arg, schema, timeout};
use super::spec::{ToolOutput, ToolSpec};
use crate::error::{Outcome, ToolError};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ClickArgs {
    /// Ref from a snapshot, like e7k2f.
    #[serde(rename = "ref")]
    reference: String,
    /// What the element is, in words (for messages and the audit log).
    element: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TypeArgs {
    #[serde(rename = "ref")]
    reference: String,
    /// Replaces the field's text.
    text: String,
    /// Press Enter afterwards (submits the form).
    submit: Option<bool>,
    element: Option<String>,
    timeout: Option<u64>,
}

pub fn specs() -> Vec<ToolSpec> {
    vec![
        ToolSpec {
            name: "browser_click",
            description: "Click an element by ref.",
            input_schema: schema::<ClickArgs>(),
            output_schema: Some(action_schema()),
            hints: acts(),
        },
        ToolSpec {
            name: "browser_type",
            description: "Replace a field's text by ref; submit presses Enter.",
            input_schema: schema::<TypeArgs>(),
            output_schema: Some(action_schema()),
            hints: acts(),
        },
    ]
}

fn action_schema() -> Value {
    json!({"type": "object", "properties": {
        "outcome": {"type": "string"}, "navigated": {"type": "boolean"}, "url": {"type": ["string", "null"]},
        "element": {"type": "string"}, "retagged": {"type": "boolean"}}, "required": ["outcome", "navigated"]})
}

impl Session {
    /// Runs one interaction tool. `None` means the name is not one of them.
    pub(super) async fn act_tool(
        &self,
        name: &str,
        args: Value,
    ) -> Option<Result<ToolOutput, ToolError>> {
        Some(match name {
            "browser_click" => self.click(args).await,
            "browser_type" => self.type_text(args).await,
            _ => return None,
        })
    }

    async fn click(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: ClickArgs = parse("browser_click", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let r = self
            .page("click", json!({"ref": a.reference}), true, wait)
            .await?;
        Ok(action_output(
            format!("Clicked {}", named(&a.element, &r)),
            r,
        ))
    }

    async fn type_text(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: TypeArgs = parse("browser_type", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let submit = a.submit.unwrap_or(false);
        let r = self
            .page(
                "type",
                json!({"ref": a.reference, "text": a.text, "submit": submit}),
                true,
                wait,
            )
            .await?;
        let mut head = format!(
            "Typed {} characters into {}",
            r["chars"],
            named(&a.element, &r)
        );
        if submit {
            head.push_str(" and pressed Enter");
        }
        Ok(action_output(head, r))
    }
}

/// The element as the caller named it, with what the page says it is.
fn named(element: &Option<String>, r: &Value) -> String {
    let found = r["element"].as_str().unwrap_or("the element");
    match element {
        Some(words) => format!("{words} ({found})"),
        None => found.to_string(),
    }
}

fn action_output(head: String, r: Value) -> ToolOutput {
    let navigated = r["navigated"].as_bool().unwrap_or(false);
    let mut text = head;
    if navigated {
        text.push_str(&format!(
            "; the page navigated to {}",
            r["url"].as_str().unwrap_or("?")
        ));
        if r["settled"] == false {
            text.push_str(" (still loading)");
        }
    } else if let Some(err) = r["navigationError"].as_str() {
        text.push_str(&format!("; a navigation started and failed: {err}"));
    } else {
        text.push_str("; no navigation");
    }
    if r["retagged"] == true {
        text.push_str(" (ref re-resolved after the page re-rendered)");
    }
    ToolOutput::new(
        text,
        json!({"outcome": Outcome::Done, "navigated": navigated, "url": r["url"],
        "element": r["element"], "retagged": r["retagged"].as_bool().unwrap_or(false)}),
    )
}
