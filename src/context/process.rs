//! Running a registered command as a tree of processes, with a deadline that holds for the whole
//! tree and output that is never lost to a process still holding the pipes.
//!
//! - The command leads its own process group, and is made a child subreaper
//!   (`PR_SET_CHILD_SUBREAPER`) before it starts: whatever it starts stays below it, even a
//!   process that double-forks or calls `setsid`, instead of being handed to init.
//! - On timeout (or when the call is abandoned) the tree is frozen with `SIGSTOP` pass by pass
//!   until no new descendant appears, then every process in it, its group and the command itself
//!   get `SIGKILL`.
//! - stdout and stderr are read as they come, each up to a ceiling. Once the command has ended
//!   (or been killed), the pipes get [`DRAIN_GRACE`] to close; a background process that still
//!   holds one then no longer delays the answer, and what was read is returned, marked as cut.

use std::collections::{HashMap, HashSet};
use std::io;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::time::Instant;

/// How long the pipes may stay open after the command ends or is killed (a background process
/// can hold them); past it the output read so far is returned.
pub(super) const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// What a run left behind.
pub(super) struct Finished {
    pub(super) status: ExitStatus,
    pub(super) timed_out: bool,
    pub(super) stdout: Captured,
    pub(super) stderr: Captured,
}

/// One stream's output, up to the ceiling.
pub(super) struct Captured {
    pub(super) bytes: Vec<u8>,
    /// Output past the ceiling was dropped, or the pipe was still open when reading stopped.
    pub(super) cut: bool,
}

pub(super) enum RunError {
    /// The program could not be started.
    Spawn(io::Error),
    /// Waiting for it failed.
    Wait(io::Error),
}

/// Runs `cmd` (program, arguments and directory set) with empty stdin and piped output, kills
/// its whole tree when `timeout` passes, and keeps up to `ceiling` bytes of each stream.
pub(super) async fn run(
    mut cmd: tokio::process::Command,
    timeout: Duration,
    ceiling: usize,
) -> Result<Finished, RunError> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .kill_on_drop(true);
    // SAFETY: the closure runs in the child between fork and exec and only calls prctl(2),
    // which is async-signal-safe and touches no memory. The attribute survives exec.
    unsafe {
        cmd.pre_exec(|| {
            libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
            Ok(())
        });
    }
    let mut child = cmd.spawn().map_err(RunError::Spawn)?;
    let deadline = Instant::now() + timeout;
    let mut tree = Tree(child.id().and_then(|p| i32::try_from(p).ok()));
    let mut out = Reader::new(child.stdout.take(), ceiling);
    let mut err = Reader::new(child.stderr.take(), ceiling);
    let mut status = None;
    let mut timed_out = false;
    let mut cutoff: Option<Instant> = None;
    // A time that never comes, for the branches that are switched off.
    let never = Instant::now() + Duration::from_secs(86_400 * 365);
    loop {
        if status.is_some() && !out.open() && !err.open() {
            break;
        }
        tokio::select! {
            () = out.read_some(), if out.open() => {}
            () = err.read_some(), if err.open() => {}
            waited = child.wait(), if status.is_none() => {
                status = Some(waited.map_err(RunError::Wait)?);
                // Reaped: its pid may be reused, so the tree must not be signalled from now on.
                tree.0 = None;
                cutoff.get_or_insert(Instant::now() + DRAIN_GRACE);
            }
            () = tokio::time::sleep_until(deadline), if !timed_out && status.is_none() => {
                timed_out = true;
                tree.kill();
                cutoff = Some(Instant::now() + DRAIN_GRACE);
            }
            () = tokio::time::sleep_until(cutoff.unwrap_or(never)), if cutoff.is_some() => break,
        }
    }
    let status = match status {
        Some(s) => s,
        // Killed at the deadline; it ends as soon as the kernel has delivered SIGKILL.
        None => child.wait().await.map_err(RunError::Wait)?,
    };
    Ok(Finished {
        status,
        timed_out,
        stdout: out.finish(),
        stderr: err.finish(),
    })
}

