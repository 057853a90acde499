//! operate_local_application: one structured action on an element, through the interface the
//! element offers for it, and what changed in its window since the agent's last look.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::super::ctx::Ctx;
use super::super::diff::diff;
use super::super::spec::Out;
use super::inspect::window_outline;
use crate::controller::apps::{self, Bus, Obj, desktop};
use crate::shared::error::{Code, ToolError};

/// How long an action is given to show in the window before it is read again: toolkits run an
/// action from their main loop, after the call that asked for it has answered.
const SETTLE: Duration = Duration::from_millis(150);

// The actions, by name: what the schema lists and messages say.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
enum Action {
    Click,
    Focus,
    SetText,
    SetValue,
    Select,
    Toggle,
    PressKey,
}

// The input as clients write it, and its schema: one flat object, `value` a string whose meaning
// is the action's. (No doc comment: it would be the schema's description, paid by every client.)
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Given {
    /// From inspect_local_application.
    #[serde(rename = "ref")]
    reference: String,
    action: Action,
    /// set_text: the text; set_value: a number; select: an item's name (on a list); toggle:
    /// "true"/"false" (default: flip); press_key: a key (Enter, Tab, Escape...) or text.
    value: Option<String>,
    /// What the element is, for the audit trail.
    element: Option<String>,
}

// The input as the tool reads it: each action with what it needs, checked as it is parsed
// (before anything is sent), so nothing downstream checks it again.
#[derive(Deserialize, JsonSchema)]
#[serde(try_from = "Given")]
#[schemars(with = "Given")]
pub(super) struct OperateArgs {
    reference: String,
    operation: Operation,
    element: Option<String>,
}

/// One action on an element, with its value.
#[derive(Clone, Debug, PartialEq)]
enum Operation {
    Click,
    Focus,
    SetText(String),
    SetValue(f64),
    /// An item of a list by its name; none: the element itself.
    Select(Option<String>),
    /// Checked or not; none: flip it.
    Toggle(Option<bool>),
    /// A key (Enter, Tab, Escape...) or text; never empty.
    PressKey(String),
}

impl Operation {
    /// The operation `action` names with `value`: what each action needs, said once.
    fn of(action: Action, value: Option<String>) -> Result<Operation, String> {
        let name = json!(action);
        Ok(match (action, value) {
            (Action::Click, None) => Operation::Click,
            (Action::Focus, None) => Operation::Focus,
            (Action::Click | Action::Focus, Some(_)) => {
                return Err(format!("{name} takes no value"));
            }
            (Action::SetText, Some(text)) => Operation::SetText(text),
            (Action::SetValue, Some(v)) => Operation::SetValue(
                v.trim()
                    .parse()
                    .map_err(|_| format!("set_value takes a number, not {v:?}"))?,
            ),
            (Action::Select, item) => Operation::Select(item),
            (Action::Toggle, None) => Operation::Toggle(None),
            (Action::Toggle, Some(w)) => Operation::Toggle(Some(match w.as_str() {
                "true" => true,
                "false" => false,
                _ => return Err("toggle takes \"true\" or \"false\"".into()),
            })),
            (Action::PressKey, Some(key)) if key.is_empty() => {
                return Err("press_key needs a key".into());
            }
            (Action::PressKey, Some(key)) => Operation::PressKey(key),
            (Action::SetText | Action::SetValue | Action::PressKey, None) => {
                return Err(format!("{name} needs a value"));
            }
        })
    }
}

impl TryFrom<Given> for OperateArgs {
    type Error = String;

