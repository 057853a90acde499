//! tabpilot's figures: speed, memory and tokens, printed for a person to read. It asserts
//! nothing (timed assertions make flaky tests); run it with `cargo bench --bench figures`, or
//! `cargo bench --bench figures -- SECTION...` for some of its sections (relay, mcp, browser,
//! remote, context).
//!
//! Each section is one function called from `main`, with its own private relay environment
//! (state dir and port range), so the figures never touch a developer's relay or browser.

// Under benches/figures/, since cargo would take any file directly under benches/ for a bench
// target of its own.
#[path = "figures/browser.rs"]
mod browser;
#[path = "../tests/support/cdp.rs"]
mod cdp;
#[path = "figures/context.rs"]
mod context;
#[path = "../tests/support/fixtures.rs"]
mod fixtures;
#[path = "../tests/support/mcp_client.rs"]
mod mcp_client;
#[path = "../tests/support/netns.rs"]
mod netns;
#[path = "../tests/support/peers.rs"]
mod peers;
#[path = "../tests/support/ports.rs"]
mod ports;
#[path = "figures/remote.rs"]
mod remote;
#[path = "../tests/support/remote_browser.rs"]
mod remote_browser;
#[path = "../tests/support/snapshot.rs"]
mod snapshot;

use std::net::TcpStream as StdTcpStream;
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::{Value, json};
use tabpilot::shared::protocol::{self, Answer, BrowserId, Frame, Op, PeerInfo, Role};

use mcp_client::McpClient;
use peers::{Ws, connect, recv, send, tab_call};
use ports::free_port_pair;

/// Cargo builds the binary with the bench profile (release settings) and names it here.
const BIN: &str = env!("CARGO_BIN_EXE_tabpilot");

