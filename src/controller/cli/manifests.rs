//! The one-line installs' manifests say what this build is: server.json (the MCP registry),
//! gemini-extension.json (a Gemini CLI extension) and .claude-plugin/ (a Claude Code plugin and
//! its marketplace) carry Cargo.toml's name and version, run a command line this binary takes as
//! `tabpilot mcp` on stdio, name only settings the code reads, and agree on the one repository.
//! Each client's own validator runs on them in tests/e2e/manifests.rs.

use clap::{CommandFactory, Parser};
use serde_json::Value;

use super::{Cli, Command};
use crate::shared::settings::{Setting, Use};

const NAME: &str = env!("CARGO_PKG_NAME");
const VERSION: &str = env!("CARGO_PKG_VERSION");

fn repo_file(path: &str) -> String {
    let full = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path);
    std::fs::read_to_string(&full).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn manifest(path: &str) -> Value {
    serde_json::from_str(&repo_file(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn text<'a>(value: &'a Value, path: &str, pointer: &str) -> &'a str {
    value
        .pointer(pointer)
        .and_then(Value::as_str)
        .unwrap_or_else(|| panic!("{path}: no string at {pointer}"))
}

/// Why `command args...` is not this binary serving MCP on stdio, if it is not.
fn not_stdio_server(command: &str, args: &[String]) -> Option<String> {
    let binary = Cli::command().get_name().to_string();
    if command != binary || binary != NAME {
        return Some(format!(
            "runs {command:?}, not the binary {binary:?} (Cargo.toml: {NAME:?})"
        ));
    }
    let argv = std::iter::once(command.to_string()).chain(args.iter().cloned());
    match Cli::try_parse_from(argv) {
        Ok(Cli {
            command: Command::Mcp { http: None, .. },
            remote: None,
        }) => None,
        Ok(_) => Some(format!("{args:?} is not `mcp` on stdio")),
        Err(e) => Some(format!("{args:?} is refused: {e}")),
    }
}

fn strings(value: &Value, path: &str, pointer: &str) -> Vec<String> {
    value
        .pointer(pointer)
        .and_then(Value::as_array)
        .unwrap_or_else(|| panic!("{path}: no list at {pointer}"))
        .iter()
        .map(|a| a.as_str().expect("a string").to_string())
        .collect()
}

/// A client config's `mcpServers.tabpilot`: this binary on stdio.
fn assert_server_entry(value: &Value, path: &str) {
    let command = text(value, path, "/mcpServers/tabpilot/command");
    let args = strings(value, path, "/mcpServers/tabpilot/args");
    if let Some(why) = not_stdio_server(command, &args) {
        panic!("{path}: mcpServers.tabpilot {why}");
    }
}

/// The command line a registry package runs: the crate's binary (`cargo install` puts it on
/// PATH under the crate's name), then each argument as the registry's clients build it.
fn package_argv(package: &Value) -> Vec<String> {
    let mut argv = Vec::new();
    for arg in package["packageArguments"].as_array().into_iter().flatten() {
        match arg["type"].as_str() {
            Some("positional") => argv.push(
                arg["value"]
                    .as_str()
                    .expect("a positional argument with a fixed value (no prompt)")
                    .to_string(),
            ),
            Some("named") => {
                argv.push(
                    arg["name"]
                        .as_str()
                        .expect("a named argument's name")
                        .into(),
                );
                argv.extend(arg["value"].as_str().map(str::to_string));
            }
            other => panic!("server.json: an argument of type {other:?}"),
        }
    }
    argv
}

/// The GitHub account in `https://github.com/OWNER/tabpilot`.
fn owner_of(url: &str, what: &str) -> String {
    let rest = url
        .strip_prefix("https://github.com/")
        .unwrap_or_else(|| panic!("{what}: {url} is not a GitHub repository"));
    let (owner, repo) = rest.split_once('/').expect("OWNER/REPO");
    assert_eq!(repo, NAME, "{what}: the repository is named {NAME}");
    owner.to_string()
}

#[test]
fn the_check_refuses_what_the_binary_refuses() {
    let args = |a: &[&str]| a.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        not_stdio_server("tabpilot", &args(&["mcp", "--launch"])),
        None
    );
    assert!(not_stdio_server("tabpilot", &args(&["mcp", "--lanch"])).is_some());
    assert!(not_stdio_server("tabpilot", &args(&["mcp", "--http"])).is_some());
    assert!(not_stdio_server("tabpilot", &args(&["relay"])).is_some());
    assert!(not_stdio_server("tabpilot-mcp", &args(&["mcp"])).is_some());
}

