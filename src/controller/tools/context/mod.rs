//! The agent-context tools: the project's instructions, skills and registered commands.
//!
//! Every call discovers afresh, so an edit made a moment ago is in the next answer. The data is
//! each tool's output type; `render` writes the short human text from it.

mod apps;
mod old_names;
mod render;

use std::path::PathBuf;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::args::{acts, read_only};
use super::spec::{Cli, Hints, Keeps, Out};
use super::tool::{About, Tool};
use crate::controller::context::{
    self, Command, Context, ContextEnv, DEFAULT_SKILL_BUDGET, Instructions, LOAD_THRESHOLD,
    LoadedSkill, Ranked, RunResult, SkillSummary,
};
use crate::shared::error::{Outcome, ToolError};
use old_names::OldNames;

const DEFAULT_BOOTSTRAP_CHARS: usize = 40_000;
const MAX_CHARS: usize = 2_200_000;
const DEFAULT_RANK_LIMIT: usize = 5;
const MAX_LIST_LIMIT: usize = 200;

pub(super) fn tools() -> Vec<Tool> {
    let mut all = context_tools();
    all.extend(skill_and_command_tools());
    all
}

/// The project's context as a whole: its instructions, and what a task calls for.
fn context_tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "session_bootstrap",
                description: "The project's AGENTS.md instructions, skill and command names, and a refresh fingerprint.",
                hints: read_only(),
                ..About::default()
            },
            |cx, a| session_bootstrap(cx.context_env(), a).boxed(),
        ),
        Tool::new(
            About {
                name: "agent_context",
                description: "Instruction chain with sources, skill summaries and registered commands for a path.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["context"],
                    positional: &["path"],
                    rest: None,
                },
                ..About::default()
            },
            |cx, a| agent_context(cx.context_env(), a).boxed(),
        ),
        Tool::new(
            About {
                name: "resolve_task_capabilities",
                description: "Rank local skills and commands for a task; loads the leading skill when relevant enough.",
                hints: read_only(),
                keeps: Keeps::args(&["task", "knownRefreshFingerprint"]),
                ..About::default()
            },
            |cx, a| resolve(cx.context_env(), a).boxed(),
        ),
    ]
}

/// The project's skills and registered commands, one by one.
fn skill_and_command_tools() -> Vec<Tool> {
    vec![
        Tool::new(
            About {
                name: "list_local_skills",
                description: "Local skills (name, description, id), best matches first for a query.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["skills"],
                    positional: &["query"],
                    rest: None,
                },
                keeps: Keeps::args(&["query"]),
                ..About::default()
            },
            |cx, a| list_skills(cx.context_env(), a).boxed(),
        ),
        Tool::new(
            About {
                name: "load_local_skill",
                description: "One skill's SKILL.md and file list. Nothing is run.",
                hints: read_only(),
                keeps: Keeps::args(&["skill"]),
                ..About::default()
            },
            |cx, a| load_skill(cx.context_env(), a).boxed(),
        ),
        Tool::new(
            About {
                name: "list_local_commands",
                description: "Commands registered in .tabpilot/agent.json.",
                hints: read_only(),
                cli: Cli {
                    aliases: &["commands"],
                    ..Cli::default()
                },
                ..About::default()
            },
            |cx, a| list_commands(cx.context_env(), a).boxed(),
        ),
        Tool::new(
            About {
                name: "run_local_command",
                description: "Run a registered command (no shell); returns exit status and output.",
                hints: Hints { ..acts() },
                cli: Cli {
                    aliases: &["run"],
                    positional: &["name"],
                    rest: Some("args"),
                },
                keeps: Keeps::args(&["name"]),
                ..About::default()
            },
            |cx, a| run_command(cx.context_env(), a).boxed(),
        ),
    ]
}

