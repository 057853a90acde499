//! The one-line installs, checked by each client's own tools: Claude Code's `claude plugin
//! validate`, then the marketplace added, the plugin installed and its server connected (`claude
//! mcp list`); Gemini CLI's `gemini extensions validate`, then the extension linked and its server
//! connected (`gemini mcp list`); and the MCP registry's server.json against the registry's
//! released schema (with `jsonschema`) and its publishing rules (skillsaw, which carries the
//! schema byte for byte; the registry's own `mcp-publisher` is a Go binary no package registry
//! ships). `.ci/run` installs them in target/e2e-validators from tests/fixtures/validators/; a
//! developer's run without them skips, CI fails. Each client runs with a home of its own and no
//! key; every output is printed (`--nocapture` shows it).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::harness::{BIN, Env};
use crate::install::home;

const SCHEMA: &str = "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json";
/// The sha256 of that schema as the registry publishes it (modelcontextprotocol/static).
const SCHEMA_SHA256: &str = "3fba09590c99f61735d234822279f4223fab9e300c0a81e81c91ab62a4114de0";

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Where `.ci/run` installs the validators, when they are all there; else None (said on stdout),
/// and under CI a failure.
fn validators() -> Option<PathBuf> {
    let home = repo().join("target/e2e-validators");
    let needs = [
        "node_modules/.bin/claude",
        "node_modules/.bin/gemini",
        "node_modules/.bin/node",
        "py/bin/skillsaw",
        "py/bin/python",
    ];
    let missing: Vec<&str> = needs
        .into_iter()
        .filter(|n| !home.join(n).exists())
        .collect();
    if missing.is_empty() {
        return Some(home);
    }
    assert!(
        std::env::var_os("CI").is_none(),
        "CI must run the clients' validators; missing {missing:?} in {} (.ci/run installs them \
         from tests/fixtures/validators/: npm ci there, and a venv py/ with requirements.txt)",
        home.display()
    );
    println!("skipped: no {missing:?} in {}", home.display());
    None
}

/// Runs a command with no stdin for at most a minute; returns (success, stdout + stderr), and
/// prints both.
fn run(mut cmd: Command, what: &str) -> (bool, String) {
    static RUNS: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "tabpilot-e2e-manifests-out-{}-{}",
        std::process::id(),
        RUNS.fetch_add(1, Ordering::SeqCst)
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, err) = (dir.join("out"), dir.join("err"));
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(std::fs::File::create(&out).unwrap())
        .stderr(std::fs::File::create(&err).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let start = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed() > Duration::from_secs(60) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{what}: still running after a minute");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let text = std::fs::read_to_string(&out).unwrap() + &std::fs::read_to_string(&err).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    println!("$ {what}  (exit {})\n{text}", status.code().unwrap_or(-1));
    (status.success(), text)
}

/// A client's command with `home` as its home, no key and nothing sent anywhere of its own, and
/// the validators' Node and this build's `tabpilot` first on PATH; the server it starts gets an
/// environment of the test's own.
fn client(tools: &Path, home: &Path, env: &Env, program: &str) -> Command {
    let bin = Path::new(BIN).canonicalize().unwrap();
    let path = std::env::join_paths(
        [
            bin.parent().unwrap().to_path_buf(),
            tools.join("node_modules/.bin"),
        ]
        .into_iter()
        .chain(std::env::split_paths(
            &std::env::var_os("PATH").unwrap_or_default(),
        )),
    )
    .unwrap();
    let mut cmd = Command::new(tools.join("node_modules/.bin").join(program));
    cmd.current_dir(home)
        .env("HOME", home)
        .env("PATH", path)
        .env("TABPILOT_STATE_DIR", &env.state_dir)
        .env("TABPILOT_PORTS", &env.ports)
        .env("DISABLE_TELEMETRY", "1")
        .env("DISABLE_AUTOUPDATER", "1")
        .env("CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC", "1")
        .env("NO_COLOR", "1");
    for var in [
        "ANTHROPIC_API_KEY",
        "CLAUDE_CONFIG_DIR",
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "XDG_CONFIG_HOME",
        "TABPILOT_INSTANCE",
        "TABPILOT_SESSION",
    ] {
        cmd.env_remove(var);
    }
    cmd
}

