//! What the end-to-end tests share: private relay environments, an MCP client over stdio, the
//! fixture servers on two loopback origins, and one managed headless Chromium per test binary.

use std::path::{Path, PathBuf};
use std::process::{Child, Command};
use std::sync::atomic::{AtomicU16, Ordering};
use std::sync::{Mutex, OnceLock};

use serde_json::{Value, json};

use crate::ports::pair_free;
use tabpilot::controller::tools::more;

pub(crate) const BIN: &str = env!("CARGO_BIN_EXE_tabpilot");

/// A private state dir and port range, so tests never touch a developer's relay or each other.
#[derive(Clone)]
pub(crate) struct Env {
    pub state_dir: PathBuf,
    pub first_port: u16,
    pub ports: String,
}

static NEXT_ENV: AtomicU16 = AtomicU16::new(0);

impl Env {
    pub(crate) fn fresh(name: &str) -> Env {
        // Below the kernel's ephemeral range (32768 up), apart per process, and skipping a pair
        // still held (by a relay an earlier run left to idle out, say), which would answer in our
        // place.
        let base = 20_000 + (std::process::id() % 22) as u16 * 512;
        let first_port = loop {
            let n = NEXT_ENV.fetch_add(1, Ordering::SeqCst);
            assert!(n < 256, "each test binary has room for 256 environments");
            let port = base + n * 2;
            if pair_free(port) {
                break port;
            }
        };
        let state_dir =
            std::env::temp_dir().join(format!("tabpilot-e2e-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&state_dir);
        Env {
            state_dir,
            first_port,
            ports: format!("{}-{}", first_port, first_port + 1),
        }
    }

    /// `tabpilot ARGS` in this environment, started as one MCP client starts its servers: every
    /// test's agent has this process as its client, one client name and one working directory,
    /// and the default identity (no `TABPILOT_INSTANCE`), as users run them.
    pub(crate) fn command(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .env("TABPILOT_STATE_DIR", &self.state_dir)
            .env("TABPILOT_PORTS", &self.ports)
            .env("TABPILOT_RELAY_IDLE_MS", "4000")
            .env_remove("TABPILOT_INSTANCE")
            .env_remove("TABPILOT_SESSION");
        cmd
    }

    /// Runs a one-shot CLI command; returns (exit success, stdout, stderr).
    pub(crate) fn cli(&self, args: &[&str]) -> (bool, String, String) {
        run(self.command(args))
    }

    pub(crate) fn secret(&self) -> Vec<u8> {
        std::fs::read(self.state_dir.join("secret")).expect("the relay made a secret")
    }

    /// The relay's lock in this environment's state dir: `PORT PID`.
    pub(crate) fn relay_lock(&self) -> PathBuf {
        let (a, b) = self.ports.split_once('-').unwrap();
        self.state_dir.join(format!("relay-{a}-{b}.lock"))
    }

    /// Waits, making no call, for a relay other than `old` to record itself; returns its pid.
    pub(crate) fn new_relay(&self, old: i32, within: std::time::Duration) -> i32 {
        let deadline = std::time::Instant::now() + within;
        loop {
            let text = std::fs::read_to_string(self.relay_lock()).unwrap_or_default();
            let pid = text.split_whitespace().nth(1).and_then(|p| p.parse().ok());
            if let Some(pid) = pid.filter(|p| *p != old) {
                return pid;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "no relay came back: {text:?}"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// The pid of the relay running now, from its lock.
    pub(crate) fn relay_pid(&self) -> i32 {
        let text = std::fs::read_to_string(self.relay_lock()).expect("the relay's lock");
        let pid = text.split_whitespace().nth(1);
        pid.and_then(|p| p.parse().ok())
            .unwrap_or_else(|| panic!("no pid in the relay's lock: {text:?}"))
    }
}

/// A file's or folder's permission bits.
pub(crate) fn mode(path: &Path) -> u32 {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

/// Runs a command to its end with no stdin; returns (exit success, stdout, stderr).
pub(crate) fn run(mut cmd: Command) -> (bool, String, String) {
    let out = cmd
        .stdin(std::process::Stdio::null())
        .output()
        .expect("tabpilot runs");
    outcome(&out)
}

/// Runs a command to its end with `input` on its stdin; returns (exit success, stdout, stderr).
pub(crate) fn run_with_stdin(mut cmd: Command, input: &str) -> (bool, String, String) {
    use std::io::Write;
    use std::process::Stdio;
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("tabpilot runs");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    outcome(&child.wait_with_output().unwrap())
}

fn outcome(out: &std::process::Output) -> (bool, String, String) {
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// The MCP client over stdio (tests/support/mcp_client.rs), with the tests' ways to start it
/// and to call tools that must succeed or fail.
pub(crate) use crate::mcp_client::McpClient as Mcp;

impl Mcp {
    pub(crate) fn start(env: &Env, args: &[&str]) -> Mcp {
        Mcp::start_with(env, args, |_| {})
    }

    /// Starts `tabpilot mcp ARGS` with its command adjusted first (environment, stderr).
    pub(crate) fn start_with(env: &Env, args: &[&str], adjust: impl FnOnce(&mut Command)) -> Mcp {
        let mut cmd = env.command(&[&["mcp"], args].concat());
        adjust(&mut cmd);
        Mcp::started(cmd)
    }

    /// Starts `tabpilot mcp` in `dir` with `home` as its home directory.
    pub(crate) fn start_in(env: &Env, dir: &Path, home: &Path) -> Mcp {
        let mut cmd = env.command(&["mcp"]);
        in_project(&mut cmd, dir, home);
        Mcp::started(cmd)
    }

    /// Spawned (stderr inherited) and initialized.
    pub(crate) fn started(cmd: Command) -> Mcp {
        let mut mcp = Mcp::spawn(cmd);
        mcp.initialize("tabpilot-e2e");
        mcp
    }

    /// Calls a tool; returns the CallToolResult. A successful result's `structuredContent` must
    /// hold to the output schema the tool derives (tools/list leaves it out to save tokens), in
    /// every test's every call.
    pub(crate) fn call(&mut self, tool: &str, args: Value) -> Value {
        let mut params = json!({ "name": tool });
        params["arguments"] = args;
        let r = self.request("tools/call", params);
        assert!(r.get("error").is_none(), "{tool} got a protocol error: {r}");
        let result = r["result"].clone();
        let spec = tabpilot::controller::tools::registry::get(tool)
            .map(|t| &t.spec)
            .or_else(|| (tool == more::NAME).then(more::spec));
        if let Some(spec) = spec
            && result["isError"] != true
        {
            let validator =
                jsonschema::validator_for(&spec.output_schema).expect("an output schema compiles");
            let data = &result["structuredContent"];
            let errors: Vec<String> = validator.iter_errors(data).map(|e| e.to_string()).collect();
            assert!(
                errors.is_empty(),
                "{tool}'s structuredContent breaks its output schema: {errors:?}\n{data}"
            );
        }
        result
    }

    /// Calls a tool that must succeed; returns (text, structuredContent).
    pub(crate) fn ok(&mut self, tool: &str, args: Value) -> (String, Value) {
        let shown = args.to_string();
        let r = self.call(tool, args);
        assert_ne!(
            r["isError"],
            json!(true),
            "{tool} {shown} failed: {}",
            text(&r)
        );
        (text(&r), r["structuredContent"].clone())
    }

    /// Whether this agent holds no tab: nothing it called reached a page.
    pub(crate) fn holds_no_tab(&mut self) -> bool {
        all_tabs(self).iter().all(|t| t["mine"] != true)
    }

    /// Calls a tool that must fail; returns its error code and the result.
    pub(crate) fn fails(&mut self, tool: &str, args: Value) -> (String, Value) {
        let shown = args.to_string();
        let r = self.call(tool, args);
        assert_eq!(
            r["isError"],
            json!(true),
            "{tool} {shown} should have failed: {}",
            text(&r)
        );
        (
            r["structuredContent"]["error"]["code"]
                .as_str()
                .unwrap_or("")
                .to_string(),
            r,
        )
    }
}

/// Runs `cmd` in the project `dir`, with `home` as its home directory (and neither a workspace
/// nor a Codex home from the test's own environment).
pub(crate) fn in_project(cmd: &mut Command, dir: &Path, home: &Path) {
    cmd.current_dir(dir)
        .env("HOME", home)
        .env_remove("CODEX_HOME")
        .env_remove("TABPILOT_WORKSPACE");
}

/// Project directories are trusted only when group and others cannot write to them
/// (docs/context.md), so the tests make their trees without those bits, whatever the umask.
pub(crate) fn no_group_write() {
    // SAFETY: umask(2) only sets the process's file mode mask; narrowing it is harmless.
    unsafe {
        let old = libc::umask(0o022);
        libc::umask(old | 0o022);
    }
}

/// A fresh folder for this test's files inside tabpilot's temp folder, one of the path
/// sandbox's roots (the whole temp directory is not).
pub(crate) fn sandbox_dir(name: &str) -> PathBuf {
    let root = tabpilot::controller::policy::paths::temp_folder().expect("tabpilot's temp folder");
    let dir = root.join(format!("e2e-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

pub(crate) fn text(result: &Value) -> String {
    result["content"]
        .as_array()
        .map(|c| {
            c.iter()
                .filter_map(|b| b["text"].as_str())
                .collect::<Vec<_>>()
                .join("\n")
        })
        .unwrap_or_default()
}

/// Where a planted secret turned up: each file under `root` (recursively) that holds one of
/// `markers`, with the marker's index. The relay secret's own file and the browser profiles (the
/// browser's own data, and the extension's copy of the secret) hold what they hold by design
/// and are not looked in; everything else under a state dir is tabpilot's to keep clean.
pub(crate) fn holding(root: &Path, markers: &[&str]) -> Vec<String> {
    let mut found = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = entry.file_name();
            if dir == root && (name == "secret" || name == "profiles") {
                continue;
            }
            match entry.file_type() {
                Ok(t) if t.is_dir() => dirs.push(path),
                Ok(t) if t.is_file() => {
                    let bytes = std::fs::read(&path).unwrap_or_default();
                    for (i, m) in markers.iter().enumerate() {
                        if bytes.windows(m.len()).any(|w| w == m.as_bytes()) {
                            found.push(format!("{} holds secret #{i}", path.display()));
                        }
                    }
                }
                _ => {}
            }
        }
    }
    found
}

/// A process a test started, killed when the test is done with it.
pub(crate) struct Kill(pub(crate) Child);

impl Drop for Kill {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// A runtime for the async part of a test.
pub(crate) fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

/// Serves `app` on a loopback port of its own, on a thread of its own for the process's life;
/// returns its origin (`http://127.0.0.1:PORT`).
pub(crate) fn serve_app(app: axum::Router) -> String {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        runtime().block_on(async move {
            let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            tx.send(format!("http://{}", listener.local_addr().unwrap()))
                .unwrap();
            axum::serve(listener, app).await.unwrap();
        });
    });
    rx.recv().unwrap()
}

pub(crate) use crate::fixtures::Fixtures;
use crate::fixtures::serve as serve_fixtures;

/// One managed headless Chromium for the whole test binary, launched by a `tabpilot mcp
/// --launch --headless` that lives as long as this process; each test drives it through its
/// own `tabpilot mcp`, so each works in its own tab.
pub(crate) struct Shared {
    pub env: Env,
    pub fixtures: Fixtures,
    launcher: Mutex<Mcp>,
}

pub(crate) fn shared() -> &'static Shared {
    static SHARED: OnceLock<Shared> = OnceLock::new();
    SHARED.get_or_init(|| {
        let env = Env::fresh("browser");
        let fixtures = serve_fixtures(env.first_port);
        let mut launcher = Mcp::start(&env, &["--launch", "--headless"]);
        // Any call that needs a browser makes it launch one and wait until it has joined.
        launcher.ok("browser_list_tabs", json!({}));
        Shared {
            env,
            fixtures,
            launcher: Mutex::new(launcher),
        }
    })
}

impl Shared {
    /// A new agent on the shared browser.
    pub(crate) fn agent(&self) -> Mcp {
        Mcp::start(&self.env, &[])
    }

    /// A new agent on the shared browser, its command adjusted first (working directory,
    /// environment).
    pub(crate) fn agent_with(&self, adjust: impl FnOnce(&mut Command)) -> Mcp {
        Mcp::start_with(&self.env, &[], adjust)
    }

    pub(crate) fn a(&self, page: &str) -> String {
        format!("{}/{page}", self.fixtures.a)
    }

    pub(crate) fn b(&self, page: &str) -> String {
        format!("{}/{page}", self.fixtures.b)
    }

    /// The tabs as the launching session sees them, every page of them.
    pub(crate) fn tabs(&self) -> Vec<Value> {
        let mut launcher = self.launcher.lock().unwrap();
        all_tabs(&mut launcher)
    }
}

/// Every tab `agent` lists, page after page. Other tests open and close tabs in the shared
/// browser meanwhile: a listing whose pages disagree on the total is taken again.
/// The tab this agent works in, from the tab list (an agent's own tabs come first, so the first
/// page has it): there is exactly one.
pub(crate) fn my_tab(agent: &mut Mcp) -> Value {
    let (_, data) = agent.ok("browser_list_tabs", json!({}));
    let tabs = data["tabs"].as_array().expect("a tab list");
    let mine: Vec<&Value> = tabs.iter().filter(|t| t["mine"] == true).collect();
    assert_eq!(mine.len(), 1, "{tabs:?}");
    mine[0].clone()
}

/// The id of the tab this agent works in.
pub(crate) fn my_tab_id(agent: &mut Mcp) -> i64 {
    my_tab(agent)["tabId"].as_i64().expect("a tab id")
}

/// Kills a process this test started (a relay, say) as a crash would.
pub(crate) fn kill(pid: i32) {
    // SAFETY: signalling a process this test's environment started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGKILL) }, 0, "kill {pid}");
}

pub(crate) fn all_tabs(agent: &mut Mcp) -> Vec<Value> {
    loop {
        let mut tabs = Vec::new();
        let mut total = None;
        for page in 1.. {
            let r = agent.call("browser_list_tabs", json!({ "page": page }));
            if r["isError"] == true {
                break; // past the last page: the list shrank
            }
            let data = &r["structuredContent"];
            tabs.extend(data["tabs"].as_array().unwrap().iter().cloned());
            let this = data["total"].as_u64();
            if total.is_some_and(|t| Some(t) != this) {
                break;
            }
            total = this;
            if tabs.len() as u64 >= this.unwrap() {
                return tabs;
            }
        }
    }
}

/// Gives the process `cmd` starts at most `files` descriptors, as a system's usual limit would
/// (a shell here may allow many more).
pub(crate) fn limit_files(cmd: &mut Command, files: u64) {
    use std::os::unix::process::CommandExt;
    // SAFETY: setrlimit is async-signal-safe and changes only the child.
    unsafe {
        cmd.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: files,
                rlim_max: files,
            };
            if libc::setrlimit(libc::RLIMIT_NOFILE, &limit) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
}

/// Lets this test process open at least `files` descriptors, as far as its hard limit allows.
pub(crate) fn raise_own_files(files: u64) {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit and setrlimit read and write only the struct they are given.
    unsafe {
        if libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) == 0 && limit.rlim_cur < files {
            limit.rlim_cur = files.min(limit.rlim_max);
            libc::setrlimit(libc::RLIMIT_NOFILE, &limit);
        }
    }
}
