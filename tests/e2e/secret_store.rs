//! `tabpilot secret add/list/rm` end to end: the value piped on stdin, never in an output nor in
//! any file of the state dir but the value file (or, with a Secret Service, in none at all).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use crate::harness::{Env, mode, run, run_with_stdin};

/// `tabpilot ARGS` in `env` with the value backend set (`None`: as a person runs it, unset).
fn secret(env: &Env, backend: Option<&str>, args: &[&str]) -> Command {
    let mut cmd = env.command(args);
    match backend {
        Some(b) => cmd.env("TABPILOT_SECRET_BACKEND", b),
        None => cmd.env_remove("TABPILOT_SECRET_BACKEND"),
    };
    cmd.stdin(Stdio::null());
    cmd
}

/// Every file under `dir`, at any depth.
fn files(dir: &Path) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    entries
        .flatten()
        .flat_map(|e| {
            let path = e.path();
            if path.is_dir() {
                files(&path)
            } else {
                vec![path]
            }
        })
        .collect()
}

/// The files under `dir` holding `value`, by name.
fn holding(dir: &Path, value: &str) -> Vec<String> {
    files(dir)
        .into_iter()
        .filter(|f| String::from_utf8_lossy(&std::fs::read(f).unwrap()).contains(value))
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// The doctor's line about secrets.
fn doctor_line(env: &Env, backend: Option<&str>) -> String {
    let (_, out, err) = run(secret(env, backend, &["doctor"]));
    out.lines()
        .find(|l| l[5..].trim_start().starts_with("secrets: "))
        .unwrap_or_else(|| panic!("no secrets line in:\n{out}{err}"))
        .to_string()
}

#[test]
fn secret_add_list_rm_round_trip_with_the_value_on_stdin_in_the_owner_only_file() {
    let env = Env::fresh("secret-store-file");
    let value = format!("e2e-value-{}", rand::random::<u64>());
    let file = Some("file");
    let add = [
        "secret",
        "add",
        "site_pass",
        "--origin",
        "https://example.com",
        "--stdin",
    ];
    let mut outputs = Vec::new();
    let (ok, out, err) = run_with_stdin(secret(&env, file, &add), &format!("{value}\n"));
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with("added secret site_pass for https://example.com;"),
        "{out}"
    );
    outputs.push(out + &err);
    let (ok, out, err) = run(secret(&env, file, &["secret", "list"]));
    assert!(ok, "{err}");
    assert_eq!(out, "site_pass  value  https://example.com\n");
    outputs.push(out + &err);
    let (ok, out, err) = run(secret(&env, file, &["secret", "list", "--json"]));
    assert!(ok, "{err}");
    let listed: serde_json::Value = serde_json::from_str(&out).unwrap();
    let expected = serde_json::json!([
        {"name": "site_pass", "kind": "value", "origins": ["https://example.com"]}
    ]);
    assert_eq!(listed, expected);
    outputs.push(out + &err);
    // The same name again replaces it, and says so; the old value goes.
    let again = [
        "secret",
        "add",
        "site_pass",
        "--origin",
        "https://*.example.com",
        "--stdin",
    ];
    let (ok, out, err) = run_with_stdin(secret(&env, file, &again), &value);
    assert!(
        ok && out.starts_with("replaced secret site_pass"),
        "{out}{err}"
    );
    outputs.push(out + &err);
    let line = doctor_line(&env, file);
    assert!(
        line.starts_with("--    secrets: 1 registered (1 in the owner-only file)"),
        "{line}"
    );
    assert!(line.contains("TABPILOT_SECRET_BACKEND=file"), "{line}");
    outputs.push(line);
    for output in &outputs {
        assert!(!output.contains(&value), "a value in an output: {output}");
    }
    assert_eq!(holding(&env.state_dir, &value), vec!["secret-values.json"]);
    assert_eq!(mode(&env.state_dir.join("secret-values.json")), 0o600);
    assert_eq!(mode(&env.state_dir.join("secrets.json")), 0o600);
    let (ok, out, err) = run(secret(&env, file, &["secret", "rm", "site_pass"]));
    assert!(ok, "{err}");
    assert_eq!(out, "removed secret site_pass\n");
    assert!(holding(&env.state_dir, &value).is_empty());
    let (ok, out, err) = run(secret(&env, file, &["secret", "list"]));
    assert!(ok && out.is_empty(), "{out}");
    assert!(err.contains("no secrets"), "{err}");
    let (ok, _, err) = run(secret(&env, file, &["secret", "rm", "site_pass"]));
    assert!(
        !ok && err.contains("no secret named \"site_pass\""),
        "{err}"
    );
}

