//! Credential values in a request's headers (the `Cookie` header with the person's HttpOnly
//! session cookies, `Set-Cookie`, `Authorization`, API keys): a boundary, not a display default.
//! They reach an agent only when it asks (`revealValues`) and the person let it
//! (`TABPILOT_REVEAL_CREDENTIALS`), never under read-only or no-eval, and never for a request
//! whose address, initiator, redirect or tab's page is at a sensitive, denied or not-allowed
//! origin. Otherwise each is shown by its length.

use crate::controller::policy::Policy;
use crate::shared::protocol::wire::network::Header;
use crate::shared::settings::Setting;

/// Headers whose values are credentials, by name.
const CREDENTIAL_HEADERS: &[&str] = &[
    "cookie",
    "set-cookie",
    "set-cookie2",
    "authorization",
    "proxy-authorization",
    "x-api-key",
    "api-key",
    "x-auth-token",
    "x-access-token",
    "x-csrf-token",
    "x-xsrf-token",
    "x-csrftoken",
    "x-amz-security-token",
    "x-goog-api-key",
];

/// Words that make any other header a credential (`x-session-token`, `x-my-apikey`): hiding one
/// that is not costs the agent a value, showing one that is costs the person an account.
const CREDENTIAL_WORDS: &[&str] = &[
    "auth",
    "token",
    "secret",
    "session",
    "cookie",
    "apikey",
    "api-key",
    "password",
    "credential",
    "signature",
];

/// Headers those words name that carry no credential: a server's authentication challenge.
const CHALLENGES: &[&str] = &["www-authenticate", "proxy-authenticate"];

/// Whether a header's value is a credential.
pub(super) fn is_credential(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    CREDENTIAL_HEADERS.contains(&name.as_str())
        || (!CHALLENGES.contains(&name.as_str())
            && CREDENTIAL_WORDS.iter().any(|w| name.contains(w)))
}

/// What this agent is shown of one request's credential values.
#[derive(Debug, PartialEq)]
pub(in crate::controller::tools) enum Credentials {
    /// Not asked for: shown by their length.
    Hidden,
    /// Asked for, and held back: why.
    Withheld(String),
    /// Asked for, and let through by the person's setting.
    Shown,
}

impl Credentials {
    /// Decides for a request: `asked` is `revealValues`; `places` are the request's address,
    /// its initiator and redirect, and the address of the tab's page, where known.
    pub(in crate::controller::tools) fn decide(
        policy: &Policy,
        asked: bool,
        places: &[Option<&str>],
    ) -> Credentials {
        if !asked {
            return Credentials::Hidden;
        }
        if let Some(why) = policy.credentials_withheld() {
            return Credentials::Withheld(why);
        }
        if !policy.origins.is_empty() && places.last().is_some_and(Option::is_none) {
            return Credentials::Withheld(
                "credential values stay hidden: the tab's page is not known, so its origin \
                 cannot be judged"
                    .into(),
            );
        }
        match places
            .iter()
            .flatten()
            .find_map(|u| policy.credentials_at(u))
        {
            Some(why) => Credentials::Withheld(why),
            None => Credentials::Shown,
        }
    }

    /// Shown values held back when the request's host shares cookies with an origin agents are
    /// kept from (policy/cookies.rs `cookies_sent_to`): its `Cookie` and `Set-Cookie` may be
    /// that origin's, another port's of the same host or a parent domain's.
    pub(super) fn sharing_cookies(self, policy: &Policy, url: &str) -> Credentials {
        let host = url::Url::parse(url)
            .ok()
            .and_then(|u| u.host_str().map(str::to_string));
        let Some(host) = host.filter(|_| self == Credentials::Shown) else {
            return self;
        };
        match policy.origins.cookies_sent_to(&host) {
            Some(why) => Credentials::Withheld(format!(
                "the cookies of {host} are shared with an origin kept from agents (every port of \
                 the host, every host of a parent domain): {why}"
            )),
            None => self,
        }
    }

    /// A header as the result shows it: a credential's value by its length, unless shown.
    pub(super) fn shown(&self, h: Header) -> Header {
        if *self == Credentials::Shown || !is_credential(&h.name) {
            return h;
        }
        let n = h.value.chars().count();
        Header {
            value: format!("••• ({n} chars, hidden)"),
            name: h.name,
        }
    }

