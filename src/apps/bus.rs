//! The accessibility bus (AT-SPI2 over D-Bus): the running applications, a window's tree, and
//! actions through the interfaces an element offers. Every call is bounded: an application that
//! hangs costs one call's time, not the tool's.

use std::future::Future;
use std::time::Duration;

use atspi::proxy::accessible::AccessibleProxy;
use atspi::proxy::action::ActionProxy;
use atspi::proxy::component::ComponentProxy;
use atspi::proxy::device_event_controller::{DeviceEventControllerProxy, KeySynthType};
use atspi::proxy::editable_text::EditableTextProxy;
use atspi::proxy::selection::SelectionProxy;
use atspi::proxy::text::TextProxy;
use atspi::proxy::value::ValueProxy;
use atspi::zbus::{self, proxy::CacheProperties};
use atspi::{Interface, InterfaceSet, ObjectRefOwned, Role, State, StateSet};

use super::{Node, Obj, Running, Tree, secret_name};
use crate::error::{Code, ToolError};

/// How long one call to an application may take.
const CALL: Duration = Duration::from_secs(3);
/// How long connecting to the bus may take.
const CONNECT: Duration = Duration::from_secs(5);
/// Children read of one element at most (a list of thousands is summarised).
const MAX_CHILDREN: usize = 500;
/// Elements read at once.
const PARALLEL: usize = 16;

pub struct Bus {
    conn: zbus::Connection,
}

/// What a call to the bus came to, short of an answer.
enum Fault {
    /// The application or the element is gone.
    Gone,
    Timeout,
    Other(String),
}

impl Fault {
    fn into_error(self, what: &str) -> ToolError {
        match self {
            Fault::Gone => ToolError::failed(
                Code::AppGone,
                format!("{what}: the application or the element is gone"),
            ),
            Fault::Timeout => ToolError::failed(
                Code::Timeout,
                format!(
                    "{what}: the application did not answer in {}s",
                    CALL.as_secs()
                ),
            )
            .recovered_by("inspect_local_application"),
            Fault::Other(e) => ToolError::failed(Code::Internal, format!("{what}: {e}")),
        }
    }
}

async fn ask<T>(call: impl Future<Output = zbus::Result<T>>) -> Result<T, Fault> {
    match tokio::time::timeout(CALL, call).await {
        Err(_) => Err(Fault::Timeout),
        Ok(Ok(v)) => Ok(v),
        Ok(Err(zbus::Error::MethodError(name, _, _)))
            if [
                "org.freedesktop.DBus.Error.ServiceUnknown",
                "org.freedesktop.DBus.Error.UnknownObject",
                "org.freedesktop.DBus.Error.NoReply",
                "org.freedesktop.DBus.Error.NameHasNoOwner",
            ]
            .contains(&name.as_str()) =>
        {
            Err(Fault::Gone)
        }
        Ok(Err(e)) => Err(Fault::Other(e.to_string())),
    }
}

impl Bus {
    /// Connects to the session's accessibility bus (its address from the session bus).
    pub async fn connect() -> Result<Bus, ToolError> {
        let unavailable = |e: String| {
            ToolError::failed(
                Code::AppBusUnavailable,
                format!("no accessibility bus answers in this session: {e}"),
            )
        };
        let conn = tokio::time::timeout(CONNECT, atspi::AccessibilityConnection::new())
            .await
            .map_err(|_| unavailable("it did not answer in time".into()))?
            .map_err(|e| unavailable(e.to_string()))?;
        let conn = conn.connection().clone();
        // The registry is what lists applications: a bus without one lists none.
        let bus = Bus { conn };
        let root = bus.obj("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root");
        bus.children(&root)
            .await
            .map_err(|_| unavailable("the AT-SPI registry does not answer".into()))?;
        Ok(bus)
    }

    fn obj(&self, bus: &str, path: &str) -> Obj {
        Obj {
            bus: bus.into(),
            path: path.into(),
        }
    }

