//! `tabpilot remote add|list|rm` and `tabpilot --remote NAME <tool>` (issue 39): a person on
//! another machine (here: a state directory of its own, with no relay or browser) adds a
//! `tabpilot mcp --http --tls` by name, with the token through stdin and the fingerprint the
//! server printed, and drives the server's browser from the terminal as the local CLI does, one
//! tab across commands. A wrong fingerprint (at `add` and at a call), a wrong token, a
//! server that is gone and a name that is not there are each refused saying what to do, and
//! the token never reaches the terminal.

use serde_json::Value;

use crate::harness::{Env, mode, run, run_with_stdin, shared};
use crate::http_tls::TlsServer;
use crate::netns::Netns;
use crate::remote_browser::serve_page;
use crate::snapshot::ref_of;

/// `tabpilot remote add NAME URL EXTRA...` on the client, the token on its stdin.
fn add(client: &Env, name: &str, url: &str, token: &str, extra: &[&str]) -> (bool, String, String) {
    let cmd = client.command(&[&["remote", "add", name, url], extra].concat());
    run_with_stdin(cmd, &format!("{token}\n"))
}

/// Another certificate's fingerprint, as the server prints one.
fn other_fingerprint() -> String {
    vec!["AB"; 32].join(":")
}

#[test]
fn a_remote_added_with_the_printed_fingerprint_drives_the_servers_browser() {
    let s = shared();
    let server = TlsServer::start(&s.env, "127.0.0.1:0");
    let client = Env::fresh("remote-client");
    let pin = server.fingerprint.clone();
    let (ok, out, err) = add(
        &client,
        "lab",
        &server.url,
        &server.token,
        &["--fingerprint", &pin],
    );
    assert!(ok, "{out}{err}");
    assert!(out.contains(&pin), "{out}");
    let store = client.state_dir.join("remotes.json");
    assert_eq!(mode(&store), 0o600);
    assert_eq!(mode(&client.state_dir), 0o700);

    let (ok, out, err) = client.cli(&["remote", "list"]);
    assert!(ok, "{err}");
    assert!(
        out.starts_with("lab ") && out.contains(&server.url) && out.contains(&pin),
        "{out}"
    );
    for said in [&out, &err] {
        assert!(!said.contains(&server.token), "the token was printed");
    }

    // Successive commands drive one tab on the server, as the local CLI's do.
    let (ok, out, err) = client.cli(&["--remote", "lab", "navigate", &s.a("basic.html")]);
    assert!(ok, "{out}{err}");
    assert!(out.starts_with("Navigated to "), "{out}");
    let press = ref_of(&out, "button", "Press me");
    let (ok, out, err) = client.cli(&["--remote", "lab", "click", &press]);
    assert!(ok && out.contains("Press me"), "{out}{err}");
    let (ok, out, err) = client.cli(&["--remote", "lab", "snapshot"]);
    assert!(ok, "{err}");
    assert!(
        out.contains("Basic page") && out.contains("Pressed 1 time(s)"),
        "{out}"
    );
    // A tool's error reads as a local one: its code and recovery on stderr, a failing exit.
    let (ok, out, err) = client.cli(&["--remote", "lab", "click", "ezzzz"]);
    assert!(!ok && out.is_empty(), "{out}");
    assert!(
        err.starts_with("STALE_REF: ") && err.contains("\nRecover: call browser_snapshot"),
        "{err}"
    );
    // --json gives the result as MCP has it.
    let (ok, out, err) = client.cli(&["--remote", "lab", "snapshot", "--json"]);
    assert!(ok, "{err}");
    let result: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(result["structuredContent"]["outcome"], "done", "{out}");
    // The calls went to the server: the client started no relay of its own.
    assert!(!client.relay_lock().exists());

    let (ok, out, err) = client.cli(&["remote", "rm", "lab"]);
    assert!(ok && out.contains("removed remote lab"), "{out}{err}");
    let (ok, out, _) = client.cli(&["remote", "list"]);
    assert!(ok && !out.contains("lab"), "{out}");
    let (ok, _, err) = client.cli(&["--remote", "lab", "snapshot"]);
    assert!(!ok && err.contains("there is no remote \"lab\""), "{err}");
    let (ok, _, err) = client.cli(&["remote", "rm", "lab"]);
    assert!(!ok && err.contains("there is no remote \"lab\""), "{err}");
}

