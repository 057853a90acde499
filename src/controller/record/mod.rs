//! The recording of an agent's page actions: for each acting call, the page it acted on, the
//! action and its arguments, and each target as locators computed in the page at that moment
//! (extension/page/locate.js), so it can be exported as a Playwright test or replayed with no
//! model (`tabpilot export`, `tabpilot replay`, `browser_export`).
//!
//! The MCP server keeps its session's recording in memory, bounded. Unlike the audit trail it
//! keeps what was typed (a replay needs it), so it goes to disk only with `TABPILOT_RECORD=1`:
//! owner-only, beside the audit trail, rotated as it is. A secret filled by name is kept by its
//! name, and what went into a field the secret rules hide (a password, a one-time code, a card's)
//! is never kept: it is a placeholder the export asks the environment for.

pub mod describe;
pub mod playwright;
pub mod replay;

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, PoisonError};

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::controller::audit::{Agent, Ending};
use crate::shared::error::Outcome;
use crate::shared::protocol::wire::locate::Target;
use crate::shared::settings::Setting;

/// Steps kept in memory per session; the oldest go first. A long day of an agent's page actions.
pub const MAX_STEPS: usize = 2000;
/// Bytes of steps kept in memory per session, each weighed as its JSON line; the oldest go
/// first. A click or a short typing is 300 to 600 bytes with its targets' locators, so this holds
/// the 2,000 steps of a usual session, and bites when steps carry a lot: a form of 200 fields, a
/// long text typed (a step may carry up to the call's 1 MiB frame, so 2,000 of them by count
/// alone could keep 2 GB). In memory a step takes about twice its JSON (serde_json's maps).
pub const MAX_KEPT_BYTES: usize = 1 << 20;
/// A step heavier than this is not kept in memory at all (it would push out a quarter of the
/// recording): the export says it is missing. On disk (`TABPILOT_RECORD=1`) it is kept whole.
pub const MAX_STEP_BYTES: usize = MAX_KEPT_BYTES / 4;
/// Past this, the file on disk is rotated (as the audit trail is, 3 old files kept).
const MAX_BYTES: u64 = 10 << 20;

/// One recorded call.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
pub struct Step {
    pub time: String,
    #[serde(default)]
    pub agent: Agent,
    pub tool: String,
    /// The agent as the relay and the dashboard name it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub agent_id: Option<String>,
    /// The page acted on: its origin and path (a query may carry what was typed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The page afterwards, the same way.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub after: Option<String>,
    /// The arguments, refs taken out (`targets` stands for them), a secret by name
    /// (`secret`), a hidden field's value as the variable that gives it (`env`).
    #[serde(default)]
    pub args: Map<String, Value>,
    /// Each ref's element, in the order of the arguments (`ref`, or each field's).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub targets: Vec<Target>,
    pub outcome: Outcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// What a recording keeps of a tool, declared by the tool itself (a field of its `About`): the
/// kind of step it is, which says how the export writes it. The tools that act on a page have
/// one, and the waits a test asserts; a tool with none is not recorded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Replayed {
    Navigate,
    Back,
    Forward,
    Click,
    Hover,
    Focus,
    Type,
    FillForm,
    Select,
    PressKey,
    WaitFor,
}

