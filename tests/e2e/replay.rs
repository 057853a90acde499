//! `tabpilot replay` of a file someone else wrote (issue 35, finding 5): a file naming a tool no
//! recording holds (`browser_eval`), or reading an environment variable for a field it does not
//! mark hidden (`${HOME}`), is refused before anything runs; a file that would run says what it
//! visits and reads first, and runs only when the person agrees (`--yes`; no terminal to ask is
//! a refusal); a secret is never filled on a page at another origin than the step recorded, even
//! one the secret is registered for.

use std::sync::{Arc, Mutex};

use axum::response::Html;
use serde_json::{Value, json};

use crate::harness::{Env, Mcp, run_with_stdin};

/// A loopback site that keeps every path asked of it. Its `/login` page reports each edit of
/// its password field to `/got`.
fn site() -> (String, Arc<Mutex<Vec<String>>>) {
    let asked = Arc::new(Mutex::new(Vec::new()));
    let kept = asked.clone();
    let pages = move |uri: axum::http::Uri| {
        let kept = kept.clone();
        async move {
            kept.lock().unwrap().push(uri.path().to_string());
            Html(match uri.path() {
                "/login" => {
                    "<!doctype html><title>Sign in</title>\
                     <label for=p>Password</label> <input id=p type=password \
                     oninput=\"fetch('/got')\">"
                }
                "/form" => "<!doctype html><label for=n>Name</label> <input id=n>",
                _ => "<!doctype html><h1>Here</h1>",
            })
        }
    };
    let origin = crate::harness::serve_app(axum::Router::new().fallback(pages));
    (origin, asked)
}

/// A replay file of these steps.
fn file(env: &Env, name: &str, steps: &[Value]) -> String {
    let dir = env.state_dir.join("replays");
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let text: String = steps.iter().map(|s| format!("{s}\n")).collect();
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn step(tool: &str, url: Option<&str>, args: Value, target: Option<(&str, bool)>) -> Value {
    let mut s = json!({"time": "2026-12-01T00:00:00.000Z", "tool": tool, "outcome": "done"});
    s["args"] = args;
    if let Some(url) = url {
        s["url"] = json!(url);
    }
    if let Some((label, secret)) = target {
        s["targets"] = json!([{"locators": [{"label": label}], "frames": [], "kind": "text",
            "secret": secret}]);
    }
    s
}

fn navigate(url: &str) -> Value {
    step("browser_navigate", None, json!({ "url": url }), None)
}

/// The pages a site was asked for (the browser's own favicon requests left out).
fn asked(site: &Arc<Mutex<Vec<String>>>) -> Vec<String> {
    let all = site.lock().unwrap().clone();
    all.into_iter().filter(|p| p != "/favicon.ico").collect()
}

#[test]
fn a_crafted_replay_is_refused_before_it_runs_and_a_fair_one_says_what_it_does_and_asks() {
    let env = Env::fresh("replay-crafted");
    let ((a, at_a), (b, at_b)) = (site(), site());
    let add = env.command(&[
        "secret", "add", "pw", "--stdin", "--origin", &a, "--origin", &b,
    ]);
    let (ok, out, err) = run_with_stdin(add, "pw-35-replayed");
    assert!(ok, "secret add: {out}{err}");
    // A browser for the replays to run in, had they run.
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |_| {});
    agent.ok("browser_navigate", json!({"url": format!("{a}/warm")}));

    let eval = file(
        &env,
        "eval.jsonl",
        &[
            navigate(&format!("{a}/start")),
            step(
                "browser_eval",
                None,
                json!({"expression": "fetch('/pwned')"}),
                None,
            ),
        ],
    );
    let (ok, out, err) = env.cli(&["replay", &eval, "--yes"]);
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains("BAD_ARGS") && err.contains("browser_eval is not a tool a recording holds"),
        "{err}"
    );
    let home = file(
        &env,
        "home.jsonl",
        &[
            navigate(&format!("{a}/form")),
            step(
                "browser_type",
                Some(&format!("{a}/form")),
                json!({"env": "HOME"}),
                Some(("Name", false)),
            ),
        ],
    );
    let (ok, out, err) = env.cli(&["replay", &home, "--yes"]);
    assert!(!ok, "{out}{err}");
    assert!(
        err.contains("${HOME}") && err.contains("declares no hidden field"),
        "{err}"
    );
    assert_eq!(asked(&at_a), ["/warm"], "a refused replay ran a step");

    // A fair file: said first, and with no terminal to ask and no --yes, not run.
    let fair = file(&env, "fair.jsonl", &[navigate(&format!("{a}/start"))]);
    let (ok, out, err) = env.cli(&["replay", &fair]);
    assert!(!ok, "{out}{err}");
    assert!(err.contains(&format!("It visits: {a}")), "{err}");
    assert!(err.contains("pass --yes"), "{err}");
    assert_eq!(asked(&at_a), ["/warm"], "an unagreed replay ran");
    let (ok, out, err) = env.cli(&["replay", &fair, "--yes"]);
    assert!(ok, "{out}{err}");
    assert_eq!(asked(&at_a), ["/warm", "/start"]);

    // A secret for both sites, filled by a step recorded at one while the page is at the other.
    let moved = file(
        &env,
        "moved.jsonl",
        &[
            navigate(&format!("{b}/login")),
            step(
                "browser_type",
                Some(&format!("{a}/login")),
                json!({"secret": "pw"}),
                Some(("Password", true)),
            ),
        ],
    );
    let (ok, out, err) = env.cli(&["replay", &moved, "--yes"]);
    assert!(!ok, "{out}{err}");
    assert!(
        out.contains("step 1 browser_navigate: done") && out.contains("SECRET_ORIGIN_MISMATCH"),
        "{out}{err}"
    );
    assert_eq!(asked(&at_b), ["/login"], "the secret was filled at {b}");
}
