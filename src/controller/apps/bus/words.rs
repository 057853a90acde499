//! AT-SPI's words turned into the outline's: roles, states, names.

use atspi::{Role, State, StateSet};

/// What an element says of its being on screen.
pub(super) struct Shown {
    pub(super) visible: bool,
    pub(super) showing: bool,
}

/// A name as the outline shows it: what some toolkits put where there is none (GTK 4.8: the
/// widget's class, `GtkButton`) left out, and a name said twice over (GTK 4.8 joins a button's
/// label to itself: `7 7`) said once.
pub(super) fn plain_name(name: &str) -> String {
    let name = name.trim();
    let class = ["Gtk", "Adw", "Gdk"].iter().any(|p| {
        name.strip_prefix(p).is_some_and(|rest| {
            rest.starts_with(|c: char| c.is_ascii_uppercase())
                && rest.chars().all(|c| c.is_ascii_alphanumeric())
        })
    });
    if class {
        return String::new();
    }
    let halves = name.split_at_checked(name.len() / 2);
    match halves {
        Some((a, b)) if name.len() > 2 && a.trim_end() == b.trim_start() && b.starts_with(' ') => {
            a.trim_end().to_string()
        }
        _ => name.to_string(),
    }
}

/// A role in the words a page snapshot uses where one fits; AT-SPI's own name otherwise.
pub(super) fn role_word(role: Role, states: StateSet) -> &'static str {
    match role {
        Role::Button | Role::PushButtonMenu => "button",
        Role::ToggleButton if states.contains(State::Checkable) => "switch",
        Role::ToggleButton => "button",
        Role::CheckBox | Role::CheckMenuItem => "checkbox",
        Role::RadioButton | Role::RadioMenuItem => "radio",
        Role::Entry | Role::PasswordText | Role::Editbar => "textbox",
        Role::Text if states.contains(State::Editable) => "textbox",
        Role::Text | Role::Label | Role::Static | Role::Paragraph | Role::Caption => "text",
        Role::ComboBox => "combobox",
        Role::List | Role::ListBox => "list",
        Role::ListItem => "listitem",
        Role::MenuItem | Role::TearoffMenuItem => "menuitem",
        Role::Frame | Role::Window => "window",
        Role::PageTab => "tab",
        Role::PageTabList => "tablist",
        Role::TableCell => "cell",
        Role::TableRow => "row",
        Role::TreeItem => "treeitem",
        Role::ToolBar => "toolbar",
        Role::StatusBar => "status",
        Role::Grouping => "group",
        Role::ScrollPane => "scroll pane",
        other => other.name(),
    }
}

/// The states the outline shows.
pub(super) fn state_words(states: StateSet, role: Role) -> Vec<&'static str> {
    let mut out = Vec::new();
    let mut put = |on: bool, word| {
        if on {
            out.push(word);
        }
    };
    put(states.contains(State::Focused), "focused");
    put(states.contains(State::Checked), "checked");
    put(
        states.contains(State::Pressed) && role == Role::ToggleButton,
        "pressed",
    );
    put(
        states.contains(State::Selected) && states.contains(State::Selectable),
        "selected",
    );
    put(
        states.contains(State::Expandable) && states.contains(State::Expanded),
        "expanded",
    );
    put(
        !states.contains(State::Sensitive) && states.contains(State::Showing),
        "disabled",
    );
    put(states.contains(State::Editable), "editable");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_toolkit_s_stand_in_names_are_left_out_and_doubled_names_said_once() {
        assert_eq!(plain_name("GtkMenuButton"), "");
        assert_eq!(plain_name("AdwGizmo"), "");
        assert_eq!(plain_name("7 7"), "7");
        assert_eq!(plain_name("mod mod"), "mod");
        assert_eq!(plain_name("Gtk is fun"), "Gtk is fun");
        assert_eq!(plain_name("Save"), "Save");
        assert_eq!(plain_name("ab ab c"), "ab ab c");
        assert_eq!(plain_name("× ×"), "×");
    }
}
