//! Ranking skills and commands for a task by shared words: deterministic, explainable, and free
//! of any model.
//!
//! Words are lower-cased, stemmed (Snowball English) and mapped through a short table of the
//! synonyms and abbreviations developers write ("db", "a11y", "stub"), so "migrate the DB" meets
//! "database migration"; a word reached through the table weighs half, since the table guesses.
//! An instance stands for its kind (an email address is a user; a weekday or a clock time is a
//! time). Each word weighs by how rare it is among the candidates (a word every skill has says
//! little) and by the best field it appears in (a name counts most). A candidate's score is the
//! harmonic mean of two coverages: how much of its own words the task names, and how much of the
//! task its words explain, where a task word no candidate has (a place, a sum, a name) is context
//! and counts little against it. A long, specific task ("add an email column to the users table")
//! still loads the migration skill it plainly asks for, and a task that shares one word with a
//! skill ("book a flight", "a screenshot for the ticket") loads nothing: one word is weak
//! evidence, two are not.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use rust_stemmers::{Algorithm, Stemmer};
use serde::Serialize;

use super::commands::Command;
use super::skills::Skill;

/// The leading skill is loaded only at or above this score; tuned on the test set in
/// `rank_cases.rs` (its accuracy and false loads are printed there).
pub const LOAD_THRESHOLD: f64 = 0.3;
/// The threshold for a lead that two or more of the task's words agree on.
pub const CORROBORATED: f64 = 0.2;
const NAME: f64 = 1.0;
const DESCRIPTION: f64 = 0.6;
const ARGV: f64 = 0.5;
const CONTEXT: f64 = 1.0;
const SYNONYM: f64 = 0.5;

const STOPWORDS: &[&str] = &[
    "a", "about", "after", "all", "an", "and", "any", "are", "as", "at", "be", "before", "but",
    "by", "can", "could", "do", "does", "for", "from", "get", "given", "have", "how", "i", "if",
    "in", "into", "is", "it", "its", "just", "let", "me", "my", "need", "new", "of", "on", "or",
    "our", "out", "please", "so", "some", "that", "the", "their", "them", "then", "there", "these",
    "they", "this", "those", "to", "up", "us", "use", "want", "we", "what", "when", "where",
    "which", "why", "will", "with", "would", "you", "your",
];

/// Words developers write for the same thing, by stem: each maps to the stems it stands for.
const SYNONYMS: &[(&str, &[&str])] = &[
    ("db", &["databas"]),
    ("pr", &["pull", "request"]),
    ("prs", &["pull", "request"]),
    ("changelog", &["releas", "note"]),
    ("a11i", &["access"]),
    ("a11y", &["access"]),
    ("stub", &["mock"]),
    ("fake", &["mock"]),
    ("bill", &["invoic"]),
    ("receipt", &["expens"]),
    ("reserv", &["book"]),
    ("schedul", &["book"]),
    ("confer", &["meet"]),
    ("login", &["sign"]),
    ("signin", &["sign"]),
    ("logon", &["sign"]),
    ("auth", &["sign"]),
    ("authent", &["sign"]),
    ("i18n", &["translat"]),
    ("l10n", &["translat"]),
    ("slowli", &["slow"]),
    ("teammat", &["user"]),
    ("member", &["user"]),
    ("colleagu", &["user"]),
    ("enabl", &["turn"]),
    ("disabl", &["turn"]),
    ("toggl", &["turn"]),
    ("visual", &["screenshot"]),
];

#[derive(Clone, Debug, Serialize, PartialEq, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
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

fn stemmer() -> &'static Stemmer {
    static STEMMER: OnceLock<Stemmer> = OnceLock::new();
    STEMMER.get_or_init(|| Stemmer::create(Algorithm::English))
}

