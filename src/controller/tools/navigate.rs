//! Moving this agent's tab: to a URL, a reload, back and forward; each waits for the navigation
//! it started and says whether it settled.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{AfterAction, SNAPSHOT_TOKENS, moves, timeout};
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Keeps, Out, Replayed, Tier};
use super::tool::{About, Tool};
use crate::shared::error::{Outcome, ToolError};
use crate::shared::protocol::wire::nav::{
    BeforeUnload, History, HistoryDirection as Direction, NavReply, Navigate,
};

/// The budget of the snapshot a navigation answers with unless asked otherwise: half a
/// snapshot's. A navigation is often a step on the way to another page; the result may carry
/// the snapshot twice (as text and in `structuredContent`); and the rest is one
/// `browser_snapshot` away.
const ARRIVAL_TOKENS: u64 = 2_000;

/// The largest `initScript`, in bytes: a stub or a seed, not an application.
const MAX_INIT_SCRIPT: usize = 100 * 1024;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct NavigateArgs {
    /// http, https or about:blank URL (omit with reload).
    url: Option<String>,
    /// Reload the current page instead.
    reload: Option<bool>,
    /// With reload: bypass the cache.
    ignore_cache: Option<bool>,
    /// Default true.
    include_snapshot: Option<bool>,
    // Milliseconds, 30000 by default: said once, in the server's instructions.
    timeout: Option<u64>,
    /// JS run first, this load only.
    init_script: Option<String>,
    /// Answer "Leave site?".
    handle_before_unload: Option<BeforeUnload>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct HistoryArgs {
    timeout: Option<u64>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![
        super::after::acting(
            About {
                name: "browser_navigate",
                description: "Load a URL in your tab; returns its lean snapshot once loaded.",
                hints: Hints {
                    idempotent: true,
                    ..moves()
                },
                cli: Cli {
                    positional: &["url"],
                    ..Cli::default()
                },
                keeps: Keeps::args(&["handleBeforeUnload"]),
                recorded: Some(Replayed::Navigate),
                tier: Tier::Slim,
            },
            |cx, a, after| navigate(cx, a, after).boxed(),
        ),
        super::after::acting(
            About {
                name: "browser_go_back",
                description: "Go back in your tab's history.",
                hints: moves(),
                recorded: Some(Replayed::Back),
                tier: Tier::Core,
                ..About::default()
            },
            |cx, a, after| history(cx, Direction::Back, a, after).boxed(),
        ),
        super::after::acting(
            About {
                name: "browser_go_forward",
                description: "Go forward in your tab's history.",
                hints: moves(),
                recorded: Some(Replayed::Forward),
                ..About::default()
            },
            |cx, a, after| history(cx, Direction::Forward, a, after).boxed(),
        ),
    ]
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct NavOut {
    settled: bool,
    elapsed_ms: u64,
    url: String,
    title: String,
    /// The tab's address as the call began.
    url_before: String,
    /// Whether the tab went anywhere (a new document, a reload's too, or a new address).
    navigated: bool,
    /// How the page's "Leave site?" prompt was answered, when it showed one.
    #[serde(skip_serializing_if = "Option::is_none")]
    before_unload: Option<String>,
    /// What shows the page still drawing itself, when something did at the end of the wait.
    #[serde(skip_serializing_if = "Option::is_none")]
    drawing: Option<String>,
}

async fn navigate(
    cx: &Ctx,
    a: NavigateArgs,
    after: &AfterAction,
) -> Result<Out<NavOut>, ToolError> {
    let reload = a.reload.unwrap_or(false);
    let call = match (&a.url, reload) {
        (Some(url), false) => {
            cx.may_visit(url)?;
            check_arrival(cx, url, &a)?;
            Navigate::To {
                url: url.clone(),
                after: after.wire(),
                init_script: a.init_script.clone(),
                handle_before_unload: a.handle_before_unload,
            }
        }
        (None, true) => Navigate::Reload {
            reload: true,
            ignore_cache: a.ignore_cache.unwrap_or(false),
            after: after.wire(),
        },
        _ => return Err(ToolError::bad_args("give url, or reload: true, not both")),
    };
    if a.ignore_cache.is_some() && !reload {
        return Err(ToolError::bad_args("ignoreCache goes with reload: true"));
    }
    if reload && (a.init_script.is_some() || a.handle_before_unload.is_some()) {
        return Err(ToolError::bad_args(
            "initScript and handleBeforeUnload go with url (the same url loads the page again)",
        ));
    }
    let nav = cx.run(call).within(timeout(a.timeout)?).await?;
    let requested = a.url.as_deref().unwrap_or("the reload");
    let snapshot = if after.wants_snapshot() {
        Some(SNAPSHOT_TOKENS)
    } else {
        (a.include_snapshot.unwrap_or(true) && !after.wants_diff()).then_some(ARRIVAL_TOKENS)
    };
    let mut out = navigation_output(cx, nav, requested, snapshot).await;
    if a.init_script.is_some() {
        out.text.push_str(
            "\ninitScript was armed before this navigation and removed once its document committed",
        );
    }
    Ok(out)
}

/// What advanced mode does for one navigation, refused before anything is sent: `initScript`
/// is the agent's own script (no-eval) acting on the page (read-only, and never at a sensitive
/// origin), and both change what the page does (read-only).
fn check_arrival(cx: &Ctx, url: &str, a: &NavigateArgs) -> Result<(), ToolError> {
    let policy = cx.policy();
    if let Some(script) = &a.init_script {
        policy.check_eval("browser_navigate {initScript}")?;
        policy.check_read_only("browser_navigate {initScript}")?;
        policy.check_advanced("browser_navigate {initScript}")?;
        policy.check_act(url)?;
        if script.len() > MAX_INIT_SCRIPT {
            return Err(ToolError::bad_args(format!(
                "initScript is {} bytes; at most {MAX_INIT_SCRIPT}",
                script.len()
            )));
        }
    }
    if a.handle_before_unload.is_some() {
        policy.check_read_only("browser_navigate {handleBeforeUnload}")?;
        policy.check_advanced("browser_navigate {handleBeforeUnload}")?;
    }
    Ok(())
}

async fn history(
    cx: &Ctx,
    direction: Direction,
    a: HistoryArgs,
    after: &AfterAction,
) -> Result<Out<NavOut>, ToolError> {
    let word = match direction {
        Direction::Back => "back",
        Direction::Forward => "forward",
    };
    let call = History {
        direction,
        after: after.wire(),
    };
    let nav = cx.run(call).within(timeout(a.timeout)?).await?;
    let snapshot = after.wants_snapshot().then_some(SNAPSHOT_TOKENS);
    Ok(navigation_output(cx, nav, &format!("going {word}"), snapshot).await)
}

/// One line on where the tab went and whether it settled, then the snapshot within the budget
/// given, if one is.
async fn navigation_output(
    cx: &Ctx,
    nav: NavReply,
    requested: &str,
    snapshot: Option<u64>,
) -> Out<NavOut> {
    let verb = match nav.what.as_str() {
        "reload" => "Reloaded",
        "back" => "Went back to",
        "forward" => "Went forward to",
        _ => "Navigated to",
    };
    let (url, title, ms) = (&nav.url, &nav.title, nav.elapsed_ms);
    let (text, outcome) = if let (true, Some(why)) = (nav.settled, &nav.drawing) {
        (
            format!(
                "{verb} {url} \"{title}\", loaded, but still drawing after {ms} ms ({why}); \
                 browser_wait_for the text you expect before acting"
            ),
            Outcome::Done,
        )
    } else if nav.settled {
        (
            format!("{verb} {url} \"{title}\" (settled in {ms} ms)"),
            Outcome::Done,
        )
    } else {
        (
            format!("{requested} had not settled after {ms} ms; the tab shows {url}"),
            Outcome::Partial,
        )
    };
    let mut text = text;
    if let Some(how) = &nav.before_unload {
        text.push_str(&format!("\nThe page's \"Leave site?\" prompt was {how}"));
    }
    let data = NavOut {
        settled: nav.settled,
        elapsed_ms: ms,
        url: nav.url,
        title: nav.title,
        url_before: nav.url_before,
        navigated: nav.navigated,
        before_unload: nav.before_unload,
        drawing: nav.drawing,
    };
    let mut out = Out::new(text, data).with_outcome(outcome);
    out.findings = nav.findings;
    if let (Some(budget), true) = (snapshot, out.data.settled) {
        cx.attach_snapshot(&mut out, budget).await;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::policy::Policy;
    use crate::shared::error::Code;
    use serde_json::{Value, json};

    async fn refused(policy: Policy, args: Value) -> ToolError {
        let cx = Ctx::offline_under(
            crate::controller::context::ContextEnv::from_process(),
            policy,
        );
        let tool = crate::controller::tools::registry::get("browser_navigate").unwrap();
        tool.call(&cx, args).await.unwrap_err()
    }

    const URL: &str = "http://127.0.0.1:9/";

    #[tokio::test]
    async fn advanced_arguments_are_refused_under_the_person_s_switches_before_anything_is_sent() {
        let script = json!({"url": URL, "initScript": "window.x = 1"});
        let prompt = json!({"url": URL, "handleBeforeUnload": "accept"});
        let no_advanced = || Policy {
            no_advanced: true,
            ..Policy::default()
        };
        let read_only = || Policy {
            read_only: true,
            ..Policy::default()
        };
        for (policy, args, code, says) in [
            (
                no_advanced(),
                &script,
                Code::AdvancedModeRequired,
                "TABPILOT_NO_ADVANCED",
            ),
            (
                no_advanced(),
                &prompt,
                Code::AdvancedModeRequired,
                "TABPILOT_NO_ADVANCED",
            ),
            (read_only(), &script, Code::ReadOnly, "initScript"),
            (read_only(), &prompt, Code::ReadOnly, "handleBeforeUnload"),
        ] {
            let e = refused(policy, args.clone()).await;
            assert_eq!((e.code, e.outcome), (code, Outcome::Refused), "{args}: {e}");
            assert!(e.message.contains(says), "{args}: {e}");
        }
        // Without them the same call goes on, and reaches for a browser (none here).
        let e = refused(Policy::default(), prompt).await;
        assert!(
            ![Code::AdvancedModeRequired, Code::ReadOnly, Code::BadArgs].contains(&e.code),
            "{e}"
        );
    }

    #[tokio::test]
    async fn an_init_script_for_a_sensitive_origin_is_refused_and_the_prompt_answer_is_not() {
        let sensitive = || {
            let mut p = Policy::default();
            p.origins.sensitive = vec![
                crate::controller::policy::origins::OriginPattern::parse("http://127.0.0.1:*")
                    .unwrap(),
            ];
            p
        };
        let e = refused(sensitive(), json!({"url": URL, "initScript": "1"})).await;
        assert_eq!(
            (e.code, e.outcome),
            (Code::OriginBlocked, Outcome::Refused),
            "{e}"
        );
        // A sensitive page is readable, so reaching it (and leaving the one before) is not refused.
        let e = refused(
            sensitive(),
            json!({"url": URL, "handleBeforeUnload": "accept"}),
        )
        .await;
        assert_ne!(e.code, Code::OriginBlocked, "{e}");
    }

    #[tokio::test]
    async fn an_init_script_past_the_cap_or_with_a_reload_is_bad_args() {
        let big = "x".repeat(MAX_INIT_SCRIPT + 1);
        let e = refused(Policy::default(), json!({"url": URL, "initScript": big})).await;
        assert_eq!(e.code, Code::BadArgs, "{e}");
        assert!(e.message.contains("at most"), "{e}");
        let e = refused(
            Policy::default(),
            json!({"reload": true, "initScript": "1"}),
        )
        .await;
        assert_eq!(e.code, Code::BadArgs, "{e}");
    }
}
