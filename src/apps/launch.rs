//! Starting an application from its desktop entry, and telling which running one it became.

use std::time::Duration;

use super::desktop::{self, Entry};
use super::{Apps, Running};
use crate::error::{Code, ToolError};
use crate::policy::paths::Sandbox;

/// How often a launch looks for the new application's first window.
const POLL: Duration = Duration::from_millis(200);

/// The command line for an entry, its files admitted by the path sandbox and its URLs http(s).
pub fn command(e: &Entry, files: &[String], urls: &[String]) -> Result<Vec<String>, ToolError> {
    let sandbox = Sandbox::from_process();
    let files = files
        .iter()
        .map(|f| sandbox.input(f).map(|(p, _)| p.display().to_string()))
        .collect::<Result<Vec<_>, _>>()?;
    for u in urls {
        let scheme = url::Url::parse(u).map(|p| p.scheme().to_string());
        if !matches!(scheme.as_deref(), Ok("http" | "https")) {
            return Err(ToolError::bad_args(format!(
                "urls: {u:?} is not an http or https address"
            )));
        }
    }
    desktop::command_line(e, &files, urls)
}

/// Starts the program, no shell, with accessibility on for the toolkits that ask (Qt, older
/// GTK), detached from tabpilot's terminal; the child is reaped when it exits.
pub fn spawn(argv: &[String]) -> Result<u32, ToolError> {
    let mut cmd = tokio::process::Command::new(&argv[0]);
    cmd.args(&argv[1..])
        .env("GNOME_ACCESSIBILITY", "1")
        .env("QT_ACCESSIBILITY", "1")
        .env("QT_LINUX_ACCESSIBILITY_ALWAYS_ON", "1")
        .env_remove("NO_AT_BRIDGE")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null());
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(|e| {
        ToolError::failed(
            Code::NotFound,
            format!("its program {:?} cannot be started: {e}", argv[0]),
        )
        .recovered_by("list_local_applications")
    })?;
    let pid = child.id().unwrap_or_default();
    tokio::spawn(async move {
        let _ = child.wait().await;
    });
    Ok(pid)
}

/// Whether `pid` is `ancestor` or was started by it (a launcher script, a wrapper).
pub fn descends(pid: u32, ancestor: u32) -> bool {
    let mut at = Some(pid);
    for _ in 0..8 {
        match at {
            Some(p) if p == ancestor => return true,
            Some(p) if p > 1 => at = super::parent_pid(p),
            _ => return false,
        }
    }
    false
}

/// Waits, up to `wait`, for the launched process (or one it started) to show a window on the
/// accessibility bus.
pub async fn first_window(apps: &Apps, pid: u32, wait: Duration) -> Result<Running, ToolError> {
    let bus = apps.bus().await?;
    let deadline = tokio::time::Instant::now() + wait;
    loop {
        let running = bus.running().await?;
        let found = running
            .into_iter()
            .find(|r| r.pid.is_some_and(|p| descends(p, pid)) && !r.windows.is_empty());
        if let Some(app) = found {
            return Ok(app);
        }
        if tokio::time::Instant::now() >= deadline {
            return Err(ToolError::failed(
                Code::AppNoTree,
                format!(
                    "pid {pid} showed no window with an accessibility tree in {} ms",
                    wait.as_millis()
                ),
            ));
        }
        tokio::time::sleep(POLL).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_http_and_https_urls_go_to_an_application() {
        let e = Entry {
            id: "b".into(),
            name: "B".into(),
            generic_name: None,
            categories: vec![],
            exec: "b %U".into(),
            icon: None,
            hidden: false,
            path: "/b.desktop".into(),
        };
        let https = ["https://example.com/".to_string()];
        assert_eq!(
            command(&e, &[], &https).unwrap(),
            ["b", "https://example.com/"]
        );
        for bad in ["file:///etc/passwd", "javascript:alert(1)", "not a url"] {
            assert!(command(&e, &[], &[bad.to_string()]).is_err(), "{bad}");
        }
        assert!(command(&e, &["/etc/passwd".to_string()], &[]).is_err());
    }

    // Parents come from /proc: the apps tools are Linux's (AT-SPI) for now.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_process_descends_from_itself_and_its_parents() {
        let me = std::process::id();
        assert!(descends(me, me));
        assert!(descends(me, super::super::parent_pid(me).unwrap()));
        assert!(!descends(1, me));
    }
}
