//! Which of a call's arguments the audit trail keeps as the agent sent them. Only the names on
//! an allow list are kept; everything else (the text typed, the values filled, keys pressed,
//! script, and any argument a later tool adds) is recorded as its length.

use serde_json::{Map, Value, json};

/// Kept in every tool: what a call names (elements, tabs, pages, files it writes) and how it
/// runs. None of them carries what the agent enters into a page.
const KEPT: &[&str] = &[
    "ref",
    "element",
    "startRef",
    "startElement",
    "endRef",
    "endElement",
    "tabId",
    "url",
    "active",
    "reload",
    "ignoreCache",
    "includeSnapshot",
    "include",
    "waitUntil",
    "settleMs",
    "timeout",
    "verbose",
    "maxChars",
    "button",
    "doubleClick",
    "modifiers",
    "x",
    "y",
    "direction",
    "amount",
    "submit",
    "fullPage",
    "quality",
    "filePath",
    "role",
    "selector",
    "max",
    "state",
    "time",
    "action",
    "once",
    "path",
    "limit",
    "skillBudgetChars",
    "timeoutSeconds",
    "durationMs",
    "audit",
    "page",
    // Asking for credential values is what the person looks for in the trail.
    "revealValues",
    // A secret filled by name, and files a person registered: names, never values.
    "secret",
    "registered",
];

/// What the trail keeps of one tool's arguments beyond [`KEPT`], declared by the tool itself (a
/// field of its `About`): what it looks for or names, never what it enters.
#[derive(Clone, Copy, Debug, Default)]
pub struct Keeps {
    /// Kept as sent in this tool only: `text` is what browser_find looks for, and what
    /// browser_type enters, so only browser_find keeps it.
    pub args: &'static [&'static str],
    /// An object whose keys are names the trail keeps and whose values it records as lengths
    /// (the headers an agent sets: `{"x-api-key": {"len": 32}}`).
    pub names_only: Option<&'static str>,
    /// Local files the tool reads: each kept as its name and size, never its path or contents.
    pub files: Option<&'static str>,
}

impl Keeps {
    /// Keeps these arguments as sent, in this tool only.
    pub const fn args(args: &'static [&'static str]) -> Keeps {
        Keeps {
            args,
            names_only: None,
            files: None,
        }
    }
}

/// Lists of objects whose own keys go through the same lists (a form's fields: each `ref` and
/// `element` kept, each `value` a length).
const EACH: &[&str] = &["fields"];
/// Most items of such a list recorded one by one (browser_fill_form takes 200 fields).
const MAX_ITEMS: usize = 200;

/// Longest text kept verbatim; longer is cut, and a list or object longer than this as JSON is
/// recorded by its length.
const MAX_KEPT: usize = 2000;

/// The agent's element: `ref` and `element`, as the trail's `target`.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Target {
    #[serde(rename = "ref", default, skip_serializing_if = "Option::is_none")]
    pub reference: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub element: Option<String>,
}

/// A value recorded by its length: characters of a string, else of its JSON text.
pub(super) fn length(value: &Value) -> Value {
    let len = match value {
        Value::String(s) => s.chars().count(),
        other => other.to_string().chars().count(),
    };
    json!({ "len": len })
}

/// The call's target and the rest of its arguments as the trail records them.
pub(super) fn split(keeps: &Keeps, args: &Value) -> (Option<Target>, Map<String, Value>) {
    let Value::Object(args) = args else {
        let mut rest = Map::new();
        if !args.is_null() {
            rest.insert("arguments".into(), length(args));
        }
        return (None, rest);
    };
    let text = |key: &str| {
        args.get(key)
            .and_then(Value::as_str)
            .map(|s| cut(s.to_string()))
    };
    let target = Target {
        reference: text("ref"),
        element: text("element"),
    };
    let rest = args
        .iter()
        .filter(|(k, v)| !(matches!(k.as_str(), "ref" | "element") && v.is_string()))
        .map(|(k, v)| (k.clone(), redact(keeps, k, v)))
        .collect();
    let target = (target != Target::default()).then_some(target);
    (target, rest)
}

