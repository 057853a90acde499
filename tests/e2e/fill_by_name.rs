//! Secrets filled by name (issue 22): a person registers a password and a TOTP seed for one
//! origin; the agent signs in to a real login page there by naming them, and the page's server
//! accepts both. A look-alike page on another origin asking for the same password is refused and
//! receives nothing. A page that echoes the password back shows `[secret NAME]` to every reading
//! tool. Neither the password nor the seed crosses the MCP transport in either direction, lands
//! in a file under the state dir other than the store's, or in any log.

use std::collections::HashMap;
use std::fs::File;
use std::sync::{Arc, Mutex};
use std::time::{SystemTime, UNIX_EPOCH};

use axum::extract::{Form, OriginalUri};
use axum::response::Html;
use serde_json::json;

use crate::harness::{Env, Mcp, holding, run_with_stdin, text};
use crate::snapshot::ref_of;

const SEED: &str = "JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP";

const LOGIN: &str = r#"<!doctype html><title>Sign in</title>
<form method="post" action="/login">
  <label>Username <input name="user" autocomplete="username"></label>
  <label>Password <input name="password" type="password"></label>
  <label>Code <input name="code" autocomplete="one-time-code" inputmode="numeric"></label>
  <button>Sign in</button>
</form>"#;

// Echoes what is typed into the password field as it is, HTML-escaped, in a URL, in a request
// and to the console, at every input event (a page that reports each keystroke); and has a "show
// password" toggle.
const ECHO: &str = r#"<!doctype html><title>Echo</title>
<label>Password <input id="pw" type="password"></label>
<button onclick="pw.type = pw.type === 'password' ? 'text' : 'password'">Show password</button>
<p id="said"></p><a id="link" href="/x">link</a><div id="raw"></div>
<script>
  pw.addEventListener('input', () => {
    said.textContent = 'You typed ' + pw.value;
    link.href = '/check?pw=' + encodeURIComponent(pw.value);
    raw.setAttribute('data-echo', pw.value);
    console.log('typed: ' + pw.value);
    fetch('/check?pw=' + encodeURIComponent(pw.value));
  });
</script>"#;

// A search form sent by GET: what is typed goes into the next page's address, form-encoded
// (spaces as `+`, `!'()~` as `%21%27%28%29%7E`). The results page says the first 20 characters
// of the query back, cut as a page cuts a long one.
const SEARCH: &str = r#"<!doctype html><title>Search</title>
<form method="get" action="/found">
  <label>Query <input name="q"></label>
  <label>Note <input name="note"></label>
  <button>Search</button>
</form>"#;

const FOUND: &str = r#"<!doctype html><title>Results</title>
<p id="said"></p><a href="/search">Search again</a>
<script>
  said.textContent = 'Results for ' + new URLSearchParams(location.search).get('q').slice(0, 20) + '…';
</script>"#;

/// A site on its own loopback port: the login page, the echo page, and the login check; every
/// request it gets is kept, with its form.
struct Site {
    origin: String,
    seen: Arc<Mutex<Vec<String>>>,
}

fn site(password: String) -> Site {
    let seen: Arc<Mutex<Vec<String>>> = Arc::default();
    let kept = seen.clone();
    let log = kept.clone();
    let check = move |Form(form): Form<HashMap<String, String>>| {
        let ok = form.get("user").map(String::as_str) == Some("ada")
            && form.get("password") == Some(&password)
            && form.get("code").is_some_and(|c| totp_matches(c));
        log.lock().unwrap().push(format!("POST /login {form:?}"));
        async move {
            Html(if ok {
                "<h1>Welcome, ada</h1>"
            } else {
                "<h1>Denied</h1>"
            })
        }
    };
    let log = kept.clone();
    let page = move |OriginalUri(uri): OriginalUri| {
        log.lock().unwrap().push(format!("GET {uri}"));
        async move {
            Html(match uri.path() {
                "/echo" => ECHO,
                "/search" => SEARCH,
                "/found" => FOUND,
                _ => LOGIN,
            })
        }
    };
    let app = axum::Router::new()
        .route("/login", axum::routing::get(page.clone()).post(check))
        .fallback(page);
    Site {
        origin: crate::harness::serve_app(app),
        seen,
    }
}

