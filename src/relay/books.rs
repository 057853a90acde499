//! The agents' books: which tabs each session holds, the one it works in, and the leases that
//! keep two agents off one tab. Plain data: routing reads and writes it under its own lock.
//!
//! A session is an agent, not a connection: one with a name the caller chose (the CLI's)
//! outlives its connections; an MCP server's ends with its connection, after a grace period.
//!
//! A lease is renewed by every call of its holder in the tab and lapses after the holder's lease
//! time of idleness: the tab stays open and its holder keeps working in it, until another agent
//! takes it (a lapsed tab may simply be claimed; a held one only by force). The agent it was
//! taken from is told so, LEASE_LOST, on every page call until it picks another tab: it is never
//! moved to another tab behind its back.

use std::collections::HashMap;
use std::time::Duration;

use tokio::time::Instant;

use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::{AgentId, AgentKey, BrowserId, HeldTab, LeaseEntry, TabEvent, TabId};

/// A tab as the relay knows it: the browser's id and the tab's id in that browser.
pub(super) type TabKey = (BrowserId, TabId);

/// How long an agent's tabs wait for it after its last connection drops: long enough for an MCP
/// client to restart its server.
pub(super) const GRACE: Duration = Duration::from_secs(10);

/// How long a lease holds while its agent is idle, unless the agent says otherwise
/// (`TABPILOT_LEASE_TTL_MS`). Longer than a model's turn plus a person answering a prompt, so a
/// working agent never loses its tab between two calls; short enough that a tab abandoned by an
/// agent left running is free to take within a working session.
pub(crate) const LEASE_TTL: Duration = Duration::from_secs(10 * 60);

struct Lease {
    holder: AgentKey,
    used: Instant,
    /// The holder opened it (its release closes it), rather than being handed it.
    opened: bool,
}

/// Who an agent is, as the relay shows it to others.
pub(super) struct AgentInfo {
    pub(super) name: String,
    pub(super) pid: u32,
    pub(super) ttl: Duration,
}

/// One session's tabs, and the one its page calls run in.
struct Agent {
    info: AgentInfo,
    current: Option<TabKey>,
    tabs: Vec<TabKey>,
    /// Why its current tab is another agent's now.
    lost: Option<String>,
}

impl Default for Agent {
    fn default() -> Self {
        Agent {
            info: AgentInfo {
                name: "agent".into(),
                pid: 0,
                ttl: LEASE_TTL,
            },
            current: None,
            tabs: Vec::new(),
            lost: None,
        }
    }
}

/// An agent's books as `status` lists them.
pub(super) struct AgentView<'a> {
    pub(super) session: &'a AgentKey,
    pub(super) info: &'a AgentInfo,
    pub(super) tabs: Vec<LeaseEntry>,
}

#[derive(Default)]
pub(super) struct Books {
    agents: HashMap<AgentKey, Agent>,
    /// Which session holds each tab.
    leases: HashMap<TabKey, Lease>,
}

impl Books {
    /// An agent's connection joined: its name and lease time, for the books it may already have.
    /// Books another process kept (a server its client restarted took its key over) are picked up
    /// as far as they still hold: the tabs it still has, and nothing of a tab it lost or that is
    /// gone, so the new process's first call works rather than reporting what befell the old one.
    pub(super) fn enter(&mut self, session: &AgentKey, info: AgentInfo) {
        let agent = self.agents.entry(session.clone()).or_default();
        if agent.info.pid != info.pid {
            agent.lost = None;
            if agent
                .current
                .as_ref()
                .is_some_and(|c| !agent.tabs.contains(c))
            {
                agent.current = None;
            }
        }
        agent.info = info;
    }

    /// The tab `session`'s page calls run in, if it has one.
    pub(super) fn current(&self, session: &AgentKey) -> Option<&TabKey> {
        self.agents.get(session).and_then(|a| a.current.as_ref())
    }

    fn lapsed(&self, lease: &Lease) -> bool {
        let ttl = self
            .agents
            .get(&lease.holder)
            .map_or(LEASE_TTL, |a| a.info.ttl);
        lease.used.elapsed() > ttl
    }

