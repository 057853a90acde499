//! `tabpilot install` and `uninstall` on the files people have (issue 28, finding 13): a config
//! that is a symbolic link into a dotfiles folder, and JSON or TOML with a key given twice.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::Path;

use serde_json::Value;

use crate::harness::{Env, mode};
use crate::install::{home, tabpilot};

fn is_link(path: &Path) -> bool {
    std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink())
}

/// The names in `dir`, sorted: to see that no temporary file was left there, or what is left.
pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

#[test]
fn install_edits_a_linked_config_through_its_link_and_keeps_the_link_and_the_mode() {
    let env = Env::fresh("install-link");
    let home = home("link");
    let dotfiles = home.join("dotfiles");
    std::fs::create_dir_all(&dotfiles).unwrap();
    let target = dotfiles.join("claude.json");
    let original = "{\n  \"numStartups\": 3,\n  \"theme\": \"dark\"\n}\n";
    std::fs::write(&target, original).unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o640)).unwrap();
    // As stow and most dotfiles managers make them: a relative link.
    let link = home.join(".claude.json");
    symlink("dotfiles/claude.json", &link).unwrap();

    let (ok, out, err) = tabpilot(&env, &home, &["install", "claude"]);
    assert!(ok, "{err}");
    assert!(is_link(&link), "the person's link became a file: {out}");
    assert_eq!(
        std::fs::read_link(&link).unwrap(),
        Path::new("dotfiles/claude.json")
    );
    let config: Value = serde_json::from_str(&std::fs::read_to_string(&target).unwrap()).unwrap();
    assert_eq!(config["theme"], "dark");
    assert_eq!(config["mcpServers"]["tabpilot"]["args"][0], "mcp");
    assert_eq!(mode(&target), 0o640, "the target's mode changed");
    assert!(
        out.contains(&target.display().to_string()),
        "says the file it wrote: {out}"
    );
    assert_eq!(names(&dotfiles), ["claude.json"]);
    assert_eq!(names(&home), [".claude.json", "dotfiles"]);

    let (ok, _, err) = tabpilot(&env, &home, &["uninstall", "claude"]);
    assert!(ok, "{err}");
    assert!(is_link(&link));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), original);
    assert_eq!(mode(&target), 0o640);
}

#[test]
fn a_linked_config_given_the_token_stays_a_link_its_target_made_owner_only() {
    let env = Env::fresh("install-link-token");
    let home = home("link-token");
    let dotfiles = home.join("dotfiles");
    std::fs::create_dir_all(dotfiles.join("cursor")).unwrap();
    std::fs::create_dir_all(home.join(".cursor")).unwrap();
    let target = dotfiles.join("cursor/mcp.json");
    std::fs::write(&target, "{}\n").unwrap();
    std::fs::set_permissions(&target, std::fs::Permissions::from_mode(0o644)).unwrap();
    let link = home.join(".cursor/mcp.json");
    symlink(&target, &link).unwrap();

    // A port nothing listens on (tests/e2e/http_token.rs: the default one, and a squatter).
    let url = "http://127.0.0.1:1/mcp";
    let install = ["install", "cursor", "--http", url, "--token-in-config"];
    let (ok, out, err) = tabpilot(&env, &home, &install);
    assert!(ok, "{err}");
    assert!(is_link(&link), "the person's link became a file: {out}");
    assert_eq!(mode(&target), 0o600, "{out}");
    let token = std::fs::read_to_string(env.state_dir.join("http-token")).unwrap();
    let text = std::fs::read_to_string(&target).unwrap();
    assert!(text.contains(token.trim()), "{text}");

    // The entry was all the file held: the link stays, its target an empty object.
    let (ok, _, err) = tabpilot(&env, &home, &["uninstall", "cursor"]);
    assert!(ok, "{err}");
    assert!(is_link(&link));
    assert_eq!(std::fs::read_to_string(&target).unwrap(), "{}\n");
}

