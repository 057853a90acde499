//! The books under random interleavings: up to 8 agent processes (several of one client, in one
//! directory, under one name), 2 browsers, connects, exits, reconnections, relay restarts,
//! browser restarts, opens, claims, force-claims, releases, lapses and tabs the person closes.
//! After every step: no tab has two holders, every tab an agent holds was opened by it, handed to
//! it (`browser_select_tab`) or taken by force, and two live agents never share books.
//!
//! The model plays the parts around the books as the code does: keys from `AgentKey::of`
//! over the link keys that `link::identity` hands out (real slot files, real locks), the
//! extension's record of whose each tab is (extension/sw/sharing.js), and the relay's grace.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::time::Duration;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};

use super::books::{AgentInfo, Books, LEASE_TTL, TabKey};
use crate::controller::link::identity::{self, Resumable};
use crate::shared::protocol::{AgentKey, BrowserId, HeldTab, PeerInfo, TabEvent, TabId, auth};

const PROCESSES: usize = 8;
const BROWSERS: [&str; 2] = ["browser-a", "browser-b"];
const INTERLEAVINGS: u32 = 3000;

fn browser_id(b: usize) -> BrowserId {
    BrowserId(BROWSERS[b].into())
}

#[derive(Clone, Debug)]
enum Step {
    Start(usize),
    Exit(usize),
    Reconnect(usize),
    GraceEnds(usize),
    RelayRestart,
    BrowserRestart(usize),
    Open(usize, usize),
    PageCall(usize, usize),
    Claim(usize, usize, usize),
    Force(usize, usize, usize),
    Release(usize),
    PersonCloses(usize, usize),
}

fn step() -> impl Strategy<Value = Step> {
    let p = 0..PROCESSES;
    let b = 0..BROWSERS.len();
    let t = 0..12usize;
    prop_oneof![
        3 => p.clone().prop_map(Step::Start),
        1 => p.clone().prop_map(Step::Exit),
        1 => p.clone().prop_map(Step::Reconnect),
        1 => (0..16usize).prop_map(Step::GraceEnds),
        1 => Just(Step::RelayRestart),
        1 => b.clone().prop_map(Step::BrowserRestart),
        3 => (p.clone(), b.clone()).prop_map(|(p, b)| Step::Open(p, b)),
        4 => (p.clone(), b.clone()).prop_map(|(p, b)| Step::PageCall(p, b)),
        2 => (p.clone(), b.clone(), t.clone()).prop_map(|(p, b, t)| Step::Claim(p, b, t)),
        1 => (p.clone(), b.clone(), t.clone()).prop_map(|(p, b, t)| Step::Force(p, b, t)),
        1 => p.prop_map(Step::Release),
        1 => (b, t).prop_map(|(b, t)| Step::PersonCloses(b, t)),
    ]
}

/// A browser as the extension keeps it: its open tabs, and whose books each agent's tab is in.
/// A browser that restarts numbers its tabs from the start again, as Chromium does.
#[derive(Default)]
struct Browser {
    next_tab: i64,
    open: BTreeSet<TabId>,
    owners: BTreeMap<TabId, AgentKey>,
    openers: BTreeMap<TabId, AgentKey>,
}

impl Browser {
    /// What it tells a relay it joins (extension/sw/sharing.js `held`).
    fn held(&self) -> Vec<HeldTab> {
        self.owners
            .iter()
            .filter(|(t, _)| self.open.contains(t))
            .map(|(t, o)| HeldTab {
                tab: *t,
                owner: o.clone(),
                opened: self.openers.get(t) == Some(o),
            })
            .collect()
    }
}

/// A running `tabpilot mcp`: the books its key files it under, and its slot, if it holds one.
struct Process {
    session: AgentKey,
    pid: u32,
    _slot: Option<Resumable>,
}

struct World {
    books: Books,
    browsers: Vec<Browser>,
    processes: Vec<Option<Process>>,
    next_pid: u32,
    /// Sessions whose last connection left, waiting out the grace period.
    leaving: Vec<AgentKey>,
    /// Who may hold each tab: its opener, or whoever was handed it or took it since.
    entitled: HashMap<TabKey, AgentKey>,
    /// The evidence the processes show: the first six are one client in one directory, the last
    /// two another client's.
    evidence: [String; PROCESSES],
    /// This interleaving's slot files.
    slots: std::path::PathBuf,
}

impl World {
    fn new(case: u64) -> World {
        let client = |c: u32| format!("client\0{c}\0{case}\0/work/project");
        World {
            books: Books::default(),
            browsers: BROWSERS.iter().map(|_| Browser::default()).collect(),
            processes: (0..PROCESSES).map(|_| None).collect(),
            next_pid: 0,
            leaving: Vec::new(),
            entitled: HashMap::new(),
            evidence: std::array::from_fn(|p| client(if p < 6 { 1 } else { 2 })),
            slots: std::env::temp_dir().join(format!(
                "tabpilot-interleavings-{}-{case}",
                std::process::id()
            )),
        }
    }

