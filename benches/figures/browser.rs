//! Figures on a real browser: tool round trips through `tabpilot mcp` over stdio, and the size
//! (o200k tokens) and time of the lean snapshot of each fixture page.

use std::process::Command;
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use tabpilot::shared::protocol::{Op, PeerInfo, Role};

use crate::mcp_client::McpClient;
use crate::peers::{connect, result, send, tab_call};
use crate::snapshot::ref_of;
use crate::{BIN, BenchEnv, ms, quantile};

fn ok(mcp: &mut McpClient, tool: &str, args: Value) -> Value {
    let shown = args.to_string();
    let r = mcp.call_tool(tool, args);
    assert_ne!(r["isError"], true, "{tool} {shown} failed: {r}");
    r["structuredContent"].clone()
}

/// Runs `call` `n` times and prints its median and p95.
fn timed(label: &str, n: usize, mut call: impl FnMut()) {
    let mut samples: Vec<Duration> = (0..n)
        .map(|_| {
            let t = Instant::now();
            call();
            t.elapsed()
        })
        .collect();
    samples.sort();
    println!(
        "  {label:<44} median {:>9}  p95 {:>9}  ({n} calls)",
        ms(quantile(&samples, 0.5)),
        ms(quantile(&samples, 0.95))
    );
}

/// A fresh tab for the session, on `url`: the refs of the button and the search field.
fn fresh_tab(mcp: &mut McpClient, url: &str) -> (String, String) {
    ok(mcp, "browser_navigate", json!({"url": url}));
    let snap = ok(mcp, "browser_snapshot", json!({}))["snapshot"]
        .as_str()
        .unwrap()
        .to_string();
    (
        ref_of(&snap, "button", "Press me"),
        ref_of(&snap, "textbox", "Search"),
    )
}

/// One session's timings: a click's and a type's, the first of each on a page and the rest.
#[derive(Default)]
struct Timings {
    first: (Vec<Duration>, Vec<Duration>),
    later: (Vec<Duration>, Vec<Duration>),
}

impl Timings {
    fn of(&mut self, first: bool) -> &mut (Vec<Duration>, Vec<Duration>) {
        if first {
            &mut self.first
        } else {
            &mut self.later
        }
    }
}

/// What recording costs the fast path: a click and a type with the session's recording off, in
/// memory (the default) and on disk, each session on its own tab of the one browser, in
/// alternating rounds so a busy moment of the machine falls on each alike. Each round each
/// session starts on a new tab: a tab's own pace (its renderer, where the browser put it) differs
/// from another's by more than recording costs, and kept for the whole run it falls on one
/// session. The first click and type on each page are kept apart: the page's scripts run cold
/// there, and a recorded action's description of its element is among them.
fn recording_cost(env: &BenchEnv, url: &str) {
    const ROUNDS: usize = 10;
    const PER_ROUND: usize = 8;
    let mut sessions: Vec<_> = [("off", "off"), ("in memory", ""), ("on disk", "1")]
        .into_iter()
        .map(|(label, record)| {
            let mut cmd = env.command(&["mcp"]);
            cmd.env("TABPILOT_RECORD", record)
                .stderr(std::process::Stdio::null());
            let mut mcp = McpClient::spawn(cmd);
            mcp.strict = false;
            mcp.exit_grace = Duration::from_secs(5);
            mcp.initialize("tabpilot-figures");
            (label, mcp, Timings::default())
        })
        .collect();
    for round in 0..ROUNDS {
        for (_, mcp, timings) in &mut sessions {
            if round > 0 {
                ok(mcp, "browser_close_tab", json!({}));
            }
            let (press, search) = fresh_tab(mcp, url);
            for i in 0..PER_ROUND {
                let (clicks, types) = timings.of(i == 0);
                let t = Instant::now();
                ok(mcp, "browser_click", json!({"ref": press}));
                clicks.push(t.elapsed());
                let t = Instant::now();
                ok(mcp, "browser_type", json!({"ref": search, "text": "hello"}));
                types.push(t.elapsed());
            }
        }
    }
    for (which, first) in [("first on a page", true), ("after the first", false)] {
        println!("  {which}:");
        let mut off = None;
        for (label, _, timings) in &mut sessions {
            let (clicks, types) = timings.of(first);
            let (click, typed) = (median(clicks), median(types));
            let base = *off.get_or_insert((click, typed));
            println!(
                "    recording {label:<9}: click median {:>9} ({:+.0}% of off), type 5 characters median {:>9} ({:+.0}% of off)  ({} each, alternating)",
                ms(click),
                percent(click, base.0),
                ms(typed),
                percent(typed, base.1),
                clicks.len()
            );
        }
    }
}