    /// Whether `session` may touch `tab`: refused with TAB_CLAIMED while another session's lease
    /// on it holds.
    pub(super) fn may_touch(
        &self,
        session: &AgentKey,
        browser: &BrowserId,
        tab: TabId,
    ) -> Result<(), ToolError> {
        match self.leases.get(&(browser.clone(), tab)) {
            Some(lease) if lease.holder != *session && !self.lapsed(lease) => {
                let holder = self.agents.get(&lease.holder);
                let name = holder.map_or("another agent", |a| a.info.name.as_str());
                let ttl = holder.map_or(LEASE_TTL, |a| a.info.ttl);
                Err(ToolError::refused(
                    Code::TabClaimed,
                    format!(
                        "tab {tab} is held by {name:?} (agent {}), idle {} s; its lease lapses \
                         after {} s idle, or browser_force_claim takes it",
                        lease.holder.short_id(),
                        lease.used.elapsed().as_secs(),
                        ttl.as_secs()
                    ),
                ))
            }
            _ => Ok(()),
        }
    }

    /// Hands a tab the caller named to `session`, which then works in it; refused with
    /// TAB_CLAIMED while another session's lease holds. A lapsed lease passes to it.
    pub(super) fn claim(
        &mut self,
        session: &AgentKey,
        browser: &BrowserId,
        tab: TabId,
    ) -> Result<(), ToolError> {
        self.may_touch(session, browser, tab)?;
        self.take(session, browser, tab, "its lease had lapsed");
        Ok(())
    }

    /// Takes a tab whoever holds it, for `reason`; returns the name of the agent it was taken
    /// from, if any.
    pub(super) fn force(
        &mut self,
        session: &AgentKey,
        browser: &BrowserId,
        tab: TabId,
        reason: &str,
    ) -> Option<String> {
        let reason = crate::shared::terminal::name(reason, 200);
        self.take(session, browser, tab, &format!("reason given: {reason:?}"))
    }

    /// Makes `tab` `session`'s current tab, taking its lease from another holder with `why`.
    fn take(
        &mut self,
        session: &AgentKey,
        browser: &BrowserId,
        tab: TabId,
        why: &str,
    ) -> Option<String> {
        let key = (browser.clone(), tab);
        let taker = self
            .agents
            .get(session)
            .map_or_else(|| "agent".to_string(), |a| a.info.name.clone());
        let previous = self.leases.get(&key).map(|l| (l.holder.clone(), l.opened));
        let opened = match &previous {
            Some((holder, opened)) if holder == session => *opened,
            Some((holder, _)) => {
                let taken_by = format!(
                    "tab {tab} was taken by {taker:?} (agent {}): {why}; browser_new_tab or \
                     browser_select_tab to go on",
                    session.short_id()
                );
                if let Some(loser) = self.agents.get_mut(holder) {
                    loser.tabs.retain(|t| *t != key);
                    if loser.current.as_ref() == Some(&key) {
                        loser.current = None;
                        loser.lost = Some(taken_by);
                    }
                }
                false
            }
            None => false,
        };
        self.leases.insert(
            key.clone(),
            Lease {
                holder: session.clone(),
                used: Instant::now(),
                opened,
            },
        );
        let agent = self.agents.entry(session.clone()).or_default();
        if !agent.tabs.contains(&key) {
            agent.tabs.push(key.clone());
        }
        agent.current = Some(key);
        agent.lost = None;
        let previous = previous.filter(|(holder, _)| holder != session)?;
        Some(
            self.agents
                .get(&previous.0)
                .map_or_else(|| "an agent".into(), |a| a.info.name.clone()),
        )
    }

    /// A call of `session` ran in `tab`: its lease is renewed.
    pub(super) fn touch(&mut self, session: &AgentKey, browser: &BrowserId, tab: TabId) {
        if let Some(lease) = self.leases.get_mut(&(browser.clone(), tab))
            && lease.holder == *session
        {
            lease.used = Instant::now();
        }
    }