/// Whether `code` is the seed's code for this 30 s window or the one before (a code filled just
/// before a window ends reaches the server in the next): RFC 6238 over HMAC-SHA1, written here
/// apart from the store's own.
fn totp_matches(code: &str) -> bool {
    use hmac::Mac;
    let key = [b"Hello!\xde\xad\xbe\xef".as_slice(); 2].concat(); // SEED, decoded
    let now = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_secs()
        / 30;
    [now, now - 1].into_iter().any(|counter| {
        let mut mac = hmac::Hmac::<sha1::Sha1>::new_from_slice(&key).unwrap();
        mac.update(&counter.to_be_bytes());
        let h = mac.finalize().into_bytes();
        let at = (h[19] & 0xf) as usize;
        let bin = u32::from_be_bytes([h[at] & 0x7f, h[at + 1], h[at + 2], h[at + 3]]);
        format!("{:06}", bin % 1_000_000) == code
    })
}

/// `tabpilot secret add NAME --origin ORIGIN MORE`, with `value` on stdin (and `--stdin`).
pub(crate) fn add(env: &Env, name: &str, origin: &str, value: Option<&str>, more: &[&str]) {
    let stdin = if value.is_some() {
        &["--stdin"][..]
    } else {
        &[]
    };
    let args = [&["secret", "add", name, "--origin", origin], stdin, more].concat();
    let (ok, out, err) = run_with_stdin(env.command(&args), value.unwrap_or(""));
    assert!(ok, "secret add {name}: {out}{err}");
    // (A value of a character or two is in any text: only a longer one can be looked for.)
    if let Some(value) = value.filter(|v| v.chars().count() > 2) {
        assert!(
            !format!("{out}{err}").contains(value),
            "secret add printed the value"
        );
    }
}

#[test]
fn an_agent_signs_in_with_secrets_it_never_sees_and_a_look_alike_gets_nothing() {
    let env = Env::fresh("fill-by-name");
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    let password = format!("pw-{unique}-<hunter2 & \"friends\">");
    let real = site(password.clone());
    let fake = site(password.clone());
    add(&env, "app-password", &real.origin, Some(&password), &[]);
    add(&env, "app-otp", &real.origin, Some(SEED), &["--totp"]);

    let stderr_path = env.state_dir.with_extension("stderr");
    let stderr = File::create(&stderr_path).unwrap();
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_LOG", "trace").stderr(stderr);
    });

    // The agent learns the names from the status, never a value.
    let (status, data) = agent.ok("browser_status", json!({}));
    assert!(status.contains("app-password (value"), "{status}");
    let listed = data["secrets"].as_array().unwrap();
    assert!(
        listed
            .iter()
            .any(|s| s["name"] == "app-otp" && s["kind"] == "totp"),
        "{data}"
    );

    // Signs in by name: the server checks the password and the code for this window.
    let url = format!("{}/login", real.origin);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let field = |name: &str| ref_of(&snap, "textbox", name);
    let (typed, _) = agent.ok(
        "browser_type",
        json!({"ref": field("Password"), "secret": "app-password"}),
    );
    let length = password.chars().count();
    assert!(
        typed.contains(&format!("the secret app-password ({length} characters)")),
        "{typed}"
    );
    agent.ok(
        "browser_fill_form",
        json!({"fields": [
            {"ref": field("Username"), "value": "ada"},
            {"ref": field("Code"), "secret": "app-otp"},
        ]}),
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Sign in")}),
    );
    let (page, _) = agent.ok("browser_read_page", json!({}));
    assert!(page.contains("Welcome, ada"), "the server refused: {page}");

    // The look-alike asks for the same password: refused, nothing written, nothing sent.
    let url = format!("{}/login", fake.origin);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let (code, r) = agent.fails(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "Password"), "secret": "app-password"}),
    );
    assert_eq!(code, "SECRET_ORIGIN_MISMATCH", "{r}");
    let said = text(&r);
    assert!(
        said.contains("app-password") && said.contains(&fake.origin),
        "{said}"
    );
    // Bad names are refused before anything reaches the page, each with its code.
    let password_field = ref_of(&snap, "textbox", "Password");
    for (tool, args, want) in [
        (
            "browser_type",
            json!({"ref": password_field, "secret": "no-such"}),
            "SECRET_NOT_FOUND",
        ),
        (
            "browser_type",
            json!({"ref": password_field, "text": "x", "secret": "app-password"}),
            "BAD_ARGS",
        ),
        (
            "browser_upload_file",
            json!({"ref": password_field, "registered": ["app-password"]}),
            "SECRET_NOT_FOUND",
        ),
    ] {
        let (code, r) = agent.fails(tool, args);
        assert_eq!(code, want, "{}", text(&r));
    }
    let (value, _) = agent.ok(
        "browser_eval",
        json!({"expression": "document.querySelector('[name=password]').value"}),
    );
    assert!(
        value.contains("\"\"") && !value.contains(&password),
        "the look-alike's field was written: {value}"
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Sign in")}),
    );
    let fake_seen = fake.seen.lock().unwrap().join("\n");
    assert!(!fake_seen.contains(&password), "{fake_seen}");

    // A page that shows the password back: every reading tool says the name instead.
    let url = format!("{}/echo", real.origin);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    agent.ok(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "Password"), "secret": "app-password"}),
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Show password")}),
    );
    let shown = "[secret app-password]";
    for (tool, args) in [
        ("browser_snapshot", json!({"verbose": true})),
        ("browser_read_page", json!({})),
        ("browser_get_html", json!({})),
        ("browser_find", json!({"text": "You typed"})),
        (
            "browser_eval",
            json!({"expression": "[said.textContent, link.href, pw.value]"}),
        ),
        ("browser_get_console_logs", json!({})),
        ("browser_network_requests", json!({"url": "/check"})),
    ] {
        let (said, data) = agent.ok(tool, args);
        let all = format!("{said}\n{data}");
        assert!(
            all.contains(shown),
            "{tool} does not name the secret:\n{all}"
        );
    }
    let wire = agent.wire.lock().unwrap().join("\n");
    drop(agent);

    // Neither the password nor the seed crossed the transport, or reached a file or a log.
    let stderr = std::fs::read_to_string(&stderr_path).unwrap();
    // Nor a part of the password, as a page that reports each keystroke would have it.
    let most = &password[..password.len() - 3];
    for (what, value) in [
        ("password", password.as_str()),
        ("seed", SEED),
        ("password's start", most),
    ] {
        // On the transport a value is inside JSON strings, its quotes escaped.
        let quoted = serde_json::to_string(value).unwrap();
        for form in [value, quoted.trim_matches('"')] {
            assert!(!wire.contains(form), "the {what} crossed the MCP transport");
            assert!(!stderr.contains(form), "the {what} is in the log");
        }
    }
    let leaks: Vec<String> = holding(&env.state_dir, &[&password, SEED])
        .into_iter()
        .filter(|f| !f.contains("secret-values"))
        .collect();
    assert!(leaks.is_empty(), "{leaks:?}");
}

