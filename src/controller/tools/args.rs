//! What every tool's arguments share: strict parsing, schemas, timeouts, URL and ref checks, and
//! the MCP hints. All checks run before anything is sent.

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use super::include::{Include, Includes};
use super::spec::Hints;
use crate::shared::error::ToolError;
use crate::shared::protocol::refs::{self, NotARef};
use crate::shared::protocol::wire::act::{After, ConsoleProbe, NetworkProbe, WaitUntil};
use crate::shared::protocol::{Effect, Op};

pub(super) const DEFAULT_TIMEOUT_MS: u64 = 30_000;
pub(super) const MAX_TIMEOUT_MS: u64 = 300_000;
/// The o200k tokens a lean snapshot is held to unless the caller says otherwise: a big page's
/// outline, its main content first, at about the cost of a screenful of code. Here, beside the
/// other arguments every tool shares, because the snapshot tools and the after-action snapshot
/// both read it.
pub(super) const SNAPSHOT_TOKENS: u64 = 4_000;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub(super) struct NoArgs {}

/// A tool's input schema, derived from its argument struct and written the short way: every
/// token of it is paid by every client on every connection. `$ref`s are inlined, an optional
/// field is just its type (it is optional by not being required), and number formats go.
pub(super) fn schema<T: JsonSchema>() -> Value {
    let full = serde_json::to_value(schemars::schema_for!(T)).expect("schemas serialize");
    short(full)
}

/// The schema of a tool's data as it is serialised, written the same short way. A field that
/// is left out when empty is just its type; one that is written as `null` stays nullable, so
/// the schema holds for every value the tool sends.
pub(super) fn output_schema<T: JsonSchema>() -> Value {
    let generator = schemars::generate::SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator();
    let full =
        serde_json::to_value(generator.into_root_schema_for::<T>()).expect("schemas serialize");
    short(full)
}

fn short(full: Value) -> Value {
    let defs = full.get("$defs").cloned().unwrap_or(Value::Null);
    let mut v = compact(full, &defs);
    if let Some(o) = v.as_object_mut() {
        for key in ["$schema", "title", "$defs"] {
            o.remove(key);
        }
    }
    v
}

fn compact(v: Value, defs: &Value) -> Value {
    match v {
        Value::Object(mut o) => {
            if let Some(Value::String(r)) = o.get("$ref") {
                let name = r.trim_start_matches("#/$defs/");
                let mut inner = compact(defs[name].clone(), defs);
                if let (Some(i), Some(desc)) = (inner.as_object_mut(), o.remove("description")) {
                    i.insert("description".into(), desc);
                }
                return inner;
            }
            // A property that may be absent: anyOf [T, null] is T, and a type [T, "null"] is T.
            // One that is always there keeps its null.
            let required: Vec<Value> = match o.get("required") {
                Some(Value::Array(r)) => r.clone(),
                _ => Vec::new(),
            };
            if let Some(Value::Object(props)) = o.get_mut("properties") {
                for (name, prop) in props.iter_mut() {
                    if !required.contains(&Value::String(name.clone())) {
                        *prop = not_null(std::mem::take(prop));
                    }
                }
            }
            // The keyword (`"format": "uint64"`), not a property named so (`browser_export`'s).
            if o.get("format").is_some_and(Value::is_string) {
                o.remove("format");
            }
            if o.get("minimum") == Some(&json!(0)) {
                o.remove("minimum");
            }
            Value::Object(o.into_iter().map(|(k, v)| (k, compact(v, defs))).collect())
        }
        Value::Array(a) => Value::Array(a.into_iter().map(|v| compact(v, defs)).collect()),
        other => other,
    }
}

/// `T` or null, as just `T`.
fn not_null(v: Value) -> Value {
    let Value::Object(mut o) = v else { return v };
    if let Some(Value::Array(any)) = o.get("anyOf") {
        let real: Vec<&Value> = any.iter().filter(|s| s["type"] != "null").collect();
        if real.len() == 1 {
            let mut inner = real[0].clone();
            if let (Some(i), Some(desc)) = (inner.as_object_mut(), o.remove("description")) {
                i.insert("description".into(), desc);
            }
            return inner;
        }
    }
    if let Some(Value::Array(types)) = o.get("type") {
        let real: Vec<Value> = types.iter().filter(|t| *t != "null").cloned().collect();
        if real.len() == 1 {
            o.insert("type".into(), real[0].clone());
        }
    }
    Value::Object(o)
}

