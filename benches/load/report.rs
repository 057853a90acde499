//! The load run's figures: what the pages received against what each agent was told, the
//! failed calls by code, the time to recover from each fault, and the relay's memory under churn.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{Map, Value};
use tabpilot::shared::error::Outcome;

use crate::agent::{Kind, Log, Shared};
use crate::{ACTIONS, AGENTS, CHURN_CYCLES, Churn, Fault, Fired};

pub(crate) struct Run {
    pub(crate) seed: u64,
    pub(crate) setup: Duration,
    pub(crate) took: Duration,
    /// The browsers' labels, and their ids at the relay.
    pub(crate) browsers: Vec<String>,
    pub(crate) browser_ids: Vec<String>,
    pub(crate) fired: Vec<Fired>,
    pub(crate) logs: Vec<Log>,
    /// `load:OWNER:TAB` → `{clicks, tokens}`, from every browser's pages.
    pub(crate) pages: Map<String, Value>,
    pub(crate) shared: Arc<Shared>,
    pub(crate) churn: Churn,
}

fn secs(d: Duration) -> String {
    if d < Duration::from_secs(1) {
        format!("{} ms", d.as_millis())
    } else {
        format!("{:.1} s", d.as_secs_f64())
    }
}

fn describe(fault: Fault, browsers: &[String]) -> String {
    match fault {
        Fault::KillRelay => "relay SIGKILL".into(),
        Fault::StopWorker(b) => format!("worker stop {}", browsers[b]),
    }
}

/// What the pages say against what the agents were told.
#[derive(Default)]
struct Checked {
    /// Tokens an agent sent that turned up in another agent's page.
    tokens_elsewhere: usize,
    /// Tokens seen more than once (a repeated delivery), counted past the first.
    tokens_repeated: usize,
    /// Done, but its token is in no page.
    done_unseen: usize,
    /// Failed or refused, but its token is in a page.
    failed_applied: usize,
    /// `unknown` outcomes; those of calls that carry a token, and how many of those the pages
    /// received; those of clicks, and how many clicks the pages received past the done ones.
    unknown: usize,
    unknown_tokens: usize,
    unknown_tokens_applied: usize,
    unknown_clicks: usize,
    unknown_clicks_applied: usize,
    /// Clicks: the agents were told done; the pages received.
    clicks_done: usize,
    clicks_received: usize,
    /// A click does not say who sent it, so these are lower bounds from the counts: clicks the
    /// pages received past all the done and unknown ones (applied twice, whoever sent them);
    /// done clicks that no page received; done clicks on another agent's page (an agent's done
    /// clicks its own page lacks, past the lost ones, or a page's clicks past its own agent's
    /// done and unknown ones, past the repeated ones).
    clicks_repeated: usize,
    clicks_lost: usize,
    clicks_elsewhere: usize,
}

/// The clicks each agent's pages received and who received each token, by the owner the pages
/// logged under (each tab its own log, `load:OWNER:TAB`).
fn received(run: &Run) -> ([usize; AGENTS], HashMap<&str, Vec<usize>>) {
    let mut seen: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut clicks = [0usize; AGENTS];
    for (key, page) in &run.pages {
        let Some(owner) = key
            .strip_prefix("load:")
            .and_then(|k| k.split(':').next())
            .and_then(|o| o.parse::<usize>().ok())
        else {
            continue;
        };
        if owner < AGENTS {
            clicks[owner] += page["clicks"].as_u64().unwrap_or(0) as usize;
        }
        for t in page["tokens"].as_array().into_iter().flatten() {
            if let Some(t) = t.as_str() {
                seen.entry(t).or_default().push(owner);
            }
        }
    }
    (clicks, seen)
}

