//! What the controller allows before anything is sent, and what it asks the browser to hold to:
//! the site policy's origin lists, read-only and no-eval, and where files may be written.

pub mod client_roots;
pub mod cookies;
pub mod origins;
pub mod paths;

use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::{Effect, Guard, GuardRule, Op};
use crate::shared::settings::Setting;
use origins::{Blocked, OriginPattern, Origins};

/// A glob as a whole-text pattern: `*` stands for any characters, the rest for itself.
pub fn glob(pattern: &str) -> Result<regex::Regex, regex::Error> {
    let source = regex::escape(pattern).replace(r"\*", ".*");
    regex::Regex::new(&format!("^{source}$"))
}

/// The policy one server runs under, read from its environment once at start.
#[derive(Clone, Debug, Default)]
pub struct Policy {
    pub origins: Origins,
    /// Refuse every tool that changes a page (`TABPILOT_READ_ONLY`).
    pub read_only: bool,
    /// Refuse every tool and argument that carries the agent's own script (`TABPILOT_NO_EVAL`).
    pub no_eval: bool,
    /// Refuse advanced mode and everything that needs it (`TABPILOT_NO_ADVANCED`).
    pub no_advanced: bool,
    /// The person lets credential values reach agents on request
    /// (`TABPILOT_REVEAL_CREDENTIALS`); read-only, no-eval and the origin lists still hold them.
    pub reveal_credentials: bool,
    /// The person lets agents set the browser's proxy (`TABPILOT_ALLOW_PROXY`).
    pub allow_proxy: bool,
    /// Pages whose own tools run without the person's approval
    /// (`TABPILOT_WEBMCP_TRUSTED_ORIGINS`).
    pub page_tools_trusted: Vec<OriginPattern>,
}

impl Policy {
    /// Reads the policy's settings. A malformed origin pattern is an error that names it: a
    /// server never starts with a list it half understood.
    pub fn from_env() -> Result<Self, String> {
        Ok(Policy {
            origins: Origins::from_env()?,
            read_only: Setting::ReadOnly.is_on(),
            no_eval: Setting::NoEval.is_on(),
            no_advanced: Setting::NoAdvanced.is_on(),
            reveal_credentials: Setting::RevealCredentials.is_on(),
            allow_proxy: Setting::AllowProxy.is_on(),
            page_tools_trusted: origins::read_list(Setting::WebmcpTrustedOrigins)?
                .unwrap_or_default(),
        })
    }

    /// Read-only mode's refusal of a tool that changes a page, decided from the tool alone.
    pub fn check_read_only(&self, tool: &str) -> Result<(), ToolError> {
        if self.read_only {
            return Err(ToolError::refused(
                Code::ReadOnly,
                format!("{tool} changes the page, and {} is on", Setting::ReadOnly),
            ));
        }
        Ok(())
    }

    /// Read-only mode's refusal of an operation that acts on the page, as its declaration says
    /// (scrolling, reading and moving between pages change no page).
    pub fn check_op(&self, op: Op) -> Result<(), ToolError> {
        match op.effect() {
            Effect::Acts => self.check_read_only(&format!("the {} operation", op.name())),
            Effect::Reads | Effect::Moves => Ok(()),
        }
    }

    /// The no-eval switch's refusal of what would run the agent's own script.
    pub fn check_eval(&self, what: &str) -> Result<(), ToolError> {
        if self.no_eval {
            return Err(ToolError::refused(
                Code::EvalBlocked,
                format!(
                    "{what} runs script the agent wrote, and {} is on",
                    Setting::NoEval
                ),
            ));
        }
        Ok(())
    }

    /// The person's refusal of advanced mode (the debugger on the agent's tab), for `what`
    /// needs it; checked before anything is sent.
    pub fn check_advanced(&self, what: &str) -> Result<(), ToolError> {
        if self.no_advanced {
            return Err(ToolError::refused(
                Code::AdvancedModeRequired,
                format!(
                    "{what} needs advanced mode (the debugger), and the person forbade it: {} is on",
                    Setting::NoAdvanced
                ),
            )
            .recovered_by("ask the person: only they can lift TABPILOT_NO_ADVANCED"));
        }
        Ok(())
    }

    /// Whether the agent may set the browser's proxy: the whole browser's, the person's tabs
    /// too, so only with the person's word (`TABPILOT_ALLOW_PROXY`), and never to a server the
    /// site policy keeps the agent from (`server`, a fixed proxy's `scheme://host:port`), nor to
    /// a PAC script (which sends each request where it likes) under an origin list.
    pub fn check_proxy(&self, server: Option<&str>, pac: bool) -> Result<(), ToolError> {
        // Read-only mode refuses any change first, whatever else the person allowed.
        self.check_read_only("browser_proxy")?;
        if !self.allow_proxy {
            return Err(ToolError::refused(
                Code::PersonRequired,
                format!(
                    "the browser's proxy is the whole browser's, the person's tabs too, and the \
                     person has not let agents set it ({}=1); nothing was changed",
                    Setting::AllowProxy
                ),
            ));
        }
        if pac && !self.origins.is_empty() {
            return Err(ToolError::refused(
                Code::OriginBlocked,
                "a PAC script sends each request where it likes, past the origin lists this \
                 agent is held to; nothing was changed",
            ));
        }
        match server {
            Some(server) => self.check_visit(server),
            None => Ok(()),
        }
    }

    /// Whether the agent may load `url`, judged by the deny and allow lists.
    pub fn check_visit(&self, url: &str) -> Result<(), ToolError> {
        self.origins.may_visit(url).map_err(|b| blocked(url, &b))
    }