    async fn proxy<'a, P>(&'a self, obj: &Obj) -> Result<P, Fault>
    where
        P: zbus::proxy::Defaults + From<zbus::Proxy<'a>>,
    {
        let build = async {
            zbus::proxy::Builder::<P>::new(&self.conn)
                .destination(obj.bus.clone())?
                .path(obj.path.clone())?
                .cache_properties(CacheProperties::No)
                .build()
                .await
        };
        ask(build).await
    }

    async fn accessible(&self, obj: &Obj) -> Result<AccessibleProxy<'_>, Fault> {
        self.proxy(obj).await
    }

    /// An element's children: the whole list, or one by one where a toolkit does not give it.
    async fn children(&self, obj: &Obj) -> Result<Vec<Obj>, Fault> {
        let a = self.accessible(obj).await?;
        let listed = match ask(a.get_children()).await {
            Ok(list) => list,
            Err(Fault::Other(_)) => {
                let n = ask(a.child_count()).await?.clamp(0, MAX_CHILDREN as i32);
                let mut list = Vec::new();
                for i in 0..n {
                    list.push(ask(a.get_child_at_index(i)).await?);
                }
                list
            }
            Err(e) => return Err(e),
        };
        Ok(listed.iter().filter_map(to_obj).collect())
    }

    /// Every application on the bus with its windows.
    pub async fn running(&self) -> Result<Vec<Running>, ToolError> {
        let root = self.obj("org.a11y.atspi.Registry", "/org/a11y/atspi/accessible/root");
        let apps = self
            .children(&root)
            .await
            .map_err(|f| f.into_error("listing applications"))?;
        let dbus = zbus::fdo::DBusProxy::new(&self.conn)
            .await
            .map_err(|e| ToolError::failed(Code::Internal, e.to_string()))?;
        let mut out = Vec::new();
        for app in apps {
            let Ok(a) = self.accessible(&app).await else {
                continue;
            };
            let Ok(name) = ask(a.name()).await else {
                continue;
            };
            let pid = match zbus::names::BusName::try_from(app.bus.as_str()) {
                Ok(n) => ask(async { Ok(dbus.get_connection_unix_process_id(n).await?) })
                    .await
                    .ok(),
                Err(_) => None,
            };
            let mut windows = Vec::new();
            for w in self.children(&app).await.unwrap_or_default() {
                if let Ok(wa) = self.accessible(&w).await {
                    windows.push((w, ask(wa.name()).await.unwrap_or_default()));
                }
            }
            out.push(Running {
                root: app,
                name,
                pid,
                windows,
            });
        }
        Ok(out)
    }

    /// One element as the outline shows it, its children's addresses beside it.
    pub async fn node(&self, obj: &Obj) -> Result<Node, ToolError> {
        match self.read(obj).await {
            Ok((node, _, _)) => Ok(node),
            Err(f) => Err(f.into_error("reading an element")),
        }
    }

    /// One element, its children's addresses (none for a hidden one), and whether it shows.
    async fn read(&self, obj: &Obj) -> Result<(Node, Vec<Obj>, Shown), Fault> {
        let a = self.accessible(obj).await?;
        let (role, name, states, ifaces) = futures::try_join!(
            ask(a.get_role()),
            ask(a.name()),
            ask(a.get_state()),
            ask(a.get_interfaces()),
        )?;
        let shown = Shown {
            visible: states.contains(State::Visible),
            showing: states.contains(State::Showing),
        };
        let kids = if shown.visible {
            self.children(obj).await?
        } else {
            Vec::new()
        };
        let name = plain_name(&name);
        let secret = role == Role::PasswordText || secret_name(&name);
        let mut node = Node {
            obj: Some(obj.clone()),
            role: role_word(role, states).to_string(),
            name,
            states: state_words(states, role),
            value: None,
            secret,
            actionable: [
                Interface::Action,
                Interface::EditableText,
                Interface::Value,
                Interface::Selection,
            ]
            .iter()
            .any(|i| ifaces.contains(*i)),
            children: Vec::new(),
            unread: 0,
        };
        if !secret {
            node.value = self.value(obj, role, ifaces, &node.name).await;
            if node.name.is_empty() && matches!(role, Role::Label | Role::Static) {
                node.name = node.value.take().unwrap_or_default();
            }
        }
        Ok((node, kids, shown))
    }

    /// The value of an element whose role has one: its text, or its number.
    async fn value(
        &self,
        obj: &Obj,
        role: Role,
        ifaces: InterfaceSet,
        name: &str,
    ) -> Option<String> {
        let textual = matches!(
            role,
            Role::Entry
                | Role::Text
                | Role::SpinButton
                | Role::Terminal
                | Role::Editbar
                | Role::ComboBox
                | Role::Label
                | Role::Static
                | Role::Paragraph
        );
        if textual && ifaces.contains(Interface::Text) {
            let t: TextProxy = self.proxy(obj).await.ok()?;
            let n = ask(t.character_count()).await.ok()?.min(2000);
            let text = ask(t.get_text(0, n)).await.ok()?;
            let text = text.trim();
            return (!text.is_empty() && text != name).then(|| text.to_string());
        }
        let numeric = matches!(
            role,
            Role::Slider | Role::ProgressBar | Role::LevelBar | Role::Dial
        );
        if numeric && ifaces.contains(Interface::Value) {
            let v: ValueProxy = self.proxy(obj).await.ok()?;
            return ask(v.current_value()).await.ok().map(|v| v.to_string());
        }
        None
    }

    /// A window's tree, read breadth first up to `max` elements, hidden subtrees left out.
    pub async fn tree(&self, window: &Obj, max: usize) -> Result<Tree, ToolError> {
        use futures::StreamExt;
        let mut tree = Tree::default();
        // Each element waiting to be read, with its parent's index.
        let mut level: Vec<(Obj, Option<usize>)> = vec![(window.clone(), None)];
        while !level.is_empty() {
            let room = max.saturating_sub(tree.nodes.len());
            let now: Vec<_> = level.drain(..room.min(level.len())).collect();
            count_unread(&mut tree, &level);
            level.clear();
            let reads: Vec<_> = now.iter().map(|(o, _)| self.read(o)).collect();
            let read: Vec<_> = futures::stream::iter(reads)
                .buffered(PARALLEL)
                .collect()
                .await;
            // Toolkits that say which elements show (GTK 3, Qt) mark the hidden pages of a stack
            // only by leaving that out; GTK 4 says it of windows alone. So among siblings where
            // one shows, those that do not are hidden; elsewhere being visible is enough.
            let parents_saying: std::collections::HashSet<Option<usize>> = now
                .iter()
                .zip(&read)
                .filter(|(_, r)| matches!(r, Ok((_, _, s)) if s.showing))
                .map(|((_, parent), _)| *parent)
                .collect();
            for ((_, parent), result) in now.into_iter().zip(read) {
                let (node, kids, shown) = match result {
                    Ok(r) => r,
                    Err(Fault::Gone) if parent.is_some() => continue,
                    Err(f) => return Err(f.into_error("reading the window")),
                };
                let hidden = !shown.visible || (!shown.showing && parents_saying.contains(&parent));
                if hidden && parent.is_some() {
                    continue;
                }
                let at = tree.nodes.len();
                tree.nodes.push(node);
                if let Some(p) = parent {
                    tree.nodes[p].children.push(at);
                }
                level.extend(kids.into_iter().take(MAX_CHILDREN).map(|k| (k, Some(at))));
            }
        }
        Ok(tree)
    }

    /// Runs the element's default action (or the one named), as a click does.
    pub async fn click(&self, obj: &Obj) -> Result<String, ToolError> {
        let act: ActionProxy = self.proxy(obj).await.map_err(|f| f.into_error("click"))?;
        let actions = ask(act.get_actions())
            .await
            .map_err(|_| not_actionable("has no action to run"))?;
        if actions.is_empty() {
            return Err(not_actionable("has no action to run"));
        }
        let preferred = ["click", "press", "activate", "toggle", "select", "jump"];
        let index = preferred
            .iter()
            .find_map(|p| actions.iter().position(|a| a.name == *p))
            .unwrap_or(0);
        ask(act.do_action(index as i32))
            .await
            .map_err(|f| f.into_error("click"))?;
        Ok(actions[index].name.clone())
    }

    pub async fn focus(&self, obj: &Obj) -> Result<(), ToolError> {
        let c: ComponentProxy = self.proxy(obj).await.map_err(|f| f.into_error("focus"))?;
        match ask(c.grab_focus()).await {
            Ok(true) => Ok(()),
            Ok(false) | Err(Fault::Other(_)) => Err(not_actionable("does not take the focus")),
            Err(f) => Err(f.into_error("focus")),
        }
    }

    pub async fn set_text(&self, obj: &Obj, text: &str) -> Result<(), ToolError> {
        let e: EditableTextProxy = self
            .proxy(obj)
            .await
            .map_err(|f| f.into_error("set_text"))?;
        match ask(e.set_text_contents(text)).await {
            Ok(true) => Ok(()),
            Ok(false) | Err(Fault::Other(_)) => Err(not_actionable("does not take text")),
            Err(f) => Err(f.into_error("set_text")),
        }
    }

    pub async fn set_value(&self, obj: &Obj, value: f64) -> Result<(), ToolError> {
        let v: ValueProxy = self
            .proxy(obj)
            .await
            .map_err(|f| f.into_error("set_value"))?;
        match ask(v.set_current_value(value)).await {
            Ok(()) => Ok(()),
            Err(Fault::Other(_)) => Err(not_actionable("has no value to set")),
            Err(f) => Err(f.into_error("set_value")),
        }
    }

    /// Selects a child of a selection container: `obj` itself (an item), or its child named
    /// `value` (a list).
    pub async fn select(&self, obj: &Obj, value: Option<&str>) -> Result<(), ToolError> {
        let err = |f: Fault| f.into_error("select");
        let (container, index) = match value {
            Some(name) => (obj.clone(), self.child_named(obj, name).await?),
            None => {
                let a = self.accessible(obj).await.map_err(err)?;
                let parent = ask(a.parent()).await.map_err(err)?;
                let parent = to_obj(&parent).ok_or_else(|| not_actionable("has no list"))?;
                (parent, ask(a.get_index_in_parent()).await.map_err(err)?)
            }
        };
        let s: SelectionProxy = self.proxy(&container).await.map_err(err)?;
        match ask(s.select_child(index)).await {
            Ok(true) => Ok(()),
            Ok(false) | Err(Fault::Other(_)) => {
                Err(not_actionable("is not in a list one selects in"))
            }
            Err(f) => Err(err(f)),
        }
    }

    /// The index of the child whose name (or whose first named descendant's) is `name`.
    async fn child_named(&self, obj: &Obj, name: &str) -> Result<i32, ToolError> {
        let kids = self
            .children(obj)
            .await
            .map_err(|f| f.into_error("select"))?;
        for (i, kid) in kids.iter().enumerate() {
            if self.name_within(kid, 3).await.as_deref() == Some(name) {
                return Ok(i as i32);
            }
        }
        Err(ToolError::refused(
            Code::NotFound,
            format!("no item named {name:?} in this element"),
        )
        .recovered_by("inspect_local_application"))
    }

    /// An element's name, or its first named descendant's within `depth`.
    async fn name_within(&self, obj: &Obj, depth: usize) -> Option<String> {
        let mut at = vec![obj.clone()];
        for _ in 0..depth {
            let mut next = Vec::new();
            for o in at {
                let a = self.accessible(&o).await.ok()?;
                let name = ask(a.name()).await.ok()?;
                if !name.trim().is_empty() {
                    return Some(name.trim().to_string());
                }
                next.extend(self.children(&o).await.ok()?);
            }
            at = next;
        }
        None
    }

    /// Whether the element is checked now.
    pub async fn checked(&self, obj: &Obj) -> Result<bool, ToolError> {
        let a = self
            .accessible(obj)
            .await
            .map_err(|f| f.into_error("toggle"))?;
        let states = ask(a.get_state())
            .await
            .map_err(|f| f.into_error("toggle"))?;
        Ok(states.contains(State::Checked) || states.contains(State::Pressed))
    }

    /// Types keys into the focused widget: a named key (`Enter`) or the characters of a text.
    pub async fn press_key(&self, key: &str) -> Result<(), ToolError> {
        let dec = DeviceEventControllerProxy::builder(&self.conn)
            .cache_properties(CacheProperties::No)
            .build();
        let dec = ask(dec).await.map_err(|f| f.into_error("press_key"))?;
        let sent = match keysym(key) {
            Some(sym) => ask(dec.generate_keyboard_event(sym, "", KeySynthType::Sym)).await,
            None => ask(dec.generate_keyboard_event(0, key, KeySynthType::String)).await,
        };
        sent.map_err(|f| f.into_error("press_key"))
    }
}