    fn session(&self, p: usize) -> Option<AgentKey> {
        self.processes[p].as_ref().map(|p| p.session.clone())
    }

    fn connected(&self, session: &AgentKey) -> bool {
        self.processes
            .iter()
            .flatten()
            .any(|p| p.session == *session)
    }

    fn enter(&mut self, session: &AgentKey, p: usize, pid: u32) {
        // Half the agents let their leases lapse at once, so lapsed claims happen.
        let ttl = if p.is_multiple_of(2) {
            LEASE_TTL
        } else {
            Duration::ZERO
        };
        let info = AgentInfo {
            name: "claude-code".into(),
            pid,
            ttl,
        };
        self.books.enter(session, info);
    }

    fn start(&mut self, p: usize) {
        if self.processes[p].is_some() {
            return;
        }
        let slot = identity::take_in(&self.slots, &self.evidence[p]).expect("a slot file");
        let info = PeerInfo {
            name: "claude-code".into(),
            session_key: Some(slot.as_ref().map_or_else(auth::nonce, |s| s.key().into())),
            ..PeerInfo::default()
        };
        let session = AgentKey::of(&info);
        self.next_pid += 1;
        let pid = self.next_pid;
        self.enter(&session, p, pid);
        self.processes[p] = Some(Process {
            session,
            pid,
            _slot: slot,
        });
    }

    fn leave(&mut self, session: AgentKey) {
        if !self.leaving.contains(&session) {
            self.leaving.push(session);
        }
    }

    /// The grace period of a session that left ends: gone, unless it came back.
    fn grace_ends(&mut self, n: usize) {
        if self.leaving.is_empty() {
            return;
        }
        let session = self.leaving.remove(n % self.leaving.len());
        let still_here = self.connected(&session);
        if self.books.leave(&session, false, still_here) {
            self.let_go(&session);
        }
    }

    /// The browsers hear that `session` gave its tabs up: they forget them, and close those it
    /// opened.
    fn let_go(&mut self, session: &AgentKey) {
        self.entitled.retain(|_, holder| *holder != *session);
        for (b, browser) in self.browsers.iter_mut().enumerate() {
            let mine: Vec<TabId> = browser
                .owners
                .iter()
                .filter(|(_, o)| *o == session)
                .map(|(t, _)| *t)
                .collect();
            for tab in mine {
                browser.owners.remove(&tab);
                if browser.openers.get(&tab) == Some(session) {
                    browser.open.remove(&tab);
                    self.books
                        .record(Some(session), &browser_id(b), TabEvent::Closed { tab });
                }
            }
        }
    }

    fn relay_restart(&mut self) {
        self.books = Books::default();
        self.leaving.clear();
        let helds: Vec<Vec<HeldTab>> = self.browsers.iter().map(Browser::held).collect();
        for (b, held) in helds.into_iter().enumerate() {
            self.books.rejoin(&browser_id(b), &held);
            // Owners that do not come back have the grace period to.
            for h in held {
                self.leave(h.owner);
            }
        }
        for p in 0..PROCESSES {
            if let Some(process) = &self.processes[p] {
                let (session, pid) = (process.session.clone(), process.pid);
                self.enter(&session, p, pid);
            }
        }
    }

    fn browser_restart(&mut self, b: usize) {
        self.browsers[b] = Browser::default();
        self.entitled.retain(|k, _| k.0 != browser_id(b));
        self.books.rejoin(&browser_id(b), &[]);
    }

    fn open(&mut self, p: usize, b: usize) {
        let Some(session) = self.session(p) else {
            return;
        };
        let browser = &mut self.browsers[b];
        browser.next_tab += 1;
        let tab = TabId(browser.next_tab);
        browser.open.insert(tab);
        browser.owners.insert(tab, session.clone());
        browser.openers.insert(tab, session.clone());
        self.books
            .record(Some(&session), &browser_id(b), TabEvent::Opened { tab });
        self.entitled.insert((browser_id(b), tab), session);
    }

    /// A page call naming no tab: it runs in the agent's current tab, which must be its own.
    fn page_call(&mut self, p: usize, b: usize) -> Result<(), TestCaseError> {
        let Some(session) = self.session(p) else {
            return Ok(());
        };
        if let Ok(Some(tab)) = self.books.page_tab(&session, &browser_id(b)) {
            let key = (browser_id(b), tab);
            if !self.browsers[b].open.contains(&tab) {
                // The browser says TAB_GONE, and the relay drops it.
                self.books
                    .record(Some(&session), &browser_id(b), TabEvent::Closed { tab });
                return Ok(());
            }
            prop_assert_eq!(
                self.entitled.get(&key),
                Some(&session),
                "a page call of {} ran in tab {:?}, not its own",
                p,
                key
            );
            self.books.touch(&session, &browser_id(b), tab);
            self.browsers[b].owners.insert(tab, session);
        }
        Ok(())
    }