    /// A browser joined, saying which of its open tabs agents hold (`held`): it is the word on
    /// what is still there. A tab the books have for it and it does not name is gone (the
    /// browser restarted, or closed it while away): it leaves the books, and an agent it was
    /// current for starts clean, its next page call opening a fresh tab, not failing on the old
    /// one. A tab it names goes back into its owner's books (a relay that restarted), unless
    /// someone holds it now.
    pub(super) fn rejoin(&mut self, browser: &BrowserId, held: &[HeldTab]) {
        let named = |key: &TabKey| key.0 == *browser && held.iter().any(|h| h.tab == key.1);
        self.leases.retain(|key, _| key.0 != *browser || named(key));
        for agent in self.agents.values_mut() {
            agent.tabs.retain(|key| key.0 != *browser || named(key));
            if agent
                .current
                .as_ref()
                .is_some_and(|key| key.0 == *browser && !named(key))
            {
                agent.current = None;
            }
        }
        for h in held {
            let key = (browser.clone(), h.tab);
            if !self.leases.contains_key(&key) {
                self.take(&h.owner, browser, h.tab, "");
                if let Some(lease) = self.leases.get_mut(&key) {
                    lease.opened = h.opened;
                }
            }
        }
    }

    /// The tab a page call that names none runs in on `browser`: the session's current tab
    /// (`Some`), or none yet there, so one is to be opened (`None`). A current tab that someone
    /// else closed is TAB_GONE, once: it stops being current, and the next call opens a new one.
    /// One another agent took is LEASE_LOST until this agent opens or selects another.
    pub(super) fn page_tab(
        &mut self,
        session: &AgentKey,
        browser: &BrowserId,
    ) -> Result<Option<TabId>, ToolError> {
        let Some(agent) = self.agents.get_mut(session) else {
            return Ok(None);
        };
        if let Some(why) = &agent.lost {
            return Err(ToolError::refused(Code::LeaseLost, why.clone()));
        }
        match &agent.current {
            Some(key @ (b, tab)) if b == browser => {
                let tab = *tab;
                if agent.tabs.contains(key) {
                    return Ok(Some(tab));
                }
                agent.current = None;
                Err(ToolError::refused(
                    Code::TabGone,
                    format!("this agent's tab {tab} was closed; the next call opens a new one"),
                ))
            }
            // Back in a browser it worked in before: its last tab there.
            _ => {
                let back = agent.tabs.iter().rev().find(|(b, _)| b == browser).cloned();
                agent.current = back.clone().or(agent.current.take());
                Ok(back.map(|(_, tab)| tab))
            }
        }
    }

    /// Keeps the books from what the browser says happened to a tab. `caller`: the session whose
    /// call caused it, which adopts a tab it opened, and has already heard of one it closed; a
    /// tab closed by anyone else stays its agent's current tab, so that page_tab says TAB_GONE.
    pub(super) fn record(
        &mut self,
        caller: Option<&AgentKey>,
        browser: &BrowserId,
        event: TabEvent,
    ) {
        match event {
            TabEvent::Opened { tab } => {
                if let Some(session) = caller {
                    self.take(session, browser, tab, "");
                    if let Some(lease) = self.leases.get_mut(&(browser.clone(), tab)) {
                        lease.opened = true;
                    }
                }
            }
            TabEvent::Closed { tab } => {
                let key = (browser.clone(), tab);
                self.leases.remove(&key);
                for (session, agent) in &mut self.agents {
                    agent.tabs.retain(|t| *t != key);
                    if caller == Some(session) && agent.current.as_ref() == Some(&key) {
                        agent.current = None;
                    }
                }
            }
            TabEvent::Replaced { old, tab } => {
                let (old, new) = ((browser.clone(), old), (browser.clone(), tab));
                if let Some(lease) = self.leases.remove(&old) {
                    self.leases.insert(new.clone(), lease);
                }
                for agent in self.agents.values_mut() {
                    for t in agent.tabs.iter_mut().filter(|t| **t == old) {
                        *t = new.clone();
                    }
                    if agent.current.as_ref() == Some(&old) {
                        agent.current = Some(new.clone());
                    }
                }
            }
        }
    }

    /// `session`'s tabs are given up (the browsers are told, and close the ones it opened if
    /// asked). By the agent itself (`by: None`), its next page call opens a fresh tab; by
    /// someone else (a person, in the popup or the dashboard), its next page calls are
    /// LEASE_LOST saying so, until it opens or picks a tab.
    pub(super) fn release(&mut self, session: &AgentKey, by: Option<&str>) {
        if let Some(agent) = self.agents.get_mut(session) {
            for tab in agent.tabs.drain(..) {
                self.leases.remove(&tab);
            }
            agent.lost = match (agent.current.take(), by) {
                (Some((_, tab)), Some(by)) => Some(format!(
                    "tab {tab} was released by {by}; browser_new_tab or browser_select_tab to go on"
                )),
                _ => None,
            };
        }
    }

