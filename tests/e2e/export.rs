//! From an agent's session to a test anyone can rerun (issue 27): an MCP agent signs in to an
//! app with a secret filled by name, fills a form across a frame and a shadow root, submits it and
//! waits for the confirmation. The Playwright export of that session, run by Playwright Test
//! (installed from npm, on the system's Chromium), passes against a fresh copy of the app and
//! against one whose ids, classes and nesting changed (its labels and roles did not); `tabpilot
//! replay` of the replay export passes against both too. The export names the secret as
//! `process.env.APP_PASSWORD`; its value is in no file the recording or the export wrote.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use axum::extract::{Form, Query};
use axum::response::{Html, IntoResponse, Redirect};
use serde_json::json;

use crate::harness::{Env, Mcp, run, run_with_stdin};
use crate::snapshot::ref_of;

const PASSWORD: &str = "pw-27-<not in any file>";

/// The app's pages. `v` names its ids and classes; the variant (`b`) also wraps its fields in
/// one more element after a hidden input, so a path of tags would not find them either.
fn page(path: &str, v: &str) -> String {
    let wrap = |inner: String| {
        if v == "b" {
            format!("<div class=\"w-{v}\"><input type=\"hidden\" name=\"t\">{inner}</div>")
        } else {
            inner
        }
    };
    match path {
        "/login" => format!(
            r#"<!doctype html><title>Sign in</title><h1>Sign in</h1>
<form method="post" action="/login" class="f-{v}">{}</form>"#,
            wrap(format!(
                r#"<label for="u-{v}">Username</label> <input id="u-{v}" name="user" class="i-{v}">
<label for="p-{v}">Password</label> <input id="p-{v}" name="password" type="password" class="i-{v}">
<button id="go-{v}" class="b-{v}">Sign in</button>"#
            ))
        ),
        "/form" => format!(
            r#"<!doctype html><title>Order</title><h1>Order</h1>
<script>
customElements.define('x-notes', class extends HTMLElement {{
  constructor() {{
    super();
    this.attachShadow({{mode: 'open'}}).innerHTML =
      '<label for="n-{v}">Notes</label><textarea id="n-{v}" class="t-{v}"></textarea>';
  }}
}});
function order() {{
  const q = new URLSearchParams({{
    name: document.querySelector('.i-{v}').value,
    holder: document.querySelector('iframe').contentDocument.querySelector('input:not([type=hidden])').value,
    notes: document.querySelector('x-notes').shadowRoot.querySelector('textarea').value,
  }});
  location.href = '/done?' + q;
}}
</script>{}"#,
            wrap(format!(
                r#"<label for="name-{v}">Full name</label> <input id="name-{v}" class="i-{v}">
<iframe id="fr-{v}" class="x-{v}" title="Payment" src="/card?v={v}"></iframe>
<x-notes id="xn-{v}"></x-notes>
<button id="o-{v}" class="b-{v}" onclick="order()">Place order</button>"#
            ))
        ),
        "/card" => wrap(format!(
            r#"<label for="h-{v}">Card holder</label> <input id="h-{v}" class="c-{v}">"#
        )),
        _ => "<h1>Not here</h1>".into(),
    }
}

/// A copy of the app on its own loopback port: `v` its markup's names.
fn app(v: &'static str) -> String {
    let login = |Form(f): Form<HashMap<String, String>>| async move {
        let ok = f.get("user").map(String::as_str) == Some("ada")
            && f.get("password").map(String::as_str) == Some(PASSWORD);
        if ok {
            Redirect::to("/form").into_response()
        } else {
            Html("<h1>Denied</h1>").into_response()
        }
    };
    // The order is confirmed only with every field as the agent filled it.
    let done = |Query(q): Query<HashMap<String, String>>| async move {
        let want = [
            ("name", "Ada Lovelace"),
            ("holder", "A LOVELACE"),
            ("notes", "Leave at the door"),
        ];
        let ok = want
            .iter()
            .all(|(k, w)| q.get(*k).map(String::as_str) == Some(*w));
        Html(if ok {
            "<h1>Order confirmed</h1>"
        } else {
            "<h1>Order incomplete</h1>"
        })
    };
    let pages = move |uri: axum::http::Uri| async move { Html(page(uri.path(), v)) };
    let app = axum::Router::new()
        .route("/login", axum::routing::get(pages).post(login))
        .route("/done", axum::routing::get(done))
        .fallback(pages);
    crate::harness::serve_app(app)
}

/// Playwright Test from npm, installed once under target/ (no browser download: the test runs
/// the system's Chromium).
fn playwright_home() -> PathBuf {
    let home = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/e2e-playwright");
    if !home.join("node_modules/@playwright/test").is_dir() {
        std::fs::create_dir_all(&home).unwrap();
        std::fs::write(
            home.join("package.json"),
            r#"{"name":"e2e-playwright","private":true}"#,
        )
        .unwrap();
        let mut npm = Command::new("npm");
        npm.args([
            "install",
            "--no-audit",
            "--no-fund",
            "@playwright/test@^1.57",
        ])
        .current_dir(&home)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1");
        let (ok, out, err) = run(npm);
        assert!(ok, "npm install @playwright/test: {out}{err}");
    }
    home
}

