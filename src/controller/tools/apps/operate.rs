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

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct OperateArgs {
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
    let value = check_value(a.action, a.value.as_deref())?;
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
    let id = desktop::find(&app).map(|e| e.id);
    apps::check_allowed(id.as_deref(), &app)?;
    let bus = cx.apps().bus().await?;
    let node = bus.node(&obj).await?;
    // The element's own name; the agent's words for it where it has none.
    let name = match (node.name.is_empty(), &a.element) {
        (true, Some(said)) => said.clone(),
        _ => node.name,
    };
    let what = format!("{} {}", node.role, json!(name));
    let done = act(bus, &obj, a.action, value, &what).await?;
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

/// The value an action needs, checked before anything is sent.
fn check_value(action: Action, value: Option<&str>) -> Result<Option<&str>, ToolError> {
    let needs = matches!(
        action,
        Action::SetText | Action::SetValue | Action::PressKey
    );
    let takes = needs || matches!(action, Action::Select | Action::Toggle);
    match value {
        None if needs => Err(ToolError::bad_args(format!(
            "{} needs a value",
            json!(action)
        ))),
        Some(_) if !takes => Err(ToolError::bad_args(format!(
            "{} takes no value",
            json!(action)
        ))),
        Some(v) if action == Action::SetValue && v.trim().parse::<f64>().is_err() => Err(
            ToolError::bad_args(format!("set_value takes a number, not {v:?}")),
        ),
        Some(v) if action == Action::Toggle && !matches!(v, "true" | "false") => {
            Err(ToolError::bad_args("toggle takes \"true\" or \"false\""))
        }
        Some("") if action == Action::PressKey => Err(ToolError::bad_args("press_key needs a key")),
        v => Ok(v),
    }
}

/// Runs the action; says what was done, never the text entered.
async fn act(
    bus: &Bus,
    obj: &Obj,
    action: Action,
    value: Option<&str>,
    what: &str,
) -> Result<String, ToolError> {
    Ok(match (action, value) {
        (Action::Click, _) => {
            let name = bus.click(obj).await?;
            format!("Ran the {} action of {what}.", name.to_lowercase())
        }
        (Action::Focus, _) => {
            bus.focus(obj).await?;
            format!("Focused {what}.")
        }
        (Action::SetText, Some(text)) => {
            bus.set_text(obj, text).await?;
            format!("Set the text of {what}.")
        }
        (Action::SetValue, Some(v)) => {
            let n: f64 = v
                .trim()
                .parse()
                .map_err(|_| ToolError::bad_args("not a number"))?;
            bus.set_value(obj, n).await?;
            format!("Set {what} to {n}.")
        }
        (Action::Select, item) => {
            bus.select(obj, item).await?;
            match item {
                Some(item) => format!("Selected {} in {what}.", json!(item)),
                None => format!("Selected {what}."),
            }
        }
        (Action::Toggle, want) => toggle(bus, obj, want, what).await?,
        (Action::PressKey, Some(key)) => {
            bus.press_key(obj, key).await?;
            format!("Pressed keys in {what}.")
        }
        (_, None) => return Err(ToolError::bad_args("this action needs a value")),
    })
}

/// Flips a check box or toggle button, or sets it to `want`: no action when it already is.
async fn toggle(bus: &Bus, obj: &Obj, want: Option<&str>, what: &str) -> Result<String, ToolError> {
    let now = bus.checked(obj).await?;
    let want = want.map_or(!now, |w| w == "true");
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

    #[test]
    fn each_action_s_value_is_checked_before_anything_is_sent() {
        assert!(check_value(Action::SetText, None).is_err());
        assert!(check_value(Action::Click, Some("x")).is_err());
        assert!(check_value(Action::SetValue, Some("ten")).is_err());
        assert!(check_value(Action::Toggle, Some("yes")).is_err());
        assert!(check_value(Action::PressKey, Some("")).is_err());
        assert_eq!(
            check_value(Action::SetValue, Some("2.5")).unwrap(),
            Some("2.5")
        );
        assert_eq!(check_value(Action::Select, None).unwrap(), None);
        assert_eq!(
            check_value(Action::Toggle, Some("true")).unwrap(),
            Some("true")
        );
    }
}
