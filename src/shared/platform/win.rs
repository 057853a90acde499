//! The Win32 calls behind the platform modules: the owner-only ACL, Job objects, whether a
//! process lives, ShellExecute. Each returns an `io::Error` from the system's own error code.

use std::ffi::{OsStr, c_void};
use std::io;
use std::os::windows::ffi::OsStrExt;
use std::path::Path;
use std::ptr::{null, null_mut};

use windows_sys::Win32::Foundation::{CloseHandle, HANDLE, LocalFree, STILL_ACTIVE};
use windows_sys::Win32::Security::Authorization::{
    ConvertSecurityDescriptorToStringSecurityDescriptorW, ConvertSidToStringSidW,
    ConvertStringSecurityDescriptorToSecurityDescriptorW, GetNamedSecurityInfoW, SDDL_REVISION_1,
    SE_FILE_OBJECT,
};
use windows_sys::Win32::Security::{
    ACL, DACL_SECURITY_INFORMATION, GetTokenInformation, PROTECTED_DACL_SECURITY_INFORMATION,
    PSECURITY_DESCRIPTOR, SetKernelObjectSecurity, TOKEN_QUERY, TOKEN_USER, TokenUser,
};
use windows_sys::Win32::Storage::FileSystem::{
    FILE_FLAG_BACKUP_SEMANTICS, READ_CONTROL, WRITE_DAC,
};
use windows_sys::Win32::System::JobObjects::{
    AssignProcessToJobObject, CreateJobObjectW, JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE,
    JOBOBJECT_EXTENDED_LIMIT_INFORMATION, JobObjectExtendedLimitInformation,
    SetInformationJobObject, TerminateJobObject,
};
use windows_sys::Win32::System::Threading::{
    GetCurrentProcess, GetExitCodeProcess, OpenProcess, OpenProcessToken,
    PROCESS_QUERY_LIMITED_INFORMATION,
};
use windows_sys::Win32::UI::Shell::ShellExecuteW;
use windows_sys::Win32::UI::WindowsAndMessaging::SW_SHOWNORMAL;

/// `text` as a NUL-terminated wide string.
fn wide(text: &OsStr) -> Vec<u16> {
    text.encode_wide().chain([0]).collect()
}

/// A wide string the system allocated, read and handed back with `LocalFree`.
///
/// # Safety
/// `p` is null or a NUL-terminated string from `LocalAlloc`, not used after.
unsafe fn take_local(p: *mut u16) -> String {
    if p.is_null() {
        return String::new();
    }
    // SAFETY: the caller gives a NUL-terminated string; its length is read up to the NUL.
    let text = unsafe {
        let len = (0..).take_while(|&i| *p.add(i) != 0).count();
        String::from_utf16_lossy(std::slice::from_raw_parts(p, len))
    };
    // SAFETY: the string came from LocalAlloc and is not used again.
    unsafe { LocalFree(p.cast()) };
    text
}

/// This user's SID as a string (`S-1-5-21-...`), from the process's token.
fn my_sid() -> io::Result<String> {
    let mut token: HANDLE = null_mut();
    // SAFETY: the pseudo-handle of this process; the token handle is closed below.
    if unsafe { OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &mut token) } == 0 {
        return Err(io::Error::last_os_error());
    }
    let mut buf = vec![0u64; 64];
    let mut len = 0u32;
    // SAFETY: the buffer is 512 bytes and 8-aligned, room for a TOKEN_USER and its SID.
    let ok =
        unsafe { GetTokenInformation(token, TokenUser, buf.as_mut_ptr().cast(), 512, &mut len) };
    let err = io::Error::last_os_error();
    // SAFETY: the token handle opened above.
    unsafe { CloseHandle(token) };
    if ok == 0 {
        return Err(err);
    }
    // SAFETY: filled by GetTokenInformation with a TOKEN_USER at the buffer's start.
    let sid = unsafe { (*buf.as_ptr().cast::<TOKEN_USER>()).User.Sid };
    let mut text = null_mut();
    // SAFETY: the SID lives in `buf`, still in scope; the string is freed by take_local.
    if unsafe { ConvertSidToStringSidW(sid, &mut text) } == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a string ConvertSidToStringSidW allocated.
    Ok(unsafe { take_local(text) })
}

