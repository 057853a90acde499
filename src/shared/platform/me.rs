//! This process as the system sees it: the user it runs as, the process that started it, how
//! many descriptors it may open; and of another process, whether it lives and when it started.

/// This process's user id (effective, as the kernel judges file access). Windows has no uid:
/// nothing there reports one, so the value is never compared with another (docs/security.md).
#[cfg(unix)]
pub fn uid() -> u32 {
    // SAFETY: geteuid(2) cannot fail and touches no memory.
    unsafe { libc::geteuid() }
}

#[cfg(windows)]
pub fn uid() -> u32 {
    u32::MAX
}

/// Whether this process runs as root (Chromium's sandbox then refuses to start).
pub fn is_root() -> bool {
    cfg!(unix) && uid() == 0
}

/// The process that started this one. On Unix an orphan gets a new parent (init, a
/// subreaper), so a change says the first one is gone; Windows keeps the pid it was started by
/// (from the system's process list; 0 if it is not there), which never changes.
#[cfg(unix)]
pub fn parent() -> i32 {
    // SAFETY: getppid(2) has no preconditions and cannot fail.
    unsafe { libc::getppid() }
}

#[cfg(windows)]
pub fn parent() -> i32 {
    super::win::parent_pid().map_or(0, |p| p as i32)
}

/// When process `pid` started, in the system's own units: with the pid it names one process,
/// never a later one given the same pid. Linux: clock ticks since boot (field 22 of
/// `/proc/PID/stat`).
#[cfg(target_os = "linux")]
pub fn start_time(pid: u32) -> Option<u64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
    let after_name = &stat[stat.rfind(')')? + 1..];
    after_name.split_whitespace().nth(19)?.parse().ok()
}

/// macOS: microseconds since the epoch, from `proc_pidinfo`'s BSD record.
#[cfg(target_os = "macos")]
pub fn start_time(pid: u32) -> Option<u64> {
    let pid = i32::try_from(pid).ok()?;
    // SAFETY: a zeroed record is valid; proc_pidinfo writes at most its size into it.
    let mut info: libc::proc_bsdinfo = unsafe { std::mem::zeroed() };
    let size = i32::try_from(size_of::<libc::proc_bsdinfo>()).ok()?;
    // SAFETY: the buffer is the record above, of `size` bytes.
    let got =
        unsafe { libc::proc_pidinfo(pid, libc::PROC_PIDTBSDINFO, 0, (&raw mut info).cast(), size) };
    (got == size).then(|| info.pbi_start_tvsec * 1_000_000 + info.pbi_start_tvusec)
}

/// Windows: the process's creation time (100 ns since 1601).
#[cfg(windows)]
pub fn start_time(pid: u32) -> Option<u64> {
    super::win::start_time(pid)
}

/// How many descriptors this process may have open, where the system sets a limit.
#[cfg(unix)]
pub fn open_files_limit() -> Option<usize> {
    let mut limit = libc::rlimit {
        rlim_cur: 0,
        rlim_max: 0,
    };
    // SAFETY: getrlimit writes only into the struct it is given.
    if unsafe { libc::getrlimit(libc::RLIMIT_NOFILE, &mut limit) } == 0 {
        Some(usize::try_from(limit.rlim_cur).unwrap_or(usize::MAX))
    } else {
        None
    }
}

/// Windows sets no per-process limit on sockets short of memory.
#[cfg(windows)]
pub fn open_files_limit() -> Option<usize> {
    None
}

/// Whether process `pid` is still there.
#[cfg(target_os = "linux")]
pub fn alive(pid: u32) -> bool {
    std::path::Path::new(&format!("/proc/{pid}")).exists()
}

/// Whether process `pid` is still there: a null signal reaches it, or would but for permission.
#[cfg(all(unix, not(target_os = "linux")))]
pub fn alive(pid: u32) -> bool {
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill(2) with signal 0 sends nothing; it only checks the process exists.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

#[cfg(windows)]
pub fn alive(pid: u32) -> bool {
    super::win::alive(pid)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Our own start time (on Linux read past the command name in parentheses) is the same each
    /// time; a pid no process has has none.
    #[test]
    fn a_live_process_has_a_start_time_and_a_parent() {
        assert_eq!(start_time(u32::MAX), None);
        let mine = start_time(std::process::id()).expect("our own start time");
        assert_eq!(
            start_time(std::process::id()),
            Some(mine),
            "the same each time"
        );
        // Under Wine a process started from Linux has no Windows parent (0).
        #[cfg(unix)]
        assert!(parent() > 0);
        assert!(alive(std::process::id()));
    }
}
