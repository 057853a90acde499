//! Cookies judged by their scope, not by the address asked about. A browser sends a cookie to
//! every port of its host and, unless it is `Secure`, by either scheme; a domain cookie to every
//! host under its domain too. So a cookie the agent reads or sets at an allowed origin may be the
//! one a denied app on another port of the same host lives by.
//!
//! The rule, per list:
//! - **deny and sensitive**: a cookie is kept from agents when any origin it reaches (any port,
//!   any scheme it goes by, any host of its scope) matches a pattern of the list: one denied
//!   port hides (and refuses setting) every cookie of its host.
//! - **allow**: a cookie is the agent's only when every host it reaches is one the allow list
//!   names (at some port, by some scheme): a domain cookie needs its whole domain allowed
//!   (`*.example.com`, or `*`). Ports are not asked of the allow list: cookies have none, so an
//!   allow list naming `http://127.0.0.1:3000` could show no cookie of 127.0.0.1 at all were
//!   they; an app on another port of an allowed host that must keep its cookies is denied (or
//!   marked sensitive), which the first rule honours at every port.

use super::origins::{Blocked, Host, List, OriginPattern, Origins};

/// Where a browser sends a cookie: its host (without the leading dot a domain cookie is written
/// with), whether hosts under it get it too, and whether only `https` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CookieScope {
    host: String,
    domain: bool,
    secure: bool,
}

impl CookieScope {
    /// A cookie as the browser lists it: a domain cookie's domain starts with a dot.
    pub fn of_cookie(domain: &str, secure: bool) -> Self {
        let domain_wide = domain.starts_with('.');
        CookieScope::new(domain, domain_wide, secure)
    }

    /// A cookie of `host`, for hosts under it too when `domain`.
    pub fn new(host: &str, domain: bool, secure: bool) -> Self {
        let host = host.trim_start_matches('.').to_ascii_lowercase();
        // An IPv6 address is bracketed in URLs and patterns.
        let host = if host.contains(':') && !host.starts_with('[') {
            format!("[{host}]")
        } else {
            host
        };
        CookieScope {
            host,
            domain,
            secure,
        }
    }

    /// Whether the cookie goes by plain `http` too: not `Secure`, or on a loopback host, where
    /// the browser sends `Secure` cookies without TLS.
    fn plain_http(&self) -> bool {
        let h = &self.host;
        let loopback = h == "localhost"
            || h.ends_with(".localhost")
            || h == "[::1]"
            || h.parse::<std::net::Ipv4Addr>()
                .is_ok_and(|a| a.is_loopback());
        !self.secure || loopback
    }

    /// The host the cookie is written for.
    pub fn host(&self) -> &str {
        &self.host
    }
}

/// Whether `name` is `base` or a name under it.
fn at_or_under(name: &str, base: &str) -> bool {
    name == base
        || name
            .strip_suffix(base)
            .is_some_and(|rest| rest.ends_with('.'))
}

impl OriginPattern {
    /// Whether some origin the cookie reaches (any port, a scheme it goes by) matches.
    fn reaches(&self, scope: &CookieScope) -> bool {
        let by_scheme = self.scheme() != "http" || scope.plain_http();
        let h = scope.host.as_str();
        by_scheme
            && match self.host() {
                Host::Any => true,
                Host::Exact(n) if scope.domain => at_or_under(n, h),
                Host::Exact(n) => n == h,
                Host::Under(n) if scope.domain => at_or_under(n, h) || at_or_under(h, n),
                Host::Under(n) => at_or_under(h, n),
            }
    }

    /// Whether every host the cookie reaches is one this pattern names (ports and schemes
    /// aside).
    fn names_every_host(&self, scope: &CookieScope) -> bool {
        let h = scope.host.as_str();
        match self.host() {
            Host::Any => true,
            Host::Exact(n) => !scope.domain && n == h,
            Host::Under(n) => at_or_under(h, n),
        }
    }
}

