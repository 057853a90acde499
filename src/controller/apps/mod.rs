//! Local applications: the installed ones (freedesktop desktop entries), launching one, and the
//! accessibility tree of a running one's window, read and operated through the platform's
//! accessibility interfaces (AT-SPI2 on Linux; elsewhere not built yet, see
//! docs/architecture.md). Structured actions only: no script, no coordinates.

pub mod desktop;
pub mod launch;
pub mod outline;
pub mod refs;
pub mod tasks;

#[cfg(target_os = "linux")]
mod bus;
#[cfg(not(target_os = "linux"))]
#[path = "bus_none.rs"]
mod bus;

use std::sync::{Mutex, MutexGuard, PoisonError};

pub use bus::Bus;

use crate::shared::error::{Code, ToolError};
use crate::shared::settings::Setting;

/// An accessible object's address: its application's bus name and its object path. Stable for
/// the object's life.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Obj {
    pub bus: String,
    pub path: String,
}

/// A running application with an accessibility tree.
#[derive(Clone, Debug)]
pub struct Running {
    pub root: Obj,
    /// The name it gives its tree (often its program name).
    pub name: String,
    pub pid: Option<u32>,
    pub windows: Vec<(Obj, String)>,
}

/// One element of a window's tree, as read.
#[derive(Clone, Debug, Default)]
pub struct Node {
    pub obj: Option<Obj>,
    /// The role, in the words a page snapshot uses where there is one (`button`, `checkbox`).
    pub role: String,
    pub name: String,
    /// `focused`, `checked`, `disabled`, `selected`, `editable`, `pressed`, `expanded`.
    pub states: Vec<&'static str>,
    /// The value, where the role has one and it is not secret.
    pub value: Option<String>,
    /// A password field or one named like a secret: its value is never read.
    pub secret: bool,
    /// It has an interface to act through (Action, EditableText, Value, Selection).
    pub actionable: bool,
    pub children: Vec<usize>,
    /// Children left unread past the node budget.
    pub unread: usize,
}

/// A window's tree: nodes in reading order, the window first.
#[derive(Clone, Debug, Default)]
pub struct Tree {
    pub nodes: Vec<Node>,
    /// Elements left unread past the budget.
    pub unread: usize,
}

/// Names that mark a field's value as secret whatever its role says: passwords, tokens,
/// one-time codes, card numbers.
pub fn secret_name(name: &str) -> bool {
    const WORDS: &[&str] = &[
        "password",
        "passphrase",
        "passcode",
        "token",
        "one-time",
        "one time",
        "otp",
        "verification code",
        "security code",
        "card number",
        "cvv",
        "cvc",
        "pin",
        "secret",
    ];
    let name = name.to_lowercase();
    WORDS.iter().any(|w| {
        name.match_indices(w).any(|(at, _)| {
            let before = name[..at].chars().next_back();
            let after = name[at + w.len()..].chars().next();
            !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric)
        })
    })
}

/// `TABPILOT_APPS_ALLOW`: the desktop ids (or `*` globs) that may be opened or operated; None
/// when unset (any).
pub fn allow_list() -> Option<Vec<regex::Regex>> {
    let text = Setting::AppsAllow.get()?;
    let list = text
        .split(',')
        .map(str::trim)
        .filter(|w| !w.is_empty())
        .filter_map(|w| {
            crate::controller::policy::glob(w.strip_suffix(".desktop").unwrap_or(w)).ok()
        })
        .collect();
    Some(list)
}

/// Whether the allow list names `id` itself, not by a glob: what a hidden entry or one that runs
/// an interpreter, a runtime or a terminal needs to be opened.
pub fn named_exactly(id: &str) -> bool {
    Setting::AppsAllow.get().is_some_and(|text| {
        text.split(',')
            .map(str::trim)
            .any(|w| w.strip_suffix(".desktop").unwrap_or(w) == id)
    })
}

/// Refuses an application the allow list does not name (`id` None: one tabpilot cannot tie to
/// a desktop entry, which a list cannot have named).
pub fn check_allowed(id: Option<&str>, shown: &str) -> Result<(), ToolError> {
    let Some(list) = allow_list() else {
        return Ok(());
    };
    if id.is_some_and(|id| list.iter().any(|re| re.is_match(id))) {
        return Ok(());
    }
    let which = id.map_or_else(
        || format!("{shown} (not tied to a desktop entry)"),
        |id| id.to_string(),
    );
    Err(ToolError::refused(
        Code::AppNotAllowed,
        format!("{which} is not in {}", Setting::AppsAllow),
    ))
}

/// What one agent's session keeps of local applications: the bus (connected on first use, so a
/// server that never calls these tools never touches it), the refs it handed out, the desktop
/// ids of what it launched, and its last outline of each window.
#[derive(Default)]
pub struct Apps {
    bus: tokio::sync::OnceCell<Bus>,
    state: Mutex<State>,
}