#[test]
fn secret_add_refuses_a_bad_origin_no_origin_and_a_pipe_it_was_not_told_to_read() {
    let env = Env::fresh("secret-store-refusals");
    let file = Some("file");
    let bad = ["secret", "add", "k", "--origin", "example.com", "--stdin"];
    let (ok, _, err) = run_with_stdin(secret(&env, file, &bad), "v");
    assert!(
        !ok && err.contains("\"example.com\" is not an origin pattern"),
        "{err}"
    );
    let none = ["secret", "add", "k", "--stdin"];
    let (ok, _, err) = run_with_stdin(secret(&env, file, &none), "v");
    assert!(!ok && err.contains("at least one --origin"), "{err}");
    let name = [
        "secret",
        "add",
        "a/b",
        "--origin",
        "https://a.example",
        "--stdin",
    ];
    let (ok, _, err) = run_with_stdin(secret(&env, file, &name), "v");
    assert!(!ok && err.contains("is not a secret name"), "{err}");
    let piped = ["secret", "add", "k", "--origin", "https://a.example"];
    let (ok, _, err) = run_with_stdin(secret(&env, file, &piped), "v");
    assert!(!ok && err.contains("pass --stdin"), "{err}");
    assert!(
        files(&env.state_dir).is_empty(),
        "a refused add kept something"
    );
}

/// Runs where CI starts a Secret Service (gnome-keyring in a private D-Bus session, `.ci/run`)
/// and says so with `E2E_KEYRING=1`; elsewhere it would write to the developer's own keyring.
#[cfg(target_os = "linux")]
#[test]
fn the_keyring_keeps_the_value_when_a_secret_service_answers() {
    if std::env::var_os("E2E_KEYRING").is_none() {
        eprintln!("skipped: no E2E_KEYRING (set in .ci/run's private Secret Service)");
        return;
    }
    let env = Env::fresh("secret-store-keyring");
    let name = format!("e2e_{}_{}", std::process::id(), rand::random::<u32>());
    let value = format!("e2e-keyring-value-{}", rand::random::<u64>());
    let add = [
        "secret",
        "add",
        &name,
        "--origin",
        "https://example.com",
        "--stdin",
    ];
    let (ok, out, err) = run_with_stdin(secret(&env, None, &add), &value);
    assert!(ok, "{out}{err}");
    assert!(
        out.ends_with("its value is in the Secret Service keyring\n"),
        "{out}"
    );
    assert!(err.is_empty(), "{err}");
    let entry = keyring::Entry::new("tabpilot", &name).unwrap();
    assert_eq!(entry.get_password().unwrap(), value);
    assert!(holding(&env.state_dir, &value).is_empty());
    assert!(!env.state_dir.join("secret-values.json").exists());
    let index = std::fs::read_to_string(env.state_dir.join("secrets.json")).unwrap();
    assert!(index.contains("\"backend\": \"keyring\""), "{index}");
    let line = doctor_line(&env, None);
    assert!(
        line.starts_with("ok    secrets: 1 registered (1 in the keyring)"),
        "{line}"
    );
    let (ok, _, err) = run(secret(&env, None, &["secret", "rm", &name]));
    assert!(ok, "{err}");
    assert!(matches!(entry.get_password(), Err(keyring::Error::NoEntry)));
}

