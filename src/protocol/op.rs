//! The operations a controller asks for: those a browser runs (`Op`) and those the relay answers
//! itself (`RelayOp`). Each browser operation knows what it targets and whether it can change the
//! page, so neither the relay nor the extension decides that from a name.

use serde::{Deserialize, Serialize};

use super::Scope;

/// Declares `Op` from one table: variant, wire name, scope, whether it changes the page.
macro_rules! ops {
    ($($variant:ident = $wire:literal, $scope:ident, $mutates:literal;)*) => {
        /// Something a browser does for a controller.
        #[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq, Hash)]
        pub enum Op {
            $(#[serde(rename = $wire)] $variant,)*
        }

        impl Op {
            /// Every operation, in the table's order.
            pub const ALL: &'static [Op] = &[$(Op::$variant,)*];

            /// The name on the wire, as the extension's dispatch table knows it.
            pub fn name(self) -> &'static str {
                match self {
                    $(Op::$variant => $wire,)*
                }
            }

            /// What the operation needs from the relay: the agent's tab, or only a browser.
            pub fn scope(self) -> Scope {
                match self {
                    $(Op::$variant => Scope::$scope,)*
                }
            }

            /// Whether it can change the page: a lost reply is then "may have taken effect".
            pub fn mutates(self) -> bool {
                match self {
                    $(Op::$variant => $mutates,)*
                }
            }
        }
    };
}

ops! {
    TabOpen = "tabOpen", Browser, true;
    TabInfo = "tabInfo", Tab, false;
    TabFocus = "tabFocus", Tab, true;
    TabList = "tabList", Browser, false;
    TabClose = "tabClose", Browser, true;
    Navigate = "navigate", Tab, true;
    History = "history", Tab, true;
    Snapshot = "snapshot", Tab, false;
    Read = "read", Tab, false;
    Find = "find", Tab, false;
    Html = "html", Tab, false;
    WaitFor = "waitFor", Tab, false;
    Screenshot = "screenshot", Tab, false;
    Dialog = "dialog", Tab, true;
    Dialogs = "dialogs", Tab, false;
    Click = "click", Tab, true;
    Type = "type", Tab, true;
    Hover = "hover", Tab, true;
    Select = "select", Tab, true;
    Clear = "clear", Tab, true;
    Upload = "upload", Tab, true;
    UploadPart = "uploadPart", Tab, true;
    Drag = "drag", Tab, true;
    Press = "press", Tab, true;
    Scroll = "scroll", Tab, false;
    FillForm = "fillForm", Tab, true;
    Eval = "eval", Tab, true;
    PageTools = "pageTools", Tab, false;
    PageToolCall = "pageToolCall", Tab, true;
    Vitals = "vitals", Tab, false;
    Memory = "memory", Tab, false;
    Trace = "trace", Tab, false;
    A11y = "a11y", Tab, false;
    NetworkRequests = "networkRequests", Tab, false;
    NetworkRequest = "networkRequest", Tab, false;
    NetworkReload = "networkReload", Tab, true;
    Issues = "issues", Tab, false;
    ConsoleLogs = "consoleLogs", Tab, false;
    Release = "release", Browser, true;
}

impl Op {
    /// Whether it acts on the page in its tab, so the site policy judges it by the page's
    /// origin: every page-changing operation but those that only move the tab between pages
    /// (judged by where they go) and open or close tabs.
    pub fn acts_on_page(self) -> bool {
        self.mutates()
            && !matches!(
                self,
                Op::TabOpen
                    | Op::TabFocus
                    | Op::TabClose
                    | Op::Navigate
                    | Op::History
                    | Op::Release
            )
    }

    /// Whether only the relay sends it: an agent's release, which the relay's books decide
    /// (a controller asks the relay for it, `RelayOp::Release`).
    pub fn relay_only(self) -> bool {
        self == Op::Release
    }
}

/// What the relay answers itself.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum RelayOp {
    /// The roster: the relay, its browsers and agents.
    Status,
    /// A one-time pairing page for a user's own browser.
    Pair,
    /// The tab this agent works in, from the relay's books.
    MyTab,
    /// The connected browser a label or id names (NO_BROWSER for none, AMBIGUOUS_BROWSER for
    /// several), as status lists it.
    Browser { name: String },
    /// Takes a tab another agent holds; that agent's next call in it is LEASE_LOST.
    ForceClaim {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        browser: Option<String>,
        tab: i64,
        reason: String,
    },
    /// Gives up an agent's tabs: this agent's, or (a person's release, from the popup or the
    /// dashboard) the agent with this id. `close_opened` closes the tabs it opened.
    Release {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        agent: Option<String>,
        close_opened: bool,
    },
}

impl RelayOp {
    /// Whether a browser may ask it (its popup shows the agents and releases one).
    pub fn for_browsers(&self) -> bool {
        matches!(
            self,
            RelayOp::Status | RelayOp::Release { agent: Some(_), .. }
        )
    }
}

/// Something that happened to a tab, as the extension reports it: attached to the result of the
/// call that caused it, or on its own when the person or the page did it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum TabEvent {
    Opened {
        tab: i64,
    },
    Closed {
        tab: i64,
    },
    /// Chrome swapped a tab for another (a prerendered page took its place).
    Replaced {
        old: i64,
        tab: i64,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The extension's dispatch table, read the way it is written: one op per line, two spaces
    /// in, between `export const OPS = {` and `};`.
    fn extension_ops() -> Vec<String> {
        let file = crate::extension::FILES
            .get_file("ops.js")
            .and_then(|f| f.contents_utf8())
            .expect("the extension has ops.js");
        let body = file
            .split_once("export const OPS = {")
            .and_then(|(_, rest)| rest.split_once("\n};"))
            .map(|(body, _)| body)
            .expect("ops.js declares `export const OPS = {` ... `};`");
        body.lines()
            .filter_map(|line| line.strip_prefix("  "))
            .filter(|line| !line.starts_with(' ') && !line.starts_with("//"))
            .filter_map(|line| {
                line.split_once(':')
                    .map(|(name, _)| name.trim().to_string())
            })
            .collect()
    }

    #[test]
    fn every_operation_has_a_handler_in_the_extension_and_back() {
        let handled = extension_ops();
        for op in Op::ALL {
            assert!(
                handled.iter().any(|h| h == op.name()),
                "the extension has no handler for {}",
                op.name()
            );
        }
        for h in &handled {
            assert!(
                Op::ALL.iter().any(|op| op.name() == h),
                "the extension handles {h}, which the Rust side never sends"
            );
        }
    }

    #[test]
    fn ops_go_on_the_wire_by_their_names() {
        for op in Op::ALL {
            assert_eq!(serde_json::to_value(op).unwrap(), op.name());
        }
        let ev: TabEvent = serde_json::from_str(r#"{"kind":"replaced","old":3,"tab":9}"#).unwrap();
        assert_eq!(ev, TabEvent::Replaced { old: 3, tab: 9 });
    }
}
