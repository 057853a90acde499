//! Keys: browser_press_key and the combos it understands, and browser_focus, which says where
//! the keys go.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::ActionOut;
use crate::controller::tools::args::{AfterAction, hints_of, timeout};
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::{Out, Replayed, Tier};
use crate::controller::tools::tool::{About, Tool};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::Op;
use crate::shared::protocol::wire::Nothing;
use crate::shared::protocol::wire::act::{Focus, Modifier, Press, Pressed};

use super::pointer::RefArgs;

pub(super) fn tools() -> [Tool; 2] {
    [press_tool(), focus_tool()]
}

fn focus_tool() -> Tool {
    super::super::after::acting(
        About {
            name: "browser_focus",
            description: "Focus an element by ref, for the keys that follow.",
            hints: hints_of(Op::Focus),
            recorded: Some(Replayed::Focus),
            ..About::default()
        },
        |cx, a, after| focus(cx, a, after).boxed(),
    )
}

async fn focus(
    cx: &Ctx,
    a: RefArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Nothing>>, ToolError> {
    let call = |reference, after| Focus { reference, after };
    super::pointer::on_ref(cx, a, after, call, "Focused").await
}

fn press_tool() -> Tool {
    super::super::after::acting(
        About {
            name: "browser_press_key",
            description: "Press a key or combo on the focused element.",
            hints: hints_of(Op::Press),
            recorded: Some(Replayed::PressKey),
            tier: Tier::Core,
            ..About::default()
        },
        |cx, a, after| press(cx, a, after).boxed(),
    )
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PressArgs {
    /// A key or combo: "Enter", "a", "Control+A", "Shift+Tab", "ArrowDown".
    key: String,
    timeout: Option<u64>,
}

async fn press(
    cx: &Ctx,
    a: PressArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Pressed>>, ToolError> {
    let (modifiers, key) = parse_key(&a.key)?;
    if cx.advanced_here()
        && let Some(does) = clipboard_chord(&modifiers, &key)
    {
        return Err(clipboard_refused(&a.key, does));
    }
    let wait = timeout(a.timeout)?;
    let call = Press {
        key,
        modifiers,
        after: after.wire(),
    };
    let r = cx.run(call).within(wait).await?;
    let mut head = format!(
        "Pressed {} on {}",
        a.key,
        r.act.element.as_deref().unwrap_or("?")
    );
    if let Some(effect) = &r.own.effect {
        head.push_str(&format!("; {effect}"));
    }
    Ok(r.output(head))
}

/// Keys the page knows how to press besides single characters.
const NAMED_KEYS: &[&str] = &[
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Space",
    "Insert",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
];

/// "Control+Shift+A" into its modifiers and its key; "Space" is the key " ".
fn parse_key(combo: &str) -> Result<(Vec<Modifier>, String), ToolError> {
    // A combo ending in "+" presses the plus key itself ("+", "Shift++").
    let (mods, key) = match combo.strip_suffix('+') {
        Some(rest) if rest.is_empty() || rest.ends_with('+') => {
            (rest.strip_suffix('+').unwrap_or(""), "+")
        }
        _ => combo.rsplit_once('+').unwrap_or(("", combo)),
    };
    let mut modifiers = Vec::new();
    for m in mods.split('+').filter(|m| !m.is_empty()) {
        let m = match m {
            "Alt" | "Option" => Modifier::Alt,
            "Control" | "Ctrl" => Modifier::Control,
            "Meta" | "Cmd" | "Command" => Modifier::Meta,
            "Shift" => Modifier::Shift,
            other => {
                return Err(ToolError::bad_args(format!(
                    "{other:?} in {combo:?} is not a modifier; use Alt, Control, Meta or Shift"
                )));
            }
        };
        if !modifiers.contains(&m) {
            modifiers.push(m);
        }
    }
    if key == "Space" {
        return Ok((modifiers, " ".into()));
    }
    if key.chars().count() == 1 || NAMED_KEYS.contains(&key) {
        return Ok((modifiers, key.to_string()));
    }
    Err(ToolError::bad_args(format!(
        "{key:?} is not a key; give one character or one of {}",
        NAMED_KEYS.join(", ")
    )))
}

/// What a chord does to the clipboard, when it is one the browser's editing takes as a paste,
/// a copy or a cut (Windows and Linux bindings, and the Mac's with Meta): in real input it
/// reads the person's clipboard into the agent's page, or writes the agent's text into theirs.
pub(crate) fn clipboard_chord(modifiers: &[Modifier], key: &str) -> Option<&'static str> {
    let has = |m: Modifier| modifiers.contains(&m);
    let command = has(Modifier::Control) || has(Modifier::Meta);
    match key.to_ascii_lowercase().as_str() {
        "v" if command => Some("pastes the person's clipboard"),
        "c" if command => Some("copies into the person's clipboard"),
        "x" if command => Some("cuts into the person's clipboard"),
        "insert" if has(Modifier::Shift) => Some("pastes the person's clipboard"),
        "insert" if command => Some("copies into the person's clipboard"),
        "delete" if has(Modifier::Shift) => Some("cuts into the person's clipboard"),
        _ => None,
    }
}

/// A middle click in a text field pastes the primary selection on Linux: what the person last
/// selected, in any window. As real input, refused.
pub(super) fn middle_click_refused() -> ToolError {
    ToolError::refused(
        Code::BadArgs,
        "a middle click in advanced mode is real input, and in a text field it pastes the person's \
         selection (what they last selected, in any window): real input never middle-clicks",
    )
    .recovered_by(
        "a left click, or browser_advanced_mode {mode: \"off\"} for a synthetic middle click",
    )
}

fn clipboard_refused(combo: &str, does: &str) -> ToolError {
    ToolError::refused(
        Code::BadArgs,
        format!(
            "{combo} in advanced mode is real input, and {does}: the clipboard is the person's, \
             so real input never presses a clipboard chord"
        ),
    )
    .recovered_by(
        "browser_type or browser_fill to put text in a field; browser_advanced_mode {mode: \"off\"} \
         for a chord the page handles itself (synthetic keys never reach the clipboard)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_combos_split_into_modifiers_and_a_key() {
        let (m, k) = parse_key("Control+A").unwrap();
        assert_eq!((m, k.as_str()), (vec![Modifier::Control], "A"));
        let (m, k) = parse_key("Shift+Tab").unwrap();
        assert_eq!((m, k.as_str()), (vec![Modifier::Shift], "Tab"));
        assert_eq!(parse_key("+").unwrap().1, "+");
        let (m, k) = parse_key("Shift++").unwrap();
        assert_eq!((m, k.as_str()), (vec![Modifier::Shift], "+"));
        assert_eq!(parse_key("Space").unwrap().1, " ");
        assert_eq!(parse_key("é").unwrap().1, "é");
        for bad in ["Hyper+A", "Enterr", "Control+", "ab"] {
            assert_eq!(parse_key(bad).unwrap_err().code, Code::BadArgs, "{bad}");
        }
    }

    #[test]
    fn clipboard_chords_are_known_in_every_spelling() {
        for chord in [
            "Control+V",
            "Ctrl+v",
            "Meta+V",
            "Control+Shift+V",
            "Cmd+Shift+v",
            "Control+C",
            "Meta+c",
            "Control+X",
            "Control+Alt+x",
            "Shift+Insert",
            "Control+Insert",
            "Meta+Insert",
            "Shift+Delete",
        ] {
            let (m, k) = parse_key(chord).unwrap();
            assert!(clipboard_chord(&m, &k).is_some(), "{chord}");
        }
        for plain in [
            "v",
            "Shift+V",
            "Alt+V",
            "Control+A",
            "Control+Z",
            "Insert",
            "Delete",
            "Control+Delete",
            "Enter",
        ] {
            let (m, k) = parse_key(plain).unwrap();
            assert!(clipboard_chord(&m, &k).is_none(), "{plain}");
        }
        let e = clipboard_refused("Control+V", "pastes the person's clipboard");
        assert_eq!(
            (e.code, e.outcome),
            (Code::BadArgs, crate::shared::error::Outcome::Refused)
        );
        assert!(e.message.contains("Control+V") && e.message.contains("clipboard"));
    }
}