fn redact(keeps: &Keeps, key: &str, value: &Value) -> Value {
    if keeps.files == Some(key) {
        return files(value);
    }
    if keeps.names_only == Some(key) {
        return match value {
            Value::Object(named) if named.len() <= MAX_ITEMS => named
                .iter()
                .map(|(name, v)| (cut(name.clone()), length(v)))
                .collect::<Map<_, _>>()
                .into(),
            other => length(other),
        };
    }
    if EACH.contains(&key) {
        return match value {
            Value::Array(items) if items.len() <= MAX_ITEMS => items
                .iter()
                .map(|item| match item {
                    Value::Object(fields) => fields
                        .iter()
                        .map(|(k, v)| (k.clone(), redact(keeps, k, v)))
                        .collect::<Map<_, _>>()
                        .into(),
                    other => length(other),
                })
                .collect(),
            other => length(other),
        };
    }
    let kept = KEPT.contains(&key) || keeps.args.contains(&key);
    match value {
        _ if !kept => length(value),
        Value::String(s) => Value::String(cut(s.clone())),
        Value::Array(_) | Value::Object(_) if value.to_string().len() > MAX_KEPT => length(value),
        other => other.clone(),
    }
}

/// Files to upload, as their names and sizes.
fn files(value: &Value) -> Value {
    match value {
        Value::Array(paths) if paths.len() <= MAX_ITEMS => paths
            .iter()
            .map(|p| match p.as_str() {
                Some(path) => {
                    let path = std::path::Path::new(path);
                    let name = path
                        .file_name()
                        .map(|n| cut(n.to_string_lossy().into_owned()));
                    let bytes = std::fs::metadata(path).ok().map(|m| m.len());
                    json!({ "name": name, "bytes": bytes })
                }
                None => length(p),
            })
            .collect(),
        other => length(other),
    }
}

