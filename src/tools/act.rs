//! Acting on the page: click, type, hover, drag, select, keys, clear, scroll, fill_form and
//! upload. Arguments are checked here before anything is sent; the page checks actionability.

use std::time::Duration;

use base64::Engine;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::Session;
use super::args::{AfterAction, acts, parse, ref_arg, schema, schema_after, timeout};
use super::spec::{ToolOutput, ToolSpec};
use crate::error::{Code, Outcome, ToolError};
use crate::policy::paths;
use crate::protocol::Op;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ClickArgs {
    /// Ref from a snapshot, like e7k2f; or give x and y instead.
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// Viewport point in CSS pixels (canvases, maps), instead of ref.
    x: Option<f64>,
    y: Option<f64>,
    /// The element in words, for messages.
    element: Option<String>,
    double_click: Option<bool>,
    button: Option<MouseButton>,
    /// Keys held during the click.
    modifiers: Option<Vec<Modifier>>,
    timeout: Option<u64>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum MouseButton {
    Left,
    Right,
    Middle,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, PartialEq, Eq, Debug)]
enum Modifier {
    Alt,
    Control,
    Meta,
    Shift,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct TypeArgs {
    #[serde(rename = "ref")]
    reference: String,
    /// Replaces the field's text.
    text: String,
    /// Press Enter afterwards (submits the form).
    submit: Option<bool>,
    element: Option<String>,
    timeout: Option<u64>,
}

/// One element by ref: hover and clear.
#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct RefArgs {
    #[serde(rename = "ref")]
    reference: String,
    element: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct DragArgs {
    start_ref: String,
    start_element: Option<String>,
    /// Drop target, in the same frame as startRef.
    end_ref: String,
    end_element: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct SelectArgs {
    #[serde(rename = "ref")]
    reference: String,
    /// Option values or labels; several for a multi-select.
    values: Vec<String>,
    element: Option<String>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct PressArgs {
    /// A key or combo: "Enter", "a", "Control+A", "Shift+Tab", "ArrowDown".
    key: String,
    timeout: Option<u64>,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy)]
#[serde(rename_all = "lowercase")]
enum Direction {
    Up,
    Down,
    Left,
    Right,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ScrollArgs {
    /// With direction: the container to scroll (or one inside it). Alone: scroll it into view.
    #[serde(rename = "ref")]
    reference: Option<String>,
    element: Option<String>,
    /// Without ref: the page, or its one dominant scrolling panel.
    direction: Option<Direction>,
    /// Pixels (default: most of a screen).
    amount: Option<u32>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct FillFormArgs {
    /// Filled in this order; all are checked before the first is written.
    fields: Vec<Field>,
    timeout: Option<u64>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Field {
    #[serde(rename = "ref")]
    reference: String,
    /// Text, an option's value or label, or true/false for a checkbox or radio.
    value: FieldValue,
    element: Option<String>,
}

#[derive(Deserialize, Serialize, JsonSchema)]
#[serde(untagged)]
enum FieldValue {
    Bool(bool),
    Text(String),
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct UploadArgs {
    /// A file input's ref.
    #[serde(rename = "ref")]
    reference: String,
    /// Local files inside the path sandbox.
    paths: Vec<String>,
    element: Option<String>,
    timeout: Option<u64>,
}

const MAX_FIELDS: usize = 200;
const MAX_UPLOAD_FILES: usize = 20;

pub fn specs() -> Vec<ToolSpec> {
    let tool = |name, description, input_schema| ToolSpec {
        name,
        description,
        input_schema,
        output_schema: Some(action_schema()),
        hints: acts(),
    };
    vec![
        tool(
            "browser_click",
            "Click an element by ref, or a viewport point {x, y}.",
            schema_after::<ClickArgs>(),
        ),
        tool(
            "browser_type",
            "Replace a field's text by ref; submit presses Enter.",
            schema_after::<TypeArgs>(),
        ),
        tool(
            "browser_hover",
            "Move the mouse over an element.",
            schema_after::<RefArgs>(),
        ),
        tool(
            "browser_drag",
            "Drag one element onto another (same frame).",
            schema_after::<DragArgs>(),
        ),
        tool(
            "browser_select_option",
            "Choose options in a <select> by value or label.",
            schema_after::<SelectArgs>(),
        ),
        tool(
            "browser_press_key",
            "Press a key or combo on the focused element.",
            schema_after::<PressArgs>(),
        ),
        tool(
            "browser_clear",
            "Empty a text field.",
            schema_after::<RefArgs>(),
        ),
        tool(
            "browser_scroll",
            "Scroll the page, a container, or an element into view.",
            schema::<ScrollArgs>(),
        ),
        ToolSpec {
            output_schema: None,
            ..tool(
                "browser_fill_form",
                "Fill many fields at once (text, select, checkbox, radio), across frames.",
                schema_after::<FillFormArgs>(),
            )
        },
        tool(
            "browser_upload_file",
            "Set local files on a file input.",
            schema_after::<UploadArgs>(),
        ),
    ]
}

fn action_schema() -> Value {
    json!({"type": "object", "properties": {
        "outcome": {"type": "string"}, "navigated": {"type": "boolean"}, "url": {"type": ["string", "null"]},
        "element": {"type": "string"}, "retagged": {"type": "boolean"}}, "required": ["outcome"]})
}

impl Session {
    /// Runs one interaction tool. `None` means the name is not one of them.
    /// Runs one of this file's tools (`Session::call` routes only those here).
    pub(super) async fn act_tool(&self, name: &str, args: Value) -> Result<ToolOutput, ToolError> {
        // Scrolling changes nothing on the page, so it waits for nothing.
        if name == "browser_scroll" {
            return self.scroll(args).await;
        }
        let (args, after) = AfterAction::split(name, args)?;
        let mut out = match name {
            "browser_fill_form" => self.fill_form(args, &after).await,
            "browser_click" => self.click(args, &after).await,
            "browser_type" => self.type_text(args, &after).await,
            "browser_hover" => self.hover(args, &after).await,
            "browser_drag" => self.drag(args, &after).await,
            "browser_select_option" => self.select(args, &after).await,
            "browser_press_key" => self.press(args, &after).await,
            "browser_clear" => self.clear(args, &after).await,
            "browser_upload_file" => self.upload(args, &after).await,
            _ => Err(super::unknown_tool(name)),
        }?;
        if after.wants_snapshot() {
            self.append_snapshot(&mut out).await;
        }
        Ok(out)
    }

    /// A page-changing operation with the wait the caller asked for after it.
    async fn act_call(
        &self,
        op: Op,
        mut args: Value,
        after: &AfterAction,
        wait: Duration,
    ) -> Result<Value, ToolError> {
        args["after"] = after.wire();
        self.page(op, args, wait).await
    }

    async fn click(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: ClickArgs = parse("browser_click", args)?;
        let wait = timeout(a.timeout)?;
        let target = match (&a.reference, a.x, a.y) {
            (Some(r), None, None) => {
                ref_arg(r)?;
                json!({"ref": r})
            }
            (None, Some(x), Some(y)) if x.is_finite() && y.is_finite() => json!({"x": x, "y": y}),
            _ => {
                return Err(ToolError::bad_args(
                    "browser_click takes either ref or both x and y",
                ));
            }
        };
        let modifiers = a.modifiers.unwrap_or_default();
        let button = a.button.unwrap_or(MouseButton::Left);
        let double = a.double_click.unwrap_or(false);
        let mut page_args = target;
        page_args["modifiers"] = json!(modifiers);
        page_args["button"] = json!(button);
        page_args["doubleClick"] = json!(double);
        let r = self.act_call(Op::Click, page_args, after, wait).await?;
        let verb = match (button, double) {
            (MouseButton::Left, false) => "Clicked",
            (MouseButton::Left, true) => "Double-clicked",
            (MouseButton::Right, _) => "Right-clicked",
            (MouseButton::Middle, _) => "Middle-clicked",
        };
        let mut head = match (a.x, a.y) {
            (Some(x), Some(y)) => format!(
                "{verb} at ({x}, {y}), which hit {}",
                r["element"].as_str().unwrap_or("?")
            ),
            _ => format!("{verb} {}", named(&a.element, &r)),
        };
        if !modifiers.is_empty() {
            let keys: Vec<String> = modifiers.iter().map(|m| format!("{m:?}")).collect();
            head.push_str(&format!(" with {} held", keys.join("+")));
        }
        Ok(action_output(head, r))
    }

    async fn type_text(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: TypeArgs = parse("browser_type", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let submit = a.submit.unwrap_or(false);
        let page_args = json!({"ref": a.reference, "text": a.text, "submit": submit});
        let r = self.act_call(Op::Type, page_args, after, wait).await?;
        let mut head = format!(
            "Typed {} characters into {}",
            r["chars"],
            named(&a.element, &r)
        );
        if submit {
            head.push_str(" and pressed Enter");
        }
        Ok(action_output(head, r))
    }

    async fn hover(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: RefArgs = parse("browser_hover", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let r = self
            .act_call(Op::Hover, json!({"ref": a.reference}), after, wait)
            .await?;
        Ok(action_output(
            format!("Hovered over {}", named(&a.element, &r)),
            r,
        ))
    }

    async fn drag(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: DragArgs = parse("browser_drag", args)?;
        ref_arg(&a.start_ref)?;
        ref_arg(&a.end_ref)?;
        let frame = |r: &str| r.split_once(':').map(|(f, _)| f.to_string());
        if frame(&a.start_ref) != frame(&a.end_ref) {
            return Err(ToolError::bad_args(format!(
                "{} and {} are in different frames; a drag stays in one frame",
                a.start_ref, a.end_ref
            )));
        }
        let wait = timeout(a.timeout)?;
        let page_args = json!({"startRef": a.start_ref, "endRef": a.end_ref});
        let r = self.act_call(Op::Drag, page_args, after, wait).await?;
        let target = match &a.end_element {
            Some(words) => format!("{words} ({})", r["target"].as_str().unwrap_or("?")),
            None => r["target"].as_str().unwrap_or("?").to_string(),
        };
        let how = if r["mode"] == "html5" {
            if r["dropped"] == true {
                "HTML5 drag and drop"
            } else {
                "HTML5 drag; the target did not accept the drop"
            }
        } else {
            "pointer drag"
        };
        let head = format!(
            "Dragged {} onto {target} ({how})",
            named(&a.start_element, &r)
        );
        let mut out = action_output(head, r.clone());
        if let Some(data) = out.structured.as_mut() {
            data["target"] = r["target"].clone();
            data["mode"] = r["mode"].clone();
            data["dropped"] = r["dropped"].clone();
        }
        Ok(out)
    }

    async fn select(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: SelectArgs = parse("browser_select_option", args)?;
        ref_arg(&a.reference)?;
        if a.values.is_empty() {
            return Err(ToolError::bad_args("values needs at least one option"));
        }
        let wait = timeout(a.timeout)?;
        let page_args = json!({"ref": a.reference, "values": a.values});
        let r = self.act_call(Op::Select, page_args, after, wait).await?;
        let picked: Vec<String> = r["selected"]
            .as_array()
            .map(|v| v.iter().map(|s| s.to_string()).collect())
            .unwrap_or_default();
        let mut head = format!(
            "Selected {} in {}",
            picked.join(", "),
            named(&a.element, &r)
        );
        if r["changed"] == false {
            head.push_str(" (already selected; no events fired)");
        }
        let mut out = action_output(head, r.clone());
        if let Some(data) = out.structured.as_mut() {
            data["selected"] = r["selected"].clone();
            data["changed"] = r["changed"].clone();
        }
        Ok(out)
    }

    async fn press(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: PressArgs = parse("browser_press_key", args)?;
        let (modifiers, key) = parse_key(&a.key)?;
        let wait = timeout(a.timeout)?;
        let page_args = json!({"key": key, "modifiers": modifiers});
        let r = self.act_call(Op::Press, page_args, after, wait).await?;
        let mut head = format!(
            "Pressed {} on {}",
            a.key,
            r["element"].as_str().unwrap_or("?")
        );
        if let Some(effect) = r["effect"].as_str() {
            head.push_str(&format!("; {effect}"));
        }
        let mut out = action_output(head, r.clone());
        if let Some(data) = out.structured.as_mut() {
            data["effect"] = r["effect"].clone();
            data["focused"] = r["focused"].clone();
        }
        Ok(out)
    }

    async fn clear(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: RefArgs = parse("browser_clear", args)?;
        ref_arg(&a.reference)?;
        let wait = timeout(a.timeout)?;
        let r = self
            .act_call(Op::Clear, json!({"ref": a.reference}), after, wait)
            .await?;
        let head = if r["changed"] == false {
            format!("{} was already empty", named(&a.element, &r))
        } else {
            format!("Cleared {}", named(&a.element, &r))
        };
        Ok(action_output(head, r))
    }

    async fn scroll(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: ScrollArgs = parse("browser_scroll", args)?;
        if let Some(r) = &a.reference {
            ref_arg(r)?;
        }
        if a.reference.is_none() && a.direction.is_none() {
            return Err(ToolError::bad_args(
                "browser_scroll needs a direction, a ref to bring into view, or both",
            ));
        }
        if a.amount.is_some() && a.direction.is_none() {
            return Err(ToolError::bad_args("amount needs a direction"));
        }
        let mut page_args = json!({"direction": a.direction, "amount": a.amount});
        if let Some(r) = &a.reference {
            page_args["ref"] = json!(r);
        }
        let r = self
            .page(Op::Scroll, page_args, Duration::from_secs(15))
            .await?;
        let mut text = r["summary"].as_str().unwrap_or("Scrolled").to_string();
        if let Some(words) = &a.element {
            text.push_str(&format!(" ({words})"));
        }
        Ok(ToolOutput::new(
            text,
            json!({"outcome": Outcome::Done, "scrolled": r["scrolled"], "target": r["target"],
            "from": r["from"], "to": r["to"], "max": r["max"]}),
        ))
    }

    async fn fill_form(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: FillFormArgs = parse("browser_fill_form", args)?;
        if a.fields.is_empty() || a.fields.len() > MAX_FIELDS {
            return Err(ToolError::bad_args(format!(
                "fields takes 1 to {MAX_FIELDS} fields"
            )));
        }
        for f in &a.fields {
            ref_arg(&f.reference)?;
        }
        let wait = timeout(a.timeout)?;
        let fields: Vec<Value> = a
            .fields
            .iter()
            .map(|f| json!({"ref": f.reference, "value": f.value}))
            .collect();
        let r = self
            .act_call(Op::FillForm, json!({"fields": fields}), after, wait)
            .await?;
        fill_output(&a.fields, &r)
    }

    async fn upload(&self, args: Value, after: &AfterAction) -> Result<ToolOutput, ToolError> {
        let a: UploadArgs = parse("browser_upload_file", args)?;
        ref_arg(&a.reference)?;
        if a.paths.is_empty() || a.paths.len() > MAX_UPLOAD_FILES {
            return Err(ToolError::bad_args(format!(
                "paths takes 1 to {MAX_UPLOAD_FILES} files"
            )));
        }
        let wait = timeout(a.timeout)?;
        let files = read_uploads(&a.paths, &paths::roots())?;
        let r = self.send_files(&a.reference, files, after, wait).await?;
        let names: Vec<String> = r["files"]
            .as_array()
            .map(|v| {
                let name = |f: &Value| f["name"].as_str().unwrap_or("?").to_string();
                v.iter()
                    .map(|f| format!("{} ({} bytes)", name(f), f["size"]))
                    .collect()
            })
            .unwrap_or_default();
        let head = format!("Set {} on {}", names.join(", "), named(&a.element, &r));
        let mut out = action_output(head, r.clone());
        if let Some(data) = out.structured.as_mut() {
            data["files"] = r["files"].clone();
        }
        Ok(out)
    }
}

impl Session {
    /// Sends the files to the page and sets them on the input. A controller frame is at most
    /// 1 MiB, so bigger uploads go ahead in parts that the page holds until the last call.
    async fn send_files(
        &self,
        reference: &str,
        files: Vec<Upload>,
        after: &AfterAction,
        wait: Duration,
    ) -> Result<Value, ToolError> {
        let total: usize = files.iter().map(|f| f.data.len()).sum();
        let mut listed = Vec::new();
        let token = format!(
            "{:x}",
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos())
        );
        for (i, f) in files.into_iter().enumerate() {
            if total <= UPLOAD_PART {
                listed.push(json!({"name": f.name, "mime": f.mime, "data": f.data}));
                continue;
            }
            for part in f.data.as_bytes().chunks(UPLOAD_PART) {
                let part = std::str::from_utf8(part).expect("base64 is ASCII");
                let args = json!({"ref": reference, "upload": token, "file": i, "data": part});
                self.page(Op::UploadPart, args, wait).await?;
            }
            listed.push(json!({"name": f.name, "mime": f.mime}));
        }
        let args = json!({"ref": reference, "upload": token, "files": listed});
        self.act_call(Op::Upload, args, after, wait).await
    }
}

struct Upload {
    name: String,
    mime: &'static str,
    /// The bytes as base64.
    data: String,
}

/// Base64 characters per call, well inside a controller frame.
const UPLOAD_PART: usize = 768 << 10;

/// Reads the files to upload after the sandbox check: name, type and bytes (base64) for each,
/// within one ceiling for the call.
fn read_uploads(list: &[String], roots: &[std::path::PathBuf]) -> Result<Vec<Upload>, ToolError> {
    let mut total = 0u64;
    let mut checked = Vec::new();
    for p in list {
        let (path, size) = paths::checked_input(p, roots)?;
        total += size;
        if total > paths::MAX_INPUT_BYTES {
            return Err(ToolError::bad_args(format!(
                "the files come to more than {} MiB, the ceiling for one upload",
                paths::MAX_INPUT_BYTES >> 20
            )));
        }
        checked.push(path);
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    checked
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path)
                .map_err(|e| ToolError::bad_args(format!("cannot read {}: {e}", path.display())))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok(Upload {
                mime: mime_of(&name),
                name,
                data: b64.encode(bytes),
            })
        })
        .collect()
}

fn mime_of(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "txt" | "log" | "md" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}

/// Keys the page knows how to press besides single characters.
const NAMED_KEYS: &[&str] = &[
    "Enter",
    "Tab",
    "Escape",
    "Backspace",
    "Delete",
    "ArrowUp",
    "ArrowDown",
    "ArrowLeft",
    "ArrowRight",
    "Home",
    "End",
    "PageUp",
    "PageDown",
    "Space",
    "Insert",
    "F1",
    "F2",
    "F3",
    "F4",
    "F5",
    "F6",
    "F7",
    "F8",
    "F9",
    "F10",
    "F11",
    "F12",
];

/// "Control+Shift+A" into its modifiers and its key; "Space" is the key " ".
fn parse_key(combo: &str) -> Result<(Vec<Modifier>, String), ToolError> {
    // A combo ending in "+" presses the plus key itself ("+", "Shift++").
    let (mods, key) = match combo.strip_suffix('+') {
        Some(rest) if rest.is_empty() || rest.ends_with('+') => {
            (rest.strip_suffix('+').unwrap_or(""), "+")
        }
        _ => combo.rsplit_once('+').unwrap_or(("", combo)),
    };
    let mut modifiers = Vec::new();
    for m in mods.split('+').filter(|m| !m.is_empty()) {
        let m = match m {
            "Alt" | "Option" => Modifier::Alt,
            "Control" | "Ctrl" => Modifier::Control,
            "Meta" | "Cmd" | "Command" => Modifier::Meta,
            "Shift" => Modifier::Shift,
            other => {
                return Err(ToolError::bad_args(format!(
                    "{other:?} in {combo:?} is not a modifier; use Alt, Control, Meta or Shift"
                )));
            }
        };
        if !modifiers.contains(&m) {
            modifiers.push(m);
        }
    }
    if key == "Space" {
        return Ok((modifiers, " ".into()));
    }
    if key.chars().count() == 1 || NAMED_KEYS.contains(&key) {
        return Ok((modifiers, key.to_string()));
    }
    Err(ToolError::bad_args(format!(
        "{key:?} is not a key; give one character or one of {}",
        NAMED_KEYS.join(", ")
    )))
}

/// One line for the whole form, the fields' outcomes as data; some filled and some failed is
/// `partial`, none filled is an error with every field's reason.
fn fill_output(asked: &[Field], r: &Value) -> Result<ToolOutput, ToolError> {
    let results = r["fields"].as_array().cloned().unwrap_or_default();
    let total = asked.len();
    let failed: Vec<&Value> = results
        .iter()
        .filter(|f| f["outcome"] == "failed")
        .collect();
    let unchanged = results
        .iter()
        .filter(|f| f["outcome"] == "unchanged")
        .count();
    let filled = total - failed.len();
    let label = |f: &Value| {
        let reference = f["ref"].as_str().unwrap_or("?");
        let words = asked
            .iter()
            .find(|a| a.reference == reference)
            .and_then(|a| a.element.clone())
            .or_else(|| f["element"].as_str().map(String::from))
            .unwrap_or_default();
        format!("{reference} {words}")
    };
    let errors: Vec<Value> = failed
        .iter()
        .map(|f| json!({"ref": f["ref"], "element": f["element"], "code": f["error"]["code"], "message": f["error"]["message"]}))
        .collect();
    let reasons: Vec<String> = failed
        .iter()
        .map(|f| {
            format!(
                "{} ({}: {})",
                label(f),
                f["error"]["code"].as_str().unwrap_or("?"),
                f["error"]["message"].as_str().unwrap_or("?")
            )
        })
        .collect();
    if filled == 0 {
        let code = failed
            .first()
            .and_then(|f| f["error"]["code"].as_str())
            .and_then(Code::parse)
            .unwrap_or(Code::Internal);
        return Err(ToolError::failed(
            code,
            format!("no field was filled: {}", reasons.join("; ")),
        ));
    }
    let mut text = format!("Filled {filled} of {total} fields");
    if unchanged > 0 {
        text.push_str(&format!(" ({unchanged} already had that value)"));
    }
    if !reasons.is_empty() {
        text.push_str(&format!("; failed: {}", reasons.join("; ")));
    }
    let outcome = if failed.is_empty() {
        Outcome::Done
    } else {
        Outcome::Partial
    };
    let mut out = ToolOutput::new(
        text,
        json!({"outcome": outcome, "filled": filled, "total": total, "errors": errors, "fields": results}),
    );
    out.outcome = outcome;
    Ok(out)
}

/// The element as the caller named it, with what the page says it is.
fn named(element: &Option<String>, r: &Value) -> String {
    let found = r["element"].as_str().unwrap_or("the element");
    match element {
        Some(words) => format!("{words} ({found})"),
        None => found.to_string(),
    }
}

fn action_output(head: String, r: Value) -> ToolOutput {
    let navigated = r["navigated"].as_bool().unwrap_or(false);
    let mut text = head;
    if navigated {
        text.push_str(&format!(
            "; the page navigated to {}",
            r["url"].as_str().unwrap_or("?")
        ));
        if r["settled"] == false {
            text.push_str(" (still loading)");
        }
    } else if let Some(err) = r["navigationError"].as_str() {
        text.push_str(&format!("; a navigation started and failed: {err}"));
    } else {
        text.push_str("; no navigation");
    }
    if r["retagged"] == true {
        text.push_str(" (ref re-resolved after the page re-rendered)");
    }
    ToolOutput::new(
        text,
        json!({"outcome": Outcome::Done, "navigated": navigated, "url": r["url"],
        "element": r["element"], "retagged": r["retagged"].as_bool().unwrap_or(false)}),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn key_combos_split_into_modifiers_and_a_key() {
        let (m, k) = parse_key("Control+A").unwrap();
        assert_eq!((m, k.as_str()), (vec![Modifier::Control], "A"));
        let (m, k) = parse_key("Shift+Tab").unwrap();
        assert_eq!((m, k.as_str()), (vec![Modifier::Shift], "Tab"));
        assert_eq!(parse_key("+").unwrap().1, "+");
        let (m, k) = parse_key("Shift++").unwrap();
        assert_eq!((m, k.as_str()), (vec![Modifier::Shift], "+"));
        assert_eq!(parse_key("Space").unwrap().1, " ");
        assert_eq!(parse_key("é").unwrap().1, "é");
        for bad in ["Hyper+A", "Enterr", "Control+", "ab"] {
            assert_eq!(parse_key(bad).unwrap_err().code, Code::BadArgs, "{bad}");
        }
    }

    #[test]
    fn a_form_with_some_fields_failed_is_partial() {
        let asked: Vec<Field> = serde_json::from_value(json!([
            {"ref": "e1111", "value": "Ada"},
            {"ref": "e2222", "value": "maybe", "element": "Terms"}
        ]))
        .unwrap();
        let r = json!({"fields": [
            {"ref": "e1111", "element": "<input>", "outcome": "filled"},
            {"ref": "e2222", "element": "<input>", "outcome": "failed",
             "error": {"code": "BAD_ARGS", "message": "give true or false"}}
        ]});
        let out = fill_output(&asked, &r).unwrap();
        assert_eq!(out.outcome, Outcome::Partial);
        let data = out.structured.unwrap();
        assert_eq!(
            (data["filled"].clone(), data["total"].clone()),
            (json!(1), json!(2))
        );
        assert_eq!(data["errors"][0]["ref"], "e2222");
        assert!(out.text.contains("e2222 Terms"), "{}", out.text);
        assert!(!out.text.contains('\n'));
    }
}
