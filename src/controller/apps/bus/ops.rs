//! Acting on an element through the interface it offers for the action: Action for a click,
//! Component for the focus, EditableText, Value, Selection; keys through the registry's
//! device event controller. No coordinates, no script.

use atspi::proxy::action::ActionProxy;
use atspi::proxy::component::ComponentProxy;
use atspi::proxy::device_event_controller::{DeviceEventControllerProxy, KeySynthType};
use atspi::proxy::editable_text::EditableTextProxy;
use atspi::proxy::selection::SelectionProxy;
use atspi::proxy::value::ValueProxy;
use atspi::zbus::proxy::CacheProperties;
use atspi::{Role, State};

use super::{Bus, Fault, ask, to_obj};
use crate::controller::apps::Obj;
use crate::shared::error::{Code, ToolError};

impl Bus {
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

    /// Types keys into the element, focused first: a named key (`Enter`) or the characters of a
    /// text. Synthesized keys go to whichever window is active, so they are sent only while the
    /// element's own window is: never into another application the person is using.
    pub async fn press_key(&self, obj: &Obj, key: &str) -> Result<(), ToolError> {
        if !self.window_active(obj).await? {
            return Err(not_actionable(
                "is in a window that is not the active one, and keys go to the active window",
            ));
        }
        self.focus(obj).await?;
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

impl Bus {
    /// Whether the window holding the element is the active one.
    async fn window_active(&self, obj: &Obj) -> Result<bool, ToolError> {
        let err = |f: Fault| f.into_error("press_key");
        let mut at = obj.clone();
        for _ in 0..64 {
            let a = self.accessible(&at).await.map_err(err)?;
            let role = ask(a.get_role()).await.map_err(err)?;
            if matches!(
                role,
                Role::Frame | Role::Window | Role::Dialog | Role::Alert
            ) {
                let states = ask(a.get_state()).await.map_err(err)?;
                return Ok(states.contains(State::Active));
            }
            match to_obj(&ask(a.parent()).await.map_err(err)?) {
                Some(parent) => at = parent,
                None => break,
            }
        }
        Ok(false)
    }
}

fn not_actionable(why: &str) -> ToolError {
    ToolError::refused(Code::NotActionable, format!("the element {why}"))
        .recovered_by("inspect_local_application")
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
