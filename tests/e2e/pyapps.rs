//! Real Python applications nobody here wrote (JupyterLab, Streamlit), for the tests in
//! streamlit.rs and jupyter.rs: installed by `.ci/run` into a venv under target/ from the pinned
//! tests/fixtures/pyapps/requirements.txt, never by the tests; each started here once per test
//! binary, when a test first asks, on a free loopback port, with its files and settings in a temp
//! dir of its own, and stopped (with its kernels) and cleaned away when the test binary exits.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

/// The venv `.ci/run` makes.
pub(crate) fn venv() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("target/e2e-pyapps")
}

/// The venv's program `name`; fails, naming the step that installs it, when it is not there.
fn program(name: &str) -> PathBuf {
    let path = venv().join("bin").join(name);
    assert!(
        path.is_file(),
        "{} is not installed: `.ci/run` installs the real apps the e2e tests drive (its step \
         \"The real Python applications\": python3 -m venv target/e2e-pyapps, then pip install -r \
         tests/fixtures/pyapps/requirements.txt)",
        path.display()
    );
    path
}

/// The fixture files of these apps.
pub(crate) fn fixture(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/pyapps")
        .join(name)
}

/// An application server started for this test binary.
pub(crate) struct AppServer {
    /// `http://127.0.0.1:PORT`.
    pub origin: String,
    /// The server's own temp dir (its working files, its home, its output).
    pub dir: PathBuf,
}

/// The servers and their guards, each guard waiting on a pipe from this process: when the test
/// binary exits, however it exits, the pipes close and each guard stops its server's process
/// group and removes its dir.
static STARTED: Mutex<Vec<Child>> = Mutex::new(Vec::new());

/// A loopback port free now (the server binds it a moment later; its health check proves it
/// did, not something else).
fn free_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free loopback port");
    listener.local_addr().unwrap().port()
}