/// The tools a recording keeps, by name, each with its kind of step: what the registry's
/// declarations say, handed to the export and the replay check.
pub struct Recordable(pub Vec<(&'static str, Replayed)>);

impl Recordable {
    /// The kind of step a tool's call is, if a recording keeps it.
    pub fn kind(&self, tool: &str) -> Option<Replayed> {
        self.0
            .iter()
            .find(|(name, _)| *name == tool)
            .map(|(_, k)| *k)
    }

    fn names(&self) -> Vec<&'static str> {
        self.0.iter().map(|(name, _)| *name).collect()
    }
}

/// Where recordings go on disk: `recording.jsonl` beside the audit trail.
pub fn file() -> PathBuf {
    let audit = crate::controller::audit::configured_file();
    audit.with_file_name("recording.jsonl")
}

/// A page's address as a step keeps it: origin and path, no query or credentials.
fn place(url: Option<String>) -> Option<String> {
    let mut parsed = url::Url::parse(&url?).ok()?;
    parsed.set_query(None);
    parsed.set_fragment(None);
    let _ = parsed.set_password(None);
    let _ = parsed.set_username("");
    Some(parsed.to_string())
}

/// The environment variable a value is asked of: a secret's name, or a hidden field's label,
/// in upper snake case (`app-password` → `APP_PASSWORD`).
pub fn env_name(name: &str) -> String {
    let mut out: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect::<String>()
        .split('_')
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join("_");
    if out.is_empty() || out.starts_with(|c: char| c.is_ascii_digit()) {
        out.insert_str(0, "FIELD_");
    }
    out
}

/// The words a hidden field is known by, for its variable's name.
fn field_words(target: &Target) -> String {
    let l = target.locators.first().cloned().unwrap_or_default();
    let words = [l.label, l.name, l.placeholder, l.test_id]
        .into_iter()
        .flatten()
        .next();
    words.unwrap_or_else(|| "secret field".into())
}

/// A value as the step keeps it: a secret by name, a hidden field's as its variable, else as
/// given. A call that did not act is never replayed, and its elements come back undescribed
/// (they ride on the action's answer): what it was given is not kept, since it may have been a
/// hidden field's.
fn kept(
    value: Option<&Value>,
    secret: Option<&Value>,
    target: Option<&Target>,
    acted: bool,
) -> Map<String, Value> {
    let mut out = Map::new();
    if let Some(name) = secret.and_then(Value::as_str) {
        out.insert("secret".into(), json!(name));
    } else if let Some(t) = target.filter(|t| t.secret) {
        out.insert("env".into(), json!(env_name(&field_words(t))));
    } else if let Some(v) = value.filter(|_| acted || target.is_some()) {
        out.insert("value".into(), v.clone());
    }
    out
}

/// The arguments as a step keeps them.
fn kept_args(
    kind: Replayed,
    args: &Value,
    targets: &[Target],
    outcome: Outcome,
) -> Map<String, Value> {
    let acted = matches!(outcome, Outcome::Done | Outcome::Partial);
    let mut out = args.as_object().cloned().unwrap_or_default();
    out.remove("ref");
    out.remove("timeout");
    if kind == Replayed::Type {
        let text = out.remove("text");
        let secret = out.remove("secret");
        out.extend(kept(text.as_ref(), secret.as_ref(), targets.first(), acted));
    }
    if let Some(Value::Array(fields)) = out.remove("fields") {
        let fields = fields.iter().enumerate().map(|(i, f)| {
            let mut one = kept(f.get("value"), f.get("secret"), targets.get(i), acted);
            if let Some(e) = f.get("element") {
                one.insert("element".into(), e.clone());
            }
            Value::Object(one)
        });
        out.insert("fields".into(), Value::Array(fields.collect()));
    }
    out
}

/// Whether recording is on, and where: `TABPILOT_RECORD` off records nothing, `1` (any other
/// word for on) keeps the recording on disk too, unset keeps it in memory only.
#[derive(Clone, Debug, PartialEq)]
enum Keep {
    Nothing,
    Memory,
    Disk(PathBuf),
}

/// The steps a session's recording let go of, past its bounds, for the export to say.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dropped {
    /// The oldest steps, past `MAX_STEPS` or `MAX_KEPT_BYTES`.
    pub oldest: usize,
    /// Steps over `MAX_STEP_BYTES` each, never kept in memory.
    pub too_big: usize,
}

