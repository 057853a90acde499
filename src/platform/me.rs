//! This process as the system sees it: the user it runs as, the process that started it, how
//! many descriptors it may open, and whether another process still lives.

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

/// The process that started this one; 0 where the system does not say (Windows keeps no live
/// parent link: a parent's pid there may already name another process).
#[cfg(unix)]
pub fn parent() -> i32 {
    // SAFETY: getppid(2) has no preconditions and cannot fail.
    unsafe { libc::getppid() }
}

#[cfg(windows)]
pub fn parent() -> i32 {
    0
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