#[test]
fn a_wrong_fingerprint_or_token_and_a_missing_server_are_refused_saying_what_to_do() {
    let server_env = Env::fresh("remote-server");
    let server = TlsServer::start(&server_env, "127.0.0.1:0");
    let client = Env::fresh("remote-refusals");
    let (url, pin, token) = (&server.url, &server.fingerprint, &server.token);
    let store = client.state_dir.join("remotes.json");

    // A fingerprint that is not the server's certificate's: refused naming both, nothing kept.
    let other = other_fingerprint();
    let (ok, _, err) = add(&client, "lab", url, token, &["--fingerprint", &other]);
    assert!(!ok && err.contains(pin) && err.contains(&other), "{err}");
    assert!(!store.exists());
    // A token the server does not hold is not kept (nor sent: the server proves it holds it).
    let (ok, _, err) = add(
        &client,
        "lab",
        url,
        &"0".repeat(64),
        &["--fingerprint", pin],
    );
    assert!(
        !ok && err.contains("did not prove that it holds this token"),
        "{err}"
    );
    // A short or missing token, plain HTTP past loopback, no one to compare the fingerprint.
    let (ok, _, err) = add(&client, "lab", url, "short", &["--fingerprint", pin]);
    assert!(!ok && err.contains("at least 32"), "{err}");
    let (ok, _, err) = add(&client, "lab", url, "", &["--fingerprint", pin]);
    assert!(!ok && err.contains("no token on stdin"), "{err}");
    let (ok, _, err) = add(&client, "lab", "http://192.0.2.1:47320/mcp", token, &[]);
    assert!(!ok && err.contains("in clear"), "{err}");
    let (ok, _, err) = add(&client, "lab", url, token, &["--yes"]);
    assert!(!ok && err.contains("--fingerprint"), "{err}");
    let (ok, _, err) = add(&client, "../up", url, token, &["--fingerprint", pin]);
    assert!(!ok && err.contains("not a remote's name"), "{err}");
    assert!(!store.exists());

    let (ok, out, err) = add(&client, "lab", url, token, &["--fingerprint", pin]);
    assert!(ok, "{out}{err}");

    // The server presenting another certificate than the one pinned (as one between here and
    // there would): refused at the handshake, naming both.
    let kept = std::fs::read_to_string(&store).unwrap();
    std::fs::write(&store, kept.replace(pin.as_str(), &other)).unwrap();
    let (ok, _, err) = client.cli(&["--remote", "lab", "tabs"]);
    assert!(!ok && err.contains(pin) && err.contains(&other), "{err}");
    std::fs::write(&store, &kept).unwrap();

    // The server's token rotated: the call is refused, saying how to add it again.
    let (ok, _, err) = server_env.cli(&["token", "rotate"]);
    assert!(ok, "{err}");
    let (ok, _, err) = client.cli(&["--remote", "lab", "tabs"]);
    assert!(
        !ok && err.contains(&format!(
            "the server refused the token; run `tabpilot remote add lab {url}` again"
        )),
        "{err}"
    );
    assert!(!err.contains(token.as_str()), "the token was printed");

    // Nothing listening: the URL is named.
    let url = url.clone();
    server.stop();
    let (ok, _, err) = client.cli(&["--remote", "lab", "tabs"]);
    assert!(
        !ok && err.contains(&format!("nothing answers at {url}")),
        "{err}"
    );
}

/// `tabpilot --remote NAME navigate URL` against a server in another network namespace (issue
/// 39): the server, its browser and the page in one, the person's terminal in another, joined by
/// a veth pair; only the pinned certificate and the token get the call through.
#[test]
fn a_server_in_another_namespace_is_driven_by_name() {
    let (server_ns, client_ns) = (Netns::new("server"), Netns::new("client"));
    server_ns.link(&client_ns, "10.214.0.1", "10.214.0.2");
    let env = Env::fresh("remote-cli-netns");
    let args = [
        "mcp",
        "--http",
        "10.214.0.1:0",
        "--tls",
        "--launch",
        "--headless",
    ];
    let server = TlsServer::start_with(&env, &args, |cmd| server_ns.inside(&cmd));
    assert!(
        server.url.starts_with("https://10.214.0.1:"),
        "{}",
        server.url
    );
    // On the server's loopback: only a browser in the server's namespace can load it.
    let page = server_ns.within(|| std::net::TcpListener::bind("127.0.0.1:0").unwrap());
    let page = serve_page(
        page,
        "<!doctype html><title>Far page</title><h1>Far away ZQX4410</h1>",
    );

    let client = Env::fresh("remote-cli-netns-client");
    let in_client = |args: &[&str]| client_ns.inside(&client.command(args));
    let add = in_client(&[
        "remote",
        "add",
        "far",
        &server.url,
        "--fingerprint",
        &server.fingerprint,
    ]);
    let (ok, out, err) = run_with_stdin(add, &format!("{}\n", server.token));
    assert!(ok, "{out}{err}");
    let (ok, out, err) = run(in_client(&["--remote", "far", "navigate", &page]));
    assert!(ok, "{out}{err}");
    assert!(
        out.starts_with("Navigated to ") && out.contains("Far away ZQX4410"),
        "{out}"
    );
}
