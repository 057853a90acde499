//! The rich-text editor matrix: each editor, installed from npm as it is packaged (`.ci/run`
//! puts them in target/e2e-editors from tests/fixtures/editors/package-lock.json) and served
//! with a page of tests/fixtures/editors, takes `browser_type`, `browser_press_key` and
//! `browser_fill_form`: typing a line, Enter and a second line, Select All and a key over it,
//! undo, a fill, and the caret moved back for a Backspace, each step checked against the
//! editor's own model (read through its API by the page's `editorModel()`), with no error in
//! the page.

use std::path::PathBuf;
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use axum::extract::Path as UrlPath;
use axum::http::{StatusCode, header};
use axum::response::IntoResponse;
use serde_json::{Value, json};

use crate::harness::{Mcp, serve_app, shared, text};
use crate::snapshot::ref_of;

/// Where `.ci/run` installs the editors (`TABPILOT_E2E_EDITORS` names another place).
fn editors_home() -> PathBuf {
    let home = std::env::var_os("TABPILOT_E2E_EDITORS")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target/e2e-editors"));
    assert!(
        home.join("node_modules/.package-lock.json").is_file(),
        "the editors of the matrix are not installed in {}: .ci/run installs them (its step \
         `npm ci` in target/e2e-editors, from tests/fixtures/editors); by hand: mkdir -p \
         target/e2e-editors && cp tests/fixtures/editors/package*.json target/e2e-editors && \
         (cd target/e2e-editors && npm ci)",
        home.display()
    );
    home
}

fn content_type(name: &str) -> &'static str {
    match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript",
        Some("css") => "text/css",
        Some("json") => "application/json",
        Some("svg") => "image/svg+xml",
        Some("ttf") => "font/ttf",
        Some("woff") => "font/woff",
        Some("woff2") => "font/woff2",
        _ => "application/octet-stream",
    }
}

/// One server for the whole matrix: the pages under `/`, the installed packages under `/nm/`.
fn origin() -> &'static str {
    static ORIGIN: OnceLock<String> = OnceLock::new();
    ORIGIN.get_or_init(|| {
        let modules = editors_home().join("node_modules");
        let pages = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/editors");
        let file = |root: PathBuf| {
            move |UrlPath(name): UrlPath<String>| {
                let root = root.clone();
                async move {
                    if name.split('/').any(|p| p == "..") {
                        return (StatusCode::NOT_FOUND, "no such file").into_response();
                    }
                    match tokio::fs::read(root.join(&name)).await {
                        Ok(body) => {
                            ([(header::CONTENT_TYPE, content_type(&name))], body).into_response()
                        }
                        Err(_) => (StatusCode::NOT_FOUND, "no such file").into_response(),
                    }
                }
            }
        };
        let app = axum::Router::new()
            .route("/nm/{*name}", axum::routing::get(file(modules)))
            .route("/{*name}", axum::routing::get(file(pages)));
        serve_app(app)
    })
}

/// The editor's model and the errors its page saw, as the page's own script reads them.
fn model(agent: &mut Mcp) -> (Value, Value) {
    let (_, data) = agent.ok(
        "browser_eval",
        json!({"expression": "JSON.stringify([editorModel(), editorErrors])"}),
    );
    let both: Value = serde_json::from_str(data["value"].as_str().expect("a string")).unwrap();
    (both[0].clone(), both[1].clone())
}

