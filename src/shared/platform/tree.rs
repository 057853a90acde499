//! A command's whole process tree, killed together at its deadline (src/controller/context/process.rs).
//!
//! - Linux: the command leads its own process group and is made a child subreaper
//!   (`PR_SET_CHILD_SUBREAPER`), so whatever it starts stays below it, even a process that
//!   double-forks or calls `setsid`. The tree is frozen with `SIGSTOP` pass by pass (from each
//!   process's parent in `/proc`) until no new descendant appears, then all get `SIGKILL`.
//! - macOS: the same, with the children from `proc_listchildpids`; there is no subreaper, so a
//!   process that double-forks out of the group escapes.
//! - Windows: the command is put in a Job object as it starts; what it starts is in the job
//!   too, and `TerminateJobObject` ends them all. A process it starts in the instant before
//!   it joins the job escapes.

#[cfg(unix)]
pub use unix::{Tree, lead};
#[cfg(windows)]
pub use windows::{Tree, lead};

/// The signal that ended a process, if one did; Windows has no signals.
pub fn killed_by(status: std::process::ExitStatus) -> Option<i32> {
    #[cfg(unix)]
    return std::os::unix::process::ExitStatusExt::signal(&status);
    #[cfg(windows)]
    return {
        let _ = status;
        None
    };
}

#[cfg(unix)]
mod unix {
    use std::collections::HashSet;

    /// Readies `cmd` to lead a tree of its own.
    pub fn lead(cmd: &mut tokio::process::Command) {
        cmd.process_group(0);
        #[cfg(target_os = "linux")]
        // SAFETY: the closure runs in the child between fork and exec and only calls prctl(2),
        // which is async-signal-safe and touches no memory. The attribute survives exec.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
                Ok(())
            });
        }
    }

    /// The command's process while it runs; killing it kills everything below it too. Dropped
    /// while the command still runs (the call was abandoned), it kills the tree.
    pub struct Tree(Option<i32>);

    impl Tree {
        pub fn of(child: &tokio::process::Child) -> Tree {
            Tree(child.id().and_then(|p| i32::try_from(p).ok()))
        }

        /// Forgets the process: it was reaped, and its pid may be reused.
        pub fn reaped(&mut self) {
            self.0 = None;
        }

        pub fn kill(&mut self) {
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

    /// Freezes `leader` and everything below it (pass by pass, until a pass finds no new
    /// process: a stopped process cannot fork), then kills them all, the group included.
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

    /// Sends `sig` to `pid` (a process group when negative); never to 0 or -1, which would
    /// mean this group or every process.
    fn signal(pid: i32, sig: i32) {
        if pid != 0 && pid != -1 {
            // SAFETY: kill(2) sends a signal and touches no memory.
            unsafe {
                libc::kill(pid, sig);
            }
        }
    }

    /// Every process below `root`.
    fn descendants(root: i32) -> Vec<i32> {
        let children = children();
        let mut out = Vec::new();
        let mut queue = vec![root];
        while let Some(pid) = queue.pop() {
            for child in children(pid) {
                if child != root && !out.contains(&child) {
                    out.push(child);
                    queue.push(child);
                }
            }
        }
        out
    }

    /// Who is whose child, from each process's parent in `/proc/<pid>/stat`, read once.
    #[cfg(target_os = "linux")]
    fn children() -> impl Fn(i32) -> Vec<i32> {
        let mut map: std::collections::HashMap<i32, Vec<i32>> = Default::default();
        if let Ok(entries) = std::fs::read_dir("/proc") {
            for pid in entries
                .flatten()
                .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
            {
                if let Some(ppid) = parent_of(pid) {
                    map.entry(ppid).or_default().push(pid);
                }
            }
        }
        move |pid| map.get(&pid).cloned().unwrap_or_default()
    }

    /// Who is whose child, as the kernel lists a process's children when asked.
    #[cfg(target_os = "macos")]
    fn children() -> impl Fn(i32) -> Vec<i32> {
        |pid| {
            let mut pids = vec![0 as libc::pid_t; 4096];
            let bytes = libc::c_int::try_from(pids.len() * size_of::<libc::pid_t>()).unwrap_or(0);
            // SAFETY: the buffer holds `bytes` bytes; the call writes at most that many.
            let n = unsafe { libc::proc_listchildpids(pid, pids.as_mut_ptr().cast(), bytes) };
            pids.truncate(usize::try_from(n).unwrap_or(0).min(pids.len()));
            pids
        }
    }

    /// The parent pid in `/proc/<pid>/stat`: the field after the state, which follows the
    /// command name in parentheses (a name may itself hold parentheses, so the last `)`
    /// counts).
    #[cfg(target_os = "linux")]
    pub(super) fn parent_of(pid: i32) -> Option<i32> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
        let rest = &stat[stat.rfind(')')? + 1..];
        rest.split_whitespace().nth(1)?.parse().ok()
    }
}