fn check(run: &Run) -> Checked {
    let (received, seen) = received(run);
    let mut c = Checked::default();
    let (mut missing, mut foreign) = (0, 0);
    for log in &run.logs {
        let (mut done_clicks, mut unknown_clicks) = (0, 0);
        for a in &log.actions {
            let unknown = matches!(a.ended, Err((_, Outcome::Unknown)));
            c.unknown += unknown as usize;
            if a.kind == Kind::Click {
                done_clicks += a.ended.is_ok() as usize;
                unknown_clicks += unknown as usize;
            }
            let Some(token) = &a.token else { continue };
            c.unknown_tokens += unknown as usize;
            let owners = seen.get(token.as_str()).map_or(&[][..], Vec::as_slice);
            c.tokens_elsewhere += owners.iter().filter(|&&o| o != log.agent).count();
            c.tokens_repeated += owners.len().saturating_sub(1);
            match (&a.ended, owners.is_empty()) {
                (Ok(()), true) => c.done_unseen += 1,
                (Err((_, Outcome::Unknown)), false) => c.unknown_tokens_applied += 1,
                (Err((_, Outcome::Refused | Outcome::Failed)), false) => c.failed_applied += 1,
                _ => {}
            }
        }
        let got = received[log.agent];
        missing += done_clicks.saturating_sub(got);
        foreign += got.saturating_sub(done_clicks + unknown_clicks);
        c.clicks_done += done_clicks;
        c.clicks_received += got;
        c.unknown_clicks += unknown_clicks;
    }
    let past_done = c.clicks_received.saturating_sub(c.clicks_done);
    c.unknown_clicks_applied = past_done.min(c.unknown_clicks);
    c.clicks_repeated = past_done.saturating_sub(c.unknown_clicks);
    c.clicks_lost = c.clicks_done.saturating_sub(c.clicks_received);
    c.clicks_elsewhere = missing
        .saturating_sub(c.clicks_lost)
        .max(foreign.saturating_sub(c.clicks_repeated));
    c
}

/// Each fault's recovery: for every agent it cut off, from the fault to the answer of that
/// agent's first call sent after it that succeeded (None: none did).
fn recoveries(run: &Run) -> Vec<Vec<Option<Duration>>> {
    run.fired
        .iter()
        .map(|f| {
            crate::cut_off(f, &run.shared)
                .into_iter()
                .map(|a| {
                    let s = run.shared.successes[a].lock().unwrap();
                    s.iter()
                        .filter(|(sent, _)| *sent >= f.at)
                        .map(|(_, answered)| *answered - f.at)
                        .min()
                })
                .collect()
        })
        .collect()
}

fn spread(samples: &[Option<Duration>]) -> String {
    let mut got: Vec<Duration> = samples.iter().flatten().copied().collect();
    got.sort();
    let never = samples.len() - got.len();
    let never = if never > 0 {
        format!(", {never} never")
    } else {
        String::new()
    };
    match got.as_slice() {
        [] => format!("{:>9}  {:>9}{never}", "-", "-"),
        _ => format!(
            "{:>9}  {:>9}{never}",
            secs(got[(got.len() - 1) / 2]),
            secs(*got.last().unwrap())
        ),
    }
}

pub(crate) fn print(run: &Run) {
    println!(
        "tabpilot load benchmark: cargo bench --bench load -- {}",
        run.seed
    );
    println!(
        "  {} headless Chromiums with the real extension ({}), {AGENTS} agents ({} a browser, each in \
         its own tab), {ACTIONS} actions; seed {}",
        run.browsers.len(),
        run.browsers.join(", "),
        AGENTS / run.browsers.len(),
        run.seed
    );
    println!(
        "  each agent a `tabpilot mcp` over stdio started by this process: client {:?}, one working \
         directory, the default identity",
        crate::client::CLIENT
    );
    println!(
        "  browsers launched and joined, agents started, in {}; the actions took {}",
        secs(run.setup),
        secs(run.took)
    );
    for log in &run.logs {
        if let Some(why) = &log.crashed {
            println!(
                "  agent {} stopped after {} actions: {why}",
                log.agent,
                log.actions.len()
            );
        }
    }
    actions(run);
    pages(run);
    codes(run);
    recovery(run);
    memory(&run.churn);
}

fn row(cells: [&dyn std::fmt::Display; 6]) {
    let [a, b, c, d, e, f] = cells;
    println!("  {a:<10} {b:>6} {c:>6} {d:>8} {e:>8} {f:>8}");
}

