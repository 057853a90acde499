//! The refresh fingerprint: one hash over everything an answer depends on, so a client can tell
//! in one comparison whether its copy of the context is still current.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde_json::json;

use super::commands::Command;
use super::instructions::Instructions;
use super::manifest::{UserConfig, sha256_hex};
use super::skills::Skill;

/// Prefixed with its version so a change to what is hashed can never be mistaken for no change.
pub(super) fn compute(
    scope_root: &Path,
    target: &Path,
    user: &UserConfig,
    instructions: &Instructions,
    skill_roots: &[PathBuf],
    skills: &[Skill],
    commands: &BTreeMap<String, Command>,
) -> String {
    let value = json!({
        "scope_root": scope_root,
        "target": target,
        "user_config": user.sha256,
        "instructions": {
            "sources": instructions.sources.iter().map(|s| json!([s.kind, s.path, s.sha256])).collect::<Vec<_>>(),
            "budget": instructions.budget_bytes,
            "truncated": instructions.truncated,
        },
        "skill_roots": skill_roots,
        "skills": skills.iter().map(|s| json!([s.id, s.name, s.dir, s.sha256])).collect::<Vec<_>>(),
        "commands": commands,
    });
    let bytes = serde_json::to_vec(&value).unwrap_or_default();
    format!("ctx1-{}", &sha256_hex(&bytes)[..16])
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::discover;
    use super::super::testutil::Tree;

    #[test]
    fn it_is_stable_and_changes_with_instructions_commands_and_configuration() {
        let t = Tree::new("fingerprint");
        t.mkdir("repo/.git");
        t.write("repo/AGENTS.md", "one");
        let env = t.env("repo");
        let fp = || discover(&env, None).unwrap().refresh_fingerprint;
        let first = fp();
        assert!(first.starts_with("ctx1-") && first.len() == 21);
        assert_eq!(fp(), first);

        let mut seen = vec![first];
        let mut changed = |what: &str| {
            let now = fp();
            assert!(
                !seen.contains(&now),
                "{what} did not change the fingerprint"
            );
            seen.push(now);
        };
        t.write("repo/AGENTS.md", "two");
        changed("an instruction edit");
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "commands": {"t": {"argv": ["true"]}}}"#,
        );
        changed("a new manifest");
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "commands": {"t": {"argv": ["true"], "timeout_seconds": 5}}}"#,
        );
        changed("a command definition");
        t.write("home/.config/tabpilot/agent.json", r#"{"version": 1}"#);
        changed("the user's configuration");
    }
}