// Arguments are camelCase like every other tool's; the snake_case names of the first release
// are accepted too, for one more release.

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct BootstrapArgs {
    /// Project directory (default: cwd).
    path: Option<String>,
    /// Default 40000.
    #[serde(alias = "max_chars")]
    #[schemars(range(min = 256, max = 2_200_000))]
    max_chars: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ContextArgs {
    /// Project directory (default: cwd).
    path: Option<String>,
    /// For skill summaries, default 8000.
    #[serde(alias = "skill_budget_chars")]
    #[schemars(range(min = 200, max = 1_000_000))]
    skill_budget_chars: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ResolveArgs {
    /// What the agent is about to do.
    #[schemars(length(min = 1))]
    task: String,
    /// Project directory (default: cwd).
    path: Option<String>,
    /// Skip the instructions when this fingerprint still matches.
    #[serde(alias = "known_refresh_fingerprint")]
    known_refresh_fingerprint: Option<String>,
    /// Of each, default 5.
    #[schemars(range(min = 1, max = 50))]
    limit: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ListSkillsArgs {
    /// Words to match.
    query: Option<String>,
    /// Project directory (default: cwd).
    path: Option<String>,
    #[schemars(range(min = 1, max = 200))]
    limit: Option<usize>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct LoadArgs {
    /// Id, exact name, or path of its folder or SKILL.md.
    #[schemars(length(min = 1))]
    skill: String,
    /// Project directory (default: cwd).
    path: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PathArgs {
    /// Project directory (default: cwd).
    path: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RunArgs {
    #[schemars(length(min = 1))]
    name: String,
    /// Extra arguments, each passed literally.
    #[serde(default)]
    args: Vec<String>,
    #[serde(alias = "timeout_seconds")]
    #[schemars(range(min = 1, max = 3600))]
    timeout_seconds: Option<u64>,
    /// Project directory (default: cwd).
    path: Option<String>,
}

fn bounded(
    name: &str,
    value: Option<usize>,
    min: usize,
    max: usize,
    default: usize,
) -> Result<usize, ToolError> {
    match value {
        None => Ok(default),
        Some(v) if (min..=max).contains(&v) => Ok(v),
        Some(v) => Err(ToolError::bad_args(format!(
            "{name} must be {min} to {max}, not {v}"
        ))),
    }
}

/// Discovery reads files, so it runs off the async workers (`context::discovered`).
async fn discover(env: &ContextEnv, path: Option<String>) -> Result<Context, ToolError> {
    context::discovered(env, path.map(PathBuf::from)).await
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct BootstrapOut {
    instructions: String,
    instructions_truncated: bool,
    /// Changes whenever instructions, skills, commands or their configuration change.
    refresh_fingerprint: String,
    scope_root: PathBuf,
    warnings: Vec<String>,
}

async fn session_bootstrap(
    env: &ContextEnv,
    a: BootstrapArgs,
) -> Result<Out<OldNames<BootstrapOut>>, ToolError> {
    let max = bounded(
        "maxChars",
        a.max_chars,
        256,
        MAX_CHARS,
        DEFAULT_BOOTSTRAP_CHARS,
    )?;
    let ctx = discover(env, a.path).await?;
    let full = context::bootstrap_text(&ctx, usize::MAX).unwrap_or_default();
    let cut = full.chars().count() > max;
    let data = BootstrapOut {
        instructions: context::truncate_chars(full, max),
        instructions_truncated: cut || ctx.instructions.truncated,
        refresh_fingerprint: ctx.refresh_fingerprint.clone(),
        scope_root: ctx.scope_root.clone(),
        warnings: ctx.warnings.clone(),
    };
    Ok(Out::new(render::bootstrap(&ctx, &data), OldNames(data)))
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ContextOut {
    target: PathBuf,
    scope_root: PathBuf,
    refresh_fingerprint: String,
    instructions: Instructions,
    instructions_truncated: bool,
    skills: Vec<SkillSummary>,
    skills_total: usize,
    skills_truncated: bool,
    descriptions_shortened: bool,
    commands: Vec<Command>,
    warnings: Vec<String>,
}

async fn agent_context(
    env: &ContextEnv,
    a: ContextArgs,
) -> Result<Out<OldNames<ContextOut>>, ToolError> {
    let budget = bounded(
        "skillBudgetChars",
        a.skill_budget_chars,
        200,
        1_000_000,
        DEFAULT_SKILL_BUDGET,
    )?;
    let ctx = discover(env, a.path).await?;
    let view = ctx.skill_summaries(budget);
    let data = ContextOut {
        target: ctx.target.clone(),
        scope_root: ctx.scope_root.clone(),
        refresh_fingerprint: ctx.refresh_fingerprint.clone(),
        instructions_truncated: ctx.instructions.truncated,
        instructions: ctx.instructions.clone(),
        skills: view.skills.clone(),
        skills_total: view.total,
        skills_truncated: view.skills_truncated,
        descriptions_shortened: view.descriptions_shortened,
        commands: ctx.commands.values().cloned().collect(),
        warnings: ctx.warnings.clone(),
    };
    Ok(Out::new(render::agent_context(&ctx, &view), OldNames(data)))
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ResolveOut {
    task_tokens: Vec<String>,
    skills: Vec<Ranked>,
    commands: Vec<Ranked>,
    /// The leading skill, loaded, when it reached the threshold.
    selected_skill: Option<LoadedSkill>,
    load_threshold: f64,
    refresh_fingerprint: String,
    context_unchanged: bool,
    /// The instructions, unless the caller's fingerprint still matches.
    instructions: Option<String>,
    instructions_truncated: bool,
    /// The local-application tools, when the task names a desktop application.
    #[serde(skip_serializing_if = "Option::is_none")]
    local_apps: Option<apps::AppTools>,
}

async fn resolve(env: &ContextEnv, a: ResolveArgs) -> Result<Out<OldNames<ResolveOut>>, ToolError> {
    if a.task.trim().is_empty() {
        return Err(ToolError::bad_args("task is empty"));
    }
    let limit = bounded("limit", a.limit, 1, 50, DEFAULT_RANK_LIMIT)?;
    let ctx = discover(env, a.path).await?;
    let mut ranking = ctx.rank(&a.task);
    ranking.skills.truncate(limit);
    ranking.commands.truncate(limit);
    // A skill that vanished since the ranking read it is simply not loaded.
    let selected = ranking
        .selected_skill
        .as_ref()
        .and_then(|id| ctx.load_skill(id, env).ok());
    let unchanged =
        a.known_refresh_fingerprint.as_deref() == Some(ctx.refresh_fingerprint.as_str());
    let data = ResolveOut {
        task_tokens: ranking.task_tokens,
        skills: ranking.skills,
        commands: ranking.commands,
        selected_skill: selected,
        load_threshold: LOAD_THRESHOLD,
        refresh_fingerprint: ctx.refresh_fingerprint.clone(),
        context_unchanged: unchanged,
        instructions: (!unchanged).then(|| ctx.instructions.text.clone()),
        instructions_truncated: ctx.instructions.truncated,
        local_apps: apps::local_apps(&a.task).await,
    };
    Ok(Out::new(render::resolve(&data), OldNames(data)))
}

/// A skill as a list shows it, with its match score for a query.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ListedSkill {
    #[serde(flatten)]
    skill: SkillSummary,
    #[serde(skip_serializing_if = "Option::is_none")]
    score: Option<f64>,
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct SkillsOut {
    skills: Vec<ListedSkill>,
    total: usize,
    skills_truncated: bool,
    descriptions_shortened: bool,
    refresh_fingerprint: String,
    warnings: Vec<String>,
}

async fn list_skills(
    env: &ContextEnv,
    a: ListSkillsArgs,
) -> Result<Out<OldNames<SkillsOut>>, ToolError> {
    let limit = bounded("limit", a.limit, 1, MAX_LIST_LIMIT, MAX_LIST_LIMIT)?;
    let ctx = discover(env, a.path).await?;
    let query = a.query.as_deref().map(str::trim).filter(|q| !q.is_empty());
    let (mut view, scores) = match query {
        None => (ctx.skill_summaries(DEFAULT_SKILL_BUDGET), Vec::new()),
        Some(q) => {
            let ranking = ctx.rank(q);
            let ordered: Vec<context::Skill> = ranking
                .skills
                .iter()
                .filter_map(|r| ctx.skills.iter().find(|s| s.id == r.id).cloned())
                .collect();
            let scores = ranking
                .skills
                .into_iter()
                .map(|r| (r.id, r.score))
                .collect();
            (
                context::summarize_skills(&ordered, DEFAULT_SKILL_BUDGET),
                scores,
            )
        }
    };
    if view.skills.len() > limit {
        view.skills.truncate(limit);
        view.skills_truncated = true;
    }
    let text = render::skills_list(&ctx, query, &view);
    let skills = view
        .skills
        .into_iter()
        .map(|skill| ListedSkill {
            score: scores
                .iter()
                .find(|(id, _)| *id == skill.id)
                .map(|(_, s)| *s),
            skill,
        })
        .collect();
    let data = SkillsOut {
        skills,
        total: view.total,
        skills_truncated: view.skills_truncated,
        descriptions_shortened: view.descriptions_shortened,
        refresh_fingerprint: ctx.refresh_fingerprint.clone(),
        warnings: ctx.warnings.clone(),
    };
    Ok(Out::new(text, OldNames(data)))
}

async fn load_skill(
    env: &ContextEnv,
    a: LoadArgs,
) -> Result<Out<OldNames<LoadedSkill>>, ToolError> {
    let ctx = discover(env, a.path).await?;
    let skill = ctx.load_skill(&a.skill, env)?;
    Ok(Out::new(render::skill(&skill), OldNames(skill)))
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct CommandsOut {
    commands: Vec<Command>,
    scope_root: PathBuf,
    refresh_fingerprint: String,
    warnings: Vec<String>,
}

async fn list_commands(
    env: &ContextEnv,
    a: PathArgs,
) -> Result<Out<OldNames<CommandsOut>>, ToolError> {
    let ctx = discover(env, a.path).await?;
    let data = CommandsOut {
        commands: ctx.commands.values().cloned().collect(),
        scope_root: ctx.scope_root.clone(),
        refresh_fingerprint: ctx.refresh_fingerprint.clone(),
        warnings: ctx.warnings.clone(),
    };
    Ok(Out::new(
        render::commands(&data.commands, &ctx.warnings),
        OldNames(data),
    ))
}

async fn run_command(env: &ContextEnv, a: RunArgs) -> Result<Out<OldNames<RunResult>>, ToolError> {
    let ctx = discover(env, a.path).await?;
    let result = ctx.run_command(&a.name, &a.args, a.timeout_seconds).await?;
    let outcome = if result.succeeded() {
        Outcome::Done
    } else {
        Outcome::Failed
    };
    Ok(Out::new(render::run(&result), OldNames(result)).with_outcome(outcome))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::tools::ctx::Ctx;
    use crate::controller::tools::spec::ToolOutput;
    use crate::shared::error::Code;
    use serde_json::{Value, json};

    struct Tree(std::path::PathBuf);

    impl Tree {
        fn new(tag: &str) -> Tree {
            let dir = std::env::temp_dir()
                .join(format!("tabpilot-tools-ctx-{tag}-{}", std::process::id()));
            let _ = std::fs::remove_dir_all(&dir);
            std::fs::create_dir_all(dir.join("home")).unwrap();
            std::fs::create_dir_all(dir.join("repo/.git")).unwrap();
            Tree(std::fs::canonicalize(dir).unwrap())
        }

        fn write(&self, rel: &str, text: &str) {
            let path = self.0.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }

        fn env(&self) -> ContextEnv {
            ContextEnv {
                home: self.0.join("home"),
                codex_home: None,
                workspaces: Vec::new(),
                cwd: self.0.join("repo"),
            }
        }
    }

    impl Drop for Tree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }

    fn project(tag: &str) -> Tree {
        let t = Tree::new(tag);
        t.write("repo/AGENTS.md", "Always run the linter before committing.");
        t.write(
            "repo/.agents/skills/invoice/SKILL.md",
            "---\nname: invoice-upload\ndescription: Upload supplier invoices to the accounting portal\n---\nSteps.",
        );
        t.write(
            "repo/.agents/skills/calendar/SKILL.md",
            "---\nname: calendar-booking\ndescription: Book a meeting room in the calendar\n---\nOther steps.",
        );
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "commands": {"hello": {"description": "say hello", "argv": ["echo", "hello"]}}}"#,
        );
        t
    }

    const TOOL_NAMES: [&str; 7] = [
        "session_bootstrap",
        "agent_context",
        "resolve_task_capabilities",
        "list_local_skills",
        "load_local_skill",
        "list_local_commands",
        "run_local_command",
    ];

    /// Runs a tool through the registry, as the MCP server and the CLI do.
    fn run(name: &str, args: Value, env: &ContextEnv) -> Result<ToolOutput, ToolError> {
        let cx = Ctx::offline(env.clone());
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(
                crate::controller::tools::registry::get(name)
                    .unwrap()
                    .call(&cx, args),
            )
    }

    #[test]
    fn specs_cover_the_seven_tools_with_object_schemas() {
        let specs: Vec<_> = tools().into_iter().map(|t| t.spec).collect();
        let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        assert_eq!(names, TOOL_NAMES);
        for s in &specs {
            assert_eq!(s.input_schema["type"], "object");
            assert_eq!(s.input_schema["additionalProperties"], false);
            assert_eq!(s.output_schema["type"], "object");
            assert_eq!(
                s.hints.read_only,
                s.name != "run_local_command",
                "{}",
                s.name
            );
        }
        let run = specs
            .iter()
            .find(|s| s.name == "run_local_command")
            .unwrap();
        assert!(run.hints.destructive && run.hints.open_world);
    }

    #[test]
    fn the_old_snake_case_argument_names_still_work() {
        let t = project("aliases");
        let out = run("session_bootstrap", json!({"max_chars": 300}), &t.env()).unwrap();
        assert!(out.text.chars().count() <= 300);
        let err = run("session_bootstrap", json!({"max_chars": 5}), &t.env()).unwrap_err();
        assert_eq!(err.code, Code::BadArgs);
        let out = run("session_bootstrap", json!({"maxChars": 300}), &t.env()).unwrap();
        assert!(out.text.chars().count() <= 300);
    }

    #[test]
    fn unknown_argument_fields_are_bad_args() {
        let t = project("unknown");
        for name in TOOL_NAMES {
            let err = run(
                name,
                json!({"name": "x", "task": "x", "skill": "x", "bogus": 1}),
                &t.env(),
            )
            .unwrap_err();
            assert_eq!(err.code, Code::BadArgs, "{name}");
            assert!(err.message.contains("bogus"), "{name}: {}", err.message);
        }
        assert_eq!(
            run("session_bootstrap", json!({"max_chars": 5}), &t.env())
                .unwrap_err()
                .code,
            Code::BadArgs
        );
    }

    // The project's registered command runs `echo`, a Unix program.
    #[cfg(unix)]
    #[test]
    fn every_tool_answers_over_a_project() {
        let t = project("answers");
        let env = t.env();
        let out = run("session_bootstrap", Value::Null, &env).unwrap();
        assert!(out.text.contains("Always run the linter"));
        let fp = out.structured["refresh_fingerprint"]
            .as_str()
            .unwrap()
            .to_string();

        let out = run("agent_context", json!({}), &env).unwrap();
        let s = out.structured;
        assert_eq!(s["skills_total"], 2);
        assert_eq!(s["commands"][0]["name"], "hello");
        assert_eq!(s["instructions"]["sources"][1]["kind"], "project");

        let out = run(
            "resolve_task_capabilities",
            json!({"task": "upload this month's supplier invoices"}),
            &env,
        )
        .unwrap();
        let s = out.structured;
        assert_eq!(s["skills"][0]["name"], "invoice-upload");
        assert_eq!(s["selected_skill"]["name"], "invoice-upload");
        assert_eq!(s["context_unchanged"], false);
        assert!(s["instructions"].as_str().unwrap().contains("linter"));
        let out = run(
            "resolve_task_capabilities",
            json!({"task": "book a meeting room", "known_refresh_fingerprint": fp}),
            &env,
        )
        .unwrap();
        let s = out.structured;
        assert_eq!(s["selected_skill"]["name"], "calendar-booking");
        assert_eq!(s["context_unchanged"], true);
        assert!(s["instructions"].is_null());

        let out = run("list_local_skills", json!({"query": "calendar"}), &env).unwrap();
        let s = out.structured;
        assert_eq!(s["skills"].as_array().unwrap().len(), 1);
        assert!(s["skills"][0]["score"].as_f64().unwrap() > 0.0);

        let out = run("load_local_skill", json!({"skill": "invoice-upload"}), &env).unwrap();
        assert!(out.text.contains("Steps."));

        let out = run("list_local_commands", json!({}), &env).unwrap();
        assert!(out.text.contains("hello: say hello [echo hello]"));

        let out = run("run_local_command", json!({"name": "hello"}), &env).unwrap();
        assert_eq!(out.structured["stdout"], "hello\n");
        assert_eq!(out.outcome, Outcome::Done);
        let err = run(
            "run_local_command",
            json!({"name": "hello", "args": ["x"]}),
            &env,
        )
        .unwrap_err();
        assert_eq!(err.code, Code::BadArgs);
        assert_eq!(err.outcome, Outcome::Refused);
    }

    #[test]
    fn an_invalid_manifest_is_manifest_invalid() {
        let t = project("invalid");
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "comands": {}}"#,
        );
        let err = run("agent_context", json!({}), &t.env()).unwrap_err();
        assert_eq!(err.code, Code::ManifestInvalid);
        assert!(err.text().contains("Recover: call agent_context"));
    }
}