/// The actions by kind and how they ended.
fn actions(run: &Run) {
    println!();
    row([
        &"action", &"taken", &"done", &"failed", &"unknown", &"refused",
    ]);
    let mut total = [0usize; 5];
    for kind in Kind::ALL {
        let ended: Vec<_> = run
            .logs
            .iter()
            .flat_map(|l| &l.actions)
            .filter(|a| a.kind == kind)
            .map(|a| &a.ended)
            .collect();
        let count = |o: Outcome| {
            ended
                .iter()
                .filter(|e| matches!(e, Err((_, x)) if *x == o))
                .count()
        };
        let counts = [
            ended.len(),
            ended.iter().filter(|e| e.is_ok()).count(),
            count(Outcome::Failed) + count(Outcome::Partial),
            count(Outcome::Unknown),
            count(Outcome::Refused),
        ];
        for (t, n) in total.iter_mut().zip(counts) {
            *t += n;
        }
        let [a, b, c, d, e] = counts;
        row([&kind.name(), &a, &b, &c, &d, &e]);
    }
    let [a, b, c, d, e] = total;
    row([&"all", &a, &b, &c, &d, &e]);
}

/// What the pages received against what the agents were told.
fn pages(run: &Run) {
    let c = check(run);
    println!();
    println!("  from the pages (each tab's own log, read over DevTools; must be 0 where marked)");
    println!(
        "  actions delivered to another agent's tab (must be 0)  {:>5}   tokens {}, clicks at least {}",
        c.tokens_elsewhere + c.clicks_elsewhere,
        c.tokens_elsewhere,
        c.clicks_elsewhere
    );
    println!(
        "  snapshots of another agent's tab (must be 0)          {:>5}   of {} results showing a page's owner (browser_snapshot, and navigate's own)",
        run.logs.iter().map(|l| l.foreign_reads).sum::<usize>(),
        run.logs.iter().map(|l| l.owned_reads).sum::<usize>()
    );
    moved(run);
    println!(
        "  page-changing calls applied twice (must be 0)         {:>5}   tokens {}, clicks at least {} (past every done and unknown one)",
        c.tokens_repeated + c.clicks_repeated,
        c.tokens_repeated,
        c.clicks_repeated
    );
    println!(
        "  lost replies (outcome unknown; never repeated)        {:>5}   applied: {} of {} carrying a token, {} of {} clicks",
        c.unknown,
        c.unknown_tokens_applied,
        c.unknown_tokens,
        c.unknown_clicks_applied,
        c.unknown_clicks
    );
    println!(
        "  done but absent from every page                       {:>5}   tokens {}, clicks at least {}",
        c.done_unseen + c.clicks_lost,
        c.done_unseen,
        c.clicks_lost
    );
    println!(
        "  failed or refused but applied                         {:>5}",
        c.failed_applied
    );
    println!(
        "  clicks the pages received                             {:>5}   of {} done; {} tabs logged for {AGENTS} agents",
        c.clicks_received,
        c.clicks_done,
        run.pages.len()
    );
}

/// The agents whose tab changed without their asking (a new tab they asked for after LEASE_LOST
/// or TAB_CLAIMED is not one), each with the tabs its books gave it.
fn moved(run: &Run) {
    let label = |id: &str| {
        let b = run.browser_ids.iter().position(|b| b == id);
        b.map_or(id.to_string(), |b| run.browsers[b].clone())
    };
    let moved: Vec<String> = run
        .logs
        .iter()
        .filter(|l| l.tabs.iter().any(|t| !t.asked))
        .map(|l| {
            let tabs: Vec<String> = l
                .tabs
                .iter()
                .map(|t| {
                    let how = if t.asked { "" } else { ", unasked" };
                    format!("{} tab {} ({}{how})", label(&t.tab.0), t.tab.1, secs(t.at))
                })
                .collect();
            format!("agent {}: {}", l.agent, tabs.join(" -> "))
        })
        .collect();
    let unasked: usize = run
        .logs
        .iter()
        .map(|l| l.tabs.iter().filter(|t| !t.asked).count())
        .sum();
    println!(
        "  agents moved off their tab (must be 0)                {:>5}   of {AGENTS}; {unasked} tab changes nobody asked for",
        moved.len()
    );
    for m in moved {
        println!("    {m}");
    }
}

