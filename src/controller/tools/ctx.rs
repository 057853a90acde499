//! What a tool works through: calls on this agent's tab or its browser, the relay's own asks,
//! the agent's current tab, and the page's snapshot for a result. One per agent.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use super::args::{SNAPSHOT_TOKENS, Wait};
use super::spec::Out;
use crate::controller::audit::Place;
use crate::controller::context::ContextEnv;
use crate::controller::launch::{self, LaunchOptions, Launched};
use crate::controller::link::{Link, LinkState, Reply};
use crate::controller::policy::Policy;
use crate::controller::policy::client_roots::ClientRoots;
use crate::controller::policy::paths::Sandbox;
use crate::controller::record::Recorder;
use crate::shared::error::{Code, Outcome, ToolError};
use crate::shared::protocol::wire::page::{Snapshot, SnapshotReply};
use crate::shared::protocol::{Call, PeerInfo, RelayAsk, Scope, TabId, ask};
use crate::shared::settings::Setting;

pub struct Ctx {
    link: Arc<Link>,
    /// `mcp --launch`: start a managed browser the first time a tool needs one.
    launch_on_demand: Option<LaunchOptions>,
    /// Held while a browser is launched, across its awaits, so two calls launch one. It is taken
    /// before `state` (which is taken inside it, briefly), never while `state` is held.
    launching: tokio::sync::Mutex<()>,
    /// What the session keeps between its calls: the one lock of its own state.
    state: Mutex<State>,
    /// How long a call waits for the relay and a browser to connect (`TABPILOT_CONNECT_WAIT_MS`).
    connect_wait: Duration,
    /// Where the project-context tools look (working directory, workspace, home).
    context_env: ContextEnv,
    policy: Policy,
    /// Local applications: the accessibility bus (connected on first use), refs, launches.
    apps: crate::controller::apps::Apps,
    /// This session's recording of its page actions (crate::controller::record).
    recorder: Recorder,
    /// The MCP client's roots, for the path sandbox.
    client_roots: ClientRoots,
}

/// A session's state, under one lock that is never held across an await and under which no
/// other lock is taken (`Ctx::state`).
#[derive(Default)]
pub(super) struct State {
    launched: Option<Launched>,
    pub(super) current_tab: Option<TabId>,
    /// Where this agent's calls last ran, as their answers said (the audit trail's page).
    place: Place,
    /// Send every call to this browser, by id or label (`TABPILOT_BROWSER_LABEL`,
    /// `browser_select_browser`, or the one a demo or `mcp --launch` started).
    pinned_browser: Option<String>,
    /// This agent's last whole snapshot of each tab, with its budget, for `include: "diff"`.
    seen: Seen,
    /// How many times slower throttling makes each tab, as its last emulation answer said.
    slowdown: std::collections::HashMap<TabId, f64>,
    /// The tabs this agent switched advanced mode on in, as their answers said (advanced.rs).
    pub(super) advanced: std::collections::HashSet<TabId>,
}

/// How long a call waits for the relay and a browser to connect, unless
/// `TABPILOT_CONNECT_WAIT_MS` says otherwise: past the extension's longest pause between two
/// attempts to reach a relay that restarted.
const CONNECT_WAIT: Duration = Duration::from_secs(5);
/// How often a waiting call tries again.
const CONNECT_POLL: Duration = Duration::from_millis(100);

/// The last snapshots, a few tabs' worth. Kept here rather than in the extension: it is this
/// agent's own (another agent's snapshot of a tab handed over never counts), the text comes
/// here anyway, and the browser's service worker may be stopped between two calls.
#[derive(Default)]
struct Seen {
    tabs: Vec<(TabId, u64, String)>,
}

impl Seen {
    /// Tabs remembered: more than an agent works in at once; the one seen longest ago goes.
    const TABS: usize = 16;
    /// Bytes of snapshot text remembered, all tabs together: a default snapshot (4,000 tokens)
    /// is about 16 KB, so this holds the 16 tabs' at well over their default budget; one asked
    /// for with a large `maxTokens` (up to a million, 4 MB of text) would hold megabytes per
    /// tab. The tabs seen longest ago go first; a snapshot over it alone is not remembered, and
    /// a later diff of that tab says it has no earlier one.
    const BYTES: usize = 1 << 20;

    fn get(&self, tab: TabId) -> Option<&(TabId, u64, String)> {
        self.tabs.iter().find(|(t, _, _)| *t == tab)
    }

    fn put(&mut self, tab: TabId, budget: u64, text: String) {
        self.tabs.retain(|(t, _, _)| *t != tab);
        if text.len() > Self::BYTES {
            return;
        }
        let mut bytes: usize = self.tabs.iter().map(|(_, _, s)| s.len()).sum();
        while self.tabs.len() >= Self::TABS || bytes + text.len() > Self::BYTES {
            bytes -= self.tabs.remove(0).2.len();
        }
        self.tabs.push((tab, budget, text));
    }
}

