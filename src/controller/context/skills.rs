//! Local skills: directories holding a `SKILL.md` whose front matter names and describes them.
//!
//! Every call rescans; no index is trusted. A bad skill is skipped with a warning and never hides
//! the others. Symlinked directories are followed once (each real directory is visited at most
//! once, which also breaks cycles); an entrypoint that is itself a symlink is refused, so a skill
//! cannot smuggle in a file from elsewhere. A directory or `SKILL.md` that is not trusted (another
//! user's, or writable by others; see `trust`) is skipped with a warning.

use std::collections::{BTreeMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::manifest::sha256_hex;
use super::{Warnings, trust};
use crate::shared::error::{Code, ToolError};

const ENTRYPOINTS: [&str; 2] = ["SKILL.md", "skill.md"];
const MAX_SKILL_BYTES: u64 = 256 * 1024;
/// How far below a root a skill directory may sit (`root/group/skill` is depth 2).
const MAX_DEPTH: usize = 3;
const MAX_ENTRIES_PER_DIR: usize = 1000;
const MAX_SKILLS: usize = 500;
const MAX_INVENTORY: usize = 200;
const INVENTORY_DEPTH: usize = 4;
/// A description shortened to fit the shared budget keeps this many characters.
const SHORT_DESCRIPTION: usize = 100;

#[derive(Clone, Debug, Serialize)]
pub struct Skill {
    /// Stable for a real directory: `s` and a hash of its real path.
    pub id: String,
    pub name: String,
    pub description: String,
    /// The directory as reached from its root (through any symlink).
    pub dir: PathBuf,
    pub root: PathBuf,
    pub bytes: u64,
    pub sha256: String,
    #[serde(skip)]
    pub(crate) real_dir: PathBuf,
    #[serde(skip)]
    pub(crate) entrypoint_name: &'static str,
}

#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SkillSummary {
    pub id: String,
    pub name: String,
    pub description: String,
    pub path: PathBuf,
}

/// Skill summaries that fit a character budget.
#[derive(Clone, Debug, Serialize)]
pub struct SkillsView {
    pub skills: Vec<SkillSummary>,
    pub total: usize,
    pub descriptions_shortened: bool,
    pub skills_truncated: bool,
}

#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InventoryEntry {
    /// Relative to the skill directory.
    pub path: String,
    /// `file`, `dir` or `symlink` (symlinks are listed, not followed).
    pub kind: &'static str,
    pub bytes: u64,
}

#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoadedSkill {
    pub id: String,
    pub name: String,
    pub description: String,
    pub dir: PathBuf,
    pub entrypoint: PathBuf,
    pub content: String,
    pub files: Vec<InventoryEntry>,
    pub files_truncated: bool,
}

/// Scans the roots in order; on a name found twice the earlier (nearer) skill wins.
pub(super) fn scan(roots: &[PathBuf], warnings: &mut Warnings) -> Vec<Skill> {
    let mut scan = Scan {
        visited: HashSet::new(),
        found: Vec::new(),
        warnings,
    };
    for root in roots {
        let Ok(real) = fs::canonicalize(root) else {
            continue;
        };
        if real.is_dir() && scan.visited.insert(real.clone()) {
            scan.walk(root, &real, &real, 0);
        }
    }
    let Scan {
        found, warnings, ..
    } = scan;
    let mut names = HashSet::new();
    found
        .into_iter()
        .filter(|s| {
            let first = names.insert(s.name.clone());
            if !first {
                warnings.push(format!(
                    "skill {:?} at {} is shadowed by a nearer skill of that name",
                    s.name,
                    s.dir.display()
                ));
            }
            first
        })
        .collect()
}

struct Scan<'a> {
    visited: HashSet<PathBuf>,
    found: Vec<Skill>,
    warnings: &'a mut Warnings,
}