/// Lower-cased, stemmed words of two or more letters or digits, stopwords dropped and synonyms
/// mapped, so "tests", "testing" and "test" meet, and so do "DB" and "database"; each with how
/// surely it is what the text says: a word written weighs 1, a word reached through the synonym
/// table [`SYNONYM`] (the table guesses: "visually" may not be about screenshots).
fn stems(text: &str) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    let mut add = |stem: &str, sure: f64| {
        let w = out.entry(stem.to_string()).or_insert(0.0);
        *w = f64::max(*w, sure);
    };
    let text = instances(text, &mut add);
    for word in text.split(|c: char| !c.is_alphanumeric()) {
        let word = word.to_lowercase();
        if word.chars().count() < 2 || STOPWORDS.contains(&word.as_str()) {
            continue;
        }
        let stem = stemmer().stem(&word);
        match SYNONYMS.iter().find(|(w, _)| *w == stem) {
            Some((_, stands_for)) => stands_for.iter().for_each(|s| add(s, SYNONYM)),
            None => add(&stem, 1.0),
        }
    }
    out
}

/// Things a task names by an instance where a description names their kind: an email address is
/// a user; a weekday, today or tomorrow, or a clock time is a time. Each kind is added to the
/// task's words, and the instance taken out of the text, so an address's parts ("example",
/// "com") are not read as words of the task.
fn instances(text: &str, add: &mut impl FnMut(&str, f64)) -> String {
    static KINDS: OnceLock<Vec<(regex::Regex, &str)>> = OnceLock::new();
    let kinds = KINDS.get_or_init(|| {
        [
            (r"[\w.+-]+@[\w-]+(\.[\w-]+)+", "user"),
            (
                r"(?i)\b(mon|tues|wednes|thurs|fri|satur|sun|to)day\b|\btomorrow\b|\b\d{1,2}(:\d\d)?\s?[ap]m\b|\b\d{1,2}:\d\d\b",
                "time",
            ),
        ]
        .into_iter()
        .map(|(re, kind)| (regex::Regex::new(re).expect("a valid pattern"), kind))
        .collect()
    });
    let mut text = text.to_string();
    for (re, kind) in kinds {
        if re.is_match(&text) {
            add(kind, 1.0);
            text = re.replace_all(&text, " ").into_owned();
        }
    }
    text
}

/// A candidate's words, each with the weight of the best field it appears in.
type Words = BTreeMap<String, f64>;

fn words(fields: &[(&str, f64)]) -> Words {
    let mut words = Words::new();
    for (text, weight) in fields {
        for (word, sure) in stems(text) {
            let w = words.entry(word).or_insert(0.0);
            *w = w.max(*weight * sure);
        }
    }
    words
}

/// How telling each word is among the candidates: a word few of them have weighs most. A word
/// none of them has weighs as a word one has, so the task's other words count against coverage.
struct Rarity {
    candidates: f64,
    counts: BTreeMap<String, usize>,
}

impl Rarity {
    fn of<'a>(all: impl ExactSizeIterator<Item = &'a Words>) -> Self {
        let candidates = all.len() as f64;
        let mut counts = BTreeMap::new();
        for words in all {
            for word in words.keys() {
                *counts.entry(word.clone()).or_insert(0) += 1;
            }
        }
        Rarity { candidates, counts }
    }

    fn weight(&self, word: &str) -> f64 {
        let count = self.counts.get(word).copied().unwrap_or(1).max(1) as f64;
        (1.0 + self.candidates / count).ln()
    }

    /// A task word: one some other candidate has counts fully against a candidate that lacks it
    /// (the task is about something else); one no candidate has is context (a place, a sum, a
    /// name) and counts as little as a word every candidate has.
    fn task_weight(&self, word: &str) -> f64 {
        if self.counts.contains_key(word) {
            self.weight(word)
        } else {
            std::f64::consts::LN_2 * CONTEXT
        }
    }
}

/// A task's words, each with how surely the task says it (see [`stems`]).
type Task = BTreeMap<String, f64>;

