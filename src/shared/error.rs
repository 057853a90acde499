//! The closed set of error codes every tool answers with, and the error type that carries one.
//!
//! Text form: `CODE: message` then `Recover: call <tool>`; the same fields go into
//! `structuredContent`, so an agent and a person read the same thing.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

/// With no browser at all, what the agent cannot do itself: ask the person, naming both ways.
pub const CONNECT_A_BROWSER: &str = "Ask the person to connect their browser (`tabpilot pair` \
    prints a code for the extension's popup) or to add --launch to this server's command, for a \
    browser tabpilot starts.";

/// What happened to a call, in the five words the contract uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// Nothing was sent: the call was checked and refused.
    Refused,
    Done,
    /// Some of the work was done; the result says which.
    Partial,
    /// The work was attempted and did not happen.
    Failed,
    /// The request went out and the reply was lost: it may have taken effect.
    Unknown,
}

macro_rules! codes {
    ($( $variant:ident = $text:literal, $meaning:literal, $recover:literal; )*) => {
        /// Every error code tabpilot can answer with.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
        pub enum Code { $( #[serde(rename = $text)] $variant, )* }

        impl Code {
            pub const ALL: &'static [Code] = &[$(Code::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self { $(Code::$variant => $text,)* }
            }

            /// One line saying what the code means.
            pub fn meaning(self) -> &'static str {
                match self { $(Code::$variant => $meaning,)* }
            }

            /// The tool (or action) that recovers from it.
            pub fn recover(self) -> &'static str {
                match self { $(Code::$variant => $recover,)* }
            }

            pub fn parse(text: &str) -> Option<Code> {
                match text { $($text => Some(Code::$variant),)* _ => None }
            }
        }
    };
}

