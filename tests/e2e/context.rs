//! The project's own context through `tabpilot mcp`: the initialize instructions and task ranking.

use std::path::{Path, PathBuf};

use serde_json::json;

use crate::harness::{Env, Mcp};

fn tree(name: &str) -> (PathBuf, PathBuf) {
    let root = std::env::temp_dir().join(format!("tabpilot-ctx-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    let project = root.join("project");
    let home = root.join("home");
    std::fs::create_dir_all(project.join(".git")).unwrap();
    std::fs::create_dir_all(&home).unwrap();
    (project, home)
}

fn skill(project: &Path, dir: &str, name: &str, description: &str) {
    let d = project.join(".agents/skills").join(dir);
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("SKILL.md"),
        format!(
            "---\nname: {name}\ndescription: {description}\n---\n# {name}\nSteps for {name}.\n"
        ),
    )
    .unwrap();
}

#[test]
fn initialize_instructions_carry_the_projects_agents_md() {
    let (project, home) = tree("init");
    std::fs::write(
        project.join("AGENTS.md"),
        "Run `make check` before every commit; fixtures live in web/fixtures.\n",
    )
    .unwrap();
    let env = Env::fresh("ctx-init");
    let mcp = Mcp::start_in(&env, &project, &home);
    assert!(
        mcp.instructions
            .contains("Run `make check` before every commit"),
        "{}",
        mcp.instructions
    );
    assert!(
        mcp.instructions.contains("browser_navigate"),
        "the static instructions were lost"
    );
}

#[test]
fn initialize_falls_back_to_the_static_instructions_without_a_project() {
    let (project, home) = tree("bare");
    let env = Env::fresh("ctx-bare");
    let mcp = Mcp::start_in(&env, &project, &home);
    assert!(
        mcp.instructions
            .starts_with("tabpilot drives real browser tabs"),
        "{}",
        mcp.instructions
    );
}

#[test]
fn resolve_task_capabilities_picks_the_right_skill_among_several() {
    let (project, home) = tree("rank");
    skill(
        &project,
        "pdf-export",
        "pdf-export",
        "Export a report page to PDF with print styles",
    );
    skill(
        &project,
        "db-migrate",
        "db-migrate",
        "Create and apply a database schema migration",
    );
    skill(
        &project,
        "visual-diff",
        "visual-diff",
        "Compare screenshots of a page before and after a change",
    );
    let env = Env::fresh("ctx-rank");
    let mut mcp = Mcp::start_in(&env, &project, &home);
    let (_, data) = mcp.ok(
        "resolve_task_capabilities",
        json!({"task": "apply the new database migration"}),
    );
    assert_eq!(data["selected_skill"]["name"], "db-migrate", "{data}");
    assert!(
        data["selected_skill"]["content"]
            .as_str()
            .unwrap()
            .contains("Steps for db-migrate")
    );
    let (_, data) = mcp.ok(
        "resolve_task_capabilities",
        json!({"task": "compare screenshots before and after"}),
    );
    assert_eq!(data["selected_skill"]["name"], "visual-diff", "{data}");
    // A skill written between two calls is there in the next one, without a restart.
    skill(
        &project,
        "release-notes",
        "release-notes",
        "Draft release notes from merged changes",
    );
    let (_, data) = mcp.ok("list_local_skills", json!({}));
    assert_eq!(data["total"], 4, "{data}");
}

#[test]
fn the_terminal_gets_the_same_context_and_runs_registered_commands_without_a_shell() {
    let (project, home) = tree("cli");
    std::fs::write(
        project.join("AGENTS.md"),
        "Use the staging server for manual checks.\n",
    )
    .unwrap();
    skill(
        &project,
        "db-migrate",
        "db-migrate",
        "Create and apply a database schema migration",
    );
    std::fs::create_dir_all(project.join(".tabpilot")).unwrap();
    std::fs::write(
        project.join(".tabpilot/agent.json"),
        r#"{"version": 1, "commands": {"say": {"description": "Echo words", "argv": ["echo", "said:"], "allow_extra_args": true}}}"#,
    )
    .unwrap();
    let env = Env::fresh("ctx-cli");
    let run = |args: &[&str]| {
        let out = env
            .command(args)
            .current_dir(&project)
            .env("HOME", &home)
            .env_remove("CODEX_HOME")
            .output()
            .unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).to_string(),
            String::from_utf8_lossy(&out.stderr).to_string(),
        )
    };
    let (ok, out, err) = run(&["context"]);
    assert!(ok, "{err}");
    assert!(out.contains("Use the staging server"), "{out}");
    let (ok, out, _) = run(&["skills", "migration"]);
    assert!(ok && out.contains("db-migrate"), "{out}");
    let (ok, out, _) = run(&["commands"]);
    assert!(ok && out.contains("say"), "{out}");
    let (ok, out, err) = run(&["run", "say", "a; rm -rf /tmp/nothing", "$(id)"]);
    assert!(ok, "{err}");
    assert!(out.contains("said: a; rm -rf /tmp/nothing $(id)"), "{out}");
    let (ok, _, err) = run(&["run", "nope"]);
    assert!(!ok && err.starts_with("NOT_FOUND: "), "{err}");
}
