//! Every `TABPILOT_*` environment variable, with its meaning and default, in one list (as
//! `error.rs` lists the error codes). Code reads a variable only through [`Setting::get`] or
//! [`Setting::get_os`]. docs/settings.md, the table people read, is made from this list by a
//! test (`cargo test --locked --lib` writes it anew when it is stale, and fails once).
//!
//! The list also holds the names the shared contract fixes for settings still to come. Those are
//! `Use::Reserved`: nothing reads them yet and docs/settings.md names them only as reserved;
//! whoever makes one work marks it `Use::InUse` here, and the test gives it its row.

use std::ffi::OsString;

/// Whether the code reads a setting today.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Read by the code and documented in docs/settings.md.
    InUse,
    /// Fixed by name in the contract; not read yet.
    Reserved,
}

macro_rules! settings {
    ($( $variant:ident = $name:literal, $use:ident, $meaning:literal, $default:literal; )*) => {
        /// Every `TABPILOT_*` environment variable tabpilot knows.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Setting { $( $variant, )* }

        impl Setting {
            pub const ALL: &'static [Setting] = &[$(Setting::$variant),*];

            /// The variable's name, `TABPILOT_...`.
            pub fn name(self) -> &'static str {
                match self { $(Setting::$variant => $name,)* }
            }

            /// Whether the code reads it today.
            pub fn usage(self) -> Use {
                match self { $(Setting::$variant => Use::$use,)* }
            }

            /// One line saying what it sets.
            pub fn meaning(self) -> &'static str {
                match self { $(Setting::$variant => $meaning,)* }
            }

            /// What applies when it is unset, in words (as docs/settings.md shows it).
            pub fn default_text(self) -> &'static str {
                match self { $(Setting::$variant => $default,)* }
            }
        }
    };
}

