//! Find a Chromium and start it with the embedded extension in a managed profile, told its
//! relay's ports and pairing at launch.

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use serde_json::json;

use crate::controller::link::Link;
use crate::shared::error::{Code, ToolError};
use crate::shared::settings::Setting;
use crate::shared::{extension, profiles, protocol, state};

mod prefs;
mod search;

/// `TABPILOT_BROWSER`, else the first browser found at the platform's usual places
/// (src/controller/launch/search.rs): Chromium, Chrome for Testing, then Chrome, Edge and Brave.
pub fn find_chromium() -> Result<PathBuf, ToolError> {
    if let Some(path) = Setting::Browser.get_os() {
        let path = PathBuf::from(path);
        return if path.is_file() {
            Ok(path)
        } else {
            Err(ToolError::refused(
                Code::NoBrowser,
                format!("{}={} is not a file", Setting::Browser, path.display()),
            ))
        };
    }
    if let Some(found) = search::candidates().into_iter().find(|p| p.is_file()) {
        return Ok(found);
    }
    Err(ToolError::refused(
        Code::NoBrowser,
        format!(
            "no Chromium found (looked for Chromium, Chrome for Testing, Chrome, Edge and Brave \
             {where_}). Install one ({how}), or set {} to its path. Branded Chrome ignores \
             --load-extension; use your own Chrome with `tabpilot extension path` and \
             `tabpilot pair` instead",
            Setting::Browser,
            where_ = if cfg!(windows) {
                "in the program folders"
            } else if cfg!(target_os = "macos") {
                "in /Applications and ~/Applications"
            } else {
                "on PATH"
            },
            how = if cfg!(target_os = "linux") {
                "e.g. `sudo apt-get install chromium` on Debian or Ubuntu"
            } else {
                "from chromium.org, or Chrome for Testing"
            },
        ),
    ))
}

#[derive(Clone, Debug, Default)]
pub struct LaunchOptions {
    pub headless: bool,
    /// A throwaway profile instead of the managed one.
    pub isolated: bool,
    /// Kill the browser when this process dies (the `mcp --launch` case).
    pub tied_to_us: bool,
    /// How it names itself to the relay, and agents pick it (`--label`, or
    /// `TABPILOT_BROWSER_LABEL` for `mcp --launch`); default `managed`, or `isolated-XXXX`.
    pub label: Option<String>,
}

/// A browser we started; `label` is how it names itself to the relay.
pub struct Launched {
    pub child: Child,
    pub label: String,
    pub profile: PathBuf,
    /// The id the relay knows it by, set by [`start`] once it has joined (empty from [`launch`]).
    pub browser_id: String,
    isolated: bool,
}

impl Launched {
    /// Closes the browser, and removes a throwaway profile.
    pub fn close(mut self) {
        crate::shared::platform::child::ask_to_end(&mut self.child);
        let deadline = std::time::Instant::now() + Duration::from_secs(3);
        while std::time::Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
        if self.isolated {
            let _ = std::fs::remove_dir_all(&self.profile);
        }
    }
}

/// The command line for a Chromium that loads our extension from `ext_dir` and opens `url`,
/// quiet on a machine without internet.
pub fn chromium_command(
    exe: &Path,
    data_dir: &Path,
    ext_dir: &Path,
    headless: bool,
    url: &str,
) -> Command {
    let mut cmd = Command::new(exe);
    cmd.arg(format!("--user-data-dir={}", data_dir.display()))
        .arg(format!("--load-extension={}", ext_dir.display()))
        .arg(format!("--disable-extensions-except={}", ext_dir.display()))
        .args([
            "--disable-features=DisableLoadExtensionCommandLineSwitch",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-quic",
            "--disable-default-apps",
            "--window-size=1280,800",
        ]);
    if headless {
        cmd.args(["--headless=new", "--disable-gpu"]);
    }
    if crate::shared::platform::me::is_root() {
        // Chromium's sandbox refuses to run as root (containers, CI).
        cmd.arg("--no-sandbox");
    }
    // The person's own flags, after ours so theirs win; we add none of our own choosing.
    if let Some(extra) = Setting::ChromiumArgs.get() {
        cmd.args(extra.split_whitespace());
    }
    cmd.arg(url)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    cmd
}

/// Starts a managed Chromium as `opts` says, waits up to `wait` for it to join the relay that
/// `link` talks to, and returns it with its browser id. A browser that does not join in time, or
/// whose wait is dropped, is closed.
pub async fn start(
    opts: &LaunchOptions,
    link: &Link,
    wait: Duration,
) -> Result<Launched, ToolError> {
    if let Some(label) = &opts.label
        && labelled(link, label).await.is_some()
    {
        return Err(ToolError::refused(
            Code::BadArgs,
            format!(
                "a browser labelled {label:?} is connected already; a label names one browser, \
                 so give this one another (--label)"
            ),
        ));
    }
    // Finding Chromium, sweeping old profiles and writing the new one read and write the disk:
    // off the async workers. The spawn is not: a browser tied to us dies with the thread that
    // forked it (PR_SET_PDEATHSIG), and a blocking-pool thread exits once it has idled 10 s.
    let prepared = crate::shared::blocking::run("preparing a browser", {
        let opts = opts.clone();
        move || prepare(&opts)
    })
    .await?;
    let launched = prepared.spawn()?;
    let label = launched.label.clone();
    let mut pending = CloseUnlessJoined(Some(launched));
    let browser_id = wait_joined(link, &label, wait).await?;
    let mut browser = pending.0.take().expect("still ours");
    browser.browser_id = browser_id;
    Ok(browser)
}