impl Dropped {
    /// The line an export adds when it lacks steps, or none.
    pub fn note(&self) -> Option<String> {
        let steps = |n: usize| match n {
            1 => "1 step was".to_string(),
            n => format!("{n} steps were"),
        };
        let mut said = Vec::new();
        if self.oldest > 0 {
            said.push(format!(
                "the first {} dropped (the recording in memory keeps the last {MAX_STEPS} steps \
                 and {} KiB of them), so it starts partway",
                steps(self.oldest),
                MAX_KEPT_BYTES >> 10
            ));
        }
        if self.too_big > 0 {
            said.push(format!(
                "{} over the {} KiB one step may take and not kept (the export skips them)",
                steps(self.too_big),
                MAX_STEP_BYTES >> 10
            ));
        }
        (!said.is_empty()).then(|| {
            format!(
                "{}; with TABPILOT_RECORD=1 the whole session is on disk for `tabpilot export`",
                said.join("; ")
            )
        })
    }
}

/// The steps in memory, each with its weight, within `MAX_STEPS` and `MAX_KEPT_BYTES`.
#[derive(Default)]
struct Kept {
    steps: VecDeque<(Step, usize)>,
    bytes: usize,
    dropped: Dropped,
}

impl Kept {
    /// Adds a step of `bytes` (its JSON line), letting the oldest go past either bound.
    fn push(&mut self, step: Step, bytes: usize) {
        if bytes > MAX_STEP_BYTES {
            self.dropped.too_big += 1;
            return;
        }
        while self.steps.len() >= MAX_STEPS || self.bytes + bytes > MAX_KEPT_BYTES {
            let Some((_, gone)) = self.steps.pop_front() else {
                break;
            };
            self.bytes -= gone;
            self.dropped.oldest += 1;
        }
        self.bytes += bytes;
        self.steps.push_back((step, bytes));
    }
}

/// One session's recording.
pub struct Recorder {
    keep: Keep,
    /// The agent as the relay names it.
    id: Option<String>,
    steps: Mutex<Kept>,
}

impl Recorder {
    /// Records nothing (the CLI's one-shot calls).
    pub fn off() -> Recorder {
        Recorder {
            keep: Keep::Nothing,
            id: None,
            steps: Mutex::default(),
        }
    }

    /// As `TABPILOT_RECORD` says (the MCP server's sessions), for the agent the relay calls `id`.
    pub fn from_env(id: String) -> Recorder {
        let keep = if Setting::Record.is_off() {
            Keep::Nothing
        } else if Setting::Record.is_on() {
            Keep::Disk(file())
        } else {
            Keep::Memory
        };
        Recorder {
            keep,
            id: Some(id),
            steps: Mutex::default(),
        }
    }

    /// Whether this session records (the tool says whether its calls are kept).
    pub fn is_on(&self) -> bool {
        self.keep != Keep::Nothing
    }

    /// Keeps the call's step, in memory and, when asked, on disk (a line that cannot be written
    /// is said on stderr, without its content, and does not fail the call).
    pub async fn keep(&self, call: Call<'_>, ended: Ending) {
        let (outcome, code) = (ended.outcome, ended.code.map(|c| c.as_str().to_string()));
        let step = Step {
            time: chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            agent: call.agent,
            agent_id: self.id.clone(),
            tool: call.tool.to_string(),
            url: place(call.before),
            after: place(call.after),
            args: kept_args(call.kind, call.args, &call.targets, outcome),
            targets: call.targets,
            outcome,
            code,
        };
        let mut line = serde_json::to_string(&step).expect("a step serializes");
        line.push('\n');
        let bytes = line.len();
        if let Keep::Disk(path) = &self.keep {
            let path = path.clone();
            let written = crate::shared::blocking::call("writing the recording", move || {
                crate::controller::audit::file::append(&path, line.as_bytes(), MAX_BYTES)
            })
            .await;
            if !matches!(written, Ok(Ok(()))) {
                tracing::warn!(
                    "could not write a step to the recording {}",
                    file().display()
                );
            }
        }
        self.kept().push(step, bytes);
    }

    fn kept(&self) -> std::sync::MutexGuard<'_, Kept> {
        self.steps.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The session's steps so far, oldest first.
    pub fn steps(&self) -> Vec<Step> {
        self.kept().steps.iter().map(|(s, _)| s.clone()).collect()
    }

