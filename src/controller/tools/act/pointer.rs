//! The mouse: click, hover, drag, and scrolling.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::ActionOut;
use crate::controller::tools::args::{AfterAction, hints_of, ref_arg, timeout};
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::{Cli, Out, Replayed, Tier};
use crate::controller::tools::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::Nothing;
use crate::shared::protocol::wire::act::{ActReply, After};
use crate::shared::protocol::wire::act::{
    Click, ClickAt, Clicked, Direction, Drag, Dragged, Hover, Modifier, MouseButton, Scroll,
    Scrolled,
};
use crate::shared::protocol::{Op, WireOp};

pub(super) fn tools() -> Vec<Tool> {
    vec![
        super::super::after::acting(
            About {
                name: "browser_click",
                description: "Click an element by ref, or a viewport point {x, y}.",
                hints: hints_of(Op::Click),
                cli: Cli {
                    positional: &["ref"],
                    ..Cli::default()
                },
                recorded: Some(Replayed::Click),
                tier: Tier::Slim,
                ..About::default()
            },
            |cx, a, after| click(cx, a, after).boxed(),
        ),
        super::super::after::acting(
            About {
                name: "browser_hover",
                description: "Move the mouse over an element.",
                hints: hints_of(Op::Hover),
                recorded: Some(Replayed::Hover),
                ..About::default()
            },
            |cx, a, after| hover(cx, a, after).boxed(),
        ),
        super::super::after::acting(
            About {
                name: "browser_drag",
                description: "Drag one element onto another (same frame).",
                hints: hints_of(Op::Drag),
                ..About::default()
            },
            |cx, a, after| drag(cx, a, after).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_scroll",
                description: "Scroll the page or a container by direction or to x/y, or an element into view.",
                hints: hints_of(Op::Scroll),
                ..About::default()
            },
            |cx, a| scroll(cx, a).boxed(),
        ),
    ]
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ClickArgs {
    /// From a snapshot, like e7k2f; or x and y.
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// Viewport point, CSS pixels.
    x: Option<f64>,
    y: Option<f64>,
    element: Option<String>,
    double_click: Option<bool>,
    button: Option<MouseButton>,
    /// Keys held during the click.
    modifiers: Option<Vec<Modifier>>,
    timeout: Option<u64>,
}

/// One element by ref: hover and clear.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct RefArgs {
    #[serde(rename = "ref")]
    pub(super) reference: String,
    pub(super) element: Option<String>,
    pub(super) timeout: Option<u64>,
}