/// Runs the exported test against the app at `base`; asserts it passes.
fn playwright_passes(spec: &str, base: &str, name: &str) {
    let home = playwright_home();
    let dir = home.join(format!("run-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("recorded.spec.ts"), spec).unwrap();
    let chromium = tabpilot::controller::launch::find_chromium().expect("a Chromium");
    let config = format!(
        "export default {{ testDir: '.', timeout: 30000, reporter: 'line', workers: 1,\n  use: {{ \
         headless: true, launchOptions: {{ executablePath: {}, args: ['--no-sandbox'] }} }} }};\n",
        json!(chromium.to_string_lossy())
    );
    std::fs::write(dir.join("playwright.config.mjs"), config).unwrap();
    let mut npx = Command::new(home.join("node_modules/.bin/playwright"));
    npx.args(["test", "--config", "playwright.config.mjs"])
        .current_dir(&dir)
        .env("BASE_URL", base)
        .env("APP_PASSWORD", PASSWORD)
        .env("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
        .env_remove("CI");
    let (ok, out, err) = run(npx);
    assert!(
        ok,
        "npx playwright test against {name} failed:\n{out}{err}\n--- the spec:\n{spec}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `tabpilot replay FILE --base-url BASE` passes, every step done.
fn replay_passes(env: &Env, file: &Path, base: &str) {
    let (ok, out, err) = env.cli(&[
        "replay",
        file.to_str().unwrap(),
        "--base-url",
        base,
        "--yes",
    ]);
    assert!(ok, "replay against {base}:\n{out}{err}");
    assert!(out.lines().all(|l| l.ends_with(": done")), "{out}");
    assert_eq!(out.lines().count(), 7, "{out}");
}

#[test]
fn an_agents_session_exports_to_a_playwright_test_and_a_replay_that_pass_on_other_copies() {
    let env = Env::fresh("export");
    let (first, fresh, changed) = (app("a"), app("a"), app("b"));
    let mut add = env.command(&["secret", "add", "app-password", "--stdin"]);
    for origin in [&first, &fresh, &changed] {
        add.args(["--origin", origin]);
    }
    let (ok, out, err) = run_with_stdin(add, PASSWORD);
    assert!(ok, "secret add: {out}{err}");

    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_RECORD", "1");
    });
    let (snap, _) = agent.ok("browser_navigate", json!({"url": format!("{first}/login")}));
    agent.ok(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "Username"), "text": "ada"}),
    );
    agent.ok(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "Password"), "secret": "app-password"}),
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Sign in")}),
    );
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Order"), "{snap}");
    agent.ok(
        "browser_fill_form",
        json!({"fields": [
            {"ref": ref_of(&snap, "textbox", "Full name"), "value": "Ada Lovelace"},
            {"ref": ref_of(&snap, "textbox", "Card holder"), "value": "A LOVELACE"},
            {"ref": ref_of(&snap, "textbox", "Notes"), "value": "Leave at the door"},
        ]}),
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Place order")}),
    );
    agent.ok("browser_wait_for", json!({"text": "Order confirmed"}));

    let dir = env.state_dir.join("exports");
    std::fs::create_dir_all(&dir).unwrap();
    let (spec_path, replay_path) = (dir.join("recorded.spec.ts"), dir.join("session.jsonl"));
    for (format, path) in [("playwright", &spec_path), ("tabpilot", &replay_path)] {
        let (ok, out, err) = env.cli(&["export", "--format", format, path.to_str().unwrap()]);
        assert!(ok, "export {format}: {out}{err}");
    }
    let spec = std::fs::read_to_string(&spec_path).unwrap();
    // The agent's own export, from its memory, says the same.
    let (_, exported) = agent.ok("browser_export", json!({"format": "playwright"}));
    assert_eq!(exported["steps"], 7, "{exported}");
    let own = std::fs::read_to_string(exported["path"].as_str().unwrap()).unwrap();
    assert_eq!(own, spec);
    assert!(spec.contains("process.env.APP_PASSWORD"), "{spec}");
    assert!(
        spec.contains(".frameLocator(") && spec.contains("getByRole(\"textbox\""),
        "{spec}"
    );
    assert!(spec.contains("toHaveURL(path(at(\"/form\")))"), "{spec}");
    assert!(
        spec.contains("expect(page.getByText(\"Order confirmed\")"),
        "{spec}"
    );
    let recording = tabpilot::controller::record::file();
    let recorded =
        std::fs::read_to_string(env.state_dir.join(recording.file_name().unwrap())).unwrap();
    for text in [
        &spec,
        &recorded,
        &std::fs::read_to_string(&replay_path).unwrap(),
    ] {
        assert!(
            !text.contains(PASSWORD),
            "the password was written down:\n{text}"
        );
    }
    assert_eq!(
        crate::harness::mode(&env.state_dir.join("recording.jsonl")),
        0o600
    );

    dashboard_links(&env, &mut agent, &spec);

    playwright_passes(&spec, &fresh, "fresh");
    playwright_passes(&spec, &changed, "changed");
    replay_passes(&env, &replay_path, &fresh);
    replay_passes(&env, &replay_path, &changed);
}

/// The dashboard serves the agent's recording's export: the same test, to the holder of the
/// dashboard's cookie only.
fn dashboard_links(env: &Env, agent: &mut Mcp, spec: &str) {
    let agents = crate::dashboard::holding(agent);
    let id = agents[0]["id"].as_str().unwrap().to_string();
    let d = crate::dashboard::Dashboard::start_with(env, |_| {});
    let (status, head, _) = d.request("GET", &d.key_path(), &[]);
    assert_eq!(status, 303, "{head}");
    let base = crate::dashboard::field(&head, "location: ");
    let cookie = crate::dashboard::field(&head, "set-cookie: ");
    let cookie = cookie.split(';').next().unwrap();
    let path = format!("{base}api/export/{id}");
    let (status, _, _) = d.request("GET", &path, &[]);
    assert_eq!(status, 401, "no cookie");
    let (status, head, body) = d.request("GET", &path, &[("Cookie", cookie)]);
    assert_eq!(status, 200, "{head}{body}");
    assert_eq!(body, spec);
    // That the card links it is seen on the page a person's browser renders (dashboard.rs).
}