impl Scan<'_> {
    /// The names in a folder, sorted, at most `MAX_ENTRIES_PER_DIR` of them.
    fn names(&mut self, shown: &Path, real: &Path) -> Vec<std::ffi::OsString> {
        let entries = match fs::read_dir(real) {
            Ok(e) => e,
            Err(e) => {
                self.warnings
                    .push(format!("{}: cannot be listed: {e}", shown.display()));
                return Vec::new();
            }
        };
        let mut names = Vec::new();
        for entry in entries.flatten() {
            if names.len() == MAX_ENTRIES_PER_DIR {
                self.warnings.push(format!(
                    "{}: more than {MAX_ENTRIES_PER_DIR} entries; the rest were not scanned",
                    shown.display()
                ));
                break;
            }
            names.push(entry.file_name());
        }
        names.sort();
        names
    }

    /// `shown` is the path as reached, `real` its canonical form.
    fn walk(&mut self, shown: &Path, real: &Path, root: &Path, depth: usize) {
        if let Some(why) = trust::doubt(real) {
            self.warnings.push(format!(
                "{}: {why}; its skills were not read",
                shown.display()
            ));
            return;
        }
        for name in self.names(shown, real) {
            if name.to_string_lossy().starts_with('.') {
                continue;
            }
            if self.found.len() == MAX_SKILLS {
                self.warnings.push(format!(
                    "more than {MAX_SKILLS} skills; the rest were not scanned"
                ));
                return;
            }
            let (shown, real) = (shown.join(&name), real.join(&name));
            let Ok(meta) = fs::symlink_metadata(&real) else {
                continue;
            };
            let dir = if meta.file_type().is_symlink() {
                match fs::canonicalize(&real) {
                    Ok(target) if target.is_dir() => target,
                    _ => continue,
                }
            } else if meta.is_dir() {
                real
            } else {
                continue;
            };
            if !self.visited.insert(dir.clone()) {
                self.warnings.push(format!(
                    "{}: symlink cycle or a directory already scanned; not followed",
                    shown.display()
                ));
                continue;
            }
            if let Some(why) = trust::doubt(&dir) {
                self.warnings
                    .push(format!("{}: {why}; not read", shown.display()));
                continue;
            }
            match entrypoint(&dir) {
                Entry::Symlink(name) => self.warnings.push(format!(
                    "{}: {name} is a symlink; skill refused",
                    shown.display()
                )),
                Entry::File(entry) => match parse(&shown, &dir, entry, root) {
                    Ok(skill) => self.found.push(skill),
                    Err(why) => self.warnings.push(format!(
                        "{}: {why}; skill skipped",
                        shown.join(entry).display()
                    )),
                },
                Entry::None if depth + 1 < MAX_DEPTH => self.walk(&shown, &dir, root, depth + 1),
                Entry::None => {}
            }
        }
    }
}

