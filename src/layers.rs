//! The layout is the architecture: the crate's parts import only the parts below them (the
//! shared core, then the relay, then the controller), and the modules of each part import one
//! another in no loop. Read from the source itself, so a new `use` that breaks either fails here
//! with the files that made it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The parts, lowest first: each may import the ones before it, never one after.
const PARTS: &[&str] = &["shared", "relay", "controller"];

/// A module as the rules see it: a part and, inside it, a top-level module (`controller::tools`);
/// a part's own root file is the part alone.
type Unit = String;

/// Every import between two units, with the files that make it.
type Edges = BTreeMap<(Unit, Unit), BTreeSet<String>>;

#[test]
fn parts_import_only_downward_and_no_modules_loop() {
    let edges = edges();
    assert!(
        edges.keys().any(|(a, _)| a == "controller::tools"),
        "the graph was not read"
    );
    let upward: Vec<String> = edges
        .iter()
        .filter(|((from, to), _)| rank(from) < rank(to))
        .map(|((from, to), files)| format!("{from} -> {to} ({files:?})"))
        .collect();
    assert!(
        upward.is_empty(),
        "imports running back up the parts: {upward:#?}"
    );
    if let Some(circle) = circle(&edges) {
        let ties: Vec<String> = circle
            .windows(2)
            .map(|w| {
                format!(
                    "{} -> {} ({:?})",
                    w[0],
                    w[1],
                    edges[&(w[0].clone(), w[1].clone())]
                )
            })
            .collect();
        panic!("modules import each other in a loop: {ties:#?}");
    }
}

/// The rules catch what they claim: a loop and an upward import made up here are found.
#[test]
fn the_checks_find_a_loop_and_an_upward_import() {
    let mut edges = Edges::new();
    for (a, b) in [
        ("controller::audit", "controller::tools"),
        ("controller::tools", "controller::audit"),
    ] {
        edges
            .entry((a.into(), b.into()))
            .or_default()
            .insert("made up".into());
    }
    assert_eq!(circle(&edges).map(|c| c.len()), Some(3));
    assert!(rank("shared::protocol") < rank("relay::hub"));
    assert_eq!(
        units_of("use crate::shared::{error::Code, protocol::{Op, TabId}};"),
        ["shared::error", "shared::protocol"]
    );
}

fn rank(unit: &str) -> usize {
    let part = unit.split("::").next().unwrap_or_default();
    PARTS.iter().position(|p| *p == part).unwrap_or(PARTS.len())
}

/// The imports of every source file outside tests, as edges between units.
fn edges() -> Edges {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut edges = Edges::new();
    for file in sources(&src) {
        let relative = file.strip_prefix(&src).expect("under src");
        let Some(from) = unit_of(relative) else {
            continue;
        };
        let text = std::fs::read_to_string(&file).expect("readable source");
        let code = text
            .split("#[cfg(test)]\nmod tests")
            .next()
            .unwrap_or_default();
        for to in units_of(code) {
            if to != from {
                let name = relative.display().to_string();
                edges.entry((from.clone(), to)).or_default().insert(name);
            }
        }
    }
    edges
}

/// The `.rs` files under `dir`, leaving out modules declared for tests only.
fn sources(dir: &Path) -> Vec<PathBuf> {
    let mut test_only = BTreeSet::new();
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).expect("readable folder").flatten() {
            let path = entry.path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("readable source");
                for rest in text.split("#[cfg(test)]\nmod ").skip(1) {
                    let name: String = rest.chars().take_while(|c| is_ident(*c)).collect();
                    if rest[name.len()..].starts_with(';') {
                        test_only.insert(path.with_file_name(format!("{name}.rs")));
                    }
                }
                files.push(path);
            }
        }
    }
    files.retain(|f| !test_only.contains(f));
    files
}

/// The unit a file belongs to: `controller/tools/act/pointer.rs` is `controller::tools`.
fn unit_of(relative: &Path) -> Option<Unit> {
    let parts: Vec<String> = relative
        .with_extension("")
        .iter()
        .map(|p| p.to_string_lossy().into_owned())
        .filter(|p| p != "mod")
        .collect();
    match parts.as_slice() {
        [part] if PARTS.contains(&part.as_str()) => Some(part.clone()),
        [part, module, ..] if PARTS.contains(&part.as_str()) => Some(format!("{part}::{module}")),
        _ => None,
    }
}

/// The units a piece of code names by `crate::` paths, in `use` trees and inline.
fn units_of(code: &str) -> Vec<Unit> {
    let mut units = BTreeSet::new();
    for (at, _) in code.match_indices("crate::") {
        let rest = &code[at + "crate::".len()..];
        let path: String = rest
            .chars()
            .take_while(|c| {
                c.is_alphanumeric() || matches!(c, '_' | ':' | '{' | '}' | ',' | ' ' | '\n')
            })
            .collect();
        for full in expand(&path) {
            let segments: Vec<&str> = full.split("::").filter(|s| !s.is_empty()).collect();
            match segments.as_slice() {
                [part, module, ..] if PARTS.contains(part) && module.chars().all(is_ident) => {
                    units.insert(format!("{part}::{module}"));
                }
                [part, ..] if PARTS.contains(part) => {
                    units.insert(part.to_string());
                }
                _ => {}
            }
        }
    }
    units.into_iter().collect()
}

fn is_ident(c: char) -> bool {
    c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_'
}

/// The paths a `use` tree names: `a::{b::c, d}` is `a::b::c` and `a::d`; a plain path is itself
/// (cut where the path ends).
fn expand(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(open) = tree.find('{') else {
        let end = tree.find([' ', ',', '}', '\n']).unwrap_or(tree.len());
        return vec![tree[..end].to_string()];
    };
    if tree[..open].contains([' ', ',', '\n', '}']) {
        return expand(&tree[..open]);
    }
    let prefix = &tree[..open];
    let mut depth = 0;
    let mut items = Vec::new();
    let mut start = open + 1;
    for (i, c) in tree.char_indices().skip(open) {
        match c {
            '{' => depth += 1,
            '}' if depth == 1 => {
                items.push(&tree[start..i]);
                break;
            }
            '}' => depth -= 1,
            ',' if depth == 1 => {
                items.push(&tree[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    items
        .into_iter()
        .filter(|i| !i.trim().is_empty())
        .flat_map(|i| {
            expand(i)
                .into_iter()
                .map(|p| format!("{prefix}{p}"))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// A loop in the graph, as the units around it (the first repeated at the end), if there is one.
fn circle(edges: &Edges) -> Option<Vec<Unit>> {
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (a, b) in edges.keys() {
        next.entry(a).or_default().push(b);
    }
    // Depth first, keeping the path: a unit met again on the path closes a loop.
    fn visit<'a>(
        unit: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<Unit>> {
        if let Some(at) = path.iter().position(|u| *u == unit) {
            let mut circle: Vec<Unit> = path[at..].iter().map(|u| u.to_string()).collect();
            circle.push(unit.to_string());
            return Some(circle);
        }
        if !done.insert(unit) {
            return None;
        }
        path.push(unit);
        for to in next.get(unit).into_iter().flatten() {
            if let Some(c) = visit(to, next, path, done) {
                return Some(c);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    let starts: Vec<&str> = next.keys().copied().collect();
    starts
        .into_iter()
        .find_map(|u| visit(u, &next, &mut Vec::new(), &mut done))
}