/// A fresh temp dir for the server `name`.
fn server_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabpilot-pyapps-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Starts `cmd` (its output to `dir/server.log`) in a process group of its own, with a guard that
/// ends the group when this test binary ends; waits until `GET health` on `port` answers 200.
fn start(name: &str, mut cmd: Command, dir: PathBuf, port: u16, health: &str) -> AppServer {
    let log = std::fs::File::create(dir.join("server.log")).unwrap();
    let started = Instant::now();
    let mut server = cmd
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(log.try_clone().unwrap())
        .stderr(log)
        .process_group(0)
        .spawn()
        .unwrap_or_else(|e| panic!("{name} starts: {e}"));
    let pgid = server.id().to_string();
    // TERM first (JupyterLab shuts its kernels down on it), KILL whatever is left 10 s later.
    let guard = Command::new("sh")
        .args([
            "-c",
            "read _; kill -TERM -\"$1\" 2>/dev/null; i=0; \
             while kill -0 -\"$1\" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.2; i=$((i+1)); done; \
             kill -KILL -\"$1\" 2>/dev/null; rm -rf \"$2\"",
            "guard",
            &pgid,
        ])
        .arg(&dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .expect("sh starts");
    let origin = format!("http://127.0.0.1:{port}");
    let deadline = started + Duration::from_secs(90);
    while get_status(port, health) != Some(200) {
        let ended = server.try_wait().unwrap();
        assert!(
            ended.is_none() && Instant::now() < deadline,
            "{name} did not answer on {origin}{health} ({}); its log:\n{}",
            ended.map_or("not within 90 s".into(), |s| format!("it ended: {s}")),
            std::fs::read_to_string(dir.join("server.log")).unwrap_or_default()
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    STARTED.lock().unwrap().extend([server, guard]);
    eprintln!("{name} up on {origin} in {:?}", started.elapsed());
    AppServer { origin, dir }
}

/// The status of `GET path` on the loopback port, or None while nothing answers.
fn get_status(port: u16, path: &str) -> Option<u16> {
    let mut stream = TcpStream::connect(("127.0.0.1", port)).ok()?;
    stream.set_read_timeout(Some(Duration::from_secs(5))).ok()?;
    let request = format!("GET {path} HTTP/1.0\r\nHost: 127.0.0.1:{port}\r\n\r\n");
    stream.write_all(request.as_bytes()).ok()?;
    let mut head = [0u8; 12];
    stream.read_exact(&mut head).ok()?;
    std::str::from_utf8(&head[9..12]).ok()?.parse().ok()
}

/// The Streamlit app (tests/fixtures/pyapps/streamlit_app.py) served headless, without usage
/// statistics, by `streamlit run`; it appends what each run received to `dir/out.jsonl`.
pub(crate) fn streamlit() -> &'static AppServer {
    static SERVER: OnceLock<AppServer> = OnceLock::new();
    SERVER.get_or_init(|| {
        let bin = program("streamlit");
        let (dir, port) = (server_dir("streamlit"), free_port());
        let mut cmd = Command::new(bin);
        cmd.arg("run")
            .arg(fixture("streamlit_app.py"))
            .args(["--server.headless", "true"])
            .args(["--browser.gatherUsageStats", "false"])
            .args(["--server.address", "127.0.0.1"])
            .args(["--server.port", &port.to_string()])
            .args(["--server.fileWatcherType", "none"])
            .env("HOME", &dir)
            .env("APP_OUT", dir.join("out.jsonl"));
        start("streamlit", cmd, dir, port, "/_stcore/health")
    })
}

/// JupyterLab with its token, no password, and its config, data, settings and workspaces in its
/// own dir (nothing of the machine's user is read); notebooks go to `dir/notebooks`. Its kernel is
/// the venv's ipykernel. The page asks nothing of the network (no news, no update check, the
/// read-only extension manager).
pub(crate) struct Jupyter {
    pub server: AppServer,
    pub token: String,
}

impl Jupyter {
    pub(crate) fn notebooks(&self) -> PathBuf {
        self.server.dir.join("notebooks")
    }

    /// The URL that opens JupyterLab signed in.
    pub(crate) fn lab_url(&self) -> String {
        format!("{}/lab?token={}", self.server.origin, self.token)
    }
}

pub(crate) fn jupyter() -> &'static Jupyter {
    static SERVER: OnceLock<Jupyter> = OnceLock::new();
    SERVER.get_or_init(|| {
        let bin = program("jupyter-lab");
        let (dir, port) = (server_dir("jupyter"), free_port());
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .unwrap()
            .subsec_nanos();
        let token = format!("e2e{}x{nanos:x}", std::process::id());
        for sub in [
            "notebooks",
            "home",
            "config",
            "data",
            "runtime",
            "workspaces",
        ] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        let settings = dir.join("settings/@jupyterlab/apputils-extension");
        std::fs::create_dir_all(&settings).unwrap();
        std::fs::write(
            settings.join("notification.jupyterlab-settings"),
            r#"{"fetchNews": "false", "checkForUpdates": false}"#,
        )
        .unwrap();
        let mut cmd = Command::new(bin);
        cmd.args(["--no-browser", "--allow-root", "--ip", "127.0.0.1"])
            .args(["--port", &port.to_string()])
            .arg(format!("--IdentityProvider.token={token}"))
            .arg(format!(
                "--ServerApp.root_dir={}",
                dir.join("notebooks").display()
            ))
            .arg("--LabApp.extension_manager=readonly")
            .env("HOME", dir.join("home"))
            .env("JUPYTER_CONFIG_DIR", dir.join("config"))
            .env("JUPYTER_DATA_DIR", dir.join("data"))
            .env("JUPYTER_RUNTIME_DIR", dir.join("runtime"))
            .env("JUPYTER_PLATFORM_DIRS", "1")
            .env("JUPYTERLAB_SETTINGS_DIR", dir.join("settings"))
            .env("JUPYTERLAB_WORKSPACES_DIR", dir.join("workspaces"))
            .env("IPYTHONDIR", dir.join("home/.ipython"));
        let health = format!("/api/status?token={token}");
        let server = start("jupyter", cmd, dir, port, &health);
        Jupyter { server, token }
    })
}
