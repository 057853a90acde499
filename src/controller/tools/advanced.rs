//! browser_advanced_mode: the debugger attached to the agent's tab, on request only, for what
//! nothing else can do (trusted input, a script before the page's, the browser's own prompts,
//! device emulation). The browser shows its "started debugging this browser" banner while it is
//! on; the extension detaches it on `off`, on release, when the tab closes and when the agent
//! goes (sw/debugger.js). `TABPILOT_NO_ADVANCED` refuses it here, before anything is sent.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::hints_of;
use super::ctx::Ctx;
use super::spec::{Cli, Keeps, Out};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::Op;
use crate::shared::protocol::wire::advanced::{Advanced, AdvancedState};

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
#[serde(rename_all = "lowercase")]
enum Mode {
    On,
    Off,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AdvancedArgs {
    mode: Mode,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_advanced_mode",
            description: "Debugger on your tab (the browser shows a banner): trusted input, initScript, open dialogs, \
                          device emulation; off detaches.",
            hints: hints_of(Op::Advanced),
            cli: Cli {
                positional: &["mode"],
                ..Cli::default()
            },
            keeps: Keeps::args(&["mode"]),
            ..About::default()
        },
        |cx, a| advanced(cx, a).boxed(),
    )]
}

/// Names the calls that advanced mode changes, so an agent knows what it now has.
const WHAT_IT_GIVES: &str = "clicks and keys are trusted input (the tab must be in front: \
    browser_switch_tab), browser_navigate takes initScript and handleBeforeUnload, \
    browser_handle_dialog {answer} answers an open dialog, browser_emulate takes viewport, \
    userAgent, colorScheme, reducedMotion, network and cpu";

async fn advanced(cx: &Ctx, a: AdvancedArgs) -> Result<Out<AdvancedState>, ToolError> {
    let on = a.mode == Mode::On;
    if on {
        cx.policy().check_advanced("browser_advanced_mode")?;
    }
    let r = cx.run(Advanced { on }).await?;
    cx.note_advanced(r.on);
    if !on {
        // Its throttling went with it: later calls wait as long as ever.
        cx.note_slowdown(1.0);
    }
    let text = match (on, r.unchanged) {
        (true, false) => format!(
            "Advanced mode on: the debugger is attached to your tab, and the browser shows its \
             banner. Now {WHAT_IT_GIVES}. Off with browser_advanced_mode {{mode: \"off\"}}."
        ),
        (true, true) => format!("Advanced mode was already on; {WHAT_IT_GIVES}."),
        (false, false) => "Advanced mode off: the debugger is detached, and its emulation and \
                           script ended."
            .to_string(),
        (false, true) => "Advanced mode was already off: no debugger is attached for you.".into(),
    };
    Ok(Out::new(text, r))
}

impl Ctx {
    /// Keeps whether advanced mode is on in the agent's tab, as its answer said.
    pub fn note_advanced(&self, on: bool) {
        let mut state = self.state();
        let Some(tab) = state.current_tab else { return };
        if on {
            state.advanced.insert(tab);
        } else {
            state.advanced.remove(&tab);
        }
    }

    /// Whether this agent switched advanced mode on in its tab (so keys are real input), as far
    /// as it knows: the browser may have ended it since (the person cancelled its banner,
    /// another agent took the tab), and the extension then judges for itself.
    pub fn advanced_here(&self) -> bool {
        let state = self.state();
        state
            .current_tab
            .is_some_and(|t| state.advanced.contains(&t))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::policy::Policy;
    use crate::shared::error::{Code, Outcome};
    use serde_json::json;

    #[tokio::test]
    async fn the_person_s_switch_refuses_on_before_anything_is_sent_and_off_still_goes() {
        let cx = Ctx::offline_under(
            crate::controller::context::ContextEnv::from_process(),
            Policy {
                no_advanced: true,
                ..Policy::default()
            },
        );
        let tool = tools().remove(0);
        let e = tool.call(&cx, json!({"mode": "on"})).await.unwrap_err();
        assert_eq!(
            (e.code, e.outcome),
            (Code::AdvancedModeRequired, Outcome::Refused)
        );
        assert!(e.message.contains("TABPILOT_NO_ADVANCED"), "{e}");
        assert!(e.text().contains("Recover: ask the person"), "{}", e.text());
        // Off is not refused by the switch: it reaches for the browser (none here).
        let e = tool.call(&cx, json!({"mode": "off"})).await.unwrap_err();
        assert_ne!(e.code, Code::AdvancedModeRequired, "{e}");
    }
}