/// A copy of the repository's files a clone brings that `files` names (what a client copies on
/// install), in a fresh folder.
fn checkout_copy(name: &str, files: &[&str]) -> PathBuf {
    let dir = home(&format!("manifests-{name}")).join("tabpilot");
    for file in files {
        copy(&repo().join(file), &dir.join(file));
    }
    dir
}

fn copy(from: &Path, to: &Path) {
    if from.is_dir() {
        for entry in std::fs::read_dir(from).unwrap().flatten() {
            copy(&entry.path(), &to.join(entry.file_name()));
        }
    } else {
        std::fs::create_dir_all(to.parent().unwrap()).unwrap();
        std::fs::copy(from, to).unwrap();
    }
}

/// Removes what a test made: its client's home, its copies, its state dir.
fn clean(dirs: &[&Path]) {
    for dir in dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

fn edit_json(file: &Path, edit: impl FnOnce(&mut serde_json::Value)) {
    let mut value: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(file).unwrap()).unwrap();
    edit(&mut value);
    std::fs::write(file, serde_json::to_string_pretty(&value).unwrap()).unwrap();
}

/// Validates `server` against the schema skillsaw carries, after checking that schema is the
/// registry's own (its id and sha256); prints and returns (valid, report).
fn schema_check(tools: &Path, server: &Path) -> (bool, String) {
    let script = r#"
import hashlib, json, os, sys, skillsaw
from jsonschema import Draft7Validator
path = os.path.join(os.path.dirname(skillsaw.__file__),
                    "schemas/mcp_registry/v2025_12_11/server.schema.json")
raw = open(path, "rb").read()
schema = json.loads(raw)
server = json.load(open(sys.argv[1]))
assert schema["$id"] == sys.argv[2] == server["$schema"], (schema["$id"], server["$schema"])
assert hashlib.sha256(raw).hexdigest() == sys.argv[3], "not the registry's schema"
errors = sorted(Draft7Validator(schema, format_checker=Draft7Validator.FORMAT_CHECKER)
                .iter_errors(server), key=lambda e: list(e.absolute_path))
for e in errors:
    print("$." + ".".join(map(str, e.absolute_path)) + ": " + e.message)
print(("invalid" if errors else "valid") + " against " + schema["$id"])
sys.exit(1 if errors else 0)
"#;
    let mut cmd = Command::new(tools.join("py/bin/python"));
    cmd.args(["-c", script])
        .arg(server)
        .args([SCHEMA, SCHEMA_SHA256]);
    run(cmd, "python: jsonschema server.json")
}

fn skillsaw(tools: &Path, dir: &Path) -> (bool, String) {
    let mut cmd = Command::new(tools.join("py/bin/skillsaw"));
    cmd.args(["lint", "--type", "mcp-registry", "--fail-on", "warning"])
        .args([
            "--no-color",
            "--no-progress",
            "--no-custom-rules",
            "--no-plugins",
        ])
        .arg(dir);
    run(cmd, "skillsaw lint --type mcp-registry")
}

#[test]
fn server_json_passes_the_registry_schema_and_its_publishing_rules() {
    let Some(tools) = validators() else { return };
    let dir = checkout_copy("registry", &["server.json"]);
    let (ok, out) = schema_check(&tools, &dir.join("server.json"));
    assert!(ok && out.contains("valid against"), "{out}");
    let (ok, out) = skillsaw(&tools, &dir);
    assert!(ok && out.contains("All checks passed"), "{out}");

    // Both checks bite: a description past the registry's 100 characters, and a registry type
    // the registry does not know.
    edit_json(&dir.join("server.json"), |s| {
        s["description"] = "a browser tab ".repeat(8).into();
        s["packages"][0]["registryType"] = "crates".into();
    });
    let (ok, out) = schema_check(&tools, &dir.join("server.json"));
    assert!(!ok && out.contains("$.description"), "{out}");
    let (ok, out) = skillsaw(&tools, &dir);
    assert!(!ok && out.contains("registryType must be one of"), "{out}");
    clean(&[dir.parent().unwrap()]);
}

