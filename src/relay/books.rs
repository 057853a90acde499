//! The agents' books: which tabs each session holds, the one it works in, and the leases that
//! keep two agents off one tab. Plain data: routing reads and writes it under its own lock.
//!
//! A session is an agent, not a connection: one with a name the caller chose (the CLI's)
//! outlives its connections; an MCP server's ends with its connection.

use std::collections::HashMap;

use crate::error::{Code, ToolError};
use crate::protocol::TabEvent;

/// A tab as the relay knows it: the browser's id and the tab's id in that browser.
pub(super) type TabKey = (String, i64);

/// One session's tabs, and the one its page calls run in.
#[derive(Default)]
struct Agent {
    current: Option<TabKey>,
    tabs: Vec<TabKey>,
}

#[derive(Default)]
pub(super) struct Books {
    agents: HashMap<String, Agent>,
    /// Which session holds each tab.
    leases: HashMap<TabKey, String>,
}

impl Books {
    /// The tab `session`'s page calls run in, if it has one.
    pub(super) fn current(&self, session: &str) -> Option<&TabKey> {
        self.agents.get(session).and_then(|a| a.current.as_ref())
    }

    /// Whether `session` may touch `tab` with a browser-scoped call: refused with TAB_CLAIMED
    /// when another session holds it.
    pub(super) fn may_touch(
        &self,
        session: &str,
        browser: &str,
        tab: i64,
    ) -> Result<(), ToolError> {
        match self.leases.get(&(browser.to_string(), tab)) {
            Some(holder) if holder != session => Err(ToolError::refused(
                Code::TabClaimed,
                format!("tab {tab} is held by another agent"),
            )),
            _ => Ok(()),
        }
    }

    /// Hands a tab the caller named to `session`, which then works in it; refused with
    /// TAB_CLAIMED when another session holds it.
    pub(super) fn claim(
        &mut self,
        session: &str,
        browser: &str,
        tab: i64,
    ) -> Result<(), ToolError> {
        self.may_touch(session, browser, tab)?;
        let key = (browser.to_string(), tab);
        self.leases.insert(key.clone(), session.to_string());
        let agent = self.agents.entry(session.to_string()).or_default();
        if !agent.tabs.contains(&key) {
            agent.tabs.push(key.clone());
        }
        agent.current = Some(key);
        Ok(())
    }

    /// A tab the browser says it opened for `owner`, told by a browser joining a relay that
    /// restarted: back in the owner's books, unless someone holds it now.
    pub(super) fn restore(&mut self, owner: &str, browser: &str, tab: i64) {
        if !self.leases.contains_key(&(browser.to_string(), tab)) {
            self.record(Some(owner), browser, TabEvent::Opened { tab });
        }
    }

