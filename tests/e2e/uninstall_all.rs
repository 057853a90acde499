//! `tabpilot uninstall --all` in a home and a state dir the test makes: what it lists, that it
//! removes nothing unasked, that secrets need their own yes, and that a link planted in (or as)
//! the state dir never leads it to remove anything outside.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{BIN, Env, run, run_with_stdin};
use crate::install_files::names;
use crate::service::{command, home, unit};

/// Everything tabpilot can leave behind: two clients' entries (one beside a server of the
/// person's), the service, a token, an audit line's file, a secret with its value in the file,
/// and a file of the person's in the state dir.
fn installed(env: &Env, home: &Path) -> String {
    let claude = "{\n  \"mcpServers\": {\n    \"notes\": {\n      \"command\": \"notes-mcp\"\n    }\n  }\n}\n";
    std::fs::write(home.join(".claude.json"), claude).unwrap();
    for args in [
        &["install", "claude"][..],
        &["install", "gemini"],
        &["service", "install"],
        &["token", "rotate"],
    ] {
        let (ok, out, err) = run(command(env, home, args));
        assert!(ok, "{args:?}: {out}{err}");
    }
    std::fs::write(env.state_dir.join("audit.jsonl"), "{}\n").unwrap();
    std::fs::write(env.state_dir.join("notes.txt"), "the person's").unwrap();
    let mut add = command(
        env,
        home,
        &[
            "secret",
            "add",
            "pw",
            "--origin",
            "https://a.example",
            "--stdin",
        ],
    );
    add.env("TABPILOT_SECRET_BACKEND", "file");
    let (ok, _, err) = run_with_stdin(add, "hunter2");
    assert!(ok, "{err}");
    claude.to_string()
}

#[test]
fn uninstall_all_lists_everything_and_without_a_terminal_or_yes_removes_nothing() {
    let env = Env::fresh("uninstall-all-asks");
    let home = home("uninstall-asks");
    installed(&env, &home);
    let before = names(&env.state_dir);

    let (ok, out, err) = run(command(&env, &home, &["uninstall", "--all", "--dry-run"]));
    assert!(ok, "{err}");
    for said in [
        "  the service: stopped, then ",
        "  claude: tabpilot's entry in ",
        "  gemini: tabpilot's entry in ",
        "    http-token: the token of `tabpilot mcp --http`",
        "    audit.jsonl: the audit trail",
        "    service.log: the service's log",
        "notes.txt (not a name tabpilot makes)",
        "1 secret(s): 1 in the owner-only file",
        "(dry run: nothing removed)",
    ] {
        assert!(out.contains(said), "{said:?} in {out}");
    }

    let (ok, out, err) = run(command(&env, &home, &["uninstall", "--all"]));
    assert!(!ok, "{out}");
    assert!(
        err.contains("no terminal to ask on, so nothing was removed"),
        "{err}"
    );
    assert_eq!(names(&env.state_dir), before);
    assert!(unit(&home).exists());
    let claude = std::fs::read_to_string(home.join(".claude.json")).unwrap();
    assert!(claude.contains("\"tabpilot\""), "{claude}");
}

#[test]
fn uninstall_all_yes_removes_all_but_the_secrets_which_go_only_with_secrets_too() {
    let env = Env::fresh("uninstall-all-yes");
    let home = home("uninstall-yes");
    let claude = installed(&env, &home);

    // A trail the person placed outside the state dir stays theirs.
    let trail = home.join("trail.jsonl");
    std::fs::write(&trail, "{}\n").unwrap();
    let mut all = command(&env, &home, &["uninstall", "--all", "--yes"]);
    all.env("TABPILOT_AUDIT_FILE", &trail);
    let (ok, out, err) = run(all);
    assert!(ok, "{out}{err}");
    assert!(
        out.contains(&format!(
            "left as it is: {} (the audit trail",
            trail.display()
        )),
        "{out}"
    );
    assert!(trail.exists());
    assert!(!unit(&home).exists(), "{out}");
    assert_eq!(
        std::fs::read_to_string(home.join(".claude.json")).unwrap(),
        claude,
        "the person's own server stays, as it was"
    );
    assert!(!home.join(".gemini/settings.json").exists(), "{out}");
    assert!(out.contains("removed: the service\n"), "{out}");
    assert!(out.contains("removed: claude's entry\n"), "{out}");
    assert_eq!(
        names(&env.state_dir),
        ["notes.txt", "secret-values.json", "secrets.json"],
        "{out}"
    );

    std::fs::remove_file(env.state_dir.join("notes.txt")).unwrap();
    let all = ["uninstall", "--all", "--yes", "--secrets"];
    let (ok, out, err) = run(command(&env, &home, &all));
    assert!(ok, "{out}{err}");
    assert!(out.contains("removed: secret pw\n"), "{out}");
    assert!(!env.state_dir.exists(), "{out}");
}

