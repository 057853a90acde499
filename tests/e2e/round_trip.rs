//! The wait after an action covers the app's own round trip: a value the page writes into its
//! form a moment after the last key (Draftail saves 250 ms after it), and an update that comes
//! back over a WebSocket after a click (Streamlit's reruns), within the caller's settle.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Form, State};
use axum::response::Html;
use axum::routing::{get, post};
use serde_json::json;

use crate::harness::{serve_app, shared};
use crate::snapshot::ref_of;

/// An editor in the manner of Draft.js: what is typed reaches the form's hidden field 300 ms
/// after the last key, and Save posts the form.
const EDITOR: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Debounced editor</title></head>
<body><main><h1>Post</h1>
<form method="post" action="/save">
  <div id="body" contenteditable="true" role="textbox" aria-label="Body"
       style="border:1px solid #888;min-height:3em"></div>
  <input type="hidden" name="body" id="field">
  <button>Save</button>
</form></main>
<script>
  const body = document.getElementById('body');
  let timer = null;
  body.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => { document.getElementById('field').value = body.textContent; }, 300);
  });
</script></body></html>"#;

#[derive(serde::Deserialize)]
struct Saved {
    body: String,
}

#[test]
fn a_save_right_after_typing_sends_what_the_editor_writes_300_ms_after_the_last_key() {
    let saved: Arc<Mutex<Vec<String>>> = Arc::default();
    let app = Router::new()
        .route("/", get(|| async { Html(EDITOR) }))
        .route(
            "/save",
            post(
                |State(saved): State<Arc<Mutex<Vec<String>>>>, Form(f): Form<Saved>| async move {
                    saved.lock().unwrap().push(f.body);
                    Html("<!doctype html><title>Saved</title><p>Saved</p>")
                },
            ),
        )
        .with_state(saved.clone());
    let origin = serve_app(app);
    let mut agent = shared().agent();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": format!("{origin}/")}));
    let text = "A sentence the app keeps";
    agent.ok(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "Body"), "text": text}),
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Save")}),
    );
    assert_eq!(*saved.lock().unwrap(), [text.to_string()]);
}

/// A page that asks its server over a WebSocket and draws the answers, which come in three
/// messages over 300 ms, as an app's rerun does.
const SOCKET: &str = r#"<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Socket app</title></head>
<body><main><h1>Reverser</h1>
<button id="go" disabled>Reverse</button><p id="out">Result: none</p></main>
<script>
  const ws = new WebSocket(`ws://${location.host}/ws`);
  const go = document.getElementById('go');
  ws.onopen = () => { go.disabled = false; };
  ws.onmessage = (e) => { document.getElementById('out').textContent = `Result: ${e.data}`; };
  go.addEventListener('click', () => ws.send('stressed'));
</script></body></html>"#;

async fn answer(mut socket: WebSocket) {
    while let Some(Ok(Message::Text(asked))) = socket.recv().await {
        let done: String = asked.chars().rev().collect();
        for said in ["running", "almost", done.as_str()] {
            tokio::time::sleep(Duration::from_millis(100)).await;
            if socket.send(Message::Text(said.into())).await.is_err() {
                return;
            }
        }
    }
}

#[test]
fn a_click_waits_for_the_update_its_message_brings_back_over_a_websocket() {
    let app = Router::new()
        .route("/", get(|| async { Html(SOCKET) }))
        .route(
            "/ws",
            get(|ws: WebSocketUpgrade| async { ws.on_upgrade(answer) }),
        );
    let origin = serve_app(app);
    let mut agent = shared().agent();
    agent.ok("browser_navigate", json!({"url": format!("{origin}/")}));
    agent.ok(
        "browser_wait_for",
        json!({"selector": "#go:not([disabled])", "timeout": 5000}),
    );
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    let (text, data) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Reverse"), "include": "snapshot"}),
    );
    let after = data["snapshot"].as_str().unwrap_or_default();
    assert!(after.contains("Result: desserts"), "{text}\n{after}");
}
