//! The kinds of frame on a link (each frame's `t`) and of tab event (a `tab` frame's `kind`), as
//! names the extension reads from its generated contract (`FRAME`, `TAB_EVENT` in
//! `extension/sw/contract.js`). Each kind's wire name is said here once; the tests hold it to
//! the one serde writes for its variant.

use super::{Frame, TabEvent};

macro_rules! kinds {
    ($(#[$doc:meta])* $kind:ident of $of:ident { $($variant:ident = $name:literal,)* }) => {
        $(#[$doc])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum $kind { $($variant,)* }

        impl $kind {
            pub const ALL: &'static [$kind] = &[$($kind::$variant),*];

            /// The name on the wire.
            pub fn as_str(self) -> &'static str {
                match self { $($kind::$variant => $name,)* }
            }
        }

        impl $of {
            /// What kind this is.
            pub fn kind(&self) -> $kind {
                match self { $($of::$variant { .. } => $kind::$variant,)* }
            }
        }
    };
}

kinds! {
    /// A frame's `t`.
    FrameKind of Frame {
        Challenge = "challenge",
        Hello = "hello",
        About = "about",
        Welcome = "welcome",
        Call = "call",
        Ask = "ask",
        Result = "result",
        Cancel = "cancel",
        Tab = "tab",
        Part = "part",
        Roster = "roster",
        Ping = "ping",
        Pong = "pong",
    }
}

kinds! {
    /// A tab event's `kind`.
    TabEventKind of TabEvent {
        Opened = "opened",
        Closed = "closed",
        Replaced = "replaced",
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{Value, json};

    use super::*;
    use crate::shared::protocol::{Answer, Call, Op, PeerInfo, RelayOp, Role, TabId};

    /// One frame of each kind: a new kind fails to compile here until it has one.
    fn frame(kind: FrameKind) -> Frame {
        let tab = TabEvent::Closed { tab: TabId(1) };
        let call = Call::new(Op::TabList, json!({}), std::time::Duration::ZERO);
        match kind {
            FrameKind::Challenge => Frame::Challenge {
                nonce: "n".into(),
                version: "v".into(),
                key: None,
            },
            FrameKind::Hello => Frame::Hello {
                role: Role::Browser,
                proof: "p".into(),
                cnonce: "c".into(),
            },
            FrameKind::About => Frame::About {
                info: PeerInfo::default(),
                held: Vec::new(),
            },
            FrameKind::Welcome => Frame::Welcome {
                proof: "p".into(),
                peer_id: 1,
                version: "v".into(),
                port: 1,
            },
            FrameKind::Call => Frame::Call(call),
            FrameKind::Ask => Frame::Ask {
                id: 1,
                op: RelayOp::Status,
            },
            FrameKind::Result => Frame::Result(Answer::default()),
            FrameKind::Cancel => Frame::Cancel { id: 1 },
            FrameKind::Tab => Frame::Tab(tab),
            FrameKind::Part => Frame::Part {
                data: String::new(),
                last: true,
            },
            FrameKind::Roster => Frame::Roster {
                controllers: Vec::new(),
            },
            FrameKind::Ping => Frame::Ping,
            FrameKind::Pong => Frame::Pong,
        }
    }

    fn event(kind: TabEventKind) -> TabEvent {
        match kind {
            TabEventKind::Opened => TabEvent::Opened { tab: TabId(1) },
            TabEventKind::Closed => TabEvent::Closed { tab: TabId(1) },
            TabEventKind::Replaced => TabEvent::Replaced {
                old: TabId(1),
                tab: TabId(2),
            },
        }
    }

    fn tag(value: impl serde::Serialize, field: &str) -> Value {
        serde_json::to_value(value).unwrap()[field].clone()
    }

    #[test]
    fn each_kind_is_named_as_serde_writes_it() {
        for &kind in FrameKind::ALL {
            let f = frame(kind);
            assert_eq!(f.kind(), kind);
            assert_eq!(tag(&f, "t"), kind.as_str(), "{kind:?}");
        }
        for &kind in TabEventKind::ALL {
            let e = event(kind);
            assert_eq!(e.kind(), kind);
            assert_eq!(tag(e, "kind"), kind.as_str(), "{kind:?}");
        }
    }
}
