//! `tabpilot service install|uninstall` on Linux, in a home the test makes: the systemd user unit
//! written, checked by `systemd-analyze verify`, and removed; and what it refuses. The test's
//! own XDG_RUNTIME_DIR and no session bus keep `systemctl --user` from reaching a real user
//! manager, so the commands are printed, never run.

use std::os::unix::fs::{PermissionsExt, symlink};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::harness::{BIN, Env, mode, run};

/// A home with its own config and runtime folders.
pub(crate) fn home(name: &str) -> PathBuf {
    let home = crate::install::home(&format!("service-{name}"));
    std::fs::create_dir_all(home.join("run")).unwrap();
    std::fs::set_permissions(home.join("run"), std::fs::Permissions::from_mode(0o700)).unwrap();
    home
}

/// `tabpilot ARGS` with `home` as HOME, its `.config` and its runtime folder, and no bus.
pub(crate) fn command(env: &Env, home: &Path, args: &[&str]) -> Command {
    let mut cmd = env.command(args);
    cmd.env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_RUNTIME_DIR", home.join("run"))
        .env_remove("DBUS_SESSION_BUS_ADDRESS")
        .env_remove("CODEX_HOME")
        .env_remove("TABPILOT_TOKEN")
        .env_remove("TABPILOT_HTTP_PORT");
    cmd
}

pub(crate) fn unit(home: &Path) -> PathBuf {
    home.join(".config/systemd/user/tabpilot.service")
}

/// `systemd-analyze verify` on the unit: its complaints, or none; skipped (None) where it is
/// not installed, except under CI, where `.ci/run` installs it.
fn verified(home: &Path, unit: &Path) -> Option<String> {
    let tool = Path::new("/usr/bin/systemd-analyze");
    if !tool.exists() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must verify the unit; systemd-analyze is missing (.ci/run installs systemd)"
        );
        println!("skipped: no systemd-analyze here (Debian: systemd)");
        return None;
    }
    let out = Command::new(tool)
        .args(["verify", "--user"])
        .arg(unit)
        .env("HOME", home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env("XDG_RUNTIME_DIR", home.join("run"))
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&out.stderr).into_owned();
    Some(if out.status.success() {
        said
    } else {
        format!("exit {}: {said}", out.status)
    })
}

#[test]
fn service_install_writes_a_unit_systemd_verifies_names_the_url_and_token_and_uninstall_removes_it()
{
    let env = Env::fresh("service-unit");
    let home = home("unit");
    let mut install = command(
        &env,
        &home,
        &["service", "install", "--launch", "--headless"],
    );
    install.env("TABPILOT_HTTP_PORT", "47999");
    let (ok, out, err) = run(install);
    assert!(ok, "{out}{err}");
    let unit = unit(&home);
    let text = std::fs::read_to_string(&unit).unwrap();
    let exe = std::fs::canonicalize(BIN).unwrap();
    let exec = format!(
        "ExecStart=\"{}\" \"mcp\" \"--http\" \"--launch\" \"--headless\"",
        exe.display()
    );
    assert!(text.lines().any(|l| l == exec), "{text}");
    let state = env.state_dir.display();
    for line in [
        format!("Environment=\"TABPILOT_STATE_DIR={state}\""),
        "Environment=\"TABPILOT_HTTP_PORT=47999\"".into(),
        "Restart=on-failure".into(),
        format!("StandardOutput=append:{state}/service.log"),
        format!("StandardError=append:{state}/service.log"),
    ] {
        assert!(text.lines().any(|l| l == line), "{line} in {text}");
    }
    assert_eq!(mode(&unit), 0o600, "the unit is the person's alone");
    assert_eq!(mode(&env.state_dir.join("service.log")), 0o600);
    assert_eq!(mode(&env.state_dir.join("http-token")), 0o600);
    assert_eq!(mode(&env.state_dir), 0o700);
    assert!(out.contains("URL: http://127.0.0.1:47999/mcp"), "{out}");
    assert!(
        out.contains(&format!("token: in {state}/http-token (owner-only)")),
        "{out}"
    );
    assert!(
        out.contains("  systemctl --user enable tabpilot.service\n"),
        "no user manager here, so the commands are printed: {out}"
    );
    if let Some(said) = verified(&home, &unit) {
        assert_eq!(said, "", "systemd-analyze verify");
    }

    let (ok, out, err) = run(command(&env, &home, &["service", "uninstall"]));
    assert!(ok, "{out}{err}");
    assert!(!unit.exists(), "{out}");
    assert!(
        out.contains("systemctl --user disable --now tabpilot.service"),
        "{out}"
    );
    let (ok, out, _) = run(command(&env, &home, &["service", "uninstall"]));
    assert!(ok && out.starts_with("no service installed"), "{out}");
}

