//! The audit trail: one JSON line per tool call (the MCP server's and the CLI's alike, refused
//! calls included), appended to an owner-only file: when, which agent, which tool, where (browser,
//! tab, the page's origin and address), on what (`ref`, `element`), the arguments with what the
//! agent entered recorded as lengths, the outcome and error code, and how long it took.
//! `TABPILOT_AUDIT=off` stops it; `tabpilot audit` prints it.

pub mod file;
pub mod read;
mod redact;

use std::path::PathBuf;
use std::sync::{Mutex, PoisonError};
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::Digest;

use crate::shared::error::{Code, Outcome, ToolError};
use crate::shared::protocol::{PeerInfo, TabId};
use crate::shared::settings::Setting;
pub use redact::{Keeps, Target};

/// Longest agent name kept (the MCP client says its own).
const MAX_NAME: usize = 100;
/// Longest line written; a call whose arguments would make it longer has them recorded by the
/// length of their JSON text.
const MAX_LINE: usize = 64 << 10;

/// The trail's file as configured, whether or not it is on: `TABPILOT_AUDIT_FILE`, else
/// `audit.jsonl` in the state dir.
pub fn configured_file() -> PathBuf {
    match Setting::AuditFile.get_os().filter(|p| !p.is_empty()) {
        Some(p) => std::path::absolute(PathBuf::from(&p)).unwrap_or_else(|_| PathBuf::from(p)),
        None => crate::shared::state::state_dir().join("audit.jsonl"),
    }
}

/// The file calls are recorded to, or none when `TABPILOT_AUDIT` is `off` (or `0`, `false`,
/// `no`).
pub fn file_from_env() -> Option<PathBuf> {
    (!Setting::Audit.is_off()).then(configured_file)
}

/// The file calls are recorded to, as [`file_from_env`], refused when it is a link: a server
/// never starts appending where a link would send its lines.
pub fn file_checked() -> Result<Option<PathBuf>, String> {
    let audit = file_from_env();
    if let Some(path) = &audit {
        file::not_a_link(path).map_err(|e| e.to_string())?;
    }
    Ok(audit)
}

/// The trail's file as `browser_status` shows it: the path, or `off`.
pub fn shown() -> String {
    file_from_env().map_or_else(|| "off".into(), |f| f.display().to_string())
}

/// What came of a call, as the trail and the recording keep it: its outcome, the code of a
/// failure, and what a result disclosed on the person's say-so (`credentials`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Ending {
    pub outcome: Outcome,
    pub code: Option<Code>,
    pub revealed: Option<&'static str>,
}

impl Ending {
    /// A call that ended with `outcome` and no code.
    pub fn of(outcome: Outcome) -> Ending {
        Ending {
            outcome,
            code: None,
            revealed: None,
        }
    }

    /// A call that ended in `error`.
    pub fn failed(error: &ToolError) -> Ending {
        Ending {
            outcome: error.outcome,
            code: Some(error.code),
            revealed: None,
        }
    }
}

/// Who made a call: the MCP client's name (`cli` for the command line) and the session.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Agent {
    #[serde(default)]
    pub client: String,
    #[serde(default)]
    pub session: String,
}

impl Agent {
    /// The agent a link's peer info makes: a named session by its name; any other by a short
    /// digest of its link's key, which tells its calls apart and cannot be used to join it.
    pub fn of(info: &PeerInfo) -> Agent {
        let session = match (&info.session, &info.session_key) {
            (Some(name), _) => clean(name),
            (None, Some(key)) => {
                format!("agent:{}", &hex::encode(sha2::Sha256::digest(key))[..12])
            }
            (None, None) => "agent".into(),
        };
        Agent {
            client: clean(&info.name),
            session,
        }
    }
}

/// A name as the trail keeps it: short, with no control, bidi or zero-width characters (it is
/// printed to a terminal).
fn clean(name: &str) -> String {
    name.chars()
        .take(MAX_NAME)
        .map(|c| {
            if crate::shared::terminal::is_unsafe(c) {
                '?'
            } else {
                c
            }
        })
        .collect()
}

/// One line of the trail. Every field but the time, the tool and the outcome may be absent. The
/// browser, tab and page are where the call ran, as its answer said; a call with no answer from
/// a page (refused, failed, or not a page call) has the agent's page as last seen, and none
/// before the first.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Record {
    #[serde(default)]
    pub time: String,
    #[serde(default)]
    pub agent: Agent,
    #[serde(default)]
    pub tool: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub browser: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tab: Option<TabId>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub origin: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The local application a call was on (its desktop id, else its name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub app: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<Target>,
    #[serde(default, skip_serializing_if = "Map::is_empty")]
    pub args: Map<String, Value>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
    /// What the result disclosed on the person's say-so (`credentials`): the line a person
    /// looks for.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub revealed: Option<String>,
    /// A call the client cancelled (`CANCELLED`): what it had done by then.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cancelled: Option<String>,
    #[serde(default)]
    pub ms: u64,
}