fn score(task: &Task, candidate: &Words, rarity: &Rarity) -> (f64, Vec<String>) {
    let matched: Vec<String> = task
        .keys()
        .filter(|w| candidate.contains_key(*w))
        .cloned()
        .collect();
    let hit: f64 = matched
        .iter()
        .map(|w| rarity.weight(w) * candidate[w] * task[w])
        .sum();
    if hit == 0.0 {
        return (0.0, matched);
    }
    let own = hit
        / candidate
            .iter()
            .map(|(w, f)| rarity.weight(w) * f)
            .sum::<f64>();
    let unexplained: f64 = task
        .iter()
        .filter(|(w, _)| !candidate.contains_key(*w))
        .map(|(w, sure)| rarity.task_weight(w) * sure)
        .sum();
    let explained = hit / (hit + unexplained);
    let harmonic = 2.0 * own * explained / (own + explained);
    // Rounded so that equal scores compare equal and the order is stable.
    ((harmonic * 1000.0).round() / 1000.0, matched)
}

fn ranked<'a>(
    task: &Task,
    candidates: impl Iterator<Item = (&'a str, &'a str, &'a str, Words)>,
) -> Vec<Ranked> {
    let candidates: Vec<_> = candidates.collect();
    let rarity = Rarity::of(candidates.iter().map(|c| &c.3));
    let mut list: Vec<Ranked> = candidates
        .into_iter()
        .map(|(id, name, description, words)| {
            let (score, matched) = score(task, &words, &rarity);
            Ranked {
                id: id.to_string(),
                name: name.to_string(),
                description: description.to_string(),
                score,
                matched,
            }
        })
        .collect();
    list.retain(|r| r.score > 0.0);
    list.sort_by(|a, b| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| a.name.cmp(&b.name))
    });
    list
}

/// Whether the leading skill is loaded: at [`LOAD_THRESHOLD`], or at [`CORROBORATED`] when two
/// or more of its words are in the task. One shared word is weak evidence however rare it is ("a
/// screenshot for the ticket" is not a screenshot diff); two agreeing words are not.
fn loads(lead: &Ranked) -> bool {
    lead.score >= LOAD_THRESHOLD || (lead.matched.len() >= 2 && lead.score >= CORROBORATED)
}

pub(super) fn rank(task: &str, skills: &[Skill], commands: &BTreeMap<String, Command>) -> Ranking {
    let task_tokens = stems(task);
    let skills = ranked(
        &task_tokens,
        skills.iter().map(|s| {
            let words = words(&[(&s.name, NAME), (&s.description, DESCRIPTION)]);
            (
                s.id.as_str(),
                s.name.as_str(),
                s.description.as_str(),
                words,
            )
        }),
    );
    let commands = ranked(
        &task_tokens,
        commands.values().map(|c| {
            let argv = c.argv.join(" ");
            let words = words(&[
                (&c.name, NAME),
                (&c.description, DESCRIPTION),
                (&argv, ARGV),
            ]);
            (
                c.name.as_str(),
                c.name.as_str(),
                c.description.as_str(),
                words,
            )
        }),
    );
    let selected_skill = skills.first().filter(|s| loads(s)).map(|s| s.id.clone());
    Ranking {
        task_tokens: task_tokens.into_keys().collect(),
        skills,
        commands,
        selected_skill,
    }
}

#[cfg(all(test, unix))]
mod tests {
    use super::super::discover;
    use super::super::testutil::Tree;
    use super::*;

    #[test]
    fn tokens_are_lowercased_stemmed_and_stopword_free() {
        let words = |text| stems(text).into_keys().collect::<Vec<_>>();
        assert_eq!(
            words("Run the Tests, testing & tested: PDF-forms x"),
            ["form", "pdf", "run", "test"]
        );
        assert_eq!(words("migrations"), words("migrate"));
        assert_eq!(words("the DB"), words("database"));
        assert_eq!(stems("the DB")["databas"], SYNONYM, "a synonym weighs half");
        let words = stems("invite bo.li@example.com on Friday at 3pm");
        assert_eq!(
            words.keys().collect::<Vec<_>>(),
            ["invit", "time", "user"],
            "an address is a user, a day or an hour a time, and neither is read for its words"
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