/// What an element says of its being on screen.
struct Shown {
    visible: bool,
    showing: bool,
}

/// A name as the outline shows it: what some toolkits put where there is none (GTK 4.8: the
/// widget's class, `GtkButton`) left out, and a name said twice over (GTK 4.8 joins a button's
/// label to itself: `7 7`) said once.
fn plain_name(name: &str) -> String {
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

fn not_actionable(why: &str) -> ToolError {
    ToolError::refused(Code::NotActionable, format!("the element {why}"))
        .recovered_by("inspect_local_application")
}

fn count_unread(tree: &mut Tree, left: &[(Obj, Option<usize>)]) {
    for (_, parent) in left {
        tree.unread += 1;
        if let Some(p) = parent {
            tree.nodes[*p].unread += 1;
        }
    }
}

fn to_obj(r: &ObjectRefOwned) -> Option<Obj> {
    if r.is_null() {
        return None;
    }
    Some(Obj {
        bus: r.name_as_str()?.to_string(),
        path: r.path_as_str().to_string(),
    })
}

/// The X keysym of a named key; None for text, sent as its characters.
fn keysym(key: &str) -> Option<i32> {
    Some(match key {
        "Enter" | "Return" => 0xff0d,
        "Tab" => 0xff09,
        "Escape" => 0xff1b,
        "Backspace" => 0xff08,
        "Delete" => 0xffff,
        "Home" => 0xff50,
        "End" => 0xff57,
        "ArrowLeft" => 0xff51,
        "ArrowUp" => 0xff52,
        "ArrowRight" => 0xff53,
        "ArrowDown" => 0xff54,
        "PageUp" => 0xff55,
        "PageDown" => 0xff56,
        "Space" => 0x20,
        _ => return None,
    })
}

/// A role in the words a page snapshot uses where one fits; AT-SPI's own name otherwise.
fn role_word(role: Role, states: StateSet) -> &'static str {
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
fn state_words(states: StateSet, role: Role) -> Vec<&'static str> {
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
