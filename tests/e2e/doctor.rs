//! `tabpilot doctor` against private environments and home directories: all well with the shared
//! browser, a state dir open to the group, a client whose tabpilot command is gone.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{BIN, Env, in_project, mode, run, shared};

/// An empty home directory for this test.
fn home(name: &str) -> PathBuf {
    let home =
        std::env::temp_dir().join(format!("tabpilot-e2e-{}-home-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// `tabpilot ARGS` under `env` with `home` as the home directory.
fn command(env: &Env, home: &Path, args: &[&str]) -> Command {
    let mut cmd = env.command(args);
    in_project(&mut cmd, home, home);
    cmd
}

/// The doctor's line for a check, by its name.
fn line<'a>(out: &'a str, name: &str) -> &'a str {
    out.lines()
        .find(|l| l[5..].trim_start().starts_with(&format!("{name}:")))
        .unwrap_or_else(|| panic!("no {name} line in:\n{out}"))
}

#[test]
fn doctor_passes_with_the_shared_browser_a_client_on_this_binary_and_the_skill() {
    let shared = shared();
    let home = home("well");
    let config = serde_json::json!({
        "mcpServers": { "tabpilot": { "command": BIN, "args": ["mcp"] } }
    });
    std::fs::write(home.join(".claude.json"), config.to_string()).unwrap();
    let (ok, _, err) = run(command(&shared.env, &home, &["skill", "install"]));
    assert!(ok, "{err}");
    let (ok, out, err) = run(command(&shared.env, &home, &["doctor"]));
    assert!(ok, "doctor failed:\n{out}{err}");
    let version = env!("CARGO_PKG_VERSION");
    assert!(line(&out, "chromium").starts_with("ok "), "{out}");
    assert!(line(&out, "state dir").starts_with("ok "), "{out}");
    assert!(line(&out, "relay secret").starts_with("ok "), "{out}");
    let relay = line(&out, "relay");
    assert!(
        relay.starts_with(&format!("ok    relay: tabpilot {version} on port ")),
        "{out}"
    );
    let browser = out
        .lines()
        .find(|l| l.starts_with("ok    browser "))
        .unwrap_or_else(|| panic!("no connected browser in:\n{out}"));
    assert!(
        browser.ends_with(&format!("paired and connected, extension {version}")),
        "{out}"
    );
    assert!(
        line(&out, "claude").starts_with("ok    claude: starts this tabpilot"),
        "{out}"
    );
    assert!(line(&out, "skill").starts_with("ok "), "{out}");
    assert!(!out.contains("FAIL"), "{out}");
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn doctor_reports_a_state_dir_open_to_the_group_with_its_chmod_and_changes_nothing() {
    let env = Env::fresh("doctor-perm");
    let home = home("perm");
    std::fs::create_dir_all(&env.state_dir).unwrap();
    std::fs::set_permissions(&env.state_dir, std::fs::Permissions::from_mode(0o770)).unwrap();
    let secret = env.state_dir.join("secret");
    std::fs::write(&secret, "ab".repeat(32)).unwrap();
    std::fs::set_permissions(&secret, std::fs::Permissions::from_mode(0o644)).unwrap();
    // Something of ours, not a relay, holds the first port of the range.
    let squatter = std::net::TcpListener::bind(("127.0.0.1", env.first_port)).unwrap();
    let (ok, out, err) = run(command(&env, &home, &["doctor"]));
    drop(squatter);
    assert!(!ok, "doctor passed:\n{out}{err}");
    let dir = env.state_dir.display();
    assert_eq!(
        line(&out, "state dir"),
        format!(
            "FAIL  state dir: {dir} is open to group or others (mode 770); fix: chmod 700 {dir}"
        ),
        "{out}"
    );
    assert_eq!(
        line(&out, "relay secret"),
        format!(
            "FAIL  relay secret: {dir}/secret is open to group or others (mode 644); \
             fix: chmod 600 {dir}/secret"
        ),
        "{out}"
    );
    assert!(
        line(&out, "relay").starts_with("--    relay: none running"),
        "{out}"
    );
    assert!(
        line(&out, &format!("port {}", env.first_port))
            .contains("answers but is not this state dir's relay"),
        "{out}"
    );
    // A look, not a repair, and no relay started.
    assert_eq!(mode(&env.state_dir), 0o770);
    assert_eq!(mode(&secret), 0o644);
    assert!(!env.state_dir.join("relay.log").exists());
    std::fs::remove_dir_all(&env.state_dir).unwrap();
    std::fs::remove_dir_all(&home).unwrap();
}

#[test]
fn doctor_reports_a_client_whose_tabpilot_command_is_gone() {
    let env = Env::fresh("doctor-client");
    let home = home("client");
    std::fs::create_dir_all(home.join(".cursor")).unwrap();
    let cursor = serde_json::json!({ "mcpServers": {
        "other": { "command": "other-server" },
        "tabpilot": { "command": "/nonexistent/tabpilot", "args": ["mcp"] }
    }});
    std::fs::write(home.join(".cursor/mcp.json"), cursor.to_string()).unwrap();
    std::fs::create_dir_all(home.join(".codex")).unwrap();
    let codex = format!("[mcp_servers.tabpilot]\ncommand = {BIN:?}\nargs = [\"mcp\"]\n");
    std::fs::write(home.join(".codex/config.toml"), codex).unwrap();
    let (ok, out, err) = run(command(&env, &home, &["doctor"]));
    assert!(!ok, "doctor passed:\n{out}{err}");
    assert_eq!(
        line(&out, "cursor"),
        format!(
            "FAIL  cursor: {}/.cursor/mcp.json starts tabpilot as /nonexistent/tabpilot, which is \
             not an executable; fix: `tabpilot install cursor`",
            home.display()
        ),
        "{out}"
    );
    assert!(
        line(&out, "codex").starts_with("ok    codex: starts this tabpilot"),
        "{out}"
    );
    assert!(
        line(&out, "claude").starts_with("--    claude: no "),
        "{out}"
    );
    // Some client lists tabpilot, so there is no "none of them" failure.
    assert!(!out.contains("mcp clients:"), "{out}");
    std::fs::remove_dir_all(&home).unwrap();
    let _ = std::fs::remove_dir_all(&env.state_dir);
}
