//! browser_proxy: the browser's proxy, through `chrome.proxy` (sw/proxy.js). It is the whole
//! browser's, the person's tabs included, so the description and every answer say so, and
//! `browser_status` shows it while tabpilot holds it. `clear` takes tabpilot's setting away,
//! which gives the browser back what it had before (the person's, or the system's). Read-only
//! mode refuses a change, by the operation's declaration; a call with no arguments only reads.

use std::time::Duration;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{acts, check_url};
use super::ctx::Ctx;
use super::spec::{Hints, Keeps, Out};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::BrowserId;
use crate::shared::protocol::wire::emulate::{ProxyMode, ProxyState, ReadProxy, Server, SetProxy};

const WHOLE_BROWSER: &str = "This is the whole browser's proxy: the person's tabs use it too.";
/// How long browser_status waits for a browser's proxy before leaving it out.
const STATUS_WAIT: Duration = Duration::from_secs(2);

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ProxyArgs {
    mode: Option<ProxyMode>,
    /// fixed: [scheme://]host:port; pac: the script's URL.
    server: Option<String>,
    /// Hosts not proxied (loopback never is).
    bypass: Option<Vec<String>>,
    clear: Option<bool>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_proxy",
            description: "Set the proxy of the WHOLE browser, the person's tabs too; clear restores; no args shows.",
            hints: Hints {
                mixed: true,
                idempotent: true,
                ..acts()
            },
            keeps: Keeps::args(&["mode", "server", "bypass", "clear"]),
            ..About::default()
        },
        |cx, a| proxy(cx, a).boxed(),
    )]
}

async fn proxy(cx: &Ctx, a: ProxyArgs) -> Result<Out<ProxyState>, ToolError> {
    let clear = a.clear == Some(true);
    if a.mode.is_none() && !clear {
        if a.server.is_some() || a.bypass.is_some() {
            return Err(ToolError::bad_args("server and bypass go with a mode"));
        }
        let now = cx.run(ReadProxy {}).await?;
        return Ok(Out::new(
            format!("{}\n{WHOLE_BROWSER}", describe(&now)),
            now,
        ));
    }
    let call = checked(a, clear)?;
    if !clear {
        let server = call.server.as_ref().map(Server::origin);
        cx.policy()
            .check_proxy(server.as_deref(), call.pac_url.is_some())?;
    }
    let now = cx.run(call).await?;
    let mut text = format!("{}\n{WHOLE_BROWSER}", describe(&now));
    if !clear && !now.is_tabpilots() {
        text.push_str(" It did not take: the browser's proxy is not tabpilot's to set.");
    }
    Ok(Out::new(text, now))
}

/// The call the arguments make, every one of them checked first.
fn checked(a: ProxyArgs, clear: bool) -> Result<SetProxy, ToolError> {
    let bypass = a.bypass.unwrap_or_default();
    if clear {
        if a.mode.is_some() || a.server.is_some() || !bypass.is_empty() {
            return Err(ToolError::bad_args("clear goes alone"));
        }
        return Ok(SetProxy {
            mode: None,
            server: None,
            pac_url: None,
            bypass,
            clear,
        });
    }
    let mode = a.mode.expect("a mode, when not clearing");
    let (server, pac_url) = match (mode, a.server) {
        (ProxyMode::Fixed, Some(s)) => (Some(server(&s)?), None),
        (ProxyMode::Pac, Some(url)) => {
            check_url(&url)?;
            (None, Some(url))
        }
        (ProxyMode::Fixed | ProxyMode::Pac, None) => {
            return Err(ToolError::bad_args("fixed and pac take a server"));
        }
        (_, Some(_)) => return Err(ToolError::bad_args("only fixed and pac take a server")),
        (_, None) => (None, None),
    };
    if mode != ProxyMode::Fixed && !bypass.is_empty() {
        return Err(ToolError::bad_args("bypass goes with fixed"));
    }
    if bypass
        .iter()
        .any(|b| b.is_empty() || b.contains(char::is_whitespace))
    {
        return Err(ToolError::bad_args(
            "a bypass entry is a host pattern, without spaces",
        ));
    }
    // Chrome never proxies loopback unless told to with this rule; the relay's link is there,
    // and so are the person's local servers.
    if bypass.iter().any(|b| b.eq_ignore_ascii_case("<-loopback>")) {
        return Err(ToolError::bad_args(
            "loopback is never proxied (tabpilot's own link to the browser runs there): leave out <-loopback>",
        ));
    }
    Ok(SetProxy {
        mode: Some(mode),
        server,
        pac_url,
        bypass,
        clear,
    })
}

