//! The operations a controller asks for: those a browser runs (`Op`) and those the relay answers
//! itself (`RelayOp`). Each browser operation knows what it targets and whether it can change the
//! page, so neither the relay nor the extension decides that from a name.

use std::time::Duration;

use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::wire::{
    Nothing, act, advanced, diagnostics, dialog, downloads, emulate, locate, nav, network, page,
    script, state, tabs,
};
use super::{Scope, TabId, ask};

/// What an operation does to the page it runs in: the one answer read-only mode, the site
/// policy's judgment at the moment of an action, the relay's books and a lost reply all take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Changes nothing: reading, waiting, scrolling (how an agent reads lazy content).
    Reads,
    /// Moves the agent's tab between pages, or opens, focuses or closes a tab: judged by where
    /// it goes, allowed in read-only mode.
    Moves,
    /// Acts on the page in its tab: judged by the page's origin, refused in read-only mode.
    Acts,
}

/// How long a call waits for its answer: a fixed class, or what the calling tool decides (its
/// `timeout` argument, given with `Run::within`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timeout {
    /// 10 s.
    Quick,
    /// 15 s.
    Read,
    /// 30 s: a capture.
    Capture,
    /// 60 s: an audit run in every frame.
    Audit,
    /// The tool's own.
    Caller,
}

impl Timeout {
    /// The fixed wait of the class; none when the tool decides.
    pub fn fixed(self) -> Option<Duration> {
        let secs = match self {
            Timeout::Quick => 10,
            Timeout::Read => 15,
            Timeout::Capture => 30,
            Timeout::Audit => 60,
            Timeout::Caller => return None,
        };
        Some(Duration::from_secs(secs))
    }
}

/// An operation's arguments, declared with it in the `ops!` table: sending them is the call,
/// and its answer is read as `Reply`.
pub trait WireOp: Serialize + JsonSchema + Send {
    const OP: Op;
    type Reply: DeserializeOwned + JsonSchema + Send;
}

/// A type's JSON schema as it is written (arguments) or read (replies), `$defs` inside.
fn schema_of<T: JsonSchema>(written: bool) -> Value {
    let settings = schemars::generate::SchemaSettings::draft2020_12();
    let settings = if written {
        settings.for_serialize()
    } else {
        settings
    };
    serde_json::to_value(settings.into_generator().into_root_schema_for::<T>())
        .expect("schemas serialize")
}

/// Declares `Op` from one table: variant, wire name, scope, effect, timeout class, and the
/// arguments' type with the reply's.
macro_rules! ops {
    ($($variant:ident = $wire:literal, $scope:ident, $effect:ident, $timeout:ident
        => $args:ty => $reply:ty;)*) => {
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

            /// What it does to the page.
            pub fn effect(self) -> Effect {
                match self {
                    $(Op::$variant => Effect::$effect,)*
                }
            }

            /// How long a call of it waits.
            pub fn timeout(self) -> Timeout {
                match self {
                    $(Op::$variant => Timeout::$timeout,)*
                }
            }

            /// The JSON schemas of its arguments and of its reply.
            pub fn schemas(self) -> (Value, Value) {
                match self {
                    $(Op::$variant => (schema_of::<$args>(true), schema_of::<$reply>(false)),)*
                }
            }
        }

        $(impl WireOp for $args {
            const OP: Op = Op::$variant;
            type Reply = $reply;
        })*
    };
}