/// Closes a launched browser on drop unless it was taken out: it did not join.
struct CloseUnlessJoined(Option<Launched>);

impl Drop for CloseUnlessJoined {
    fn drop(&mut self) {
        if let Some(browser) = self.0.take() {
            browser.close();
        }
    }
}

/// A browser ready to start: its command, with the profile and the extension written.
struct Prepared {
    cmd: Command,
    exe: PathBuf,
    label: String,
    profile: PathBuf,
    isolated: bool,
    tied_to_us: bool,
}

/// Prepares Chromium with the extension, paired with the relay of this state dir and port range.
fn prepare(opts: &LaunchOptions) -> Result<Prepared, ToolError> {
    let exe = find_chromium()?;
    let ports = protocol::port_range().map_err(ToolError::bad_args)?;
    let secret = state::secret().map_err(|e| {
        ToolError::refused(Code::Internal, format!("cannot read the relay secret: {e}"))
    })?;
    profiles::sweep_throwaway();
    let profiles = profiles::dir();
    let unique = format!("{}-{:04x}", std::process::id(), rand::random::<u16>());
    let label = match (&opts.label, opts.isolated) {
        (Some(label), _) => label.clone(),
        (None, true) => format!("isolated-{unique}"),
        (None, false) => "managed".to_string(),
    };
    let profile = if opts.isolated {
        profiles.join(format!("isolated-{unique}"))
    } else {
        profiles.join("managed")
    };
    let io = |e: std::io::Error| {
        ToolError::refused(
            Code::Internal,
            format!("cannot prepare the browser profile: {e}"),
        )
    };
    state::ensure_private_dir(&profile).map_err(io)?;
    let ext_dir = profile.join("tabpilot-extension");
    let managed = json!({
        "secret": String::from_utf8_lossy(&secret),
        "ports": [ports.start(), ports.end()],
        "label": label,
        "profile": if opts.isolated { "isolated" } else { "managed" },
    });
    extension::write(&ext_dir, Some(&managed)).map_err(io)?;
    // A browser whose downloads cannot go to the sandbox still starts; its downloads go where
    // Chromium puts them, and browser_downloads says a tool cannot read them.
    match prefs::download_dir() {
        Ok(dir) => prefs::write_download_prefs(&profile.join("data"), &dir).map_err(io)?,
        Err(why) => tracing::warn!("downloads stay in Chromium's own folder: {why}"),
    }

    let mut cmd = chromium_command(
        &exe,
        &profile.join("data"),
        &ext_dir,
        opts.headless,
        "about:blank",
    );
    // No person works in a browser tabpilot launched: the agents' pages keep their timers and
    // their priority, and keep drawing when another window covers theirs (Chromium parses a
    // switch after the address as well).
    cmd.args([
        "--disable-background-timer-throttling",
        "--disable-renderer-backgrounding",
        "--disable-backgrounding-occluded-windows",
    ]);
    Ok(Prepared {
        cmd,
        exe,
        label,
        profile,
        isolated: opts.isolated,
        tied_to_us: opts.tied_to_us,
    })
}

impl Prepared {
    /// Starts the browser from this thread, which it is tied to when `tied_to_us`.
    fn spawn(mut self) -> Result<Launched, ToolError> {
        let spawned = if self.tied_to_us {
            crate::shared::platform::child::spawn_tied(&mut self.cmd)
        } else {
            crate::shared::platform::child::detach(&mut self.cmd);
            self.cmd.spawn()
        };
        let child = spawned.map_err(|e| {
            ToolError::refused(
                Code::NoBrowser,
                format!("cannot start {}: {e}", self.exe.display()),
            )
        })?;
        tracing::info!(pid = child.id(), label = %self.label, "started a managed Chromium");
        Ok(Launched {
            child,
            label: self.label,
            profile: self.profile,
            browser_id: String::new(),
            isolated: self.isolated,
        })
    }
}

/// Waits until the browser labelled `label` has joined the relay; returns its browserId. (No
/// other browser has that label: `start` refuses one that is taken.)
async fn wait_joined(link: &Link, label: &str, timeout: Duration) -> Result<String, ToolError> {
    let deadline = std::time::Instant::now() + timeout;
    loop {
        if let Some(id) = labelled(link, label).await {
            return Ok(id);
        }
        if std::time::Instant::now() > deadline {
            return Err(ToolError::failed(
                Code::NoBrowser,
                format!("the launched browser did not join the relay within {timeout:?}"),
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The id of the connected browser labelled `label`, if one is. The one place launching asks
/// the relay anything.
async fn labelled(link: &Link, label: &str) -> Option<String> {
    let status = link.ask(crate::shared::protocol::ask::Status).await.ok()?;
    status
        .browsers
        .into_iter()
        .find(|b| b.label.as_deref() == Some(label))
        .map(|b| b.browser_id.to_string())
}
