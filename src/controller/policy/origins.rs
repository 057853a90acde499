//! Origin patterns and the three lists built from them (allow, deny, sensitive).
//!
//! A pattern is `scheme://host[:port]`: the scheme `http`, `https` or `*` (either); the host a
//! name, an IP address, `*` (any), or `*.name` (the name and every name under it, as Chrome's match
//! patterns read it); the port a number, `*` (any), or left out (the scheme's default). Each pattern
//! is matched here and, as the same regular expression, by the browser (its network rules and its
//! check at the moment of an action), so the two ends cannot read a pattern differently. The
//! expression also covers the origin's WebSocket scheme (`ws` for `http`, `wss` for `https`): a
//! socket to a denied host is that host's, and the browser's network rules see its URL so.

use regex::Regex;
use url::Url;

use crate::shared::settings::Setting;

/// One origin pattern, as written and as the regular expression it means.
#[derive(Clone, Debug)]
pub struct OriginPattern {
    text: String,
    regex: Regex,
    /// `http`, `https` or `*`.
    scheme: &'static str,
    host: Host,
}

/// A pattern's host: any, one name, or a name and every name under it.
#[derive(Clone, Debug)]
pub(super) enum Host {
    Any,
    Exact(String),
    Under(String),
}

impl OriginPattern {
    pub fn parse(text: &str) -> Result<Self, String> {
        let bad = |why: &str| format!("{text:?} is not an origin pattern: {why}");
        let (scheme, rest) = text
            .split_once("://")
            .ok_or_else(|| bad("it needs a scheme, like https://example.com"))?;
        let (scheme, scheme_re) = match scheme.to_ascii_lowercase().as_str() {
            "http" => ("http", "(?:http|ws)"),
            "https" => ("https", "(?:https|wss)"),
            "*" => ("*", "(?:https?|wss?)"),
            _ => return Err(bad("the scheme is http, https or *")),
        };
        let rest = rest.strip_suffix('/').unwrap_or(rest);
        if rest.contains(['/', '?', '#', '@']) {
            return Err(bad("an origin has no path, query, fragment or user"));
        }
        let (host, port) = split_port(rest).map_err(|why| bad(&why))?;
        let host = host.to_ascii_lowercase();
        let (host_re, host_kind) = if host == "*" {
            (r"[^/?#@:\[\]]+|\[[0-9a-f:.]+\]".to_string(), Host::Any)
        } else if let Some(name) = host.strip_prefix("*.") {
            check_host(name).map_err(|why| bad(&why))?;
            let re = format!(r"(?:[^/?#@:]+\.)?{}", regex::escape(name));
            (re, Host::Under(name.to_string()))
        } else {
            check_host(&host).map_err(|why| bad(&why))?;
            (regex::escape(&host), Host::Exact(host.clone()))
        };
        let port_re = match port {
            Port::Default => String::new(),
            Port::Any => "(?::[0-9]+)?".to_string(),
            // Browsers write a default port as none at all, so both forms of it match.
            Port::Number(n) if Some(n) == default_port(scheme) => format!("(?::{n})?"),
            Port::Number(n) => format!(":{n}"),
        };
        let source = format!("^{scheme_re}://(?:{host_re}){port_re}[/?#]");
        let regex = Regex::new(&source).map_err(|e| bad(&e.to_string()))?;
        Ok(OriginPattern {
            text: text.to_string(),
            regex,
            scheme,
            host: host_kind,
        })
    }

    /// Whether a URL (as the browser writes it) is at an origin this pattern covers.
    pub fn matches(&self, url: &str) -> bool {
        self.regex.is_match(url)
    }

    /// `http`, `https` or `*`.
    pub(super) fn scheme(&self) -> &'static str {
        self.scheme
    }

    pub(super) fn host(&self) -> &Host {
        &self.host
    }

    /// The pattern as its user wrote it.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// The regular expression (RE2 and JavaScript read it alike) the browser matches URLs with.
    pub fn regex(&self) -> &str {
        self.regex.as_str()
    }
}

enum Port {
    Default,
    Any,
    Number(u16),
}

fn default_port(scheme: &str) -> Option<u16> {
    match scheme {
        "http" => Some(80),
        "https" => Some(443),
        _ => None,
    }
}

fn split_port(hostport: &str) -> Result<(&str, Port), String> {
    // An IPv6 address is bracketed; its colons are not a port's.
    let colon = match hostport.rfind(']') {
        Some(end) => hostport[end..].find(':').map(|i| end + i),
        None => hostport.rfind(':'),
    };
    let Some(colon) = colon else {
        return Ok((hostport, Port::Default));
    };
    let (host, port) = (&hostport[..colon], &hostport[colon + 1..]);
    let port = match port {
        "*" => Port::Any,
        n => Port::Number(
            n.parse::<u16>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("the port {n:?} is not a number from 1 to 65535 or *"))?,
        ),
    };
    Ok((host, port))
}