impl Ctx {
    pub fn new(
        info: PeerInfo,
        launch_on_demand: Option<LaunchOptions>,
        policy: Policy,
    ) -> Result<Self, ToolError> {
        let wait = Setting::ConnectWaitMs
            .millis()
            .map_err(ToolError::bad_args)?;
        let link = Link::new(info, true)?;
        let ctx = Ctx::with(link, launch_on_demand, ContextEnv::from_process(), policy);
        ctx.state().pinned_browser = Setting::BrowserLabel.get();
        Ok(Ctx {
            connect_wait: wait.unwrap_or(CONNECT_WAIT),
            ..ctx
        })
    }

    /// A context whose tools never reach a relay (unit tests of the tools that need none).
    #[cfg(test)]
    pub fn offline(context_env: ContextEnv) -> Self {
        Ctx::offline_under(context_env, Policy::default())
    }

    /// An offline context under a policy (unit tests of refusals made before anything is sent).
    #[cfg(test)]
    pub fn offline_under(context_env: ContextEnv, policy: Policy) -> Self {
        let link = Link::with_secret(PeerInfo::default(), false, b"offline".to_vec());
        Ctx::with(link, None, context_env, policy)
    }

    fn with(
        link: Link,
        launch_on_demand: Option<LaunchOptions>,
        context_env: ContextEnv,
        policy: Policy,
    ) -> Self {
        Ctx {
            link: Arc::new(link),
            launch_on_demand,
            launching: tokio::sync::Mutex::new(()),
            state: Mutex::default(),
            connect_wait: Duration::ZERO,
            context_env,
            policy,
            apps: crate::controller::apps::Apps::default(),
            recorder: Recorder::off(),
            client_roots: ClientRoots::default(),
        }
    }

    pub fn client_roots(&self) -> &ClientRoots {
        &self.client_roots
    }

    /// Where this session's files may be written and read: the process's sandbox with the
    /// client's roots.
    pub async fn sandbox(&self) -> Sandbox {
        self.client_roots.sandbox().await
    }

    /// This session's recording.
    pub fn recorder(&self) -> &Recorder {
        &self.recorder
    }

    /// Records as `TABPILOT_RECORD` says.
    pub fn record_from_env(&mut self) {
        let id = crate::shared::protocol::AgentId::of(self.link.info());
        self.recorder = Recorder::from_env(id.0);
    }

    pub fn link(&self) -> &Link {
        &self.link
    }

    /// The session's state. A panic elsewhere while it was held leaves nothing half-written in
    /// it worth refusing every later call for: the lock is taken again as it is.
    pub(super) fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    pub fn context_env(&self) -> &ContextEnv {
        &self.context_env
    }

    pub fn apps(&self) -> &crate::controller::apps::Apps {
        &self.apps
    }

    /// Where this agent's last call on a local application ran, for the audit trail.
    pub fn app_place(&self) -> Place {
        Place {
            app: self.apps.state().last_app.clone(),
            ..Place::default()
        }
    }

    pub fn policy(&self) -> &Policy {
        &self.policy
    }

    /// Whether the agent may load `url`: a URL tabpilot drives, at an origin the policy allows.
    pub fn may_visit(&self, url: &str) -> Result<(), ToolError> {
        super::args::check_url(url)?;
        self.policy.check_visit(url)
    }

    /// A wait for a call on `tab` (none: the agent's): a default stretched while throttling
    /// slows the tab, a caller's own `timeout` as given.
    pub fn stretched(&self, wait: Wait, tab: Option<TabId>) -> Duration {
        let state = self.state();
        let tab = tab.or(state.current_tab).filter(|_| !wait.given);
        let factor = tab.and_then(|t| state.slowdown.get(&t).copied());
        wait.time.mul_f64(factor.unwrap_or(1.0))
    }

    /// Keeps how many times slower throttling makes the agent's tab (1: not at all), as the
    /// emulation's answer said; held to 1..=10 whatever it says.
    pub fn note_slowdown(&self, factor: f64) {
        let mut state = self.state();
        let Some(tab) = state.current_tab else { return };
        if factor.is_finite() && factor > 1.0 {
            state.slowdown.insert(tab, factor.min(10.0));
        } else {
            state.slowdown.remove(&tab);
        }
    }

    /// Asks the relay itself; the answer reads as the ask declares it.
    pub async fn ask<A: RelayAsk>(&self, ask: A) -> Result<A::Reply, ToolError> {
        self.link.ask(ask).await
    }

    pub fn link_state(&self) -> LinkState {
        self.link.state()
    }