/// `[scheme://]host:port`, scheme one of Chrome's (http by default).
fn server(text: &str) -> Result<Server, ToolError> {
    let bad = || {
        ToolError::bad_args(format!(
            "{text:?}: a proxy server is [http|https|socks4|socks5://]host:port"
        ))
    };
    let (scheme, rest) = text.split_once("://").unwrap_or(("http", text));
    if !["http", "https", "socks4", "socks5"].contains(&scheme) {
        return Err(bad());
    }
    let (host, port) = rest.rsplit_once(':').ok_or_else(bad)?;
    let port: u16 = port.parse().map_err(|_| bad())?;
    let host_ok = !host.is_empty()
        && host
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-.[]:".contains(c));
    if !host_ok || port == 0 {
        return Err(bad());
    }
    Ok(Server {
        scheme: scheme.into(),
        host: host.into(),
        port,
    })
}

impl Server {
    /// The origin the site policy judges the proxy by: an https proxy's as https, any other's
    /// (an HTTP or SOCKS proxy) as http.
    fn origin(&self) -> String {
        let scheme = if self.scheme == "https" {
            "https"
        } else {
            "http"
        };
        format!("{scheme}://{}:{}/", self.host, self.port)
    }
}

fn describe(p: &ProxyState) -> String {
    let whose = match p.control.as_str() {
        "controlled_by_this_extension" => "set by tabpilot",
        "controlled_by_other_extensions" => "set by another extension",
        "not_controllable" => "fixed by the browser's policy",
        _ => "the browser's own",
    };
    let mut s = format!("Proxy: {}", p.mode);
    if let Some(server) = &p.server {
        s.push_str(&format!(" {server}"));
    }
    if let Some(pac) = &p.pac_url {
        s.push_str(&format!(" {pac}"));
    }
    if !p.bypass.is_empty() {
        s.push_str(&format!(" (bypass {})", p.bypass.join(",")));
    }
    format!("{s}, {whose}.")
}

/// A browser's proxy as browser_status shows it.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct BrowserProxy {
    browser_id: BrowserId,
    #[serde(flatten)]
    proxy: ProxyState,
}