codes! {
    BadArgs = "BAD_ARGS", "the arguments do not match the tool's schema or rules", "the same tool with corrected arguments";
    StaleRef = "STALE_REF", "the element behind the ref is gone from the page", "browser_snapshot";
    NotActionable = "NOT_ACTIONABLE", "the element is hidden, disabled, moving or covered", "browser_snapshot";
    ElementAmbiguous = "ELEMENT_AMBIGUOUS", "more than one element (or tab) fits and tabpilot will not guess", "browser_snapshot";
    TabClaimed = "TAB_CLAIMED", "another agent holds this tab", "browser_new_tab";
    TabGone = "TAB_GONE", "the tab was closed", "browser_list_tabs";
    TabNotShared = "TAB_NOT_SHARED", "the tab is the person's and they have not shared it with agents (from the tabpilot popup)", "browser_new_tab";
    LeaseLost = "LEASE_LOST", "this agent's hold on the tab ended", "browser_list_tabs";
    NoBrowser = "NO_BROWSER", "no browser is connected to the relay", "browser_status";
    AmbiguousBrowser = "AMBIGUOUS_BROWSER", "several browsers are connected and none was named", "browser_select_browser";
    NavigationFailed = "NAVIGATION_FAILED", "the navigation did not reach the page", "browser_navigate";
    RestrictedPage = "RESTRICTED_PAGE", "the browser does not let extensions act on this page", "browser_navigate";
    AdvancedModeRequired = "ADVANCED_MODE_REQUIRED", "this needs advanced mode (the debugger attached to your tab), which is off, or the person forbade it (TABPILOT_NO_ADVANCED); the message says which", "browser_advanced_mode {mode: \"on\"}, unless the person forbade it";
    TabInBackground = "TAB_IN_BACKGROUND", "real input (advanced mode) reaches only a tab the browser shows in front", "browser_switch_tab to bring the tab to front, or browser_advanced_mode {mode: \"off\"} for synthetic input";
    CaptureStalled = "CAPTURE_STALLED", "the browser did not produce the capture in time", "browser_screenshot";
    OriginBlocked = "ORIGIN_BLOCKED", "policy forbids this origin", "browser_navigate";
    ReadOnly = "READ_ONLY", "read-only mode forbids changing the page", "browser_snapshot";
    EvalBlocked = "EVAL_BLOCKED", "running caller-supplied script is switched off", "browser_snapshot";
    ScriptError = "SCRIPT_ERROR", "the script browser_eval ran threw, did not compile, or took its page away before its value came back; the message says which", "the same tool with the script corrected";
    CspBlocked = "CSP_BLOCKED", "the page's Content-Security-Policy forbids it (for browser_eval: running script from a string; as a browser issue: content or script the page's policy kept from loading or running)", "browser_find or browser_get_html, which run no script of yours";
    MixedContent = "MIXED_CONTENT", "an https page asked for http content, which the browser blocked (scripts, frames, styles) or upgraded (images, media)", "the page's source: load it over https";
    CorsBlocked = "CORS_BLOCKED", "a cross-origin request's answer did not allow this page's origin (Access-Control-Allow-Origin), so the browser kept it from the page", "browser_get_network_request, for the answer's headers";
    RequestFailed = "REQUEST_FAILED", "a request got no answer (DNS, connection refused or reset, TLS, blocked by an extension or a rule); its reason says which", "browser_network_requests";
    HttpError = "HTTP_ERROR", "a request was answered with a 4xx or 5xx status", "browser_get_network_request, for its headers and body";
    DeprecatedApi = "DEPRECATED_API", "the page used an API the browser has deprecated: it still works, and will stop", "the page's source, at the place named";
    BrowserIntervention = "BROWSER_INTERVENTION", "the browser refused or changed what the page asked for (a sync XHR, a blocking listener, a heavy ad)", "the page's source, at the place named";
    RequestNotFound = "REQUEST_NOT_FOUND", "no request in the tab's network log has a URL containing that text", "browser_network_requests";
    PathOutsideSandbox = "PATH_OUTSIDE_SANDBOX", "the path is outside the sandbox's roots (the workspace, the working directory, tabpilot's temp folder) or in the state dir, /proc, /sys, /dev or /etc; or, handed to an application, in a place pages write (downloads, tabpilot's temp folder)", "the same tool with a path inside the sandbox";
    Timeout = "TIMEOUT", "the call did not finish in its time limit", "browser_snapshot";
    DialogOpen = "DIALOG_OPEN", "a JavaScript dialog is blocking the page", "browser_handle_dialog";
    ManifestInvalid = "MANIFEST_INVALID", "a .tabpilot/agent.json manifest or the user's agent.json is invalid", "agent_context";
    UntrustedPath = "UNTRUSTED_PATH", "a project directory or file is not owned by this user (or root), or others may write to it, so its context and commands are not used", "the same tool once the path named is yours and not writable by group or others (chown, chmod go-w)";
    WebmcpApprovalDenied = "WEBMCP_APPROVAL_DENIED", "the person denied the page tool's call, closed its approval window, or did not approve it in time; the tool did not run", "ask the person, or the same call again once they are there to approve it";
    WebmcpToolStale = "WEBMCP_TOOL_STALE", "the toolRef is from another document, or the page unregistered or changed that tool; nothing ran", "browser_page_tools list";
    WebmcpUnavailable = "WEBMCP_UNAVAILABLE", "the page or browser offers no page tools (WebMCP): a Chromium launched without --enable-features=WebMCPTesting, or a page that declares none", "browser_page_tools list, or the page's own controls";
    WebmcpBusy = "WEBMCP_BUSY", "another page tool call is waiting for approval or running in this tab; nothing ran", "the same call once the other has ended";
    WebmcpExecutionUncertain = "WEBMCP_EXECUTION_UNCERTAIN", "the page tool started and its answer was lost (timeout, navigation, the page went away): it may have taken effect; never retried", "browser_snapshot, to see what the page shows now";
    SecretOriginMismatch = "SECRET_ORIGIN_MISMATCH", "the secret is not for the origin of the field's frame (which may be a look-alike page): nothing was filled", "stop and tell the person which page asked for which secret; never type the secret instead";
    SecretNotFound = "SECRET_NOT_FOUND", "no secret has that name, or it is of another kind (a file where a value is wanted, or the other way)", "browser_status lists the secrets by name; a person adds one with `tabpilot secret add`";
    PersonRequired = "PERSON_REQUIRED", "this reaches beyond the agent's own tab (the whole browser's proxy) and the person has not allowed it; the message names their setting", "ask the person: only they can allow it, with the setting the message names";
    IncognitoBlocked = "INCOGNITO_BLOCKED", "the person has not allowed the tabpilot extension in private windows, so it cannot open or drive a private tab", "ask the person to switch on chrome://extensions → tabpilot → Details → Allow in Incognito (an extension loaded unpacked needs Developer mode on there too, or Chrome turns it off), then browser_new_tab {incognito: true} again";
    NotFound = "NOT_FOUND", "nothing fits what was named: no skill or registered command of that name, or no tab of that address or title", "list_local_skills or list_local_commands";
    AppBusUnavailable = "APP_BUS_UNAVAILABLE", "no accessibility bus answers in this session (AT-SPI's registry is not running, no session bus, or not Linux), so local applications cannot be read", "start the session's accessibility service (Debian: at-spi2-core), then list_local_applications";
    AppNotAllowed = "APP_NOT_ALLOWED", "TABPILOT_APPS_ALLOW does not name this application, so it may not be opened, read or operated (an entry hidden from menus, or one that runs an interpreter, a runtime or a terminal, opens only when the list names its id)", "ask the person to add its desktop id to TABPILOT_APPS_ALLOW";
    AppNoTree = "APP_NO_TREE", "the application runs but shows no accessibility tree (sandboxed, still starting, or a toolkit without AT-SPI)", "open_local_application (it starts apps with accessibility on), or list_local_applications once it has a window";
    AppGone = "APP_GONE", "the application, or the window or element named, is gone", "list_local_applications, then inspect_local_application";
    Cancelled = "CANCELLED", "the client cancelled the call; one that changes the page may have reached it first", "browser_snapshot, to see what the page shows now";
    Internal = "INTERNAL", "tabpilot hit a fault of its own; the message says where", "browser_status";
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A failed tool call: its code, a message a user can act on, and what happened.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[error("{code}: {message}")]
pub struct ToolError {
    pub code: Code,
    pub message: String,
    pub outcome: Outcome,
    /// The recovery where the code's own does not fit this situation (a code that serves two).
    pub recovery: Option<&'static str>,
}

impl ToolError {
    /// An error found before anything was sent: the outcome is `refused`.
    pub fn refused(code: Code, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            outcome: Outcome::Refused,
            recovery: None,
        }
    }

    /// An error after the work was attempted.
    pub fn failed(code: Code, message: impl Into<String>) -> Self {
        ToolError {
            code,
            message: message.into(),
            outcome: Outcome::Failed,
            recovery: None,
        }
    }

    pub fn bad_args(message: impl Into<String>) -> Self {
        Self::refused(Code::BadArgs, message)
    }

    /// A call went out and its reply never came (`why`): `unknown` when the call could have
    /// changed the page, else `failed` and safe to repeat. Every "lost reply" is built here.
    pub fn lost(code: Code, why: impl std::fmt::Display, mutates: bool) -> Self {
        if mutates {
            ToolError {
                code,
                message: format!("{why}; it may have taken effect"),
                outcome: Outcome::Unknown,
                recovery: None,
            }
        } else {
            ToolError::failed(
                code,
                format!("{why}; it changed nothing, so it is safe to call again"),
            )
        }
    }

    pub fn with_outcome(mut self, outcome: Outcome) -> Self {
        self.outcome = outcome;
        self
    }

    /// Names the tool that recovers in this situation, where it is not the code's own.
    pub fn recovered_by(mut self, recovery: &'static str) -> Self {
        self.recovery = Some(recovery);
        self
    }

    /// The tool (or action) that recovers from this error.
    pub fn recover(&self) -> &'static str {
        self.recovery.unwrap_or(self.code.recover())
    }

    /// The text an agent and a person both read.
    pub fn text(&self) -> String {
        let recover = self.recover();
        // "call" goes before a tool's name only, never before words ("ask the person ...").
        let first = recover.split([' ', ',']).next().unwrap_or_default();
        let tool =
            first.contains('_') && first.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
        let verb = if tool { "call " } else { "" };
        format!("{}: {}\nRecover: {verb}{recover}", self.code, self.message)
    }

    /// The same fields for `structuredContent`.
    pub fn structured(&self) -> Value {
        json!({
            "outcome": self.outcome,
            "error": {
                "code": self.code,
                "message": self.message,
                "meaning": self.code.meaning(),
                "recover": self.recover(),
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_round_trips_and_explains_itself() {
        for code in Code::ALL {
            assert_eq!(Code::parse(code.as_str()), Some(*code));
            assert!(!code.meaning().is_empty() && !code.recover().is_empty());
            let wire = serde_json::to_value(code).unwrap();
            assert_eq!(wire, json!(code.as_str()));
        }
    }

    #[test]
    fn text_names_the_code_and_the_recovering_tool() {
        let e = ToolError::refused(Code::StaleRef, "ref e1 is gone");
        assert_eq!(
            e.text(),
            "STALE_REF: ref e1 is gone\nRecover: call browser_snapshot"
        );
        assert_eq!(e.structured()["error"]["recover"], "browser_snapshot");
        assert_eq!(e.structured()["outcome"], "refused");
        let e =
            ToolError::refused(Code::NotFound, "no tab matches").recovered_by("browser_list_tabs");
        assert!(
            e.text().ends_with("Recover: call browser_list_tabs"),
            "{}",
            e.text()
        );
        assert_eq!(e.structured()["error"]["recover"], "browser_list_tabs");
    }
}