    /// Sends a call through the relay, launching the managed browser first when asked to and
    /// none is connected. Only a call that did nothing is retried: refused (nothing of it reached
    /// a browser), or a read whose browser left before answering.
    pub(super) async fn relay(&self, mut call: Call) -> Result<Reply, ToolError> {
        if call.target.browser.is_none() {
            call.target.browser = self.state().pinned_browser.clone();
        }
        self.policy.check_op(call.op)?;
        call.guard = self.policy.guard(call.op);
        call.describe = crate::controller::record::describe::wanted(call.op);
        let scope = call.op.scope();
        // No browser to run it: nothing of it reached one (refused), or it could change nothing
        // and its browser left before answering (a read is safe to ask again).
        let reads = !call.op.mutates();
        let no_browser_as = |r: &Result<Reply, ToolError>, outcome: Outcome| matches!(r, Err(e) if e.code == Code::NoBrowser && e.outcome == outcome);
        let no_browser = |r: &Result<Reply, ToolError>| {
            no_browser_as(r, Outcome::Refused) || (reads && no_browser_as(r, Outcome::Failed))
        };
        let mut reply = self.link.call(call.clone()).await;
        // A browser launched beside a relay of another version would join a relay this link
        // refuses.
        if no_browser_as(&reply, Outcome::Refused)
            && self.may_launch()
            && !self.link.refuses_relay()
        {
            self.launch_once().await?;
            reply = self.link.call(call.clone()).await;
        }
        // A relay restarting, or a browser still starting (or rejoining one that restarted),
        // is waited for a while: the relay is asked again every moment, and a relay that cannot
        // be reached at the pace of the link's own attempts (asking sooner would bring the next
        // one forward).
        let deadline = tokio::time::Instant::now() + self.connect_wait;
        while no_browser(&reply) {
            let pause = match self.link.state() {
                LinkState::Retrying { next, .. } => next.max(CONNECT_POLL),
                _ => CONNECT_POLL,
            };
            if tokio::time::Instant::now() + pause > deadline {
                break;
            }
            tokio::time::sleep(pause).await;
            reply = self.link.call(call.clone()).await;
        }
        // A tab this agent lost, or that is gone, is not its tab any more.
        if let Err(e) = &reply
            && matches!(e.code, Code::LeaseLost | Code::TabGone)
        {
            self.set_current_tab(None);
        }
        let mut reply = reply?;
        crate::controller::record::describe::note(std::mem::take(&mut reply.described));
        if scope == Scope::Tab {
            self.state().current_tab = reply.target.as_ref().and_then(|t| t.tab);
        }
        self.note_place(&reply);
        Ok(reply)
    }

    /// Keeps where a call ran: its browser, and its tab with the address the tab answered from.
    fn note_place(&self, reply: &Reply) {
        let Some(target) = &reply.target else { return };
        let place = &mut self.state().place;
        if target.browser.is_some() {
            place.browser = target.browser.clone();
        }
        if reply.url.is_some() {
            place.tab = target.tab;
            place.url = reply.url.clone();
        }
    }

    /// Where this agent's calls last ran; nothing before the first answer from a page.
    pub fn place(&self) -> Place {
        self.state().place.clone()
    }

    /// Whether a call that found no browser launches one: under `mcp --launch`, unless this agent
    /// is pinned to a browser it did not launch (it never falls back to another).
    fn may_launch(&self) -> bool {
        let Some(opts) = &self.launch_on_demand else {
            return false;
        };
        let pinned = self.pinned_browser();
        pinned.is_none() || pinned == opts.label
    }

    async fn launch_once(&self) -> Result<(), ToolError> {
        let _guard = self.launching.lock().await;
        if self.state().launched.is_some() {
            return Ok(());
        }
        let opts = self
            .launch_on_demand
            .clone()
            .expect("checked by the caller");
        let browser = launch::start(&opts, &self.link, Duration::from_secs(30)).await?;
        self.pin_browser(browser.browser_id.clone());
        self.state().launched = Some(browser);
        Ok(())
    }

    /// Sends every later call to this browser.
    pub fn pin_browser(&self, browser_id: String) {
        self.state().pinned_browser = Some(browser_id);
    }

    /// The browser this agent is pinned to, by label or id.
    pub fn pinned_browser(&self) -> Option<String> {
        self.state().pinned_browser.clone()
    }

    /// The tab's fresh lean snapshot within `budget` tokens, remembered as this agent's last.
    async fn lean_snapshot(&self, budget: u64) -> Result<String, ToolError> {
        let snap: SnapshotReply = self
            .run(Snapshot {
                verbose: false,
                max_tokens: Some(budget),
                reference: None,
                offset: None,
            })
            .await?;
        self.remember_snapshot(budget, &snap.text);
        Ok(snap.text)
    }