#[test]
fn the_claude_code_plugin_validates_installs_and_its_server_connects() {
    let Some(tools) = validators() else { return };
    let env = Env::fresh("manifests-claude");
    let home = home("manifests-claude-home");
    let claude = |args: &[&str]| {
        let mut cmd = client(&tools, &home, &env, "claude");
        cmd.args(args);
        run(cmd, &format!("claude {}", args.join(" ")))
    };
    let root = repo();
    let root = root.to_str().unwrap();
    let (ok, out) = claude(&["plugin", "validate", "--strict", root]);
    assert!(ok && out.contains("Validation passed"), "{out}");
    assert!(
        out.contains(r#"mcpServers: tabpilot stdio tabpilot ["mcp","--launch"]"#)
            && out.contains("skills: tabpilot:tabpilot"),
        "the plugin provides the server and the skill: {out}"
    );
    let plugin = format!("{root}/.claude-plugin/plugin.json");
    let (ok, out) = claude(&["plugin", "validate", "--strict", &plugin]);
    assert!(ok && out.contains("Validation passed"), "{out}");

    // What `/plugin marketplace add OWNER/tabpilot` and `/plugin install tabpilot@tabpilot` do,
    // from a copy of the files a clone brings that the plugin uses.
    let market = checkout_copy("claude", &[".claude-plugin", "skill", "README.md"]);
    let (ok, out) = claude(&["plugin", "marketplace", "add", market.to_str().unwrap()]);
    assert!(ok, "{out}");
    let (ok, out) = claude(&["plugin", "install", "tabpilot@tabpilot"]);
    assert!(ok && out.contains("Successfully installed"), "{out}");
    let (ok, out) = claude(&["mcp", "list"]);
    assert!(
        ok && out.contains("plugin:tabpilot:tabpilot: tabpilot mcp --launch - ✔ Connected"),
        "the plugin's server does not connect: {out}"
    );

    // The validator bites: a field Claude Code does not know fails --strict.
    edit_json(&market.join(".claude-plugin/plugin.json"), |p| {
        p["mcpServer"] = p["mcpServers"].clone();
    });
    let plugin = market.join(".claude-plugin/plugin.json");
    let (ok, out) = claude(&["plugin", "validate", "--strict", plugin.to_str().unwrap()]);
    assert!(!ok && out.contains("mcpServer"), "{out}");
    clean(&[&home, market.parent().unwrap(), &env.state_dir]);
}

#[test]
fn the_gemini_extension_validates_links_and_its_server_connects() {
    let Some(tools) = validators() else { return };
    let env = Env::fresh("manifests-gemini");
    let home = home("manifests-gemini-home");
    // A home that trusts folders as a person who installs an extension does.
    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    std::fs::write(
        home.join(".gemini/settings.json"),
        r#"{"security": {"folderTrust": {"enabled": false}}}"#,
    )
    .unwrap();
    let gemini = |args: &[&str]| {
        let mut cmd = client(&tools, &home, &env, "gemini");
        cmd.args(args);
        run(cmd, &format!("gemini {}", args.join(" ")))
    };
    let root = repo();
    let (ok, out) = gemini(&["extensions", "validate", root.to_str().unwrap()]);
    assert!(
        ok && out.contains("has been successfully validated"),
        "{out}"
    );

    let extension = checkout_copy("gemini", &["gemini-extension.json", "skill"]);
    let path = extension.to_str().unwrap();
    let (ok, out) = gemini(&["extensions", "link", "--consent", path]);
    assert!(
        ok && out.contains(r#"Extension "tabpilot" linked successfully"#),
        "{out}"
    );
    let (ok, out) = gemini(&["extensions", "list"]);
    let version = concat!("tabpilot (", env!("CARGO_PKG_VERSION"), ")");
    assert!(
        ok && out.contains(version) && out.contains("skill/SKILL.md"),
        "{out}"
    );
    let (ok, out) = gemini(&["mcp", "list"]);
    assert!(
        ok && out.contains("tabpilot (from tabpilot): tabpilot mcp --launch (stdio) - Connected"),
        "the extension's server does not connect: {out}"
    );

    // The validator bites: a context file that is not there.
    edit_json(&extension.join("gemini-extension.json"), |e| {
        e["contextFileName"] = "skill/GEMINI.md".into();
    });
    let (ok, out) = gemini(&["extensions", "validate", path]);
    assert!(!ok && out.contains("skill/GEMINI.md"), "{out}");
    clean(&[&home, extension.parent().unwrap(), &env.state_dir]);
}
