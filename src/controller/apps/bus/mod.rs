//! The accessibility bus (AT-SPI2 over D-Bus): the running applications, a window's tree, and
//! actions through the interfaces an element offers. Every call is bounded: an application that
//! hangs costs one call's time, not the tool's.

use std::future::Future;
use std::time::Duration;

mod ops;
mod words;

use atspi::proxy::accessible::AccessibleProxy;
use atspi::proxy::text::TextProxy;
use atspi::proxy::value::ValueProxy;
use atspi::zbus::{self, proxy::CacheProperties};
use atspi::{Interface, InterfaceSet, ObjectRefOwned, Role, State};

use super::{Node, Obj, Running, Tree, secret_name};
use crate::shared::error::{Code, ToolError};
use words::{Shown, plain_name, role_word, state_words};

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
                    // An element that went while the window was read (a toolkit rebuilding a
                    // panel) is simply not in it; one that hangs is counted unread.
                    Err(Fault::Gone | Fault::Other(_)) if parent.is_some() => continue,
                    Err(Fault::Timeout) if parent.is_some() => {
                        count_unread(&mut tree, &[(window.clone(), parent)]);
                        continue;
                    }
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