#[test]
fn a_dangling_link_or_a_link_to_a_folder_is_refused_and_nothing_is_written() {
    let env = Env::fresh("install-dangling");
    let home = home("dangling");
    let dotfiles = home.join("dotfiles");
    std::fs::create_dir_all(dotfiles.join("folder")).unwrap();
    let link = home.join(".claude.json");
    symlink(dotfiles.join("claude.json"), &link).unwrap();

    for args in [&["install", "claude"][..], &["uninstall", "claude"]] {
        let (ok, _, err) = tabpilot(&env, &home, args);
        assert!(!ok, "{args:?} wrote through a dangling link");
        assert!(err.contains("symbolic link"), "{err}");
        assert!(err.contains("does not exist"), "{err}");
        assert!(err.contains("nothing was written"), "{err}");
        assert!(is_link(&link), "{args:?}: the link was replaced");
        assert!(!dotfiles.join("claude.json").exists());
    }

    std::fs::create_dir_all(home.join(".gemini")).unwrap();
    let link = home.join(".gemini/settings.json");
    symlink(dotfiles.join("folder"), &link).unwrap();
    let (ok, _, err) = tabpilot(&env, &home, &["install", "gemini"]);
    assert!(!ok);
    assert!(err.contains("not a regular file"), "{err}");
    assert!(err.contains("a folder"), "{err}");
    assert!(is_link(&link));
    assert_eq!(names(&dotfiles.join("folder")), Vec::<String>::new());
}

#[test]
fn a_json_key_given_twice_is_refused_naming_the_key_and_its_lines() {
    let env = Env::fresh("install-twice");
    let home = home("twice");
    let file = home.join(".claude.json");
    // Two lists of servers: one value would silently replace the other, and its servers go.
    let claude = "{\n  \"mcpServers\": {\n    \"notes\": {\"command\": \"notes-mcp\"}\n  },\n  \"theme\": \"dark\",\n  \"mcpServers\": {\n    \"mail\": {\"command\": \"mail-mcp\"}\n  }\n}\n";
    std::fs::write(&file, claude).unwrap();
    for args in [&["install", "claude"][..], &["uninstall", "claude"]] {
        let (ok, out, err) = tabpilot(&env, &home, args);
        assert!(!ok, "{args:?} merged the two lists: {out}");
        assert!(err.contains("\"mcpServers\""), "{err}");
        assert!(err.contains("lines 2 and 6"), "{err}");
        assert!(err.contains("nothing was written"), "{err}");
        assert_eq!(std::fs::read_to_string(&file).unwrap(), claude);
    }

    // A server named twice in the list.
    std::fs::create_dir_all(home.join(".cursor")).unwrap();
    let file = home.join(".cursor/mcp.json");
    let cursor = "{\"mcpServers\": {\n  \"notes\": {\"command\": \"a\"},\n  \"notes\": {\"command\": \"b\"}\n}}\n";
    std::fs::write(&file, cursor).unwrap();
    let (ok, _, err) = tabpilot(&env, &home, &["install", "cursor"]);
    assert!(!ok);
    assert!(
        err.contains("\"notes\"") && err.contains("lines 2 and 3"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), cursor);
}

#[test]
fn a_toml_table_given_twice_is_refused_naming_it_and_its_line() {
    let env = Env::fresh("install-toml-twice");
    let home = home("toml-twice");
    let file = home.join(".codex/config.toml");
    std::fs::create_dir_all(file.parent().unwrap()).unwrap();
    let codex = "model = \"o4\"\n\n[mcp_servers.notes]\ncommand = \"a\"\n\n[mcp_servers.notes]\ncommand = \"b\"\n";
    std::fs::write(&file, codex).unwrap();
    let (ok, _, err) = tabpilot(&env, &home, &["install", "codex"]);
    assert!(!ok);
    assert!(err.contains("notes") && err.contains("line 6"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), codex);
}

#[test]
fn a_config_another_user_owns_is_refused_rather_than_taken_over() {
    // SAFETY: getuid has no preconditions.
    if unsafe { libc::getuid() } != 0 {
        eprintln!("skipped: running tabpilot as another user needs root");
        return;
    }
    let env = Env::fresh("install-owner");
    let home = home("owner");
    // A folder anyone may write in, and root's file in it that anyone may write: `nobody` can
    // change its text, but a file renamed into its place would be nobody's.
    std::fs::set_permissions(&home, std::fs::Permissions::from_mode(0o777)).unwrap();
    let file = home.join(".claude.json");
    std::fs::write(&file, "{}\n").unwrap();
    std::fs::set_permissions(&file, std::fs::Permissions::from_mode(0o666)).unwrap();
    let mut cmd = env.command(&["install", "claude"]);
    std::os::unix::process::CommandExt::uid(&mut cmd, 65534);
    std::os::unix::process::CommandExt::gid(&mut cmd, 65534);
    cmd.env("HOME", &home);
    let (ok, out, err) = crate::harness::run(cmd);
    assert!(!ok, "nobody took root's file over: {out}");
    assert!(err.contains("belongs to user 0"), "{err}");
    assert!(err.contains("nothing was written"), "{err}");
    let meta = std::fs::metadata(&file).unwrap();
    assert_eq!(std::os::unix::fs::MetadataExt::uid(&meta), 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "{}\n");
    assert_eq!(names(&home), [".claude.json"]);
}
