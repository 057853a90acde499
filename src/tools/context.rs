//! The agent-context tools: the project's instructions, skills and registered commands.
//!
//! Every call discovers afresh, so an edit made a moment ago is in the next answer. The text is
//! short and human readable; `structured` carries the full data.

use std::path::Path;

use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::spec::{Hints, ToolOutput, ToolSpec};
use crate::context::{
    self, Context, ContextEnv, DEFAULT_SKILL_BUDGET, LOAD_THRESHOLD, LoadedSkill, RunResult,
    SkillsView,
};
use crate::error::{Code, Outcome, ToolError};

pub const TOOL_NAMES: [&str; 7] = [
    "session_bootstrap",
    "agent_context",
    "resolve_task_capabilities",
    "list_local_skills",
    "load_local_skill",
    "list_local_commands",
    "run_local_command",
];

const DEFAULT_BOOTSTRAP_CHARS: usize = 40_000;
const MAX_CHARS: usize = 2_200_000;
const DEFAULT_RANK_LIMIT: usize = 5;
const MAX_LIST_LIMIT: usize = 200;

fn path_prop() -> Value {
    json!({"type": "string", "description": "Directory whose context to use (default: the working directory)."})
}

fn object(properties: Value, required: &[&str]) -> Value {
    json!({"type": "object", "properties": properties, "required": required, "additionalProperties": false})
}

fn out_object(properties: Value) -> Option<Value> {
    Some(json!({"type": "object", "properties": properties}))
}

const READ: Hints = Hints {
    read_only: true,
    destructive: false,
    idempotent: true,
    open_world: false,
};