    fn try_from(given: Given) -> Result<Self, String> {
        Ok(OperateArgs {
            operation: Operation::of(given.action, given.value)?,
            reference: given.reference,
            element: given.element,
        })
    }
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct OperateOut {
    #[serde(rename = "ref")]
    reference: String,
    app: String,
    /// What changed in the window since the last inspect.
    changes: String,
}

pub(super) async fn operate(cx: &Ctx, a: OperateArgs) -> Result<Out<OperateOut>, ToolError> {
    let found = cx.apps().state().refs.get(&a.reference);
    let Some((obj, app)) = found else {
        return Err(ToolError::refused(
            Code::StaleRef,
            format!(
                "{} is not a ref of an application element this session has seen",
                a.reference
            ),
        )
        .recovered_by("inspect_local_application"));
    };
    cx.apps().state().last_app = Some(app.clone());
    let id = desktop::find(&app).await?.map(|e| e.id);
    apps::check_allowed(id.as_deref(), &app)?;
    let bus = cx.apps().bus().await?;
    let node = bus.node(&obj).await?;
    // The element's own name; the agent's words for it where it has none.
    let name = match (node.name.is_empty(), &a.element) {
        (true, Some(said)) => said.clone(),
        _ => node.name,
    };
    let what = format!("{} {}", node.role, json!(name));
    let done = act(bus, &obj, &a.operation, &what).await?;
    let window = cx.apps().state().window_of(&a.reference);
    let changes = match window {
        Some((w, before, max)) => {
            tokio::time::sleep(SETTLE).await;
            let (after, _) = window_outline(cx, &w, &app, max).await?;
            diff(&before, &after, "this window")
        }
        None => {
            "Its window was not inspected in this session: inspect it to see the change.".into()
        }
    };
    let data = OperateOut {
        reference: a.reference,
        app,
        changes: changes.clone(),
    };
    Ok(Out::new(format!("{done}\n\n{changes}"), data))
}

/// Runs the action; says what was done, never the text entered.
async fn act(bus: &Bus, obj: &Obj, operation: &Operation, what: &str) -> Result<String, ToolError> {
    Ok(match operation {
        Operation::Click => {
            let name = bus.click(obj).await?;
            format!("Ran the {} action of {what}.", name.to_lowercase())
        }
        Operation::Focus => {
            bus.focus(obj).await?;
            format!("Focused {what}.")
        }
        Operation::SetText(text) => {
            bus.set_text(obj, text).await?;
            format!("Set the text of {what}.")
        }
        Operation::SetValue(n) => {
            bus.set_value(obj, *n).await?;
            format!("Set {what} to {n}.")
        }
        Operation::Select(item) => {
            bus.select(obj, item.as_deref()).await?;
            match item {
                Some(item) => format!("Selected {} in {what}.", json!(item)),
                None => format!("Selected {what}."),
            }
        }
        Operation::Toggle(want) => toggle(bus, obj, *want, what).await?,
        Operation::PressKey(key) => {
            bus.press_key(obj, key).await?;
            format!("Pressed keys in {what}.")
        }
    })
}

/// Flips a check box or toggle button, or sets it to `want`: no action when it already is.
async fn toggle(bus: &Bus, obj: &Obj, want: Option<bool>, what: &str) -> Result<String, ToolError> {
    let now = bus.checked(obj).await?;
    let want = want.unwrap_or(!now);
    if now == want {
        let state = if now { "checked" } else { "not checked" };
        return Ok(format!("{what} is already {state}; nothing done."));
    }
    bus.click(obj).await?;
    let state = if want { "Checked" } else { "Unchecked" };
    Ok(format!("{state} {what}."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(v: serde_json::Value) -> Result<Operation, ToolError> {
        crate::controller::tools::args::parse::<OperateArgs>("operate_local_application", v)
            .map(|a| a.operation)
    }

    #[test]
    fn each_action_s_value_is_checked_as_it_is_parsed() {
        let of = |action: &str, value: Option<&str>| {
            parse(json!({"ref": "e1abc", "action": action, "value": value}))
        };
        for (action, value) in [
            ("set_text", None),
            ("click", Some("x")),
            ("set_value", Some("ten")),
            ("toggle", Some("yes")),
            ("press_key", Some("")),
            ("press_key", None),
        ] {
            let e = of(action, value).unwrap_err();
            assert_eq!(e.code, Code::BadArgs, "{action} {value:?}");
            assert!(e.message.contains(action), "{}", e.message);
        }
        assert_eq!(
            of("set_value", Some(" 2.5")).unwrap(),
            Operation::SetValue(2.5)
        );
        assert_eq!(of("select", None).unwrap(), Operation::Select(None));
        assert_eq!(
            of("toggle", Some("true")).unwrap(),
            Operation::Toggle(Some(true))
        );
        assert_eq!(of("toggle", None).unwrap(), Operation::Toggle(None));
        assert_eq!(
            of("set_text", Some("")).unwrap(),
            Operation::SetText(String::new())
        );
        let e = parse(json!({"ref": "e1abc", "action": "click", "bogus": 1})).unwrap_err();
        assert_eq!(e.code, Code::BadArgs);
    }

    /// The input schema clients see is the flat object it always was.
    #[test]
    fn the_schema_is_one_flat_object() {
        let schema = crate::controller::tools::args::schema::<OperateArgs>();
        assert_eq!(schema, crate::controller::tools::args::schema::<Given>());
        assert_eq!(schema["required"], json!(["ref", "action"]));
        assert_eq!(schema["additionalProperties"], json!(false));
        assert_eq!(schema["properties"]["value"]["type"], "string");
    }
}
