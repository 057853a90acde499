//! browser_issues `{audit: "a11y"}`: an accessibility audit of this agent's page with axe-core,
//! run by the extension in the isolated world of each frame; violations worst first, a few of
//! their elements each by snapshot ref, paged.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::json;

use super::ctx::Ctx;
use super::paging::{footer, page_of, pages};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::diagnostics::{A11y, AuditFrame, Violation};

/// Rules per page of the result.
const PAGE_SIZE: u64 = 8;
const CAVEAT: &str = "Automated rules catch only part of real barriers: also try the page with a keyboard and a screen reader.";

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct A11yOut {
    engine: String,
    /// Rules broken on the page, worst first: this page of them.
    violations: Vec<Violation>,
    total_rules: u64,
    page: u64,
    pages: u64,
    /// Frames the browser kept the audit out of.
    frames_not_audited: usize,
}

/// The frames' violations as one list: a rule broken in several frames is one entry, its counts
/// added and its examples the first few; worst impact first, then the most elements.
fn merge(frames: Vec<AuditFrame>) -> Vec<Violation> {
    let mut all: Vec<Violation> = Vec::new();
    for v in frames.into_iter().flat_map(|f| f.violations) {
        match all.iter_mut().find(|o| o.id == v.id) {
            Some(o) => {
                o.count += v.count;
                o.impact = o.impact.min(v.impact);
                let room = 3usize.saturating_sub(o.examples.len());
                o.examples.extend(v.examples.into_iter().take(room));
            }
            None => all.push(v),
        }
    }
    all.sort_by(|a, b| a.impact.cmp(&b.impact).then(b.count.cmp(&a.count)));
    all
}

/// Page `page` (from 1) of the audit: the reply's text and its data.
pub(super) async fn audit(cx: &Ctx, page: u64) -> Result<(String, A11yOut), ToolError> {
    let r = cx.run(A11y {}).await?;
    let all = merge(r.frames);
    let total = all.len() as u64;
    let pages = pages(total, PAGE_SIZE);
    let shown = page_of(all, page, PAGE_SIZE)?;
    let mut text = if total == 0 {
        "Accessibility audit (axe-core): no rule broken.".to_string()
    } else {
        format!(
            "Accessibility audit (axe-core): {total} rule(s) broken, worst first; page {page} of {pages}."
        )
    };
    for v in &shown {
        let impact = serde_json::to_value(v.impact).unwrap_or_default();
        let impact = impact.as_str().unwrap_or_default();
        text.push_str(&format!(
            "\n- {impact} {}: {} ({} element(s))",
            v.id, v.help, v.count
        ));
        for e in &v.examples {
            let at = e
                .reference
                .as_deref()
                .map_or("gone".to_string(), |r| format!("ref={r}"));
            text.push_str(&format!("\n  - [{at}] {}: {}", e.html, e.why));
        }
    }
    text.push('\n');
    let again = json!({"audit": "a11y"});
    text.push_str(&footer("browser_issues", page, total, PAGE_SIZE, again));
    if r.not_audited > 0 {
        text.push_str(&format!(
            "\n{} frame(s) not audited (the browser kept the audit out).",
            r.not_audited
        ));
    }
    text.push('\n');
    text.push_str(CAVEAT);
    let data = A11yOut {
        engine: format!("axe-core {}", r.version),
        violations: shown,
        total_rules: total,
        page,
        pages,
        frames_not_audited: r.not_audited,
    };
    Ok((text, data))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rule(id: &str, impact: &str, count: usize) -> serde_json::Value {
        json!({"id": id, "impact": impact, "help": "h", "helpUrl": "u", "count": count,
               "examples": [{"ref": "e0000", "html": "<b>", "why": "w"}]})
    }

    #[test]
    fn violations_come_worst_first_and_a_rule_in_two_frames_is_one() {
        let frames: Vec<AuditFrame> = serde_json::from_value(json!([
            {"violations": [rule("contrast", "serious", 4), rule("region", "moderate", 1)]},
            {"violations": [rule("image-alt", "critical", 1), rule("contrast", "serious", 1)]},
        ]))
        .unwrap();
        let all = merge(frames);
        let ids: Vec<&str> = all.iter().map(|v| v.id.as_str()).collect();
        assert_eq!(ids, ["image-alt", "contrast", "region"]);
        assert_eq!(all[1].count, 5);
        assert_eq!(all[1].examples.len(), 2);
    }
}
