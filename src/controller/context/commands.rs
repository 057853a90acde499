//! Registered commands: workflow aliases a project declares in its manifests.
//!
//! They are not a sandbox. A command runs as the user, with the user's environment, as a direct
//! argv process (never through a shell, so `;`, `$()`, pipes and redirections in an argument are
//! plain characters). What is enforced is narrow: caller arguments only where the manifest allows
//! them, a timeout the caller may lower but not raise, a working directory inside the scope root,
//! bounded output, and a timed-out command killed with everything it started (see `process`).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::manifest::{DEFAULT_TIMEOUT_SECONDS, Level, MANIFEST_FILE};
use super::process::{self, RunError};
use super::trust;
use crate::shared::error::{Code, ToolError};

/// Bytes kept from each of stdout and stderr; the rest is read and dropped so the child never
/// blocks on a full pipe.
pub(super) const OUTPUT_CEILING: usize = 64 * 1024;

#[derive(Clone, Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Command {
    pub name: String,
    pub description: String,
    pub argv: Vec<String>,
    /// As declared, joined to the manifest's directory; resolved and checked when run.
    pub cwd: PathBuf,
    pub timeout_seconds: u64,
    pub allow_extra_args: bool,
    pub defined_in: PathBuf,
}

#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunResult {
    pub name: String,
    /// The argv that ran, extra arguments included.
    pub argv: Vec<String>,
    pub cwd: PathBuf,
    pub exit_code: Option<i32>,
    /// The signal that ended the process, if one did.
    pub signal: Option<i32>,
    pub timed_out: bool,
    pub timeout_seconds: u64,
    pub duration_ms: u64,
    pub stdout: String,
    pub stderr: String,
    /// Output past the ceiling was dropped, or a process the command left running still held
    /// the pipe when reading stopped.
    pub stdout_truncated: bool,
    pub stderr_truncated: bool,
}

impl RunResult {
    pub fn succeeded(&self) -> bool {
        !self.timed_out && self.exit_code == Some(0)
    }
}

/// Folds the manifests from the scope root down: a deeper definition replaces one of the same
/// name, and `null` deletes it.
pub(super) fn registry(levels: &[Level]) -> BTreeMap<String, Command> {
    let mut out = BTreeMap::new();
    for level in levels {
        let Some(manifest) = &level.manifest else {
            continue;
        };
        for (name, def) in &manifest.commands {
            let Some(def) = def else {
                out.remove(name);
                continue;
            };
            let cwd = match def.cwd.as_deref() {
                Some(cwd) => level.dir.join(cwd),
                None => level.dir.clone(),
            };
            out.insert(
                name.clone(),
                Command {
                    name: name.clone(),
                    description: def.description.clone(),
                    argv: def.argv.clone(),
                    cwd,
                    timeout_seconds: def.timeout_seconds.unwrap_or(DEFAULT_TIMEOUT_SECONDS),
                    allow_extra_args: def.allow_extra_args,
                    defined_in: level.dir.join(MANIFEST_FILE),
                },
            );
        }
    }
    out
}