fn main() {
    println!("tabpilot figures: {BIN}");
    let sections: [(&str, fn()); 5] = [
        ("relay", relay_throughput),
        ("mcp", mcp_startup),
        ("browser", browser::browser_figures),
        ("remote", remote::remote_figures),
        ("context", context::context_figures),
    ];
    // Cargo passes `--bench` to a bench target; the other words name sections.
    let asked: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    for (name, run) in sections {
        if asked.is_empty() || asked.iter().any(|a| a == name) {
            println!();
            run();
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Shared: private environments, the relay process, statistics

/// A private state dir and port range for one section.
struct BenchEnv {
    state_dir: PathBuf,
    first_port: u16,
}

impl BenchEnv {
    fn new(name: &str) -> BenchEnv {
        let state_dir =
            std::env::temp_dir().join(format!("tabpilot-figures-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&state_dir);
        BenchEnv {
            state_dir,
            first_port: free_port_pair(40_100..41_000),
        }
    }

    fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .env("TABPILOT_STATE_DIR", &self.state_dir)
            .env(
                "TABPILOT_PORTS",
                format!("{}-{}", self.first_port, self.first_port + 1),
            )
            // A relay left behind by an interrupted run goes away by itself.
            .env("TABPILOT_RELAY_IDLE_MS", "5000")
            .env_remove("TABPILOT_SESSION")
            .env_remove("RUST_LOG");
        cmd
    }

    /// `tabpilot ARGS` (an `mcp` command) as the figures run it: stderr discarded, a stray
    /// non-JSON line reported and skipped, up to 5 s to exit once its stdin closes.
    fn mcp(&self, args: &[&str]) -> McpClient {
        let mut cmd = self.command(args);
        cmd.stderr(Stdio::null());
        let mut mcp = McpClient::spawn(cmd);
        mcp.strict = false;
        mcp.exit_grace = Duration::from_secs(5);
        mcp
    }

    fn secret(&self) -> Vec<u8> {
        std::fs::read(self.state_dir.join("secret")).expect("the relay made a secret")
    }

    /// The pid of the `tabpilot relay` serving this environment: the one whose state dir is
    /// this one's, found in /proc (Linux).
    fn relay_pid(&self) -> Option<u32> {
        let dir = format!("TABPILOT_STATE_DIR={}", self.state_dir.display());
        std::fs::read_dir("/proc").ok()?.flatten().find_map(|e| {
            let pid: u32 = e.file_name().to_str()?.parse().ok()?;
            let cmdline = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
            let mut args = cmdline.split(|b| *b == 0);
            let relay = args.next()?.ends_with(b"tabpilot") && args.next()? == b"relay";
            let environ = std::fs::read(format!("/proc/{pid}/environ")).ok()?;
            let ours = environ.split(|b| *b == 0).any(|v| v == dir.as_bytes());
            (relay && ours).then_some(pid)
        })
    }
}

impl Drop for BenchEnv {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.state_dir);
    }
}

/// A `tabpilot relay` child, killed when dropped.
struct RelayProcess {
    child: Child,
    port: u16,
}

impl RelayProcess {
    fn start(env: &BenchEnv) -> RelayProcess {
        let mut child = env
            .command(&["relay"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("tabpilot relay starts");
        let port = env.first_port;
        let deadline = Instant::now() + Duration::from_secs(15);
        while StdTcpStream::connect(("127.0.0.1", port)).is_err() {
            if let Ok(Some(status)) = child.try_wait() {
                panic!("the relay exited before listening: {status}");
            }
            assert!(
                Instant::now() < deadline,
                "the relay did not listen on {port}"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
        RelayProcess { child, port }
    }
}

impl Drop for RelayProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The value at quantile `q` (0..=1) of sorted samples, nearest rank.
fn quantile<T: Copy>(sorted: &[T], q: f64) -> T {
    let rank = ((sorted.len() as f64 * q).ceil() as usize).clamp(1, sorted.len());
    sorted[rank - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1e3)
}

// ---------------------------------------------------------------------------------------------
// Relay routing throughput with fake peers

/// A browser that answers every call at once, connected before the first controller asks (a
/// controller first would be told NO_BROWSER).
async fn fake_browser(port: u16, secret: &[u8]) {
    let info = PeerInfo {
        name: "figures browser".into(),
        browser_id: Some(BrowserId("figures".into())),
        ..Default::default()
    };
    let ws = connect(port, Role::Browser, secret, info).await;
    tokio::spawn(peers::answer_calls(ws));
}

fn page_call(id: u64) -> Frame {
    tab_call(id, Op::Snapshot, json!({}))
}

/// One controller (its own session, so its own tab) keeping `window` calls in flight until
/// `calls` have been answered; returns each call's round trip.
async fn pipeline(mut ws: Ws, calls: u64, window: u64) -> Vec<Duration> {
    let mut sent_at = std::collections::HashMap::new();
    let mut round_trips = Vec::with_capacity(calls as usize);
    let mut next_id = 0;
    while next_id < window.min(calls) {
        sent_at.insert(next_id, Instant::now());
        send(&mut ws, &page_call(next_id)).await;
        next_id += 1;
    }
    while (round_trips.len() as u64) < calls {
        let Frame::Result(Answer { id, error, .. }) = recv(&mut ws).await else {
            continue;
        };
        assert!(error.is_none(), "a figures call failed: {error:?}");
        round_trips.push(sent_at.remove(&id).expect("a call we sent").elapsed());
        if next_id < calls {
            sent_at.insert(next_id, Instant::now());
            send(&mut ws, &page_call(next_id)).await;
            next_id += 1;
        }
    }
    round_trips
}

/// Routes calls from `controllers` fake controllers through the relay to one fake browser.
///
/// Every peer may send at most MAX_FRAMES_PER_SEC frames a second with an equal burst, and the
/// browser sends one result per call, so one browser sustains at most that many calls a second.
/// Each round therefore sends fewer calls than the burst allowance, after a pause that refills
/// it, and measures how fast the relay routes them, not the ceiling.
fn relay_throughput() {
    const CALLS_PER_ROUND: u64 = 1800;
    const REPEATS: usize = 3;
    let env = BenchEnv::new("relay");
    let relay = RelayProcess::start(&env);
    let (port, secret) = (relay.port, env.secret());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .unwrap();
    println!("relay routing: fake controllers -> relay -> one fake browser answering at once");
    println!(
        "  (one browser sustains at most {} calls/s: the frame-rate ceiling; each round is a burst of {CALLS_PER_ROUND} calls within its allowance)",
        protocol::MAX_FRAMES_PER_SEC
    );
    println!(
        "  {:>11}  {:>9}  {:>9}  {:>10}  {:>10}",
        "controllers", "in flight", "calls/s", "p50 rtt", "p95 rtt"
    );
    rt.block_on(async {
        fake_browser(port, &secret).await;
        let mut session = 0;
        for (controllers, window) in [(1u64, 1u64), (1, 32), (4, 16), (16, 4)] {
            let mut rates = Vec::new();
            let mut round_trips = Vec::new();
            for _ in 0..REPEATS {
                // Connect and open each controller's tab outside the timed part.
                let mut peers = Vec::new();
                for _ in 0..controllers {
                    session += 1;
                    let info = PeerInfo {
                        name: "figures controller".into(),
                        session: Some(format!("figures-{session}")),
                        ..Default::default()
                    };
                    let mut ws = connect(port, Role::Controller, &secret, info).await;
                    pipeline_warm_up(&mut ws).await;
                    peers.push(ws);
                }
                // Let every peer's burst allowance refill.
                tokio::time::sleep(Duration::from_millis(1100)).await;
                let start = Instant::now();
                let per = CALLS_PER_ROUND / controllers;
                let tasks: Vec<_> = peers
                    .into_iter()
                    .map(|ws| tokio::spawn(pipeline(ws, per, window)))
                    .collect();
                for task in tasks {
                    round_trips.extend(task.await.expect("a controller task"));
                }
                rates.push((per * controllers) as f64 / start.elapsed().as_secs_f64());
            }
            rates.sort_by(f64::total_cmp);
            round_trips.sort();
            println!(
                "  {controllers:>11}  {:>9}  {:>9.0}  {:>10}  {:>10}",
                controllers * window,
                quantile(&rates, 0.5),
                ms(quantile(&round_trips, 0.5)),
                ms(quantile(&round_trips, 0.95)),
            );
        }
    });
    drop(relay);
}

/// A controller's first page call opens its tab (the relay asks the browser `tabOpen`).
async fn pipeline_warm_up(ws: &mut Ws) {
    send(ws, &page_call(u64::MAX)).await;
    let Frame::Result(Answer { error: None, .. }) = recv(ws).await else {
        panic!("the warm-up call failed")
    };
}

// ---------------------------------------------------------------------------------------------
// `tabpilot mcp`: time from spawn to the first tools/list answer, and resident memory

fn mcp_startup() {
    const RUNS: usize = 20;
    let env = BenchEnv::new("mcp");
    // A relay already running, as when an agent starts its MCP server on a working machine.
    let _relay = RelayProcess::start(&env);
    let mut startup = Vec::new();
    let mut rss_kib = Vec::new();
    let mut tools = Value::Null;
    for _ in 0..RUNS {
        let start = Instant::now();
        let mut mcp = env.mcp(&["mcp"]);
        mcp.initialize("tabpilot-figures");
        let list = mcp.request("tools/list", json!({}));
        startup.push(start.elapsed());
        if let Some(kib) = mcp.rss_kib() {
            rss_kib.push(kib);
        }
        tools = list["result"]["tools"].clone();
    }
    startup.sort();
    rss_kib.sort();
    println!("tabpilot mcp over stdio, {RUNS} runs (relay already running)");
    println!(
        "  spawn to first tools/list answer: median {}, p95 {}",
        ms(quantile(&startup, 0.5)),
        ms(quantile(&startup, 0.95))
    );
    if rss_kib.is_empty() {
        println!("  resident memory: unavailable (no /proc)");
    } else {
        let mb = |kib: u64| kib as f64 / 1024.0;
        println!(
            "  resident memory after tools/list (VmRSS): median {:.1} MB, p95 {:.1} MB",
            mb(quantile(&rss_kib, 0.5)),
            mb(quantile(&rss_kib, 0.95))
        );
    }
    let text = tools.to_string();
    let count = tools.as_array().map_or(0, Vec::len);
    match tiktoken_rs::o200k_base() {
        Ok(bpe) => println!(
            "  tools/list: {count} tools, {} bytes of JSON, {} o200k tokens",
            text.len(),
            bpe.encode_with_special_tokens(&text).len()
        ),
        Err(e) => println!(
            "  tools/list: {count} tools, {} bytes of JSON (no tokenizer: {e})",
            text.len()
        ),
    }
}
