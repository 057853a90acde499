//! The browsers' profiles under the state dir: the managed one, kept, and the throwaway ones of
//! isolated launches, swept once their browser is gone (by a launch, and by the relay after an
//! isolated browser leaves it).

use std::path::{Path, PathBuf};
use std::time::Duration;

/// Where launched browsers keep their profiles.
pub fn dir() -> PathBuf {
    super::state::state_dir().join("profiles")
}

/// Removes the throwaway profiles of isolated browsers that are no longer running: a detached
/// `tabpilot launch --isolated` cannot remove its own when the person closes the browser, and a
/// profile holds a copy of the relay's secret. A running Chromium keeps `SingletonLock` (a link
/// to `host-pid`) in its profile; a profile without one, or whose process is gone, is done.
/// How long after an isolated browser leaves its relay the relay sweeps (past the minute a young
/// profile is left alone).
pub const SWEEP_AFTER: Duration = Duration::from_secs(61);

/// Sweeps this state dir's throwaway profiles: at a launch, and by the relay after an isolated
/// browser leaves it.
pub fn sweep_throwaway() {
    sweep_isolated(&dir());
}

fn sweep_isolated(profiles: &Path) {
    let Ok(entries) = std::fs::read_dir(profiles) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        // A profile made a moment ago may belong to a browser still starting, not yet locked.
        let young = entry
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|age| age < Duration::from_secs(60)));
        if !name.to_string_lossy().starts_with("isolated-") || young {
            continue;
        }
        let lock = std::fs::read_link(entry.path().join("data").join("SingletonLock")).ok();
        let pid = lock
            .as_ref()
            .and_then(|l| l.to_string_lossy().rsplit('-').next()?.parse::<i32>().ok());
        let running = pid.is_some_and(|p| crate::shared::platform::me::alive(p as u32));
        if !running {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    // Finding 15 of the security probe: `launch --isolated` left its profile, with a copy of the
    // secret, behind.
    #[test]
    fn an_isolated_profile_whose_browser_is_gone_is_swept() {
        let profiles = crate::shared::state::test_support::temp_dir("profiles");
        let gone = profiles.join("isolated-managed-1-0001");
        let running = profiles.join("isolated-managed-2-0002");
        let managed = profiles.join("managed");
        for dir in [&gone, &running, &managed] {
            std::fs::create_dir_all(dir.join("data")).unwrap();
            std::fs::write(dir.join("tabpilot-extension-managed.json"), "secret").unwrap();
        }
        // A lock naming a process that no longer exists, and one naming this test's process.
        std::os::unix::fs::symlink("host-999999999", gone.join("data/SingletonLock")).unwrap();
        let me = format!("host-{}", std::process::id());
        std::os::unix::fs::symlink(me, running.join("data/SingletonLock")).unwrap();
        // A profile made a moment ago is left alone: its browser may still be starting.
        sweep_isolated(&profiles);
        assert!(gone.exists());
        let old = std::time::SystemTime::now() - Duration::from_secs(120);
        for dir in [&gone, &running] {
            std::fs::File::open(dir).unwrap().set_modified(old).unwrap();
        }
        sweep_isolated(&profiles);
        assert!(!gone.exists(), "the gone browser's profile stayed");
        assert!(running.exists(), "a running browser's profile was swept");
        assert!(managed.exists(), "the managed profile is not a throwaway");
        let _ = std::fs::remove_dir_all(profiles);
    }
}
