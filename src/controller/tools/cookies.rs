//! browser_get_cookies and browser_set_cookie: the cookies of the agent's tab's own cookie store
//! (a private tab's jar is its window's, never the person's profile), through `chrome.cookies`,
//! so `HttpOnly` ones too. Attributes are always shown; values are credentials, shown by their
//! length unless revealed where the person allows it (network/reveal.rs, as for headers).

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::{acts, check_url, read_only};
use super::ctx::Ctx;
use super::network::reveal::Credentials;
use super::spec::{Cli, Keeps, Out};
use super::tool::{About, Tool};
use crate::controller::policy::cookies::CookieScope;
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::state::{
    Cookie, CookieSet, Cookies, CookiesOut, Jar, SameSite, SetCookie,
};

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct GetArgs {
    url: Option<String>,
    name: Option<String>,
    /// Where the person allows credentials.
    reveal_values: Option<bool>,
}

#[derive(Deserialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Same {
    Strict,
    Lax,
    None,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SetArgs {
    name: String,
    value: Option<String>,
    delete: Option<bool>,
    url: Option<String>,
    domain: Option<String>,
    path: Option<String>,
    secure: Option<bool>,
    http_only: Option<bool>,
    same_site: Option<Same>,
    /// Unix seconds.
    expires: Option<f64>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "browser_get_cookies",
                description: "Cookies of this tab's own jar for its page (or url), HttpOnly too; values hidden.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["cookies"],
                    ..Cli::default()
                },
                keeps: Keeps::args(&["name"]),
                ..About::default()
            },
            |cx, a| get_cookies(cx, a).boxed(),
        ),
        Tool::new(
            About {
                name: "browser_set_cookie",
                description: "Set or delete a cookie in this tab's jar for its page (or url).",
                hints: acts(),
                keeps: Keeps::args(&[
                    "name", "delete", "domain", "secure", "httpOnly", "sameSite", "expires",
                ]),
                ..About::default()
            },
            |cx, a| set_cookie(cx, a).boxed(),
        ),
    ]
}

/// The address a call names, checked before anything is sent: a web address the agent may go
/// to (and, to change its cookies, act on).
fn url_arg(cx: &Ctx, url: &Option<String>, acting: bool) -> Result<(), ToolError> {
    let Some(url) = url else { return Ok(()) };
    if !url.starts_with("http://") && !url.starts_with("https://") {
        return Err(ToolError::bad_args(format!(
            "{url:?}: cookies belong to http and https addresses"
        )));
    }
    check_url(url)?;
    match acting {
        true => cx.policy().check_act(url),
        false => cx.policy().check_visit(url),
    }
}

/// Whether the values are asked of the browser at all: only when they may be shown, by the
/// switches; the pages are judged once the answer names them.
pub(super) fn ask_values(cx: &Ctx, asked: bool) -> bool {
    asked && cx.policy().credentials_withheld().is_none()
}

fn jar_words(jar: &Jar) -> String {
    let private = if jar.private { ", private jar" } else { "" };
    format!("{} (store {}{private})", jar.url, jar.store)
}

fn describe(c: &Cookie) -> String {
    let value = match &c.value {
        Some(v) => format!("={v:?}"),
        None => format!(" ({} chars, hidden)", c.len),
    };
    let mut flags = vec![format!("domain {} path {}", c.domain, c.path)];
    for (on, word) in [(c.http_only, "HttpOnly"), (c.secure, "Secure")] {
        if on {
            flags.push(word.into());
        }
    }
    flags.push(format!("SameSite={}", same_site_word(c.same_site)));
    flags.push(match c.expires {
        Some(t) => format!("expires {}", t as i64),
        None => "session".into(),
    });
    if let Some(p) = &c.partition {
        flags.push(format!("partitioned to {p}"));
    }
    format!("- {}{value}; {}", c.name, flags.join(", "))
}

fn same_site_word(s: SameSite) -> &'static str {
    match s {
        SameSite::Strict => "Strict",
        SameSite::Lax => "Lax",
        SameSite::NoRestriction => "None",
        SameSite::Unspecified => "unspecified",
    }
}

async fn get_cookies(cx: &Ctx, a: GetArgs) -> Result<Out<CookiesOut>, ToolError> {
    url_arg(cx, &a.url, false)?;
    let asked = a.reveal_values.unwrap_or(false);
    let call = Cookies {
        url: a.url,
        name: a.name,
        values: ask_values(cx, asked),
    };
    let mut r = cx.run(call).await?;
    let page = cx.place().url;
    let credentials = Credentials::decide(cx.policy(), asked, &[Some(&r.jar.url), page.as_deref()]);
    if credentials != Credentials::Shown {
        r.cookies.iter_mut().for_each(|c| c.value = None);
    }
    let kept = by_scope(cx, &mut r.cookies);
    let mut lines = vec![format!(
        "{} cookie(s) for {}",
        r.cookies.len(),
        jar_words(&r.jar)
    )];
    lines.extend(r.cookies.iter().map(describe));
    if !r.cookies.is_empty() {
        lines.push(credentials.line());
    }
    lines.extend(kept);
    let out = Out::new(lines.join("\n"), r);
    Ok(match credentials {
        Credentials::Shown => out.revealing("credentials"),
        _ => out,
    })
}

