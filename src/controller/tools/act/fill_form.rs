//! browser_fill_form: many fields in one call, across frames and shadow roots, every field
//! checked before the first is written; the fields' outcomes one by one; then, if asked, Enter
//! in the last field.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{ActionOut, secret};
use crate::controller::tools::args::{AfterAction, Wait, hints_of, ref_arg, timeout};
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::{Out, Replayed, Tier};
use crate::controller::tools::tool::{About, Tool};
use crate::shared::error::{Code, Outcome, ToolError};
use crate::shared::protocol::Op;
use crate::shared::protocol::wire::act::{
    After, FieldError, FieldResult, FieldValue, FillField, FillForm, FillReply, Focus, Press,
    Pressed, WaitUntil,
};

const MAX_FIELDS: usize = 200;

pub(super) fn tool() -> Tool {
    super::super::after::acting(
        About {
            name: "browser_fill_form",
            description: "Fill many fields at once (text, select, checkbox, radio), across frames.",
            hints: hints_of(Op::FillForm),
            recorded: Some(Replayed::FillForm),
            tier: Tier::Slim,
            ..About::default()
        },
        |cx, a, after| fill_form(cx, a, after).boxed(),
    )
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct FillFormArgs {
    /// Filled in order; all checked before any is written.
    fields: Vec<Field>,
    /// Then Enter in the last field.
    submit: Option<bool>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Field {
    #[serde(rename = "ref")]
    reference: String,
    /// Text, an option's value or label, or a checkbox/radio boolean.
    #[serde(default)]
    #[schemars(with = "FieldValue")]
    value: Option<FieldValue>,
    /// Or a secret's name.
    secret: Option<String>,
    element: Option<String>,
}

/// A field that failed, with why.
#[derive(Serialize, JsonSchema)]
struct FieldFailure {
    #[serde(rename = "ref")]
    reference: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    element: Option<String>,
    code: String,
    message: String,
}

#[derive(Serialize, JsonSchema)]
struct FilledOut {
    filled: usize,
    total: usize,
    errors: Vec<FieldFailure>,
    fields: Vec<FieldResult>,
    /// What the Enter in the last field did (`submit`).
    #[serde(skip_serializing_if = "Option::is_none")]
    submitted: Option<ActionOut<Pressed>>,
}

async fn fill_form(
    cx: &Ctx,
    a: FillFormArgs,
    after: &AfterAction,
) -> Result<Out<FilledOut>, ToolError> {
    if a.fields.is_empty() || a.fields.len() > MAX_FIELDS {
        return Err(ToolError::bad_args(format!(
            "fields takes 1 to {MAX_FIELDS} fields"
        )));
    }
    for f in &a.fields {
        ref_arg(&f.reference)?;
    }
    let wait = timeout(a.timeout)?;
    let mut fields = Vec::with_capacity(a.fields.len());
    for f in &a.fields {
        fields.push(wire_field(f).await?);
    }
    let submit = a.submit.unwrap_or(false);
    // With submit, the caller's wait and probes are the Enter's: the fill does not wait.
    let call = FillForm {
        fields,
        after: if submit { no_wait() } else { after.wire() },
    };
    let r = cx.run(call).within(wait).await?;
    let mut out = fill_output(&a.fields, r.own)?;
    if submit {
        submit_last(cx, &a.fields, after, wait, &mut out).await?;
    }
    Ok(out)
}

fn no_wait() -> After {
    After {
        wait_until: Some(WaitUntil::None),
        ..After::default()
    }
}

/// `submit`: Enter in the last field, as a person ends a form. The page's own implicit
/// submission does the rest (its default button, or the form), judged for the secrets the form
/// holds like any key press. Not when a field failed: half a form is not sent.
async fn submit_last(
    cx: &Ctx,
    asked: &[Field],
    after: &AfterAction,
    wait: Wait,
    out: &mut Out<FilledOut>,
) -> Result<(), ToolError> {
    if out.outcome != Outcome::Done {
        out.text.push_str("; not submitted, as a field failed");
        return Ok(());
    }
    let last = &asked[asked.len() - 1];
    let focus = Focus {
        reference: last.reference.clone(),
        after: no_wait(),
    };
    cx.run(focus).within(wait).await?;
    let enter = Press {
        key: "Enter".into(),
        modifiers: Vec::new(),
        after: after.wire(),
    };
    let r = cx.run(enter).within(wait).await?;
    let effect = r.own.effect.clone();
    let head = format!(
        "then Enter in {}: {}",
        r.act.named(&last.element),
        effect.as_deref().unwrap_or("no effect the page showed")
    );
    let pressed = r.output(head);
    out.text.push_str("; ");
    out.text.push_str(&pressed.text);
    if effect.is_none() && !pressed.data.navigated {
        // Enter had no default action there and the page did not take it: whether anything
        // was sent is not known.
        out.text
            .push_str(" (if nothing was sent, click the form's button)");
        out.outcome = Outcome::Unknown;
    }
    out.findings = pressed.findings;
    out.data.submitted = Some(pressed.data);
    Ok(())
}

/// A field as the extension takes it: its value, or a secret's with where it may go.
async fn wire_field(f: &Field) -> Result<FillField, ToolError> {
    let (value, secret) = match (&f.value, &f.secret) {
        (Some(value), None) => (value.clone(), None),
        (None, Some(name)) => {
            let s = secret::for_field(name).await?;
            (FieldValue::Text(s.value.to_string()), Some(s.fill))
        }
        _ => {
            return Err(ToolError::bad_args(format!(
                "{}: give value or secret, one of them",
                f.reference
            )));
        }
    };
    Ok(FillField {
        reference: f.reference.clone(),
        value,
        secret,
    })
}

/// One line for the whole form, the fields' outcomes as data; some filled and some failed is
/// `partial`, none filled is an error with every field's reason.
fn fill_output(asked: &[Field], r: FillReply) -> Result<Out<FilledOut>, ToolError> {
    let total = asked.len();
    let failed: Vec<(&FieldResult, &FieldError)> = r
        .fields
        .iter()
        .filter_map(|f| f.error.as_ref().map(|e| (f, e)))
        .filter(|(f, _)| f.outcome == "failed")
        .collect();
    let unchanged = r.fields.iter().filter(|f| f.outcome == "unchanged").count();
    let filled = total - failed.len();
    let label = |f: &FieldResult| {
        let words = asked
            .iter()
            .find(|a| a.reference == f.reference)
            .and_then(|a| a.element.clone())
            .or_else(|| f.element.clone())
            .unwrap_or_default();
        format!("{} {words}", f.reference)
    };
    let reasons: Vec<String> = failed
        .iter()
        .map(|(f, e)| format!("{} ({}: {})", label(f), e.code, e.message))
        .collect();
    if filled == 0 {
        let code = failed
            .first()
            .and_then(|(_, e)| Code::parse(&e.code))
            .unwrap_or(Code::Internal);
        return Err(ToolError::failed(
            code,
            format!("no field was filled: {}", reasons.join("; ")),
        ));
    }
    let mut text = format!("Filled {filled} of {total} fields");
    let secrets = secrets_filled(asked, &r.fields, label);
    if !secrets.is_empty() {
        text.push_str(&format!(" ({})", secrets.join("; ")));
    }
    if unchanged > 0 {
        text.push_str(&format!(" ({unchanged} already had that value)"));
    }
    if !reasons.is_empty() {
        text.push_str(&format!("; failed: {}", reasons.join("; ")));
    }
    let outcome = if failed.is_empty() {
        Outcome::Done
    } else {
        Outcome::Partial
    };
    let errors = failed
        .iter()
        .map(|(f, e)| FieldFailure {
            reference: f.reference.clone(),
            element: f.element.clone(),
            code: e.code.clone(),
            message: e.message.clone(),
        })
        .collect();
    let data = FilledOut {
        filled,
        total,
        errors,
        fields: r.fields,
        submitted: None,
    };
    Ok(Out::new(text, data).with_outcome(outcome))
}

/// The secrets filled by name, each as `secret NAME into FIELD`: the agent learns which of its
/// names went where, never a value.
fn secrets_filled(
    asked: &[Field],
    results: &[FieldResult],
    label: impl Fn(&FieldResult) -> String,
) -> Vec<String> {
    results
        .iter()
        .filter(|f| f.outcome != "failed")
        .filter_map(|f| {
            let name = asked
                .iter()
                .find(|a| a.reference == f.reference)?
                .secret
                .as_ref()?;
            Some(format!("secret {name} into {}", label(f)))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_form_with_some_fields_failed_is_partial() {
        let asked: Vec<Field> = serde_json::from_value(json!([
            {"ref": "e1111", "value": "Ada"},
            {"ref": "e2222", "value": "maybe", "element": "Terms"}
        ]))
        .unwrap();
        let r = serde_json::from_value(json!({"fields": [
            {"ref": "e1111", "element": "<input>", "outcome": "filled"},
            {"ref": "e2222", "element": "<input>", "outcome": "failed",
             "error": {"code": "BAD_ARGS", "message": "give true or false"}}
        ]}))
        .unwrap();
        let out = fill_output(&asked, r).unwrap().finish().unwrap();
        assert_eq!(out.outcome, Outcome::Partial);
        let data = out.structured;
        assert_eq!(
            (data["filled"].clone(), data["total"].clone()),
            (json!(1), json!(2))
        );
        assert_eq!(data["errors"][0]["ref"], "e2222");
        assert!(out.text.contains("e2222 Terms"), "{}", out.text);
        assert!(!out.text.contains('\n'));
    }

    #[test]
    fn the_reply_names_the_secrets_it_filled_and_where_never_a_value() {
        let asked: Vec<Field> = serde_json::from_value(json!([
            {"ref": "e1111", "value": "ada"},
            {"ref": "e2222", "secret": "GITHUB_TOKEN", "element": "Password"},
            {"ref": "e3333", "secret": "app-otp"},
            {"ref": "e4444", "secret": "other"}
        ]))
        .unwrap();
        let r = serde_json::from_value(json!({"fields": [
            {"ref": "e1111", "element": "<input>", "outcome": "filled"},
            {"ref": "e2222", "element": "<input#pw>", "outcome": "filled"},
            {"ref": "e3333", "element": "<input#code>", "outcome": "unchanged"},
            {"ref": "e4444", "element": "<input#x>", "outcome": "failed",
             "error": {"code": "SECRET_ORIGIN_MISMATCH", "message": "not here"}}
        ]}))
        .unwrap();
        let out = fill_output(&asked, r).unwrap().finish().unwrap();
        assert_eq!(
            out.text,
            "Filled 3 of 4 fields (secret GITHUB_TOKEN into e2222 Password; secret app-otp \
             into e3333 <input#code>) (1 already had that value); failed: e4444 <input#x> \
             (SECRET_ORIGIN_MISMATCH: not here)"
        );
    }
}