    /// Whether the agent may change what the browser keeps for `url` (its cookies): not denied,
    /// allowed, and not sensitive.
    pub fn check_act(&self, url: &str) -> Result<(), ToolError> {
        self.origins.judge(url).map_err(|b| blocked(url, &b))
    }

    /// Why credential values (cookies, authorization) may not reach the agent, judged by the
    /// switches alone; none when the person let them (`TABPILOT_REVEAL_CREDENTIALS`) and neither
    /// read-only nor no-eval holds the agent back. The pages involved are judged apart
    /// ([`Policy::credentials_at`]).
    pub fn credentials_withheld(&self) -> Option<String> {
        if !self.reveal_credentials {
            return Some(format!(
                "credential values reach an agent only when the person sets {}=1 for its server",
                Setting::RevealCredentials
            ));
        }
        let held = [
            (self.read_only, Setting::ReadOnly),
            (self.no_eval, Setting::NoEval),
        ];
        held.iter().find(|(on, _)| *on).map(|(_, setting)| {
            format!("credential values never reach an agent while {setting} is on")
        })
    }

    /// Why credential values of a request to or from `url` may not reach the agent: its origin
    /// is sensitive, denied, or outside the allow list; none when it is none of those.
    pub fn credentials_at(&self, url: &str) -> Option<String> {
        let why = self.origins.judge(url).err()?;
        let shown: String = url.chars().take(200).collect();
        Some(format!("credential values of {shown} stay hidden: {why}"))
    }

    /// The trusted pages' patterns as the browser matches them, for a page tool's call.
    pub fn page_tools_trusted_rules(&self) -> Vec<GuardRule> {
        rules(&self.page_tools_trusted)
    }

    /// What a call carries for the browser to hold to: the lists as the browser matches them,
    /// and whether this operation acts on the page (then judged by the tab's URL at that moment).
    /// None when there is no origin policy.
    pub fn guard(&self, op: Op) -> Option<Guard> {
        if self.origins.is_empty() {
            return None;
        }
        Some(Guard {
            allow: self.origins.allow.as_deref().map(rules),
            deny: rules(&self.origins.deny),
            sensitive: rules(&self.origins.sensitive),
            acts: op.acts_on_page(),
        })
    }
}

/// Origin patterns as the extension judges them: each as written, and its regular expression.
pub fn rules(list: &[OriginPattern]) -> Vec<GuardRule> {
    list.iter()
        .map(|p| GuardRule {
            pattern: p.text().to_string(),
            regex: p.regex().to_string(),
        })
        .collect()
}

/// The policy in effect, as `browser_status` shows it.
#[derive(Clone, Debug, serde::Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PolicyView {
    /// Only these origins may be driven (absent: any not denied).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub allow: Option<Vec<String>>,
    pub deny: Vec<String>,
    pub sensitive: Vec<String>,
    pub read_only: bool,
    pub no_eval: bool,
    pub no_advanced: bool,
    /// The person lets credential values reach agents on request.
    pub reveal_credentials: bool,
    /// The person lets agents set the browser's proxy.
    pub allow_proxy: bool,
}

impl Policy {
    pub fn view(&self) -> PolicyView {
        let texts = |l: &[OriginPattern]| l.iter().map(|p| p.text().to_string()).collect();
        PolicyView {
            allow: self.origins.allow.as_deref().map(texts),
            deny: texts(&self.origins.deny),
            sensitive: texts(&self.origins.sensitive),
            read_only: self.read_only,
            no_eval: self.no_eval,
            no_advanced: self.no_advanced,
            reveal_credentials: self.reveal_credentials,
            allow_proxy: self.allow_proxy,
        }
    }
}

impl PolicyView {
    /// What is set, a few words each (nothing when nothing is).
    pub fn parts(&self) -> Vec<String> {
        let mut parts = Vec::new();
        if let Some(allow) = &self.allow {
            parts.push(format!("allow {}", allow.join(",")));
        }
        for (word, list) in [("deny", &self.deny), ("sensitive", &self.sensitive)] {
            if !list.is_empty() {
                parts.push(format!("{word} {}", list.join(",")));
            }
        }
        if self.read_only {
            parts.push("read-only".into());
        }
        if self.no_eval {
            parts.push("no-eval".into());
        }
        if self.no_advanced {
            parts.push("no-advanced".into());
        }
        if self.reveal_credentials {
            parts.push("reveal-credentials".into());
        }
        if self.allow_proxy {
            parts.push("allow-proxy".into());
        }
        parts
    }
}

fn blocked(url: &str, why: &Blocked<'_>) -> ToolError {
    let shown: String = url.chars().take(200).collect();
    ToolError::refused(
        Code::OriginBlocked,
        format!("{shown} is not for agents: {why}"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scrolling is how an agent reads lazy content: its declaration says it changes nothing, so
    /// read-only mode lets it run, as it does its tool; clicking is refused.
    #[test]
    fn read_only_takes_what_an_operation_does_from_its_declaration() {
        let policy = Policy {
            read_only: true,
            ..Policy::default()
        };
        assert_eq!(Op::Scroll.effect(), Effect::Reads);
        assert!(policy.check_op(Op::Scroll).is_ok());
        assert!(policy.check_op(Op::Navigate).is_ok());
        assert_eq!(policy.check_op(Op::Click).unwrap_err().code, Code::ReadOnly);
        assert!(!Op::Scroll.acts_on_page() && !Op::Scroll.mutates());
        assert!(Op::Click.acts_on_page() && Op::Navigate.mutates());
        assert!(!Op::Navigate.acts_on_page());
    }
}