#[test]
fn server_json_is_this_crate_its_version_and_its_stdio_server() {
    let path = "server.json";
    let server = manifest(path);
    assert_eq!(text(&server, path, "/version"), VERSION, "{path}: version");
    let description = text(&server, path, "/description");
    assert!(
        description.chars().count() <= 100,
        "{path}: the registry's limit is 100"
    );
    let packages = server["packages"].as_array().expect("packages");
    assert!(!packages.is_empty(), "{path}: no package to install");
    for package in packages {
        assert_eq!(
            package["registryType"], "cargo",
            "{path}: tabpilot ships as a crate"
        );
        assert_eq!(package["identifier"], NAME, "{path}: the crate");
        assert_eq!(package["version"], VERSION, "{path}: the package's version");
        assert_eq!(package["transport"]["type"], "stdio", "{path}: transport");
        if let Some(why) = not_stdio_server(NAME, &package_argv(package)) {
            panic!("{path}: the package {why}");
        }
        for var in package["environmentVariables"]
            .as_array()
            .into_iter()
            .flatten()
        {
            let name = var["name"].as_str().expect("a variable's name");
            let setting = Setting::ALL.iter().find(|s| s.name() == name);
            assert!(
                setting.is_some_and(|s| s.usage() == Use::InUse),
                "{path}: {name} is not a setting tabpilot reads (src/shared/settings.rs)"
            );
            assert_ne!(var["isRequired"], true, "{path}: {name} is optional");
            assert!(
                var["description"].as_str().is_some_and(|d| !d.is_empty()),
                "{path}: {name} says what it does"
            );
        }
    }
}

#[test]
fn the_registry_name_the_repositories_and_the_readme_agree() {
    let server = manifest("server.json");
    let owner = owner_of(
        text(&server, "server.json", "/repository/url"),
        "server.json",
    );
    let name = text(&server, "server.json", "/name");
    assert_eq!(
        name,
        format!("io.github.{owner}/{NAME}"),
        "server.json: name"
    );
    let plugin = manifest(".claude-plugin/plugin.json");
    for field in ["/homepage", "/repository"] {
        let url = text(&plugin, ".claude-plugin/plugin.json", field);
        assert_eq!(owner_of(url, "plugin.json"), owner, "plugin.json {field}");
    }
    // The registry proves a crate is ours by this token in its README as crates.io renders it:
    // visible text (crates.io drops HTML comments), followed by a boundary.
    let token = format!("mcp-name: {name}");
    let readme = repo_file("README.md");
    let found = readme.match_indices(&token).any(|(at, _)| {
        readme[at + token.len()..]
            .chars()
            .next()
            .is_none_or(|c| c.is_whitespace() || c == '`')
    });
    assert!(found, "README.md does not carry `{token}`");
}

#[test]
fn the_gemini_extension_is_this_version_and_its_stdio_server() {
    let path = "gemini-extension.json";
    let extension = manifest(path);
    assert_eq!(text(&extension, path, "/name"), NAME);
    assert_eq!(
        text(&extension, path, "/version"),
        VERSION,
        "{path}: version"
    );
    assert_server_entry(&extension, path);
    let context = text(&extension, path, "/contextFileName");
    repo_file(context);
}

#[test]
fn the_claude_plugin_is_this_version_its_stdio_server_and_the_skill() {
    let path = ".claude-plugin/plugin.json";
    let plugin = manifest(path);
    assert_eq!(text(&plugin, path, "/name"), NAME);
    assert_eq!(text(&plugin, path, "/version"), VERSION, "{path}: version");
    assert_server_entry(&plugin, path);
    // The skill that `tabpilot skill install` installs, named as the plugin is.
    let skills = text(&plugin, path, "/skills").trim_start_matches("./");
    let skill = repo_file(&format!("{skills}/SKILL.md"));
    assert_eq!(
        skill,
        super::skill::SKILL,
        "{path}: skills is not the skill tabpilot installs"
    );
    let front = skill.split("---").nth(1).expect("front matter");
    assert!(
        front.lines().any(|l| l == format!("name: {NAME}")),
        "{path}: the skill's name"
    );

    let path = ".claude-plugin/marketplace.json";
    let market = manifest(path);
    let entries = market["plugins"].as_array().expect("plugins");
    assert_eq!(entries.len(), 1, "{path}: one plugin");
    assert_eq!(entries[0]["name"], NAME, "{path}: the plugin's name");
    assert_eq!(
        entries[0]["source"], "./",
        "{path}: the plugin is the repository's root"
    );
    assert!(
        entries[0].get("version").is_none_or(|v| v == VERSION),
        "{path}: version"
    );
}
