//! What an action's reply says unasked about what went wrong in the page since the action began,
//! and the downloads it started: one line per kind, from the probes that rode on the action's own
//! call (`Findings`, src/shared/protocol/wire/act.rs), nothing when all is well or a probe did not
//! answer (the action stands either way).

use crate::shared::protocol::wire::act::{ConsoleSince, Findings};
use crate::shared::protocol::wire::downloads::Started;

/// The lines, one per kind that has something to say.
pub(super) fn notices(findings: &Findings) -> Vec<String> {
    [
        downloads(findings.downloads.as_deref()),
        console_errors(findings.console.as_ref()),
        super::issues::notice(findings.network.as_ref()),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// Downloads the action started (a click on a link to a file, a page's `a.download`): no
/// navigation came of it, and the file is on its way.
fn downloads(started: Option<&[Started]>) -> Option<String> {
    let started = started.filter(|s| !s.is_empty())?;
    let names: Vec<String> = started
        .iter()
        .map(|d| format!("{} (id {})", d.name, d.id))
        .collect();
    Some(format!(
        "Started download {}: browser_downloads {{wait: true}} gives its file.",
        names.join(", ")
    ))
}

/// New console errors: `console.error`, uncaught exceptions and unhandled rejections.
fn console_errors(probe: Option<&ConsoleSince>) -> Option<String> {
    let n = probe.map(|p| p.errors).filter(|n| *n > 0)?;
    let (what, them) = if n == 1 {
        ("1 new console error".to_string(), "it")
    } else {
        (format!("{n} new console errors"), "them")
    };
    Some(format!(
        "{what} since the action began: browser_get_console_logs shows {them}."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{Value, json};

    fn probes(console: Value) -> Findings {
        Findings {
            console: Some(serde_json::from_value(console).unwrap()),
            ..Findings::default()
        }
    }

    #[test]
    fn new_console_errors_make_one_line_and_none_make_none() {
        assert_eq!(
            notices(&probes(json!({"errors": 2}))),
            ["2 new console errors since the action began: browser_get_console_logs shows them."]
        );
        assert_eq!(
            notices(&probes(json!({"errors": 1}))),
            ["1 new console error since the action began: browser_get_console_logs shows it."]
        );
        assert!(notices(&probes(json!({"errors": 0}))).is_empty());
        assert!(notices(&Findings::default()).is_empty());
    }

    #[test]
    fn a_started_download_is_named_with_the_call_that_gives_its_file() {
        let findings = Findings {
            downloads: Some(
                serde_json::from_value(json!([{"id": 3, "name": "report.csv"}])).unwrap(),
            ),
            ..Findings::default()
        };
        assert_eq!(
            notices(&findings),
            ["Started download report.csv (id 3): browser_downloads {wait: true} gives its file."]
        );
        let none = Findings {
            downloads: Some(Vec::new()),
            ..Findings::default()
        };
        assert!(notices(&none).is_empty());
    }
}