pub(super) fn parse<T: DeserializeOwned>(tool: &str, args: Value) -> Result<T, ToolError> {
    let args = if args.is_null() { json!({}) } else { args };
    serde_json::from_value(args).map_err(|e| ToolError::bad_args(format!("{tool}: {e}")))
}

/// How long a call waits: the caller's own (`given`), or a default, which `Ctx` stretches for a
/// tab that throttling slows (`Emulation::slowdown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Wait {
    pub time: Duration,
    pub given: bool,
}

impl From<Duration> for Wait {
    fn from(time: Duration) -> Self {
        Wait { time, given: true }
    }
}

pub(super) fn timeout(ms: Option<u64>) -> Result<Wait, ToolError> {
    match ms.unwrap_or(DEFAULT_TIMEOUT_MS) {
        0 => Err(ToolError::bad_args("timeout must be at least 1 ms")),
        t if t > MAX_TIMEOUT_MS => Err(ToolError::bad_args(format!(
            "timeout is at most {MAX_TIMEOUT_MS} ms"
        ))),
        t => Ok(Wait {
            time: Duration::from_millis(t),
            given: ms.is_some(),
        }),
    }
}

/// Only http, https and `about:blank`; anything else is refused by name before a byte is sent.
/// Other `about:` pages (`about:version`, `about:settings`, ...) are aliases of `chrome://` pages,
/// which extensions cannot drive, so they are refused like `chrome://` itself.
pub(super) fn check_url(url: &str) -> Result<(), ToolError> {
    let scheme = url.split_once(':').map(|(s, _)| s.to_ascii_lowercase());
    match scheme.as_deref() {
        Some("http") | Some("https") if url.len() > scheme.as_deref().map_or(0, str::len) + 3 => {
            Ok(())
        }
        Some("about") => {
            let rest = &url["about:".len()..];
            let page = rest.split(['?', '#']).next().unwrap_or_default();
            if page.eq_ignore_ascii_case("blank") {
                return Ok(());
            }
            let shown: String = page.chars().take(40).collect();
            Err(ToolError::bad_args(format!(
                "about:{shown}: only about:blank is allowed; other about: pages are aliases of \
                 chrome:// pages, which extensions cannot drive"
            )))
        }
        Some(s)
            if !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+.-".contains(c)) =>
        {
            Err(ToolError::bad_args(format!(
                "{s}: URLs are not allowed; use an http, https or about URL"
            )))
        }
        _ => Err(ToolError::bad_args(format!(
            "{url:?} is not a URL; give one with http:// or https://"
        ))),
    }
}

/// A ref as snapshots write it (`protocol::refs`: an optional frame prefix `fN:`, then `e` and
/// four base-36 characters, then `.N` for a twin). Checked here so a malformed one never reaches
/// a page.
pub(super) fn ref_arg(reference: &str) -> Result<(), ToolError> {
    refs::check(reference).map_err(|wrong| {
        ToolError::bad_args(match wrong {
            NotARef::FramePrefix => {
                format!("{reference:?} has a malformed frame prefix; frame refs look like f3:e7k2f")
            }
            NotARef::Malformed => format!(
                "{reference:?} is not a ref from a snapshot (like e7k2f, e7k2f.2 or f3:e7k2f)"
            ),
        })
    })
}

pub(super) const fn read_only() -> Hints {
    Hints {
        read_only: true,
        destructive: false,
        idempotent: true,
        open_world: false,
        navigates: false,
        mixed: false,
    }
}

/// A tool that acts on a page or on the browser: a click or an eval can delete an account, so it
/// is destructive (MCP's default) unless it only adds.
pub(super) const fn acts() -> Hints {
    Hints {
        read_only: false,
        destructive: true,
        idempotent: false,
        open_world: true,
        navigates: false,
        mixed: false,
    }
}

/// The hints of a tool that runs `op`, from the operation's declaration: what read-only mode
/// and the audit trail take of the tool is what the operation does.
pub(super) fn hints_of(op: Op) -> Hints {
    match op.effect() {
        Effect::Reads => read_only(),
        Effect::Moves => moves(),
        Effect::Acts => acts(),
    }
}

/// A tool that moves the agent's own tab between pages, or opens, focuses or closes one: it
/// changes no page, so not destructive (closing a tab says so itself).
pub(super) fn moves() -> Hints {
    Hints {
        navigates: true,
        destructive: false,
        ..acts()
    }
}