    /// The steps so far and those let go of past the bounds, read at one moment.
    pub fn recording(&self) -> (Vec<Step>, Dropped) {
        let kept = self.kept();
        let steps = kept.steps.iter().map(|(s, _)| s.clone()).collect();
        (steps, kept.dropped)
    }
}

/// A call as the recorder is told of it.
pub struct Call<'a> {
    pub agent: Agent,
    pub tool: &'a str,
    /// The kind of step the tool declares.
    pub kind: Replayed,
    pub args: &'a Value,
    pub targets: Vec<Target>,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// Which steps of the recording on disk to take.
#[derive(Default)]
pub struct Filter {
    /// The MCP client's name.
    pub agent: Option<String>,
    /// The session (as the audit trail names it).
    pub session: Option<String>,
    /// The agent as the relay and the dashboard name it.
    pub agent_id: Option<String>,
    /// From this time on (RFC 3339, or its start: `2026-12-01`).
    pub since: Option<String>,
}

/// The steps on disk (the rotated files first) that `filter` takes; with neither agent nor
/// session named, the session of the last step.
pub fn read(path: &Path, filter: &Filter) -> Vec<Step> {
    let mut steps: Vec<Step> = crate::controller::audit::file::in_order(path)
        .iter()
        .filter_map(|f| std::fs::read_to_string(f).ok())
        .flat_map(|text| {
            text.lines()
                .filter_map(|l| serde_json::from_str::<Step>(l).ok())
                .collect::<Vec<_>>()
        })
        .collect();
    steps.sort_by(|a, b| a.time.cmp(&b.time));
    let any = filter.agent.is_none() && filter.agent_id.is_none();
    let session = filter.session.clone().or_else(|| {
        any.then(|| steps.last().map(|s| s.agent.session.clone()))
            .flatten()
    });
    steps.retain(|s| {
        session.as_ref().is_none_or(|w| &s.agent.session == w)
            && filter.agent.as_ref().is_none_or(|w| &s.agent.client == w)
            && filter
                .agent_id
                .as_ref()
                .is_none_or(|w| s.agent_id.as_ref() == Some(w))
            && filter
                .since
                .as_ref()
                .is_none_or(|w| s.time.as_str() >= w.as_str())
    });
    steps
}

/// What a recording is exported as.
#[derive(Clone, Copy, Debug, PartialEq, clap::ValueEnum, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    // Help for the CLI only: the tool's schema says it once, in the argument's own words.
    #[value(help = "A Playwright Test file (TypeScript)")]
    Playwright,
    #[value(help = "A replay file for `tabpilot replay` (JSON lines)")]
    Tabpilot,
}

/// The file's text for these steps in this format.
pub fn render(steps: &[Step], format: Format, recordable: &Recordable) -> String {
    match format {
        Format::Playwright => playwright::script(steps, recordable),
        Format::Tabpilot => lines(steps),
    }
}