#[derive(Default)]
pub struct State {
    pub refs: refs::Refs,
    /// Launched here: pid, desktop id.
    pub launched: Vec<(u32, String)>,
    /// The last outline of each window (and the budget it was read with), for what an action
    /// changed.
    pub seen: Vec<(Obj, String, usize)>,
    /// The application of this agent's last call, for the audit trail.
    pub last_app: Option<String>,
}

/// Windows whose last outline is kept.
const SEEN: usize = 16;

impl State {
    pub fn remember(&mut self, window: &Obj, outline: String, max: usize) {
        self.seen.retain(|(w, _, _)| w != window);
        if self.seen.len() == SEEN {
            self.seen.remove(0);
        }
        self.seen.push((window.clone(), outline, max));
    }

    /// The window whose last outline shows `r`, with that outline and its budget.
    pub fn window_of(&self, r: &str) -> Option<(Obj, String, usize)> {
        let mark = format!("[ref={r}]");
        self.seen
            .iter()
            .rev()
            .find(|(_, o, _)| o.contains(&mark))
            .cloned()
    }

    /// The desktop id of a process launched here, or of its parent chain.
    pub fn launched_id(&self, pid: u32) -> Option<String> {
        let mut at = Some(pid);
        for _ in 0..8 {
            let p = at?;
            if let Some((_, id)) = self.launched.iter().find(|(l, _)| *l == p) {
                return Some(id.clone());
            }
            at = parent_pid(p);
        }
        None
    }
}

impl Apps {
    /// The accessibility bus, connected on first use.
    pub async fn bus(&self) -> Result<&Bus, ToolError> {
        self.bus.get_or_try_init(Bus::connect).await
    }

    pub fn state(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A process's parent, from /proc (Linux); None elsewhere or when it is gone.
pub fn parent_pid(pid: u32) -> Option<u32> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name (in parentheses) may hold spaces; the fields after it do not.
    let rest = &stat[stat.rfind(')')? + 1..];
    rest.split_whitespace().nth(1)?.parse().ok()
}

/// The desktop entry a running process was most likely started from: the one whose Exec line
/// (its field codes taking nothing) begins the process's command line, the program compared by
/// its file name; the longest such line wins (`python3 script` over `python3`).
pub fn entry_of_pid(pid: u32, entries: &[desktop::Entry]) -> Option<String> {
    let raw = std::fs::read(format!("/proc/{pid}/cmdline")).ok()?;
    let cmd: Vec<String> = raw
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    entry_of_command(&cmd, entries)
}

fn entry_of_command(cmd: &[String], entries: &[desktop::Entry]) -> Option<String> {
    let file_name = |p: &str| p.rsplit('/').next().unwrap_or_default().to_string();
    let program = file_name(cmd.first()?);
    entries
        .iter()
        .filter_map(|e| {
            let argv = desktop::command_line(e, &[], &[]).ok()?;
            let fits = file_name(&argv[0]) == program
                && cmd.len() >= argv.len()
                && argv[1..] == cmd[1..argv.len()];
            fits.then_some((argv.len(), &e.id))
        })
        .max_by_key(|(len, _)| *len)
        .map(|(_, id)| id.clone())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_process_is_tied_to_the_entry_whose_whole_exec_line_begins_its_command() {
        let entry = |id: &str, exec: &str| desktop::Entry {
            id: id.into(),
            name: id.into(),
            generic_name: None,
            categories: vec![],
            exec: exec.into(),
            icon: None,
            hidden: false,
            path: "/x".into(),
        };
        let entries = [
            entry("python", "/usr/bin/python3"),
            entry("form", "/usr/bin/python3 /t/form.py %f"),
            entry("calc", "gnome-calculator"),
        ];
        let cmd = |c: &[&str]| c.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let of = |c: &[&str]| entry_of_command(&cmd(c), &entries);
        assert_eq!(of(&["python3", "/t/form.py"]).as_deref(), Some("form"));
        assert_eq!(
            of(&["/usr/bin/python3", "/t/other.py"]).as_deref(),
            Some("python")
        );
        assert_eq!(of(&["/usr/bin/gnome-calculator"]).as_deref(), Some("calc"));
        assert_eq!(of(&["/usr/bin/vim"]), None);
    }

    #[test]
    fn secret_names_are_words_not_parts_of_words() {
        for name in [
            "Password",
            "API token",
            "One-time code",
            "Card number",
            "PIN",
        ] {
            assert!(secret_name(name), "{name}");
        }
        for name in ["Spinner", "Tokenizer settings", "Name", "Display"] {
            assert!(!secret_name(name), "{name}");
        }
    }
}