#[test]
fn a_registered_file_is_uploaded_by_name_only_on_its_origin() {
    let env = Env::fresh("upload-by-name");
    let fixtures = crate::fixtures::serve(env.first_port);
    // Outside the path sandbox: the person registered it, so it is read wherever it is.
    let dir = env.state_dir.with_extension("files");
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("cv.txt");
    std::fs::write(&file, "my cv, by name").unwrap();
    add(
        &env,
        "cv",
        &fixtures.a,
        None,
        &["--file", file.to_str().unwrap()],
    );
    let mut agent = Mcp::start(&env, &["--launch", "--headless"]);

    let url = format!("{}/upload.html", fixtures.a);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let (said, _) = agent.ok(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "button", "Avatar"), "registered": ["cv"]}),
    );
    assert!(said.starts_with("Set cv.txt (14 bytes) on"), "{said}");

    let url = format!("{}/upload.html", fixtures.b);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let (code, r) = agent.fails(
        "browser_upload_file",
        json!({"ref": ref_of(&snap, "button", "Avatar"), "registered": ["cv"]}),
    );
    assert_eq!(code, "SECRET_ORIGIN_MISMATCH", "{r}");
    let (set, _) = agent.ok(
        "browser_eval",
        json!({"expression": "document.getElementById('avatar').files.length"}),
    );
    assert!(
        set.contains('0'),
        "the other origin's input got the file: {set}"
    );
}

