//! One agent of the load run: its own `Link` (so its own books at the relay), pinned to one
//! browser by naming it on every call, working in its own tab on tests/fixtures/load.html.
//! Every call's outcome is kept for the pages to be checked against; a call refused with
//! nothing sent is tried again after a pause, any other failure never is (an `unknown` one
//! least of all).

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use serde_json::{Value, json};
use tabpilot::error::{Code, Outcome, ToolError};
use tabpilot::link::{Link, Reply};
use tabpilot::protocol::{Call, Op, Target};
use tabpilot::tools::snapshot::ref_of;

/// How long an agent keeps trying an action that was refused with nothing sent (a relay or a
/// browser that is coming back) before it counts the action as refused.
const GIVE_UP_AFTER: Duration = Duration::from_secs(60);
const CALL_TIMEOUT: Duration = Duration::from_secs(10);

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
pub(crate) type Ended = Result<(), (Code, Outcome)>;

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

/// What an agent did, for the report.
pub(crate) struct Log {
    pub(crate) agent: usize,
    pub(crate) actions: Vec<Action>,
    /// Every failed call, by code and outcome (the attempts refused with nothing sent, which
    /// were tried again, apart): how many, and the first one's message.
    pub(crate) failures: BTreeMap<(&'static str, &'static str), (usize, String)>,
    /// The tabs its calls ran in, in order, each with when it was first seen (since `t0`).
    pub(crate) tabs: Vec<(i64, Duration)>,
    /// Snapshots that showed a load.html page (its title names the tab's owner), and those of
    /// them that read another agent's.
    pub(crate) owned_reads: usize,
    pub(crate) foreign_reads: usize,
}

impl Log {
    /// Notes a failed call; `tried_again` when it was refused and is tried again.
    fn failed(&mut self, e: &ToolError, tried_again: bool) {
        let outcome = match e.outcome {
            _ if tried_again => "refused, tried again",
            Outcome::Refused => "refused",
            Outcome::Done => "done",
            Outcome::Partial => "partial",
            Outcome::Failed => "failed",
            Outcome::Unknown => "unknown",
        };
        let entry = self
            .failures
            .entry((e.code.as_str(), outcome))
            .or_insert_with(|| (0, e.message.clone()));
        entry.0 += 1;
    }
}

/// The refs of load.html's controls, from a snapshot.
struct Refs {
    press: String,
    note: String,
    name: String,
    size: String,
}

fn refs_in(snapshot: &str) -> Option<Refs> {
    Some(Refs {
        press: ref_of(snapshot, "button", "Count me")?.to_string(),
        note: ref_of(snapshot, "textbox", "Note")?.to_string(),
        name: ref_of(snapshot, "textbox", "Name")?.to_string(),
        size: ref_of(snapshot, "combobox", "Size")?.to_string(),
    })
}

/// The probes every action tool's call carries (src/tools/args.rs `AfterAction::wire`).
fn after() -> Value {
    json!({"console": "errors", "network": "issues"})
}

pub(crate) struct Agent {
    pub(crate) index: usize,
    pub(crate) link: Link,
    pub(crate) browser: String,
    /// load.html's address.
    pub(crate) page: String,
}