/// Checks everything, then runs the command once.
pub(super) async fn run(
    command: &Command,
    scope_root: &Path,
    extra_args: &[String],
    timeout_seconds: Option<u64>,
) -> Result<RunResult, ToolError> {
    if !extra_args.is_empty() && !command.allow_extra_args {
        return Err(ToolError::bad_args(format!(
            "command {:?} takes no extra arguments (its manifest does not set allow_extra_args)",
            command.name
        )));
    }
    if extra_args.iter().any(|a| a.contains('\0')) {
        return Err(ToolError::bad_args("an argument contains a NUL byte"));
    }
    let timeout_seconds = allowed_timeout(command, timeout_seconds)?;
    let cwd = trusted_cwd(command, scope_root)?;
    let mut argv = command.argv.clone();
    argv.extend(extra_args.iter().cloned());
    let mut cmd = tokio::process::Command::new(&argv[0]);
    cmd.args(&argv[1..]).current_dir(&cwd);
    let started = Instant::now();
    let ran = process::run(cmd, Duration::from_secs(timeout_seconds), OUTPUT_CEILING)
        .await
        .map_err(|e| match e {
            RunError::Spawn(e) => ToolError::refused(
                Code::ManifestInvalid,
                format!(
                    "command {:?}: cannot start {:?}: {e}",
                    command.name, argv[0]
                ),
            ),
            RunError::Wait(e) => {
                ToolError::failed(Code::Internal, format!("waiting for the command: {e}"))
            }
        })?;
    let duration_ms = started.elapsed().as_millis() as u64;
    let (status, timed_out) = (ran.status, ran.timed_out);
    let text = |c: &process::Captured| String::from_utf8_lossy(&c.bytes).into_owned();
    tracing::info!(
        command = %command.name,
        exit_code = ?status.code(),
        timed_out,
        duration_ms,
        "registered command finished"
    );
    Ok(RunResult {
        name: command.name.clone(),
        argv,
        cwd,
        exit_code: status.code(),
        signal: crate::shared::platform::tree::killed_by(status),
        timed_out,
        timeout_seconds,
        duration_ms,
        stdout: text(&ran.stdout),
        stderr: text(&ran.stderr),
        stdout_truncated: ran.stdout.cut,
        stderr_truncated: ran.stderr.cut,
    })
}

/// The command's own timeout, or a lower one the caller asked for.
fn allowed_timeout(command: &Command, asked: Option<u64>) -> Result<u64, ToolError> {
    match asked {
        None => Ok(command.timeout_seconds),
        Some(t) if (1..=command.timeout_seconds).contains(&t) => Ok(t),
        Some(t) => Err(ToolError::bad_args(format!(
            "timeout_seconds {t} is not allowed: a caller may lower the timeout to 1 but not \
             raise it above the registered {} s",
            command.timeout_seconds
        ))),
    }
}