fn check_host(host: &str) -> Result<(), String> {
    let ok = !host.is_empty()
        && if let Some(v6) = host.strip_prefix('[') {
            v6.strip_suffix(']')
                .is_some_and(|a| a.parse::<std::net::Ipv6Addr>().is_ok())
        } else {
            host.split('.').all(|label| {
                !label.is_empty()
                    && label
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
            })
        };
    if ok {
        Ok(())
    } else {
        Err(format!(
            "the host {host:?} is not a name, an IP address, * or *.name"
        ))
    }
}

/// Which list a URL fell foul of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum List {
    Allow,
    Deny,
    Sensitive,
}

impl List {
    pub fn setting(self) -> Setting {
        match self {
            List::Allow => Setting::AllowOrigins,
            List::Deny => Setting::DenyOrigins,
            List::Sensitive => Setting::SensitiveOrigins,
        }
    }
}

/// Why a URL may not be driven: the list, and the pattern that matched (none for a URL the allow
/// list does not name).
#[derive(Debug, PartialEq, Eq)]
pub struct Blocked<'a> {
    pub list: List,
    pub pattern: Option<&'a str>,
}

impl std::fmt::Display for Blocked<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let setting = self.list.setting();
        match self.pattern {
            Some(p) => write!(f, "it matches {p} in {setting}"),
            None => write!(f, "it matches nothing in {setting}"),
        }
    }
}

/// A setting's list of patterns, when set; a malformed pattern is an error naming it and the
/// setting.
pub fn read_list(s: Setting) -> Result<Option<Vec<OriginPattern>>, String> {
    s.get()
        .map(|v| parse_list(&v).map_err(|e| format!("{s}: {e}")))
        .transpose()
}

/// The site policy's three lists. Empty lists (none set) allow everything.
#[derive(Clone, Debug, Default)]
pub struct Origins {
    /// When set, only these may be driven.
    pub allow: Option<Vec<OriginPattern>>,
    /// Never driven, and blocked in the browser's network.
    pub deny: Vec<OriginPattern>,
    /// Readable, never acted on.
    pub sensitive: Vec<OriginPattern>,
}

impl Origins {
    /// Reads the three settings; a malformed pattern is an error naming it and its setting.
    pub fn from_env() -> Result<Self, String> {
        Ok(Origins {
            allow: read_list(Setting::AllowOrigins)?,
            deny: read_list(Setting::DenyOrigins)?.unwrap_or_default(),
            sensitive: read_list(Setting::SensitiveOrigins)?.unwrap_or_default(),
        })
    }

    pub fn is_empty(&self) -> bool {
        self.allow.is_none() && self.deny.is_empty() && self.sensitive.is_empty()
    }

    /// Whether the agent may go to `url`: not denied, and allowed when there is an allow list.
    /// Pages that are no origin's (`about:blank`) are always reachable.
    pub fn may_visit(&self, url: &str) -> Result<(), Blocked<'_>> {
        let url = normalize(url);
        if !url.starts_with("http://") && !url.starts_with("https://") {
            return Ok(());
        }
        if let Some(p) = self.deny.iter().find(|p| p.matches(&url)) {
            return Err(Blocked {
                list: List::Deny,
                pattern: Some(p.text()),
            });
        }
        match &self.allow {
            Some(allow) if !allow.iter().any(|p| p.matches(&url)) => Err(Blocked {
                list: List::Allow,
                pattern: None,
            }),
            _ => Ok(()),
        }
    }
}

impl Origins {
    /// Whether `url` (a page, a request, or a bare origin) is at an origin the agent may act on:
    /// not denied, allowed when there is an allow list, and not sensitive. Addresses of no origin
    /// (`about:`, `data:`) pass; a WebSocket's is its host's.
    pub fn judge(&self, url: &str) -> Result<(), Blocked<'_>> {
        let url = normalize(url);
        let web = ["http://", "https://", "ws://", "wss://"];
        if !web.iter().any(|s| url.starts_with(s)) {
            return Ok(());
        }
        if let Some(p) = self.deny.iter().find(|p| p.matches(&url)) {
            return Err(Blocked {
                list: List::Deny,
                pattern: Some(p.text()),
            });
        }
        if let Some(allow) = &self.allow
            && !allow.iter().any(|p| p.matches(&url))
        {
            return Err(Blocked {
                list: List::Allow,
                pattern: None,
            });
        }
        match self.sensitive.iter().find(|p| p.matches(&url)) {
            Some(p) => Err(Blocked {
                list: List::Sensitive,
                pattern: Some(p.text()),
            }),
            None => Ok(()),
        }
    }
}