impl Origins {
    /// Why a cookie of `scope` may not be shown to an agent at all, or set by one: some origin
    /// it reaches is denied, or one of its hosts is outside the allow list.
    pub fn cookie_kept(&self, scope: &CookieScope) -> Option<Blocked<'_>> {
        if let Some(p) = self.deny.iter().find(|p| p.reaches(scope)) {
            return Some(Blocked {
                list: List::Deny,
                pattern: Some(p.text()),
            });
        }
        match &self.allow {
            Some(allow) if !allow.iter().any(|p| p.names_every_host(scope)) => Some(Blocked {
                list: List::Allow,
                pattern: None,
            }),
            _ => None,
        }
    }

    /// Why a cookie of `scope` may be listed but neither revealed nor set: some origin it
    /// reaches is sensitive.
    pub fn cookie_sensitive(&self, scope: &CookieScope) -> Option<Blocked<'_>> {
        self.sensitive
            .iter()
            .find(|p| p.reaches(scope))
            .map(|p| Blocked {
                list: List::Sensitive,
                pattern: Some(p.text()),
            })
    }

    /// Why the cookies a request to `host` carries or sets may be another origin's that agents
    /// are kept from: a `Cookie` header names no cookie's scope, so each it could hold is asked
    /// about, the host's own and a domain cookie of the host or of any parent domain of two
    /// labels or more, against the deny and sensitive lists (the allow list judges the request's
    /// own origin, as for any credential).
    pub fn cookies_sent_to(&self, host: &str) -> Option<Blocked<'_>> {
        let host = CookieScope::new(host, false, false).host;
        let ip = host.starts_with('[') || host.parse::<std::net::Ipv4Addr>().is_ok();
        let mut scopes = vec![CookieScope::new(&host, false, false)];
        if !ip {
            let labels: Vec<&str> = host.split('.').collect();
            for i in 0..labels.len().saturating_sub(1) {
                scopes.push(CookieScope::new(&labels[i..].join("."), true, false));
            }
        }
        scopes.iter().find_map(|s| {
            let denied = self
                .deny
                .iter()
                .find(|p| p.reaches(s))
                .map(|p| (List::Deny, p));
            let sensitive = || self.sensitive.iter().find(|p| p.reaches(s));
            denied
                .or_else(|| sensitive().map(|p| (List::Sensitive, p)))
                .map(|(list, p)| Blocked {
                    list,
                    pattern: Some(p.text()),
                })
        })
    }

    /// Why an agent may not set (or delete) a cookie of `scope`: [`Origins::cookie_kept`], or
    /// sensitive.
    pub fn cookie_unsettable(&self, scope: &CookieScope) -> Option<Blocked<'_>> {
        self.cookie_kept(scope)
            .or_else(|| self.cookie_sensitive(scope))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(text: &str) -> Vec<OriginPattern> {
        text.split(',')
            .map(|p| OriginPattern::parse(p).unwrap())
            .collect()
    }

    fn deny(text: &str) -> Origins {
        Origins {
            deny: list(text),
            ..Origins::default()
        }
    }

    fn allow(text: &str) -> Origins {
        Origins {
            allow: Some(list(text)),
            ..Origins::default()
        }
    }

    fn host_only(host: &str) -> CookieScope {
        CookieScope::new(host, false, false)
    }

    /// The finding: a cookie of 127.0.0.1 set by the app on one port is the other port's too.
    #[test]
    fn a_denied_port_keeps_every_cookie_of_its_host() {
        let o = deny("http://127.0.0.1:4000");
        let kept = o.cookie_kept(&host_only("127.0.0.1")).unwrap();
        assert_eq!(kept.list, List::Deny);
        assert_eq!(kept.pattern, Some("http://127.0.0.1:4000"));
        assert!(o.cookie_kept(&host_only("localhost")).is_none());
        // Whatever the scheme of the denied pattern, its host's cookies go to it.
        assert!(
            deny("https://example.com")
                .cookie_kept(&host_only("example.com"))
                .is_some()
        );
        assert!(
            deny("*://example.com:8443")
                .cookie_kept(&host_only("example.com"))
                .is_some()
        );
    }

    #[test]
    fn a_secure_cookie_reaches_no_plain_http_origin_except_on_loopback() {
        let secure = CookieScope::new("example.com", false, true);
        assert!(deny("http://example.com:*").cookie_kept(&secure).is_none());
        assert!(deny("https://example.com").cookie_kept(&secure).is_some());
        let local = CookieScope::new("localhost", false, true);
        assert!(deny("http://localhost:4000").cookie_kept(&local).is_some());
        let v4 = CookieScope::new("127.0.0.1", false, true);
        assert!(deny("http://127.0.0.1:4000").cookie_kept(&v4).is_some());
    }

    #[test]
    fn a_domain_cookie_reaches_every_host_under_its_domain() {
        let wide = CookieScope::of_cookie(".example.com", false);
        for denied in [
            "https://admin.example.com",
            "https://example.com",
            "https://*.a.example.com",
            "https://*.com",
            "http://*:*",
        ] {
            assert!(deny(denied).cookie_kept(&wide).is_some(), "{denied}");
        }
        for other in [
            "https://example.org",
            "https://notexample.com",
            "https://*.example.org",
        ] {
            assert!(deny(other).cookie_kept(&wide).is_none(), "{other}");
        }
        // A host-only cookie of a name reaches no name under it.
        let app = CookieScope::of_cookie("app.example.com", false);
        assert!(
            deny("https://admin.example.com")
                .cookie_kept(&app)
                .is_none()
        );
        assert!(deny("https://*.example.com").cookie_kept(&app).is_some());
    }

    #[test]
    fn the_allow_list_is_asked_for_every_host_a_cookie_reaches_not_its_ports() {
        let o = allow("http://127.0.0.1:3000,https://www.example.com");
        assert!(o.cookie_kept(&host_only("127.0.0.1")).is_none());
        assert!(o.cookie_kept(&host_only("www.example.com")).is_none());
        let outside = o.cookie_kept(&host_only("example.com")).unwrap();
        assert_eq!((outside.list, outside.pattern), (List::Allow, None));
        // A domain cookie goes to hosts the list does not name.
        assert!(
            o.cookie_kept(&CookieScope::of_cookie(".www.example.com", false))
                .is_some()
        );
        let wide = allow("https://*.example.com");
        assert!(
            wide.cookie_kept(&CookieScope::of_cookie(".example.com", false))
                .is_none()
        );
        assert!(
            wide.cookie_kept(&CookieScope::of_cookie(".a.example.com", false))
                .is_none()
        );
        assert!(
            wide.cookie_kept(&CookieScope::of_cookie(".com", false))
                .is_some()
        );
        assert!(
            allow("*://*:*")
                .cookie_kept(&CookieScope::of_cookie(".com", false))
                .is_none()
        );
    }

    #[test]
    fn a_sensitive_origin_lists_its_cookies_and_refuses_setting_them() {
        let o = Origins {
            sensitive: list("https://bank.example:8443"),
            ..Origins::default()
        };
        let scope = host_only("bank.example");
        assert!(o.cookie_kept(&scope).is_none());
        assert_eq!(o.cookie_sensitive(&scope).unwrap().list, List::Sensitive);
        assert_eq!(o.cookie_unsettable(&scope).unwrap().list, List::Sensitive);
        assert!(o.cookie_unsettable(&host_only("shop.example")).is_none());
    }

    #[test]
    fn scopes_are_read_as_the_browser_writes_them() {
        assert_eq!(
            CookieScope::of_cookie(".Example.COM", true).host(),
            "example.com"
        );
        assert_eq!(CookieScope::new("::1", false, false).host(), "[::1]");
        let v6 = deny("http://[::1]:9");
        assert!(
            v6.cookie_kept(&CookieScope::of_cookie("::1", false))
                .is_some()
        );
    }

    #[test]
    fn a_requests_cookies_may_be_any_parent_domains_and_any_ports_of_its_host() {
        let o = deny("http://127.0.0.1:4000,https://admin.example.com");
        assert!(o.cookies_sent_to("127.0.0.1").is_some());
        assert!(o.cookies_sent_to("localhost").is_none());
        // A cookie of .example.com goes to www and to the denied admin alike.
        assert!(o.cookies_sent_to("www.example.com").is_some());
        assert!(o.cookies_sent_to("a.b.example.com").is_some());
        assert!(o.cookies_sent_to("example.org").is_none());
        // A top-level name alone holds no cookie.
        assert!(
            deny("https://other.com")
                .cookies_sent_to("example.com")
                .is_none()
        );
        let sensitive = Origins {
            sensitive: list("https://bank.example"),
            ..Origins::default()
        };
        let why = sensitive.cookies_sent_to("bank.example").unwrap();
        assert_eq!(why.list, List::Sensitive);
    }
}