    fn claim(&mut self, p: usize, b: usize, t: usize, force: bool) {
        let Some(session) = self.session(p) else {
            return;
        };
        let open: Vec<TabId> = self.browsers[b].open.iter().copied().collect();
        let Some(&tab) = open.get(t % open.len().max(1)) else {
            return;
        };
        let took = if force {
            self.books.force(&session, &browser_id(b), tab, "test");
            true
        } else {
            self.books.claim(&session, &browser_id(b), tab).is_ok()
        };
        if took {
            self.entitled.insert((browser_id(b), tab), session.clone());
            self.browsers[b].owners.insert(tab, session);
        }
    }

    fn release(&mut self, p: usize) {
        if let Some(session) = self.session(p) {
            self.books.release(&session, None);
            self.let_go(&session);
        }
    }

    fn person_closes(&mut self, b: usize, t: usize) {
        let open: Vec<TabId> = self.browsers[b].open.iter().copied().collect();
        if let Some(&tab) = open.get(t % open.len().max(1)) {
            self.browsers[b].open.remove(&tab);
            self.browsers[b].owners.remove(&tab);
            self.entitled.remove(&(browser_id(b), tab));
            self.books
                .record(None, &browser_id(b), TabEvent::Closed { tab });
        }
    }

    fn run(&mut self, step: &Step) -> Result<(), TestCaseError> {
        match *step {
            Step::Start(p) => self.start(p),
            Step::Exit(p) => {
                if let Some(process) = self.processes[p].take() {
                    self.leave(process.session);
                }
            }
            Step::Reconnect(p) => {
                if let Some(process) = &self.processes[p] {
                    let (session, pid) = (process.session.clone(), process.pid);
                    self.leave(session.clone());
                    self.enter(&session, p, pid);
                }
            }
            Step::GraceEnds(n) => self.grace_ends(n),
            Step::RelayRestart => self.relay_restart(),
            Step::BrowserRestart(b) => self.browser_restart(b),
            Step::Open(p, b) => self.open(p, b),
            Step::PageCall(p, b) => self.page_call(p, b)?,
            Step::Claim(p, b, t) => self.claim(p, b, t, false),
            Step::Force(p, b, t) => self.claim(p, b, t, true),
            Step::Release(p) => self.release(p),
            Step::PersonCloses(b, t) => self.person_closes(b, t),
        }
        Ok(())
    }

    /// Every (agent, tab) the books say is held.
    fn holdings(&self) -> Vec<(AgentKey, TabKey)> {
        self.books
            .view()
            .into_iter()
            .flat_map(|a| {
                let session = a.session.clone();
                a.tabs
                    .into_iter()
                    .map(move |t| (session.clone(), (t.browser_id, t.tab)))
            })
            .collect()
    }

    fn check(&self) -> Result<(), TestCaseError> {
        let live: Vec<&AgentKey> = self
            .processes
            .iter()
            .flatten()
            .map(|p| &p.session)
            .collect();
        let distinct: BTreeSet<&&AgentKey> = live.iter().collect();
        prop_assert_eq!(distinct.len(), live.len(), "two live agents share books");
        let mut holders: HashMap<TabKey, AgentKey> = HashMap::new();
        for (session, key) in self.holdings() {
            if let Some(other) = holders.insert(key.clone(), session.clone()) {
                prop_assert!(
                    false,
                    "tab {:?} has two holders: {:?} and {:?}",
                    key,
                    other,
                    session
                );
            }
            prop_assert_eq!(
                self.entitled.get(&key),
                Some(&session),
                "tab {:?} is held by an agent that neither opened, selected nor forced it",
                key
            );
        }
        Ok(())
    }
}

impl Drop for World {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.slots);
    }
}

#[test]
fn no_interleaving_gives_one_tab_to_two_agents_or_an_agent_a_tab_not_its_own() {
    let mut runner = TestRunner::new(Config {
        cases: INTERLEAVINGS,
        failure_persistence: None,
        ..Config::default()
    });
    let case = std::sync::atomic::AtomicU64::new(0);
    let steps = proptest::collection::vec(step(), 1..80);
    let result = runner.run(&steps, |steps| {
        let mut world = World::new(case.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
        for step in &steps {
            world.run(step)?;
            world.check()?;
        }
        Ok(())
    });
    result.unwrap();
    eprintln!("{} interleavings of up to 80 steps held", case.into_inner());
}