fn cut(mut s: String) -> String {
    if let Some((at, _)) = s.char_indices().nth(MAX_KEPT) {
        s.truncate(at);
        s.push('…');
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::tools::registry;
    use crate::shared::state::test_support::temp_dir;

    /// As the trail splits a call of `tool` (a name no tool has keeps only what every tool does).
    fn split(tool: &str, args: &Value) -> (Option<Target>, Map<String, Value>) {
        let keeps = registry::get(tool)
            .map(|t| t.spec.keeps)
            .unwrap_or_default();
        super::split(&keeps, args)
    }

    #[test]
    fn emulated_headers_are_recorded_by_name_never_by_value() {
        let (_, rest) = split(
            "browser_emulate",
            &json!({"headers": {"X-Api-Key": "sk-live-123456"}, "geolocation": {"latitude": 1, "longitude": 2}, "clear": ["x-old"]}),
        );
        assert_eq!(
            Value::Object(rest),
            json!({"headers": {"X-Api-Key": {"len": 14}}, "geolocation": {"len": 28}, "clear": ["x-old"]})
        );
        let (_, rest) = split(
            "browser_proxy",
            &json!({"mode": "fixed", "server": "127.0.0.1:8080", "bypass": ["<-loopback>"]}),
        );
        assert_eq!(
            Value::Object(rest),
            json!({"mode": "fixed", "server": "127.0.0.1:8080", "bypass": ["<-loopback>"]})
        );
    }

    #[test]
    fn typed_filled_and_pressed_values_are_lengths_and_names_are_kept() {
        let (target, rest) = split(
            "browser_type",
            &json!({"ref": "e1abc", "element": "Password", "text": "hunter2-secret", "submit": true}),
        );
        let target = target.unwrap();
        assert_eq!(target.reference.as_deref(), Some("e1abc"));
        assert_eq!(target.element.as_deref(), Some("Password"));
        assert_eq!(
            Value::Object(rest),
            json!({"text": {"len": 14}, "submit": true})
        );

        let (_, rest) = split(
            "browser_fill_form",
            &json!({"fields": [{"ref": "e1", "element": "Card", "value": "4242 4242"},
                               {"ref": "f3:e2", "value": true}]}),
        );
        assert_eq!(
            rest["fields"],
            json!([{"ref": "e1", "element": "Card", "value": {"len": 9}},
                   {"ref": "f3:e2", "value": {"len": 4}}])
        );
        let (_, rest) = split(
            "browser_fill_form",
            &json!({"fields": [{"ref": "e1", "secret": "github-password"}]}),
        );
        assert_eq!(
            rest["fields"],
            json!([{"ref": "e1", "secret": "github-password"}]),
            "a secret filled by name is recorded by its name"
        );
        let (_, rest) = split("browser_press_key", &json!({"key": "Control+A"}));
        assert_eq!(rest["key"], json!({"len": 9}));
        let (_, rest) = split(
            "browser_handle_dialog",
            &json!({"action": "accept", "promptText": "pin"}),
        );
        assert_eq!(
            Value::Object(rest),
            json!({"action": "accept", "promptText": {"len": 3}})
        );
        let (_, rest) = split(
            "browser_navigate",
            &json!({"url": "https://example.com/a?q=1"}),
        );
        assert_eq!(rest["url"], json!("https://example.com/a?q=1"));
    }

    #[test]
    fn a_name_is_kept_only_in_the_tools_that_look_for_it() {
        let (_, find) = split("browser_find", &json!({"text": "Sign in"}));
        assert_eq!(find["text"], json!("Sign in"));
        let (_, typed) = split("browser_type", &json!({"ref": "e1", "text": "Sign in"}));
        assert_eq!(typed["text"], json!({"len": 7}));
    }

    #[test]
    fn a_page_tool_call_keeps_its_ref_and_records_its_arguments_as_lengths() {
        let (_, rest) = split(
            "browser_page_tools",
            &json!({"action": "call", "toolRef": "wt0123456789ab", "arguments": {"note": "hi"}}),
        );
        assert_eq!(rest["action"], json!("call"));
        assert_eq!(rest["toolRef"], json!("wt0123456789ab"));
        assert_eq!(rest["arguments"], json!({"len": 13}));
    }

    #[test]
    fn an_argument_no_list_names_is_a_length_whatever_its_tool() {
        // A tool or an argument added later is recorded fail-closed.
        for tool in ["browser_eval", "browser_type", "no_such_tool"] {
            let (_, rest) = split(tool, &json!({"expression": "document.cookie", "n": 12345}));
            assert_eq!(
                Value::Object(rest),
                json!({"expression": {"len": 15}, "n": {"len": 5}}),
                "{tool}"
            );
        }
        // Arguments that are not an object at all.
        let (target, rest) = split("browser_type", &json!(["secret"]));
        assert!(target.is_none());
        assert_eq!(Value::Object(rest), json!({"arguments": {"len": 10}}));
        // A ref that is not a string is not a target, and is recorded as it came (kept name).
        let (target, rest) = split("browser_click", &json!({"ref": 7}));
        assert!(target.is_none());
        assert_eq!(rest["ref"], json!(7));
    }

    #[test]
    fn uploads_are_names_and_sizes_never_paths_or_contents() {
        let file = temp_dir("audit-upload").join("report.pdf");
        std::fs::write(&file, b"secret contents").unwrap();
        let path = file.to_str().unwrap();
        let (_, rest) = split(
            "browser_upload_file",
            &json!({"ref": "e1", "paths": [path, "/nope/x.txt"]}),
        );
        assert_eq!(
            rest["paths"],
            json!([{"name": "report.pdf", "bytes": 15}, {"name": "x.txt", "bytes": null}])
        );
        assert!(!Value::Object(rest).to_string().contains("secret"));
    }

    #[test]
    fn long_kept_values_are_cut_and_big_ones_are_lengths() {
        let (target, rest) = split(
            "browser_click",
            &json!({"element": "x".repeat(5000), "modifiers": vec!["Shift"; 1000]}),
        );
        let element = target.unwrap().element.unwrap();
        assert_eq!(element.chars().count(), MAX_KEPT + 1);
        assert!(element.ends_with('…'));
        assert_eq!(rest["modifiers"], json!({"len": 8001}));
    }

    /// Every name the lists keep is an argument of some tool (of that tool, where the tool's
    /// declaration names it): the lists say what is there, nothing stale.
    #[test]
    fn every_kept_name_is_an_argument_of_its_tools() {
        let args_of = |tool: &str| -> Vec<String> {
            let spec = &registry::get(tool)
                .unwrap_or_else(|| panic!("no tool {tool}"))
                .spec;
            let mut names: Vec<String> = Vec::new();
            let props = &spec.input_schema["properties"];
            for (k, v) in props.as_object().into_iter().flatten() {
                names.push(k.clone());
                if let Some(inner) = v["items"]["properties"].as_object() {
                    names.extend(inner.keys().cloned());
                }
                // Items defined elsewhere in the schema ($ref to a definition).
                if let Some(r) = v["items"]["$ref"].as_str() {
                    let def = r.rsplit('/').next().unwrap();
                    for defs in ["$defs", "definitions"] {
                        if let Some(inner) = spec.input_schema[defs][def]["properties"].as_object()
                        {
                            names.extend(inner.keys().cloned());
                        }
                    }
                }
            }
            names
        };
        let all: Vec<String> = registry::all()
            .iter()
            .flat_map(|t| args_of(t.spec.name))
            .collect();
        for name in KEPT.iter().chain(EACH) {
            assert!(
                all.iter().any(|a| a == name),
                "{name} is no tool's argument"
            );
        }
        for tool in registry::all() {
            let keeps = tool.spec.keeps;
            let named = keeps.names_only.iter().chain(&keeps.files);
            for name in keeps.args.iter().chain(named) {
                let name = name.to_string();
                assert!(
                    args_of(tool.spec.name).contains(&name),
                    "{} has no {name}",
                    tool.spec.name
                );
            }
        }
    }
}
