//! Starting an application from its desktop entry, and telling which running one it became.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::desktop::{self, Entry};
use super::{Apps, Running};
use crate::controller::policy::paths::Sandbox;
use crate::shared::error::{Code, ToolError};

/// How often a launch looks for the new application's first window.
const POLL: Duration = Duration::from_millis(200);

/// Programs that run whatever they are handed (interpreters, runtimes, shells) or give a
/// terminal: an entry whose program is one opens only when the allow list names it.
const RUNS_ANYTHING: &[&str] = &[
    "python",
    "pythonw",
    "pypy",
    "perl",
    "ruby",
    "irb",
    "node",
    "nodejs",
    "deno",
    "bun",
    "php",
    "lua",
    "luajit",
    "tclsh",
    "wish",
    "sh",
    "bash",
    "zsh",
    "dash",
    "ksh",
    "mksh",
    "csh",
    "tcsh",
    "fish",
    "busybox",
    "env",
    "java",
    "javaw",
    "wine",
    "wine64",
    "mono",
    "dotnet",
    "osascript",
    "pwsh",
    "powershell",
    "xterm",
    "uxterm",
    "gnome-terminal",
    "konsole",
    "xfce4-terminal",
    "mate-terminal",
    "lxterminal",
    "qterminal",
    "terminator",
    "tilix",
    "kitty",
    "alacritty",
    "foot",
    "wezterm",
    "urxvt",
    "rxvt",
    "st",
    "x-terminal-emulator",
    "sakura",
    "guake",
    "tilda",
    "cool-retro-term",
    "terminology",
    "kgx",
    "ptyxis",
    "xdg-open",
    "gio",
    "sudo",
    "pkexec",
    "doas",
    "su",
];

/// A program's name without its folder and version (`/usr/bin/python3.12` → `python`).
fn program_name(program: &str) -> String {
    let name = program.rsplit(['/', '\\']).next().unwrap_or_default();
    let name = name.strip_suffix(".exe").unwrap_or(name).to_lowercase();
    name.trim_end_matches(|c: char| c.is_ascii_digit() || c == '.' || c == '-')
        .to_string()
}

/// Refuses an entry that is hidden from menus (`NoDisplay`) or whose program runs what it is
/// handed, unless `TABPILOT_APPS_ALLOW` names it exactly (a glob does not).
pub fn check_launchable(e: &Entry, argv: &[String]) -> Result<(), ToolError> {
    let program = argv.first().map(|p| program_name(p)).unwrap_or_default();
    let why = if e.hidden {
        "is hidden from the menus (NoDisplay)".to_string()
    } else if RUNS_ANYTHING.contains(&program.as_str()) {
        format!(
            "runs {program}, which runs whatever it is handed (an interpreter, a runtime or a terminal)"
        )
    } else {
        return Ok(());
    };
    if super::named_exactly(&e.id) {
        return Ok(());
    }
    Err(ToolError::refused(
        Code::AppNotAllowed,
        format!(
            "{} {why}: it opens only when {} names it, by its id",
            e.id,
            crate::shared::settings::Setting::AppsAllow
        ),
    ))
}

/// The person's downloads folder: `XDG_DOWNLOAD_DIR` (the environment, else user-dirs.dirs),
/// else `~/Downloads`.
fn downloads_folder() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)?;
    let config = std::env::var_os("XDG_CONFIG_HOME")
        .filter(|c| !c.is_empty())
        .map_or_else(|| home.join(".config"), PathBuf::from);
    let named = std::env::var("XDG_DOWNLOAD_DIR").ok().or_else(|| {
        let text = std::fs::read_to_string(config.join("user-dirs.dirs")).ok()?;
        let line = text
            .lines()
            .find_map(|l| l.trim().strip_prefix("XDG_DOWNLOAD_DIR="))?;
        Some(line.trim_matches('"').to_string())
    });
    let home_text = home.to_string_lossy().into_owned();
    Some(named.map_or_else(
        || home.join("Downloads"),
        |n| PathBuf::from(n.replace("$HOME", &home_text)),
    ))
}

/// Where pages write: tabpilot's temp folder (the managed browser's downloads, and what tools
/// wrote from pages) and the person's downloads folder.
fn written_by_pages() -> Vec<PathBuf> {
    let places = [
        crate::controller::policy::paths::temp_folder().ok(),
        downloads_folder(),
    ];
    places
        .into_iter()
        .flatten()
        .filter_map(|p| p.canonicalize().ok())
        .collect()
}

/// Refuses a file (already resolved) from where pages write: an agent never hands one to an
/// application; the person opens it themselves.
fn check_not_from_pages(file: &Path, places: &[PathBuf]) -> Result<(), ToolError> {
    if !places.iter().any(|p| file.starts_with(p)) {
        return Ok(());
    }
    Err(ToolError::refused(
        Code::PathOutsideSandbox,
        format!(
            "{} is where pages write (downloads, tabpilot's temp folder): a file a page may have \
             written is never handed to an application by an agent; the person must open it \
             themselves",
            file.display()
        ),
    )
    .recovered_by("ask the person to open the file themselves"))
}

/// The command line for an entry, its files admitted by the path sandbox (none from where pages
/// write) and its URLs http(s).
pub fn command(e: &Entry, files: &[String], urls: &[String]) -> Result<Vec<String>, ToolError> {
    let sandbox = Sandbox::from_process();
    let pages = written_by_pages();
    let files = files
        .iter()
        .map(|f| {
            let (path, _) = sandbox.input(f)?;
            check_not_from_pages(&path, &pages)?;
            Ok(path.display().to_string())
        })
        .collect::<Result<Vec<_>, ToolError>>()?;
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

    #[test]
    fn hidden_entries_and_programs_that_run_anything_need_the_list_to_name_them() {
        let entry = |exec: &str, hidden: bool| Entry {
            id: "x".into(),
            name: "X".into(),
            generic_name: None,
            categories: vec![],
            exec: exec.into(),
            icon: None,
            hidden,
            path: "/x.desktop".into(),
        };
        let judge = |e: Entry| check_launchable(&e, &desktop::command_line(&e, &[], &[]).unwrap());
        for exec in [
            "/usr/bin/python3.12 %f",
            "env FOO=1 perl %f",
            "xterm -e vim",
            "bash -c 'x'",
            "gnome-terminal",
            "wine64 %f",
        ] {
            let e = judge(entry(exec, false)).unwrap_err();
            assert_eq!(e.code, Code::AppNotAllowed, "{exec}");
        }
        assert!(judge(entry("gnome-calculator", false)).is_ok());
        let hidden = judge(entry("gnome-calculator", true)).unwrap_err();
        assert!(hidden.message.contains("NoDisplay"), "{}", hidden.message);
        assert_eq!(program_name("/usr/bin/python3.12"), "python");
        assert_eq!(program_name("nodejs"), "nodejs");
    }

    #[test]
    fn a_file_from_where_pages_write_is_never_handed_over() {
        let pages = [PathBuf::from("/tmp/tabpilot-1000")];
        let downloaded = Path::new("/tmp/tabpilot-1000/downloads/run.py");
        let e = check_not_from_pages(downloaded, &pages).unwrap_err();
        assert!(
            e.message.contains("the person must open it"),
            "{}",
            e.message
        );
        assert!(check_not_from_pages(Path::new("/work/project/notes.txt"), &pages).is_ok());
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
