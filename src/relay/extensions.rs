//! Which extensions the relay lets in as a browser: tabpilot's own (the ID its manifest key makes,
//! the one a managed browser loads), and every extension that completed a code pairing, pinned
//! from then on in an owner-only file of the state directory. A copy from the Chrome Web Store,
//! or one loaded unpacked without the key, has another ID; the code the person typed into its
//! popup is what vouches for it (docs/security.md), the ID only keeps web pages out.

use std::io;
use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};

/// Pinned IDs kept: a person pairs a handful of browsers, and the file stays small.
const MAX_PINNED: usize = 16;

const SCHEME: &str = "chrome-extension://";

pub(super) struct Extensions {
    own: String,
    /// Pinned IDs, oldest first.
    pinned: Mutex<Vec<String>>,
    file: PathBuf,
}

impl Extensions {
    /// Our own ID, and the IDs pinned in `file` (none when it is missing or unreadable).
    pub(super) fn load(file: PathBuf) -> Self {
        let text = std::fs::read_to_string(&file).unwrap_or_default();
        let pinned = text
            .lines()
            .filter(|id| is_id(id))
            .map(String::from)
            .collect();
        Extensions {
            own: crate::shared::extension::id(),
            pinned: Mutex::new(pinned),
            file,
        }
    }

    /// The extension ID an `Origin` header names, if it names an extension at all.
    pub(super) fn id_of(origin: Option<&str>) -> Option<&str> {
        origin?.strip_prefix(SCHEME).filter(|id| is_id(id))
    }

    /// Whether the extension at `origin` may join as a browser.
    pub(super) fn admits(&self, origin: Option<&str>) -> bool {
        let Some(id) = Self::id_of(origin) else {
            return false;
        };
        id == self.own || self.lock().iter().any(|p| p == id)
    }

    /// Lets `id` in from now on, and after a restart of the relay: the newest pins are kept.
    pub(super) fn pin(&self, id: &str) -> io::Result<()> {
        if id == self.own {
            return Ok(());
        }
        let mut pinned = self.lock();
        pinned.retain(|p| p != id);
        pinned.push(id.to_string());
        let over = pinned.len().saturating_sub(MAX_PINNED);
        pinned.drain(..over);
        let text: String = pinned.iter().map(|id| format!("{id}\n")).collect();
        crate::shared::state::write_private(&self.file, text.as_bytes())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<String>> {
        self.pinned.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// Chromium's extension IDs: 32 letters from `a` to `p`.
fn is_id(id: &str) -> bool {
    id.len() == 32 && id.bytes().all(|b| (b'a'..=b'p').contains(&b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(dir: &std::path::Path) -> Extensions {
        Extensions::load(dir.join("paired-extensions"))
    }

    #[test]
    fn our_own_id_is_let_in_and_an_unpaired_one_or_a_web_page_is_not() {
        let dir = crate::shared::state::test_support::temp_dir("extensions-own");
        let ext = at(&dir);
        let own = format!("{SCHEME}{}", crate::shared::extension::id());
        assert!(ext.admits(Some(&own)));
        assert!(!ext.admits(Some(&format!("{SCHEME}{}", "b".repeat(32)))));
        assert!(!ext.admits(Some("https://example.com")));
        assert!(!ext.admits(Some(&format!("{SCHEME}{}", "z".repeat(32)))));
        assert!(!ext.admits(None));
    }

    #[test]
    fn a_pinned_id_is_let_in_after_a_restart_and_only_the_newest_pins_are_kept() {
        let dir = crate::shared::state::test_support::temp_dir("extensions-pin");
        let ids: Vec<String> = (0..=MAX_PINNED)
            .map(|i| {
                let letter = |n: usize| (b'a' + n as u8) as char;
                format!("{}{}{}", "c".repeat(30), letter(i / 16), letter(i % 16))
            })
            .collect();
        let ext = at(&dir);
        for id in &ids {
            ext.pin(id).unwrap();
        }
        let again = at(&dir);
        assert!(
            !again.admits(Some(&format!("{SCHEME}{}", ids[0]))),
            "the oldest is dropped"
        );
        for id in &ids[1..] {
            assert!(again.admits(Some(&format!("{SCHEME}{id}"))), "{id}");
        }
        #[cfg(unix)]
        assert_eq!(
            crate::shared::state::test_support::mode(&dir.join("paired-extensions")) & 0o777,
            0o600
        );
    }
}
