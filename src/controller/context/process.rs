//! Running a registered command as a tree of processes, with a deadline that holds for the whole
//! tree and output that is never lost to a process still holding the pipes.
//!
//! - The command leads a process tree of its own, and on timeout (or when the call is
//!   abandoned) the whole tree is killed, each platform its own way (src/shared/platform/tree.rs: a
//!   process group and a subreaper frozen and killed on Linux, a Job object on Windows).
//! - stdout and stderr are read as they come, each up to a ceiling. Once the command has ended
//!   (or been killed), the pipes get [`DRAIN_GRACE`] to close; a background process that still
//!   holds one then no longer delays the answer, and what was read is returned, marked as cut.

use std::io;
use std::process::{ExitStatus, Stdio};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::time::Instant;

use crate::shared::platform::tree::{self, Tree};

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
        .kill_on_drop(true);
    tree::lead(&mut cmd);
    let mut child = cmd.spawn().map_err(RunError::Spawn)?;
    let deadline = Instant::now() + timeout;
    let mut tree = Tree::of(&child);
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
                tree.reaped();
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