fn median(v: &mut [Duration]) -> Duration {
    v.sort();
    quantile(v, 0.5)
}

/// `d` against `base`, in percent more (or less).
fn percent(d: Duration, base: Duration) -> f64 {
    (d.as_secs_f64() / base.as_secs_f64() - 1.0) * 100.0
}

pub(crate) fn browser_figures() {
    let env = BenchEnv::new("browser");
    let fixtures = crate::fixtures::serve(0);
    let page = |name: &str| format!("{}/{name}", fixtures.a);
    let mut mcp = env.mcp(&["mcp", "--launch", "--headless"]);
    mcp.initialize("tabpilot-figures");
    // The first call that needs a browser launches the managed one.
    let launched = Instant::now();
    ok(&mut mcp, "browser_list_tabs", json!({}));
    println!(
        "tool round trips through tabpilot mcp (stdio), managed headless Chromium, local pages"
    );
    println!("  fixture pages on {} and {}", fixtures.a, fixtures.b);
    println!(
        "  launch and join (first call that needs a browser): {}",
        ms(launched.elapsed())
    );

    timed("browser_navigate (basic.html, no snapshot)", 20, || {
        ok(
            &mut mcp,
            "browser_navigate",
            json!({"url": page("basic.html"), "includeSnapshot": false}),
        );
    });
    let snap = ok(&mut mcp, "browser_snapshot", json!({}))["snapshot"]
        .as_str()
        .unwrap()
        .to_string();
    let press = ref_of(&snap, "button", "Press me");
    let search = ref_of(&snap, "textbox", "Search");
    timed("browser_snapshot (basic.html)", 30, || {
        ok(&mut mcp, "browser_snapshot", json!({}));
    });
    timed("browser_click (waitUntil auto, the default)", 30, || {
        ok(&mut mcp, "browser_click", json!({"ref": press}));
    });
    timed("browser_click (waitUntil none)", 30, || {
        ok(
            &mut mcp,
            "browser_click",
            json!({"ref": press, "waitUntil": "none"}),
        );
    });
    timed("browser_type (5 characters, auto)", 30, || {
        ok(
            &mut mcp,
            "browser_type",
            json!({"ref": search, "text": "hello"}),
        );
    });
    timed("browser_type (5 characters, none)", 30, || {
        ok(
            &mut mcp,
            "browser_type",
            json!({"ref": search, "text": "hello", "waitUntil": "none"}),
        );
    });
    println!(
        "the fast path and the session's recording (TABPILOT_RECORD off / unset / 1), default waits"
    );
    recording_cost(&env, &page("basic.html"));
    probe_cost(
        &env,
        &[
            (&page("basic.html"), "Press me"),
            (&page("console/page.html?run=bench"), "Calm"),
        ],
    );

    println!();
    println!(
        "lean snapshots within the default budget: o200k tokens (the whole outline's beside) and time (median of 5)"
    );
    let bpe = tiktoken_rs::o200k_base().expect("the o200k tokenizer");
    let mut pages: Vec<String> = [
        "basic.html",
        "checkout.html",
        "checkout-full.html",
        "react-form.html",
        "fields.html",
        "scroll-panel.html",
        "two-panels.html",
        "dialogs.html",
        "upload.html",
        "article.html",
        "long-article.html",
        "table.html",
        "people.html",
        "shipping.html",
    ]
    .map(String::from)
    .to_vec();
    // The toolchain's own rustdoc, a real page nobody here wrote, when the toolchain has it.
    let rustdoc = [
        "rustdoc/std/collections/struct.HashMap.html",
        "rustdoc/std/iter/trait.Iterator.html",
    ];
    if crate::fixtures::rustdoc_dir().is_some() {
        pages.extend(rustdoc.map(String::from));
    } else {
        println!("  (no rustdoc: $(rustc --print sysroot)/share/doc/rust/html is absent)");
    }
    for name in &pages {
        ok(
            &mut mcp,
            "browser_navigate",
            json!({"url": page(name), "includeSnapshot": false}),
        );
        let mut text = String::new();
        let mut samples: Vec<Duration> = (0..5)
            .map(|_| {
                let t = Instant::now();
                text = ok(&mut mcp, "browser_snapshot", json!({}))["snapshot"]
                    .as_str()
                    .unwrap()
                    .to_string();
                t.elapsed()
            })
            .collect();
        samples.sort();
        let whole = ok(
            &mut mcp,
            "browser_snapshot",
            json!({"maxTokens": 1_000_000}),
        )["snapshot"]
            .as_str()
            .unwrap()
            .to_string();
        let refs = text.matches("[ref=").count();
        let shown = name.rsplit('/').next().unwrap_or(name);
        println!(
            "  {shown:<20} {:>6} tokens ({:>6} whole)  {:>5} lines  {:>5} refs  {:>9}",
            bpe.encode_with_special_tokens(&text).len(),
            bpe.encode_with_special_tokens(&whole).len(),
            text.lines().count(),
            refs,
            ms(quantile(&samples, 0.5))
        );
    }
    // What one navigation costs by default: the reply's text, snapshot included.
    let reply = mcp.call_tool(
        "browser_navigate",
        json!({"url": page("long-article.html")}),
    );
    let text: String = reply["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect();
    println!(
        "  browser_navigate's default reply on long-article.html: {} tokens",
        bpe.encode_with_special_tokens(&text).len()
    );
    server_tree_peak(&env, &mcp);
}

/// The server tree's peak resident memory over the section's run (VmHWM, which the kernel keeps
/// per process): the MCP server that ran every call above, and the relay they went through.
fn server_tree_peak(env: &BenchEnv, mcp: &McpClient) {
    let peak = |pid: u32| -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    };
    let mb = |kib: u64| kib as f64 / 1024.0;
    let (server, relay) = (peak(mcp.pid()), env.relay_pid().and_then(peak));
    match (server, relay) {
        (Some(s), Some(r)) => println!(
            "  server tree's peak resident memory over the run (VmHWM): {:.1} MB (MCP server {:.1} MB, relay {:.1} MB)",
            mb(s + r),
            mb(s),
            mb(r)
        ),
        _ => println!("  (the server tree's peak memory could not be read from /proc)"),
    }
    code_order();
}