enum Entry {
    None,
    File(&'static str),
    Symlink(&'static str),
}

fn entrypoint(dir: &Path) -> Entry {
    for name in ENTRYPOINTS {
        match fs::symlink_metadata(dir.join(name)) {
            Ok(m) if m.file_type().is_symlink() => return Entry::Symlink(name),
            Ok(m) if m.is_file() => return Entry::File(name),
            _ => {}
        }
    }
    Entry::None
}

fn read_entrypoint(path: &Path) -> Result<(Vec<u8>, String), String> {
    let meta = fs::symlink_metadata(path).map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    if meta.len() > MAX_SKILL_BYTES {
        return Err(format!("is larger than {MAX_SKILL_BYTES} bytes"));
    }
    if let Some(why) = trust::doubt(path) {
        return Err(why);
    }
    let bytes = fs::read(path).map_err(|e| format!("cannot be read: {e}"))?;
    let text = String::from_utf8(bytes.clone()).map_err(|_| "is not UTF-8".to_string())?;
    Ok((bytes, text))
}

fn parse(shown: &Path, real: &Path, entry: &'static str, root: &Path) -> Result<Skill, String> {
    let (bytes, text) = read_entrypoint(&real.join(entry))?;
    let fm = front_matter(&text).ok_or("has no front matter block between --- lines")?;
    let field = |key: &str| {
        fm.get(key)
            .map(|v| v.trim().to_string())
            .filter(|v| !v.is_empty())
            .ok_or(format!("front matter has no {key}"))
    };
    let (name, description) = (field("name")?, field("description")?);
    Ok(Skill {
        id: format!(
            "s{}",
            &sha256_hex(real.as_os_str().as_encoded_bytes())[..10]
        ),
        name,
        description,
        dir: shown.to_path_buf(),
        root: root.to_path_buf(),
        bytes: bytes.len() as u64,
        sha256: sha256_hex(&bytes),
        real_dir: real.to_path_buf(),
        entrypoint_name: entry,
    })
}

/// The `key: value` lines between a leading `---` and the next `---`. Enough YAML for skill
/// front matter: quoted scalars, `>`/`|` blocks and indented continuation lines; nested maps
/// fold into their parent's text, which is harmless since only `name` and `description` count.
pub(super) fn front_matter(text: &str) -> Option<BTreeMap<String, String>> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.lines();
    if lines.next()?.trim_end() != "---" {
        return None;
    }
    let mut map = BTreeMap::new();
    let mut current: Option<(String, String, bool)> = None; // key, value, literal block
    for line in lines {
        if line.trim_end() == "---" || line.trim_end() == "..." {
            if let Some((k, v, _)) = current {
                map.insert(k, v);
            }
            return Some(map);
        }
        if line.starts_with([' ', '\t']) || line.trim().is_empty() {
            if let Some((_, value, literal)) = current.as_mut() {
                let sep = if *literal { "\n" } else { " " };
                if !value.is_empty() && !line.trim().is_empty() {
                    value.push_str(sep);
                }
                value.push_str(line.trim());
            }
            continue;
        }
        if line.starts_with('#') {
            continue;
        }
        let (key, value) = line.split_once(':')?;
        if let Some((k, v, _)) = current.take() {
            map.insert(k, v);
        }
        let value = value.trim();
        let block = matches!(value, "|" | "|-" | "|+" | ">" | ">-" | ">+");
        let value = if block { String::new() } else { unquote(value) };
        current = Some((
            key.trim().to_string(),
            value,
            block && value_is_literal(line),
        ));
    }
    None
}

fn value_is_literal(line: &str) -> bool {
    line.trim_end().trim_end_matches(['-', '+']).ends_with('|')
}

fn unquote(value: &str) -> String {
    let quoted = |q: char| value.len() >= 2 && value.starts_with(q) && value.ends_with(q);
    if quoted('"') {
        value[1..value.len() - 1].replace("\\\"", "\"")
    } else if quoted('\'') {
        value[1..value.len() - 1].replace("''", "'")
    } else {
        value.to_string()
    }
}

/// Summaries within `budget` characters: descriptions are shortened first, then skills at the
/// end (the farthest) are left out.
pub fn summaries(skills: &[Skill], budget: usize) -> SkillsView {
    let cost = |s: &SkillSummary| s.name.chars().count() + s.description.chars().count() + 40;
    let mut list: Vec<SkillSummary> = skills
        .iter()
        .map(|s| SkillSummary {
            id: s.id.clone(),
            name: s.name.clone(),
            description: s.description.clone(),
            path: s.dir.clone(),
        })
        .collect();
    let mut view = SkillsView {
        total: list.len(),
        skills: Vec::new(),
        descriptions_shortened: false,
        skills_truncated: false,
    };
    if list.iter().map(cost).sum::<usize>() > budget {
        for s in &mut list {
            if s.description.chars().count() > SHORT_DESCRIPTION {
                let short: String = s.description.chars().take(SHORT_DESCRIPTION - 1).collect();
                s.description = format!("{}…", short.trim_end());
                view.descriptions_shortened = true;
            }
        }
    }
    let mut used = 0;
    for s in list {
        used += cost(&s);
        if used > budget {
            view.skills_truncated = true;
            break;
        }
        view.skills.push(s);
    }
    view
}

/// The full SKILL.md, read again now, and a bounded inventory of the skill's files.
pub(super) fn load(skill: &Skill) -> Result<LoadedSkill, ToolError> {
    let entrypoint = skill.real_dir.join(skill.entrypoint_name);
    let (_, content) = read_entrypoint(&entrypoint).map_err(|why| {
        ToolError::failed(Code::NotFound, format!("{}: {why}", entrypoint.display()))
    })?;
    let mut files = Vec::new();
    let truncated = inventory(&skill.real_dir, "", 0, &mut files);
    Ok(LoadedSkill {
        id: skill.id.clone(),
        name: skill.name.clone(),
        description: skill.description.clone(),
        dir: skill.dir.clone(),
        entrypoint: skill.dir.join(skill.entrypoint_name),
        content,
        files,
        files_truncated: truncated,
    })
}

/// Lists files without following symlinks; true when the listing was cut short.
fn inventory(dir: &Path, prefix: &str, depth: usize, out: &mut Vec<InventoryEntry>) -> bool {
    let Ok(entries) = fs::read_dir(dir) else {
        return false;
    };
    let mut entries: Vec<_> = entries.flatten().take(MAX_ENTRIES_PER_DIR).collect();
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name == ".git" {
            continue;
        }
        if out.len() == MAX_INVENTORY {
            return true;
        }
        let Ok(meta) = fs::symlink_metadata(entry.path()) else {
            continue;
        };
        let path = format!("{prefix}{name}");
        let kind = if meta.file_type().is_symlink() {
            "symlink"
        } else if meta.is_dir() {
            "dir"
        } else {
            "file"
        };
        out.push(InventoryEntry {
            path: path.clone(),
            kind,
            bytes: meta.len(),
        });
        if kind == "dir"
            && depth + 1 < INVENTORY_DEPTH
            && inventory(&entry.path(), &format!("{path}/"), depth + 1, out)
        {
            return true;
        }
    }
    false
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::testutil::Tree;
    use super::super::{ContextEnv, discover};
    use super::*;