impl Agent {
    /// Takes its quota of actions.
    pub(crate) async fn run(self, seed: u64, shared: Arc<Shared>) -> Log {
        let mut rng = StdRng::seed_from_u64(seed ^ ((self.index as u64 + 1) * 0x9e37_79b9));
        let mut log = Log {
            agent: self.index,
            actions: Vec::new(),
            failures: BTreeMap::new(),
            tabs: Vec::new(),
            owned_reads: 0,
            foreign_reads: 0,
        };
        // Whether the tab shows this agent's page, and the refs of its last snapshot.
        let (mut on_page, mut refs): (bool, Option<Refs>) = (false, None);
        for seq in 0..shared.quota {
            shared.taken.fetch_add(1, Ordering::SeqCst);
            let mut kind = if on_page {
                Kind::pick(&mut rng)
            } else {
                Kind::Navigate
            };
            if matches!(kind, Kind::Click | Kind::Type | Kind::FillForm) && refs.is_none() {
                kind = Kind::Snapshot;
            }
            let token = match kind {
                Kind::Navigate => Some(format!("a{}n{seq}", self.index)),
                Kind::Type => Some(format!("a{}t{seq}", self.index)),
                Kind::FillForm => Some(format!("a{}f{seq}", self.index)),
                _ => None,
            };
            let (op, args) = self.call_for(kind, token.as_deref(), refs.as_ref(), &mut rng);
            let answer = self.attempt(op, args, &shared, &mut log).await;
            let ended = match &answer {
                Ok(reply) => {
                    if let Some(tab) = reply.target.as_ref().and_then(|t| t.tab)
                        && log.tabs.last().is_none_or(|(t, _)| *t != tab)
                    {
                        log.tabs.push((tab, shared.t0.elapsed()));
                        // A tab it had not worked in: whatever page it shows is not ours yet.
                        if log.tabs.len() > 1 && kind != Kind::Navigate {
                            (on_page, refs) = (false, None);
                        }
                    }
                    match kind {
                        Kind::Navigate => {
                            on_page = true;
                            refs = None;
                        }
                        Kind::Snapshot => {
                            refs = reply.value["text"].as_str().and_then(refs_in);
                            on_page = refs.is_some();
                            // load.html titles itself `load OWNER: N clicks`.
                            let owner = reply.value["title"]
                                .as_str()
                                .and_then(|t| t.strip_prefix("load "))
                                .and_then(|t| t.split(':').next());
                            if let Some(owner) = owner {
                                log.owned_reads += 1;
                                log.foreign_reads += (owner != self.index.to_string()) as usize;
                            }
                        }
                        _ => {}
                    }
                    Ok(())
                }
                Err(e) => {
                    log.failed(e, false);
                    // A navigation that may have replaced the page, a ref that no longer
                    // resolves, or a page that is not ours: look again.
                    if kind == Kind::Navigate
                        || matches!(e.code, Code::StaleRef | Code::NotFound | Code::BadArgs)
                    {
                        refs = None;
                    }
                    Err((e.code, e.outcome))
                }
            };
            log.actions.push(Action { kind, token, ended });
        }
        *shared.finished[self.index].lock().unwrap() = Some(shared.t0.elapsed());
        shared.running.fetch_sub(1, Ordering::SeqCst);
        self.link.stop();
        log
    }

    fn call_for(
        &self,
        kind: Kind,
        token: Option<&str>,
        refs: Option<&Refs>,
        rng: &mut StdRng,
    ) -> (Op, Value) {
        let token = token.unwrap_or_default();
        match (kind, refs) {
            (Kind::Navigate, _) => (
                Op::Navigate,
                json!({"url": format!("{}?agent={}&t={token}", self.page, self.index), "after": after()}),
            ),
            (Kind::Click, Some(r)) => (Op::Click, json!({"ref": r.press, "after": after()})),
            (Kind::Type, Some(r)) => (
                Op::Type,
                json!({"ref": r.note, "text": token, "after": after()}),
            ),
            (Kind::FillForm, Some(r)) => {
                let size = ["s", "m", "l"][rng.random_range(0..3)];
                let fields =
                    json!([{"ref": r.name, "value": token}, {"ref": r.size, "value": size}]);
                (Op::FillForm, json!({"fields": fields, "after": after()}))
            }
            _ => (Op::Snapshot, json!({"verbose": false, "maxTokens": 4000})),
        }
    }

    /// Sends one action's call, again after a pause while it is refused with nothing sent.
    async fn attempt(
        &self,
        op: Op,
        args: Value,
        shared: &Shared,
        log: &mut Log,
    ) -> Result<Reply, ToolError> {
        let first = Instant::now();
        let mut pause = Duration::from_millis(100);
        loop {
            let call = Call {
                target: Target {
                    browser: Some(self.browser.clone()),
                    tab: None,
                },
                ..Call::new(op, args.clone(), CALL_TIMEOUT)
            };
            let sent = shared.t0.elapsed();
            match self.link.call(call).await {
                Ok(reply) => {
                    let answered = shared.t0.elapsed();
                    shared.successes[self.index]
                        .lock()
                        .unwrap()
                        .push((sent, answered));
                    return Ok(reply);
                }
                Err(e) if e.outcome == Outcome::Refused && first.elapsed() < GIVE_UP_AFTER => {
                    log.failed(&e, true);
                    tokio::time::sleep(pause).await;
                    pause = (pause * 2).min(Duration::from_secs(1));
                }
                Err(e) => return Err(e),
            }
        }
    }
}
