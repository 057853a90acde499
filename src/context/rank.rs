//! Ranking skills and commands for a task by shared words: deterministic, explainable, and free
//! of any model. Each task word scores by the best field it appears in (a name counts most), and
//! the total is divided by the number of task words, so scores fall in 0..=1.

use std::collections::{BTreeMap, BTreeSet};

use serde::Serialize;

use super::commands::Command;
use super::skills::Skill;

/// The leading skill is loaded only at or above this score.
pub const LOAD_THRESHOLD: f64 = 0.3;
const NAME: f64 = 1.0;
const DESCRIPTION: f64 = 0.6;
const ARGV: f64 = 0.5;

const STOPWORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "by", "can", "do", "for", "from", "how", "i", "in",
    "into", "is", "it", "me", "my", "of", "on", "or", "our", "please", "so", "that", "the", "then",
    "this", "to", "up", "use", "we", "what", "when", "with", "you", "your",
];

#[derive(Clone, Debug, Serialize, PartialEq, schemars::JsonSchema)]
pub struct Ranked {
    /// A skill's id or a command's name.
    pub id: String,
    pub name: String,
    pub description: String,
    pub score: f64,
    /// The task words that matched, for the reader to judge.
    pub matched: Vec<String>,
}

#[derive(Clone, Debug, Serialize)]
pub struct Ranking {
    pub task_tokens: Vec<String>,
    /// Skills with a score above zero, best first (ties by name).
    pub skills: Vec<Ranked>,
    pub commands: Vec<Ranked>,
    /// The id of the leading skill when it clears [`LOAD_THRESHOLD`].
    pub selected_skill: Option<String>,
}

/// Lower-cased words of two or more letters or digits, stopwords dropped, plural and common
/// verb endings stripped so "tests", "testing" and "test" meet.
pub(super) fn tokens(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .map(str::to_lowercase)
        .filter(|w| w.chars().count() >= 2 && !STOPWORDS.contains(&w.as_str()))
        .map(|w| stem(&w).to_string())
        .collect()
}

fn stem(word: &str) -> &str {
    for (suffix, min_stem) in [("ing", 4), ("ed", 3), ("s", 3)] {
        if let Some(stem) = word.strip_suffix(suffix)
            && stem.len() >= min_stem
            && !stem.ends_with('s')
        {
            return stem;
        }
    }
    word
}

fn score(task: &BTreeSet<String>, fields: &[(BTreeSet<String>, f64)]) -> (f64, Vec<String>) {
    if task.is_empty() {
        return (0.0, Vec::new());
    }
    let mut total = 0.0;
    let mut matched = Vec::new();
    for word in task {
        let best = fields
            .iter()
            .filter(|(words, _)| words.contains(word))
            .map(|(_, weight)| *weight)
            .fold(0.0, f64::max);
        if best > 0.0 {
            total += best;
            matched.push(word.clone());
        }
    }
    // Rounded so that equal scores compare equal and the order is stable.
    (
        (total / task.len() as f64 * 1000.0).round() / 1000.0,
        matched,
    )
}

fn sorted(mut list: Vec<Ranked>) -> Vec<Ranked> {
    list.retain(|r| r.score > 0.0);
    list.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.name.cmp(&b.name))
    });
    list
}

pub(super) fn rank(task: &str, skills: &[Skill], commands: &BTreeMap<String, Command>) -> Ranking {
    let task_tokens = tokens(task);
    let skills = sorted(
        skills
            .iter()
            .map(|s| {
                let fields = [
                    (tokens(&s.name), NAME),
                    (tokens(&s.description), DESCRIPTION),
                ];
                let (score, matched) = score(&task_tokens, &fields);
                Ranked {
                    id: s.id.clone(),
                    name: s.name.clone(),
                    description: s.description.clone(),
                    score,
                    matched,
                }
            })
            .collect(),
    );
    let commands = sorted(
        commands
            .values()
            .map(|c| {
                let fields = [
                    (tokens(&c.name), NAME),
                    (tokens(&c.description), DESCRIPTION),
                    (tokens(&c.argv.join(" ")), ARGV),
                ];
                let (score, matched) = score(&task_tokens, &fields);
                Ranked {
                    id: c.name.clone(),
                    name: c.name.clone(),
                    description: c.description.clone(),
                    score,
                    matched,
                }
            })
            .collect(),
    );
    let selected_skill = skills
        .first()
        .filter(|s| s.score >= LOAD_THRESHOLD)
        .map(|s| s.id.clone());
    Ranking {
        task_tokens: task_tokens.into_iter().collect(),
        skills,
        commands,
        selected_skill,
    }
}

#[cfg(test)]
mod tests {
    use super::super::discover;
    use super::super::testutil::Tree;
    use super::*;

    #[test]
    fn tokens_are_lowercased_stemmed_and_stopword_free() {
        let got: Vec<String> = tokens("Run the Tests, testing & tested: PDF-forms x")
            .into_iter()
            .collect();
        assert_eq!(got, ["form", "pdf", "run", "test"]);
        assert!(
            tokens("class process").contains("class"),
            "no stripping after an s"
        );
    }

    fn tree() -> Tree {
        let t = Tree::new("rank");
        t.mkdir("repo/.git");
        t.skill(
            "repo/.agents/skills/a",
            "expense-report",
            "Fill in and submit the expense report form on the intranet",
        );
        t.skill(
            "repo/.agents/skills/b",
            "release-notes",
            "Write release notes from merged pull requests",
        );
        t.skill(
            "repo/.agents/skills/c",
            "screenshot-diff",
            "Compare page screenshots before and after a change",
        );
        t.write(
            "repo/.tabpilot/agent.json",
            r#"{"version": 1, "commands": {
                "e2e": {"description": "browser end-to-end tests", "argv": ["npm", "run", "e2e"]},
                "lint": {"description": "lint the code", "argv": ["npm", "run", "lint"]}}}"#,
        );
        t
    }

    #[test]
    fn the_right_skill_leads_and_is_selected() {
        let t = tree();
        let ctx = discover(&t.env("repo"), None).unwrap();
        let r = ctx.rank("Submit my expense report for March");
        assert_eq!(r.skills[0].name, "expense-report");
        assert_eq!(r.selected_skill.as_deref(), Some(r.skills[0].id.as_str()));
        let r = ctx.rank("compare screenshots of the checkout page");
        assert_eq!(r.skills[0].name, "screenshot-diff");
        assert!(r.selected_skill.is_some());
        let r = ctx.rank("run the end-to-end browser tests");
        assert_eq!(r.commands[0].name, "e2e");
        // Deterministic: the same task gives the same answer.
        assert_eq!(
            ctx.rank("run the end-to-end browser tests").commands,
            r.commands
        );
    }

    #[test]
    fn a_weak_match_is_ranked_but_not_selected() {
        let t = tree();
        let ctx = discover(&t.env("repo"), None).unwrap();
        let r = ctx.rank("book a flight to Lisbon and check the weather and the hotel page");
        assert!(
            r.skills.iter().all(|s| s.score < LOAD_THRESHOLD),
            "{:?}",
            r.skills
        );
        assert_eq!(r.selected_skill, None);
        assert!(ctx.rank("").skills.is_empty());
    }
}
