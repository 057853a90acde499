//! Browser issues: the problems a page meets that log no console error (content its CSP
//! blocked, mixed content, CORS, failed requests and error statuses, deprecations and
//! interventions), each with its code from the closed set; and the line a page-changing tool's
//! reply ends with when new ones appeared during it.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;

use super::a11y::{self, A11yOut};
use super::args::read_only;
use super::ctx::Ctx;
use super::paging::{PAGE_SIZE, footer, page_arg};
use super::spec::Out;
use super::tool::{About, Tool};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::act::NetworkSince;
use crate::shared::protocol::wire::network::{Issue, Issues, IssuesOut};

const NAME: &str = "browser_issues";

/// Audits this tool runs besides the issues it collects.
#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Debug)]
#[serde(rename_all = "lowercase")]
enum Audit {
    A11y,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct IssuesArgs {
    /// a11y: accessibility audit.
    audit: Option<Audit>,
    /// 20 per page.
    page: Option<u64>,
}

impl Issue {
    fn line(&self) -> String {
        let status = self.status.map(|s| s.to_string());
        let mut parts = vec![self.code.clone()];
        parts.extend(
            [
                &self.directive,
                &status,
                &self.method,
                &self.r#type,
                &self.url,
                &self.blocked,
            ]
            .into_iter()
            .flatten()
            .cloned(),
        );
        if let (Some(reason), Some(error)) = (&self.reason, &self.error) {
            parts.push(format!("({reason}: {error})"));
        }
        if let Some(m) = &self.message {
            parts.push(format!("{m:?}"));
        }
        if let (Some(r), Some(el)) = (&self.r#ref, &self.element) {
            parts.push(format!("<{el}> {r}"));
        }
        if let Some(s) = &self.source {
            parts.push(format!("at {s}"));
        }
        if self.report_only == Some(true) {
            parts.push("(report-only: not blocked)".into());
        }
        parts.join(" ")
    }
}

/// The page's issues, or an audit's findings.
#[derive(Serialize, JsonSchema)]
struct Reply {
    #[serde(flatten)]
    issues: Option<IssuesOut>,
    #[serde(flatten)]
    a11y: Option<A11yOut>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: NAME,
            description: "Problems with no console error: CSP, mixed content, CORS, failed/4xx/5xx requests, deprecations; audit: a11y (axe-core).",
            hints: read_only(),
            ..About::default()
        },
        |cx, a| issues(cx, a).boxed(),
    )]
}

async fn issues(cx: &Ctx, a: IssuesArgs) -> Result<Out<Reply>, ToolError> {
    let page = page_arg(a.page)?;
    if a.audit == Some(Audit::A11y) {
        let (text, data) = a11y::audit(cx, page).await?;
        return Ok(Out::new(
            text,
            Reply {
                issues: None,
                a11y: Some(data),
            },
        ));
    }
    let r = cx
        .run(Issues {
            page,
            page_size: PAGE_SIZE,
        })
        .await?;
    let mut lines: Vec<String> = r.issues.iter().map(Issue::line).collect();
    if r.total == 0 {
        lines.push("No browser issues on this page.".into());
    }
    // What each code on this page means, once.
    let mut codes: Vec<&str> = r.issues.iter().map(|i| i.code.as_str()).collect();
    codes.sort();
    codes.dedup();
    for code in codes.into_iter().filter_map(Code::parse) {
        lines.push(format!("{code}: {}", code.meaning()));
    }
    lines.push(footer(NAME, page, r.total, PAGE_SIZE, json!({})));
    Ok(Out::new(
        lines.join("\n"),
        Reply {
            issues: Some(r),
            a11y: None,
        },
    ))
}

/// The line an action's reply ends with when requests failed or were answered with an error
/// status, or the page noted blocked content, since the action began, naming browser_issues;
/// none when all went well or the probe did not answer.
pub(super) fn notice(probe: Option<&NetworkSince>) -> Option<String> {
    let s = probe?;
    let mut what = Vec::new();
    if s.failed > 0 {
        what.push(format!("{} failed or 4xx/5xx request(s)", s.failed));
    }
    if s.noted > 0 {
        what.push(format!("{} blocked or deprecated on the page", s.noted));
    }
    (!what.is_empty()).then(|| {
        format!(
            "New browser issues since the action: {}; {NAME} lists them.",
            what.join(", ")
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    #[test]
    fn the_footer_line_is_there_only_when_something_went_wrong() {
        let probe = |v: Value| -> NetworkSince { serde_json::from_value(v).unwrap() };
        assert_eq!(notice(Some(&probe(json!({"failed": 0, "noted": 0})))), None);
        assert_eq!(
            notice(None),
            None,
            "a probe that did not answer says nothing"
        );
        let line = notice(Some(&probe(
            json!({"failed": 2, "noted": 1, "requests": []}),
        )))
        .unwrap();
        assert!(
            line.contains("2 failed") && line.contains("1 blocked"),
            "{line}"
        );
        assert!(line.ends_with("browser_issues lists them."), "{line}");
    }

    #[test]
    fn an_issue_line_names_its_code_what_was_blocked_and_the_element() {
        let issue: Issue = serde_json::from_value(json!({"code": "CSP_BLOCKED",
            "directive": "img-src", "blocked": "http://b/p.png", "ref": "e1abc",
            "element": "img", "source": "http://a/x.html:9"}))
        .unwrap();
        assert_eq!(
            issue.line(),
            "CSP_BLOCKED img-src http://b/p.png <img> e1abc at http://a/x.html:9"
        );
        let http: Issue = serde_json::from_value(json!({"code": "HTTP_ERROR", "status": 500,
            "method": "GET", "type": "xmlhttprequest", "url": "http://a/e"}))
        .unwrap();
        assert_eq!(http.line(), "HTTP_ERROR 500 GET xmlhttprequest http://a/e");
    }
}
