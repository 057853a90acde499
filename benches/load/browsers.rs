//! The two browsers and the relay as the load run handles them: headless Chromiums with the real
//! extension, paired with the run's relay as a managed launch pairs them (src/controller/launch/mod.rs) but
//! with a DevTools port, so their service workers can be stopped and their pages read; and the
//! relay's process, found by the lock it holds, to kill and to measure.

use std::os::unix::fs::MetadataExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use serde_json::json;
use tabpilot::controller::link::Link;
use tabpilot::shared::protocol::RelayOp;

use crate::cdp::{self, Cdp};

/// A headless Chromium of the run, closed when dropped.
pub(crate) struct Browser {
    pub(crate) label: String,
    /// Its browserId at the relay.
    pub(crate) id: String,
    pub(crate) cdp: Cdp,
    child: Child,
}

impl Browser {
    /// Starts Chromium with the extension paired to this state dir's relay (`link`'s), labelled
    /// `label`, and waits until it has joined.
    pub(crate) async fn launch(
        label: &str,
        state_dir: &Path,
        ports: (u16, u16),
        link: &Link,
    ) -> Browser {
        let exe = tabpilot::controller::launch::find_chromium()
            .expect("a Chromium to run the benchmark in");
        let secret = tabpilot::shared::state::secret().expect("the relay secret");
        let profile = state_dir.join("profiles").join(format!("load-{label}"));
        let data_dir = profile.join("data");
        let ext_dir = profile.join("tabpilot-extension");
        let managed = json!({
            "secret": String::from_utf8_lossy(&secret),
            "ports": [ports.0, ports.1],
            "label": label,
            "profile": "isolated",
        });
        tabpilot::shared::extension::write(&ext_dir, Some(&managed))
            .expect("the extension is written");
        let mut cmd = tabpilot::controller::launch::chromium_command(
            &exe,
            &data_dir,
            &ext_dir,
            true,
            "about:blank",
        );
        cmd.arg("--remote-debugging-port=0");
        // SAFETY: prctl is async-signal-safe and touches only the child.
        unsafe {
            cmd.pre_exec(|| {
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM);
                Ok(())
            });
        }
        let child = cmd.spawn().expect("Chromium starts");
        let url = cdp::browser_url(&data_dir, Duration::from_secs(30));
        let cdp = Cdp::connect(&url).await;
        let id = joined(link, label).await;
        Browser {
            label: label.to_string(),
            id,
            cdp,
            child,
        }
    }

    /// Stops the extension's service worker, as Chrome stops an idle one, through a page's
    /// DevTools session; returns once DevTools reports it stopped.
    pub(crate) async fn stop_worker(&mut self) -> Result<(), String> {
        let page = self.any_page().await?;
        let session = self.cdp.attach(&page).await?;
        let stopped = self.stop_workers_from(&session).await;
        let _ = self
            .cdp
            .send("Target.detachFromTarget", json!({"sessionId": session}))
            .await;
        stopped
    }

    async fn stop_workers_from(&mut self, session: &str) -> Result<(), String> {
        let ours = format!("chrome-extension://{}/", tabpilot::shared::extension::id());
        self.cdp
            .send_to(session, "ServiceWorker.enable", json!({}))
            .await?;
        self.cdp
            .send_to(session, "ServiceWorker.stopAllWorkers", json!({}))
            .await?;
        let stopped = |e: &serde_json::Value| {
            e["sessionId"] == session
                && e["method"] == "ServiceWorker.workerVersionUpdated"
                && e["params"]["versions"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .any(|v| {
                        v["scriptURL"]
                            .as_str()
                            .is_some_and(|u| u.starts_with(&ours))
                            && v["runningStatus"] == "stopped"
                    })
        };
        let seen = self.cdp.event(Duration::from_secs(5), stopped).await;
        let _ = self
            .cdp
            .send_to(session, "ServiceWorker.disable", json!({}))
            .await;
        seen.map(|_| ())
            .ok_or_else(|| "DevTools reported no stopped worker within 5 s".into())
    }

    async fn any_page(&mut self) -> Result<String, String> {
        self.cdp
            .pages()
            .await?
            .into_iter()
            .next()
            .map(|(id, _)| id)
            .ok_or_else(|| "the browser has no page to reach its service workers from".into())
    }

    /// What load.html's pages of `origin` logged (localStorage, read in a fresh tab of that
    /// origin that logs nothing itself): `{"load:OWNER:TAB": {"clicks": n, "tokens": [...]}}`.
    pub(crate) async fn page_logs(&mut self, origin: &str) -> Result<serde_json::Value, String> {
        let (target, session) = self.cdp.open(&format!("{origin}/load.html"), true).await?;
        let text = self
            .cdp
            .eval_loaded(
                &session,
                "JSON.stringify(Object.fromEntries(Object.entries(localStorage)\
                 .filter(([k]) => k.startsWith('load:')).map(([k, v]) => [k, JSON.parse(v)])))",
            )
            .await?;
        let _ = self
            .cdp
            .send("Target.closeTarget", json!({"targetId": target}))
            .await;
        serde_json::from_str(text.as_str().unwrap_or("{}")).map_err(|e| e.to_string())
    }
}

impl Drop for Browser {
    fn drop(&mut self) {
        // SAFETY: signalling a child we started.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGTERM) };
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Waits until the browser labelled `label` is in the relay's roster; returns its browserId.
async fn joined(link: &Link, label: &str) -> String {
    let deadline = Instant::now() + Duration::from_secs(30);
    loop {
        if let Ok(reply) = link.ask_op(RelayOp::Status).await
            && let Some(id) = reply.value["browsers"].as_array().and_then(|bs| {
                bs.iter()
                    .find(|b| b["label"] == label)
                    .and_then(|b| b["browserId"].as_str())
            })
        {
            return id.to_string();
        }
        assert!(
            Instant::now() < deadline,
            "browser {label} did not join the relay"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// The relay's pid: the process holding its lock for this port range (the relay records its port
/// there, not its pid; /proc/locks says who holds a lock, by the file's inode).
pub(crate) fn relay_pid(lock: &Path) -> Option<i32> {
    let inode = std::fs::metadata(lock).ok()?.ino();
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    locks.lines().find_map(|line| {
        // `1: FLOCK  ADVISORY  WRITE 1234 00:2a:5678 0 EOF`
        let f: Vec<&str> = line.split_whitespace().collect();
        let (pid, file) = (f.get(4)?, f.get(5)?);
        let ino: u64 = file.rsplit(':').next()?.parse().ok()?;
        (f.get(1) == Some(&"FLOCK") && ino == inode)
            .then(|| pid.parse().ok())
            .flatten()
    })
}

/// The relay's pid, waiting up to `within` for a relay to hold the lock.
pub(crate) async fn wait_relay_pid(lock: &Path, within: Duration) -> Option<i32> {
    let deadline = Instant::now() + within;
    loop {
        if let Some(pid) = relay_pid(lock) {
            return Some(pid);
        }
        if Instant::now() > deadline {
            return None;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Whether a process runs: it exists and is not a zombie (a relay a link started is this
/// process's child, and nobody reaps it).
pub(crate) fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        // `pid (comm) S ...`: the state follows the command's closing parenthesis.
        stat.rsplit_once(')')
            .and_then(|(_, rest)| rest.split_whitespace().next())
            .is_some_and(|state| state != "Z" && state != "X")
    })
}

/// A process's resident memory (VmRSS), in KiB.
pub(crate) fn rss_kib(pid: i32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
