//! A window's tree as a lean outline in a page snapshot's style: `- button "7" [ref=e3k2f]`,
//! indented by depth; the elements one can act on, those with a state, and named text, while
//! nameless containers give their place to their children.

use super::refs::Refs;
use super::{Node, Tree};

/// Roles shown even without a name: one can act on them, or they hold a value.
const SHOWN: &[&str] = &[
    "button",
    "checkbox",
    "radio",
    "textbox",
    "combobox",
    "listitem",
    "option",
    "menuitem",
    "slider",
    "spinbutton",
    "tab",
    "link",
    "switch",
    "cell",
    "row",
];

/// Containers that say nothing of their own unless named (some toolkits give every one an
/// action, so having one says nothing either).
const BARE: &[&str] = &[
    "panel",
    "filler",
    "unknown",
    "generic",
    "section",
    "scroll pane",
    "scroll bar",
];

/// Longest name or value shown.
const MAX_TEXT: usize = 120;

/// The outline, refs taken from (and added to) the session's `refs`; `app` names the
/// application for them.
pub fn render(tree: &Tree, refs: &mut Refs, app: &str) -> String {
    let mut lines = Vec::new();
    if !tree.nodes.is_empty() {
        walk(tree, 0, 0, None, refs, app, &mut lines);
    }
    if tree.unread > 0 {
        lines.push(format!(
            "- … {} more elements not read (raise maxNodes, or inspect a smaller window)",
            tree.unread
        ));
    }
    lines.join("\n")
}

fn walk(
    tree: &Tree,
    at: usize,
    depth: usize,
    parent_name: Option<&str>,
    refs: &mut Refs,
    app: &str,
    lines: &mut Vec<String>,
) {
    let node = &tree.nodes[at];
    let shown = at == 0 || worth_a_line(node, parent_name);
    let next_depth = if shown {
        lines.push(format!("{}- {}", "  ".repeat(depth), line(node, refs, app)));
        depth + 1
    } else {
        depth
    };
    let name = if shown && !node.name.is_empty() {
        Some(node.name.as_str())
    } else {
        parent_name
    };
    for &child in &node.children {
        walk(tree, child, next_depth, name, refs, app, lines);
    }
    if node.unread > 0 {
        lines.push(format!(
            "{}- … {} more not read",
            "  ".repeat(next_depth),
            node.unread
        ));
    }
}

/// Whether an element earns its own line: something to act on or a state to show, or a name
/// that is not just its container's said again.
fn worth_a_line(node: &Node, parent_name: Option<&str>) -> bool {
    let role = node.role.as_str();
    let new_name = !node.name.is_empty() && Some(&*node.name) != parent_name;
    if BARE.contains(&role) {
        return new_name;
    }
    if role == "text" && node.value.is_none() {
        return new_name;
    }
    node.actionable
        || SHOWN.contains(&role)
        || !node.states.is_empty()
        || node.value.is_some()
        || new_name
}

/// One element: role, name, states, ref, value.
fn line(node: &Node, refs: &mut Refs, app: &str) -> String {
    let mut line = node.role.clone();
    if !node.name.is_empty() {
        line.push(' ');
        line.push_str(&quoted(&node.name));
    }
    for state in &node.states {
        line.push_str(&format!(" [{state}]"));
    }
    if node.secret {
        line.push_str(" [secret]");
    }
    if let Some(obj) = &node.obj {
        line.push_str(&format!(" [ref={}]", refs.of(obj, app)));
    }
    if let Some(value) = node.value.as_deref().filter(|_| !node.secret) {
        line.push_str(": ");
        line.push_str(&quoted(value));
    }
    line
}

fn quoted(text: &str) -> String {
    let one_line: String = text.split_whitespace().collect::<Vec<_>>().join(" ");
    let cut: String = one_line.chars().take(MAX_TEXT).collect();
    let cut = if cut.len() < one_line.len() {
        cut + "…"
    } else {
        cut
    };
    serde_json::to_string(&cut).expect("a string serializes")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::apps::Obj;

    fn node(role: &str, name: &str, children: Vec<usize>) -> Node {
        Node {
            obj: Some(Obj {
                bus: ":1.1".into(),
                path: format!("/{role}/{name}"),
            }),
            role: role.into(),
            name: name.into(),
            children,
            ..Node::default()
        }
    }

    #[test]
    fn nameless_containers_give_way_and_a_secret_value_is_never_shown() {
        let mut password = node("textbox", "Password", vec![]);
        password.secret = true;
        password.value = Some("hunter2".into());
        let mut boxed = node("checkbox", "Remember me", vec![]);
        boxed.states = vec!["checked"];
        let mut name = node("textbox", "Name", vec![]);
        name.value = Some("Ada".into());
        let tree = Tree {
            nodes: vec![
                node("window", "Form", vec![1]),
                node("panel", "", vec![2, 3, 4, 5]),
                name,
                password,
                boxed,
                node("button", "Save", vec![6]),
                Node {
                    actionable: true,
                    ..node("text", "Save", vec![])
                },
            ],
            unread: 3,
        };
        let text = render(&tree, &mut Refs::default(), "form");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 6, "{text}");
        assert!(lines[0].starts_with("- window \"Form\" [ref=e"), "{text}");
        assert!(
            lines[1].starts_with("  - textbox \"Name\" [ref=e") && lines[1].ends_with(": \"Ada\"")
        );
        assert!(
            lines[2].contains("[secret]") && !text.contains("hunter2"),
            "{text}"
        );
        assert!(lines[3].starts_with("  - checkbox \"Remember me\" [checked] [ref="));
        // The button's own label says its name again: no line of its own.
        assert!(lines[4].starts_with("  - button \"Save\"") && !text.contains("text \"Save"));
        assert!(lines[5].contains("3 more elements"), "{text}");
    }
}
