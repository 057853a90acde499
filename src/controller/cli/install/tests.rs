//! install and uninstall on config texts: each format kept, each client's HTTP shape.

use serde_json::{Value, json};

use super::*;

fn stdio() -> Entry {
    Entry::Stdio {
        command: "/bin/tabpilot".into(),
        args: vec!["mcp".into(), "--launch".into()],
        env: vec![("TABPILOT_TOOLS".into(), "core".into())],
    }
}

#[test]
fn json_keeps_the_other_keys_and_servers_in_order_and_uninstall_gives_the_text_back() {
    let old = "{\n  \"zeta\": 1,\n  \"mcpServers\": {\n    \"other\": {\n      \"command\": \"x\"\n    }\n  },\n  \"alpha\": [\n    1,\n    2\n  ]\n}\n";
    let new = edited(Client::Claude, old, Some(&stdio())).unwrap();
    let v: Value = serde_json::from_str(&new).unwrap();
    assert_eq!(v["mcpServers"]["other"]["command"], "x");
    assert_eq!(v["mcpServers"]["tabpilot"]["type"], "stdio");
    assert_eq!(
        v["mcpServers"]["tabpilot"]["args"],
        json!(["mcp", "--launch"])
    );
    assert_eq!(v["mcpServers"]["tabpilot"]["env"]["TABPILOT_TOOLS"], "core");
    let z = new.find("zeta").unwrap();
    assert!(z < new.find("mcpServers").unwrap() && new.find("alpha").unwrap() > z);
    assert_eq!(edited(Client::Claude, &new, None).unwrap(), old);
}

#[test]
fn a_file_tabpilot_made_goes_with_its_entry_and_a_missing_entry_changes_nothing() {
    let new = edited(Client::Cursor, "", Some(&stdio())).unwrap();
    assert!(new.contains("\"mcpServers\""), "{new}");
    assert_eq!(edited(Client::Cursor, &new, None).unwrap(), "");
    let other = "{\"mcpServers\": {\"other\": {}}}";
    assert_eq!(edited(Client::Cursor, other, None).unwrap(), other);
    assert!(edited(Client::Cursor, "[1]", Some(&stdio())).is_err());
}

#[test]
fn each_client_gets_its_own_shape_for_http() {
    let http = Entry::Http {
        url: "http://127.0.0.1:47320/mcp".into(),
        token: None,
    };
    let vs: Value =
        serde_json::from_str(&edited(Client::Vscode, "", Some(&http)).unwrap()).unwrap();
    assert_eq!(vs["servers"]["tabpilot"]["type"], "http");
    assert_eq!(
        vs["servers"]["tabpilot"]["headers"]["Authorization"],
        "Bearer ${env:TABPILOT_TOKEN}"
    );
    let literal = Entry::Http {
        url: "http://127.0.0.1:47320/mcp".into(),
        token: Some("t0k3n".into()),
    };
    for client in Client::ALL {
        let made = edited(client, "", Some(&literal)).unwrap();
        assert_eq!(
            literal_token(client, &made).as_deref(),
            Some("t0k3n"),
            "{made}"
        );
        let referred = edited(client, "", Some(&http)).unwrap();
        assert!(!referred.contains("t0k3n"), "{referred}");
        assert_eq!(literal_token(client, &referred), None, "{referred}");
    }
    let gem: Value =
        serde_json::from_str(&edited(Client::Gemini, "", Some(&http)).unwrap()).unwrap();
    assert_eq!(
        gem["mcpServers"]["tabpilot"]["httpUrl"],
        "http://127.0.0.1:47320/mcp"
    );
    let codex = edited(Client::Codex, "", Some(&http)).unwrap();
    let doc: toml_edit::DocumentMut = codex.parse().unwrap();
    assert_eq!(
        doc["mcp_servers"]["tabpilot"]["bearer_token_env_var"].as_str(),
        Some("TABPILOT_TOKEN")
    );
}

#[test]
fn what_a_config_lists_is_read_back_in_each_format() {
    for client in Client::ALL {
        let made = edited(client, "", Some(&stdio())).unwrap();
        assert_eq!(
            listed(client, &made).unwrap(),
            Some(Listed::Command("/bin/tabpilot".into())),
            "{}",
            client.name()
        );
        let http = Entry::Http {
            url: "http://h/mcp".into(),
            token: None,
        };
        let made = edited(client, "", Some(&http)).unwrap();
        assert_eq!(
            listed(client, &made).unwrap(),
            Some(Listed::Url("http://h/mcp".into())),
            "{}",
            client.name()
        );
    }
    let other = r#"{"mcpServers": {"other": {"command": "tabpilot"}}}"#;
    assert_eq!(listed(Client::Claude, other).unwrap(), None);
    assert!(listed(Client::Claude, "{").is_err());
    let literal = "[mcp_servers.\"tabpilot\"]\ncommand = '/a\\b'\n";
    assert_eq!(
        listed(Client::Codex, literal).unwrap(),
        Some(Listed::Command("/a\\b".into()))
    );
    let empty = "[mcp_servers.tabpilot]\n[mcp_servers.other]\ncommand = \"x\"\n";
    assert_eq!(
        listed(Client::Codex, empty).unwrap(),
        Some(Listed::Command(String::new()))
    );
}