    fn names(env: &ContextEnv) -> Vec<String> {
        discover(env, None)
            .unwrap()
            .skills
            .into_iter()
            .map(|s| s.name)
            .collect()
    }

    #[test]
    fn front_matter_reads_quotes_blocks_and_continuations() {
        let fm = front_matter(
            "---\nname: \"pdf-fill\"\ndescription: >\n  Fills PDF\n  forms.\nnotes: |\n  a\n  b\nx: 'it''s'\n---\nbody",
        )
        .unwrap();
        assert_eq!(fm["name"], "pdf-fill");
        assert_eq!(fm["description"], "Fills PDF forms.");
        assert_eq!(fm["notes"], "a\nb");
        assert_eq!(fm["x"], "it's");
        assert!(front_matter("no front matter").is_none());
        assert!(front_matter("---\nname: x\n").is_none(), "unterminated");
        assert!(
            front_matter("---\nname x\n---\n").is_none(),
            "not key: value"
        );
    }

    #[test]
    fn skills_are_found_nearest_first_then_home() {
        let t = Tree::new("skillroots");
        t.mkdir("repo/.git");
        t.skill(
            "repo/.agents/skills/root-skill",
            "root-skill",
            "at the root",
        );
        t.skill("repo/sub/.agents/skills/sub-skill", "sub-skill", "in sub");
        t.skill(
            "repo/sub/.agents/skills/group/nested",
            "nested",
            "one level down",
        );
        t.skill("home/.agents/skills/home-skill", "home-skill", "in home");
        t.skill("repo/.agents/skills/dup", "sub-skill", "shadowed");
        let ctx = discover(&t.env("repo/sub"), None).unwrap();
        let got: Vec<&str> = ctx.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(got, ["nested", "sub-skill", "root-skill", "home-skill"]);
        assert!(ctx.warnings.iter().any(|w| w.contains("shadowed")));
    }