/// Where a call ran, as the answers from the agent's tab last said.
#[derive(Clone, Debug, Default)]
pub struct Place {
    pub browser: Option<String>,
    pub tab: Option<TabId>,
    pub url: Option<String>,
    /// A local application's desktop id (or name), for its tools' calls.
    pub app: Option<String>,
}

/// A call noted before it runs: its arguments as the trail keeps them (the files of an upload
/// as they were when sent).
pub struct Pending {
    tool: String,
    target: Option<Target>,
    args: Map<String, Value>,
    started: std::time::Instant,
    cancelled: Option<String>,
}

/// Longest account of what a cancelled call had done.
const MAX_CANCELLED: usize = 300;

impl Pending {
    /// The client cancelled the call: `what` it had done by then (the browser's words, or the
    /// link's for a call never sent), for the line to say.
    pub fn cancelled(&mut self, what: &str) {
        let what: String = what.chars().take(MAX_CANCELLED).collect();
        self.cancelled = Some(crate::shared::terminal::name(&what, MAX_CANCELLED));
    }
}

/// One session's audit trail.
pub struct Audit {
    file: Option<PathBuf>,
    agent: Mutex<Agent>,
}

impl Audit {
    /// `file`: where calls go; none records nothing.
    pub fn new(file: Option<PathBuf>, agent: Agent) -> Audit {
        Audit {
            file,
            agent: Mutex::new(agent),
        }
    }

    /// Names the client making the calls (the MCP client's name from `initialize`).
    pub fn set_client(&self, name: &str) {
        self.agent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .client = clean(name);
    }

    /// Who makes the calls.
    pub fn agent(&self) -> Agent {
        self.agent
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Notes a call before it runs; none when the trail is off.
    pub fn begin(&self, tool: &str, keeps: &Keeps, args: &Value) -> Option<Pending> {
        self.file.as_ref()?;
        let (target, args) = redact::split(keeps, args);
        Some(Pending {
            tool: clean(tool),
            target,
            args,
            started: std::time::Instant::now(),
            cancelled: None,
        })
    }

    /// Appends the call's line, off the async runtime's workers (the append locks the file, and
    /// may rotate it). A line that cannot be written is said on stderr (without its content) and
    /// does not fail the call.
    pub async fn finish(&self, call: Pending, place: Place, ended: Ending) {
        let Some(path) = self.file.clone() else {
            return;
        };
        let line = line(self.record(call, place, ended));
        let shown = path.display().to_string();
        let written = crate::shared::blocking::call("writing the audit trail", move || {
            file::append(&path, line.as_bytes(), file::MAX_BYTES)
        })
        .await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("could not write to the audit trail {shown}: {e}"),
            Err(e) => tracing::warn!("could not write to the audit trail {shown}: {e}"),
        }
    }

    fn record(&self, call: Pending, place: Place, ended: Ending) -> Record {
        let url = place.url.as_deref().map(page_url);
        Record {
            time: now(),
            agent: self
                .agent
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .clone(),
            tool: call.tool,
            browser: place.browser,
            tab: place.tab,
            origin: url.as_deref().and_then(origin),
            url,
            app: place.app.as_deref().map(clean),
            target: call.target,
            args: call.args,
            outcome: Some(ended.outcome),
            code: ended.code.map(|c| c.as_str().to_string()),
            revealed: ended.revealed.map(String::from),
            cancelled: call.cancelled,
            ms: millis(call.started.elapsed()),
        }
    }
}

/// The record as one line of JSON, at most `MAX_LINE` long.
fn line(mut record: Record) -> String {
    let mut text = serde_json::to_string(&record).expect("a record serializes");
    if text.len() > MAX_LINE {
        let args = Value::Object(std::mem::take(&mut record.args));
        record
            .args
            .insert("arguments".into(), redact::length(&args));
        record.target = None;
        text = serde_json::to_string(&record).expect("a record serializes");
    }
    text.push('\n');
    text
}

fn millis(d: Duration) -> u64 {
    d.as_millis().try_into().unwrap_or(u64::MAX)
}

/// Now, as RFC 3339 in UTC with milliseconds: the lines sort by it as text.
fn now() -> String {
    chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Millis, true)
}

/// A page's address as the trail keeps it: without credentials, at most 2,000 characters.
fn page_url(url: &str) -> String {
    let url = match url::Url::parse(url) {
        Ok(mut parsed) if parsed.password().is_some() || !parsed.username().is_empty() => {
            let _ = parsed.set_password(None);
            let _ = parsed.set_username("");
            parsed.to_string()
        }
        _ => url.to_string(),
    };
    url.chars().take(2000).collect()
}

