//! The short human text of each agent-context tool's answer.

use crate::controller::context::{
    self, CORROBORATED, Command, Context, LOAD_THRESHOLD, LoadedSkill, RunResult, SkillsView,
};

use super::{BootstrapOut, ResolveOut};

pub(super) fn bootstrap(ctx: &Context, data: &BootstrapOut) -> String {
    if data.instructions.is_empty() {
        format!(
            "No local instructions, skills or commands for {}.\nRefresh fingerprint: {}",
            ctx.target.display(),
            ctx.refresh_fingerprint
        )
    } else {
        data.instructions.clone()
    }
}

pub(super) fn agent_context(ctx: &Context, view: &SkillsView) -> String {
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
    text.push_str(&skills_lines(view));
    text.push_str(&format!("Commands: {}\n", ctx.commands.len()));
    for c in ctx.commands.values() {
        text.push_str(&format!("  {}: {}\n", c.name, c.description));
    }
    text.push_str(&warning_lines(&ctx.warnings));
    if !i.text.is_empty() {
        text.push('\n');
        text.push_str(&i.text);
    }
    text
}

fn skills_lines(view: &SkillsView) -> String {
    let mut text = format!("Skills: {}", view.total);
    if view.skills_truncated {
        text.push_str(&format!(" ({} shown)", view.skills.len()));
    }
    text.push('\n');
    text.push_str(&skill_lines(view));
    text
}

fn skill_lines(view: &SkillsView) -> String {
    view.skills
        .iter()
        .map(|s| format!("  {} [{}]: {}\n", s.name, s.id, s.description))
        .collect()
}

fn warning_lines(warnings: &[String]) -> String {
    warnings.iter().map(|w| format!("Warning: {w}\n")).collect()
}

pub(super) fn resolve(data: &ResolveOut) -> String {
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
    text.push_str(&ranked("Skills", &data.skills));
    text.push_str(&ranked("Commands", &data.commands));
    if let Some(apps) = &data.local_apps {
        text.push_str(&format!(
            "Desktop application ({}): {}{}\n",
            apps.because,
            apps.tools.join(", "),
            apps.how_listed()
        ));
    }
    text.push_str(&format!(
        "Refresh fingerprint: {}{}\n",
        data.refresh_fingerprint,
        if data.context_unchanged {
            " (unchanged; instructions omitted)"
        } else {
            ""
        }
    ));
    match &data.selected_skill {
        Some(skill) => text.push_str(&format!(
            "\nLoaded skill {}:\n\n{}",
            skill.name, skill.content
        )),
        None => text.push_str(&format!(
            "No skill reached the relevance threshold ({LOAD_THRESHOLD}, or {CORROBORATED} with two \
             of its words in the task); none loaded.\n"
        )),
    }
    if let Some(instructions) = data.instructions.as_ref().filter(|i| !i.is_empty()) {
        text.push_str("\n\nInstructions:\n\n");
        text.push_str(instructions);
    }
    text
}

pub(super) fn skills_list(ctx: &Context, query: Option<&str>, view: &SkillsView) -> String {
    let mut text = match query {
        Some(q) => format!(
            "Skills matching {q:?}: {} of {}\n{}",
            view.skills.len(),
            ctx.skills.len(),
            skill_lines(view)
        ),
        None => skills_lines(view),
    };
    text.push_str(&warning_lines(&ctx.warnings));
    text
}

pub(super) fn commands(commands: &[Command], warnings: &[String]) -> String {
    let mut text = format!("Registered commands: {}\n", commands.len());
    for c in commands {
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
    text.push_str(&warning_lines(warnings));
    text
}

pub(super) fn skill(skill: &LoadedSkill) -> String {
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

pub(super) fn run(r: &RunResult) -> String {
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