#[test]
fn service_install_keeps_the_token_out_of_the_unit_and_refuses_arguments_mcp_refuses() {
    let env = Env::fresh("service-token");
    let home = home("token");
    let token = "an-http-token-of-the-person-0123456789abcdef";
    let mut install = command(&env, &home, &["service", "install"]);
    install.env("TABPILOT_TOKEN", token);
    let (ok, out, err) = run(install);
    assert!(ok, "{out}{err}");
    let text = std::fs::read_to_string(unit(&home)).unwrap();
    assert!(!text.contains(token), "{text}");
    assert!(
        out.contains("TABPILOT_TOKEN is set here, but not written"),
        "{out}"
    );

    std::fs::remove_file(unit(&home)).unwrap();
    let (ok, _, err) = run(command(&env, &home, &["service", "install", "--bogus"]));
    assert!(!ok, "a unit that fails at every start was written");
    assert!(
        err.contains("do not parse") && err.contains("--bogus"),
        "{err}"
    );
    assert!(!unit(&home).exists());
}

#[test]
fn service_install_and_uninstall_leave_a_foreign_unit_a_link_and_a_folder_others_may_write() {
    let env = Env::fresh("service-foreign");
    let home = home("foreign");
    let unit = unit(&home);
    std::fs::create_dir_all(unit.parent().unwrap()).unwrap();
    let theirs = "[Service]\nExecStart=/usr/bin/true\n";
    std::fs::write(&unit, theirs).unwrap();
    for args in [&["service", "install"][..], &["service", "uninstall"]] {
        let (ok, _, err) = run(command(&env, &home, args));
        assert!(!ok, "{args:?}");
        assert!(
            err.contains("was not written by `tabpilot service install`"),
            "{err}"
        );
        assert_eq!(std::fs::read_to_string(&unit).unwrap(), theirs);
    }

    // A link planted at the unit's path: neither written through nor removed.
    std::fs::remove_file(&unit).unwrap();
    let target = home.join("elsewhere.service");
    std::fs::write(&target, theirs).unwrap();
    symlink(&target, &unit).unwrap();
    for args in [&["service", "install"][..], &["service", "uninstall"]] {
        let (ok, _, err) = run(command(&env, &home, args));
        assert!(!ok && err.contains("not a regular file"), "{args:?}: {err}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), theirs);
        assert!(std::fs::symlink_metadata(&unit).unwrap().is_symlink());
    }

    // A unit folder another user may write: they could swap the unit for their own commands.
    std::fs::remove_file(&unit).unwrap();
    let folder = unit.parent().unwrap();
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o777)).unwrap();
    let (ok, _, err) = run(command(&env, &home, &["service", "install"]));
    assert!(!ok && err.contains("writable by others"), "{err}");
    assert!(!unit.exists());
}

#[test]
fn service_install_refuses_a_state_dir_that_is_a_link() {
    let env = Env::fresh("service-linked-state");
    let home = home("linked-state");
    let elsewhere = home.join("elsewhere");
    std::fs::create_dir_all(&elsewhere).unwrap();
    std::fs::set_permissions(&elsewhere, std::fs::Permissions::from_mode(0o755)).unwrap();
    symlink(&elsewhere, &env.state_dir).unwrap();
    let (ok, _, err) = run(command(&env, &home, &["service", "install"]));
    assert!(!ok && err.contains("is a symbolic link"), "{err}");
    assert!(!unit(&home).exists());
    assert_eq!(std::fs::read_dir(&elsewhere).unwrap().count(), 0);
    assert_eq!(mode(&elsewhere), 0o755, "the link's target was made over");
}
