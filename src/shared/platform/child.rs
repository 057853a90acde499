//! A child that outlives us, one that dies with us, and asking one to end.
//!
//! - Detached (the relay, a browser `tabpilot launch` leaves running): its own session on Unix
//!   (`setsid`), so the terminal's hangup does not reach it; on Windows a detached process in a
//!   new process group, so the console's Ctrl-C does not.
//! - Tied to us (the browser of `mcp --launch`): on Linux the kernel sends it SIGTERM when we
//!   die (`PR_SET_PDEATHSIG`). macOS has no such switch: a watcher forked beside it waits on
//!   kqueue for our exit (`EVFILT_PROC`, `NOTE_EXIT`) and then sends the SIGTERM. On Windows it
//!   goes in a Job object that kills its processes when its last handle closes, which the system
//!   does when we exit, however we end.

use std::io;
use std::process::{Child, Command};

/// Readies `cmd` to run detached from us and our terminal.
pub fn detach(cmd: &mut Command) {
    #[cfg(unix)]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: setsid is async-signal-safe and touches only the child.
        unsafe {
            cmd.pre_exec(|| {
                libc::setsid();
                Ok(())
            });
        }
    }
    #[cfg(windows)]
    {
        use std::os::windows::process::CommandExt;
        use windows_sys::Win32::System::Threading::{CREATE_NEW_PROCESS_GROUP, DETACHED_PROCESS};
        cmd.creation_flags(DETACHED_PROCESS | CREATE_NEW_PROCESS_GROUP);
    }
}

/// Starts `cmd` as a child that ends when this process ends.
pub fn spawn_tied(cmd: &mut Command) -> io::Result<Child> {
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe and touches only the child.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
        cmd.spawn()
    }
    #[cfg(target_os = "macos")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: watch_parent makes only async-signal-safe calls (fork, kqueue, kevent, kill,
        // _exit) and touches no memory another thread could hold.
        unsafe {
            cmd.pre_exec(|| {
                watch_parent();
                Ok(())
            });
        }
        cmd.spawn()
    }
    #[cfg(windows)]
    {
        use std::os::windows::io::AsRawHandle;
        let job = super::win::Job::new(true)?;
        let child = cmd.spawn()?;
        if let Err(e) = job.assign(child.as_raw_handle()) {
            tracing::warn!("the browser will not close with this process: {e}");
        }
        // Its handle stays open for our whole life: the system closes it as we exit, and the
        // job then ends the browser.
        std::mem::forget(job);
        Ok(child)
    }
}

/// In the child between fork and exec: forks a watcher that waits for our parent (tabpilot)
/// or the child itself to end, and sends the child SIGTERM if tabpilot went first.
#[cfg(target_os = "macos")]
unsafe fn watch_parent() {
    // SAFETY: plain system calls on this process, async-signal-safe.
    unsafe {
        let parent = libc::getppid();
        let child = libc::getpid();
        if libc::fork() != 0 {
            return;
        }
        let queue = libc::kqueue();
        let mut changes: [libc::kevent; 2] = std::mem::zeroed();
        for (change, pid) in changes.iter_mut().zip([parent, child]) {
            change.ident = pid as usize;
            change.filter = libc::EVFILT_PROC;
            change.flags = libc::EV_ADD | libc::EV_ONESHOT;
            change.fflags = libc::NOTE_EXIT;
        }
        let mut got: libc::kevent = std::mem::zeroed();
        // A process already gone fails its registration (ESRCH), which comes back as an event
        // with EV_ERROR: for the parent that is its end all the same.
        let n = libc::kevent(queue, changes.as_ptr(), 2, &mut got, 1, std::ptr::null());
        if n < 0 || got.ident == parent as usize {
            libc::kill(child, libc::SIGTERM);
        }
        libc::_exit(0);
    }
}

/// Asks `child` to end: SIGTERM on Unix, so a browser saves its profile; Windows has no such
/// request for a process without a window of ours, so it is ended outright.
pub fn ask_to_end(child: &mut Child) {
    #[cfg(unix)]
    if let Ok(pid) = i32::try_from(child.id()) {
        // SAFETY: signalling a child we started and have not reaped.
        unsafe { libc::kill(pid, libc::SIGTERM) };
    }
    #[cfg(windows)]
    let _ = child.kill();
}
