//! One agent of the load run: a `tabpilot mcp` process (client.rs) driven over stdio from a
//! thread of its own, pinned to one browser with `browser_select_browser`, working in the tab its
//! first call opens, on tests/fixtures/load.html with `?agent=N` (the page's title then names its
//! owner). Every call's outcome is kept for the pages to be checked against; a call refused with
//! nothing sent is tried again after a pause (unless its arguments are what is wrong), any other
//! failure never is (an `unknown` one least of all). After each action it asks `browser_status`
//! which tab the relay's books give it, to see whether it was moved without asking.

use std::collections::BTreeMap;
use std::fs::File;
use std::panic::AssertUnwindSafe;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tabpilot::controller::tools::snapshot::ref_of;
use tabpilot::shared::error::Outcome;

use crate::client::{self, Failure};
use crate::mcp_client::McpClient;

/// How long an agent keeps trying an action that was refused with nothing sent (a relay or a
/// browser that is coming back) before it counts the action as refused.
const GIVE_UP_AFTER: Duration = Duration::from_secs(60);
/// A page-changing call's `timeout`, in milliseconds.
const CALL_TIMEOUT_MS: u64 = 10_000;
/// Refusals that trying again cannot mend: the call itself is wrong for the page.
const FINAL_REFUSALS: [&str; 6] = [
    "BAD_ARGS",
    "STALE_REF",
    "NOT_ACTIONABLE",
    "ELEMENT_AMBIGUOUS",
    "RESTRICTED_PAGE",
    "ORIGIN_BLOCKED",
];

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub(crate) enum Kind {
    Navigate,
    Click,
    Type,
    Snapshot,
    FillForm,
}

impl Kind {
    pub(crate) const ALL: [Kind; 5] = [
        Kind::Navigate,
        Kind::Click,
        Kind::Type,
        Kind::Snapshot,
        Kind::FillForm,
    ];

    pub(crate) fn name(self) -> &'static str {
        match self {
            Kind::Navigate => "navigate",
            Kind::Click => "click",
            Kind::Type => "type",
            Kind::Snapshot => "snapshot",
            Kind::FillForm => "fillForm",
        }
    }

    /// The mix, in percent of the actions an agent picks (before it snapshots for refs it lacks).
    fn pick(rng: &mut StdRng) -> Kind {
        match rng.random_range(0..100) {
            0..10 => Kind::Navigate,
            10..45 => Kind::Click,
            45..65 => Kind::Type,
            65..85 => Kind::Snapshot,
            _ => Kind::FillForm,
        }
    }
}

/// How one action ended: done, or the error's code and outcome.
pub(crate) type Ended = Result<(), (String, Outcome)>;

/// One action as its agent saw it.
pub(crate) struct Action {
    pub(crate) kind: Kind,
    /// The token the page logs when it receives this action (navigate, type, fillForm).
    pub(crate) token: Option<String>,
    pub(crate) ended: Ended,
}

/// What the run shares between its agents and the fault injector.
pub(crate) struct Shared {
    pub(crate) t0: Instant,
    /// Actions taken so far, over all agents.
    pub(crate) taken: AtomicUsize,
    /// Actions each agent takes.
    pub(crate) quota: usize,
    /// Each agent's successful calls: (sent, answered), since `t0`.
    pub(crate) successes: Vec<Mutex<Vec<(Duration, Duration)>>>,
    /// When each agent took its last action, since `t0`.
    pub(crate) finished: Vec<Mutex<Option<Duration>>>,
    /// Agents still running.
    pub(crate) running: AtomicUsize,
}

impl Shared {
    pub(crate) fn new(agents: usize, quota: usize) -> Shared {
        Shared {
            t0: Instant::now(),
            taken: AtomicUsize::new(0),
            quota,
            successes: (0..agents).map(|_| Mutex::default()).collect(),
            finished: (0..agents).map(|_| Mutex::default()).collect(),
            running: AtomicUsize::new(agents),
        }
    }

    /// Whether `agent` has had a call sent at or after `since` succeed.
    pub(crate) fn recovered(&self, agent: usize, since: Duration) -> bool {
        let s = self.successes[agent].lock().unwrap();
        s.iter().any(|(sent, _)| *sent >= since)
    }

    /// Whether `agent` was still taking actions at `at`.
    pub(crate) fn working_at(&self, agent: usize, at: Duration) -> bool {
        self.finished[agent]
            .lock()
            .unwrap()
            .is_none_or(|end| end > at)
    }
}

/// Marks an agent finished when it ends, however it ends.
struct Finishing<'a> {
    shared: &'a Shared,
    agent: usize,
}