// Variant = name, use, meaning, default (docs/settings.md shows the InUse rows as they are here).
settings! {
    Browser = "TABPILOT_BROWSER", InUse, "the Chromium to launch (a path)", "the first of `chromium`, `chromium-browser`, `google-chrome-for-testing` on `PATH`";
    Ports = "TABPILOT_PORTS", InUse, "the relay's port range on loopback, `FIRST-LAST` or one port", "`47311-47315`";
    StateDir = "TABPILOT_STATE_DIR", InUse, "the owner-only state directory: relay secret, lock and log, managed profiles", "`$XDG_STATE_HOME/tabpilot`, else `~/.local/state/tabpilot`";
    RelayListen = "TABPILOT_RELAY_LISTEN", InUse, "`HOST:PORT` past loopback where the relay also listens for browsers on other computers, paired with `tabpilot pair --remote` (as `tabpilot relay --listen`)", "loopback only";
    RelayIdleMs = "TABPILOT_RELAY_IDLE_MS", InUse, "how long the relay lives after its last peer leaves, in ms", "`300000` (5 minutes)";
    Session = "TABPILOT_SESSION", InUse, "the session successive CLI commands share, so they drive one tab", "`cli`";
    Workspace = "TABPILOT_WORKSPACE", InUse, "extra roots for written and uploaded files, and for project context (a list, separated as `PATH` is)", "none";
    NoOpen = "TABPILOT_NO_OPEN", InUse, "when set, `tabpilot pair` prints the pairing page and does not open it", "unset: the page opens in the default browser";
    Log = "TABPILOT_LOG", InUse, "the log filter (`tracing` directives); logs go to stderr", "`warn`, and the relay's comings and goings (a browser joined, left)";
    AllowOrigins = "TABPILOT_ALLOW_ORIGINS", InUse, "when set, the only origins agents may drive: comma-separated patterns like `https://*.example.com`, `http://localhost:*`", "unset: any origin not denied";
    DenyOrigins = "TABPILOT_DENY_ORIGINS", InUse, "origins agents never drive, blocked in the browser's network for their tabs (same patterns)", "none";
    SensitiveOrigins = "TABPILOT_SENSITIVE_ORIGINS", InUse, "origins agents may read but never act on (same patterns)", "none";
    ReadOnly = "TABPILOT_READ_ONLY", InUse, "when `1`, every tool that changes a page is refused with `READ_ONLY`; reading and moving between pages still work", "off";
    NoEval = "TABPILOT_NO_EVAL", InUse, "when `1`, `browser_eval` (and any argument carrying the agent's own script) and `browser_page_tools` `call` (the page's script run for the agent) are refused with `EVAL_BLOCKED`", "off";
    NoAdvanced = "TABPILOT_NO_ADVANCED", InUse, "when `1`, advanced mode (`browser_advanced_mode`: the debugger attached to an agent's tab, trusted input, `initScript`, `handleBeforeUnload`, dialog answers, device emulation) is refused with `ADVANCED_MODE_REQUIRED` before anything reaches the browser", "off: an agent may switch it on for its own tab";
    RevealCredentials = "TABPILOT_REVEAL_CREDENTIALS", InUse, "when `1`, the person lets agents see credential values in `browser_get_network_request {revealValues: true}` (cookies, `Set-Cookie`, `Authorization` and the like), never under read-only or no-eval, nor for a request or page at a sensitive, denied or not-allowed origin; each use is recorded in the audit trail", "off: credential values are shown by their length only";
    AllowProxy = "TABPILOT_ALLOW_PROXY", InUse, "when `1`, the person lets agents set the browser's proxy (`browser_proxy` with a mode): the whole browser's, their own tabs too; a fixed proxy's host is judged by the site policy, a PAC script is refused under an origin list, loopback is never proxied, and the browser gets its earlier proxy back when the agent's session ends", "off: `browser_proxy` only reads the proxy, or clears tabpilot's";
    Audit = "TABPILOT_AUDIT", InUse, "`off` stops the audit trail: one JSON line per tool call, what the agent typed recorded as lengths (`tabpilot audit` prints it)", "on";
    Record = "TABPILOT_RECORD", InUse, "`1` keeps each MCP session's recording of page actions on disk too (`recording.jsonl` beside the audit trail, owner-only, rotated at 10 MiB, what was typed included, secrets by name): what `tabpilot export` and `tabpilot replay` read; `off` records nothing, not even in memory", "recorded in memory only (`browser_export`, the dashboard)";
    AuditFile = "TABPILOT_AUDIT_FILE", InUse, "where the audit trail goes (owner-only, yours, never through a symbolic link: a link there stops the server; rotated at 10 MiB, 3 old files kept)", "`audit.jsonl` in the state directory";
    Tools = "TABPILOT_TOOLS", InUse, "which tools the MCP server lists: `full`, `core` (18 tools), `slim` (6), or a comma list of those, groups and tool names; a list that leaves a group out, but for one built on `slim` (no room in its budget), also lists `browser_more_tools`, with which an agent adds a group to its own session's list (the CLI keeps every tool)", "`full`";
    ChromiumArgs = "TABPILOT_CHROMIUM_ARGS", InUse, "extra flags for a Chromium that tabpilot launches, space-separated (e.g. `--enable-features=WebMCPTesting` for pages' own tools); tabpilot never changes a browser's flags by itself", "none";
    WebmcpTrustedOrigins = "TABPILOT_WEBMCP_TRUSTED_ORIGINS", InUse, "origins whose own tools (`browser_page_tools` `call`) run without the person's approval in the browser (same patterns as the site policy)", "none: every call asks";
    ScreenshotMax = "TABPILOT_SCREENSHOT_MAX", InUse, "the size an inline screenshot is shrunk to fit, `WIDTHxHEIGHT` in pixels, each 64 to 8000 (a screenshot written with `filePath` is kept whole)", "`1536x4096`";
    HttpPort = "TABPILOT_HTTP_PORT", InUse, "the loopback port `tabpilot mcp --http` serves when given no address, and `install --http` points clients at", "`47320`";
    Token = "TABPILOT_TOKEN", InUse, "the token `tabpilot mcp --http` asks of every request (`Authorization: Bearer TOKEN`, or `?token=TOKEN` in the URL), at least 32 characters (a browser on another computer pairs by code instead: `tabpilot pair --remote`)", "one made on first use, owner-only, in the state directory (`http-token`); `tabpilot token rotate` replaces it";
    LeaseTtlMs = "TABPILOT_LEASE_TTL_MS", InUse, "how long this agent's hold on a tab lasts while it makes no call there, in ms; past it the tab stays open and another agent may take it", "`600000` (10 minutes)";
    ConnectWaitMs = "TABPILOT_CONNECT_WAIT_MS", InUse, "how long a tool waits for the relay and a browser to connect before `NO_BROWSER`, in ms (a browser still starting, a relay restarting)", "`5000`";
    BrowserLabel = "TABPILOT_BROWSER_LABEL", InUse, "pins this agent to the browser with this label (or id), as `browser_select_browser` does; it never falls back to another", "none: the only browser, or the one the agent picks";
    Instance = "TABPILOT_INSTANCE", InUse, "who this agent is across restarts: a server started with the same value within 10 s of one leaving gets its tabs again (one live server per value)", "the client process that started the server (pid and start time) and the working directory";
    SecretBackend = "TABPILOT_SECRET_BACKEND", InUse, "where `tabpilot secret add` keeps values: `keyring` (the OS keyring; an error when none answers) or `file` (`secret-values.json`, owner-only, in the state directory)", "the OS keyring when one answers, else the file, with a note";
    Apps = "TABPILOT_APPS", InUse, "when `1`, the MCP server lists the local-application tools (`list_local_applications`, `open_local_application`, `inspect_local_application`, `operate_local_application`) in `full`, and lets an agent on another profile add them (`browser_more_tools`); naming their group `apps` in `TABPILOT_TOOLS` lists them too; without either no agent can have them, and the server never connects to the accessibility bus", "off";
    AppsAllow = "TABPILOT_APPS_ALLOW", InUse, "when set, the only local applications that may be opened, read or operated: comma-separated desktop ids or `*` globs (`org.gnome.Calculator`, `org.gnome.*`); an entry hidden from menus (`NoDisplay`) or whose program is an interpreter, a runtime or a terminal opens only when named by its id", "unset: any application but those";
    WebmcpAsTools = "TABPILOT_WEBMCP_AS_TOOLS", Reserved, "reserved: WebMCP", "not read yet";
}