/// Reads one stream as it comes, keeping up to a ceiling and dropping the rest, so the child
/// never blocks on a full pipe.
struct Reader<R> {
    stream: Option<R>,
    kept: Vec<u8>,
    cap: usize,
    over: bool,
    chunk: Vec<u8>,
}

impl<R: AsyncRead + Unpin> Reader<R> {
    fn new(stream: Option<R>, cap: usize) -> Self {
        Reader {
            stream,
            kept: Vec::new(),
            cap,
            over: false,
            chunk: vec![0; 16 * 1024],
        }
    }

    fn open(&self) -> bool {
        self.stream.is_some()
    }

    /// One read; cancel-safe, so it can lose a race in `select!` without losing bytes.
    async fn read_some(&mut self) {
        let Some(stream) = self.stream.as_mut() else {
            return;
        };
        match stream.read(&mut self.chunk).await {
            Ok(0) | Err(_) => self.stream = None,
            Ok(n) => {
                let room = self.cap - self.kept.len();
                if n > room {
                    self.over = true;
                }
                self.kept.extend_from_slice(&self.chunk[..n.min(room)]);
            }
        }
    }

    fn finish(self) -> Captured {
        Captured {
            cut: self.over || self.stream.is_some(),
            bytes: self.kept,
        }
    }
}

/// The command's process while it runs; killing it kills everything below it too. Dropped
/// while the command still runs (the call was abandoned), it kills the tree.
struct Tree(Option<i32>);

impl Tree {
    fn kill(&mut self) {
        if let Some(leader) = self.0.take().filter(|p| *p > 1) {
            kill_tree(leader);
        }
    }
}

impl Drop for Tree {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Freezes `leader` and everything below it (pass by pass, until a pass finds no new process:
/// a stopped process cannot fork), then kills them all, the process group included.
fn kill_tree(leader: i32) {
    signal(leader, libc::SIGSTOP);
    let mut seen: HashSet<i32> = HashSet::new();
    for _ in 0..100 {
        let fresh: Vec<i32> = descendants(leader)
            .into_iter()
            .filter(|p| !seen.contains(p))
            .collect();
        if fresh.is_empty() {
            break;
        }
        for &pid in &fresh {
            signal(pid, libc::SIGSTOP);
        }
        seen.extend(fresh);
    }
    for &pid in &seen {
        signal(pid, libc::SIGKILL);
    }
    signal(-leader, libc::SIGKILL);
    signal(leader, libc::SIGKILL);
}

/// Sends `sig` to `pid` (a process group when negative); never to 0 or -1, which would mean
/// this group or every process.
fn signal(pid: i32, sig: i32) {
    if pid != 0 && pid != -1 {
        // SAFETY: kill(2) sends a signal and touches no memory.
        unsafe {
            libc::kill(pid, sig);
        }
    }
}

/// Every process below `root`, from each process's parent in `/proc/<pid>/stat`.
fn descendants(root: i32) -> Vec<i32> {
    let mut children: HashMap<i32, Vec<i32>> = HashMap::new();
    if let Ok(entries) = std::fs::read_dir("/proc") {
        for entry in entries.flatten() {
            let Some(pid) = entry
                .file_name()
                .to_str()
                .and_then(|n| n.parse::<i32>().ok())
            else {
                continue;
            };
            if let Some(ppid) = parent_of(pid) {
                children.entry(ppid).or_default().push(pid);
            }
        }
    }
    let mut out = Vec::new();
    let mut queue = vec![root];
    while let Some(pid) = queue.pop() {
        for &child in children.get(&pid).map(Vec::as_slice).unwrap_or_default() {
            if child != root && !out.contains(&child) {
                out.push(child);
                queue.push(child);
            }
        }
    }
    out
}

/// The parent pid in `/proc/<pid>/stat`: the field after the state, which follows the command
/// name in parentheses (a name may itself hold parentheses, so the last `)` counts).
fn parent_of(pid: i32) -> Option<i32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_is_read_from_proc() {
        let me = std::process::id() as i32;
        // SAFETY: getppid(2) cannot fail.
        assert_eq!(parent_of(me), Some(unsafe { libc::getppid() }));
        assert_eq!(parent_of(i32::MAX), None);
    }
}
