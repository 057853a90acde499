//! The instruction chain: the user's model file, Codex's home, then one file per directory from
//! the scope root down to the target, concatenated lowest precedence first so later text wins.

use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use serde::Serialize;

use super::manifest::{Level, MANIFEST_FILE, UserConfig, sha256_hex};
use super::{ContextEnv, Warnings, trust};
use crate::shared::error::ToolError;

pub(super) const DEFAULT_CANDIDATES: [&str; 2] = ["AGENTS.override.md", "AGENTS.md"];
/// Combined size of the instruction files, in bytes, unless a manifest sets another.
pub const DEFAULT_BUDGET: usize = 32 * 1024;

#[derive(Clone, Copy, Debug, Serialize, PartialEq, Eq, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum SourceKind {
    /// The user's `model_instructions_file`.
    ModelInstructions,
    /// `AGENTS.override.md` or `AGENTS.md` in `CODEX_HOME` or `~/.codex`.
    CodexHome,
    /// A directory's `.tabpilot/agent.json`; it adds settings, not text.
    Manifest,
    /// A directory's instruction file.
    Project,
}

#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Source {
    pub kind: SourceKind,
    pub path: PathBuf,
    /// Bytes this source added to the text.
    pub bytes: usize,
    pub sha256: String,
}

#[derive(Clone, Debug, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Instructions {
    /// The sources' text in order, each under a `<!-- source: PATH -->` line.
    pub text: String,
    pub sources: Vec<Source>,
    pub bytes: usize,
    pub budget_bytes: usize,
    /// Discovery stopped because the next file would have gone past the budget.
    pub truncated: bool,
}

enum Read {
    Missing,
    Empty,
    OverBudget,
    Text(String),
    /// Someone else's, or writable by others: why.
    Untrusted(PathBuf, String),
}

/// How strict a read is: the model file may not be a symlink; a directory's file must resolve
/// inside that directory. Every file must be trusted (see `trust`): an untrusted project file
/// refuses the whole discovery, an untrusted file of the user's is skipped with a warning.
struct Rules<'a> {
    allow_symlink: bool,
    inside: Option<&'a Path>,
    refuse_untrusted: bool,
}

pub(super) fn collect(
    env: &ContextEnv,
    user: &UserConfig,
    levels: &[Level],
    budget: usize,
    warnings: &mut Warnings,
) -> Result<Instructions, ToolError> {
    let mut out = Instructions {
        text: String::new(),
        sources: Vec::new(),
        bytes: 0,
        budget_bytes: budget,
        truncated: false,
    };

    if let Some(path) = &user.model_instructions_file
        && !out.model_instructions(path, budget, warnings)
    {
        return Ok(out);
    }

    let codex = env.codex_dir();
    let rules = Rules {
        allow_symlink: true,
        inside: None,
        refuse_untrusted: false,
    };
    if !out.first_of(
        &codex,
        DEFAULT_CANDIDATES.iter(),
        SourceKind::CodexHome,
        &rules,
        warnings,
    )? {
        return Ok(out);
    }

    let mut candidates: Vec<String> = DEFAULT_CANDIDATES.map(String::from).to_vec();
    for level in levels {
        if let Some(manifest) = &level.manifest {
            out.sources.push(Source {
                kind: SourceKind::Manifest,
                path: level.dir.join(MANIFEST_FILE),
                bytes: 0,
                sha256: level.manifest_sha256.clone().unwrap_or_default(),
            });
            if let Some(files) = &manifest.instruction_files {
                candidates = files.clone();
            }
        }
        let rules = Rules {
            allow_symlink: true,
            inside: Some(&level.dir),
            refuse_untrusted: true,
        };
        if !out.first_of(
            &level.dir,
            candidates.iter(),
            SourceKind::Project,
            &rules,
            warnings,
        )? {
            return Ok(out);
        }
    }
    Ok(out)
}