impl Setting {
    /// Its value, when set to valid Unicode (`std::env::var`).
    pub fn get(self) -> Option<String> {
        self.check_in_use();
        std::env::var(self.name()).ok()
    }

    /// Its value, when set at all (`std::env::var_os`), empty included.
    pub fn get_os(self) -> Option<OsString> {
        self.check_in_use();
        std::env::var_os(self.name())
    }

    /// Its value as a list of paths, separated as the system separates `PATH` (`:`, `;` on
    /// Windows); empty ones left out.
    pub fn paths(self) -> Vec<std::path::PathBuf> {
        self.get_os()
            .map(|v| {
                std::env::split_paths(&v)
                    .filter(|p| !p.as_os_str().is_empty())
                    .collect()
            })
            .unwrap_or_default()
    }

    /// Whether it is set to a word for off: `0`, `false`, `no` or `off` (any case).
    pub fn is_off(self) -> bool {
        self.get().is_some_and(|v| says_off(&v))
    }

    /// Whether it is set, to anything but empty or a word for off: a switch that is on.
    pub fn is_on(self) -> bool {
        self.get()
            .is_some_and(|v| !v.trim().is_empty() && !says_off(&v))
    }

    /// Its value as milliseconds, when set; a value that is not a whole number of them is an
    /// error naming the setting.
    pub fn millis(self) -> Result<Option<std::time::Duration>, String> {
        let Some(text) = self.get() else {
            return Ok(None);
        };
        text.trim()
            .parse()
            .map(|ms| Some(std::time::Duration::from_millis(ms)))
            .map_err(|_| format!("{self}={text:?} is not a whole number of milliseconds"))
    }

