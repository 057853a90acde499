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

/// A group of tools, by the module that makes them; `TABPILOT_TOOLS` can name one, and an agent
/// can ask for one its profile leaves out (`browser_more_tools`).
pub struct Group {
    pub name: &'static str,
    tools: fn() -> Vec<Tool>,
    /// `full` leaves the group out and lists `browser_more_tools` in its place, which lists it on
    /// request: the way to keep full's list within its budget when a new tool would push it over
    /// (`Group { on_request: true, ..Group::new("perf", perf::tools) }`). No group needs it yet.
    pub on_request: bool,
}

impl Group {
    const fn new(name: &'static str, tools: fn() -> Vec<Tool>) -> Group {
        Group {
            name,
            tools,
            on_request: false,
        }
    }
}

/// The groups, in the order clients list their tools.
pub const GROUPS: &[Group] = &[
    Group::new("browsers", browsers::tools),
    Group::new("tabs", tabs::tools),
    Group::new("navigate", navigate::tools),
    Group::new("read", read::tools),
    Group::new("console", console::tools),
    Group::new("act", act::tools),
    Group::new("capture", capture::tools),
    Group::new("find", find::tools),
    Group::new("dialog", dialog::tools),
    Group::new("eval", eval::tools),
    Group::new("page_tools", page_tools::tools),
    Group::new("perf", perf::tools),
    Group::new("network", network::tools),
    Group::new("issues", issues::tools),
    Group::new("state", state),
    Group::new("context", context::tools),
    Group::new(APPS, apps::tools),
    Group::new("export", export::tools),
];

/// A group by its name.
pub fn group(name: &str) -> Option<&'static Group> {
    GROUPS.iter().find(|g| g.name == name)
}

/// The tools of the group `name`, in the order clients list them.
pub fn in_group(name: &str) -> impl Iterator<Item = &'static Tool> + '_ {
    all().iter().filter(move |t| t.spec.group == name)
}

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
            .flat_map(|group| {
                (group.tools)().into_iter().map(move |mut t| {
                    t.spec.group = group.name;
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

    /// What an agent asks for by a group's name is the tools its module makes, and each tool is
    /// in one group.
    #[test]
    fn each_group_names_its_own_tools_and_every_tool_is_in_one() {
        let mut seen = 0;
        for g in GROUPS {
            let tools: Vec<&str> = in_group(g.name).map(|t| t.spec.name).collect();
            assert!(!tools.is_empty(), "{}", g.name);
            assert_eq!(group(g.name).map(|g| g.name), Some(g.name));
            seen += tools.len();
        }
        assert_eq!(seen, all().len());
        let state: Vec<&str> = in_group("state").map(|t| t.spec.name).collect();
        assert!(state.contains(&"browser_get_cookies") && !state.contains(&"browser_click"));
        assert!(group("cookies").is_none() && in_group("cookies").next().is_none());
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