    /// The tab a page call that names none runs in on `browser`: the session's current tab
    /// (`Some`), or none yet there, so one is to be opened (`None`). A current tab that someone
    /// else closed is TAB_GONE, once: it stops being current, and the next call opens a new one.
    pub(super) fn page_tab(
        &mut self,
        session: &str,
        browser: &str,
    ) -> Result<Option<i64>, ToolError> {
        let Some(agent) = self.agents.get_mut(session) else {
            return Ok(None);
        };
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
            _ => Ok(None),
        }
    }

    /// Keeps the books from what the browser says happened to a tab. `caller`: the session whose
    /// call caused it, which adopts a tab it opened, and has already heard of one it closed; a
    /// tab closed by anyone else stays its agent's current tab, so that page_tab says TAB_GONE.
    pub(super) fn record(&mut self, caller: Option<&str>, browser: &str, event: TabEvent) {
        match event {
            TabEvent::Opened { tab } => {
                if let Some(session) = caller {
                    let key = (browser.to_string(), tab);
                    self.leases.insert(key.clone(), session.to_string());
                    let agent = self.agents.entry(session.to_string()).or_default();
                    agent.tabs.push(key.clone());
                    agent.current = Some(key);
                }
            }
            TabEvent::Closed { tab } => {
                let key = (browser.to_string(), tab);
                self.leases.remove(&key);
                for (session, agent) in &mut self.agents {
                    agent.tabs.retain(|t| *t != key);
                    if caller == Some(session.as_str()) && agent.current.as_ref() == Some(&key) {
                        agent.current = None;
                    }
                }
            }
            TabEvent::Replaced { old, tab } => {
                let (old, new) = ((browser.to_string(), old), (browser.to_string(), tab));
                if let Some(holder) = self.leases.remove(&old) {
                    self.leases.insert(new.clone(), holder);
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

    /// A connection of `session` left. A session the caller named outlives its connections, and
    /// so does one still connected elsewhere; any other ends here and releases every tab it held.
    /// Returns whether it ended (the browsers then close the tabs opened for it).
    pub(super) fn leave(&mut self, session: &str, named: bool, still_connected: bool) -> bool {
        if named || still_connected {
            return false;
        }
        let tabs = self
            .agents
            .remove(session)
            .map(|a| a.tabs)
            .unwrap_or_default();
        for tab in &tabs {
            self.leases.remove(tab);
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const B: &str = "browser-1";

    fn code(r: Result<impl std::fmt::Debug, ToolError>) -> Code {
        r.expect_err("refused").code
    }

    /// `session` opened `tab` with a call of its own.
    fn opened(books: &mut Books, session: &str, tab: i64) {
        books.record(Some(session), B, TabEvent::Opened { tab });
    }

    #[test]
    fn a_claimed_tab_is_held_and_current() {
        let mut books = Books::default();
        books.claim("a", B, 7).unwrap();
        assert_eq!(books.current("a"), Some(&(B.to_string(), 7)));
        assert_eq!(books.page_tab("a", B).unwrap(), Some(7));
        assert_eq!(code(books.may_touch("b", B, 7)), Code::TabClaimed);
    }

    #[test]
    fn claiming_a_tab_another_session_holds_is_tab_claimed_and_changes_nothing() {
        let mut books = Books::default();
        books.claim("a", B, 7).unwrap();
        let e = books.claim("b", B, 7).unwrap_err();
        assert_eq!(e.code, Code::TabClaimed);
        assert_eq!(e.outcome, crate::error::Outcome::Refused);
        assert_eq!(books.current("b"), None);
        assert_eq!(books.page_tab("a", B).unwrap(), Some(7), "a keeps its tab");
    }

    #[test]
    fn the_holder_may_claim_its_own_tab_again() {
        let mut books = Books::default();
        books.claim("a", B, 7).unwrap();
        books.claim("a", B, 8).unwrap();
        books.claim("a", B, 7).unwrap();
        assert_eq!(books.current("a"), Some(&(B.to_string(), 7)));
    }

    #[test]
    fn the_same_tab_id_in_another_browser_is_another_tab() {
        let mut books = Books::default();
        books.claim("a", B, 7).unwrap();
        books.claim("b", "browser-2", 7).unwrap();
        assert!(books.may_touch("b", "browser-2", 7).is_ok());
    }

    #[test]
    fn a_tab_the_agent_opened_is_adopted_as_held_and_current() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        assert_eq!(books.page_tab("a", B).unwrap(), Some(5));
        assert_eq!(code(books.claim("b", B, 5)), Code::TabClaimed);
    }

    #[test]
    fn a_restored_tab_is_its_owners_again_unless_someone_holds_it_now() {
        let mut books = Books::default();
        books.restore("a", B, 5);
        assert_eq!(books.page_tab("a", B).unwrap(), Some(5));
        assert_eq!(code(books.claim("b", B, 5)), Code::TabClaimed);
        books.claim("b", B, 6).unwrap();
        books.restore("a", B, 6);
        assert_eq!(
            books.page_tab("a", B).unwrap(),
            Some(5),
            "b's tab stayed b's"
        );
        assert_eq!(code(books.claim("a", B, 6)), Code::TabClaimed);
    }

    #[test]
    fn a_tab_opened_by_no_agents_call_is_nobodys() {
        let mut books = Books::default();
        books.record(None, B, TabEvent::Opened { tab: 5 });
        assert_eq!(books.current("a"), None);
        assert!(books.may_touch("b", B, 5).is_ok());
    }

    #[test]
    fn may_touch_a_free_tab_or_its_own_but_not_anothers() {
        let mut books = Books::default();
        books.claim("a", B, 7).unwrap();
        assert!(books.may_touch("a", B, 7).is_ok(), "its own");
        assert!(books.may_touch("b", B, 8).is_ok(), "a free tab");
        let e = books.may_touch("b", B, 7).unwrap_err();
        assert_eq!(
            (e.code, e.outcome),
            (Code::TabClaimed, crate::error::Outcome::Refused)
        );
    }

    #[test]
    fn an_unnamed_session_leaving_releases_every_tab_it_held() {
        let mut books = Books::default();
        opened(&mut books, "peer-1", 5);
        books.claim("peer-1", B, 6).unwrap();
        assert!(books.leave("peer-1", false, false));
        assert_eq!(books.current("peer-1"), None);
        books.claim("b", B, 5).unwrap();
        books.claim("b", B, 6).unwrap();
    }

    #[test]
    fn a_named_session_outlives_its_connection() {
        let mut books = Books::default();
        books.claim("cli", B, 5).unwrap();
        assert!(!books.leave("cli", true, false));
        assert_eq!(books.page_tab("cli", B).unwrap(), Some(5));
        assert_eq!(code(books.claim("b", B, 5)), Code::TabClaimed);
    }

    #[test]
    fn a_session_still_connected_elsewhere_keeps_its_tabs() {
        let mut books = Books::default();
        books.claim("s", B, 5).unwrap();
        assert!(!books.leave("s", false, true));
        assert_eq!(books.page_tab("s", B).unwrap(), Some(5));
        assert_eq!(code(books.claim("b", B, 5)), Code::TabClaimed);
    }

    #[test]
    fn a_tab_closed_by_someone_else_is_tab_gone_once_then_a_fresh_tab() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(None, B, TabEvent::Closed { tab: 5 });
        assert_eq!(
            books.current("a"),
            Some(&(B.to_string(), 5)),
            "it stays current"
        );
        assert_eq!(code(books.page_tab("a", B)), Code::TabGone);
        assert_eq!(
            books.page_tab("a", B).unwrap(),
            None,
            "the next call opens a tab"
        );
        opened(&mut books, "a", 9);
        assert_eq!(books.page_tab("a", B).unwrap(), Some(9));
    }

    #[test]
    fn a_tab_closed_by_another_agents_call_is_tab_gone_for_its_holder() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(Some("b"), B, TabEvent::Closed { tab: 5 });
        assert_eq!(code(books.page_tab("a", B)), Code::TabGone);
    }

    #[test]
    fn a_tab_closed_by_the_agents_own_call_is_simply_gone() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(Some("a"), B, TabEvent::Closed { tab: 5 });
        assert_eq!(books.current("a"), None);
        assert_eq!(books.page_tab("a", B).unwrap(), None);
    }

    #[test]
    fn closing_another_of_its_tabs_leaves_the_current_one() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.record(Some("a"), B, TabEvent::Closed { tab: 5 });
        assert_eq!(books.page_tab("a", B).unwrap(), Some(6));
    }

    #[test]
    fn a_closed_tab_leaves_its_lease() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(None, B, TabEvent::Closed { tab: 5 });
        assert!(books.may_touch("b", B, 5).is_ok());
    }

    #[test]
    fn a_replaced_tab_moves_its_lease_and_stays_current() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        books.record(None, B, TabEvent::Replaced { old: 5, tab: 31 });
        assert_eq!(books.page_tab("a", B).unwrap(), Some(31));
        assert_eq!(code(books.may_touch("b", B, 31)), Code::TabClaimed);
        assert!(books.may_touch("b", B, 5).is_ok(), "the old id is free");
        // The new tab is among the held ones: closing it releases it.
        books.leave("a", false, false);
        assert!(books.may_touch("b", B, 31).is_ok());
    }

    #[test]
    fn a_replaced_tab_that_was_not_current_stays_held() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        opened(&mut books, "a", 6);
        books.record(None, B, TabEvent::Replaced { old: 5, tab: 31 });
        assert_eq!(books.page_tab("a", B).unwrap(), Some(6));
        books.claim("a", B, 31).unwrap();
        assert_eq!(books.page_tab("a", B).unwrap(), Some(31), "not TAB_GONE");
    }

    #[test]
    fn a_current_tab_in_another_browser_is_not_this_browsers() {
        let mut books = Books::default();
        opened(&mut books, "a", 5);
        assert_eq!(books.page_tab("a", "browser-2").unwrap(), None);
        assert_eq!(books.page_tab("a", B).unwrap(), Some(5));
        assert_eq!(books.page_tab("nobody", B).unwrap(), None);
    }
}