/// Gives `path` a protected ACL with one entry: full control for this user (inherited by what
/// is made in a folder). Nothing is inherited from above, so a share or a folder others may
/// read does not open it up. Set on the file opened as itself (a folder with backup
/// semantics), with the descriptor as made: `SetNamedSecurityInfo` would merge the parent's
/// inheritable entries in where an implementation (Wine's) overlooks the protection.
pub(super) fn owner_only(path: &Path, folder: bool) -> io::Result<()> {
    use std::os::windows::fs::OpenOptionsExt;
    use std::os::windows::io::AsRawHandle;
    let file = std::fs::OpenOptions::new()
        .access_mode(READ_CONTROL | WRITE_DAC)
        .custom_flags(if folder {
            FILE_FLAG_BACKUP_SEMANTICS
        } else {
            0
        })
        .open(path)?;
    let inherit = if folder { "OICI" } else { "" };
    let sddl = format!("D:P(A;{inherit};FA;;;{})", my_sid()?);
    let mut sd: PSECURITY_DESCRIPTOR = null_mut();
    // SAFETY: a NUL-terminated SDDL string; the descriptor is freed below.
    let made = unsafe {
        ConvertStringSecurityDescriptorToSecurityDescriptorW(
            wide(OsStr::new(&sddl)).as_ptr(),
            SDDL_REVISION_1,
            &mut sd,
            null_mut(),
        )
    };
    if made == 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a handle opened for WRITE_DAC above and the descriptor just made.
    let ok = unsafe {
        SetKernelObjectSecurity(
            file.as_raw_handle(),
            DACL_SECURITY_INFORMATION | PROTECTED_DACL_SECURITY_INFORMATION,
            sd,
        )
    };
    let err = io::Error::last_os_error();
    // SAFETY: allocated by ConvertStringSecurityDescriptorToSecurityDescriptorW.
    unsafe { LocalFree(sd) };
    if ok == 0 { Err(err) } else { Ok(()) }
}

/// What a grant in an ACL is looked for.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Grant {
    /// Anything at all, to anyone but this user and the system (which, like root, can take
    /// any file): what owner-only rules out.
    Any,
    /// Writing, to anyone but this user, the system and the administrators (who can take any
    /// file anyway): what makes a project folder untrusted, as group or other write does on Unix.
    Write,
}

/// Whom else `path`'s ACL grants `grant` (their SIDs, as SDDL writes them); empty when none.
/// No ACL at all lets everyone in.
pub(super) fn others_in_acl(path: &Path, grant: Grant) -> io::Result<Vec<String>> {
    let mut sd: PSECURITY_DESCRIPTOR = null_mut();
    let mut dacl: *mut ACL = null_mut();
    // SAFETY: out-pointers for the DACL and the descriptor, freed below.
    let status = unsafe {
        GetNamedSecurityInfoW(
            wide(path.as_os_str()).as_ptr(),
            SE_FILE_OBJECT,
            DACL_SECURITY_INFORMATION,
            null_mut(),
            null_mut(),
            &mut dacl,
            null_mut(),
            &mut sd,
        )
    };
    if status != 0 {
        return Err(io::Error::from_raw_os_error(status as i32));
    }
    let mut text = null_mut();
    // SAFETY: `sd` from GetNamedSecurityInfoW; both it and the string are freed here.
    let sddl = unsafe {
        let ok = ConvertSecurityDescriptorToStringSecurityDescriptorW(
            sd,
            SDDL_REVISION_1,
            DACL_SECURITY_INFORMATION,
            &mut text,
            null_mut(),
        );
        LocalFree(sd);
        if ok == 0 {
            return Err(io::Error::last_os_error());
        }
        take_local(text)
    };
    Ok(grantees(&sddl, &my_sid()?, grant))
}

/// The SIDs other than `me` that `sddl`'s DACL grants `grant` on the object itself
/// (inherit-only entries apply to what is made inside, not to it).
fn grantees(sddl: &str, me: &str, grant: Grant) -> Vec<String> {
    let Some(dacl) = sddl.split_once("D:").map(|(_, d)| d) else {
        return vec!["everyone (no ACL)".into()];
    };
    if dacl.starts_with("NO_ACCESS_CONTROL") {
        return vec!["everyone (no ACL)".into()];
    }
    dacl.split('(')
        .filter_map(|ace| ace.split(')').next())
        .filter_map(|ace| {
            let fields: Vec<&str> = ace.split(';').collect();
            let (kind, flags, sid) = (fields.first()?, fields.get(1)?, fields.last()?);
            let counts = match grant {
                Grant::Any => *sid != "SY",
                Grant::Write => !["SY", "BA"].contains(sid) && writes(fields.get(2)?),
            };
            (*kind == "A" && !flags.contains("IO") && *sid != me && counts).then(|| sid.to_string())
        })
        .collect()
}

