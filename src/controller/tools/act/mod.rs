//! Acting on the page: every tool that clicks, types, picks, presses, drags, scrolls, fills or
//! uploads. Arguments are checked here before anything is sent; the page checks actionability.
//! What every action reports (the element, a navigation it caused) is read and said here once.

mod fill_form;
mod keys;
mod pointer;
mod secret;
mod text;
mod upload;

use schemars::JsonSchema;
use serde::Serialize;

use super::spec::Out;
use super::tool::Tool;
use crate::shared::protocol::wire::act::{ActReply, Acted};

pub(super) fn tools() -> Vec<Tool> {
    let mut all = pointer::tools();
    all.extend(text::tools());
    all.extend(keys::tools());
    all.push(fill_form::tool());
    all.push(upload::tool());
    all
}

/// What an action answers: whether it navigated, where to, the element, and the operation's own
/// fields.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ActionOut<T> {
    navigated: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    url: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    element: Option<String>,
    /// The ref was re-resolved after the page re-rendered.
    retagged: bool,
    #[serde(flatten)]
    own: T,
}

impl<T> ActReply<T> {
    /// One line: `head`, then what became of a navigation; the operation's own fields as data.
    fn output(self, head: String) -> Out<ActionOut<T>> {
        let mut out = self.act.output(head, self.own);
        out.findings = self.findings;
        out
    }

    /// As `output`, with `data` for the operation's own fields.
    fn output_as<D>(self, head: String, data: D) -> Out<ActionOut<D>> {
        let mut out = self.act.output(head, data);
        out.findings = self.findings;
        out
    }
}

impl Acted {
    /// The element as the caller named it, with what the page says it is.
    fn named(&self, element: &Option<String>) -> String {
        let found = self.element.as_deref().unwrap_or("the element");
        match element {
            Some(words) => format!("{words} ({found})"),
            None => found.to_string(),
        }
    }

    /// One line: `head`, then what became of a navigation; `own` as the operation's data.
    fn output<T>(self, head: String, own: T) -> Out<ActionOut<T>> {
        let mut text = head;
        if self.navigated {
            text.push_str(&format!(
                "; the {} navigated to {}",
                if self.in_frame { "frame" } else { "page" },
                self.url.as_deref().unwrap_or("?")
            ));
            if self.settled == Some(false) {
                text.push_str(" (still loading)");
            }
        } else if let Some(err) = &self.navigation_error {
            text.push_str(&format!("; a navigation started and failed: {err}"));
        } else {
            text.push_str("; no navigation");
        }
        if self.retagged {
            text.push_str(" (ref re-resolved after the page re-rendered)");
        }
        let data = ActionOut {
            navigated: self.navigated,
            url: self.url,
            element: self.element,
            retagged: self.retagged,
            own,
        };
        Out::new(text, data)
    }
}
