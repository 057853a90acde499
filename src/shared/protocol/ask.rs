//! What a controller asks the relay itself (`RelayOp`), each ask declared once with the type of
//! its answer (`RelayAsk`), so `Ctx::ask` and `Link::ask` read the answer as the ask declares.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::wire::tabs::Released;
use super::{AgentId, BrowserEntry, BrowserId, RelayOp, RelayStatus, TabId, Target};

/// An ask of the relay, and the type its answer reads as.
pub trait RelayAsk: Into<RelayOp> + Send {
    type Reply: DeserializeOwned + Send;
}

/// The roster: the relay, its browsers and agents.
pub struct Status;

/// A one-time pairing page for a user's own browser.
pub struct Pair;

/// A one-time code for a browser on another computer, from a relay listening past loopback.
pub struct PairRemote;

/// The tab this agent works in, from the relay's books.
pub struct MyTab;

/// The connected browser a label or id names (NO_BROWSER for none, AMBIGUOUS_BROWSER for
/// several), as status lists it.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct Browser {
    pub name: String,
}

/// Takes a tab another agent holds; that agent's next call in it is LEASE_LOST.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
pub struct ForceClaim {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    pub tab: TabId,
    pub reason: String,
}

/// Gives up an agent's tabs: this agent's, or (a person's release, from the popup or the
/// dashboard) the agent with this id. `close_opened` closes the tabs it opened.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct Release {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent: Option<AgentId>,
    pub close_opened: bool,
}

/// A pairing page and its one-time code.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Paired {
    pub url: String,
    pub code: String,
    pub port: u16,
}

/// What the person types into the other computer's popup: the relay's address and a one-time
/// code; and the relay's key fingerprint, which the popup shows once paired.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RemotePaired {
    pub address: String,
    pub code: String,
    pub fingerprint: String,
}

/// A tab taken: in which browser, and from which agent (none: nobody held it).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Claimed {
    pub browser_id: BrowserId,
    pub tab: TabId,
    #[serde(default)]
    pub from: Option<String>,
}

impl From<Status> for RelayOp {
    fn from(_: Status) -> Self {
        RelayOp::Status
    }
}

impl From<Pair> for RelayOp {
    fn from(_: Pair) -> Self {
        RelayOp::Pair
    }
}

impl From<PairRemote> for RelayOp {
    fn from(_: PairRemote) -> Self {
        RelayOp::PairRemote
    }
}

impl From<MyTab> for RelayOp {
    fn from(_: MyTab) -> Self {
        RelayOp::MyTab
    }
}

impl From<Browser> for RelayOp {
    fn from(ask: Browser) -> Self {
        RelayOp::Browser(ask)
    }
}

impl From<ForceClaim> for RelayOp {
    fn from(ask: ForceClaim) -> Self {
        RelayOp::ForceClaim(ask)
    }
}

impl From<Release> for RelayOp {
    fn from(ask: Release) -> Self {
        RelayOp::Release(ask)
    }
}

/// Each ask's answer, declared once.
macro_rules! answers {
    ($($ask:ty => $reply:ty;)*) => {
        $(impl RelayAsk for $ask {
            type Reply = $reply;
        })*
    };
}

answers! {
    Status => RelayStatus;
    Pair => Paired;
    PairRemote => RemotePaired;
    MyTab => Option<Target>;
    Browser => BrowserEntry;
    ForceClaim => Claimed;
    Release => Released;
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The asks keep the wire form the extension's popup and older relays know.
    #[test]
    fn asks_go_on_the_wire_as_before() {
        let wire = |op: RelayOp| serde_json::to_value(op).unwrap();
        assert_eq!(wire(Status.into()), json!("status"));
        assert_eq!(wire(MyTab.into()), json!("myTab"));
        let release = Release {
            agent: Some(AgentId("a1".into())),
            close_opened: true,
        };
        assert_eq!(
            wire(release.into()),
            json!({"release": {"agent": "a1", "closeOpened": true}})
        );
        let claim = ForceClaim {
            browser: None,
            tab: TabId(7),
            reason: "stuck".into(),
        };
        assert_eq!(
            wire(claim.into()),
            json!({"forceClaim": {"tab": 7, "reason": "stuck"}})
        );
        let popup: RelayOp =
            serde_json::from_value(json!({"release": {"agent": "a1", "closeOpened": true}}))
                .unwrap();
        assert!(popup.for_browsers());
        assert!(!RelayOp::from(Pair).for_browsers());
    }
}
