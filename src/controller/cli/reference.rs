//! Pages made from the tool registry: the skill's tool reference (installed with the skill as
//! references/tools.md) and the repository's tool table (docs/tools.md). Tests hold the
//! repository's copies, skill/references/tools.md and docs/tools.md, to what the registry makes.

use crate::controller::tools::registry;
use crate::controller::tools::spec::ToolSpec;

/// The registry's tools, one list per group, in the order clients list them.
fn groups() -> impl Iterator<Item = Vec<&'static ToolSpec>> {
    registry::all()
        .chunk_by(|a, b| a.spec.group == b.spec.group)
        .map(|tools| tools.iter().map(|t| &t.spec).collect())
}

/// A page: its opening, then a heading per group and a line per tool.
fn page(opening: &str, head: &str, line: fn(&ToolSpec) -> String) -> String {
    let mut out = String::from(opening);
    for tools in groups() {
        out.push_str(&format!("\n## {}\n\n{head}", tools[0].group));
        for tool in tools {
            out.push_str(&line(tool));
            out.push('\n');
        }
    }
    out
}

/// The skill's tool reference, before its groups.
const REFERENCE_OPENING: &str = "# Tool reference\n\n\
    Every tool tabpilot has, in one line each, by group (made from its tool registry; the MCP\n\
    server lists those `TABPILOT_TOOLS` names, and on a profile that leaves groups out\n\
    `browser_more_tools` adds one to your list). Each tool's arguments are in its schema.\n";

/// Every tool in one line, by group: what a reader of the skill looks up.
pub(super) fn tool_reference() -> String {
    page(REFERENCE_OPENING, "", |t| {
        format!("- `{}`: {}", t.name, t.description)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::tools::spec::Hints;
    use crate::shared::generated::keep_current;

    /// docs/tools.md, before its groups.
    const TOOLS_OPENING: &str = "# Tools\n\n\
        Every tool, by group (the groups of src/controller/tools/registry.rs; `TABPILOT_TOOLS`\n\
        can name one). Made from the tool registry by `cargo test --locked --lib`: edit the\n\
        tools, not this page. Each tool's arguments are in its schema (MCP `tools/list`); from a\n\
        terminal any tool also takes `--args JSON`. What the page tools share (waits, `include`,\n\
        refs, budgets, the path sandbox) is in [tool-behaviour.md](tool-behaviour.md).\n\n\
        Effect: `reads`; `moves` (between pages, or opens or closes a tab: read-only mode allows\n\
        it); `acts` (changes a page or the browser: refused in read-only mode); `mixed` (refuses\n\
        its acting parts in read-only mode itself). Profile: the smallest `TABPILOT_TOOLS`\n\
        profile that lists the tool (`slim` is also in `core`, and both in `full`). A profile\n\
        built on `slim` leaves `settleMs` and `timeout` out of the schemas it lists; the tools\n\
        still take them.\n\n\
        A profile that leaves a group out (`core`, a list; not one built on `slim`, which has no\n\
        room for it) also lists `browser_more_tools`, a tool of the MCP server only: `{}` names\n\
        each group not listed yet with its tools, one line each; `{group: \"state\"}` (or several,\n\
        comma-separated) adds the group's tools to that session's list and sends\n\
        `notifications/tools/list_changed`. The group `apps` only where the person turned it on\n\
        (`TABPILOT_APPS`). A tool not listed is refused with `BAD_ARGS`, naming the group to ask\n\
        for. A group marked `on_request` in the registry is one `full` lists that way too (none\n\
        is yet).\n";

    /// docs/tools.md: every tool with its command line, its effect and its description.
    fn tools_page() -> String {
        page(
            TOOLS_OPENING,
            "| tool | command line | effect | profile | what it does |\n|---|---|---|---|---|\n",
            |t| {
                format!(
                    "| `{}` | {} | {} | {} | {} |",
                    t.name,
                    command_line(t),
                    effect(&t.hints),
                    t.tier.name(),
                    cell(t.description)
                )
            },
        )
    }

    /// `tabpilot WORD <positional>... [<rest>...]`, and the other words that name the tool.
    fn command_line(t: &ToolSpec) -> String {
        let word = t.name.strip_prefix("browser_").unwrap_or(t.name);
        let mut line = format!("tabpilot {word}");
        for arg in t.cli.positional {
            line.push_str(&format!(" <{arg}>"));
        }
        if let Some(rest) = t.cli.rest {
            line.push_str(&format!(" [<{rest}>...]"));
        }
        let mut words = vec![format!("`{line}`")];
        words.extend(t.cli.aliases.iter().map(|a| format!("`{a}`")));
        words.join(", ")
    }

    fn effect(h: &Hints) -> String {
        let kind = if h.mixed {
            "mixed"
        } else if h.read_only {
            "reads"
        } else if h.navigates {
            "moves"
        } else {
            "acts"
        };
        let mut words = vec![kind];
        words.extend(h.destructive.then_some("destructive"));
        words.extend(h.idempotent.then_some("idempotent"));
        words.extend(h.open_world.then_some("open world"));
        words.join(", ")
    }

    /// Text as one table cell: no bar, no line break, no tag a Markdown reader would take for HTML.
    fn cell(text: &str) -> String {
        text.replace('|', "\\|")
            .replace('<', "&lt;")
            .replace('>', "&gt;")
            .replace('\n', " ")
    }

    /// skill/references/tools.md, for whoever reads the skill in the repository, is the one an
    /// install makes.
    #[test]
    fn the_repositorys_tool_reference_is_current() {
        keep_current("skill/references/tools.md", &tool_reference(), "");
    }

    /// docs/tools.md is the registry's tools as they are.
    #[test]
    fn the_tool_table_is_current() {
        keep_current("docs/tools.md", &tools_page(), "");
    }

    #[test]
    fn every_tool_has_its_row_and_every_row_one_line() {
        let page = tools_page();
        for tool in registry::all() {
            let rows = page
                .lines()
                .filter(|l| l.starts_with(&format!("| `{}` |", tool.spec.name)))
                .count();
            assert_eq!(rows, 1, "{}", tool.spec.name);
        }
        assert_eq!(cell("a | <b>\nc"), "a \\| &lt;b&gt; c");
    }
}