impl Instructions {
    /// Adds the user's `model_instructions_file`, or says why not; false when the budget
    /// stopped discovery.
    fn model_instructions(&mut self, path: &Path, budget: usize, warnings: &mut Warnings) -> bool {
        let rules = Rules {
            allow_symlink: false,
            inside: None,
            refuse_untrusted: false,
        };
        let said = |what: String| format!("model_instructions_file {what}");
        match read(path, &rules, budget) {
            Ok(Read::Text(text)) => self.add(SourceKind::ModelInstructions, path, &text),
            Ok(Read::OverBudget) => {
                self.truncated = true;
                return false;
            }
            Ok(Read::Untrusted(real, why)) => {
                warnings.push(said(format!("{}: {why}; skipped", real.display())))
            }
            Ok(Read::Missing) => warnings.push(said(format!("{} does not exist", path.display()))),
            Ok(Read::Empty) => warnings.push(said(format!("{} is empty; skipped", path.display()))),
            Err(why) => warnings.push(said(format!("{}: {why}", path.display()))),
        }
        true
    }

    /// Adds the first non-empty candidate in `dir`; false when the budget stopped discovery.
    fn first_of<S: AsRef<str>>(
        &mut self,
        dir: &Path,
        candidates: impl Iterator<Item = S>,
        kind: SourceKind,
        rules: &Rules,
        warnings: &mut Warnings,
    ) -> Result<bool, ToolError> {
        for name in candidates {
            let path = dir.join(name.as_ref());
            match read(&path, rules, self.budget_bytes - self.bytes) {
                Ok(Read::Text(text)) => {
                    self.add(kind, &path, &text);
                    return Ok(true);
                }
                Ok(Read::Missing | Read::Empty) => {}
                Ok(Read::OverBudget) => {
                    self.truncated = true;
                    return Ok(false);
                }
                Ok(Read::Untrusted(real, why)) if rules.refuse_untrusted => {
                    return Err(trust::refusal(&real, &why));
                }
                Ok(Read::Untrusted(real, why)) => {
                    warnings.push(format!("{}: {why}; skipped", real.display()));
                }
                Err(why) => warnings.push(format!("{}: {why}", path.display())),
            }
        }
        Ok(true)
    }

    fn add(&mut self, kind: SourceKind, path: &Path, text: &str) {
        if !self.text.is_empty() {
            self.text.push_str("\n\n");
        }
        self.text
            .push_str(&format!("<!-- source: {} -->\n", path.display()));
        self.text.push_str(text.trim_end());
        self.bytes += text.len();
        self.sources.push(Source {
            kind,
            path: path.to_path_buf(),
            bytes: text.len(),
            sha256: sha256_hex(text.as_bytes()),
        });
    }
}