    /// Notes the lean snapshot this agent was just given of its current tab.
    pub fn remember_snapshot(&self, budget: u64, text: &str) {
        let mut state = self.state();
        if let Some(tab) = state.current_tab {
            state.seen.put(tab, budget, text.to_string());
        }
    }

    /// Gives a result the tab's fresh lean snapshot within `budget` tokens, or says why there
    /// is none.
    pub async fn attach_snapshot<T>(&self, out: &mut Out<T>, budget: u64) {
        match self.lean_snapshot(budget).await {
            Ok(text) => out.snapshot = Some(text),
            Err(e) => out.text.push_str(&format!("\n(no snapshot: {})", e.text())),
        }
    }

    /// Gives a result the lines of the tab's snapshot that changed since this agent's last one
    /// (taken with the same budget, so what collapsed then collapses now); the whole snapshot
    /// when there was none.
    pub async fn attach_diff<T>(&self, out: &mut Out<T>) {
        let last = {
            let state = self.state();
            state.current_tab.and_then(|t| state.seen.get(t).cloned())
        };
        let budget = last.as_ref().map_or(SNAPSHOT_TOKENS, |(_, b, _)| *b);
        match self.lean_snapshot(budget).await {
            Ok(text) => {
                let now = self.state().current_tab;
                let same_tab = last.filter(|(t, _, _)| Some(*t) == now);
                out.diff = Some(match same_tab {
                    Some((_, _, before)) => super::diff::diff(&before, &text, "this tab"),
                    None => format!("No earlier snapshot of this tab; the whole of it:\n{text}"),
                });
            }
            Err(e) => out.text.push_str(&format!("\n(no diff: {})", e.text())),
        }
    }

    /// This agent's tab: known here after a page call, else asked of the relay's books (a
    /// one-shot CLI call starts knowing nothing).
    pub async fn current_tab(&self) -> Option<TabId> {
        let known = self.state().current_tab;
        if known.is_some() {
            return known;
        }
        let tab = self
            .ask(ask::MyTab)
            .await
            .ok()
            .flatten()
            .and_then(|t| t.tab);
        self.state().current_tab = tab;
        tab
    }

    pub fn set_current_tab(&self, tab: Option<TabId>) {
        self.state().current_tab = tab;
    }

    /// Ends the session: stops the link and closes a browser this session launched.
    pub fn shutdown(&self) {
        self.link.stop();
        let launched = self.state().launched.take();
        if let Some(browser) = launched {
            browser.close();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_snapshots_remembered_are_held_by_count_and_bytes() {
        let mut seen = Seen::default();
        for t in 0..Seen::TABS as i64 + 4 {
            seen.put(TabId(t), 4000, format!("tab {t}"));
        }
        assert_eq!(seen.tabs.len(), Seen::TABS);
        assert!(seen.get(TabId(3)).is_none() && seen.get(TabId(4)).is_some());

        // Large snapshots: the oldest go until the text fits.
        let big = Seen::BYTES / 3;
        for t in 100..106 {
            seen.put(TabId(t), 1_000_000, "x".repeat(big));
        }
        let bytes: usize = seen.tabs.iter().map(|(_, _, s)| s.len()).sum();
        assert!(bytes <= Seen::BYTES, "{bytes}");
        assert_eq!(seen.tabs.len(), 3);
        assert!(seen.get(TabId(105)).is_some() && seen.get(TabId(102)).is_none());

        // One over the bound alone is not remembered, nor is that tab's older one kept.
        seen.put(TabId(105), 1_000_000, "y".repeat(Seen::BYTES + 1));
        assert!(seen.get(TabId(105)).is_none());
        assert_eq!(seen.tabs.len(), 2);
    }

    #[test]
    fn a_throttled_tab_s_default_waits_are_stretched_and_only_its_own() {
        let cx = Ctx::offline(ContextEnv::from_process());
        let wait = super::super::args::timeout(None).unwrap();
        let wait_s = |tab| cx.stretched(wait, tab).as_secs();
        cx.set_current_tab(Some(TabId(7)));
        cx.note_slowdown(4.0);
        assert_eq!(wait_s(None), 120);
        assert_eq!(wait_s(Some(TabId(8))), 30, "another tab");
        cx.set_current_tab(Some(TabId(8)));
        assert_eq!(wait_s(Some(TabId(7))), 120);
        cx.set_current_tab(Some(TabId(7)));
        let given = super::super::args::timeout(Some(30_000)).unwrap();
        assert_eq!(cx.stretched(given, None).as_secs(), 30, "the caller's own");
        cx.note_slowdown(1e9);
        assert_eq!(wait_s(None), 300, "capped");
        cx.note_slowdown(1.0);
        assert_eq!(wait_s(None), 30, "throttling ended");
    }
}
