//! Fields one at a time: typing into one, clearing one, choosing options in a select.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::pointer::RefArgs;
use super::{ActionOut, Nothing, act, on_ref};
use crate::error::ToolError;
use crate::protocol::Op;
use crate::tools::args::{AfterAction, acts, ref_arg, timeout};
use crate::tools::ctx::Ctx;
use crate::tools::spec::{Cli, Out};
use crate::tools::tool::{About, Tool};

pub(super) fn tools() -> Vec<Tool> {
    vec![
        super::super::after::acting(
            About {
                name: "browser_type",
                description: "Replace a field's text by ref; submit presses Enter.",
                hints: acts(),
                cli: Cli {
                    positional: &["ref", "text"],
                    ..Cli::default()
                },
            },
            |cx, a, after| type_text(cx, a, after).boxed(),
        ),
        super::super::after::acting(
            About {
                name: "browser_select_option",
                description: "Choose options in a <select> by value or label.",
                hints: acts(),
                cli: Cli::default(),
            },
            |cx, a, after| select(cx, a, after).boxed(),
        ),
        super::super::after::acting(
            About {
                name: "browser_clear",
                description: "Empty a text field.",
                hints: acts(),
                cli: Cli::default(),
            },
            |cx, a, after| clear(cx, a, after).boxed(),
        ),
    ]
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

/// What the page counts of a typing.
#[derive(Deserialize)]
struct Typed {
    chars: u64,
}

async fn type_text(
    cx: &Ctx,
    a: TypeArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    ref_arg(&a.reference)?;
    let wait = timeout(a.timeout)?;
    let submit = a.submit.unwrap_or(false);
    let page_args = json!({"ref": a.reference, "text": a.text, "submit": submit});
    let r = act::<Typed>(cx, Op::Type, page_args, after, wait).await?;
    let mut head = format!(
        "Typed {} characters into {}",
        r.own.chars,
        r.act.named(&a.element)
    );
    if submit {
        head.push_str(" and pressed Enter");
    }
    Ok(r.output_as(head, Nothing {}))
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectArgs {
    #[serde(rename = "ref")]
    reference: String,
    /// Option values or labels; several for a multi-select.
    values: Vec<String>,
    element: Option<String>,
    timeout: Option<u64>,
}

/// The options now selected, and whether that changed anything.
#[derive(Deserialize, Serialize, JsonSchema)]
struct Selected {
    selected: Vec<String>,
    changed: bool,
}

async fn select(
    cx: &Ctx,
    a: SelectArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Selected>>, ToolError> {
    ref_arg(&a.reference)?;
    if a.values.is_empty() {
        return Err(ToolError::bad_args("values needs at least one option"));
    }
    let wait = timeout(a.timeout)?;
    let page_args = json!({"ref": a.reference, "values": a.values});
    let r = act::<Selected>(cx, Op::Select, page_args, after, wait).await?;
    let picked: Vec<String> = r
        .own
        .selected
        .iter()
        .map(|s| json!(s).to_string())
        .collect();
    let mut head = format!(
        "Selected {} in {}",
        picked.join(", "),
        r.act.named(&a.element)
    );
    if !r.own.changed {
        head.push_str(" (already selected; no events fired)");
    }
    Ok(r.output(head))
}

/// Whether clearing changed the field.
#[derive(Deserialize)]
struct Cleared {
    changed: bool,
}

async fn clear(
    cx: &Ctx,
    a: RefArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    ref_arg(&a.reference)?;
    let wait = timeout(a.timeout)?;
    let r = act::<Cleared>(cx, Op::Clear, on_ref(&a.reference), after, wait).await?;
    let head = if r.own.changed {
        format!("Cleared {}", r.act.named(&a.element))
    } else {
        format!("{} was already empty", r.act.named(&a.element))
    };
    Ok(r.output_as(head, Nothing {}))
}