#[test]
fn toml_keeps_comments_and_other_servers_and_uninstall_gives_the_text_back() {
    let old = "# my settings\nmodel = \"o4\"\n\n[mcp_servers.other]\ncommand = \"x\" # keep me\n";
    let new = edited(Client::Codex, old, Some(&stdio())).unwrap();
    assert!(new.starts_with(old), "{new}");
    let doc: toml_edit::DocumentMut = new.parse().unwrap();
    assert_eq!(
        doc["mcp_servers"]["tabpilot"]["command"].as_str(),
        Some("/bin/tabpilot")
    );
    assert_eq!(
        doc["mcp_servers"]["tabpilot"]["env"]["TABPILOT_TOOLS"].as_str(),
        Some("core")
    );
    assert_eq!(edited(Client::Codex, &new, None).unwrap(), old);
    let alone = edited(Client::Codex, "", Some(&stdio())).unwrap();
    assert!(alone.starts_with("[mcp_servers.tabpilot]"), "{alone}");
    assert_eq!(edited(Client::Codex, &alone, None).unwrap(), "");
}

#[test]
fn a_json_key_given_twice_is_refused_with_the_lines_of_both() {
    let top = "{\n  \"a\": 1,\n  \"mcpServers\": {},\n  \"a\"\n    :\n    2\n}";
    let err = edited(Client::Claude, top, Some(&stdio()))
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("the file gives the key \"a\" twice (lines 2 and 4)"),
        "{err}"
    );
    // The same key, one of them written with an escape.
    let servers = "{\"servers\": {\n\"x\": 1, \"tab\\u0070ilot\": {},\n\n \"tabpilot\": {}}}";
    for entry in [Some(&stdio()), None] {
        let err = edited(Client::Vscode, servers, entry)
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("\"servers\" gives the key \"tabpilot\" twice (lines 2 and 4)"),
            "{err}"
        );
    }
    // Inside a value tabpilot does not touch, the text is carried over as it was.
    let inner = "{\"mcpServers\": {\"notes\": {\"command\": \"a\", \"command\": \"b\"}}}";
    let new = edited(Client::Claude, inner, Some(&stdio())).unwrap();
    assert!(
        new.contains("{\"command\": \"a\", \"command\": \"b\"}"),
        "{new}"
    );
}

#[test]
fn a_toml_key_given_twice_is_refused_with_its_line_on_install_and_uninstall() {
    let twice = "model = \"o4\"\n[mcp_servers.tabpilot]\ncommand = \"a\"\n[mcp_servers.tabpilot]\ncommand = \"b\"\n";
    for entry in [Some(&stdio()), None] {
        let err = edited(Client::Codex, twice, entry).unwrap_err().to_string();
        assert!(
            err.contains("line 4, column 14: duplicate key (tabpilot)"),
            "{err}"
        );
        assert!(err.contains("nothing was written"), "{err}");
    }
    let err = edited(Client::Codex, "a = 1\n  a = 2\n", None)
        .unwrap_err()
        .to_string();
    assert!(err.contains("line 2, column 3: duplicate key (a)"), "{err}");
}

/// Each client's config where the client keeps it on Windows: the dot-files in the profile
/// folder, VS Code's in the roaming AppData folder.
#[cfg(windows)]
#[test]
fn each_client_s_config_is_at_its_windows_path() {
    let home = crate::shared::platform::dirs::home().expect("a profile folder");
    let path = |c| config_path(c, &home);
    assert_eq!(path(Client::Claude), home.join(".claude.json"));
    assert_eq!(path(Client::Cursor), home.join(r".cursor\mcp.json"));
    assert_eq!(path(Client::Gemini), home.join(r".gemini\settings.json"));
    if std::env::var_os("CODEX_HOME").is_none() {
        assert_eq!(path(Client::Codex), home.join(r".codex\config.toml"));
    }
    let desktop = path(Client::ClaudeDesktop);
    assert!(
        desktop.ends_with(r"AppData\Roaming\Claude\claude_desktop_config.json"),
        "{}",
        desktop.display()
    );
    let vscode = path(Client::Vscode);
    assert!(
        vscode.ends_with(r"AppData\Roaming\Code\User\mcp.json"),
        "{}",
        vscode.display()
    );
}

/// Claude Desktop keeps its config in the platform's settings folder, as a plain command entry.
#[test]
fn claude_desktop_is_a_command_in_its_settings_folder() {
    let home = Path::new("/home/u");
    assert_eq!(
        config_path(Client::ClaudeDesktop, home),
        crate::shared::platform::dirs::config_home(home)
            .join("Claude")
            .join("claude_desktop_config.json")
    );
    let made: Value =
        serde_json::from_str(&edited(Client::ClaudeDesktop, "", Some(&stdio())).unwrap()).unwrap();
    assert_eq!(
        made,
        json!({"mcpServers": {"tabpilot": {
            "command": "/bin/tabpilot",
            "args": ["mcp", "--launch"],
            "env": {"TABPILOT_TOOLS": "core"}
        }}})
    );
}