    /// A connection of `session` left. A session the caller named outlives its connections, and
    /// so does one still connected elsewhere; any other ends here and releases every tab it held.
    /// Returns whether it ended (the browsers then close the tabs opened for it).
    /// A named session that left holding nothing, with nothing to tell it (a tab gone, a tab
    /// taken), is forgotten: its next connection enters it afresh, and the books do not grow
    /// with every name a script ever ran under (`TABPILOT_SESSION=job-$N`).
    pub(super) fn leave(&mut self, session: &AgentKey, named: bool, still_connected: bool) -> bool {
        if still_connected {
            return false;
        }
        if named {
            if self
                .agents
                .get(session)
                .is_some_and(|a| a.tabs.is_empty() && a.current.is_none() && a.lost.is_none())
            {
                self.agents.remove(session);
            }
            return false;
        }
        self.release(session, None);
        self.agents.remove(session);
        true
    }

    /// The session whose short id is `id`.
    pub(super) fn session_by_id(&self, id: &AgentId) -> Option<AgentKey> {
        self.agents.keys().find(|s| s.short_id() == *id).cloned()
    }

    /// Every agent with its tabs, for `status`.
    pub(super) fn view(&self) -> Vec<AgentView<'_>> {
        self.agents
            .iter()
            .map(|(session, agent)| {
                let tabs = agent
                    .tabs
                    .iter()
                    .filter_map(|key| {
                        let lease = self.leases.get(key)?;
                        Some(LeaseEntry {
                            browser_id: key.0.clone(),
                            tab: key.1,
                            idle_ms: lease.used.elapsed().as_millis() as u64,
                            lapsed: self.lapsed(lease),
                            opened: lease.opened,
                            current: agent.current.as_ref() == Some(key),
                            private: false,
                            advanced: false,
                        })
                    })
                    .collect();
                AgentView {
                    session,
                    info: &agent.info,
                    tabs,
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: &str = "browser-1";

    fn key(session: &str) -> AgentKey {
        AgentKey(session.into())
    }

    fn bid(browser: &str) -> BrowserId {
        BrowserId(browser.into())
    }

    fn code(r: Result<impl std::fmt::Debug, ToolError>) -> Code {
        r.expect_err("refused").code
    }

    /// `session` opened `tab` with a call of its own.
    fn opened(books: &mut Books, session: &str, tab: i64) {
        books.record(
            Some(&key(session)),
            &bid(B),
            TabEvent::Opened { tab: TabId(tab) },
        );
    }

    /// `session` entered by a connection of process `pid`.
    fn agent(books: &mut Books, session: &str, name: &str, ttl: Duration, pid: u32) {
        books.enter(
            &key(session),
            AgentInfo {
                name: name.into(),
                pid,
                ttl,
            },
        );
    }

    fn lease_of(books: &Books, session: &str, tab: i64) -> Option<LeaseEntry> {
        let view = books.view();
        let agent = view.into_iter().find(|a| *a.session == key(session))?;
        agent.tabs.into_iter().find(|t| t.tab == TabId(tab))
    }

    #[test]
    fn a_claimed_tab_is_held_and_current() {
        let mut books = Books::default();
        books.claim(&key("a"), &bid(B), TabId(7)).unwrap();
        assert_eq!(books.current(&key("a")), Some(&(bid(B), TabId(7))));
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(7)));
        assert_eq!(
            code(books.may_touch(&key("b"), &bid(B), TabId(7))),
            Code::TabClaimed
        );
    }

    #[test]
    fn claiming_a_tab_another_session_holds_is_tab_claimed_and_changes_nothing() {
        let mut books = Books::default();
        agent(&mut books, "a", "claude-code", LEASE_TTL, 1);
        books.claim(&key("a"), &bid(B), TabId(7)).unwrap();
        let e = books.claim(&key("b"), &bid(B), TabId(7)).unwrap_err();
        assert_eq!(e.code, Code::TabClaimed);
        assert_eq!(e.outcome, crate::shared::error::Outcome::Refused);
        assert!(e.message.contains("claude-code"), "{}", e.message);
        assert!(e.message.contains("browser_force_claim"), "{}", e.message);
        assert_eq!(books.current(&key("b")), None);
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            Some(TabId(7)),
            "a keeps its tab"
        );
    }