/// Waits (a few seconds at most) for the model to be `want`, for the editors that apply a key
/// a moment later (Draft.js undoes on a timer); fails naming the editor and the step.
fn expect(agent: &mut Mcp, editor: &str, step: &str, want: &[&str]) {
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (got, errors) = model(agent);
        assert_eq!(errors, json!([]), "{editor}, {step}: the page saw errors");
        if got == json!(want) {
            // A person's pause before the next step, for the editors that merge the edits of a
            // moment into one undo entry and say so (`editorPause`).
            agent.ok(
                "browser_eval",
                json!({"expression": "window.editorPause?.(); true"}),
            );
            return;
        }
        assert!(
            Instant::now() < deadline,
            "{editor}, {step}: the editor's model holds {got}, not {}",
            json!(want)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// An action's reply says it was done.
fn done(editor: &str, step: &str, (text, data): (String, Value)) {
    assert_eq!(data["outcome"], "done", "{editor}, {step}: {text}");
}

fn press(agent: &mut Mcp, editor: &str, key: &str) {
    let r = agent.ok("browser_press_key", json!({"key": key}));
    done(editor, &format!("the key {key}"), r);
}

/// What one editor's matrix expects where editors differ from one another.
struct Quirks {
    /// The model after Select All and a key over two lines.
    over: &'static [&'static str],
}

const PLAIN: Quirks = Quirks { over: &["X"] };

/// The matrix on the editor of `page`, whose editable element is the textbox "Editor".
fn matrix(page: &str, editor: &str, quirks: &Quirks) {
    let base = origin();
    let mut agent = shared().agent();
    agent.ok("browser_navigate", json!({"url": format!("{base}/{page}")}));
    // The page's modules are in once its model answers.
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let r = agent.call(
            "browser_eval",
            json!({"expression": "typeof editorModel === 'function' && editorErrors.length === 0"}),
        );
        if r["structuredContent"]["value"] == true {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{editor}: the page never set up its editor: {}",
            text(&r)
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let snap = snap.to_string();
    let field = ref_of(&snap, "textbox", "Editor");
    let r = agent.ok("browser_type", json!({"ref": field, "text": "Hello world"}));
    done(editor, "browser_type", r);
    expect(&mut agent, editor, "after typing a line", &["Hello world"]);
    for key in ["Enter", "O", "k"] {
        press(&mut agent, editor, key);
    }
    expect(
        &mut agent,
        editor,
        "after Enter and a second line",
        &["Hello world", "Ok"],
    );
    press(&mut agent, editor, "Control+A");
    press(&mut agent, editor, "X");
    expect(&mut agent, editor, "after Select All and X", quirks.over);
    press(&mut agent, editor, "Control+Z");
    expect(&mut agent, editor, "after undo", &["Hello world", "Ok"]);
    let r = agent.ok(
        "browser_fill_form",
        json!({"fields": [{"ref": field, "value": "Filled in"}]}),
    );
    done(editor, "browser_fill_form", r);
    // The lines after the first that the editor keeps after a Select All and a key (quirks).
    let with_rest = |line: &'static str| -> Vec<&str> {
        let rest = quirks.over.get(1..).unwrap_or_default();
        std::iter::once(line).chain(rest.iter().copied()).collect()
    };
    expect(
        &mut agent,
        editor,
        "after browser_fill_form",
        &with_rest("Filled in"),
    );
    for key in ["ArrowLeft", "ArrowLeft", "Backspace"] {
        press(&mut agent, editor, key);
    }
    let step = "after two ArrowLefts and a Backspace";
    expect(&mut agent, editor, step, &with_rest("Filledin"));
}

#[test]
fn draft_js_takes_typing_enter_select_all_undo_and_fill() {
    matrix("draft.html", "Draft.js", &PLAIN);
}

#[test]
fn prosemirror_takes_typing_enter_select_all_undo_and_fill() {
    matrix("prosemirror.html", "ProseMirror", &PLAIN);
}

#[test]
fn tiptap_takes_typing_enter_select_all_undo_and_fill() {
    matrix("tiptap.html", "Tiptap", &PLAIN);
}

#[test]
fn lexical_takes_typing_enter_select_all_undo_and_fill() {
    matrix("lexical.html", "Lexical", &PLAIN);
}

#[test]
fn codemirror_takes_typing_enter_select_all_undo_and_fill() {
    // Typing over CodeMirror 6's Select All of two lines leaves an empty line after the text in
    // Chromium, from a person's own keys too (checked with real input): the editor reads the
    // DOM's change so.
    matrix(
        "codemirror.html",
        "CodeMirror 6",
        &Quirks { over: &["X", ""] },
    );
}

#[test]
fn quill_takes_typing_enter_select_all_undo_and_fill() {
    matrix("quill.html", "Quill", &PLAIN);
}

#[test]
fn a_plain_contenteditable_takes_typing_enter_select_all_undo_and_fill() {
    matrix("contenteditable.html", "contenteditable", &PLAIN);
}

#[test]
fn slate_takes_typing_enter_select_all_undo_and_fill() {
    matrix("slate.html", "Slate", &PLAIN);
}

#[test]
fn ckeditor_5_takes_typing_enter_select_all_undo_and_fill() {
    matrix("ckeditor.html", "CKEditor 5", &PLAIN);
}

#[test]
fn monaco_takes_typing_enter_select_all_undo_and_fill() {
    matrix("monaco.html", "Monaco", &PLAIN);
}

#[test]
fn tinymce_takes_typing_enter_select_all_undo_and_fill() {
    matrix("tinymce.html", "TinyMCE", &PLAIN);
}

#[test]
fn an_editor_that_refuses_the_keys_gets_a_failed_type_and_fill_not_done() {
    let base = origin();
    let mut agent = shared().agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": format!("{base}/refuses.html")}),
    );
    let field = ref_of(&snap, "textbox", "Editor");
    let (code, r) = agent.fails("browser_type", json!({"ref": field, "text": "Hello"}));
    assert_eq!(code, "NOT_ACTIONABLE", "{}", text(&r));
    assert!(
        text(&r)
            .contains("the editor did not take the text: after typing it shows \"Locked text\""),
        "{}",
        text(&r)
    );
    let (code, r) = agent.fails(
        "browser_fill_form",
        json!({"fields": [{"ref": field, "value": "Hello"}]}),
    );
    assert_eq!(code, "NOT_ACTIONABLE", "{}", text(&r));
    let (_, errors) = model(&mut agent);
    assert_eq!(errors, json!([]));
}

#[test]
fn tab_moves_the_focus_on_from_an_editor_as_from_a_field() {
    let base = origin();
    let mut agent = shared().agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": format!("{base}/contenteditable.html")}),
    );
    let field = ref_of(&snap, "textbox", "Editor");
    agent.ok("browser_type", json!({"ref": field, "text": "Hello"}));
    let (text, data) = agent.ok("browser_press_key", json!({"key": "Tab"}));
    assert_eq!(data["focused"], "<button> \"After the editor\"", "{text}");
    expect(&mut agent, "contenteditable", "after Tab", &["Hello"]);
}