/// Every failed call by code and outcome, with an example of its message.
fn codes(run: &Run) {
    println!();
    println!("  failed calls by code (outcome)");
    let mut codes: BTreeMap<(&str, &str), (usize, &str)> = BTreeMap::new();
    for log in &run.logs {
        for ((code, outcome), (n, message)) in &log.failures {
            codes.entry((code, outcome)).or_insert((0, message)).0 += n;
        }
    }
    if codes.is_empty() {
        println!("    none");
    }
    for ((code, outcome), (n, message)) in codes {
        let what = format!("{code} ({outcome})");
        let message: String = message.chars().take(110).collect();
        println!("    {what:<36} {n:>5}  e.g. {message}");
    }
}

fn recovery(run: &Run) {
    println!();
    println!(
        "  time to recover: from the fault to the answer of each agent's first later call that succeeded"
    );
    println!(
        "  (an agent pauses 100 ms, doubling to 1 s, between attempts refused with nothing sent)"
    );
    println!(
        "  {:<22} {:>9} {:>8} {:>7}  {:>9}  {:>9}",
        "fault", "at", "actions", "agents", "median", "max"
    );
    let rec = recoveries(run);
    let mut by_kind: BTreeMap<&str, Vec<Option<Duration>>> = BTreeMap::new();
    for (f, r) in run.fired.iter().zip(&rec) {
        let what = describe(f.fault, &run.browsers);
        if let Some(why) = &f.failed {
            println!("  {what:<22} {:>9} not done: {why}", secs(f.at));
            continue;
        }
        let each: Vec<String> = r
            .iter()
            .map(|d| d.map_or("never".into(), |d| format!("{:.1}", d.as_secs_f64())))
            .collect();
        println!(
            "  {what:<22} {:>9} {:>8} {:>7}  {}   each (s): {}",
            secs(f.at),
            f.after_actions,
            r.len(),
            spread(r),
            each.join(" ")
        );
        let kind = match f.fault {
            Fault::KillRelay => "all relay SIGKILLs",
            Fault::StopWorker(_) => "all worker stops",
        };
        by_kind.entry(kind).or_default().extend(r);
    }
    for (kind, r) in by_kind {
        println!(
            "  {kind:<22} {:>9} {:>8} {:>7}  {}",
            "",
            "",
            r.len(),
            spread(&r)
        );
    }
    let planned = crate::RELAY_KILLS + crate::WORKER_STOPS;
    if run.fired.len() < planned {
        println!(
            "  ({} of the {planned} planned faults came after the last action)",
            planned - run.fired.len()
        );
    }
}

fn memory(ch: &Churn) {
    println!();
    let mb = |k: u64| format!("{:.2} MB", k as f64 / 1024.0);
    match (&ch.missing, ch.kib.as_slice()) {
        (None, [before, one, two]) => {
            println!(
                "  relay resident memory (VmRSS), {CHURN_CYCLES} controller connect/disconnect cycles ({}): \
                 {} before, {} after: {:+} KiB",
                secs(ch.took[0]),
                mb(*before),
                mb(*one),
                *one as i64 - *before as i64
            );
            println!(
                "  and after {CHURN_CYCLES} more ({}): {}: {:+} KiB on the first round's",
                secs(ch.took[1]),
                mb(*two),
                *two as i64 - *one as i64
            );
        }
        (why, _) => println!(
            "  relay resident memory: not measured ({})",
            why.as_deref().unwrap_or("?")
        ),
    }
    match ch.dropped_still_listed {
        Some(n) => println!(
            "  controllers that dropped their Link and that the relay still lists as connected 1 s later: {n} of {}",
            crate::DROPPED_LINKS
        ),
        None => println!("  dropped Links: not measured (the relay's status did not answer)"),
    }
}