impl Drop for Finishing<'_> {
    fn drop(&mut self) {
        let mut end = self.shared.finished[self.agent]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        *end = Some(self.shared.t0.elapsed());
        self.shared.running.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A tab the relay's books gave an agent, as `browser_status` said after an action.
pub(crate) struct TabSeen {
    /// (browserId, tab id).
    pub(crate) tab: (String, i64),
    /// When it was first seen, since `t0`.
    pub(crate) at: Duration,
    /// The agent asked for a tab since the one before (its first call, or `browser_new_tab`).
    pub(crate) asked: bool,
}

/// What an agent did, for the report.
pub(crate) struct Log {
    pub(crate) agent: usize,
    pub(crate) actions: Vec<Action>,
    /// Every failed call, by code and outcome (the attempts refused with nothing sent, which
    /// were tried again, apart): how many, and the first one's message.
    pub(crate) failures: BTreeMap<(String, &'static str), (usize, String)>,
    /// The tabs its books gave it, in order.
    pub(crate) tabs: Vec<TabSeen>,
    /// Results with a snapshot of a load.html page (its title names the tab's owner), and those
    /// of them that showed another agent's.
    pub(crate) owned_reads: usize,
    pub(crate) foreign_reads: usize,
    /// Why it stopped before its quota, if it did.
    pub(crate) crashed: Option<String>,
}

impl Log {
    /// Notes a failed call; `tried_again` when it was refused and is tried again.
    fn failed(&mut self, f: &Failure, tried_again: bool) {
        let outcome = match f.outcome {
            _ if tried_again => "refused, tried again",
            Outcome::Refused => "refused",
            Outcome::Done => "done",
            Outcome::Partial => "partial",
            Outcome::Failed => "failed",
            Outcome::Unknown => "unknown",
        };
        let entry = self
            .failures
            .entry((f.code.clone(), outcome))
            .or_insert_with(|| (0, f.message.clone()));
        entry.0 += 1;
    }

    /// Notes what a result's page title says of the tab's owner (`load OWNER: N clicks`).
    fn read(&mut self, data: &Value) {
        let owner = data["title"]
            .as_str()
            .and_then(|t| t.strip_prefix("load "))
            .and_then(|t| t.split(':').next());
        if let Some(owner) = owner {
            self.owned_reads += 1;
            self.foreign_reads += (owner != self.agent.to_string()) as usize;
        }
    }
}

/// The refs of load.html's controls, from a snapshot.
struct Refs {
    press: String,
    note: String,
    name: String,
    size: String,
}

fn refs_in(data: &Value) -> Option<Refs> {
    let snapshot = data["snapshot"].as_str()?;
    Some(Refs {
        press: ref_of(snapshot, "button", "Count me")?.to_string(),
        note: ref_of(snapshot, "textbox", "Note")?.to_string(),
        name: ref_of(snapshot, "textbox", "Name")?.to_string(),
        size: ref_of(snapshot, "combobox", "Size")?.to_string(),
    })
}

/// What the agent believes of its tab.
struct Belief {
    /// The tab shows this agent's page.
    on_page: bool,
    /// The refs of its last snapshot.
    refs: Option<Refs>,
    /// It asked for a tab since the last one it saw.
    asked: bool,
}

pub(crate) struct Agent {
    index: usize,
    mcp: McpClient,
    /// load.html's address.
    page: String,
}

impl Agent {
    /// Starts its `tabpilot mcp` in `dir` and pins it to the browser labelled `label`.
    pub(crate) fn start(index: usize, dir: &Path, log: &File, label: &str, page: String) -> Agent {
        let mut mcp = client::start(dir, log);
        let deadline = Instant::now() + Duration::from_secs(30);
        while let Err(f) = client::call(
            &mut mcp,
            "browser_select_browser",
            json!({"browser": label}),
        ) {
            assert!(
                Instant::now() < deadline,
                "agent {index} could not select browser {label}: {f:?}"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
        Agent { index, mcp, page }
    }

    /// Takes its quota of actions; ends its `tabpilot mcp` (closing its stdin) when done.
    pub(crate) fn run(mut self, seed: u64, shared: &Shared) -> Log {
        let mut log = Log {
            agent: self.index,
            actions: Vec::new(),
            failures: BTreeMap::new(),
            tabs: Vec::new(),
            owned_reads: 0,
            foreign_reads: 0,
            crashed: None,
        };
        let finishing = Finishing {
            shared,
            agent: self.index,
        };
        let acted = std::panic::catch_unwind(AssertUnwindSafe(|| {
            self.act(seed, shared, &mut log);
        }));
        if let Err(panic) = acted {
            let why = panic
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
            log.crashed = Some(why.unwrap_or_else(|| "a panic".into()));
        }
        drop(finishing);
        log
    }

    fn act(&mut self, seed: u64, shared: &Shared, log: &mut Log) {
        let mut rng = StdRng::seed_from_u64(seed ^ ((self.index as u64 + 1) * 0x9e37_79b9));
        // Its first call opens its tab: that one it asked for.
        let mut belief = Belief {
            on_page: false,
            refs: None,
            asked: true,
        };
        for seq in 0..shared.quota {
            shared.taken.fetch_add(1, Ordering::SeqCst);
            let mut kind = if belief.on_page {
                Kind::pick(&mut rng)
            } else {
                Kind::Navigate
            };
            if matches!(kind, Kind::Click | Kind::Type | Kind::FillForm) && belief.refs.is_none() {
                kind = Kind::Snapshot;
            }
            let token = match kind {
                Kind::Navigate => Some(format!("a{}n{seq}", self.index)),
                Kind::Type => Some(format!("a{}t{seq}", self.index)),
                Kind::FillForm => Some(format!("a{}f{seq}", self.index)),
                _ => None,
            };
            let (tool, args) =
                self.call_for(kind, token.as_deref(), belief.refs.as_ref(), &mut rng);
            let ended = match self.attempt(tool, &args, shared, log, &mut belief) {
                Ok(data) => {
                    took(kind, &data, log, &mut belief);
                    Ok(())
                }
                Err(f) => {
                    log.failed(&f, false);
                    // A navigation that may have replaced the page, or a ref that no longer
                    // resolves: look again.
                    if kind == Kind::Navigate || FINAL_REFUSALS.contains(&f.code.as_str()) {
                        belief.refs = None;
                    }
                    Err((f.code, f.outcome))
                }
            };
            let navigated = kind == Kind::Navigate && ended.is_ok();
            self.follow_tab(shared, log, &mut belief, navigated);
            log.actions.push(Action { kind, token, ended });
        }
    }

    /// Notes the tab the relay's books now give this agent; a tab it had not worked in shows a
    /// page that is not its own yet (unless it just navigated there).
    fn follow_tab(&mut self, shared: &Shared, log: &mut Log, belief: &mut Belief, navigated: bool) {
        let Some(tab) = client::current_tab(&mut self.mcp) else {
            return;
        };
        if log.tabs.last().is_some_and(|t| t.tab == tab) {
            return;
        }
        let first = log.tabs.is_empty();
        log.tabs.push(TabSeen {
            tab,
            at: shared.t0.elapsed(),
            asked: std::mem::take(&mut belief.asked),
        });
        if !first && !navigated {
            (belief.on_page, belief.refs) = (false, None);
        }
    }

    fn call_for(
        &self,
        kind: Kind,
        token: Option<&str>,
        refs: Option<&Refs>,
        rng: &mut StdRng,
    ) -> (&'static str, Value) {
        let token = token.unwrap_or_default();
        let timeout = CALL_TIMEOUT_MS;
        match (kind, refs) {
            (Kind::Navigate, _) => {
                let url = format!("{}?agent={}&t={token}", self.page, self.index);
                ("browser_navigate", json!({"url": url, "timeout": timeout}))
            }
            (Kind::Click, Some(r)) => (
                "browser_click",
                json!({"ref": r.press, "element": "Count me", "timeout": timeout}),
            ),
            (Kind::Type, Some(r)) => (
                "browser_type",
                json!({"ref": r.note, "element": "Note", "text": token, "timeout": timeout}),
            ),
            (Kind::FillForm, Some(r)) => {
                let size = ["s", "m", "l"][rng.random_range(0..3)];
                let fields =
                    json!([{"ref": r.name, "value": token}, {"ref": r.size, "value": size}]);
                (
                    "browser_fill_form",
                    json!({"fields": fields, "timeout": timeout}),
                )
            }
            _ => ("browser_snapshot", json!({"maxTokens": 4000})),
        }
    }

    /// Calls one action's tool, again after a pause while it is refused with nothing sent. A
    /// refusal that says its tab is no longer its own (LEASE_LOST, TAB_CLAIMED) is what its
    /// recovery says: a new tab (`browser_new_tab`), and the action ends refused.
    fn attempt(
        &mut self,
        tool: &str,
        args: &Value,
        shared: &Shared,
        log: &mut Log,
        belief: &mut Belief,
    ) -> Result<Value, Failure> {
        let first = Instant::now();
        let mut pause = Duration::from_millis(100);
        loop {
            let sent = shared.t0.elapsed();
            let f = match client::call(&mut self.mcp, tool, args.clone()) {
                Ok(data) => {
                    let answered = shared.t0.elapsed();
                    let mut s = shared.successes[self.index].lock().unwrap();
                    s.push((sent, answered));
                    return Ok(data);
                }
                Err(f) => f,
            };
            let refused = f.outcome == Outcome::Refused;
            if refused && matches!(f.code.as_str(), "LEASE_LOST" | "TAB_CLAIMED") {
                if client::call(&mut self.mcp, "browser_new_tab", json!({})).is_ok() {
                    (belief.on_page, belief.refs, belief.asked) = (false, None, true);
                }
                return Err(f);
            }
            if !refused
                || FINAL_REFUSALS.contains(&f.code.as_str())
                || first.elapsed() > GIVE_UP_AFTER
            {
                return Err(f);
            }
            log.failed(&f, true);
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_secs(1));
        }
    }
}

/// What a successful action tells the agent of its page.
fn took(kind: Kind, data: &Value, log: &mut Log, belief: &mut Belief) {
    match kind {
        // A navigation answers with the new page's snapshot: its refs.
        Kind::Navigate => {
            belief.on_page = true;
            belief.refs = refs_in(data);
            log.read(data);
        }
        Kind::Snapshot => {
            belief.refs = refs_in(data);
            belief.on_page = belief.refs.is_some();
            log.read(data);
        }
        _ => {}
    }
}
