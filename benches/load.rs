//! The load benchmark of issues 10 and 20: 8 agents, each a real `tabpilot mcp` process over
//! stdio, started as one MCP client starts them (all by this process, one client name in
//! `initialize`, one working directory, the default identity: no `TABPILOT_INSTANCE`, nothing
//! else that tells them apart), over 2 real headless Chromiums with the real extension; 1,000
//! mixed tool calls (browser_navigate, browser_click, browser_type, browser_snapshot,
//! browser_fill_form), each agent in its own tab on a page that names it, while the relay is
//! killed (SIGKILL) and a browser's service worker is stopped at seeded random moments. It
//! asserts nothing; it prints what the pages received against what the agents were told: actions
//! delivered to another agent's tab, snapshots of another agent's tab, agents moved off their tab
//! without asking, page-changing calls applied twice; the failures by code, the time to recover
//! from each fault; and, with in-process links of its own, the relay's resident memory across 600
//! controller connect/disconnect cycles, and whether controllers that drop their `Link` leave
//! the relay.
//!
//! Each tab's page (tests/fixtures/load.html) logs what it received under the agent whose page
//! it first was, and the run reads those logs over the DevTools protocol at the end, so
//! "delivered elsewhere" and "applied twice" are measured from the pages, not from tabpilot's own
//! answers. Which tab each agent works in is what `browser_status` says after each of its actions.
//!
//! `cargo bench --bench load` (with a fresh seed, printed), or `cargo bench --bench load -- SEED`
//! to run a seed again (the same actions and faults at the same points; the interleaving is the
//! machine's).
//!
//! Its relay, state dir and browsers are its own (a private port range and state dir, as
//! benches/figures.rs and the end-to-end tests have, given to every agent alike through
//! `TABPILOT_STATE_DIR` and `TABPILOT_PORTS`), so it never touches a developer's.

#[path = "load/agent.rs"]
mod agent;
#[path = "load/browsers.rs"]
mod browsers;
#[path = "../tests/support/cdp.rs"]
mod cdp;
#[path = "load/client.rs"]
mod client;
#[path = "../tests/support/fixtures.rs"]
mod fixtures;
#[path = "../tests/support/mcp_client.rs"]
mod mcp_client;
#[path = "../tests/support/peers.rs"]
mod peers;
#[path = "../tests/support/ports.rs"]
mod ports;
#[path = "load/report.rs"]
mod report;

use std::os::unix::process::CommandExt;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::{Duration, Instant};

use futures::StreamExt;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use tabpilot::controller::link::Link;
use tabpilot::shared::protocol::{PeerInfo, RelayOp, Role, auth};

use agent::{Agent, Shared};
use browsers::Browser;
use ports::free_port_pair;

/// Cargo builds the binary with the bench profile and names it here.
const BIN: &str = env!("CARGO_BIN_EXE_tabpilot");
const AGENTS: usize = 8;
/// As many as there are fixture origins: each browser's agents work on one of their own.
const BROWSERS: usize = 2;
const ACTIONS: usize = 1000;
const RELAY_KILLS: usize = 3;
const WORKER_STOPS: usize = 3;
const CHURN_CYCLES: usize = 600;
/// How long a fault waits for the agents to recover from the one before, so that each fault's
/// recovery is its own.
const RECOVERY_WAIT: Duration = Duration::from_secs(45);