#[test]
fn secret_add_keeps_a_totp_seed_from_a_file_and_registers_a_file_for_uploads() {
    let env = Env::fresh("secret-store-kinds");
    let file = Some("file");
    let dir = env.state_dir.with_extension("inputs");
    std::fs::create_dir_all(&dir).unwrap();
    let seed = dir.join("seed.txt");
    std::fs::write(
        &seed,
        "otpauth://totp/Ex:me?secret=GEZDGNBVGY3TQOJQ&issuer=Ex\n",
    )
    .unwrap();
    let upload = dir.join("cv.pdf");
    std::fs::write(&upload, "%PDF").unwrap();
    let totp = [
        "secret",
        "add",
        "otp",
        "--totp",
        "--origin",
        "https://a.example",
        "--from-file",
    ];
    let (ok, out, err) = run(secret(
        &env,
        file,
        &[&totp[..], &[seed.to_str().unwrap()]].concat(),
    ));
    assert!(ok && out.starts_with("added secret otp"), "{out}{err}");
    let cv = [
        "secret",
        "add",
        "cv",
        "--origin",
        "https://jobs.example",
        "--file",
    ];
    let (ok, out, err) = run(secret(
        &env,
        file,
        &[&cv[..], &[upload.to_str().unwrap()]].concat(),
    ));
    assert_eq!(out, "added secret cv for https://jobs.example\n", "{err}");
    assert!(ok);
    let (_, out, _) = run(secret(&env, file, &["secret", "list"]));
    assert_eq!(
        out,
        "otp  totp   https://a.example\ncv   file   https://jobs.example\n"
    );
    assert_eq!(
        holding(&env.state_dir, "GEZDGNBVGY3TQOJQ"),
        vec!["secret-values.json"]
    );
    let bad = [
        "secret",
        "add",
        "otp2",
        "--totp",
        "--origin",
        "https://a.example",
        "--stdin",
    ];
    let (ok, _, err) = run_with_stdin(secret(&env, file, &bad), "not-base32!");
    assert!(!ok && err.contains("the TOTP seed is not usable"), "{err}");
    assert!(!err.contains("not-base32!"), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `uninstall --all --secrets` takes each value out of the keyring, not only the index that
/// names it (a left value would stay in the keyring with nothing to find it by). Runs where the
/// keyring test above does.
#[cfg(target_os = "linux")]
#[test]
fn uninstall_all_with_secrets_removes_their_values_from_the_keyring() {
    if std::env::var_os("E2E_KEYRING").is_none() {
        eprintln!("skipped: no E2E_KEYRING (set in .ci/run's private Secret Service)");
        return;
    }
    let env = Env::fresh("secret-store-uninstall");
    let home = crate::install::home("secret-store-uninstall");
    let name = format!("e2e_{}_{}", std::process::id(), rand::random::<u32>());
    let add = [
        "secret",
        "add",
        &name,
        "--origin",
        "https://a.example",
        "--stdin",
    ];
    let (ok, out, err) = run_with_stdin(secret(&env, None, &add), "keyring-value");
    assert!(ok && out.contains("Secret Service keyring"), "{out}{err}");
    let entry = keyring::Entry::new("tabpilot", &name).unwrap();
    assert_eq!(entry.get_password().unwrap(), "keyring-value");

    let all = ["uninstall", "--all", "--yes", "--secrets"];
    let mut cmd = secret(&env, None, &all);
    cmd.env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .env_remove("CODEX_HOME");
    let (ok, out, err) = run(cmd);
    assert!(ok, "{out}{err}");
    assert!(out.contains("1 in the Secret Service keyring"), "{out}");
    assert!(out.contains(&format!("removed: secret {name}")), "{out}");
    assert!(matches!(entry.get_password(), Err(keyring::Error::NoEntry)));
    assert!(!env.state_dir.exists(), "{out}");
}