/// Holds each cookie to its scope (policy/cookies.rs): one the browser sends to a denied or
/// not-allowed origin is left out, one it sends to a sensitive origin keeps its value hidden.
/// Says what was done, in words that name no cookie left out.
fn by_scope(cx: &Ctx, cookies: &mut Vec<Cookie>) -> Vec<String> {
    let origins = &cx.policy().origins;
    let mut why_kept = None;
    let before = cookies.len();
    cookies.retain(|c| {
        let scope = CookieScope::of_cookie(&c.domain, c.secure);
        let kept = origins.cookie_kept(&scope);
        if let Some(b) = &kept {
            why_kept.get_or_insert_with(|| b.to_string());
        }
        kept.is_none()
    });
    let mut lines = Vec::new();
    if let Some(why) = why_kept {
        lines.push(format!(
            "{} cookie(s) left out: the browser sends them to an origin kept from agents \
             (every port and scheme of their host, every host of their domain): {why}",
            before - cookies.len()
        ));
    }
    let mut hidden = 0;
    for c in cookies.iter_mut() {
        let scope = CookieScope::of_cookie(&c.domain, c.secure);
        if origins.cookie_sensitive(&scope).is_some() && c.value.take().is_some() {
            hidden += 1;
        }
    }
    if hidden > 0 {
        lines.push(format!(
            "{hidden} value(s) stay hidden: the browser sends those cookies to a sensitive origin"
        ));
    }
    lines
}

/// Refuses a set or delete of a cookie whose scope reaches an origin agents may not act on (any
/// port or scheme of its host, any host of its domain), before anything is sent.
fn check_scope(cx: &Ctx, scope: &CookieScope, name: &str) -> Result<(), ToolError> {
    match cx.policy().origins.cookie_unsettable(scope) {
        None => Ok(()),
        Some(why) => Err(ToolError::refused(
            Code::OriginBlocked,
            format!(
                "cookie {name:?} of {} is not for agents: the browser would send it to an origin \
                 they may not act on ({why})",
                scope.host()
            ),
        )),
    }
}

/// The host a cookie set for `url` is written for.
fn host_of(url: &str) -> Result<String, ToolError> {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_string))
        .ok_or_else(|| ToolError::bad_args(format!("{url:?} has no host to set a cookie for")))
}

/// A set needs a value and a delete takes none; either needs a name.
fn check_set(a: &SetArgs) -> Result<(), ToolError> {
    let why = match (a.delete.unwrap_or(false), &a.value) {
        _ if a.name.is_empty() => "name is empty",
        (true, Some(_)) => "delete takes no value",
        (false, None) => "give value (or delete: true)",
        _ => return Ok(()),
    };
    Err(ToolError::bad_args(why))
}

async fn set_cookie(cx: &Ctx, a: SetArgs) -> Result<Out<CookieSet>, ToolError> {
    check_set(&a)?;
    let delete = a.delete.unwrap_or(false);
    // The address the cookie is set for is the one judged: the agent's page as it last saw it
    // when none is given, never wherever the tab may have gone since.
    let url = match a.url.or(cx.place().url) {
        Some(url) => url,
        None => return Err(ToolError::bad_args("no page yet: give url")),
    };
    url_arg(cx, &Some(url.clone()), true)?;
    let host = host_of(&url)?;
    let scope = match &a.domain {
        Some(d) => CookieScope::new(d, true, a.secure.unwrap_or(false)),
        None => CookieScope::new(&host, false, a.secure.unwrap_or(false)),
    };
    check_scope(cx, &scope, &a.name)?;
    if delete {
        // The cookie a delete removes may be a domain cookie: judged by its own scope.
        let found = Cookies {
            url: Some(url.clone()),
            name: Some(a.name.clone()),
            values: false,
        };
        for c in cx.run(found).await?.cookies {
            check_scope(cx, &CookieScope::of_cookie(&c.domain, c.secure), &a.name)?;
        }
    }
    let call = SetCookie {
        url: Some(url),
        name: a.name.clone(),
        value: a.value,
        domain: a.domain,
        path: a.path,
        secure: a.secure,
        http_only: a.http_only,
        same_site: a.same_site.map(|s| match s {
            Same::Strict => SameSite::Strict,
            Same::Lax => SameSite::Lax,
            Same::None => SameSite::NoRestriction,
        }),
        expires: a.expires,
        delete,
    };
    let r = cx.run(call).await?;
    let jar = jar_words(&r.jar);
    let text = match (&r.cookie, r.deleted) {
        (Some(c), _) => format!("Set cookie for {jar}:\n{}", describe(c)),
        (None, true) => format!("Deleted cookie {} for {jar}", a.name),
        (None, false) => format!("No cookie {} for {jar}: nothing to delete", a.name),
    };
    Ok(Out::new(text, r))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn set(v: serde_json::Value) -> Result<(), ToolError> {
        check_set(&serde_json::from_value(v).expect("arguments of the schema"))
    }

    #[test]
    fn a_set_needs_a_value_and_a_delete_takes_none() {
        assert!(set(json!({"name": "a", "value": ""})).is_ok());
        assert!(set(json!({"name": "a", "delete": true})).is_ok());
        for bad in [
            json!({"name": "a"}),
            json!({"name": "a", "value": "v", "delete": true}),
            json!({"name": "", "value": "v"}),
        ] {
            assert!(set(bad.clone()).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_cookie_line_says_its_attributes_and_its_value_only_when_shown() {
        let mut c = Cookie {
            name: "sid".into(),
            value: None,
            len: 12,
            domain: "example.com".into(),
            path: "/".into(),
            secure: true,
            http_only: true,
            same_site: SameSite::NoRestriction,
            expires: None,
            partition: None,
        };
        let line = describe(&c);
        assert!(line.contains("sid (12 chars, hidden)"), "{line}");
        for word in ["HttpOnly", "Secure", "SameSite=None", "session"] {
            assert!(line.contains(word), "{line}");
        }
        c.value = Some("v4lue".into());
        assert!(describe(&c).contains("sid=\"v4lue\""));
    }
}