fn main() {
    // An in-process link (the watcher's, the churn's) that finds no relay starts
    // `current_exe() relay`: in this process that is the benchmark itself, which becomes
    // tabpilot's relay. The agents' `tabpilot mcp` processes start the real binary's.
    if std::env::args().nth(1).as_deref() == Some("relay") {
        let e = std::process::Command::new(BIN)
            .args(std::env::args_os().skip(1))
            .exec();
        panic!("cannot run {BIN}: {e}");
    }
    // Cargo passes `--bench`; a number is the seed.
    let seed = std::env::args()
        .skip(1)
        .find_map(|a| a.parse().ok())
        .unwrap_or_else(|| rand::random::<u32>() as u64);
    let state_dir = std::env::temp_dir().join(format!("tabpilot-load-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&state_dir);
    // Away from the default range, the tests' and the figures'.
    let first_port = free_port_pair(41_000..42_000);
    // SAFETY: no other thread runs yet; the links, the relay they start, the browsers' pairing and
    // every agent's `tabpilot mcp` (which inherits them alike) read these.
    unsafe {
        std::env::set_var("TABPILOT_STATE_DIR", &state_dir);
        std::env::set_var("TABPILOT_PORTS", format!("{first_port}-{}", first_port + 1));
        // A relay left behind by an interrupted run goes away by itself.
        std::env::set_var("TABPILOT_RELAY_IDLE_MS", "5000");
        std::env::remove_var("RUST_LOG");
    }
    let fixtures = fixtures::serve(first_port);
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(run(
        seed,
        &state_dir,
        (first_port, first_port + 1),
        &fixtures,
    ));
    drop(rt);
    let _ = std::fs::remove_dir_all(&state_dir);
}

/// What a fault does.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fault {
    /// SIGKILL to the relay; the agents' links start the next one.
    KillRelay,
    /// The extension's service worker in this browser stopped.
    StopWorker(usize),
}

impl Fault {
    /// The agents it cuts off.
    pub(crate) fn affects(self, agent: usize) -> bool {
        match self {
            Fault::KillRelay => true,
            Fault::StopWorker(b) => browser_of(agent) == b,
        }
    }
}

/// The agents a fault cut off: those it affects that were still taking actions.
pub(crate) fn cut_off(fired: &Fired, shared: &Shared) -> Vec<usize> {
    (0..AGENTS)
        .filter(|&a| fired.fault.affects(a) && shared.working_at(a, fired.at))
        .collect()
}

fn browser_of(agent: usize) -> usize {
    agent * BROWSERS / AGENTS
}

/// A fault as it was fired.
pub(crate) struct Fired {
    pub(crate) fault: Fault,
    /// When, since the run began, and after how many actions.
    pub(crate) at: Duration,
    pub(crate) after_actions: usize,
    /// Why it could not be done, if it could not.
    pub(crate) failed: Option<String>,
}

/// The faults of a seed: each at a number of actions taken, after a further pause (so it lands
/// anywhere in a call), the two kinds in turn, each service-worker stop in a browser at random.
fn plan(rng: &mut StdRng) -> Vec<(Fault, usize, Duration)> {
    let n = RELAY_KILLS + WORKER_STOPS;
    let mut at: Vec<usize> = (0..n)
        .map(|_| rng.random_range(ACTIONS / 20..ACTIONS * 4 / 5))
        .collect();
    at.sort();
    let first_kill = rng.random_bool(0.5);
    (0..n)
        .map(|i| {
            let kill = (i % 2 == 0) == first_kill;
            let fault = if kill {
                Fault::KillRelay
            } else {
                Fault::StopWorker(rng.random_range(0..BROWSERS))
            };
            (
                fault,
                at[i],
                Duration::from_millis(rng.random_range(0..300)),
            )
        })
        .collect()
}

async fn run(seed: u64, state_dir: &Path, ports: (u16, u16), fixtures: &fixtures::Fixtures) {
    let started = Instant::now();
    let lock = tabpilot::shared::state::relay_lock(&(ports.0..=ports.1));
    let watcher = Link::new(peer("load watcher"), true).expect("a link");
    let mut browsers = Vec::new();
    for b in 0..BROWSERS {
        let label = format!("load-{}", (b'a' + b as u8) as char);
        browsers.push(Browser::launch(&label, state_dir, ports, &watcher).await);
    }
    let mut rng = StdRng::seed_from_u64(seed);
    let planned = plan(&mut rng);

    // Each browser's agents on an origin of their own.
    let origins = [&fixtures.a, &fixtures.b];
    let agents = start_agents(state_dir, &browsers, &origins).await;
    let setup = started.elapsed();
    let shared = Arc::new(Shared::new(AGENTS, ACTIONS / AGENTS));
    let agents: Vec<_> = agents
        .into_iter()
        .map(|agent| {
            let shared = shared.clone();
            tokio::task::spawn_blocking(move || agent.run(seed, &shared))
        })
        .collect();
    let fired = inject(&planned, &shared, &mut browsers, &lock).await;
    let mut logs = Vec::new();
    for a in agents {
        logs.push(a.await.expect("an agent's thread"));
    }
    let took = shared.t0.elapsed();

    let mut pages = serde_json::Map::new();
    for (b, origin) in browsers.iter_mut().zip(origins) {
        match b.page_logs(origin).await {
            Ok(serde_json::Value::Object(m)) => pages.extend(m),
            Ok(other) => println!("  {}'s pages logged no object: {other}", b.label),
            Err(e) => println!("  could not read {}'s pages: {e}", b.label),
        }
    }
    let churn = churn(&watcher, &lock, ports).await;
    report::print(&report::Run {
        seed,
        setup,
        took,
        browsers: browsers.iter().map(|b| b.label.clone()).collect(),
        browser_ids: browsers.iter().map(|b| b.id.clone()).collect(),
        fired,
        logs,
        pages,
        shared,
        churn,
    });

    watcher.stop();
    if let Some(pid) = browsers::relay_pid(&lock) {
        // SAFETY: signalling the relay this run started (the holder of its private lock).
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    drop(browsers);
}

/// Starts the agents' `tabpilot mcp` processes one after the other, as one MCP client starts its
/// servers: the same client name, the same working directory (a project directory of the run's
/// own), the default identity; each then picks its browser by label, agents 0-3 the first.
async fn start_agents(state_dir: &Path, browsers: &[Browser], origins: &[&String]) -> Vec<Agent> {
    let project = state_dir.join("project");
    std::fs::create_dir_all(&project).expect("the agents' working directory");
    let log = std::fs::File::create(state_dir.join("agents.log")).expect("the agents' log");
    let mut agents = Vec::new();
    for index in 0..AGENTS {
        let b = browser_of(index);
        let (project, log) = (project.clone(), log.try_clone().expect("the agents' log"));
        let label = browsers[b].label.clone();
        let page = format!("{}/load.html", origins[b]);
        let started =
            tokio::task::spawn_blocking(move || Agent::start(index, &project, &log, &label, page));
        agents.push(started.await.expect("an agent starts"));
    }
    agents
}

fn peer(name: &str) -> PeerInfo {
    PeerInfo {
        name: name.into(),
        pid: std::process::id(),
        ..Default::default()
    }
}

/// Fires the planned faults while the agents run; returns them as fired.
async fn inject(
    planned: &[(Fault, usize, Duration)],
    shared: &Shared,
    browsers: &mut [Browser],
    lock: &Path,
) -> Vec<Fired> {
    let running = || shared.running.load(Ordering::SeqCst) > 0;
    let mut fired: Vec<Fired> = Vec::new();
    for &(mut fault, at_actions, pause) in planned {
        while running() && shared.taken.load(Ordering::SeqCst) < at_actions {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if let Some(prev) = fired.last() {
            let deadline = Instant::now() + RECOVERY_WAIT;
            while running()
                && Instant::now() < deadline
                && !cut_off(prev, shared)
                    .into_iter()
                    .filter(|&a| shared.working_at(a, shared.t0.elapsed()))
                    .all(|a| shared.recovered(a, prev.at))
            {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
        tokio::time::sleep(pause).await;
        if !running() {
            break;
        }
        // A browser whose agents are all done has nobody to cut off: stop the other's worker.
        if let Fault::StopWorker(b) = fault
            && !(0..AGENTS).any(|a| browser_of(a) == b && shared.working_at(a, shared.t0.elapsed()))
        {
            fault = Fault::StopWorker((b + 1) % BROWSERS);
        }
        let failed = match fault {
            Fault::KillRelay => kill_relay(lock).await.err(),
            Fault::StopWorker(b) => browsers[b].stop_worker().await.err(),
        };
        // The fault's time is when it has taken effect: a call sent before that may still have
        // been answered by the relay or the worker it ends.
        let at = shared.t0.elapsed();
        let after_actions = shared.taken.load(Ordering::SeqCst).min(ACTIONS);
        fired.push(Fired {
            fault,
            at,
            after_actions,
            failed,
        });
    }
    fired
}

/// SIGKILLs the relay that holds the lock, and waits until it is dead.
async fn kill_relay(lock: &Path) -> Result<(), String> {
    let pid = browsers::relay_pid(lock).ok_or("no relay held the lock")?;
    // SAFETY: killing the relay this run started (the holder of its private lock).
    if unsafe { libc::kill(pid, libc::SIGKILL) } != 0 {
        return Err(std::io::Error::last_os_error().to_string());
    }
    let deadline = Instant::now() + Duration::from_secs(5);
    while browsers::alive(pid) {
        if Instant::now() > deadline {
            return Err(format!("relay {pid} still runs 5 s after SIGKILL"));
        }
        tokio::time::sleep(Duration::from_millis(1)).await;
    }
    Ok(())
}

/// The relay's resident memory before `CHURN_CYCLES` controllers connect, ask its status and
/// disconnect (each a new agent), after them, and after as many again (memory that grows with
/// each round is held per connection; a first round's growth alone is the allocator's warm-up).
/// Each is measured once the sessions the controllers leave have ended.
pub(crate) struct Churn {
    /// VmRSS in KiB before, after one round, after two.
    pub(crate) kib: Vec<u64>,
    /// How long each round of cycles took.
    pub(crate) took: Vec<Duration>,
    /// Why the figure is missing, if it is.
    pub(crate) missing: Option<String>,
    /// Of `DROPPED_LINKS` controllers that dropped their `Link` (as `mcp --http` drops an
    /// ended session's), how many the relay still listed a second later.
    pub(crate) dropped_still_listed: Option<usize>,
}

pub(crate) const DROPPED_LINKS: usize = 20;

async fn churn(watcher: &Link, lock: &Path, ports: (u16, u16)) -> Churn {
    // The relay the run ended with (started again if the last fault left none).
    let _ = watcher.ask_op(RelayOp::Status).await;
    let mut churn = Churn {
        kib: Vec::new(),
        took: Vec::new(),
        missing: None,
        dropped_still_listed: None,
    };
    let Some(pid) = browsers::wait_relay_pid(lock, Duration::from_secs(10)).await else {
        churn.missing = Some("no relay holds the lock".into());
        return churn;
    };
    let port =
        tabpilot::shared::state::recorded_relay_port(&(ports.0..=ports.1)).unwrap_or(ports.0);
    let secret = tabpilot::shared::state::secret().expect("the relay secret");
    // An ended agent's books go a grace period (10 s, src/relay/hub.rs) after it leaves:
    // memory is read once they have.
    let settle = Duration::from_secs(12);
    for _ in 0..20 {
        cycle(port, &secret).await;
    }
    for round in 0..3 {
        if round > 0 {
            let t = Instant::now();
            for _ in 0..CHURN_CYCLES {
                cycle(port, &secret).await;
            }
            churn.took.push(t.elapsed());
        }
        tokio::time::sleep(settle).await;
        match browsers::rss_kib(pid) {
            Some(kib) if browsers::relay_pid(lock) == Some(pid) => churn.kib.push(kib),
            _ => {
                churn.missing = Some(format!("relay {pid} went away during the cycles"));
                break;
            }
        }
    }
    churn.dropped_still_listed = dropped_links(watcher).await;
    churn
}

/// How many of `DROPPED_LINKS` links, each dropped after one call, the relay still lists as
/// connected (their books stay the grace period, listed as gone).
async fn dropped_links(watcher: &Link) -> Option<usize> {
    const NAME: &str = "load dropped link";
    for _ in 0..DROPPED_LINKS {
        let link = Link::new(peer(NAME), true).expect("a link");
        let _ = link.ask_op(RelayOp::Status).await;
    }
    tokio::time::sleep(Duration::from_secs(1)).await;
    let status = watcher.ask_op(RelayOp::Status).await.ok()?.value;
    let agents = status["agents"].as_array()?;
    Some(
        agents
            .iter()
            .filter(|a| a["name"] == NAME && a["connected"] == true)
            .count(),
    )
}

/// One controller's life: connect as a new agent, ask the relay's status, close.
async fn cycle(port: u16, secret: &[u8]) {
    let info = PeerInfo {
        session_key: Some(auth::nonce()),
        ..peer("load churn")
    };
    let mut ws = peers::connect(port, Role::Controller, secret, info).await;
    peers::send(&mut ws, &peers::relay_call(1, RelayOp::Status)).await;
    let _ = peers::recv(&mut ws).await;
    let _ = ws.close(None).await;
    let _ = tokio::time::timeout(Duration::from_secs(5), async {
        while let Some(Ok(_)) = ws.next().await {}
    })
    .await;
}