    #[test]
    fn bad_front_matter_is_skipped_with_a_warning_and_hides_nothing_else() {
        let t = Tree::new("badskill");
        t.mkdir("repo/.git");
        t.skill("repo/.agents/skills/a-good", "good-one", "works");
        t.write(
            "repo/.agents/skills/b-noname/SKILL.md",
            "---\ndescription: no name\n---\n",
        );
        t.write("repo/.agents/skills/c-nofm/SKILL.md", "# just markdown\n");
        t.write(
            "repo/.agents/skills/d-emptydesc/SKILL.md",
            "---\nname: x\ndescription: \"\"\n---\n",
        );
        t.skill("repo/.agents/skills/e-good", "good-two", "works too");
        t.write(
            "repo/.agents/skills/lower/skill.md",
            "---\nname: lower\ndescription: lower case file\n---\n",
        );
        let ctx = discover(&t.env("repo"), None).unwrap();
        let got: Vec<&str> = ctx.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(got, ["good-one", "good-two", "lower"]);
        assert_eq!(
            ctx.warnings
                .iter()
                .filter(|w| w.contains("skill skipped"))
                .count(),
            3
        );
        assert!(ctx.warnings.iter().any(|w| w.contains("no name")));
    }

    #[test]
    fn symlinked_skill_directories_are_followed_once_and_cycles_end() {
        let t = Tree::new("cycle");
        t.mkdir("repo/.git");
        t.skill("shared/linked", "linked", "reached through a symlink");
        t.symlink(t.path("shared/linked"), "repo/.agents/skills/linked");
        t.symlink(t.path("shared/linked"), "repo/.agents/skills/linked-again");
        // group/loop points back at the skills root: a cycle.
        t.mkdir("repo/.agents/skills/group");
        t.symlink(
            t.path("repo/.agents/skills"),
            "repo/.agents/skills/group/loop",
        );
        let ctx = discover(&t.env("repo"), None).unwrap();
        let got: Vec<&str> = ctx.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(got, ["linked"]);
        assert_eq!(ctx.skills[0].dir, t.path("repo/.agents/skills/linked"));
        let cycles = ctx
            .warnings
            .iter()
            .filter(|w| w.contains("symlink cycle"))
            .count();
        assert_eq!(cycles, 2, "{:?}", ctx.warnings);
    }

    #[test]
    fn a_symlinked_entrypoint_is_refused() {
        let t = Tree::new("entrylink");
        t.mkdir("repo/.git");
        t.write(
            "elsewhere.md",
            "---\nname: sneaky\ndescription: from elsewhere\n---\n",
        );
        t.mkdir("repo/.agents/skills/sneaky");
        t.symlink(
            t.path("elsewhere.md"),
            "repo/.agents/skills/sneaky/SKILL.md",
        );
        t.skill("repo/.agents/skills/honest", "honest", "a real file");
        let ctx = discover(&t.env("repo"), None).unwrap();
        assert_eq!(names(&t.env("repo")), ["honest"]);
        assert!(
            ctx.warnings
                .iter()
                .any(|w| w.contains("is a symlink; skill refused"))
        );
    }

    #[test]
    fn depth_is_bounded() {
        let t = Tree::new("depth");
        t.mkdir("repo/.git");
        t.skill("repo/.agents/skills/a/b/ok", "ok", "depth three");
        t.skill(
            "repo/.agents/skills/a/b/c/too-deep",
            "too-deep",
            "depth four",
        );
        assert_eq!(names(&t.env("repo")), ["ok"]);
    }