    /// The line the result ends with when the request carries credentials.
    pub(in crate::controller::tools) fn line(&self) -> String {
        match self {
            Credentials::Hidden => format!(
                "Credential values are hidden; revealValues shows them only where the person \
                 allows it ({}=1).",
                Setting::RevealCredentials
            ),
            Credentials::Withheld(why) => format!("Credential values are hidden: {why}."),
            Credentials::Shown => format!(
                "Credential values are shown: the person allows it ({}=1); the audit trail \
                 records this call as revealing them.",
                Setting::RevealCredentials
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::policy::origins::Origins;

    fn header(name: &str, value: &str) -> Header {
        Header {
            name: name.into(),
            value: value.into(),
        }
    }

    fn allowing() -> Policy {
        Policy {
            reveal_credentials: true,
            ..Policy::default()
        }
    }

    fn sensitive(pattern: &str) -> Policy {
        let origins = Origins {
            sensitive: vec![
                crate::controller::policy::origins::OriginPattern::parse(pattern).unwrap(),
            ],
            ..Origins::default()
        };
        Policy {
            origins,
            ..allowing()
        }
    }

    #[test]
    fn credentials_are_hidden_by_length_and_other_headers_shown() {
        let cookie = header("Set-Cookie", "sid=abc123");
        let hidden = Credentials::Hidden.shown(cookie.clone());
        assert_eq!(hidden.value, "••• (10 chars, hidden)");
        assert_eq!(Credentials::Shown.shown(cookie.clone()), cookie);
        let withheld = Credentials::Withheld("no".into()).shown(cookie);
        assert!(!withheld.value.contains("abc123"), "{}", withheld.value);
        let plain = header("content-type", "text/html");
        assert_eq!(Credentials::Hidden.shown(plain.clone()), plain);
        for name in [
            "Cookie",
            "authorization",
            "X-Session-Token",
            "x-my-apikey",
            "X-CSRFToken",
        ] {
            assert!(is_credential(name), "{name}");
        }
        for name in ["www-authenticate", "content-length", "x-request-id", "etag"] {
            assert!(!is_credential(name), "{name}");
        }
    }

    #[test]
    fn only_the_person_s_setting_reveals_and_read_only_no_eval_and_origins_hold_it_back() {
        let page = Some("http://127.0.0.1:4000/app");
        let places = [Some("http://127.0.0.1:4000/api"), None, page];
        let decide = |p: &Policy, asked| Credentials::decide(p, asked, &places);
        assert_eq!(decide(&allowing(), false), Credentials::Hidden);
        let off = decide(&Policy::default(), true);
        assert!(
            matches!(&off, Credentials::Withheld(w) if w.contains("TABPILOT_REVEAL_CREDENTIALS")),
            "{off:?}"
        );
        assert_eq!(decide(&allowing(), true), Credentials::Shown);
        for (policy, setting) in [
            (
                Policy {
                    read_only: true,
                    ..allowing()
                },
                "TABPILOT_READ_ONLY",
            ),
            (
                Policy {
                    no_eval: true,
                    ..allowing()
                },
                "TABPILOT_NO_EVAL",
            ),
        ] {
            let held = decide(&policy, true);
            assert!(
                matches!(&held, Credentials::Withheld(w) if w.contains(setting)),
                "{held:?}"
            );
        }
        let held = decide(&sensitive("http://127.0.0.1:4000"), true);
        assert!(
            matches!(&held, Credentials::Withheld(w) if w.contains("TABPILOT_SENSITIVE_ORIGINS")),
            "{held:?}"
        );
        // A request elsewhere made by a sensitive page, and one to a sensitive origin.
        let other = sensitive("http://other.test");
        let from = [
            Some("http://127.0.0.1:4000/x"),
            Some("http://other.test"),
            page,
        ];
        assert!(matches!(
            Credentials::decide(&other, true, &from),
            Credentials::Withheld(_)
        ));
        let unknown_page = [Some("http://127.0.0.1:4000/x"), None, None];
        assert!(matches!(
            Credentials::decide(&other, true, &unknown_page),
            Credentials::Withheld(_)
        ));
    }
}