/// How a browser or a page may write `s`: as it is, form-encoded (upper and lower-case hex, spaces
/// as `+` or `%20`), as encodeURIComponent does, and JSON-quoted.
fn encodings(s: &str) -> Vec<String> {
    let form: String = url::form_urlencoded::byte_serialize(s.as_bytes()).collect();
    let component = [
        ("%21", "!"),
        ("%27", "'"),
        ("%28", "("),
        ("%29", ")"),
        ("%7E", "~"),
    ]
    .iter()
    .fold(form.replace('+', "%20"), |out, (from, to)| {
        out.replace(from, to)
    });
    let lower = form
        .split('%')
        .enumerate()
        .map(|(i, part)| match (i, part.get(..2)) {
            (0, _) | (_, None) => part.to_string(),
            (_, Some(hex)) => format!("{}{}", hex.to_lowercase(), &part[2..]),
        })
        .collect::<Vec<_>>()
        .join("%");
    let json = serde_json::to_string(s).unwrap();
    vec![
        s.to_string(),
        form.clone(),
        form.replace('+', "%20"),
        lower,
        component,
        json.trim_matches('"').to_string(),
    ]
}

/// Which of the texts holds sixteen characters in a row of `secret`, in any of its encodings.
fn leaks(secret: &str, texts: &[(&str, String)]) -> Vec<String> {
    let chars: Vec<char> = secret.chars().collect();
    let mut found = Vec::new();
    for window in chars.windows(16) {
        let run: String = window.iter().collect();
        for form in encodings(&run) {
            for (what, text) in texts {
                if text.contains(&form) {
                    found.push(format!("{what}: {form}"));
                }
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn a_get_form_puts_a_secret_in_no_address_an_agent_or_the_audit_trail_reads() {
    let env = Env::fresh("fill-by-name-get");
    let unique = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_nanos();
    // Spaces and the characters form encoding escapes and encodeURIComponent does not.
    let token = format!("tok {unique} it's (a)!~ done");
    let real = site(String::new());
    add(&env, "app-token", &real.origin, Some(&token), &[]);
    // One character: too short to find as text, and in every ref (`e7k2f`).
    add(&env, "pin", &real.origin, Some("e"), &[]);
    let audit = env.state_dir.with_extension("audit.jsonl");
    let mut agent = Mcp::start_with(&env, &["--launch", "--headless"], |cmd| {
        cmd.env("TABPILOT_AUDIT_FILE", &audit);
    });

    let url = format!("{}/search", real.origin);
    let (snap, _) = agent.ok("browser_navigate", json!({ "url": url }));
    let (filled, _) = agent.ok(
        "browser_fill_form",
        json!({"fields": [
            {"ref": ref_of(&snap, "textbox", "Query"), "secret": "app-token"},
            {"ref": ref_of(&snap, "textbox", "Note"), "secret": "pin"},
        ]}),
    );
    // The reply names the secrets it filled, and where.
    let query = ref_of(&snap, "textbox", "Query");
    assert!(
        filled.contains(&format!("secret app-token into {query}"))
            && filled.contains("secret pin into"),
        "{filled}"
    );
    // The one-character secret leaves every ref and word as it was.
    let (after, _) = agent.ok("browser_snapshot", json!({}));
    assert!(!after.contains("[secret pin]"), "{after}");
    for (role, name) in [
        ("textbox", "Query"),
        ("textbox", "Note"),
        ("button", "Search"),
    ] {
        assert_eq!(
            ref_of(&after, role, name),
            ref_of(&snap, role, name),
            "{after}"
        );
    }

    // Submitted: the address is /found?q=tok+...+it%27s+%28a%29%21%7E+done&note=e.
    let (clicked, data) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Search")}),
    );
    let mut read = vec![("click", format!("{clicked}\n{data}"))];
    for (tool, args) in [
        ("browser_list_tabs", json!({})),
        ("browser_snapshot", json!({})),
        ("browser_read_page", json!({})),
        ("browser_network_requests", json!({"url": "/found"})),
        ("browser_eval", json!({"expression": "location.href"})),
        ("browser_go_back", json!({})),
        ("browser_go_forward", json!({})),
    ] {
        let (said, data) = agent.ok(tool, args);
        read.push((tool, format!("{said}\n{data}")));
    }
    drop(agent);
    read.push(("audit trail", std::fs::read_to_string(&audit).unwrap()));
    // Each says the address (the page's cut echo, for read_page) with the secret by name; going
    // back shows the search page, whose address holds nothing.
    for (what, text) in &read {
        let shown = match *what {
            "browser_read_page" => "Results for [secret app-token]…",
            "browser_go_back" => continue,
            _ => "/found?q=[secret app-token]&note=e",
        };
        assert!(text.contains(shown), "{what} does not say {shown}:\n{text}");
    }
    let found = leaks(&token, &read);
    assert!(found.is_empty(), "{found:#?}");
}
