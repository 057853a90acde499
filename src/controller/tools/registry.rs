//! The one list of tools, collected once and read by the MCP server, the CLI and
//! `tabpilot tools`.

use std::sync::OnceLock;

use super::tool::Tool;
use super::{
    act, advanced, apps, browsers, capture, console, context, cookies, dialog, downloads, emulate,
    eval, export, find, issues, navigate, network, page_tools, perf, proxy, read, storage, tabs,
};
use crate::controller::record::Recordable;
use crate::shared::error::ToolError;

/// The group that only the person's word lists (`TABPILOT_APPS`, or naming it or its tools):
/// it reaches past the browser, to the applications on the machine.
pub const APPS: &str = "apps";

/// A module's tools, made when the registry collects them.
type Group = fn() -> Vec<Tool>;

/// The groups of tools, by the module that makes them; `TABPILOT_TOOLS` can name a group.
pub const GROUPS: &[(&str, Group)] = &[
    ("browsers", browsers::tools),
    ("tabs", tabs::tools),
    ("navigate", navigate::tools),
    ("read", read::tools),
    ("console", console::tools),
    ("act", act::tools),
    ("capture", capture::tools),
    ("find", find::tools),
    ("dialog", dialog::tools),
    ("eval", eval::tools),
    ("page_tools", page_tools::tools),
    ("perf", perf::tools),
    ("network", network::tools),
    ("issues", issues::tools),
    ("state", state),
    ("context", context::tools),
    (APPS, apps::tools),
    ("export", export::tools),
];

/// The browser's own state: cookies, storage, downloads, emulation, the proxy.
fn state() -> Vec<Tool> {
    [
        cookies::tools,
        storage::tools,
        downloads::tools,
        emulate::tools,
        proxy::tools,
        advanced::tools,
    ]
    .iter()
    .flat_map(|tools| tools())
    .collect()
}

/// Every tool, in the order clients list them, each knowing its group.
pub fn all() -> &'static [Tool] {
    static ALL: OnceLock<Vec<Tool>> = OnceLock::new();
    ALL.get_or_init(|| {
        GROUPS
            .iter()
            .flat_map(|(group, tools)| {
                tools().into_iter().map(move |mut t| {
                    t.spec.group = group;
                    t
                })
            })
            .collect()
    })
}

/// A tool by its full name.
pub fn get(name: &str) -> Option<&'static Tool> {
    all().iter().find(|t| t.spec.name == name)
}

/// The tools a recording keeps, with their kind of step, as their declarations say.
pub fn recordable() -> Recordable {
    Recordable(
        all()
            .iter()
            .filter_map(|t| Some((t.spec.name, t.spec.recorded?)))
            .collect(),
    )
}

/// A tool as the terminal names it: its full name, one of its aliases, or its name without the
/// `browser_` prefix.
pub fn from_word(word: &str) -> Option<&'static Tool> {
    get(word).or_else(|| {
        all().iter().find(|t| {
            t.spec.cli.aliases.contains(&word) || t.spec.name.strip_prefix("browser_") == Some(word)
        })
    })
}

pub fn unknown_tool(name: &str) -> ToolError {
    ToolError::bad_args(format!(
        "there is no tool {name:?}; list them with tools/list or `tabpilot tools`"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_tool_has_one_name_and_every_word_one_tool() {
        let mut words: Vec<&str> = all()
            .iter()
            .flat_map(|t| {
                let short = t.spec.name.strip_prefix("browser_");
                std::iter::once(t.spec.name)
                    .chain(short)
                    .chain(t.spec.cli.aliases.iter().copied())
            })
            .collect();
        let n = words.len();
        words.sort();
        words.dedup();
        assert_eq!(words.len(), n, "a name, short form or alias is used twice");
        assert!(get("browser_nope").is_none());
        assert_eq!(from_word("tabs").unwrap().spec.name, "browser_list_tabs");
        assert_eq!(from_word("click").unwrap().spec.name, "browser_click");
    }

    #[test]
    fn every_tool_has_object_schemas() {
        for t in all() {
            let s = &t.spec;
            assert_eq!(s.input_schema["type"], "object", "{}", s.name);
            assert_eq!(s.output_schema["type"], "object", "{}", s.name);
            assert_ne!(
                s.output_schema["additionalProperties"], false,
                "{}: every result also carries its outcome",
                s.name
            );
        }
    }

    /// Read-only mode refuses a tool by its hints before anything is sent, and an operation by
    /// its declaration as it is sent: a tool that runs one operation takes its hints from it,
    /// so the two never disagree (browser_scroll reads; browser_click acts).
    #[test]
    fn a_tools_hints_are_its_operations_effect() {
        let hints = |name| get(name).unwrap().spec.hints;
        assert!(hints("browser_scroll").read_only);
        assert!(!hints("browser_click").read_only && !hints("browser_click").navigates);
        let policy = crate::controller::policy::Policy {
            read_only: true,
            ..Default::default()
        };
        assert!(policy.check_op(crate::shared::protocol::Op::Scroll).is_ok());
    }
}