    #[test]
    fn the_holder_may_claim_its_own_tab_again() {
        let mut books = Books::default();
        books.claim(&key("a"), &bid(B), TabId(7)).unwrap();
        books.claim(&key("a"), &bid(B), TabId(8)).unwrap();
        books.claim(&key("a"), &bid(B), TabId(7)).unwrap();
        assert_eq!(books.current(&key("a")), Some(&(bid(B), TabId(7))));
    }

    #[test]
    fn the_same_tab_id_in_another_browser_is_another_tab() {
        let mut books = Books::default();
        books.claim(&key("a"), &bid(B), TabId(7)).unwrap();
        books.claim(&key("b"), &bid("browser-2"), TabId(7)).unwrap();
        assert!(
            books
                .may_touch(&key("b"), &bid("browser-2"), TabId(7))
                .is_ok()
        );
    }

    #[test]
    fn a_tab_the_agent_opened_is_adopted_as_held_current_and_opened() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(5)));
        assert_eq!(
            code(books.claim(&key("b"), &bid(B), TabId(5))),
            Code::TabClaimed
        );
        assert!(lease_of(&books, "a", 5).unwrap().opened);
        books.claim(&key("a"), &bid(B), TabId(6)).unwrap();
        assert!(
            !lease_of(&books, "a", 6).unwrap().opened,
            "handed, not opened"
        );
    }

    fn held(tab: i64, owner: &str, opened: bool) -> HeldTab {
        HeldTab {
            tab: TabId(tab),
            owner: key(owner),
            opened,
        }
    }

    #[test]
    fn a_restored_tab_is_its_owners_again_unless_someone_holds_it_now() {
        let mut books = Books::default();
        books.rejoin(&bid(B), &[held(5, "a", true)]);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(5)));
        assert_eq!(
            code(books.claim(&key("b"), &bid(B), TabId(5))),
            Code::TabClaimed
        );
        books.claim(&key("b"), &bid(B), TabId(6)).unwrap();
        books.rejoin(&bid(B), &[held(5, "a", true), held(6, "a", true)]);
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            Some(TabId(5)),
            "b's tab stayed b's"
        );
        assert_eq!(
            code(books.claim(&key("a"), &bid(B), TabId(6))),
            Code::TabClaimed
        );
        books.rejoin(
            &bid(B),
            &[held(5, "a", true), held(6, "a", true), held(8, "a", false)],
        );
        assert!(!lease_of(&books, "a", 8).unwrap().opened);
    }

    #[test]
    fn a_new_process_picking_books_up_keeps_the_tabs_still_held_and_nothing_of_what_befell_them() {
        let mut books = Books::default();
        agent(&mut books, "a", "claude-code", LEASE_TTL, 1);
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.force(&key("b"), &bid(B), TabId(6), "mine now");
        agent(&mut books, "a", "claude-code", LEASE_TTL, 1);
        assert_eq!(
            code(books.page_tab(&key("a"), &bid(B))),
            Code::LeaseLost,
            "its own reconnection"
        );
        agent(&mut books, "a", "claude-code", LEASE_TTL, 2);
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            Some(TabId(5)),
            "its last tab still held"
        );

        books.record(None, &bid(B), TabEvent::Closed { tab: TabId(5) });
        agent(&mut books, "a", "claude-code", LEASE_TTL, 3);
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            None,
            "not TAB_GONE: clean"
        );
        assert_eq!(books.page_tab(&key("b"), &bid(B)).unwrap(), Some(TabId(6)));
    }

    #[test]
    fn a_tab_a_rejoining_browser_does_not_name_is_gone_and_its_agent_starts_clean() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "b", 6);
        books.claim(&key("c"), &bid("browser-2"), TabId(5)).unwrap();
        // The browser came back without tab 5 (it restarted, or closed it while away).
        books.rejoin(&bid(B), &[held(6, "b", true)]);
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            None,
            "not TAB_GONE: clean"
        );
        assert!(lease_of(&books, "a", 5).is_none());
        assert!(
            books.may_touch(&key("x"), &bid(B), TabId(5)).is_ok(),
            "nobody holds the old id"
        );
        assert_eq!(books.page_tab(&key("b"), &bid(B)).unwrap(), Some(TabId(6)));
        assert_eq!(
            books.page_tab(&key("c"), &bid("browser-2")).unwrap(),
            Some(TabId(5)),
            "another browser's tab of the same id stayed"
        );
    }

    #[test]
    fn a_tab_opened_by_no_agents_call_is_nobodys() {
        let mut books = Books::default();
        books.record(None, &bid(B), TabEvent::Opened { tab: TabId(5) });
        assert_eq!(books.current(&key("a")), None);
        assert!(books.may_touch(&key("b"), &bid(B), TabId(5)).is_ok());
    }

    #[test]
    fn may_touch_a_free_tab_or_its_own_but_not_anothers() {
        let mut books = Books::default();
        books.claim(&key("a"), &bid(B), TabId(7)).unwrap();
        assert!(
            books.may_touch(&key("a"), &bid(B), TabId(7)).is_ok(),
            "its own"
        );
        assert!(
            books.may_touch(&key("b"), &bid(B), TabId(8)).is_ok(),
            "a free tab"
        );
        let e = books.may_touch(&key("b"), &bid(B), TabId(7)).unwrap_err();
        assert_eq!(
            (e.code, e.outcome),
            (Code::TabClaimed, crate::shared::error::Outcome::Refused)
        );
    }

    #[tokio::test(start_paused = true)]
    async fn an_idle_lease_lapses_and_another_may_claim_the_tab() {
        let mut books = Books::default();
        agent(&mut books, "a", "cursor", Duration::from_secs(60), 1);
        agent(&mut books, "b", "claude-code", LEASE_TTL, 1);
        opened(&mut books, "a", 5);
        tokio::time::advance(Duration::from_secs(50)).await;
        books.touch(&key("a"), &bid(B), TabId(5));
        tokio::time::advance(Duration::from_secs(50)).await;
        assert_eq!(
            code(books.claim(&key("b"), &bid(B), TabId(5))),
            Code::TabClaimed,
            "the call at 50 s renewed it"
        );
        assert!(!lease_of(&books, "a", 5).unwrap().lapsed);
        tokio::time::advance(Duration::from_secs(11)).await;
        assert!(lease_of(&books, "a", 5).unwrap().lapsed);
        books.claim(&key("b"), &bid(B), TabId(5)).unwrap();
        assert_eq!(books.page_tab(&key("b"), &bid(B)).unwrap(), Some(TabId(5)));
        let e = books.page_tab(&key("a"), &bid(B)).unwrap_err();
        assert_eq!(e.code, Code::LeaseLost);
        assert!(e.message.contains("claude-code"), "{}", e.message);
        assert!(e.message.contains("lapsed"), "{}", e.message);
    }

    #[tokio::test(start_paused = true)]
    async fn a_lapsed_lease_nobody_took_is_renewed_by_its_holders_next_call() {
        let mut books = Books::default();
        agent(&mut books, "a", "cursor", Duration::from_secs(60), 1);
        opened(&mut books, "a", 5);
        tokio::time::advance(Duration::from_secs(120)).await;
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(5)));
        books.touch(&key("a"), &bid(B), TabId(5));
        assert_eq!(
            code(books.claim(&key("b"), &bid(B), TabId(5))),
            Code::TabClaimed
        );
    }

    #[test]
    fn a_forced_claim_takes_a_held_tab_and_the_loser_gets_lease_lost_until_it_picks_another() {
        let mut books = Books::default();
        agent(&mut books, "a", "cursor", LEASE_TTL, 1);
        agent(&mut books, "b", "claude-code", LEASE_TTL, 1);
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.claim(&key("a"), &bid(B), TabId(5)).unwrap();
        assert_eq!(
            books.force(
                &key("b"),
                &bid(B),
                TabId(5),
                "the user asked me to finish it"
            ),
            Some("cursor".to_string())
        );
        assert_eq!(books.page_tab(&key("b"), &bid(B)).unwrap(), Some(TabId(5)));
        for _ in 0..2 {
            let e = books.page_tab(&key("a"), &bid(B)).unwrap_err();
            assert_eq!(e.code, Code::LeaseLost, "every call, not once");
            assert!(e.message.contains("claude-code"), "{}", e.message);
            assert!(e.message.contains("finish it"), "{}", e.message);
        }
        assert!(
            !lease_of(&books, "b", 5).unwrap().opened,
            "b did not open it"
        );
        // Picking its other tab ends it.
        books.claim(&key("a"), &bid(B), TabId(6)).unwrap();
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(6)));
    }

    #[test]
    fn a_forced_claim_of_a_tab_that_was_not_current_leaves_the_loser_working() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.force(&key("b"), &bid(B), TabId(5), "x");
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(6)));
    }

    #[test]
    fn a_release_gives_up_every_tab_and_the_next_call_opens_one() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.claim(&key("a"), &bid(B), TabId(6)).unwrap();
        books.release(&key("a"), None);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), None);
        books.claim(&key("b"), &bid(B), TabId(5)).unwrap();
        books.claim(&key("b"), &bid(B), TabId(6)).unwrap();
    }

    #[test]
    fn a_release_by_a_person_is_lease_lost_for_the_agent_until_it_picks_a_tab() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.release(&key("a"), Some("a person, from the dashboard"));
        // The browser closing it, as its answer to the release says, changes nothing of that.
        books.record(Some(&key("a")), &bid(B), TabEvent::Closed { tab: TabId(5) });
        let e = books.page_tab(&key("a"), &bid(B)).unwrap_err();
        assert_eq!(e.code, Code::LeaseLost);
        assert!(e.message.contains("dashboard"), "{}", e.message);
        opened(&mut books, "a", 9);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(9)));
    }

    #[test]
    fn an_unnamed_session_leaving_releases_every_tab_it_held() {
        let mut books = Books::default();
        opened(&mut books, "peer-1", 5);
        books.claim(&key("peer-1"), &bid(B), TabId(6)).unwrap();
        assert!(books.leave(&key("peer-1"), false, false));
        assert_eq!(books.current(&key("peer-1")), None);
        assert!(books.view().is_empty());
        books.claim(&key("b"), &bid(B), TabId(5)).unwrap();
        books.claim(&key("b"), &bid(B), TabId(6)).unwrap();
    }

    #[test]
    fn a_named_session_outlives_its_connection() {
        let mut books = Books::default();
        books.claim(&key("cli"), &bid(B), TabId(5)).unwrap();
        assert!(!books.leave(&key("cli"), true, false));
        assert_eq!(
            books.page_tab(&key("cli"), &bid(B)).unwrap(),
            Some(TabId(5))
        );
        assert_eq!(
            code(books.claim(&key("b"), &bid(B), TabId(5))),
            Code::TabClaimed
        );
    }

    #[test]
    fn named_sessions_that_left_holding_nothing_are_forgotten() {
        let mut books = Books::default();
        for n in 0..1000 {
            let name = format!("job-{n}");
            agent(&mut books, &name, "cli", LEASE_TTL, n);
            assert!(!books.leave(&key(&name), true, false));
        }
        assert!(books.view().is_empty(), "{} kept", books.view().len());
        // One holding a tab, or with a closed tab to report, is kept.
        books.claim(&key("cli"), &bid(B), TabId(5)).unwrap();
        opened(&mut books, "other", 6);
        books.record(None, &bid(B), TabEvent::Closed { tab: TabId(6) });
        books.leave(&key("cli"), true, false);
        books.leave(&key("other"), true, false);
        assert_eq!(books.view().len(), 2);
        assert_eq!(code(books.page_tab(&key("other"), &bid(B))), Code::TabGone);
    }

    #[test]
    fn a_session_still_connected_elsewhere_keeps_its_tabs() {
        let mut books = Books::default();
        books.claim(&key("s"), &bid(B), TabId(5)).unwrap();
        assert!(!books.leave(&key("s"), false, true));
        assert_eq!(books.page_tab(&key("s"), &bid(B)).unwrap(), Some(TabId(5)));
        assert_eq!(
            code(books.claim(&key("b"), &bid(B), TabId(5))),
            Code::TabClaimed
        );
    }

    #[test]
    fn a_tab_closed_by_someone_else_is_tab_gone_once_then_a_fresh_tab() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(None, &bid(B), TabEvent::Closed { tab: TabId(5) });
        assert_eq!(
            books.current(&key("a")),
            Some(&(bid(B), TabId(5))),
            "it stays current"
        );
        assert_eq!(code(books.page_tab(&key("a"), &bid(B))), Code::TabGone);
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            None,
            "the next call opens a tab"
        );
        opened(&mut books, "a", 9);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(9)));
    }

    #[test]
    fn a_tab_closed_by_another_agents_call_is_tab_gone_for_its_holder() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(Some(&key("b")), &bid(B), TabEvent::Closed { tab: TabId(5) });
        assert_eq!(code(books.page_tab(&key("a"), &bid(B))), Code::TabGone);
    }

    #[test]
    fn a_tab_closed_by_the_agents_own_call_is_simply_gone() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(Some(&key("a")), &bid(B), TabEvent::Closed { tab: TabId(5) });
        assert_eq!(books.current(&key("a")), None);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), None);
    }

    #[test]
    fn closing_another_of_its_tabs_leaves_the_current_one() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.record(Some(&key("a")), &bid(B), TabEvent::Closed { tab: TabId(5) });
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(6)));
    }

    #[test]
    fn a_closed_tab_leaves_its_lease() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(None, &bid(B), TabEvent::Closed { tab: TabId(5) });
        assert!(books.may_touch(&key("b"), &bid(B), TabId(5)).is_ok());
    }

    #[test]
    fn a_replaced_tab_moves_its_lease_and_stays_current() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(
            None,
            &bid(B),
            TabEvent::Replaced {
                old: TabId(5),
                tab: TabId(31),
            },
        );
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(31)));
        assert_eq!(
            code(books.may_touch(&key("b"), &bid(B), TabId(31))),
            Code::TabClaimed
        );
        assert!(
            books.may_touch(&key("b"), &bid(B), TabId(5)).is_ok(),
            "the old id is free"
        );
        // The new tab is among the held ones: closing it releases it.
        books.leave(&key("a"), false, false);
        assert!(books.may_touch(&key("b"), &bid(B), TabId(31)).is_ok());
    }

    #[test]
    fn a_replaced_tab_that_was_not_current_stays_held() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.record(
            None,
            &bid(B),
            TabEvent::Replaced {
                old: TabId(5),
                tab: TabId(31),
            },
        );
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(6)));
        books.claim(&key("a"), &bid(B), TabId(31)).unwrap();
        assert_eq!(
            books.page_tab(&key("a"), &bid(B)).unwrap(),
            Some(TabId(31)),
            "not TAB_GONE"
        );
    }

    #[test]
    fn a_current_tab_in_another_browser_is_not_this_browsers() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        assert_eq!(books.page_tab(&key("a"), &bid("browser-2")).unwrap(), None);
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(5)));
        assert_eq!(books.page_tab(&key("nobody"), &bid(B)).unwrap(), None);
    }

    #[test]
    fn an_agent_back_in_a_browser_it_worked_in_gets_its_last_tab_there() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.record(
            Some(&key("a")),
            &bid("browser-2"),
            TabEvent::Opened { tab: TabId(7) },
        );
        assert_eq!(books.page_tab(&key("a"), &bid(B)).unwrap(), Some(TabId(6)));
        assert_eq!(books.current(&key("a")), Some(&(bid(B), TabId(6))));
        assert_eq!(
            books.page_tab(&key("a"), &bid("browser-2")).unwrap(),
            Some(TabId(7))
        );
        assert_eq!(books.page_tab(&key("a"), &bid("browser-3")).unwrap(), None);
    }

    #[test]
    fn an_agent_is_found_by_its_short_id() {
        let mut books = Books::default();
        opened(&mut books, "agent:abc", 5);
        let id = key("agent:abc").short_id();
        assert_eq!(books.session_by_id(&id), Some(key("agent:abc")));
        assert_eq!(books.session_by_id(&AgentId("nope".into())), None);
    }
}