/// The origin of an address with one (`null` origins have none).
fn origin(url: &str) -> Option<String> {
    let origin = url::Url::parse(url).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;
    use serde_json::json;

    fn done() -> Ending {
        Ending::of(Outcome::Done)
    }

    #[tokio::test]
    async fn a_call_is_one_line_with_where_it_ran_and_lengths_for_what_was_typed() {
        let path = temp_dir("audit-line").join("audit.jsonl");
        let agent = Agent {
            client: "claude-code".into(),
            session: "agent:0123".into(),
        };
        let audit = Audit::new(Some(path.clone()), agent);
        let args = json!({"ref": "e1abc", "element": "Password", "text": "hunter2-secret"});
        let pending = audit
            .begin("browser_type", &Keeps::default(), &args)
            .unwrap();
        let place = Place {
            browser: Some("b1".into()),
            tab: Some(TabId(7)),
            url: Some("https://user:pw@bank.test:8443/login?next=/".into()),
            app: None,
        };
        audit.finish(pending, place, done()).await;
        let refused = ToolError::refused(Code::ReadOnly, "no");
        let pending = audit
            .begin("browser_click", &Keeps::default(), &json!({"ref": "e2"}))
            .unwrap();
        audit
            .finish(pending, Place::default(), Ending::failed(&refused))
            .await;

        let text = std::fs::read_to_string(&path).unwrap();
        assert!(!text.contains("hunter2") && !text.contains("pw@"), "{text}");
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        let typed = &lines[0];
        assert_eq!(
            typed["agent"],
            json!({"client": "claude-code", "session": "agent:0123"})
        );
        assert_eq!(typed["tool"], "browser_type");
        assert_eq!(
            (&typed["browser"], &typed["tab"]),
            (&json!("b1"), &json!(7))
        );
        assert_eq!(typed["url"], "https://bank.test:8443/login?next=/");
        assert_eq!(typed["origin"], "https://bank.test:8443");
        assert_eq!(
            typed["target"],
            json!({"ref": "e1abc", "element": "Password"})
        );
        assert_eq!(typed["args"], json!({"text": {"len": 14}}));
        assert_eq!(
            (&typed["outcome"], &typed["code"]),
            (&json!("done"), &Value::Null)
        );
        let time = typed["time"].as_str().unwrap();
        assert!(chrono::DateTime::parse_from_rfc3339(time).is_ok() && time.ends_with('Z'));
        assert!(typed["ms"].is_u64());
        let refused = &lines[1];
        assert_eq!(
            (&refused["outcome"], &refused["code"]),
            (&json!("refused"), &json!("READ_ONLY"))
        );
        assert!(refused.get("url").is_none() && refused.get("tab").is_none());
    }

    #[test]
    fn off_records_nothing() {
        let audit = Audit::new(None, Agent::default());
        assert!(
            audit
                .begin("browser_type", &Keeps::default(), &json!({"text": "x"}))
                .is_none()
        );
    }

    #[test]
    fn an_agent_is_its_named_session_or_a_digest_of_its_key_never_the_key() {
        let info = |session: Option<&str>, key: &str| PeerInfo {
            name: "tabpilot mcp".into(),
            session: session.map(String::from),
            session_key: Some(key.into()),
            ..PeerInfo::default()
        };
        let named = Agent::of(&info(Some("cli"), "k1"));
        assert_eq!(named.session, "cli");
        let one = Agent::of(&info(None, "a-secret-key"));
        assert!(one.session.starts_with("agent:") && !one.session.contains("a-secret-key"));
        assert_ne!(one.session, Agent::of(&info(None, "another-key")).session);
        let audit = Audit::new(None, one);
        audit.set_client("evil\u{1b}[2Jclient\u{202e}");
        assert_eq!(
            audit
                .agent
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .client,
            "evil?[2Jclient?"
        );
    }

    #[test]
    fn a_line_is_bounded_whatever_the_arguments() {
        let fields: Vec<Value> = (0..200)
            .map(|i| json!({"ref": format!("e{i}"), "element": "x".repeat(1000), "value": "v"}))
            .collect();
        let audit = Audit::new(Some(PathBuf::from("/unused")), Agent::default());
        let pending = audit
            .begin(
                "browser_fill_form",
                &Keeps::default(),
                &json!({ "fields": fields }),
            )
            .unwrap();
        let text = line(audit.record(pending, Place::default(), done()));
        assert!(text.len() < 1000, "{}", text.len());
        assert!(text.ends_with('\n') && !text.contains("xxxx"));
    }

    #[tokio::test]
    async fn a_line_that_cannot_be_written_does_not_fail_the_call() {
        let dir = temp_dir("audit-fail");
        // A folder where the file should be: the write fails; finish still returns.
        let path = dir.join("audit.jsonl");
        std::fs::create_dir(&path).unwrap();
        let audit = Audit::new(Some(path), Agent::default());
        let pending = audit
            .begin("browser_snapshot", &Keeps::default(), &json!({}))
            .unwrap();
        audit.finish(pending, Place::default(), done()).await;
    }
}
