//! Issue 28, findings 2 and 3, replayed as another local user would work them. A client's config
//! (made 0644, as clients make them) that `tabpilot install --http` wrote gives another user no
//! token, and `tabpilot doctor` fails when a config holding it is loosened again; a program on
//! the default port gets nothing usable: `tabpilot mcp --http` refuses to start, naming it,
//! rather than moving elsewhere, and `install --http` and `doctor` refuse to send a client there.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::harness::{Env, Kill, in_project, run};

fn home(name: &str) -> PathBuf {
    let home =
        std::env::temp_dir().join(format!("tabpilot-e2e-{}-home-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o755)).unwrap();
    home
}

/// `tabpilot ARGS` with `home` as HOME and no token in the environment.
fn command(env: &Env, home: &Path, args: &[&str]) -> Command {
    let mut cmd = env.command(args);
    in_project(&mut cmd, home, home);
    cmd.env_remove("XDG_CONFIG_HOME")
        .env_remove("TABPILOT_TOKEN");
    cmd
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn chmod(path: &Path, mode: u32) {
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

/// Whether `nobody` (another local user) can read `path`; none when this test is not root and
/// cannot act as another user.
fn nobody_reads(path: &Path) -> Option<bool> {
    // SAFETY: getuid has no preconditions and cannot fail.
    if unsafe { libc::getuid() } != 0 {
        return None;
    }
    let out = Command::new("cat")
        .arg(path)
        .uid(65534)
        .gid(65534)
        .stderr(Stdio::null())
        .output()
        .unwrap();
    Some(out.status.success())
}

/// The doctor's line for a check, by its name.
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| {
            l.get(5..)
                .is_some_and(|r| r.trim_start().starts_with(&format!("{name}:")))
        })
        .unwrap_or_else(|| panic!("no {name} line in:\n{out}"))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

#[test]
fn a_config_install_http_wrote_gives_another_local_user_no_token() {
    let env = Env::fresh("token-file");
    let home = home("token-file");
    let url = format!("http://127.0.0.1:{}/mcp", free_port());

    // Cursor's config, 0644 as the client made it: the entry refers to the token, holds none.
    let cursor = home.join(".cursor/mcp.json");
    std::fs::create_dir_all(cursor.parent().unwrap()).unwrap();
    std::fs::write(
        &cursor,
        "{\"mcpServers\": {\"notes\": {\"command\": \"n\"}}}\n",
    )
    .unwrap();
    chmod(&cursor, 0o644);
    let (ok, out, err) = run(command(&env, &home, &["install", "cursor", "--http", &url]));
    assert!(ok, "{err}");
    let token = std::fs::read_to_string(env.state_dir.join("http-token")).unwrap();
    let text = std::fs::read_to_string(&cursor).unwrap();
    assert!(
        !text.contains(token.trim()) && !out.contains(token.trim()),
        "{text}{out}"
    );
    let config: Value = serde_json::from_str(&text).unwrap();
    let entry = &config["mcpServers"]["tabpilot"];
    assert_eq!(entry["url"], url.as_str());
    assert_eq!(
        entry["headers"]["Authorization"],
        "Bearer ${env:TABPILOT_TOKEN}"
    );
    assert!(out.contains("export TABPILOT_TOKEN=\"$(cat "), "{out}");

    // The token itself, on request: the file is made owner-only, and the output says so.
    let claude = home.join(".claude.json");
    std::fs::write(&claude, "{\"numStartups\": 3}\n").unwrap();
    chmod(&claude, 0o644);
    assert_ne!(
        nobody_reads(&claude),
        Some(false),
        "the test's other user reads a 0644 file"
    );
    let args = ["install", "claude", "--http", &url, "--token-in-config"];
    let (ok, out, err) = run(command(&env, &home, &args));
    assert!(ok, "{err}");
    assert!(
        std::fs::read_to_string(&claude)
            .unwrap()
            .contains(token.trim())
    );
    assert_eq!(mode(&claude), 0o600, "{out}");
    assert!(out.contains("owner-only (0600, it was 644)"), "{out}");
    assert!(
        !out.contains(token.trim()),
        "the diff shows the token: {out}"
    );
    assert_ne!(
        nobody_reads(&claude),
        Some(true),
        "another user reads the token"
    );

    doctor_fails_on_a_loosened_config(&env, &home, &claude, token.trim());
    let _ = std::fs::remove_dir_all(&home);
}

/// The config holding the token, loosened again: the doctor fails on it and names the fix, and
/// is content once it is 0600.
fn doctor_fails_on_a_loosened_config(env: &Env, home: &Path, claude: &Path, token: &str) {
    chmod(claude, 0o644);
    let (ok, out, _) = run(command(env, home, &["doctor"]));
    assert!(!ok, "{out}");
    let exposed = line(&out, "claude token");
    assert!(
        exposed.starts_with("FAIL") && exposed.contains("mode 644"),
        "{out}"
    );
    assert!(exposed.contains("chmod 600"), "{out}");
    assert!(!out.contains(token), "{out}");
    chmod(claude, 0o600);
    let (_, out, _) = run(command(env, home, &["doctor"]));
    assert!(line(&out, "claude token").starts_with("ok "), "{out}");
    assert!(
        !out.contains("cursor token"),
        "cursor's file holds no token: {out}"
    );
}

/// A program on a port that keeps everything it is sent, answering each request with nothing
/// of tabpilot's.
struct Squatter {
    got: Arc<Mutex<Vec<String>>>,
    stop: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Squatter {
    fn on(port: u16) -> Squatter {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .unwrap_or_else(|e| panic!("the test needs 127.0.0.1:{port} free: {e}"));
        listener.set_nonblocking(true).unwrap();
        let (got, stop) = (
            Arc::new(Mutex::new(Vec::new())),
            Arc::new(AtomicBool::new(false)),
        );
        let (kept, stopped) = (got.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            while !stopped.load(Ordering::SeqCst) {
                let Ok((mut s, _)) = listener.accept() else {
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                };
                s.set_nonblocking(false).unwrap();
                s.set_read_timeout(Some(Duration::from_millis(500)))
                    .unwrap();
                let mut bytes = vec![0u8; 8192];
                let n = s.read(&mut bytes).unwrap_or(0);
                kept.lock()
                    .unwrap()
                    .push(String::from_utf8_lossy(&bytes[..n]).into());
                let _ = s.write_all(b"HTTP/1.0 200 OK\r\n\r\nwelcome");
            }
        });
        Squatter {
            got,
            stop,
            thread: Some(thread),
        }
    }

    /// Stops listening; what it was sent.
    fn finish(mut self) -> Vec<String> {
        self.stop.store(true, Ordering::SeqCst);
        self.thread.take().unwrap().join().unwrap();
        self.got.lock().unwrap().clone()
    }
}

/// `tabpilot mcp --http ...` to its end, or killed after 15 s (it served instead of refusing).
fn serve_to_end(mut cmd: Command) -> (bool, String) {
    let mut child = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let began = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if began.elapsed() > Duration::from_secs(15) {
            let _ = child.kill();
            let _ = child.wait();
            return (true, "it kept serving".into());
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    let mut err = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    (child.wait().unwrap().success(), err)
}

#[test]
fn a_program_on_the_default_port_gets_nothing_usable() {
    let env = Env::fresh("squatter");
    let home = home("squatter");
    // The default port is the setting's, here a free one of this test's (47320 may be held by a
    // person's own server): the commands below are given no address, as a person's are.
    let port = free_port();
    let squatter = Squatter::on(port);
    let command = |env: &Env, home: &Path, args: &[&str]| {
        let mut cmd = command(env, home, args);
        cmd.env("TABPILOT_HTTP_PORT", port.to_string());
        cmd
    };

    // The server refuses to start, naming who holds its port, rather than moving to another.
    let (ok, err) = serve_to_end(command(&env, &home, &["mcp", "--http"]));
    assert!(!ok, "mcp --http started beside the squatter: {err}");
    let holder = format!(
        "127.0.0.1:{port} is taken by process {}",
        std::process::id()
    );
    assert!(err.contains(&holder), "{err}");

    // install --http will not point a client at it, nor will the doctor pass a client that is.
    let (ok, _, err) = run(command(&env, &home, &["install", "cursor", "--http"]));
    assert!(!ok, "install wrote a config for the squatter");
    assert!(
        err.contains(&format!("127.0.0.1:{port}/mcp is held by process")),
        "{err}"
    );
    assert!(
        err.contains("cannot prove it holds tabpilot's token"),
        "{err}"
    );
    assert!(!home.join(".cursor/mcp.json").exists());
    let gemini = home.join(".gemini/settings.json");
    std::fs::create_dir_all(gemini.parent().unwrap()).unwrap();
    let config = format!(
        r#"{{"mcpServers": {{"tabpilot": {{"httpUrl": "http://127.0.0.1:{port}/mcp",
        "headers": {{"Authorization": "Bearer ${{TABPILOT_TOKEN}}"}}}}}}}}"#
    );
    std::fs::write(&gemini, config).unwrap();
    let (ok, out, _) = run(command(&env, &home, &["doctor"]));
    assert!(!ok, "{out}");
    let found = line(&out, "gemini");
    assert!(
        found.starts_with("FAIL") && found.contains("cannot prove"),
        "{out}"
    );

    // All the squatter was sent: requests for a proof, with a nonce and no token.
    let token = std::fs::read_to_string(env.state_dir.join("http-token")).unwrap();
    let got = squatter.finish();
    assert!(!got.is_empty());
    for request in &got {
        assert!(
            request.starts_with("GET /tabpilot/proof?nonce="),
            "{request}"
        );
        assert!(!request.contains(token.trim()) && !request.contains("Authorization"));
    }

    // An explicit address still serves, and install gives a client the URL of the server
    // that is running, found by its proof.
    let server = command(&env, &home, &["mcp", "--http", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut server = Kill(server);
    // Kept open to the end: the server prints more after its first line.
    let mut printed = BufReader::new(server.0.stdout.take().unwrap());
    let mut first = String::new();
    printed.read_line(&mut first).unwrap();
    let url = first.trim().rsplit(' ').next().unwrap().to_string();
    assert!(
        url.starts_with("http://127.0.0.1:") && url.ends_with("/mcp"),
        "{first}"
    );
    let (ok, out, err) = run(command(&env, &home, &["install", "claude", "--http"]));
    assert!(ok, "{err}");
    assert!(out.contains("answers there with this token"), "{out}");
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".claude.json")).unwrap()).unwrap();
    assert_eq!(config["mcpServers"]["tabpilot"]["url"], url.as_str());
    drop(server);
    drop(printed);
    let _ = std::fs::remove_dir_all(&home);
}