fn read(path: &Path, rules: &Rules, room: usize) -> Result<Read, String> {
    let link = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(Read::Missing);
        }
        Err(e) => return Err(format!("cannot be read: {e}")),
    };
    if link.file_type().is_symlink() && !rules.allow_symlink {
        return Err("is a symlink; refused".into());
    }
    let real = fs::canonicalize(path).map_err(|e| format!("cannot be resolved: {e}"))?;
    if let Some(dir) = rules.inside
        && !real.starts_with(dir)
    {
        return Err(format!("resolves outside {}; refused", dir.display()));
    }
    let meta = fs::metadata(&real).map_err(|e| format!("cannot be read: {e}"))?;
    if !meta.is_file() {
        return Err("is not a regular file".into());
    }
    if let Some(why) = trust::doubt(&real) {
        return Ok(Read::Untrusted(real, why));
    }
    if meta.len() == 0 {
        return Ok(Read::Empty);
    }
    if meta.len() > room as u64 {
        return Ok(Read::OverBudget);
    }
    let bytes = fs::read(&real).map_err(|e| format!("cannot be read: {e}"))?;
    if bytes.len() > room {
        return Ok(Read::OverBudget);
    }
    let text = String::from_utf8(bytes).map_err(|_| "is not UTF-8; skipped".to_string())?;
    Ok(if text.trim().is_empty() {
        Read::Empty
    } else {
        Read::Text(text)
    })
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::testutil::Tree;
    use super::super::{USER_CONFIG_FILE, discover};
    use super::*;

    fn kinds_and_paths(i: &Instructions) -> Vec<(SourceKind, PathBuf)> {
        i.sources.iter().map(|s| (s.kind, s.path.clone())).collect()
    }

    #[test]
    fn precedence_runs_model_then_codex_then_root_down_with_one_file_per_directory() {
        let t = Tree::new("precedence");
        t.write("home/MODEL.md", "model says");
        t.write(
            &format!("home/{USER_CONFIG_FILE}"),
            r#"{"version": 1, "model_instructions_file": "MODEL.md"}"#,
        );
        t.write("home/.codex/AGENTS.md", "codex says");
        t.mkdir("repo/.git");
        t.write("repo/AGENTS.md", "root says");
        t.write("repo/sub/AGENTS.md", "sub plain");
        t.write("repo/sub/AGENTS.override.md", "sub override");
        t.write("repo/sub/leaf/AGENTS.md", "leaf says");
        let ctx = discover(&t.env("repo/sub/leaf"), None).unwrap();
        let i = &ctx.instructions;
        assert_eq!(
            kinds_and_paths(i),
            vec![
                (SourceKind::ModelInstructions, t.path("home/MODEL.md")),
                (SourceKind::CodexHome, t.path("home/.codex/AGENTS.md")),
                (SourceKind::Project, t.path("repo/AGENTS.md")),
                (SourceKind::Project, t.path("repo/sub/AGENTS.override.md")),
                (SourceKind::Project, t.path("repo/sub/leaf/AGENTS.md")),
            ]
        );
        let order: Vec<usize> = [
            "model says",
            "codex says",
            "root says",
            "sub override",
            "leaf says",
        ]
        .iter()
        .map(|s| i.text.find(s).unwrap())
        .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{order:?}");
        assert!(!i.text.contains("sub plain"));
        assert!(!i.truncated);
    }

    #[test]
    fn codex_home_override_wins_and_codex_home_env_is_used() {
        let t = Tree::new("codex");
        t.write("codex/AGENTS.override.md", "override");
        t.write("codex/AGENTS.md", "plain");
        t.write("home/.codex/AGENTS.md", "default home");
        t.mkdir("p");
        let mut env = t.env("p");
        env.codex_home = Some(t.path("codex"));
        let text = discover(&env, None).unwrap().instructions.text;
        assert!(text.contains("override") && !text.contains("plain") && !text.contains("default"));
    }

    #[test]
    fn empty_files_are_skipped() {
        let t = Tree::new("empty");
        t.mkdir("repo/.git");
        t.write("repo/AGENTS.override.md", "  \n\n");
        t.write("repo/AGENTS.md", "the real one");
        t.write("home/.codex/AGENTS.override.md", "");
        t.write("home/.codex/AGENTS.md", "codex real");
        let i = discover(&t.env("repo"), None).unwrap().instructions;
        let paths: Vec<PathBuf> = i.sources.iter().map(|s| s.path.clone()).collect();
        assert_eq!(
            paths,
            vec![t.path("home/.codex/AGENTS.md"), t.path("repo/AGENTS.md")]
        );
    }

    #[test]
    fn manifest_candidates_apply_to_its_directory_and_below_until_replaced() {
        let t = Tree::new("candidates");
        t.mkdir("repo/.git");
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "instruction_files": ["GUIDE.md", "AGENTS.md"]}"#,
        );
        t.write("repo/GUIDE.md", "root guide");
        t.write("repo/AGENTS.md", "root agents");
        t.write("repo/a/GUIDE.md", "a guide");
        t.write(
            "repo/a/b/.tabpilot/agent.json",
            r#"{"version": 1, "instruction_files": ["B.md"]}"#,
        );
        t.write("repo/a/b/GUIDE.md", "b guide, not a candidate here");
        t.write("repo/a/b/B.md", "b file");
        let i = discover(&t.env("repo/a/b"), None).unwrap().instructions;
        assert_eq!(
            kinds_and_paths(&i),
            vec![
                (SourceKind::Manifest, t.path("repo/.tabpilot/agent.json")),
                (SourceKind::Project, t.path("repo/GUIDE.md")),
                (SourceKind::Project, t.path("repo/a/GUIDE.md")),
                (
                    SourceKind::Manifest,
                    t.path("repo/a/b/.tabpilot/agent.json")
                ),
                (SourceKind::Project, t.path("repo/a/b/B.md")),
            ]
        );
    }

    #[test]
    fn budget_stops_discovery_and_says_so() {
        let t = Tree::new("budget");
        t.mkdir("repo/.git");
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "instruction_max_bytes": 1024}"#,
        );
        t.write("repo/AGENTS.md", &"r".repeat(600));
        t.write("repo/sub/AGENTS.md", &"s".repeat(600));
        t.write("repo/sub/deeper/AGENTS.md", "small");
        let i = discover(&t.env("repo/sub/deeper"), None)
            .unwrap()
            .instructions;
        assert!(i.truncated);
        assert_eq!(i.budget_bytes, 1024);
        assert_eq!(i.bytes, 600);
        assert!(!i.text.contains("sss"));
        assert!(!i.text.contains("small"), "discovery must stop, not skip");

        let t2 = Tree::new("budget-default");
        t2.mkdir("repo/.git");
        t2.write("repo/AGENTS.md", &"r".repeat(DEFAULT_BUDGET + 1));
        let i = discover(&t2.env("repo"), None).unwrap().instructions;
        assert!(i.truncated && i.sources.is_empty());
    }

    #[test]
    fn instruction_files_escaping_their_directory_are_refused() {
        let t = Tree::new("escape");
        t.mkdir("repo/.git");
        t.write("secret.txt", "top secret");
        t.symlink(t.path("secret.txt"), "repo/AGENTS.md");
        t.write("repo/sub/real.md", "fine");
        t.symlink("real.md", "repo/sub/AGENTS.md");
        let ctx = discover(&t.env("repo/sub"), None).unwrap();
        assert!(!ctx.instructions.text.contains("top secret"));
        assert!(
            ctx.instructions.text.contains("fine"),
            "a symlink inside the directory is fine"
        );
        assert!(
            ctx.warnings.iter().any(|w| w.contains("resolves outside")),
            "{:?}",
            ctx.warnings
        );

        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "instruction_files": ["../secret.txt"]}"#,
        );
        let err = discover(&t.env("repo/sub"), None).unwrap_err();
        assert_eq!(err.code, crate::shared::error::Code::ManifestInvalid);
    }

    #[test]
    fn the_model_file_must_be_a_regular_non_empty_file_not_a_symlink() {
        let t = Tree::new("modelfile");
        t.write("home/real.md", "model text");
        t.symlink(t.path("home/real.md"), "home/MODEL.md");
        t.write(
            &format!("home/{USER_CONFIG_FILE}"),
            r#"{"version": 1, "model_instructions_file": "~/MODEL.md"}"#,
        );
        t.mkdir("p");
        let ctx = discover(&t.env("p"), None).unwrap();
        assert!(!ctx.instructions.text.contains("model text"));
        assert!(
            ctx.warnings.iter().any(|w| w.contains("symlink")),
            "{:?}",
            ctx.warnings
        );

        std::fs::remove_file(t.path("home/MODEL.md")).unwrap();
        t.write("home/MODEL.md", "");
        let ctx = discover(&t.env("p"), None).unwrap();
        assert!(ctx.instructions.sources.is_empty());
        assert!(ctx.warnings.iter().any(|w| w.contains("empty")));

        t.write("home/MODEL.md", "model text");
        let ctx = discover(&t.env("p"), None).unwrap();
        assert_eq!(
            ctx.instructions.sources[0].kind,
            SourceKind::ModelInstructions
        );
    }

    #[test]
    fn non_utf8_files_are_skipped_for_the_next_candidate() {
        let t = Tree::new("utf8");
        t.mkdir("repo/.git");
        std::fs::write(t.path("repo/AGENTS.override.md"), [0xff, 0xfe, 0x00]).unwrap();
        t.write("repo/AGENTS.md", "fallback");
        let ctx = discover(&t.env("repo"), None).unwrap();
        assert!(ctx.instructions.text.contains("fallback"));
        assert!(ctx.warnings.iter().any(|w| w.contains("UTF-8")));
    }
}