    fn check_in_use(self) {
        debug_assert!(
            self.usage() == Use::InUse,
            "{} is reserved by the contract and not read yet: mark it InUse in settings.rs (the \
             tests then give it its row in docs/settings.md)",
            self.name()
        );
    }
}

fn says_off(value: &str) -> bool {
    matches!(
        value.trim().to_ascii_lowercase().as_str(),
        "0" | "false" | "no" | "off"
    )
}

impl std::fmt::Display for Setting {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// docs/settings.md: the settings in use as a table, then the names reserved.
    fn page() -> String {
        let with = |usage| Setting::ALL.iter().filter(move |s| s.usage() == usage);
        let rows: Vec<String> = with(Use::InUse)
            .map(|s| {
                format!(
                    "| `{}` | {} | {} |",
                    s.name(),
                    s.meaning(),
                    s.default_text()
                )
            })
            .collect();
        let reserved: Vec<String> = with(Use::Reserved)
            .map(|s| format!("`{}`", s.name()))
            .collect();
        format!(
            "# Settings\n\n\
             The environment variables tabpilot reads. Set them in the MCP client's\n\
             configuration for the server (`env`), or in the shell for the command line; a\n\
             server reads them once at start, and a malformed one stops it with a message that\n\
             names it. Made from src/shared/settings.rs, the one list, by\n\
             `cargo test --locked --lib`: edit that list, not this page. What the safety\n\
             switches guard is in [safety.md](safety.md).\n\n\
             | variable | meaning | default |\n|---|---|---|\n{}\n\n\
             The contract reserves more names for settings to come; nothing reads them yet: {}.\n",
            rows.join("\n"),
            reserved.join(", ")
        )
    }

    #[test]
    fn every_name_is_tabpilot_upper_snake_and_unique() {
        let mut names: Vec<&str> = Setting::ALL.iter().map(|s| s.name()).collect();
        for name in &names {
            let rest = name.strip_prefix("TABPILOT_").expect("TABPILOT_ prefix");
            assert!(
                !rest.is_empty()
                    && rest
                        .chars()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_'),
                "{name}"
            );
        }
        let count = names.len();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), count, "a name is listed twice");
    }

    #[test]
    fn every_name_the_contract_fixes_is_listed() {
        // The shared contract's list (plus NO_OPEN, which the code reads).
        for name in [
            "PORTS",
            "STATE_DIR",
            "BROWSER",
            "WORKSPACE",
            "SESSION",
            "LOG",
            "RELAY_IDLE_MS",
            "ALLOW_ORIGINS",
            "DENY_ORIGINS",
            "SENSITIVE_ORIGINS",
            "READ_ONLY",
            "NO_EVAL",
            "AUDIT",
            "AUDIT_FILE",
            "TOOLS",
            "TOKEN",
            "LEASE_TTL_MS",
            "CONNECT_WAIT_MS",
            "BROWSER_LABEL",
            "INSTANCE",
            "CHROMIUM_ARGS",
            "WEBMCP_TRUSTED_ORIGINS",
            "WEBMCP_AS_TOOLS",
            "NO_OPEN",
        ] {
            let full = format!("TABPILOT_{name}");
            assert!(
                Setting::ALL.iter().any(|s| s.name() == full),
                "{full} is missing"
            );
        }
    }

    #[test]
    fn the_default_port_range_is_the_one_the_code_uses() {
        let ports = crate::shared::protocol::DEFAULT_PORTS;
        assert_eq!(
            Setting::Ports.default_text(),
            format!("`{}-{}`", ports.start(), ports.end())
        );
    }

    #[test]
    fn the_default_http_port_is_the_one_the_code_uses() {
        assert_eq!(
            Setting::HttpPort.default_text(),
            format!("`{}`", crate::controller::mcp::http::DEFAULT_PORT)
        );
    }

    /// docs/settings.md lists exactly the settings in use, as they are declared here.
    #[test]
    fn the_settings_page_is_current() {
        crate::shared::generated::keep_current("docs/settings.md", &page(), "");
    }
}