/// The arguments every page-changing tool shares: how long to wait after it, and whether to
/// answer with the fresh snapshot. Kept apart from each tool's own arguments (serde cannot
/// flatten into a struct that refuses unknown fields), and merged into its schema.
#[derive(Deserialize, JsonSchema, Default, Debug)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub(super) struct AfterAction {
    // What it means, and its four values, are said once, in the server's instructions: listed
    // as an enum in each of a dozen tools' schemas they cost 150 tokens of the tool list.
    #[schemars(with = "Option<String>")]
    pub wait_until: Option<WaitUntil>,
    pub settle_ms: Option<u64>,
    pub include: Option<Includes>,
}

const AFTER_KEYS: [&str; 3] = ["waitUntil", "settleMs", "include"];
pub(super) const MAX_SETTLE_MS: u64 = 30_000;

impl AfterAction {
    /// Takes the shared keys out of `args`, checked; returns the tool's own arguments.
    pub(super) fn split(tool: &str, args: Value) -> Result<(Value, AfterAction), ToolError> {
        let mut args = if args.is_null() { json!({}) } else { args };
        let mut after = serde_json::Map::new();
        if let Some(obj) = args.as_object_mut() {
            for key in AFTER_KEYS {
                if let Some(v) = obj.remove(key) {
                    after.insert(key.to_string(), v);
                }
            }
        }
        let after: AfterAction = parse(tool, Value::Object(after))?;
        if after.settle_ms.is_some_and(|ms| ms > MAX_SETTLE_MS) {
            return Err(ToolError::bad_args(format!(
                "settleMs is at most {MAX_SETTLE_MS}"
            )));
        }
        Ok((args, after))
    }

    /// The wait as the extension reads it: only what the caller set, so the extension's
    /// defaults (auto for actions, load for navigations) hold for the rest.
    pub(super) fn wire(&self) -> After {
        // The probes of what the console gained and what the tab met since the action began
        // ride on the action's own call (src/controller/tools/footer.rs says what came of them).
        After {
            wait_until: self.wait_until,
            settle_ms: self.settle_ms,
            console: Some(if self.wants_console() {
                ConsoleProbe::Entries
            } else {
                ConsoleProbe::Errors
            }),
            network: Some(if self.wants_network() {
                NetworkProbe::Requests
            } else {
                NetworkProbe::Issues
            }),
        }
    }

    fn wants(&self, section: Include) -> bool {
        self.include.as_ref().is_some_and(|i| i.has(section))
    }

    pub(super) fn wants_snapshot(&self) -> bool {
        self.wants(Include::Snapshot)
    }

    pub(super) fn wants_diff(&self) -> bool {
        self.wants(Include::Diff)
    }

    pub(super) fn wants_network(&self) -> bool {
        self.wants(Include::Network)
    }

    pub(super) fn wants_console(&self) -> bool {
        self.wants(Include::Console)
    }
}

