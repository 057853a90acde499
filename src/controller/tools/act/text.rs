//! Fields one at a time: typing into one, clearing one, choosing options in a select.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::ActionOut;
use super::pointer::RefArgs;
use super::secret;
use crate::controller::tools::args::{AfterAction, hints_of, ref_arg, timeout};
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::{Cli, Out, Replayed, Tier};
use crate::controller::tools::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::Op;
use crate::shared::protocol::wire::Nothing;
use crate::shared::protocol::wire::act::{Clear, Select, Selected, Type};

pub(super) fn tools() -> Vec<Tool> {
    vec![
        super::super::after::acting(
            About {
                name: "browser_type",
                description: "Replace a field's text by ref; submit presses Enter.",
                hints: hints_of(Op::Type),
                cli: Cli {
                    positional: &["ref", "text"],
                    ..Cli::default()
                },
                recorded: Some(Replayed::Type),
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a, after| type_text(cx, a, after).boxed(),
        ),
        super::super::after::acting(
            About {
                name: "browser_select_option",
                description: "Choose options in a <select> by value or label.",
                hints: hints_of(Op::Select),
                recorded: Some(Replayed::Select),
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a, after| select(cx, a, after).boxed(),
        ),
        super::super::after::acting(
            About {
                name: "browser_clear",
                description: "Empty a text field.",
                hints: hints_of(Op::Clear),
                ..About::default()
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
    text: Option<String>,
    /// Instead of text: a secret's name.
    secret: Option<String>,
    /// Press Enter after.
    submit: Option<bool>,
    element: Option<String>,
    timeout: Option<u64>,
}

async fn type_text(
    cx: &Ctx,
    a: TypeArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    ref_arg(&a.reference)?;
    let wait = timeout(a.timeout)?;
    let submit = a.submit.unwrap_or(false);
    let (text, secret) = match (a.text, &a.secret) {
        (Some(text), None) => (text, None),
        (None, Some(name)) => {
            let s = secret::for_field(name).await?;
            (s.value.to_string(), Some(s.fill))
        }
        _ => return Err(ToolError::bad_args("give text or secret, one of them")),
    };
    let call = Type {
        reference: a.reference,
        text,
        submit,
        after: after.wire(),
        secret,
    };
    let r = cx.run(call).within(wait).await?;
    let what = match &a.secret {
        Some(name) => format!("the secret {name} ({} characters)", r.own.chars),
        None => format!("{} characters", r.own.chars),
    };
    let mut head = format!("Typed {what} into {}", r.act.named(&a.element));
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
    let call = Select {
        reference: a.reference,
        values: a.values,
        after: after.wire(),
    };
    let r = cx.run(call).within(wait).await?;
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

async fn clear(
    cx: &Ctx,
    a: RefArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    ref_arg(&a.reference)?;
    let wait = timeout(a.timeout)?;
    let call = Clear {
        reference: a.reference,
        after: after.wire(),
    };
    let r = cx.run(call).within(wait).await?;
    let head = if r.own.changed {
        format!("Cleared {}", r.act.named(&a.element))
    } else {
        format!("{} was already empty", r.act.named(&a.element))
    };
    Ok(r.output_as(head, Nothing {}))
}
