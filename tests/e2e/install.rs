//! `tabpilot install` and `uninstall` against a temporary home: each client's file in its own
//! format, the other servers and settings kept, the diff shown first, `--dry-run` writing
//! nothing, and an uninstall that gives the file back as it was.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::harness::{BIN, Env, run};

pub(crate) fn home(name: &str) -> PathBuf {
    let home =
        std::env::temp_dir().join(format!("tabpilot-e2e-home-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

/// Runs `tabpilot ARGS` with `home` as HOME; returns (success, stdout, stderr).
pub(crate) fn tabpilot(env: &Env, home: &Path, args: &[&str]) -> (bool, String, String) {
    let mut cmd = env.command(args);
    cmd.env("HOME", home)
        .env_remove("CODEX_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("TABPILOT_TOKEN");
    run(cmd)
}

fn this_binary() -> PathBuf {
    std::fs::canonicalize(BIN).unwrap()
}

#[test]
fn install_merges_into_a_claude_config_and_uninstall_gives_it_back_as_it_was() {
    let env = Env::fresh("install-claude");
    let home = home("claude");
    let file = home.join(".claude.json");
    let original = "{\n  \"numStartups\": 3,\n  \"mcpServers\": {\n    \"notes\": {\n      \"command\": \"notes-mcp\",\n      \"args\": []\n    }\n  },\n  \"theme\": \"dark\"\n}\n";
    std::fs::write(&file, original).unwrap();

    let (ok, out, err) = tabpilot(&env, &home, &["install", "claude", "--dry-run", "--launch"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("+    \"tabpilot\": {"),
        "the diff comes first: {out}"
    );
    assert_eq!(
        std::fs::read_to_string(&file).unwrap(),
        original,
        "dry run wrote"
    );

    let install = [
        "install",
        "claude",
        "--launch",
        "--headless",
        "--tools",
        "core",
        "--read-only",
    ];
    let (ok, out, err) = tabpilot(&env, &home, &install);
    assert!(ok, "{err}");
    assert!(out.contains("wrote "), "{out}");
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(config["numStartups"], 3);
    assert_eq!(config["theme"], "dark");
    assert_eq!(config["mcpServers"]["notes"]["command"], "notes-mcp");
    let entry = &config["mcpServers"]["tabpilot"];
    assert_eq!(entry["type"], "stdio");
    assert_eq!(
        std::fs::canonicalize(entry["command"].as_str().unwrap()).unwrap(),
        this_binary()
    );
    assert_eq!(entry["args"], json!(["mcp", "--launch", "--headless"]));
    assert_eq!(
        entry["env"],
        json!({"TABPILOT_TOOLS": "core", "TABPILOT_READ_ONLY": "1"})
    );

    // Again: the same entry, nothing to change.
    let (ok, out, _) = tabpilot(&env, &home, &install);
    assert!(ok && out.contains("nothing to change"), "{out}");

    let (ok, _, err) = tabpilot(&env, &home, &["uninstall", "claude"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), original);
}

#[test]
fn install_writes_each_clients_own_format_and_uninstall_removes_only_its_entry() {
    let env = Env::fresh("install-each");
    let home = home("each");
    let codex = home.join(".codex/config.toml");
    std::fs::create_dir_all(codex.parent().unwrap()).unwrap();
    let toml_before =
        "# mine\nmodel = \"o4\"\n\n[mcp_servers.notes]\ncommand = \"notes-mcp\" # keep\n";
    std::fs::write(&codex, toml_before).unwrap();

    for (client, path, key) in [
        ("cursor", ".cursor/mcp.json", "mcpServers"),
        ("vscode", ".config/Code/User/mcp.json", "servers"),
        ("gemini", ".gemini/settings.json", "mcpServers"),
    ] {
        let (ok, _, err) = tabpilot(&env, &home, &["install", client]);
        assert!(ok, "{client}: {err}");
        let text = std::fs::read_to_string(home.join(path)).unwrap();
        let config: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            config[key]["tabpilot"]["args"],
            json!(["mcp"]),
            "{client}: {text}"
        );
        let (ok, _, err) = tabpilot(&env, &home, &["uninstall", client]);
        assert!(ok, "{client}: {err}");
        assert!(
            !home.join(path).exists(),
            "{client}: the file tabpilot made stays"
        );
    }

    let (ok, _, err) = tabpilot(&env, &home, &["install", "codex", "--launch"]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&codex).unwrap();
    let doc: toml_edit::DocumentMut = text.parse().expect("Codex's file is still TOML");
    assert_eq!(doc["model"].as_str(), Some("o4"));
    assert_eq!(
        doc["mcp_servers"]["notes"]["command"].as_str(),
        Some("notes-mcp")
    );
    let args: Vec<&str> = doc["mcp_servers"]["tabpilot"]["args"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap())
        .collect();
    assert_eq!(args, ["mcp", "--launch"]);
    let (ok, _, err) = tabpilot(&env, &home, &["uninstall", "codex"]);
    assert!(ok, "{err}");
    assert_eq!(std::fs::read_to_string(&codex).unwrap(), toml_before);
}

#[test]
fn an_http_entry_refers_to_the_token_and_refuses_the_servers_own_flags() {
    let env = Env::fresh("install-http");
    let home = home("http");
    // A port nothing listens on (tests/e2e/http_token.rs: the default one, and a squatter).
    let url = "http://127.0.0.1:1/mcp";
    let (ok, _, err) = tabpilot(&env, &home, &["install", "cursor", "--http", url]);
    assert!(ok, "{err}");
    let token = std::fs::read_to_string(env.state_dir.join("http-token")).unwrap();
    let text = std::fs::read_to_string(home.join(".cursor/mcp.json")).unwrap();
    assert!(!text.contains(token.trim()), "{text}");
    let config: Value = serde_json::from_str(&text).unwrap();
    let entry = &config["mcpServers"]["tabpilot"];
    assert_eq!(entry["url"], url);
    assert_eq!(
        entry["headers"]["Authorization"],
        "Bearer ${env:TABPILOT_TOKEN}"
    );
    let (ok, _, err) = tabpilot(&env, &home, &["install", "claude", "--http", "--read-only"]);
    assert!(!ok);
    assert!(err.contains("tabpilot mcp --http"), "{err}");
    assert!(!home.join(".claude.json").exists());
}