/// A tool's schema with the shared after-action arguments added.
pub(super) fn schema_after<T: JsonSchema>() -> Value {
    let mut own = schema::<T>();
    let shared = schema::<AfterAction>();
    if let (Some(props), Some(extra)) = (
        own["properties"].as_object_mut(),
        shared["properties"].as_object(),
    ) {
        props.extend(extra.clone());
    }
    own
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::error::Code;

    #[test]
    fn only_a_caller_s_timeout_counts_as_given() {
        let default = timeout(None).unwrap();
        assert_eq!((default.time.as_millis(), default.given), (30_000, false));
        let own = timeout(Some(30_000)).unwrap();
        assert_eq!((own.time.as_millis(), own.given), (30_000, true));
    }

    #[derive(Debug, Deserialize)]
    #[serde(deny_unknown_fields)]
    #[allow(dead_code)]
    struct Strict {
        r#ref: String,
    }

    #[test]
    fn only_http_https_and_about_urls_pass() {
        for ok in ["http://127.0.0.1:8/x", "https://example.com", "about:blank"] {
            assert!(check_url(ok).is_ok(), "{ok}");
        }
        for (bad, named) in [
            ("javascript:alert(1)", "javascript"),
            ("file:///etc/passwd", "file"),
            ("data:text/html,hi", "data"),
            ("chrome://settings", "chrome"),
        ] {
            let e = check_url(bad).unwrap_err();
            assert_eq!(e.code, Code::BadArgs);
            assert!(e.message.starts_with(named), "{}", e.message);
        }
        assert!(check_url("example.com").is_err());
    }

    #[test]
    fn about_blank_passes_and_the_about_aliases_of_chrome_pages_do_not() {
        for ok in [
            "about:blank",
            "ABOUT:Blank",
            "about:blank#top",
            "about:blank?x=1",
        ] {
            assert!(check_url(ok).is_ok(), "{ok}");
        }
        for (bad, named) in [
            ("about:version", "about:version"),
            ("about:settings", "about:settings"),
            ("About:Settings/passwords", "about:Settings/passwords"),
            ("about:srcdoc", "about:srcdoc"),
            ("about://settings", "about://settings"),
            ("about:blankx", "about:blankx"),
            ("about:", "about:"),
        ] {
            let e = check_url(bad).unwrap_err();
            assert_eq!(e.code, Code::BadArgs, "{bad}");
            assert_eq!(e.outcome, crate::shared::error::Outcome::Refused, "{bad}");
            assert!(e.message.starts_with(named), "{}", e.message);
            assert!(e.message.contains("only about:blank"), "{}", e.message);
        }
    }

    #[test]
    fn refs_are_checked_before_sending() {
        assert!(ref_arg("e7k2f").is_ok());
        assert!(ref_arg("e7k2f.2").is_ok());
        assert!(ref_arg("f12:e7k2f.3").is_ok());
        // The contract's `.N` for a twin: any number, as the extension reads it.
        assert!(ref_arg("e7k2f.1").is_ok());
        for bad in ["f:e7k2f", "fx:e7k2f", "12:e7k2f", "f1:f2:e7k2f", "f1:"] {
            let e = ref_arg(bad).unwrap_err();
            assert_eq!(e.code, Code::BadArgs, "{bad}");
        }
        assert!(
            ref_arg("fx:e7k2f")
                .unwrap_err()
                .message
                .contains("frame prefix")
        );
        for bad in ["", "e1", "x7k2fa", "e7k2f.x", "E7K2F"] {
            assert!(ref_arg(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn unknown_arguments_are_refused() {
        let e = parse::<Strict>("browser_click", json!({"ref": "e1", "bogus": 1}))
            .err()
            .unwrap();
        assert_eq!(e.code, Code::BadArgs);
        assert!(e.message.contains("bogus"));
    }

    #[test]
    fn schemas_are_compact_and_self_contained() {
        for spec in crate::controller::tools::registry::all()
            .iter()
            .map(|t| &t.spec)
        {
            let text = spec.input_schema.to_string();
            for fat in ["$ref", "$defs", "\"null\"", "\"format\":\""] {
                assert!(
                    !text.contains(fat),
                    "{} schema has {fat}: {text}",
                    spec.name
                );
            }
        }
        let click = &crate::controller::tools::registry::get("browser_click")
            .unwrap()
            .spec
            .input_schema;
        // Its values are named in the server's instructions (mcp's tests hold them there).
        assert_eq!(click["properties"]["waitUntil"], json!({"type": "string"}));
        assert_eq!(click["properties"]["ref"]["type"], "string");
    }

    #[test]
    fn after_action_arguments_are_split_out_and_checked() {
        let (own, after) = AfterAction::split(
            "t",
            json!({"ref": "e1", "waitUntil": "networkidle", "include": "snapshot"}),
        )
        .unwrap();
        assert_eq!(own, json!({"ref": "e1"}));
        assert_eq!(after.wait_until, Some(WaitUntil::Networkidle));
        assert!(after.wants_snapshot());
        assert_eq!(
            serde_json::to_value(after.wire()).unwrap(),
            json!({"waitUntil": "networkidle", "console": "errors", "network": "issues"})
        );
        let e = AfterAction::split("t", json!({"include": "screenshot"})).unwrap_err();
        assert_eq!(e.code, Code::BadArgs);
        assert!(AfterAction::split("t", json!({"settleMs": 999_999})).is_err());
        assert!(AfterAction::split("t", json!({"waitUntil": "idle"})).is_err());
    }

    #[test]
    fn every_tool_has_an_object_schema() {
        for spec in crate::controller::tools::registry::all()
            .iter()
            .map(|t| &t.spec)
        {
            assert_eq!(spec.input_schema["type"], "object", "{}", spec.name);
        }
    }
}