/// Whether the rights an ACE writes (a hex mask, or SDDL's two-letter codes) include changing
/// a file or folder: writing or appending data, adding or deleting entries, deleting, or
/// changing its ACL or owner.
fn writes(rights: &str) -> bool {
    const WRITE: u32 =
        0x2 | 0x4 | 0x40 | 0x1_0000 | 0x4_0000 | 0x8_0000 | 0x1000_0000 | 0x4000_0000;
    const CODES: [(&str, u32); 12] = [
        ("GA", 0x1000_0000),
        ("GW", 0x4000_0000),
        ("FA", 0x1f_01ff),
        ("FW", 0x12_0116),
        ("DC", 0x2),
        ("LC", 0x4),
        ("DT", 0x40),
        ("SD", 0x1_0000),
        ("WD", 0x4_0000),
        ("WO", 0x8_0000),
        ("KA", 0xf_003f),
        ("KW", 0x2_0006),
    ];
    let mask = match rights.strip_prefix("0x") {
        Some(hex) => u32::from_str_radix(hex, 16).unwrap_or(u32::MAX),
        None => rights
            .as_bytes()
            .chunks(2)
            .filter_map(|c| CODES.iter().find(|(code, _)| code.as_bytes() == c))
            .fold(0, |mask, (_, bits)| mask | bits),
    };
    mask & WRITE != 0
}

/// A Job object: the processes put in it end together.
pub(super) struct Job(HANDLE);

// SAFETY: a job handle may be used and closed from any thread.
unsafe impl Send for Job {}
// SAFETY: as above; the calls made through `&Job` are thread-safe kernel calls.
unsafe impl Sync for Job {}

impl Job {
    /// A new job; with `kill_on_close`, its processes end when its last handle closes, which
    /// the system does when this process exits, however it ends.
    pub(super) fn new(kill_on_close: bool) -> io::Result<Job> {
        // SAFETY: an anonymous job with default security.
        let handle = unsafe { CreateJobObjectW(null(), null()) };
        if handle.is_null() {
            return Err(io::Error::last_os_error());
        }
        let job = Job(handle);
        if kill_on_close {
            // SAFETY: a zeroed limit struct is valid; one flag is set.
            let mut limits: JOBOBJECT_EXTENDED_LIMIT_INFORMATION = unsafe { std::mem::zeroed() };
            limits.BasicLimitInformation.LimitFlags = JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE;
            // SAFETY: the struct and its size, for the class that reads it.
            let ok = unsafe {
                SetInformationJobObject(
                    job.0,
                    JobObjectExtendedLimitInformation,
                    (&raw const limits).cast::<c_void>(),
                    size_of::<JOBOBJECT_EXTENDED_LIMIT_INFORMATION>() as u32,
                )
            };
            if ok == 0 {
                return Err(io::Error::last_os_error());
            }
        }
        Ok(job)
    }

    /// Puts the process `process` (a handle to it) in the job; what it starts from now on is in
    /// the job too.
    pub(super) fn assign(&self, process: HANDLE) -> io::Result<()> {
        // SAFETY: both handles are live; the call only links them.
        if unsafe { AssignProcessToJobObject(self.0, process) } == 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(())
    }

    /// Ends every process in the job.
    pub(super) fn terminate(&self) {
        // SAFETY: a live job handle.
        unsafe { TerminateJobObject(self.0, 1) };
    }
}

impl Drop for Job {
    fn drop(&mut self) {
        // SAFETY: the handle this Job owns, closed once.
        unsafe { CloseHandle(self.0) };
    }
}

/// Whether process `pid` is still running.
pub(super) fn alive(pid: u32) -> bool {
    // SAFETY: a query-only handle, closed below.
    let handle = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if handle.is_null() {
        return false;
    }
    let mut code = 0u32;
    // SAFETY: the handle opened above.
    let ok = unsafe { GetExitCodeProcess(handle, &mut code) };
    // SAFETY: as above, closed once.
    unsafe { CloseHandle(handle) };
    ok != 0 && code == STILL_ACTIVE as u32
}