/// The proxies tabpilot set in the connected browsers (a browser that does not answer in time
/// is left out), with a line for each.
pub(super) async fn held(cx: &Ctx, browsers: &[BrowserId]) -> (Vec<BrowserProxy>, String) {
    let mut held = Vec::new();
    let mut text = String::new();
    for id in browsers {
        let asked = cx.run(ReadProxy {}).in_browser(Some(id.0.clone()));
        let Ok(Ok(proxy)) = tokio::time::timeout(STATUS_WAIT, asked.into_future()).await else {
            continue;
        };
        if proxy.is_tabpilots() {
            text.push_str(&format!(
                "\nBrowser {id}: {} It affects every tab.",
                describe(&proxy)
            ));
            held.push(BrowserProxy {
                browser_id: id.clone(),
                proxy,
            });
        }
    }
    (held, text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::policy::Policy;
    use crate::controller::policy::origins::{OriginPattern, Origins};
    use crate::shared::error::Code;
    use serde_json::json;

    fn call(v: serde_json::Value) -> Result<SetProxy, ToolError> {
        let a: ProxyArgs = serde_json::from_value(v).unwrap();
        let clear = a.clear == Some(true);
        checked(a, clear)
    }

    #[test]
    fn a_proxy_is_checked_before_anything_is_sent() {
        let ok = call(json!({"mode": "fixed", "server": "127.0.0.1:8080", "bypass": ["*.test"]}))
            .unwrap();
        assert_eq!(
            ok.server,
            Some(Server {
                scheme: "http".into(),
                host: "127.0.0.1".into(),
                port: 8080
            })
        );
        assert_eq!(server("socks5://[::1]:1080").unwrap().host, "[::1]");
        for bad in [
            json!({"mode": "fixed"}),
            json!({"mode": "fixed", "server": "ftp://h:1"}),
            json!({"mode": "fixed", "server": "h:0"}),
            json!({"mode": "direct", "server": "h:1"}),
            json!({"mode": "direct", "bypass": ["x"]}),
            json!({"mode": "pac", "server": "javascript:1"}),
            json!({"clear": true, "mode": "direct"}),
            json!({"mode": "fixed", "server": "h:1", "bypass": ["<-loopback>"]}),
            json!({"mode": "fixed", "server": "h:1", "bypass": ["x", "<-LOOPBACK>"]}),
        ] {
            assert!(call(bad.clone()).is_err(), "{bad}");
        }
    }

    fn policy(allow_proxy: bool, lists: &[(&str, &str)]) -> Policy {
        let list = |name| {
            lists
                .iter()
                .filter(|(n, _)| *n == name)
                .map(|(_, p)| OriginPattern::parse(p).unwrap())
                .collect::<Vec<_>>()
        };
        let allow = list("allow");
        let origins = Origins {
            allow: (!allow.is_empty()).then_some(allow),
            deny: list("deny"),
            sensitive: list("sensitive"),
        };
        Policy {
            allow_proxy,
            origins,
            ..Policy::default()
        }
    }

    /// Finding 2 of the third probe: a confined agent (an allow list) set a proxy for the whole
    /// browser. The person's word comes first, then the site policy judges the server.
    #[test]
    fn a_proxy_needs_the_person_s_word_and_a_server_the_site_policy_allows() {
        let fixed = |s: &str| Server::origin(&server(s).unwrap());
        let none = policy(false, &[]);
        let e = none
            .check_proxy(Some(&fixed("127.0.0.1:8080")), false)
            .unwrap_err();
        assert_eq!(e.code, Code::PersonRequired, "{e}");
        assert!(e.message.contains("TABPILOT_ALLOW_PROXY=1"), "{e}");
        assert_eq!(
            none.check_proxy(None, false).unwrap_err().code,
            Code::PersonRequired
        );

        let open = policy(true, &[]);
        assert!(
            open.check_proxy(Some(&fixed("127.0.0.1:8080")), false)
                .is_ok()
        );
        assert!(
            open.check_proxy(None, true).is_ok(),
            "a PAC script with no origin list"
        );

        let confined = policy(true, &[("allow", "http://localhost:8000")]);
        let e = confined
            .check_proxy(Some(&fixed("10.0.0.9:3128")), false)
            .unwrap_err();
        assert_eq!(e.code, Code::OriginBlocked, "{e}");
        assert!(
            confined
                .check_proxy(Some(&fixed("localhost:8000")), false)
                .is_ok()
        );
        assert_eq!(
            confined.check_proxy(None, true).unwrap_err().code,
            Code::OriginBlocked
        );

        let denying = policy(true, &[("deny", "*://*.evil.test:*")]);
        let e = denying.check_proxy(Some(&fixed("socks5://p.evil.test:1080")), false);
        assert_eq!(e.unwrap_err().code, Code::OriginBlocked);
        assert_eq!(fixed("https://p.test:443"), "https://p.test:443/");
    }
}