#[cfg(windows)]
mod windows {
    use crate::shared::platform::win::Job;

    /// Nothing to ready before it starts: the job takes it once it is there.
    pub fn lead(_cmd: &mut tokio::process::Command) {}

    /// The command's job while it runs; killing it ends every process in it. Dropped while
    /// the command still runs (the call was abandoned), it kills the tree.
    pub struct Tree(Option<Job>);

    impl Tree {
        pub fn of(child: &tokio::process::Child) -> Tree {
            let job = child.raw_handle().and_then(|process| {
                let job = Job::new(false).ok()?;
                job.assign(process).ok()?;
                Some(job)
            });
            Tree(job)
        }

        /// The command ended: what it left running is let be, as on Unix (the job's handle
        /// closes without ending them).
        pub fn reaped(&mut self) {
            self.0 = None;
        }

        pub fn kill(&mut self) {
            if let Some(job) = self.0.take() {
                job.terminate();
            }
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            self.kill();
        }
    }
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    #[test]
    fn the_parent_is_read_from_proc() {
        let me = std::process::id() as i32;
        // SAFETY: getppid(2) cannot fail.
        assert_eq!(super::unix::parent_of(me), Some(unsafe { libc::getppid() }));
        assert_eq!(super::unix::parent_of(i32::MAX), None);
    }
}

#[cfg(all(test, windows))]
mod windows_tests {
    use std::process::Stdio;
    use std::time::Duration;

    use tokio::io::AsyncReadExt;

    use super::{Tree, lead};

    /// The command (cmd) and what it started (ping, holding the output pipe for a minute) end
    /// together: the pipe closes at once, which it would not while ping lived.
    #[tokio::test]
    async fn killing_the_tree_ends_the_command_and_what_it_started() {
        let mut cmd = tokio::process::Command::new("cmd");
        cmd.args(["/c", "echo started& ping -n 60 127.0.0.1"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .kill_on_drop(true);
        lead(&mut cmd);
        let mut child = cmd.spawn().unwrap();
        let mut tree = Tree::of(&child);
        let mut out = child.stdout.take().unwrap();
        let mut first = [0u8; 1];
        // Running: cmd has said so, and goes on to ping (whose output a pipe holds back).
        tokio::time::timeout(Duration::from_secs(20), out.read_exact(&mut first))
            .await
            .expect("cmd starts")
            .unwrap();
        tokio::time::sleep(Duration::from_secs(1)).await;
        tree.kill();
        let mut rest = Vec::new();
        tokio::time::timeout(Duration::from_secs(10), out.read_to_end(&mut rest))
            .await
            .expect("the pipe closes: nothing in the tree still holds it")
            .unwrap();
        let status = tokio::time::timeout(Duration::from_secs(10), child.wait())
            .await
            .expect("the command ended")
            .unwrap();
        assert!(!status.success());
    }
}