/// The pid of the process that started this one, from the system's process list.
pub(super) fn parent_pid() -> Option<u32> {
    use windows_sys::Win32::System::Diagnostics::ToolHelp::{
        CreateToolhelp32Snapshot, PROCESSENTRY32W, Process32FirstW, Process32NextW,
        TH32CS_SNAPPROCESS,
    };
    // SAFETY: a snapshot of the process list, closed below.
    let snapshot = unsafe { CreateToolhelp32Snapshot(TH32CS_SNAPPROCESS, 0) };
    if snapshot.is_null() || snapshot == windows_sys::Win32::Foundation::INVALID_HANDLE_VALUE {
        return None;
    }
    // SAFETY: a zeroed entry with its size set, as Process32FirstW asks.
    let mut entry: PROCESSENTRY32W = unsafe { std::mem::zeroed() };
    entry.dwSize = size_of::<PROCESSENTRY32W>() as u32;
    let me = std::process::id();
    let mut parent = None;
    // SAFETY: the snapshot and the entry above; each call fills the entry.
    let mut more = unsafe { Process32FirstW(snapshot, &mut entry) } != 0;
    while more {
        if entry.th32ProcessID == me {
            parent = Some(entry.th32ParentProcessID);
            break;
        }
        // SAFETY: as above.
        more = unsafe { Process32NextW(snapshot, &mut entry) } != 0;
    }
    // SAFETY: the snapshot handle, closed once.
    unsafe { CloseHandle(snapshot) };
    parent
}

/// When process `pid` was created (a FILETIME: 100 ns since 1601).
pub(super) fn start_time(pid: u32) -> Option<u64> {
    use windows_sys::Win32::Foundation::FILETIME;
    use windows_sys::Win32::System::Threading::GetProcessTimes;
    // SAFETY: a query-only handle, closed below.
    let handle = unsafe { OpenProcess(PROCESS_QUERY_LIMITED_INFORMATION, 0, pid) };
    if handle.is_null() {
        return None;
    }
    let zero = FILETIME {
        dwLowDateTime: 0,
        dwHighDateTime: 0,
    };
    let (mut created, mut exited, mut kernel, mut user) = (zero, zero, zero, zero);
    // SAFETY: the handle above and four FILETIMEs to fill.
    let ok = unsafe { GetProcessTimes(handle, &mut created, &mut exited, &mut kernel, &mut user) };
    // SAFETY: as above, closed once.
    unsafe { CloseHandle(handle) };
    (ok != 0).then(|| (u64::from(created.dwHighDateTime) << 32) | u64::from(created.dwLowDateTime))
}

/// Opens `url` with its registered handler (the default browser), as `start` would.
pub(super) fn shell_open(url: &str) -> io::Result<()> {
    // SAFETY: NUL-terminated strings that outlive the call; no window is named.
    let result = unsafe {
        ShellExecuteW(
            null_mut(),
            wide(OsStr::new("open")).as_ptr(),
            wide(OsStr::new(url)).as_ptr(),
            null(),
            null(),
            SW_SHOWNORMAL,
        )
    };
    // Above 32 is success; at or below, one of ShellExecute's own error numbers.
    if result as usize > 32 {
        Ok(())
    } else {
        Err(io::Error::other(format!(
            "ShellExecute could not open it (error {})",
            result as usize
        )))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grantees_are_the_allowed_sids_other_than_mine() {
        let me = "S-1-5-21-1-2-3-1000";
        assert!(grantees(&format!("D:P(A;OICI;FA;;;{me})"), me, Grant::Any).is_empty());
        let profile =
            format!("D:(A;ID;FA;;;{me})(A;ID;FA;;;SY)(A;ID;0x1200a9;;;BU)(A;OICIIO;FA;;;CO)");
        assert_eq!(grantees(&profile, me, Grant::Any), ["BU"]);
        // Users may read it (0x1200a9) and the system may write: nobody else writes.
        assert!(grantees(&profile, me, Grant::Write).is_empty());
        let shared = "D:(A;ID;0x1301bf;;;AU)(A;ID;GRGX;;;WD)";
        assert_eq!(grantees(shared, me, Grant::Write), ["AU"]);
        assert_eq!(grantees("O:BA", me, Grant::Any), ["everyone (no ACL)"]);
    }

    /// What `spawn_tied` relies on: a kill-on-close job's processes end when its last handle
    /// closes (when this process exits, the system closes it).
    #[test]
    fn a_kill_on_close_job_ends_its_processes_when_closed() {
        use std::os::windows::io::AsRawHandle;
        let mut child = std::process::Command::new("ping")
            .args(["-n", "60", "127.0.0.1"])
            .stdout(std::process::Stdio::null())
            .spawn()
            .unwrap();
        let job = Job::new(true).unwrap();
        job.assign(child.as_raw_handle()).unwrap();
        assert!(alive(child.id()));
        drop(job);
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while child.try_wait().unwrap().is_none() {
            assert!(std::time::Instant::now() < deadline, "still running");
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(!alive(child.id()));
    }
}