async fn click(
    cx: &Ctx,
    a: ClickArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Clicked>>, ToolError> {
    let wait = timeout(a.timeout)?;
    let at = match (&a.reference, a.x, a.y) {
        (Some(r), None, None) => {
            ref_arg(r)?;
            ClickAt::Ref {
                reference: r.clone(),
            }
        }
        (None, Some(x), Some(y)) if x.is_finite() && y.is_finite() => ClickAt::Point { x, y },
        _ => {
            return Err(ToolError::bad_args(
                "browser_click takes either ref or both x and y",
            ));
        }
    };
    let modifiers = a.modifiers.unwrap_or_default();
    let button = a.button.unwrap_or(MouseButton::Left);
    let double = a.double_click.unwrap_or(false);
    if button == MouseButton::Middle && cx.advanced_here() {
        return Err(super::keys::middle_click_refused());
    }
    let call = Click {
        at,
        modifiers: modifiers.clone(),
        button,
        double_click: double,
        after: after.wire(),
    };
    let r = cx.run(call).within(wait).await?;
    let verb = match (button, double) {
        (MouseButton::Left, false) => "Clicked",
        (MouseButton::Left, true) => "Double-clicked",
        (MouseButton::Right, _) => "Right-clicked",
        (MouseButton::Middle, _) => "Middle-clicked",
    };
    let mut head = match (a.x, a.y) {
        (Some(x), Some(y)) => format!(
            "{verb} at ({x}, {y}), which hit {}",
            r.own
                .hit
                .as_deref()
                .or(r.act.element.as_deref())
                .unwrap_or("?")
        ),
        _ => format!("{verb} {}", r.act.named(&a.element)),
    };
    if !modifiers.is_empty() {
        let keys: Vec<String> = modifiers.iter().map(|m| format!("{m:?}")).collect();
        head.push_str(&format!(" with {} held", keys.join("+")));
    }
    Ok(r.output(head))
}

async fn hover(
    cx: &Ctx,
    a: RefArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    let call = |reference, after| Hover { reference, after };
    on_ref(cx, a, after, call, "Hovered over").await
}

/// An action on one element by ref that answers with the element alone (hover, focus): `verb`
/// and the element make its line.
pub(super) async fn on_ref<A: WireOp<Reply = ActReply<Nothing>>>(
    cx: &Ctx,
    a: RefArgs,
    after: &AfterAction,
    call: impl FnOnce(String, After) -> A,
    verb: &str,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    ref_arg(&a.reference)?;
    let wait = timeout(a.timeout)?;
    let r = cx.run(call(a.reference, after.wire())).within(wait).await?;
    let head = format!("{verb} {}", r.act.named(&a.element));
    Ok(r.output(head))
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DragArgs {
    start_ref: String,
    start_element: Option<String>,
    /// Drop target, in the same frame as startRef.
    end_ref: String,
    end_element: Option<String>,
    timeout: Option<u64>,
}

async fn drag(
    cx: &Ctx,
    a: DragArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Dragged>>, ToolError> {
    ref_arg(&a.start_ref)?;
    ref_arg(&a.end_ref)?;
    let frame = |r: &str| r.split_once(':').map(|(f, _)| f.to_string());
    if frame(&a.start_ref) != frame(&a.end_ref) {
        return Err(ToolError::bad_args(format!(
            "{} and {} are in different frames; a drag stays in one frame",
            a.start_ref, a.end_ref
        )));
    }
    let wait = timeout(a.timeout)?;
    let call = Drag {
        start_ref: a.start_ref.clone(),
        end_ref: a.end_ref,
        after: after.wire(),
    };
    let r = cx.run(call).within(wait).await?;
    let d = &r.own;
    let target = match &a.end_element {
        Some(words) => format!("{words} ({})", d.target),
        None => d.target.clone(),
    };
    let how = match (d.mode.as_str(), d.dropped) {
        ("html5", true) => "HTML5 drag and drop",
        ("html5", false) => "HTML5 drag; the target did not accept the drop",
        _ => "pointer drag",
    };
    let head = format!(
        "Dragged {} onto {target} ({how})",
        r.act.named(&a.start_element)
    );
    Ok(r.output(head))
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ScrollArgs {
    /// With direction: the container to scroll (or one inside it). Alone: scroll it into view.
    #[serde(rename = "ref")]
    reference: Option<String>,
    element: Option<String>,
    /// Without ref: the page, or its one dominant scrolling panel.
    direction: Option<Direction>,
    /// Pixels (default: most of a screen).
    amount: Option<u32>,
    /// Scroll to this position (px), instead of a direction.
    x: Option<u32>,
    y: Option<u32>,
    /// Bring the first element this CSS selector matches into view (top frame).
    selector: Option<String>,
}

/// Longest CSS selector taken.
const MAX_SELECTOR: usize = 1000;

/// Scrolling changes nothing on the page, so it waits for nothing after.
async fn scroll(cx: &Ctx, a: ScrollArgs) -> Result<Out<Scrolled>, ToolError> {
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    }
    let at = a.x.is_some() || a.y.is_some();
    if let Some(s) = &a.selector {
        if a.reference.is_some() || a.direction.is_some() || at {
            return Err(ToolError::bad_args(
                "selector stands alone: it brings its element into view",
            ));
        }
        if s.trim().is_empty() || s.chars().count() > MAX_SELECTOR {
            return Err(ToolError::bad_args(format!(
                "selector must be 1 to {MAX_SELECTOR} characters"
            )));
        }
    } else if a.reference.is_none() && a.direction.is_none() && !at {
        return Err(ToolError::bad_args(
            "browser_scroll needs a direction, x/y, a ref or a selector to bring into view",
        ));
    }
    if at && a.direction.is_some() {
        return Err(ToolError::bad_args("give a direction or x/y, not both"));
    }
    if a.amount.is_some() && a.direction.is_none() {
        return Err(ToolError::bad_args("amount needs a direction"));
    }
    let call = Scroll {
        direction: a.direction,
        amount: a.amount,
        reference: a.reference,
        x: a.x,
        y: a.y,
        selector: a.selector,
    };
    let r = cx.run(call).await?;
    let mut text = r.summary;
    if let Some(words) = &a.element {
        text.push_str(&format!(" ({words})"));
    }
    Ok(Out::new(text, r.data))
}