    #[test]
    fn a_skill_created_between_calls_appears_with_a_new_fingerprint() {
        let t = Tree::new("fresh");
        t.mkdir("repo/.git");
        t.skill("repo/.agents/skills/one", "one", "first");
        let env = t.env("repo");
        let before = discover(&env, None).unwrap();
        assert_eq!(
            discover(&env, None).unwrap().refresh_fingerprint,
            before.refresh_fingerprint
        );
        t.skill("repo/.agents/skills/two", "two", "second");
        let after = discover(&env, None).unwrap();
        assert_eq!(after.skills.len(), 2);
        assert_ne!(after.refresh_fingerprint, before.refresh_fingerprint);
        // An edit to an existing skill changes it too.
        t.skill("repo/.agents/skills/two", "two", "second, edited");
        assert_ne!(
            discover(&env, None).unwrap().refresh_fingerprint,
            after.refresh_fingerprint
        );
    }

    #[test]
    fn manifest_skill_roots_replace_the_defaults_and_stay_inside_the_scope() {
        let t = Tree::new("skillcfg");
        t.mkdir("repo/.git");
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "skill_roots": ["tools/skills", "../outside"]}"#,
        );
        t.skill("repo/tools/skills/custom", "custom", "configured root");
        t.skill("repo/.agents/skills/default", "default", "not scanned now");
        t.skill("outside/escapee", "escapee", "outside the scope");
        t.skill("home/.agents/skills/home", "home", "not scanned now");
        let ctx = discover(&t.env("repo"), None).unwrap();
        assert_eq!(
            ctx.skills
                .iter()
                .map(|s| s.name.as_str())
                .collect::<Vec<_>>(),
            ["custom"]
        );
        assert!(
            ctx.warnings
                .iter()
                .any(|w| w.contains("outside the scope root"))
        );
    }

    #[test]
    fn summaries_shorten_descriptions_first_then_omit_skills() {
        let t = Tree::new("summaries");
        t.mkdir("repo/.git");
        for i in 0..5 {
            t.skill(
                &format!("repo/.agents/skills/s{i}"),
                &format!("s{i}"),
                &"d".repeat(400),
            );
        }
        let ctx = discover(&t.env("repo"), None).unwrap();
        let all = ctx.skill_summaries(100_000);
        assert!(!all.descriptions_shortened && !all.skills_truncated);
        let short = ctx.skill_summaries(5 * 150);
        assert!(short.descriptions_shortened && !short.skills_truncated);
        assert!(
            short
                .skills
                .iter()
                .all(|s| s.description.chars().count() <= SHORT_DESCRIPTION)
        );
        let cut = ctx.skill_summaries(300);
        assert!(cut.skills_truncated && cut.skills.len() == 2 && cut.total == 5);
    }

    #[test]
    fn load_returns_skill_md_and_a_bounded_inventory_by_id_name_or_path() {
        let t = Tree::new("load");
        t.mkdir("repo/.git");
        let entry = t.skill("repo/.agents/skills/pdf", "pdf", "fills PDFs");
        t.write(
            "repo/.agents/skills/pdf/scripts/fill.py",
            "print('never run')",
        );
        for i in 0..MAX_INVENTORY + 5 {
            t.write(&format!("repo/.agents/skills/pdf/data/f{i:03}"), "x");
        }
        let env = t.env("repo");
        let ctx = discover(&env, None).unwrap();
        let id = ctx.skills[0].id.clone();
        for key in [
            id.as_str(),
            "pdf",
            ".agents/skills/pdf",
            entry.to_str().unwrap(),
        ] {
            let loaded = ctx.load_skill(key, &env).unwrap();
            assert!(loaded.content.contains("Body of pdf."), "{key}");
            assert!(loaded.files_truncated);
            assert_eq!(loaded.files.len(), MAX_INVENTORY);
            assert!(loaded.files.iter().any(|f| f.path == "SKILL.md"));
        }
        let err = ctx.load_skill("nope", &env).unwrap_err();
        assert_eq!(err.code, Code::NotFound);
        // A path that is not a discovered skill is not loaded, even if it exists.
        assert_eq!(
            ctx.load_skill("AGENTS.md", &env).unwrap_err().code,
            Code::NotFound
        );
    }
}