#[test]
fn uninstall_all_asks_on_a_terminal_and_the_secrets_need_a_second_yes() {
    let env = Env::fresh("uninstall-all-tty");
    let home = home("uninstall-tty");
    installed(&env, &home);
    std::fs::remove_file(env.state_dir.join("notes.txt")).unwrap();
    let script = Path::new("/usr/bin/script");
    if !script.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI needs script (bsdutils)"
        );
        println!("skipped: no script(1) here for a terminal (Debian: bsdutils)");
        return;
    }
    // script(1) gives the command a terminal, fed from our stdin.
    let on_a_terminal = |answers: &str| {
        let mut tty = Command::new(script);
        tty.args(["-qec", &format!("{BIN} uninstall --all"), "/dev/null"]);
        for (k, v) in command(&env, &home, &[]).get_envs() {
            match v {
                Some(v) => tty.env(k, v),
                None => tty.env_remove(k),
            };
        }
        run_with_stdin(tty, answers)
    };
    let (_, out, _) = on_a_terminal("n\n");
    assert!(out.contains("Remove all of the above? [y/N]"), "{out}");
    assert!(out.contains("Nothing removed."), "{out}");
    assert!(unit(&home).exists());

    let (_, out, _) = on_a_terminal("y\nn\n");
    assert!(out.contains("Remove the secrets too (1 secret(s)"), "{out}");
    assert!(!unit(&home).exists(), "{out}");
    assert_eq!(
        names(&env.state_dir),
        ["secret-values.json", "secrets.json"]
    );

    let (_, out, _) = on_a_terminal("y\ny\n");
    assert!(out.contains("removed: secret pw"), "{out}");
    assert!(!env.state_dir.exists(), "{out}");
}

#[test]
fn uninstall_all_removes_links_in_the_state_dir_as_links_and_refuses_a_linked_state_dir() {
    let env = Env::fresh("uninstall-all-links");
    let home = home("uninstall-links");
    // What a hostile neighbour would point tabpilot's names at.
    let theirs: PathBuf = home.join("theirs");
    std::fs::create_dir_all(theirs.join("profile")).unwrap();
    std::fs::write(theirs.join("profile/keep.txt"), "keep").unwrap();
    std::fs::write(theirs.join("trail"), "keep").unwrap();
    let (ok, _, err) = run(command(&env, &home, &["token", "rotate"]));
    assert!(ok, "{err}");
    symlink(theirs.join("profile"), env.state_dir.join("profiles")).unwrap();
    symlink(theirs.join("trail"), env.state_dir.join("audit.jsonl")).unwrap();

    let (ok, out, err) = run(command(&env, &home, &["uninstall", "--all", "--yes"]));
    assert!(ok, "{out}{err}");
    assert!(
        out.contains("profiles: the managed browsers' profiles (a symbolic link: the link alone)")
    );
    assert!(!env.state_dir.exists(), "{out}");
    assert_eq!(
        std::fs::read_to_string(theirs.join("profile/keep.txt")).unwrap(),
        "keep"
    );
    assert_eq!(
        std::fs::read_to_string(theirs.join("trail")).unwrap(),
        "keep"
    );

    // The state dir itself a link: nothing in what it leads to is touched.
    std::fs::write(theirs.join("secret"), "keep").unwrap();
    symlink(&theirs, &env.state_dir).unwrap();
    let (ok, out, _) = run(command(&env, &home, &["uninstall", "--all", "--yes"]));
    assert!(!ok, "{out}");
    assert!(out.contains("is a symbolic link"), "{out}");
    assert!(out.contains("FAILED: the state dir"), "{out}");
    assert_eq!(
        std::fs::read_to_string(theirs.join("secret")).unwrap(),
        "keep"
    );
    assert!(
        std::fs::symlink_metadata(&env.state_dir)
            .unwrap()
            .is_symlink()
    );
}