/// Steps as the `tabpilot` format writes them: one JSON line each.
pub fn lines(steps: &[Step]) -> String {
    steps
        .iter()
        .map(|s| serde_json::to_string(s).expect("a step serializes") + "\n")
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::protocol::wire::locate::Locator;
    use crate::shared::state::test_support::temp_dir;

    fn field(label: &str, secret: bool) -> Target {
        Target {
            locators: vec![Locator {
                label: Some(label.into()),
                ..Default::default()
            }],
            frames: vec![],
            kind: "text".into(),
            secret,
        }
    }

    fn done() -> Ending {
        Ending::of(Outcome::Done)
    }

    fn recorder(keep: Keep) -> Recorder {
        Recorder {
            keep,
            id: Some("ab12cd34".into()),
            steps: Mutex::default(),
        }
    }

    /// The weight the recorder gives a step: its JSON line.
    fn weight(step: &Step) -> usize {
        serde_json::to_string(step).unwrap().len() + 1
    }

    async fn keep(r: &Recorder, tool: &str, args: Value, targets: Vec<Target>) {
        let call = Call {
            agent: Agent {
                client: "claude-code".into(),
                session: "agent:0123".into(),
            },
            tool,
            kind: crate::controller::tools::registry::recordable()
                .kind(tool)
                .expect("a tool a recording keeps"),
            args: &args,
            targets,
            before: Some("https://shop.test/login?user=ada&pw=hunter2".into()),
            after: Some("https://shop.test/form?pw=hunter2#x".into()),
        };
        r.keep(call, done()).await;
    }

    #[tokio::test]
    async fn a_hidden_fields_value_is_never_kept_a_secret_by_name_and_the_rest_as_typed() {
        let path = temp_dir("record-keep").join("recording.jsonl");
        let r = recorder(Keep::Disk(path.clone()));
        let typed = json!({"ref": "e1abc", "text": "hunter2"});
        keep(&r, "browser_type", typed, vec![field("Password", true)]).await;
        let form = json!({"fields": [
            {"ref": "e2abc", "value": "ada"},
            {"ref": "f3:e3abc", "secret": "app-password"},
            {"ref": "e4abc", "value": "hunter2"},
        ]});
        let targets = vec![
            field("User", false),
            field("Pin", true),
            field("Card code", true),
        ];
        keep(&r, "browser_fill_form", form, targets).await;

        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("hunter2"), "{text}");
        #[cfg(unix)]
        assert_eq!(crate::shared::state::test_support::mode(&path), 0o600);
        let steps = r.steps();
        assert_eq!(
            steps[0].args,
            *json!({"env": "PASSWORD"}).as_object().unwrap()
        );
        assert_eq!(
            steps[1].args["fields"],
            json!([{"value": "ada"}, {"secret": "app-password"}, {"env": "CARD_CODE"}])
        );
        assert_eq!(steps[0].url.as_deref(), Some("https://shop.test/login"));
        assert_eq!(steps[0].after.as_deref(), Some("https://shop.test/form"));
        assert_eq!(read(&path, &Filter::default()), steps);
    }

    /// An action that did not act comes back with no elements described (they ride on its
    /// answer): what it was to type is not kept, since its field may have been a password.
    #[tokio::test]
    async fn a_failed_actions_values_are_not_kept_without_their_elements() {
        let r = recorder(Keep::Memory);
        let failed = Ending::failed(&crate::shared::error::ToolError::refused(
            crate::shared::error::Code::NotActionable,
            "covered",
        ));
        let typed = json!({"ref": "e1abc", "text": "hunter2"});
        let form = json!({"fields": [{"ref": "e2abc", "value": "hunter2"}]});
        let kinds = [Replayed::Type, Replayed::FillForm];
        for ((tool, args), kind) in [("browser_type", &typed), ("browser_fill_form", &form)]
            .into_iter()
            .zip(kinds)
        {
            let call = Call {
                agent: Agent::default(),
                tool,
                kind,
                args,
                targets: vec![],
                before: None,
                after: None,
            };
            r.keep(call, failed).await;
        }
        let kept = serde_json::to_string(&r.steps()).unwrap();
        assert!(!kept.contains("hunter2"), "{kept}");
        // Done, an element that could not be described keeps its value, as the call typed it.
        keep(&r, "browser_type", typed, vec![]).await;
        assert_eq!(r.steps()[2].args["value"], "hunter2");
    }

    #[tokio::test]
    async fn memory_holds_the_last_steps_only_and_only_acting_calls_are_recorded() {
        let r = recorder(Keep::Memory);
        for i in 0..MAX_STEPS + 5 {
            keep(
                &r,
                "browser_press_key",
                json!({"key": format!("k{i}")}),
                vec![],
            )
            .await;
        }
        let (steps, dropped) = r.recording();
        assert_eq!(steps.len(), MAX_STEPS);
        assert_eq!(steps[0].args["key"], "k5");
        assert_eq!(
            dropped,
            Dropped {
                oldest: 5,
                too_big: 0
            }
        );
        assert!(
            dropped
                .note()
                .unwrap()
                .contains("the first 5 steps were dropped (")
        );
        let recordable = crate::controller::tools::registry::recordable();
        assert_eq!(recordable.kind("browser_snapshot"), None);
        assert_eq!(
            recordable.kind("browser_fill_form"),
            Some(Replayed::FillForm)
        );
        assert!(r.is_on() && !recorder(Keep::Nothing).is_on());
    }

    /// Steps that carry a lot (a long form, a long text) are held by their bytes, not only by
    /// their count: the oldest go, and one step too big to keep is said, not kept.
    #[tokio::test]
    async fn memory_holds_the_recording_within_its_bytes_the_oldest_dropped_first() {
        let r = recorder(Keep::Memory);
        let value = "v".repeat(1000);
        let form = |i: usize| {
            let fields: Vec<Value> = (0..20)
                .map(|_| json!({"ref": "e1abc", "value": format!("{i}:{value}")}))
                .collect();
            json!({ "fields": fields })
        };
        let targets = || vec![field("Notes", false); 20];
        let n = 3 * MAX_KEPT_BYTES / (20 * 1000);
        for i in 0..n {
            keep(&r, "browser_fill_form", form(i), targets()).await;
        }
        let (steps, dropped) = r.recording();
        let bytes: usize = steps.iter().map(weight).sum();
        assert!(bytes <= MAX_KEPT_BYTES, "{bytes} bytes kept");
        assert!(
            bytes > MAX_KEPT_BYTES - weight(&steps[0]),
            "{bytes} bytes kept"
        );
        assert!(steps.len() < n && steps.len() < MAX_STEPS);
        assert_eq!(dropped.oldest, n - steps.len());
        let last = steps.last().unwrap().args["fields"][0]["value"].clone();
        assert_eq!(last, json!(format!("{}:{value}", n - 1)));

        // One step over its own bound is not kept, and pushes nothing out.
        let huge = json!({"fields": [{"ref": "e1abc", "value": "h".repeat(MAX_STEP_BYTES)}]});
        keep(&r, "browser_fill_form", huge, vec![field("Notes", false)]).await;
        let (after, dropped) = r.recording();
        assert_eq!(after, steps);
        assert_eq!(dropped.too_big, 1);
        let note = dropped.note().unwrap();
        assert!(
            note.contains("1 step was over the 256 KiB one step may take and not kept"),
            "{note}"
        );
        assert_eq!(Dropped::default().note(), None);
    }

    #[test]
    fn the_file_is_read_for_one_session_or_agent_the_last_by_default() {
        let path = temp_dir("record-read").join("recording.jsonl");
        let step = |session: &str, id: &str, time: &str| Step {
            time: time.into(),
            agent: Agent {
                client: "c".into(),
                session: session.into(),
            },
            agent_id: Some(id.into()),
            tool: "browser_go_back".into(),
            url: None,
            after: None,
            args: Map::new(),
            targets: vec![],
            outcome: Outcome::Done,
            code: None,
        };
        let all = [
            step("s1", "i1", "1"),
            step("s2", "i2", "2"),
            step("s1", "i1", "3"),
        ];
        std::fs::write(&path, lines(&all)).unwrap();
        let last = read(&path, &Filter::default());
        assert_eq!(last, vec![all[0].clone(), all[2].clone()]);
        let by_id = Filter {
            agent_id: Some("i2".into()),
            ..Default::default()
        };
        assert_eq!(read(&path, &by_id), vec![all[1].clone()]);
        let since = Filter {
            since: Some("2".into()),
            ..Default::default()
        };
        assert_eq!(read(&path, &since), vec![all[2].clone()]);
    }

    #[test]
    fn names_become_environment_variables() {
        assert_eq!(env_name("app-password"), "APP_PASSWORD");
        assert_eq!(env_name("Card  code:"), "CARD_CODE");
        assert_eq!(env_name("2fa"), "FIELD_2FA");
    }
}