/// The directory the command runs in, inside the scope root and trusted all the way down; and a
/// program named by a path, trusted too. The manifest was trusted when read; these must be as
/// well, or someone else could put the program there.
fn trusted_cwd(command: &Command, scope_root: &Path) -> Result<PathBuf, ToolError> {
    let cwd = std::fs::canonicalize(&command.cwd).map_err(|e| {
        ToolError::refused(
            Code::ManifestInvalid,
            format!(
                "command {:?}: cwd {} cannot be used: {e}",
                command.name,
                command.cwd.display()
            ),
        )
    })?;
    if !cwd.starts_with(scope_root) || !cwd.is_dir() {
        return Err(ToolError::refused(
            Code::ManifestInvalid,
            format!(
                "command {:?}: cwd {} is not a directory inside the scope root {}",
                command.name,
                cwd.display(),
                scope_root.display()
            ),
        ));
    }
    for dir in cwd.ancestors().take_while(|a| a.starts_with(scope_root)) {
        trust::require(dir)?;
    }
    if command.argv[0].contains('/')
        && let Ok(program) = std::fs::canonicalize(cwd.join(&command.argv[0]))
    {
        if let Some(folder) = program.parent() {
            trust::require(folder)?;
        }
        trust::require(&program)?;
    }
    Ok(cwd)
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::testutil::Tree;
    use super::super::{Context, discover};
    use super::*;

    const MANIFEST: &str = ".tabpilot/agent.json";

    fn ctx(t: &Tree, cwd: &str) -> Context {
        discover(&t.env(cwd), None).unwrap()
    }

    fn runtime() -> tokio::runtime::Runtime {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
    }

    #[test]
    fn deeper_manifests_override_by_name_and_null_deletes() {
        let t = Tree::new("registry");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {
                "test": {"description": "all tests", "argv": ["make", "test"]},
                "lint": {"description": "lint", "argv": ["make", "lint"]},
                "build": {"description": "build", "argv": ["make"]}}}"#,
        );
        t.write(
            &format!("repo/web/{MANIFEST}"),
            r#"{"version": 1, "commands": {
                "test": {"description": "web tests", "argv": ["npm", "test"], "timeout_seconds": 5},
                "lint": null}}"#,
        );
        let c = ctx(&t, "repo/web").commands;
        assert_eq!(c.keys().collect::<Vec<_>>(), ["build", "test"]);
        assert_eq!(c["test"].argv, ["npm", "test"]);
        assert_eq!(c["test"].timeout_seconds, 5);
        assert_eq!(c["test"].cwd, t.path("repo/web"));
        assert_eq!(c["build"].timeout_seconds, DEFAULT_TIMEOUT_SECONDS);
        assert_eq!(
            ctx(&t, "repo").commands.len(),
            3,
            "the parent still sees its own"
        );
    }

    #[test]
    fn shell_characters_are_one_literal_argument() {
        let t = Tree::new("literal");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {
                "echo": {"argv": ["printf", "[%s]\n", "a; touch pwned-1"], "allow_extra_args": true}}}"#,
        );
        let c = ctx(&t, "repo");
        let extra = vec![
            "x; rm -rf canary; touch pwned-2".to_string(),
            "$(touch pwned-3) | cat".into(),
        ];
        t.write("repo/canary", "still here");
        let r = runtime()
            .block_on(c.run_command("echo", &extra, None))
            .unwrap();
        assert!(r.succeeded(), "{r:?}");
        assert_eq!(
            r.stdout,
            "[a; touch pwned-1]\n[x; rm -rf canary; touch pwned-2]\n[$(touch pwned-3) | cat]\n"
        );
        assert!(t.path("repo/canary").exists());
        for n in 1..=3 {
            assert!(!t.path(&format!("repo/pwned-{n}")).exists());
        }
    }

    #[test]
    fn extra_args_are_refused_without_allow_extra_args() {
        let t = Tree::new("extra");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {"t": {"argv": ["touch", "ran"]}}}"#,
        );
        let c = ctx(&t, "repo");
        let err = runtime()
            .block_on(c.run_command("t", &["more".to_string()], None))
            .unwrap_err();
        assert_eq!(err.code, Code::BadArgs);
        assert!(!t.path("repo/ran").exists(), "refused means nothing ran");
        assert!(
            runtime()
                .block_on(c.run_command("t", &[], None))
                .unwrap()
                .succeeded()
        );
        assert!(t.path("repo/ran").exists());
    }

    #[test]
    fn a_caller_may_lower_the_timeout_but_not_raise_it() {
        let t = Tree::new("raise");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {"t": {"argv": ["true"], "timeout_seconds": 10}}}"#,
        );
        let c = ctx(&t, "repo");
        let rt = runtime();
        assert_eq!(
            rt.block_on(c.run_command("t", &[], Some(11)))
                .unwrap_err()
                .code,
            Code::BadArgs
        );
        assert_eq!(
            rt.block_on(c.run_command("t", &[], Some(0)))
                .unwrap_err()
                .code,
            Code::BadArgs
        );
        assert_eq!(
            rt.block_on(c.run_command("t", &[], Some(3)))
                .unwrap()
                .timeout_seconds,
            3
        );
        assert_eq!(
            rt.block_on(c.run_command("nope", &[], None))
                .unwrap_err()
                .code,
            Code::NotFound
        );
    }

    #[test]
    fn a_timeout_kills_the_process_group() {
        let t = Tree::new("timeout");
        t.mkdir("repo/.git");
        // The grandchild `sleep` shares the group; it records its pid so the test can look.
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {"hang": {"argv": ["sh", "-c",
                "sleep 30 & echo $! > grandchild.pid; echo started; wait"], "timeout_seconds": 1}}}"#,
        );
        let c = ctx(&t, "repo");
        let started = Instant::now();
        let r = runtime()
            .block_on(c.run_command("hang", &[], None))
            .unwrap();
        assert!(r.timed_out && !r.succeeded());
        assert_eq!(r.signal, Some(libc::SIGKILL));
        assert_eq!(r.stdout, "started\n");
        assert!(started.elapsed() < Duration::from_secs(10));
        let pid = pid_in(&t, "repo/grandchild.pid");
        assert!(gone_or_zombie(pid), "grandchild {pid} survived the timeout");
    }

    /// Issue 8, finding 12: a process that called `setsid` escaped the timeout (it left the
    /// command's process group), and holding stdout it made the answer drop the output. The
    /// sleeper here starts its own session from a subshell that exits at once, so it is neither
    /// in the command's group nor, without the command being its subreaper, below it.
    #[test]
    fn a_timeout_kills_a_process_that_left_with_setsid_and_keeps_the_output() {
        let t = Tree::new("setsid");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {"hang": {"argv": ["sh", "-c",
                "(setsid sleep 1000 & echo $! > sleeper.pid); echo started; sleep 1000"],
                "timeout_seconds": 1}}}"#,
        );
        let c = ctx(&t, "repo");
        let started = Instant::now();
        let r = runtime()
            .block_on(c.run_command("hang", &[], None))
            .unwrap();
        assert!(r.timed_out && !r.succeeded());
        assert_eq!(r.stdout, "started\n");
        assert!(
            !r.stdout_truncated,
            "the pipe closed once the tree was killed"
        );
        assert!(started.elapsed() < Duration::from_secs(10));
        let pid = pid_in(&t, "repo/sleeper.pid");
        assert!(
            gone_or_zombie(pid),
            "the setsid sleeper {pid} survived the timeout"
        );
    }

    /// Issue 8, finding 12: output already captured was dropped when a background process kept
    /// the pipe open after the command ended. It comes back now, marked as cut, once the pipes
    /// have had their grace.
    #[test]
    fn output_is_kept_when_a_background_process_holds_the_pipe() {
        let t = Tree::new("holder");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {"leave": {"argv": ["sh", "-c",
                "echo captured; echo noted >&2; sleep 1000 & echo $! > holder.pid"]}}}"#,
        );
        let started = Instant::now();
        let r = runtime()
            .block_on(ctx(&t, "repo").run_command("leave", &[], None))
            .unwrap();
        let holder = pid_in(&t, "repo/holder.pid");
        // SAFETY: kill(2) on the test's own background sleeper.
        unsafe {
            libc::kill(holder, libc::SIGKILL);
        }
        assert!(started.elapsed() < Duration::from_secs(10));
        assert_eq!((r.exit_code, r.timed_out), (Some(0), false));
        assert_eq!(r.stdout, "captured\n");
        assert_eq!(r.stderr, "noted\n");
        assert!(
            r.stdout_truncated && r.stderr_truncated,
            "still open when reading stopped"
        );
    }

    /// Where nothing reaps orphans (a container's pid 1), a killed process lingers as a zombie.
    /// The pid a test command wrote to `file` in the tree.
    fn pid_in(t: &Tree, file: &str) -> i32 {
        let text = std::fs::read_to_string(t.path(file)).unwrap();
        text.trim().parse().unwrap()
    }

    fn gone_or_zombie(pid: i32) -> bool {
        for _ in 0..50 {
            match std::fs::read_to_string(format!("/proc/{pid}/stat")) {
                Err(_) => return true,
                Ok(stat)
                    if stat
                        .rsplit(')')
                        .next()
                        .unwrap_or("")
                        .trim_start()
                        .starts_with('Z') =>
                {
                    return true;
                }
                Ok(_) => std::thread::sleep(Duration::from_millis(20)),
            }
        }
        false
    }

    #[test]
    fn a_command_does_not_run_in_a_folder_others_may_write_to() {
        use std::os::unix::fs::PermissionsExt;
        let t = Tree::new("cwdtrust");
        t.mkdir("repo/.git");
        let drop = t.mkdir("repo/drop");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {
                "here": {"argv": ["touch", "ran"], "cwd": "drop"},
                "prog": {"argv": ["drop/run.sh"]}}}"#,
        );
        let script = t.write("repo/drop/run.sh", "#!/bin/sh\ntouch ran\n");
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        std::fs::set_permissions(&drop, std::fs::Permissions::from_mode(0o777)).unwrap();
        let c = ctx(&t, "repo");
        let rt = runtime();
        for name in ["here", "prog"] {
            let err = rt.block_on(c.run_command(name, &[], None)).unwrap_err();
            assert_eq!(err.code, Code::UntrustedPath, "{name}: {}", err.message);
            assert!(
                err.message.contains("writable by others"),
                "{}",
                err.message
            );
        }
        assert!(!t.path("repo/drop/ran").exists() && !t.path("repo/ran").exists());
    }

    #[test]
    fn cwd_must_stay_inside_the_scope_root() {
        let t = Tree::new("cwd");
        t.mkdir("repo/.git");
        t.mkdir("repo/sub");
        t.mkdir("outside");
        t.symlink(t.path("outside"), "repo/sneaky");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {
                "up": {"argv": ["pwd"], "cwd": ".."},
                "link": {"argv": ["pwd"], "cwd": "sneaky"},
                "sub": {"argv": ["pwd"], "cwd": "sub"}}}"#,
        );
        let c = ctx(&t, "repo");
        let rt = runtime();
        for name in ["up", "link"] {
            let err = rt.block_on(c.run_command(name, &[], None)).unwrap_err();
            assert_eq!(err.code, Code::ManifestInvalid, "{name}");
        }
        let r = rt.block_on(c.run_command("sub", &[], None)).unwrap();
        assert_eq!(r.stdout.trim(), t.path("repo/sub").to_str().unwrap());
    }

    #[test]
    fn output_is_capped_per_stream_and_exit_status_reported() {
        let t = Tree::new("ceiling");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {
                "big": {"argv": ["sh", "-c", "head -c 200000 /dev/zero | tr '\\0' a; echo oops >&2; exit 3"]}}}"#,
        );
        let r = runtime()
            .block_on(ctx(&t, "repo").run_command("big", &[], None))
            .unwrap();
        assert_eq!(r.stdout.len(), OUTPUT_CEILING);
        assert!(r.stdout_truncated && !r.stderr_truncated);
        assert_eq!(r.stderr, "oops\n");
        assert_eq!(r.exit_code, Some(3));
        assert!(!r.succeeded());
    }

    #[test]
    fn a_relative_program_is_taken_from_the_command_directory() {
        use std::os::unix::fs::PermissionsExt;
        let t = Tree::new("relprog");
        t.mkdir("repo/.git");
        let script = t.write(
            "repo/tools/hello.sh",
            "#!/bin/sh\necho \"hello from $(pwd)\"\n",
        );
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        t.write(
            &format!("repo/tools/{MANIFEST}"),
            r#"{"version": 1, "commands": {"hello": {"argv": ["./hello.sh"]}}}"#,
        );
        let r = runtime()
            .block_on(ctx(&t, "repo/tools").run_command("hello", &[], None))
            .unwrap();
        assert_eq!(
            r.stdout,
            format!("hello from {}\n", t.path("repo/tools").display())
        );
    }

    #[test]
    fn a_missing_program_is_refused() {
        let t = Tree::new("noprog");
        t.mkdir("repo/.git");
        t.write(
            &format!("repo/{MANIFEST}"),
            r#"{"version": 1, "commands": {"x": {"argv": ["definitely-not-a-program-here"]}}}"#,
        );
        let err = runtime()
            .block_on(ctx(&t, "repo").run_command("x", &[], None))
            .unwrap_err();
        assert_eq!(err.code, Code::ManifestInvalid);
    }
}
