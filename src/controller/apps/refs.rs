//! Refs for application elements, in a page snapshot's form (`e` and four base-36 characters,
//! `.N` for a twin): derived from the element's address (its application's bus name and its
//! object path), which the toolkit keeps for the widget's life, so a re-inspect hands out the
//! same ref while the widget lives, and a restarted application's elements get new ones.

use std::collections::HashMap;

use sha2::{Digest, Sha256};

use super::Obj;

/// Most refs kept per session; past it the oldest half is forgotten (their elements answer
/// `STALE_REF` and a re-inspect gives them back).
const MAX: usize = 20_000;

/// The refs one session handed out, both ways.
#[derive(Default)]
pub struct Refs {
    by_ref: HashMap<String, (Obj, u64)>,
    by_obj: HashMap<Obj, String>,
    /// What each ref's application is (its desktop id or name), for the audit trail.
    apps: HashMap<String, String>,
    next: u64,
}

/// The ref an address derives to before twins are told apart.
fn base(obj: &Obj) -> String {
    let digest = Sha256::digest(format!("{}\n{}", obj.bus, obj.path));
    let mut n = u32::from_be_bytes([digest[0], digest[1], digest[2], digest[3]]) % 36u32.pow(4);
    let mut chars = [b'0'; 4];
    for c in chars.iter_mut().rev() {
        *c = b"0123456789abcdefghijklmnopqrstuvwxyz"[(n % 36) as usize];
        n /= 36;
    }
    format!("e{}", std::str::from_utf8(&chars).expect("ascii"))
}

impl Refs {
    /// The element's ref, the same one each time it is asked for.
    pub fn of(&mut self, obj: &Obj, app: &str) -> String {
        if let Some(r) = self.by_obj.get(obj) {
            return r.clone();
        }
        if self.by_ref.len() >= MAX {
            self.forget_oldest();
        }
        let base = base(obj);
        let mut r = base.clone();
        let mut twin = 1;
        while self.by_ref.contains_key(&r) {
            twin += 1;
            r = format!("{base}.{twin}");
        }
        self.next += 1;
        self.by_ref.insert(r.clone(), (obj.clone(), self.next));
        self.by_obj.insert(obj.clone(), r.clone());
        self.apps.insert(obj.bus.clone(), app.to_string());
        r
    }

    /// The element a ref names, and its application.
    pub fn get(&self, r: &str) -> Option<(Obj, String)> {
        let (obj, _) = self.by_ref.get(r)?;
        let app = self.apps.get(&obj.bus).cloned().unwrap_or_default();
        Some((obj.clone(), app))
    }

    fn forget_oldest(&mut self) {
        let mut ages: Vec<u64> = self.by_ref.values().map(|(_, n)| *n).collect();
        ages.sort_unstable();
        let cut = ages[ages.len() / 2];
        self.by_ref.retain(|_, (_, n)| *n > cut);
        self.by_obj.retain(|_, r| self.by_ref.contains_key(r));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(bus: &str, path: &str) -> Obj {
        Obj {
            bus: bus.into(),
            path: path.into(),
        }
    }

    #[test]
    fn an_element_keeps_its_ref_and_another_application_s_gets_another() {
        let mut refs = Refs::default();
        let a = refs.of(&obj(":1.5", "/org/a11y/atspi/accessible/12"), "calc");
        assert!(a.len() == 5 && a.starts_with('e'), "{a}");
        assert_eq!(
            refs.of(&obj(":1.5", "/org/a11y/atspi/accessible/12"), "calc"),
            a
        );
        // The same path in a restarted application (a new bus name) is another element.
        let b = refs.of(&obj(":1.9", "/org/a11y/atspi/accessible/12"), "calc");
        assert_ne!(a, b);
        assert_eq!(refs.get(&a).unwrap().0.bus, ":1.5");
        assert_eq!(refs.get(&a).unwrap().1, "calc");
        // A fresh session derives the same ref for the same element.
        assert_eq!(
            Refs::default().of(&obj(":1.5", "/org/a11y/atspi/accessible/12"), "calc"),
            a
        );
    }

    #[test]
    fn twins_are_told_apart() {
        let mut refs = Refs::default();
        let first = obj(":1.5", "/a");
        let r = refs.of(&first, "x");
        // Force a twin: another element whose base is taken.
        refs.by_ref
            .insert(base(&obj(":1.5", "/b")), (first.clone(), 0));
        let twin = refs.of(&obj(":1.5", "/b"), "x");
        assert!(twin.contains('.'), "{twin} beside {r}");
    }
}