/// A URL as the browser would write it (lower-case host, no default port), so a pattern meets
/// the same text here as in the browser.
fn normalize(url: &str) -> String {
    Url::parse(url).map_or_else(|_| url.to_string(), String::from)
}

fn parse_list(value: &str) -> Result<Vec<OriginPattern>, String> {
    value
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(OriginPattern::parse)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(pattern: &str, url: &str) -> bool {
        OriginPattern::parse(pattern)
            .unwrap()
            .matches(&normalize(url))
    }

    #[test]
    fn schemes_hosts_and_ports_match_as_written() {
        assert!(m("http://localhost:*", "http://localhost:8080/a"));
        assert!(m("http://localhost:*", "http://localhost/"));
        assert!(!m("http://localhost:*", "https://localhost/"));
        assert!(!m("http://localhost:*", "http://localhost.evil.com/"));
        assert!(m("https://example.com", "https://EXAMPLE.com:443/x"));
        assert!(!m("https://example.com", "https://example.com:8443/"));
        assert!(m("https://example.com:8443", "https://example.com:8443/"));
        assert!(m("http://example.com:80", "http://example.com/"));
        assert!(m("*://example.com", "http://example.com/"));
        assert!(m("*://example.com", "https://example.com/"));
        assert!(m("http://127.0.0.1:*", "http://127.0.0.1:4000/p?q"));
        assert!(m("http://[::1]:*", "http://[::1]:4000/"));
        assert!(m("https://*", "https://anything.at.all/"));
    }

    #[test]
    fn an_origins_websockets_are_its_own() {
        assert!(m("http://localhost:*", "ws://localhost:8080/socket"));
        assert!(!m("http://localhost:*", "wss://localhost:8080/socket"));
        assert!(m("https://example.com", "wss://example.com/socket"));
        assert!(m("*://example.com", "ws://example.com/"));
        assert!(!m("https://example.com", "ws://example.com/"));
    }

    #[test]
    fn a_wildcard_host_covers_the_name_and_every_name_under_it_and_no_other() {
        let p = "https://*.staging.example.com";
        assert!(m(p, "https://staging.example.com/"));
        assert!(m(p, "https://a.b.staging.example.com/"));
        assert!(!m(p, "https://xstaging.example.com/"));
        assert!(!m(p, "https://staging.example.com.evil.net/"));
        // A user part is not the host.
        assert!(!m("https://example.com", "https://example.com@evil.net/"));
    }

    #[test]
    fn malformed_patterns_are_refused_by_name() {
        for bad in [
            "example.com",
            "ftp://example.com",
            "https://example.com/path",
            "https://exa mple.com",
            "https://*example.com",
            "https://example.com:99999",
            "https://example.com:x",
            "https://",
        ] {
            let e = OriginPattern::parse(bad).unwrap_err();
            assert!(e.contains(&format!("{bad:?}")), "{e}");
        }
    }

    #[test]
    fn the_lists_say_which_one_blocked_and_by_what() {
        let origins = Origins {
            allow: Some(parse_list("http://127.0.0.1:*").unwrap()),
            deny: parse_list("http://localhost:*").unwrap(),
            sensitive: vec![],
        };
        assert_eq!(origins.may_visit("http://127.0.0.1:9/"), Ok(()));
        assert_eq!(origins.may_visit("about:blank"), Ok(()));
        let denied = origins.may_visit("http://localhost:9/").unwrap_err();
        assert_eq!(denied.list, List::Deny);
        assert_eq!(
            denied.to_string(),
            "it matches http://localhost:* in TABPILOT_DENY_ORIGINS"
        );
        let outside = origins.may_visit("https://example.com/").unwrap_err();
        assert_eq!(
            outside.to_string(),
            "it matches nothing in TABPILOT_ALLOW_ORIGINS"
        );
    }

    /// docs/safety.md's ready-made configuration for a real profile is one a server starts with.
    #[test]
    fn the_documented_configuration_parses() {
        let doc = include_str!("../../../docs/safety.md");
        let mut seen = 0;
        for setting in [
            Setting::AllowOrigins,
            Setting::DenyOrigins,
            Setting::SensitiveOrigins,
        ] {
            let key = format!("\"{}\": \"", setting.name());
            for line in doc.lines().filter(|l| l.contains(&key)) {
                let value = line.split(&key).nth(1).unwrap().split('"').next().unwrap();
                parse_list(value).unwrap_or_else(|e| panic!("{setting}: {e}"));
                seen += 1;
            }
        }
        assert_eq!(
            seen, 3,
            "docs/safety.md's configuration sets the three lists"
        );
    }
}
