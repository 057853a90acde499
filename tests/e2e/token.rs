//! Issue 28, finding 15: the token of `mcp --http` was printed at start (stdout often goes to a
//! log file others can read), never rotated, taken at 16 characters with no limit on guesses;
//! `--http 0.0.0.0` served plain HTTP past loopback without a word; `TABPILOT_AUDIT_FILE`
//! followed a symbolic link. Each replayed here as it was found.

use std::io::Write;
use std::os::unix::process::CommandExt;
use std::process::{Command, Stdio};

use crate::harness::Env;
use crate::http::{HttpServer, initialize};

/// Runs `cmd` expecting it to stop with an error at start; a server that starts instead is
/// stopped after a few seconds. Returns whether it stopped of itself with an error, and stderr.
fn refused(mut cmd: Command) -> (bool, String) {
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    let failed = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break !status.success();
        }
        if started.elapsed() > std::time::Duration::from_secs(5) {
            let _ = child.kill();
            break false;
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let out = child.wait_with_output().unwrap();
    (failed, String::from_utf8_lossy(&out.stderr).into_owned())
}

/// The status of an `initialize` sent with `token`.
fn status_with(server: &HttpServer, token: &str) -> u16 {
    let auth = format!("Bearer {token}");
    server.post(&[("Authorization", &auth)], &initialize(1)).0
}

#[test]
fn the_token_is_never_printed_and_a_rotation_reaches_the_running_server() {
    let env = Env::fresh("token-rotate");
    let server = HttpServer::start_in(&env, |_| {});
    let file = env.state_dir.join("http-token");
    assert!(
        !server.said.contains(&server.token),
        "the token printed at start: {}",
        server.said
    );
    assert!(
        server.said.contains(&file.display().to_string()),
        "where the token lives: {}",
        server.said
    );
    assert_eq!(status_with(&server, &server.token), 200);

    let (ok, out, err) = env.cli(&["token", "rotate"]);
    assert!(ok, "{err}");
    assert!(
        out.contains(&format!("a new token is in {}", file.display())),
        "{out}"
    );
    assert!(err.contains("refuse the old token"), "{err}");
    let rotated = std::fs::read_to_string(&file).unwrap().trim().to_string();
    assert_ne!(rotated, server.token);
    assert!(
        !out.contains(&rotated) && !err.contains(&rotated),
        "{out}{err}"
    );

    // The running server refuses the old one from its next request, and takes the new one.
    assert_eq!(status_with(&server, &server.token), 401, "the old token");
    assert_eq!(status_with(&server, &rotated), 200, "the new token");
}

#[test]
fn a_short_token_setting_is_refused_naming_it() {
    let env = Env::fresh("token-short");
    let mut cmd = env.command(&["mcp", "--http", "127.0.0.1:0"]);
    cmd.env("TABPILOT_TOKEN", "0123456789abcdef");
    let (failed, err) = refused(cmd);
    assert!(failed, "a 16-character token was taken: {err}");
    assert!(
        err.contains("TABPILOT_TOKEN is 16 characters") && err.contains("at least 32"),
        "{err}"
    );
}

#[test]
fn serving_plain_http_past_loopback_takes_the_persons_word_and_says_so() {
    let env = Env::fresh("token-remote");
    let (failed, err) = refused(env.command(&["mcp", "--http", "0.0.0.0:0"]));
    assert!(failed, "served past loopback without a word: {err}");
    assert!(
        err.contains("past loopback") && err.contains("--allow-plain-http"),
        "{err}"
    );

    let mut child = env
        .command(&["mcp", "--http", "0.0.0.0:0", "--allow-plain-http"])
        .env_remove("TABPILOT_TOKEN")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut said = String::new();
    std::io::BufRead::read_line(
        &mut std::io::BufReader::new(child.stdout.take().unwrap()),
        &mut said,
    )
    .unwrap();
    let _ = child.kill();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("http://0.0.0.0:"), "{said}");
    assert!(
        err.contains("WARNING: serving plain HTTP") && err.contains("in clear"),
        "{err}"
    );
}

/// One request sent to `port` by another local user (`nobody`), through bash's /dev/tcp; the
/// answer's status. None when this test is not root and cannot act as another user.
fn as_nobody(port: u16, request: &str) -> Option<u16> {
    // SAFETY: getuid has no preconditions and cannot fail.
    if unsafe { libc::getuid() } != 0 {
        return None;
    }
    let mut child = Command::new("bash")
        .args([
            "-c",
            "exec 3<>/dev/tcp/127.0.0.1/$0 && cat >&3 && head -n 1 <&3",
            &port.to_string(),
        ])
        .uid(65534)
        .gid(65534)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(request.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    let line = String::from_utf8_lossy(&out.stdout).to_string();
    Some(
        line.split(' ')
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("an HTTP answer: {line:?}")),
    )
}

#[test]
fn another_users_wrong_guess_holds_it_back_and_never_the_person() {
    let env = Env::fresh("token-guess");
    let server = HttpServer::start_in(&env, |_| {});
    let port: u16 = server.addr.rsplit(':').next().unwrap().parse().unwrap();
    let body = initialize(1).to_string();
    let request = |token: &str| {
        format!(
            "POST /mcp HTTP/1.0\r\nHost: {}\r\nAuthorization: Bearer {token}\r\n\
             Content-Type: application/json\r\nAccept: application/json, text/event-stream\r\n\
             Content-Length: {}\r\n\r\n{body}",
            server.addr,
            body.len()
        )
    };
    let wrong = "f".repeat(64);
    let Some(first) = as_nobody(port, &request(&wrong)) else {
        eprintln!("not root: no other user to guess as");
        return;
    };
    assert_eq!(first, 401, "a wrong guess");
    // Right after it, what that user sends is not looked at, the right token included: guessing
    // on many connections at once and taking silence for "wrong" gains nothing.
    assert_eq!(
        as_nobody(port, &request(&server.token)),
        Some(429),
        "a guess right after a wrong one was looked at"
    );
    // The person's own requests are never held back, not even after a wrong token of theirs.
    assert_eq!(status_with(&server, &server.token), 200);
    assert_eq!(status_with(&server, &wrong), 401);
    assert_eq!(status_with(&server, &server.token), 200);
}

#[test]
fn an_audit_file_that_is_a_symbolic_link_stops_the_server_and_its_target_is_untouched() {
    let env = Env::fresh("token-audit-link");
    let dir = std::env::temp_dir().join(format!("tabpilot-e2e-{}-audit-link", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let target = dir.join("bashrc");
    std::fs::write(&target, "# the person's file\n").unwrap();
    let link = dir.join("audit.jsonl");
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let mut cmd = env.command(&["browser_status"]);
    cmd.env("TABPILOT_AUDIT_FILE", &link);
    let (failed, err) = refused(cmd);
    assert!(
        failed,
        "the call went on with the trail through a link: {err}"
    );
    assert!(
        err.contains("is a symbolic link") && err.contains("TABPILOT_AUDIT_FILE"),
        "{err}"
    );
    assert_eq!(
        std::fs::read_to_string(&target).unwrap(),
        "# the person's file\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