/// How much of link/code-order.txt this binary has. The figure above leans on it (build.rs has
/// the linker place those functions together); a change of dependencies or toolchain renames them,
/// and link/order.sh remakes the file. It names the functions of two builds, `cargo build
/// --release` and this benchmark's, whose own functions' names differ: about half is this one's.
fn code_order() {
    let listed = include_str!("../../link/code-order.txt");
    let Ok(nm) = Command::new("nm").arg("--defined-only").arg(BIN).output() else {
        return println!("  (nm is not here to read the binary's functions)");
    };
    let symbols = String::from_utf8_lossy(&nm.stdout);
    let have: std::collections::HashSet<&str> = symbols
        .lines()
        .filter_map(|l| l.split_whitespace().last())
        .collect();
    let total = listed.lines().count();
    let found = listed.lines().filter(|f| have.contains(f)).count();
    println!(
        "  link/code-order.txt: {found} of its {total} functions are in this binary (about half \
         when the file is fresh; far fewer, run link/order.sh)"
    );
}

/// The after-action probes' cost per click: the same click sent straight to the relay (no MCP
/// server in the figure), with the probes on its call (`after.console` and `after.network`, as
/// every action the tools send carries them) and without, taking turns so drift falls on both alike; on a page
/// with one frame and on the console fixture, with two frames and a log (the probe reads every
/// frame).
fn probe_cost(env: &BenchEnv, pages: &[(&str, &str)]) {
    const N: usize = 60;
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    rt.block_on(async {
        let info = PeerInfo {
            name: "figures probe".into(),
            ..Default::default()
        };
        let mut ws = connect(env.first_port, Role::Controller, &env.secret(), info).await;
        let mut id = 0;
        let mut call = async |op: Op, args: Value| {
            id += 1;
            send(&mut ws, &tab_call(id, op, args)).await;
            let t = Instant::now();
            let (_, value, _) = result(&mut ws).await;
            (value.expect("a figures call failed"), t.elapsed())
        };
        for (url, button) in pages {
            call(Op::Navigate, json!({"url": url})).await;
            let (snap, _) = call(Op::Snapshot, json!({})).await;
            let target = ref_of(snap["text"].as_str().unwrap(), "button", button);
            let (mut with, mut without) = (Vec::new(), Vec::new());
            for _ in 0..N {
                let on = json!({"ref": target, "after": {"console": "errors", "network": "issues"}});
                let (reply, took) = call(Op::Click, on).await;
                assert!(reply["console"]["errors"].is_u64(), "the console probe answered");
                assert!(reply["network"]["failed"].is_u64(), "the network probe answered");
                with.push(took);
                let off = json!({"ref": target, "after": {}});
                let (_, took) = call(Op::Click, off).await;
                without.push(took);
            }
            with.sort();
            without.sort();
            let (a, b) = (quantile(&with, 0.5), quantile(&without, 0.5));
            let added = a.as_secs_f64() * 1e3 - b.as_secs_f64() * 1e3;
            let page = url.rsplit('/').next().unwrap();
            println!(
                "  click on {page} straight to the relay: median {} with the probes, {} without: {added:+.2} ms ({N} each)",
                ms(a),
                ms(b),
            );
        }
    });
}
