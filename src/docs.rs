//! The docs a newcomer reads stay short and true: README.md and docs/architecture.md within 300
//! lines each, and every repository path the docs name (README.md, AGENTS.md, docs/, skill/) there
//! in the checkout, every relative link too, with the heading its `#anchor` names.

use std::path::{Path, PathBuf};

/// Where a path the docs name starts: a folder of the repository.
const ROOTS: &[&str] = &[
    "src/",
    "extension/",
    "tests/",
    "benches/",
    "docs/",
    "skill/",
    ".ci/",
];

const MOST_LINES: usize = 300;

fn repo() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_readme_and_the_map_stay_short() {
    for doc in ["README.md", "docs/architecture.md"] {
        let lines = std::fs::read_to_string(repo().join(doc))
            .unwrap()
            .lines()
            .count();
        assert!(
            lines <= MOST_LINES,
            "{doc} is {lines} lines, over {MOST_LINES}"
        );
    }
}

#[test]
fn every_path_the_docs_name_is_there() {
    let mut missing = Vec::new();
    for doc in docs() {
        let text = std::fs::read_to_string(&doc).unwrap();
        let name = doc.strip_prefix(repo()).unwrap().display().to_string();
        missing.extend(
            problems(&doc, &text)
                .into_iter()
                .map(|p| format!("{name}: {p}")),
        );
    }
    assert!(
        missing.is_empty(),
        "the docs name what is not there:\n{}",
        missing.join("\n")
    );
}

/// The docs: README.md, AGENTS.md when there is one, and every Markdown file in docs/ and skill/.
fn docs() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = ["README.md", "AGENTS.md"]
        .iter()
        .map(|f| repo().join(f))
        .filter(|f| f.is_file())
        .collect();
    let mut folders = vec![repo().join("docs"), repo().join("skill")];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder).unwrap().flatten() {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|e| e == "md") {
                found.push(path);
            }
        }
    }
    assert!(found.len() > 3, "the docs were not found");
    found
}

/// What one doc names that is not there: repository paths, and relative links with their anchors.
fn problems(doc: &Path, text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for path in named_paths(text) {
        if !repo().join(checked_part(&path)).exists() {
            found.push(format!("`{path}` does not exist"));
        }
    }
    for link in links(text) {
        let (file, anchor) = link.split_once('#').unwrap_or((&link, ""));
        let target = if file.is_empty() {
            doc.to_path_buf()
        } else {
            match inside_repo(&doc.parent().unwrap().join(file)) {
                Some(target) => target,
                None => continue, // a link out of the repository (the team's tree)
            }
        };
        if !target.exists() {
            found.push(format!("link ({link}) leads nowhere"));
        } else if !anchor.is_empty() && target.extension().is_some_and(|e| e == "md") {
            let heads = anchors(&std::fs::read_to_string(&target).unwrap());
            if !heads.iter().any(|h| h == anchor) {
                found.push(format!("link ({link}): no heading #{anchor} there"));
            }
        }
    }
    found
}

/// Tokens that start with a repository folder (`src/...`), not inside a longer path or a URL,
/// without a trailing `:line`, `::item`, `#anchor` or full stop. A quoted string is an example's
/// own (a project's `"docs/AGENT_GUIDE.md"`), not a path of this repository.
fn named_paths(text: &str) -> Vec<String> {
    let in_path = |c: char| c.is_ascii_alphanumeric() || "/._-*{},:#".contains(c);
    let mut found = Vec::new();
    for (at, _) in text.char_indices() {
        let before = text[..at].chars().next_back();
        if before.is_some_and(|c| c.is_ascii_alphanumeric() || "/._-~$\"".contains(c)) {
            continue;
        }
        let rest = &text[at..];
        if !ROOTS.iter().any(|r| rest.starts_with(r)) {
            continue;
        }
        let token: String = rest.chars().take_while(|&c| in_path(c)).collect();
        let token = token.split("::").next().unwrap();
        let token = token.split(['#', ':', ',']).next().unwrap();
        found.push(token.trim_end_matches('.').to_string());
    }
    found
}

/// The part of a path that must exist: up to the folder of its first `*` or `{`.
fn checked_part(path: &str) -> &str {
    match path.find(['*', '{']) {
        Some(at) => &path[..path[..at].rfind('/').map_or(0, |s| s + 1)],
        None => path,
    }
}

/// The targets of relative Markdown links, `](target)`, leaving out URLs.
fn links(text: &str) -> Vec<String> {
    text.split("](")
        .skip(1)
        .filter_map(|rest| rest.split_once(')').map(|(target, _)| target.trim()))
        .filter(|t| !t.contains("://") && !t.starts_with("mailto:") && !t.is_empty())
        .map(str::to_string)
        .collect()
}

/// The path with `..` and `.` resolved, when it stays inside the repository.
fn inside_repo(path: &Path) -> Option<PathBuf> {
    let mut out = PathBuf::new();
    for part in path.components() {
        match part {
            std::path::Component::ParentDir => {
                out.pop();
            }
            std::path::Component::CurDir => {}
            other => out.push(other),
        }
    }
    out.starts_with(repo()).then_some(out)
}

/// The anchors of a Markdown file's headings, as GitHub makes them.
fn anchors(text: &str) -> Vec<String> {
    let mut fenced = false;
    let mut out = Vec::new();
    for line in text.lines() {
        if line.starts_with("```") {
            fenced = !fenced;
        }
        let Some(heading) = line.strip_prefix('#').filter(|_| !fenced) else {
            continue;
        };
        let words = heading.trim_start_matches('#').trim().to_lowercase();
        out.push(
            words
                .chars()
                .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
                .map(|c| if c == ' ' { '-' } else { c })
                .collect(),
        );
    }
    out
}

/// The checks find what they claim to: a wrong path, a dead link, a missing heading.
#[test]
fn the_checks_find_a_wrong_path_a_dead_link_and_a_missing_heading() {
    let doc = repo().join("docs/architecture.md");
    let text = "See `src/controller/tools/nope.rs:12`, src/shared/protocol/op.rs::ops,\n\
                extension/sw/*.js, [a](nowhere.md), [b](#not-a-heading),\n\
                [c](../README.md#tabpilot).\n\
                Not checked: https://example.com/src/x.rs, ~/.agents/skills, \"docs/theirs.md\";\n\
                there: tests/e2e/apps.rs.";
    assert_eq!(
        problems(&doc, text),
        [
            "`src/controller/tools/nope.rs` does not exist",
            "link (nowhere.md) leads nowhere",
            "link (#not-a-heading): no heading #not-a-heading there",
        ]
    );
    assert_eq!(
        anchors("## Using your own browser\n```\n# no\n```\n## A `b`, c!"),
        ["using-your-own-browser", "a-b-c"]
    );
}