ops! {
    TabOpen = "tabOpen", Browser, Moves, Read
        => tabs::TabOpen => tabs::Tab;
    TabInfo = "tabInfo", Tab, Reads, Read
        => tabs::TabInfo => tabs::Tab;
    TabFocus = "tabFocus", Tab, Moves, Read
        => tabs::TabFocus => tabs::Tab;
    TabList = "tabList", Browser, Reads, Read
        => tabs::TabList => tabs::Tabs;
    TabClose = "tabClose", Browser, Moves, Read
        => tabs::TabClose => tabs::Closed;
    Navigate = "navigate", Tab, Moves, Caller
        => nav::Navigate => nav::NavReply;
    History = "history", Tab, Moves, Caller
        => nav::History => nav::NavReply;
    Snapshot = "snapshot", Tab, Reads, Capture
        => page::Snapshot => page::SnapshotReply;
    Read = "read", Tab, Reads, Read
        => page::Read => page::ReadReply;
    Find = "find", Tab, Reads, Read
        => page::Find => page::FindReply;
    Html = "html", Tab, Reads, Read
        => page::Html => page::HtmlOut;
    WaitFor = "waitFor", Tab, Reads, Caller
        => page::WaitFor => page::WaitReply;
    ResolveLocator = "resolveLocator", Tab, Reads, Caller
        => locate::ResolveLocator => locate::Resolved;
    Screenshot = "screenshot", Tab, Reads, Capture
        => page::Screenshot => page::CaptureReply;
    Dialog = "dialog", Tab, Acts, Quick
        => dialog::SetDialogs => dialog::DialogsOut;
    Dialogs = "dialogs", Tab, Reads, Quick
        => dialog::ReadDialogs => dialog::DialogsOut;
    Click = "click", Tab, Acts, Caller
        => act::Click => act::ActReply<act::Clicked>;
    Type = "type", Tab, Acts, Caller
        => act::Type => act::ActReply<act::Typed>;
    Hover = "hover", Tab, Acts, Caller
        => act::Hover => act::ActReply<Nothing>;
    Focus = "focus", Tab, Acts, Caller
        => act::Focus => act::ActReply<Nothing>;
    Select = "select", Tab, Acts, Caller
        => act::Select => act::ActReply<act::Selected>;
    Clear = "clear", Tab, Acts, Caller
        => act::Clear => act::ActReply<act::Cleared>;
    Upload = "upload", Tab, Acts, Caller
        => act::Upload => act::ActReply<act::Uploaded>;
    UploadPart = "uploadPart", Tab, Acts, Caller
        => act::UploadPart => act::Staged;
    Drag = "drag", Tab, Acts, Caller
        => act::Drag => act::ActReply<act::Dragged>;
    Press = "press", Tab, Acts, Caller
        => act::Press => act::ActReply<act::Pressed>;
    Scroll = "scroll", Tab, Reads, Read
        => act::Scroll => act::ScrollReply;
    FillForm = "fillForm", Tab, Acts, Caller
        => act::FillForm => act::ActReply<act::FillReply>;
    Eval = "eval", Tab, Acts, Caller
        => script::Eval => script::EvalOut;
    PageTools = "pageTools", Tab, Reads, Caller
        => script::PageTools => script::PageToolsOut;
    PageToolCall = "pageToolCall", Tab, Acts, Caller
        => script::PageToolCall => script::PageToolsOut;
    Vitals = "vitals", Tab, Reads, Capture
        => diagnostics::Vitals => diagnostics::VitalsReply;
    Memory = "memory", Tab, Reads, Caller
        => diagnostics::Memory => diagnostics::MemoryReply;
    Trace = "trace", Tab, Reads, Caller
        => diagnostics::Trace => diagnostics::TraceReply;
    A11y = "a11y", Tab, Reads, Audit
        => diagnostics::A11y => diagnostics::AuditReply;
    NetworkRequests = "networkRequests", Tab, Reads, Quick
        => network::NetworkRequests => network::ListOut;
    NetworkRequest = "networkRequest", Tab, Reads, Capture
        => network::NetworkRequest => network::OneOut;
    NetworkReload = "networkReload", Tab, Acts, Capture
        => network::NetworkReload => network::OneOut;
    Issues = "issues", Tab, Reads, Read
        => network::Issues => network::IssuesOut;
    ConsoleLogs = "consoleLogs", Tab, Reads, Read
        => diagnostics::ConsoleLogs => diagnostics::Log;
    Cookies = "cookies", Tab, Reads, Read
        => state::Cookies => state::CookiesOut;
    SetCookie = "setCookie", Tab, Acts, Quick
        => state::SetCookie => state::CookieSet;
    StorageRead = "storageRead", Tab, Reads, Read
        => state::StorageRead => state::StorageOut;
    StorageWrite = "storageWrite", Tab, Acts, Quick
        => state::StorageWrite => state::StorageOut;
    Release = "release", Browser, Moves, Quick
        => tabs::Release => tabs::Released;
    Downloads = "downloads", Browser, Reads, Caller
        => downloads::Downloads => downloads::DownloadsOut;
    Emulate = "emulate", Tab, Acts, Quick
        => emulate::Emulate => emulate::Emulation;
    Emulation = "emulation", Tab, Reads, Quick
        => emulate::ReadEmulation => emulate::Emulation;
    Proxy = "proxy", Browser, Acts, Quick
        => emulate::SetProxy => emulate::ProxyState;
    ProxyState = "proxyState", Browser, Reads, Quick
        => emulate::ReadProxy => emulate::ProxyState;
    Advanced = "advanced", Tab, Moves, Quick
        => advanced::Advanced => advanced::AdvancedState;
}

impl Op {
    /// Whether it can change the page: a lost reply is then "may have taken effect".
    pub fn mutates(self) -> bool {
        self.effect() != Effect::Reads
    }

    /// Whether it acts on the page in its tab, so the site policy judges it by the page's
    /// origin (an operation that moves the tab between pages, or opens or closes one, is judged
    /// by where it goes).
    pub fn acts_on_page(self) -> bool {
        self.effect() == Effect::Acts
    }

    /// Whether only the relay sends it: an agent's release, which the relay's books decide
    /// (a controller asks the relay for it, `RelayOp::Release`).
    pub fn relay_only(self) -> bool {
        self == Op::Release
    }
}

/// What the relay answers itself, as it goes on the wire; each ask, with the type of its
/// answer, is declared in `protocol::ask` (`RelayAsk`).
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum RelayOp {
    Status,
    Pair,
    PairRemote,
    MyTab,
    Browser(ask::Browser),
    ForceClaim(ask::ForceClaim),
    Release(ask::Release),
}

impl RelayOp {
    /// Whether a browser may ask it (its popup shows the agents and releases one).
    pub fn for_browsers(&self) -> bool {
        matches!(
            self,
            RelayOp::Status | RelayOp::Release(ask::Release { agent: Some(_), .. })
        )
    }
}

/// Something that happened to a tab, as the extension reports it: attached to the result of the
/// call that caused it, or on its own when the person or the page did it.
#[derive(Clone, Copy, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum TabEvent {
    Opened {
        tab: TabId,
    },
    Closed {
        tab: TabId,
    },
    /// Chrome swapped a tab for another (a prerendered page took its place).
    Replaced {
        old: TabId,
        tab: TabId,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ops_go_on_the_wire_by_their_names() {
        for op in Op::ALL {
            assert_eq!(serde_json::to_value(op).unwrap(), op.name());
        }
        let ev: TabEvent = serde_json::from_str(r#"{"kind":"replaced","old":3,"tab":9}"#).unwrap();
        assert_eq!(
            ev,
            TabEvent::Replaced {
                old: TabId(3),
                tab: TabId(9)
            }
        );
    }
}