pub fn specs() -> Vec<ToolSpec> {
    let text = json!({"type": "string"});
    let fingerprint = json!({"type": "string", "description": "Changes whenever instructions, skills, commands or their configuration change."});
    let list = json!({"type": "array", "items": {"type": "object"}});
    let strings = json!({"type": "array", "items": {"type": "string"}});
    vec![
        ToolSpec {
            name: "session_bootstrap",
            description: "The project's AGENTS.md instructions, skill and command names, and a refresh fingerprint.",
            input_schema: object(
                json!({"path": path_prop(), "max_chars": {"type": "integer", "minimum": 256, "maximum": MAX_CHARS, "description": "Upper bound on the text, default 40000."}}),
                &[],
            ),
            output_schema: out_object(json!({
                "instructions": text, "instructions_truncated": {"type": "boolean"},
                "refresh_fingerprint": fingerprint, "scope_root": text, "warnings": strings,
            })),
            hints: READ,
        },
        ToolSpec {
            name: "agent_context",
            description: "Instruction chain with sources, skill summaries and registered commands for a path.",
            input_schema: object(
                json!({"path": path_prop(), "skill_budget_chars": {"type": "integer", "minimum": 200, "maximum": 1_000_000, "description": "Characters shared by the skill summaries, default 8000."}}),
                &[],
            ),
            output_schema: out_object(json!({
                "target": text, "scope_root": text, "refresh_fingerprint": fingerprint,
                "instructions": {"type": "object"}, "instructions_truncated": {"type": "boolean"},
                "skills": list, "skills_total": {"type": "integer"}, "skills_truncated": {"type": "boolean"},
                "descriptions_shortened": {"type": "boolean"}, "commands": list, "warnings": strings,
            })),
            hints: READ,
        },
        ToolSpec {
            name: "resolve_task_capabilities",
            description: "Rank local skills and commands for a task; loads the leading skill when relevant enough.",
            input_schema: object(
                json!({
                    "task": {"type": "string", "minLength": 1, "description": "What the agent is about to do."},
                    "path": path_prop(),
                    "known_refresh_fingerprint": {"type": "string", "description": "Skip the instructions when this fingerprint still matches."},
                    "limit": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Skills and commands to return each, default 5."},
                }),
                &["task"],
            ),
            output_schema: out_object(json!({
                "task_tokens": strings, "skills": list, "commands": list,
                "selected_skill": {"type": ["object", "null"]}, "load_threshold": {"type": "number"},
                "refresh_fingerprint": fingerprint, "context_unchanged": {"type": "boolean"},
                "instructions": {"type": ["string", "null"]}, "instructions_truncated": {"type": "boolean"},
            })),
            hints: READ,
        },
        ToolSpec {
            name: "list_local_skills",
            description: "Local skills (name, description, id), best matches first for a query.",
            input_schema: object(
                json!({
                    "query": {"type": "string", "description": "Words to match against names and descriptions."},
                    "path": path_prop(),
                    "limit": {"type": "integer", "minimum": 1, "maximum": MAX_LIST_LIMIT},
                }),
                &[],
            ),
            output_schema: out_object(json!({
                "skills": list, "total": {"type": "integer"}, "skills_truncated": {"type": "boolean"},
                "descriptions_shortened": {"type": "boolean"}, "refresh_fingerprint": fingerprint, "warnings": strings,
            })),
            hints: READ,
        },
        ToolSpec {
            name: "load_local_skill",
            description: "One skill's SKILL.md and file list. Nothing is run.",
            input_schema: object(
                json!({
                    "skill": {"type": "string", "minLength": 1, "description": "The skill's id, exact name, or the path of its directory or SKILL.md."},
                    "path": path_prop(),
                }),
                &["skill"],
            ),
            output_schema: out_object(json!({
                "id": text, "name": text, "description": text, "dir": text, "entrypoint": text,
                "content": text, "files": list, "files_truncated": {"type": "boolean"},
            })),
            hints: READ,
        },
        ToolSpec {
            name: "list_local_commands",
            description: "Commands registered in .tabpilot/agent.json.",
            input_schema: object(json!({"path": path_prop()}), &[]),
            output_schema: out_object(json!({
                "commands": list, "scope_root": text, "refresh_fingerprint": fingerprint, "warnings": strings,
            })),
            hints: READ,
        },
        ToolSpec {
            name: "run_local_command",
            description: "Run a registered command (no shell); returns exit status and output.",
            input_schema: object(
                json!({
                    "name": {"type": "string", "minLength": 1},
                    "args": {"type": "array", "items": {"type": "string"}, "description": "Extra arguments, each passed as one literal argument."},
                    "timeout_seconds": {"type": "integer", "minimum": 1, "maximum": 3600},
                    "path": path_prop(),
                }),
                &["name"],
            ),
            output_schema: out_object(json!({
                "name": text, "argv": strings, "cwd": text,
                "exit_code": {"type": ["integer", "null"]}, "signal": {"type": ["integer", "null"]},
                "timed_out": {"type": "boolean"}, "timeout_seconds": {"type": "integer"},
                "duration_ms": {"type": "integer"}, "stdout": text, "stderr": text,
                "stdout_truncated": {"type": "boolean"}, "stderr_truncated": {"type": "boolean"},
            })),
            hints: Hints {
                read_only: false,
                destructive: true,
                idempotent: false,
                open_world: true,
            },
        },
    ]
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct BootstrapArgs {
    path: Option<String>,
    max_chars: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ContextArgs {
    path: Option<String>,
    skill_budget_chars: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ResolveArgs {
    task: String,
    path: Option<String>,
    known_refresh_fingerprint: Option<String>,
    limit: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ListSkillsArgs {
    query: Option<String>,
    path: Option<String>,
    limit: Option<usize>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LoadArgs {
    skill: String,
    path: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct PathArgs {
    path: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RunArgs {
    name: String,
    #[serde(default)]
    args: Vec<String>,
    timeout_seconds: Option<u64>,
    path: Option<String>,
}

/// Runs one of the seven tools; an unknown name is `BAD_ARGS`.
pub async fn call(name: &str, args: Value, env: &ContextEnv) -> Result<ToolOutput, ToolError> {
    match name {
        "session_bootstrap" => {
            let a: BootstrapArgs = parse(args)?;
            let max = bounded(
                "max_chars",
                a.max_chars,
                256,
                MAX_CHARS,
                DEFAULT_BOOTSTRAP_CHARS,
            )?;
            let ctx = discover(env, a.path).await?;
            Ok(session_bootstrap(&ctx, max))
        }
        "agent_context" => {
            let a: ContextArgs = parse(args)?;
            let budget = bounded(
                "skill_budget_chars",
                a.skill_budget_chars,
                200,
                1_000_000,
                DEFAULT_SKILL_BUDGET,
            )?;
            let ctx = discover(env, a.path).await?;
            Ok(agent_context(&ctx, budget))
        }
        "resolve_task_capabilities" => {
            let a: ResolveArgs = parse(args)?;
            if a.task.trim().is_empty() {
                return Err(ToolError::bad_args("task is empty"));
            }
            let limit = bounded("limit", a.limit, 1, 50, DEFAULT_RANK_LIMIT)?;
            let ctx = discover(env, a.path).await?;
            Ok(resolve(
                &ctx,
                env,
                &a.task,
                a.known_refresh_fingerprint.as_deref(),
                limit,
            ))
        }
        "list_local_skills" => {
            let a: ListSkillsArgs = parse(args)?;
            let limit = bounded("limit", a.limit, 1, MAX_LIST_LIMIT, MAX_LIST_LIMIT)?;
            let ctx = discover(env, a.path).await?;
            Ok(list_skills(&ctx, a.query.as_deref(), limit))
        }
        "load_local_skill" => {
            let a: LoadArgs = parse(args)?;
            let ctx = discover(env, a.path).await?;
            let skill = ctx.load_skill(&a.skill, env)?;
            Ok(ToolOutput::new(skill_text(&skill), to_value(&skill)?))
        }
        "list_local_commands" => {
            let a: PathArgs = parse(args)?;
            let ctx = discover(env, a.path).await?;
            Ok(list_commands(&ctx))
        }
        "run_local_command" => {
            let a: RunArgs = parse(args)?;
            let ctx = discover(env, a.path).await?;
            let result = ctx.run_command(&a.name, &a.args, a.timeout_seconds).await?;
            let mut out = ToolOutput::new(run_text(&result), to_value(&result)?);
            if !result.succeeded() {
                out.outcome = Outcome::Failed;
            }
            Ok(out)
        }
        other => Err(ToolError::bad_args(format!(
            "no agent-context tool is named {other:?}"
        ))),
    }
}

fn parse<T: DeserializeOwned>(args: Value) -> Result<T, ToolError> {
    let args = if args.is_null() { json!({}) } else { args };
    serde_json::from_value(args).map_err(|e| ToolError::bad_args(e.to_string()))
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

fn to_value(data: &impl serde::Serialize) -> Result<Value, ToolError> {
    serde_json::to_value(data)
        .map_err(|e| ToolError::failed(Code::Internal, format!("shaping the result: {e}")))
}

/// Discovery reads files, so it runs off the async workers.
async fn discover(env: &ContextEnv, path: Option<String>) -> Result<Context, ToolError> {
    let env = env.clone();
    tokio::task::spawn_blocking(move || context::discover(&env, path.as_deref().map(Path::new)))
        .await
        .map_err(|e| ToolError::failed(Code::Internal, format!("context discovery stopped: {e}")))?
}

fn session_bootstrap(ctx: &Context, max_chars: usize) -> ToolOutput {
    let full = context::bootstrap_text(ctx, usize::MAX).unwrap_or_default();
    let cut = full.chars().count() > max_chars;
    let text = context::truncate_chars(full, max_chars);
    let structured = json!({
        "instructions": text,
        "instructions_truncated": cut || ctx.instructions.truncated,
        "refresh_fingerprint": ctx.refresh_fingerprint,
        "scope_root": ctx.scope_root,
        "warnings": ctx.warnings,
    });
    let shown = if text.is_empty() {
        format!(
            "No local instructions, skills or commands for {}.\nRefresh fingerprint: {}",
            ctx.target.display(),
            ctx.refresh_fingerprint
        )
    } else {
        text
    };
    ToolOutput::new(shown, structured)
}

fn agent_context(ctx: &Context, skill_budget: usize) -> ToolOutput {
    let view = ctx.skill_summaries(skill_budget);
    let commands: Vec<&context::Command> = ctx.commands.values().collect();
    let structured = json!({
        "target": ctx.target,
        "scope_root": ctx.scope_root,
        "refresh_fingerprint": ctx.refresh_fingerprint,
        "instructions": ctx.instructions,
        "instructions_truncated": ctx.instructions.truncated,
        "skills": view.skills,
        "skills_total": view.total,
        "skills_truncated": view.skills_truncated,
        "descriptions_shortened": view.descriptions_shortened,
        "commands": commands,
        "warnings": ctx.warnings,
    });
    let i = &ctx.instructions;
    let mut text = format!(
        "Context for {} (scope root {})\nRefresh fingerprint: {}\nInstructions: {} bytes from {} files{}\n",
        ctx.target.display(),
        ctx.scope_root.display(),
        ctx.refresh_fingerprint,
        i.bytes,
        i.sources
            .iter()
            .filter(|s| s.kind != context::SourceKind::Manifest)
            .count(),
        if i.truncated {
            format!(", stopped at the {}-byte budget", i.budget_bytes)
        } else {
            String::new()
        },
    );
    for s in &i.sources {
        text.push_str(&format!("  {:?}: {}\n", s.kind, s.path.display()));
    }
    text.push_str(&skills_lines(&view));
    text.push_str(&format!("Commands: {}\n", ctx.commands.len()));
    for c in ctx.commands.values() {
        text.push_str(&format!("  {}: {}\n", c.name, c.description));
    }
    text.push_str(&warning_lines(&ctx.warnings));
    if !i.text.is_empty() {
        text.push('\n');
        text.push_str(&i.text);
    }
    ToolOutput::new(text, structured)
}

fn skills_lines(view: &SkillsView) -> String {
    let mut text = format!("Skills: {}", view.total);
    if view.skills_truncated {
        text.push_str(&format!(" ({} shown)", view.skills.len()));
    }
    text.push('\n');
    for s in &view.skills {
        text.push_str(&format!("  {} [{}]: {}\n", s.name, s.id, s.description));
    }
    text
}

fn warning_lines(warnings: &[String]) -> String {
    warnings.iter().map(|w| format!("Warning: {w}\n")).collect()
}

fn resolve(
    ctx: &Context,
    env: &ContextEnv,
    task: &str,
    known: Option<&str>,
    limit: usize,
) -> ToolOutput {
    let mut ranking = ctx.rank(task);
    ranking.skills.truncate(limit);
    ranking.commands.truncate(limit);
    // A skill that vanished since the ranking read it is simply not loaded.
    let selected: Option<LoadedSkill> = ranking
        .selected_skill
        .as_ref()
        .and_then(|id| ctx.load_skill(id, env).ok());
    let unchanged = known == Some(ctx.refresh_fingerprint.as_str());
    let instructions = (!unchanged).then(|| ctx.instructions.text.clone());
    let structured = json!({
        "task_tokens": ranking.task_tokens,
        "skills": ranking.skills,
        "commands": ranking.commands,
        "selected_skill": selected,
        "load_threshold": LOAD_THRESHOLD,
        "refresh_fingerprint": ctx.refresh_fingerprint,
        "context_unchanged": unchanged,
        "instructions": instructions,
        "instructions_truncated": ctx.instructions.truncated,
    });
    let mut text = String::new();
    let ranked = |kind: &str, list: &[context::Ranked]| -> String {
        if list.is_empty() {
            return format!("No {kind} matches the task.\n");
        }
        let items: Vec<String> = list
            .iter()
            .map(|r| format!("{} ({:.2})", r.name, r.score))
            .collect();
        format!("{}: {}\n", kind, items.join(", "))
    };
    text.push_str(&ranked("Skills", &ranking.skills));
    text.push_str(&ranked("Commands", &ranking.commands));
    text.push_str(&format!(
        "Refresh fingerprint: {}{}\n",
        ctx.refresh_fingerprint,
        if unchanged {
            " (unchanged; instructions omitted)"
        } else {
            ""
        }
    ));
    match &selected {
        Some(skill) => text.push_str(&format!(
            "\nLoaded skill {}:\n\n{}",
            skill.name, skill.content
        )),
        None => text.push_str(&format!(
            "No skill reached the {LOAD_THRESHOLD} relevance threshold; none loaded.\n"
        )),
    }
    if let Some(instructions) = instructions.filter(|i| !i.is_empty()) {
        text.push_str("\n\nInstructions:\n\n");
        text.push_str(&instructions);
    }
    ToolOutput::new(text, structured)
}

fn list_skills(ctx: &Context, query: Option<&str>, limit: usize) -> ToolOutput {
    let query = query.map(str::trim).filter(|q| !q.is_empty());
    let (mut view, scores) = match query {
        None => (ctx.skill_summaries(DEFAULT_SKILL_BUDGET), None),
        Some(q) => {
            let ranking = ctx.rank(q);
            let ordered: Vec<context::Skill> = ranking
                .skills
                .iter()
                .filter_map(|r| ctx.skills.iter().find(|s| s.id == r.id).cloned())
                .collect();
            let scores: Vec<(String, f64)> = ranking
                .skills
                .iter()
                .map(|r| (r.id.clone(), r.score))
                .collect();
            (
                context::summarize_skills(&ordered, DEFAULT_SKILL_BUDGET),
                Some(scores),
            )
        }
    };
    if view.skills.len() > limit {
        view.skills.truncate(limit);
        view.skills_truncated = true;
    }
    let mut skills = to_value(&view.skills).unwrap_or_else(|_| json!([]));
    if let (Some(scores), Some(list)) = (&scores, skills.as_array_mut()) {
        for item in list {
            let score = scores
                .iter()
                .find(|(id, _)| item["id"] == id.as_str())
                .map(|(_, s)| *s);
            item["score"] = json!(score);
        }
    }
    let structured = json!({
        "skills": skills,
        "total": view.total,
        "skills_truncated": view.skills_truncated,
        "descriptions_shortened": view.descriptions_shortened,
        "refresh_fingerprint": ctx.refresh_fingerprint,
        "warnings": ctx.warnings,
    });
    let mut text = match query {
        Some(q) => format!(
            "Skills matching {q:?}: {} of {}\n",
            view.skills.len(),
            ctx.skills.len()
        ),
        None => String::new(),
    };
    if query.is_none() {
        text.push_str(&skills_lines(&view));
    } else {
        for s in &view.skills {
            text.push_str(&format!("  {} [{}]: {}\n", s.name, s.id, s.description));
        }
    }
    text.push_str(&warning_lines(&ctx.warnings));
    ToolOutput::new(text, structured)
}

fn list_commands(ctx: &Context) -> ToolOutput {
    let commands: Vec<&context::Command> = ctx.commands.values().collect();
    let structured = json!({
        "commands": commands,
        "scope_root": ctx.scope_root,
        "refresh_fingerprint": ctx.refresh_fingerprint,
        "warnings": ctx.warnings,
    });
    let mut text = format!("Registered commands: {}\n", commands.len());
    for c in &commands {
        text.push_str(&format!(
            "  {}: {} [{}] timeout {} s{}\n",
            c.name,
            c.description,
            c.argv.join(" "),
            c.timeout_seconds,
            if c.allow_extra_args {
                ", extra args allowed"
            } else {
                ""
            }
        ));
    }
    text.push_str(&warning_lines(&ctx.warnings));
    ToolOutput::new(text, structured)
}

fn skill_text(skill: &LoadedSkill) -> String {
    let files: Vec<&str> = skill.files.iter().map(|f| f.path.as_str()).collect();
    format!(
        "Skill {} [{}] from {}\nFiles: {}{}\n\n{}",
        skill.name,
        skill.id,
        skill.entrypoint.display(),
        files.join(", "),
        if skill.files_truncated { ", ..." } else { "" },
        skill.content
    )
}

fn run_text(r: &RunResult) -> String {
    let how = if r.timed_out {
        format!(
            "timed out after {} s; its process group was killed",
            r.timeout_seconds
        )
    } else if let Some(code) = r.exit_code {
        format!("exited {code}")
    } else {
        format!("was ended by signal {}", r.signal.unwrap_or(0))
    };
    let mut text = format!("Command {} {how} in {} ms.\n", r.name, r.duration_ms);
    for (label, body, cut) in [
        ("stdout", &r.stdout, r.stdout_truncated),
        ("stderr", &r.stderr, r.stderr_truncated),
    ] {
        if !body.is_empty() {
            let note = if cut { " (truncated)" } else { "" };
            text.push_str(&format!("\n{label}{note}:\n{}\n", body.trim_end()));
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

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
                workspace: None,
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

    fn run(name: &str, args: Value, env: &ContextEnv) -> Result<ToolOutput, ToolError> {
        tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap()
            .block_on(call(name, args, env))
    }

    #[test]
    fn specs_cover_the_seven_tools_with_object_schemas() {
        let specs = specs();
        let names: Vec<&str> = specs.iter().map(|s| s.name).collect();
        assert_eq!(names, TOOL_NAMES);
        for s in &specs {
            assert_eq!(s.input_schema["type"], "object");
            assert_eq!(s.input_schema["additionalProperties"], false);
            assert_eq!(s.output_schema.as_ref().unwrap()["type"], "object");
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
            run("browser_click", json!({}), &t.env()).unwrap_err().code,
            Code::BadArgs
        );
        assert_eq!(
            run("session_bootstrap", json!({"max_chars": 5}), &t.env())
                .unwrap_err()
                .code,
            Code::BadArgs
        );
    }

    #[test]
    fn every_tool_answers_over_a_project() {
        let t = project("answers");
        let env = t.env();
        let out = run("session_bootstrap", Value::Null, &env).unwrap();
        assert!(out.text.contains("Always run the linter"));
        let fp = out.structured.as_ref().unwrap()["refresh_fingerprint"]
            .as_str()
            .unwrap()
            .to_string();

        let out = run("agent_context", json!({}), &env).unwrap();
        let s = out.structured.unwrap();
        assert_eq!(s["skills_total"], 2);
        assert_eq!(s["commands"][0]["name"], "hello");
        assert_eq!(s["instructions"]["sources"][1]["kind"], "project");

        let out = run(
            "resolve_task_capabilities",
            json!({"task": "upload this month's supplier invoices"}),
            &env,
        )
        .unwrap();
        let s = out.structured.unwrap();
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
        let s = out.structured.unwrap();
        assert_eq!(s["selected_skill"]["name"], "calendar-booking");
        assert_eq!(s["context_unchanged"], true);
        assert!(s["instructions"].is_null());

        let out = run("list_local_skills", json!({"query": "calendar"}), &env).unwrap();
        let s = out.structured.unwrap();
        assert_eq!(s["skills"].as_array().unwrap().len(), 1);
        assert!(s["skills"][0]["score"].as_f64().unwrap() > 0.0);

        let out = run("load_local_skill", json!({"skill": "invoice-upload"}), &env).unwrap();
        assert!(out.text.contains("Steps."));

        let out = run("list_local_commands", json!({}), &env).unwrap();
        assert!(out.text.contains("hello: say hello [echo hello]"));

        let out = run("run_local_command", json!({"name": "hello"}), &env).unwrap();
        assert_eq!(out.structured.unwrap()["stdout"], "hello\n");
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
