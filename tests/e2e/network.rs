//! The network log, one request in full, and browser issues, against pages served with real
//! statuses and headers: a 404, a 500 with a body and a cookie, a port nothing listens on, an
//! origin that sends no CORS headers, and a page whose CSP blocks an inline script and an image.

use serde_json::{Value, json};

use crate::fixtures::serve;
use crate::harness::{Env, Mcp, runtime, shared, text};
use crate::snapshot::ref_of;

/// Loads net.html and waits until its four requests have ended.
fn load_net_page(agent: &mut Mcp) -> String {
    let s = shared();
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("net.html")}));
    agent.ok(
        "browser_wait_for",
        json!({"text": "Loaded:", "timeout": 10000}),
    );
    snap
}

fn urls(data: &Value) -> Vec<String> {
    data["requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["url"].as_str().unwrap().to_string())
        .collect()
}

fn the<'a>(data: &'a Value, part: &str) -> &'a Value {
    data["requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["url"].as_str().unwrap().contains(part))
        .unwrap_or_else(|| panic!("no request for {part} in {data}"))
}

#[test]
fn requests_are_listed_with_their_status_or_why_they_failed_filtered_and_paged() {
    let s = shared();
    let mut agent = s.agent();
    let snap = load_net_page(&mut agent);

    let (list, data) = agent.ok("browser_network_requests", json!({}));
    assert_eq!(the(&data, "net.html")["type"], "main_frame", "{list}");
    assert_eq!(the(&data, "net.html")["status"], 200, "{list}");
    assert_eq!(the(&data, "missing.txt")["status"], 404, "{list}");
    assert_eq!(the(&data, "err500.html")["status"], 500, "{list}");
    assert_eq!(the(&data, "err500.html")["type"], "xmlhttprequest");
    assert_eq!(
        the(&data, "127.0.0.1:2/refused")["reason"],
        "refused",
        "{list}"
    );
    assert_eq!(the(&data, "page2.html?cors")["reason"], "cors", "{list}");
    assert!(list.contains("GET 404 xmlhttprequest"), "{list}");
    assert!(
        list.contains("failed (refused: net::ERR_CONNECTION_REFUSED)"),
        "{list}"
    );
    // Newest first: the page's own request came before the ones it made.
    assert!(urls(&data).last().unwrap().ends_with("net.html"), "{list}");

    let (_, data) = agent.ok("browser_network_requests", json!({"status": "4xx"}));
    assert_eq!(urls(&data).len(), 1, "{data}");
    assert!(urls(&data)[0].ends_with("missing.txt"));
    let (_, data) = agent.ok("browser_network_requests", json!({"status": "failed"}));
    let failed = urls(&data);
    assert_eq!(failed.len(), 2, "{data}");
    assert!(
        failed
            .iter()
            .all(|u| u.contains(":2/") || u.contains("?cors"))
    );
    let (_, data) = agent.ok(
        "browser_network_requests",
        json!({"type": "main_frame", "url": "net"}),
    );
    assert_eq!(urls(&data), vec![s.a("net.html")]);
    let (code, _) = agent.fails("browser_network_requests", json!({"status": "404"}));
    assert_eq!(code, "BAD_ARGS");

    // 24 more requests: past one page of 20, the footer names the call for the next.
    let many = ref_of(&snap, "button", "Many");
    agent.ok("browser_click", json!({"ref": many}));
    agent.ok(
        "browser_wait_for",
        json!({"text": "Many done", "timeout": 10000}),
    );
    let (first, data) = agent.ok("browser_network_requests", json!({"url": "?n="}));
    assert_eq!(data["total"], 24, "{first}");
    assert_eq!(urls(&data).len(), 20);
    assert!(
        first.contains(r#"next: browser_network_requests {"page":2,"url":"?n="}"#),
        "{first}"
    );
    let (second, data2) = agent.ok("browser_network_requests", json!({"url": "?n=", "page": 2}));
    assert_eq!(urls(&data2).len(), 4, "{second}");
    assert!(second.contains("Page 2 of 2"), "{second}");
    let mut all = [urls(&data), urls(&data2)].concat();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), 24, "each request on one page only");
    // A page of the caller's size: the footer keeps it.
    let (five, data) = agent.ok(
        "browser_network_requests",
        json!({"url": "?n=", "limit": 5}),
    );
    assert_eq!(urls(&data).len(), 5, "{five}");
    assert!(
        five.contains(r#"{"limit":5,"page":2,"url":"?n="}"#),
        "{five}"
    );
    let (code, _) = agent.fails("browser_network_requests", json!({"limit": 101}));
    assert_eq!(code, "BAD_ARGS");

    // A new page: the earlier one's requests only with includePreserved.
    let (arrived, _) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("basic.html"), "include": "network"}),
    );
    assert!(
        arrived.contains(&format!("GET 200 main_frame {}", s.a("basic.html"))),
        "{arrived}"
    );
    let (_, data) = agent.ok("browser_network_requests", json!({}));
    assert!(!urls(&data).iter().any(|u| u.contains("err500")), "{data}");
    let (_, data) = agent.ok(
        "browser_network_requests",
        json!({"includePreserved": true, "url": "err500"}),
    );
    assert_eq!(the(&data, "err500")["earlier"], 1, "{data}");
}

#[test]
fn one_request_in_full_hides_credentials_and_gets_its_body_with_the_debugger() {
    let mut agent = shared().agent();
    load_net_page(&mut agent);

    let (shown, data) = agent.ok("browser_get_network_request", json!({"url": "err500"}));
    assert_eq!(data["request"]["status"], 500, "{shown}");
    assert!(shown.contains("set-cookie: ••• ("), "{shown}");
    assert!(!shown.contains("SECRET-SESSION-VALUE"), "{shown}");
    assert!(!data.to_string().contains("SECRET-SESSION-VALUE"), "{data}");
    assert_eq!(data["debugger"], false, "{shown}");
    // A body the page's script did not fetch is only the debugger's, for requests made while
    // attached: none now, and how to get it.
    let (doc, data) = agent.ok("browser_get_network_request", json!({"url": "net.html"}));
    assert!(data.get("body").is_none(), "{doc}");
    assert!(
        doc.contains(r#"browser_get_network_request {"reload":true,"url":"net.html"}"#),
        "{doc}"
    );

    // Revealing is the person's to allow (tests/e2e/credentials.rs): this server was not told to.
    let (shown, _) = agent.ok(
        "browser_get_network_request",
        json!({"url": "err500", "revealValues": true}),
    );
    assert!(!shown.contains("SECRET-SESSION-VALUE"), "{shown}");
    assert!(shown.contains("TABPILOT_REVEAL_CREDENTIALS=1"), "{shown}");

    let (shown, data) = agent.ok(
        "browser_get_network_request",
        json!({"url": "err500", "reload": true}),
    );
    assert_eq!(data["debugger"], true, "{shown}");
    assert_eq!(data["request"]["status"], 500, "{shown}");
    assert!(
        data["body"].as_str().unwrap().contains("MARKER-500-BODY"),
        "{shown}"
    );
    assert!(
        shown.contains("the debugger was attached for this call"),
        "{shown}"
    );

    let (code, _) = agent.fails(
        "browser_get_network_request",
        json!({"url": "no-such-request"}),
    );
    assert_eq!(code, "REQUEST_NOT_FOUND");
}

#[test]
fn each_of_several_requests_to_one_url_is_addressed_by_its_place_newest_first() {
    let mut agent = shared().agent();
    let snap = load_net_page(&mut agent);
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Many")}),
    );
    agent.ok(
        "browser_wait_for",
        json!({"text": "Many done", "timeout": 10000}),
    );
    let (_, list) = agent.ok(
        "browser_network_requests",
        json!({"url": "page2.html?n=", "limit": 100}),
    );
    let listed = urls(&list);
    assert_eq!(listed.len(), 24, "{list}");
    // The nth newest match is the list's nth, the one the list shows in that place.
    for (i, url) in listed.iter().enumerate() {
        let (_, one) = agent.ok(
            "browser_get_network_request",
            json!({"url": "page2.html?n=", "nth": i + 1}),
        );
        assert_eq!(
            one["request"]["url"].as_str(),
            Some(url.as_str()),
            "nth {}",
            i + 1
        );
    }
    let (code, r) = agent.fails(
        "browser_get_network_request",
        json!({"url": "page2.html?n=", "nth": 25}),
    );
    assert_eq!(code, "REQUEST_NOT_FOUND");
    assert!(text(&r).contains("only 24 requests"), "{}", text(&r));
    for bad in [
        json!({"url": "page2", "nth": 0}),
        json!({"url": "page2", "nth": 2, "reload": true}),
    ] {
        let (code, _) = agent.fails("browser_get_network_request", bad);
        assert_eq!(code, "BAD_ARGS");
    }
}

#[test]
fn content_the_csp_blocked_is_an_issue_with_the_element_s_ref() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("csp-block.html")}));
    let (shown, data) = agent.ok("browser_issues", json!({}));
    let issues = data["issues"].as_array().unwrap();
    let image = issues
        .iter()
        .find(|i| i["code"] == "CSP_BLOCKED" && i["directive"] == "img-src")
        .unwrap_or_else(|| panic!("no blocked image: {shown}"));
    assert_eq!(image["blocked"], s.b("pixel.png"), "{shown}");
    let img = image["ref"]
        .as_str()
        .unwrap_or_else(|| panic!("no ref for the image: {shown}"));
    let (html, _) = agent.ok("browser_get_html", json!({"ref": img}));
    assert!(html.contains("Remote pixel"), "{html}");
    let inline = issues
        .iter()
        .find(|i| i["code"] == "CSP_BLOCKED" && i["blocked"] == "inline")
        .unwrap_or_else(|| panic!("no blocked inline script: {shown}"));
    assert_eq!(inline["directive"], "script-src-elem", "{shown}");
    assert!(
        shown.contains("CSP_BLOCKED: the page's Content-Security-Policy"),
        "{shown}"
    );

    // A page without problems has none.
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (shown, data) = agent.ok("browser_issues", json!({}));
    assert_eq!(data["total"], 0, "{shown}");
}

#[test]
fn a_deprecated_api_the_page_used_is_an_issue() {
    let s = shared();
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("deprecated.html")}));
    let (shown, data) = agent.ok("browser_issues", json!({}));
    let issue = data["issues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i["code"] == "DEPRECATED_API")
        .unwrap_or_else(|| panic!("no deprecation: {shown}"));
    assert!(
        issue["source"]
            .as_str()
            .unwrap()
            .contains("deprecated.html:"),
        "{shown}"
    );
}

#[test]
fn failed_and_error_requests_are_issues_too() {
    let mut agent = shared().agent();
    load_net_page(&mut agent);
    let (shown, data) = agent.ok("browser_issues", json!({}));
    let codes: Vec<&str> = data["issues"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["code"].as_str().unwrap())
        .collect();
    for code in ["HTTP_ERROR", "REQUEST_FAILED", "CORS_BLOCKED"] {
        assert!(codes.contains(&code), "{code} missing: {shown}");
    }
    assert_eq!(codes.iter().filter(|c| **c == "HTTP_ERROR").count(), 2);
    let (code, _) = agent.fails("browser_issues", json!({"page": 0}));
    assert_eq!(code, "BAD_ARGS");
}

#[test]
fn an_action_whose_request_fails_says_so_and_names_browser_issues() {
    let mut agent = shared().agent();
    let snap = load_net_page(&mut agent);
    let calm = ref_of(&snap, "button", "Calm");
    let fail = ref_of(&snap, "button", "Fail");

    let (quiet, _) = agent.ok("browser_click", json!({"ref": calm}));
    assert!(!quiet.contains("browser_issues"), "{quiet}");

    let r = agent.call("browser_click", json!({"ref": fail, "include": "network"}));
    let reply = text(&r);
    assert!(
        reply.contains("New browser issues since the action: 1 failed"),
        "{reply}"
    );
    assert!(reply.contains("browser_issues lists them"), "{reply}");
    assert!(reply.contains("Requests since the action (1):"), "{reply}");
    assert!(reply.contains("127.0.0.1:2/clicked"), "{reply}");
    let requests = r["structuredContent"]["network"].as_array().unwrap();
    assert_eq!(requests.len(), 1, "{reply}");
    assert_eq!(requests[0]["reason"], "refused");
}

#[test]
fn a_body_the_page_fetched_comes_without_the_debugger_and_an_image_s_404_with_reload() {
    // A browser of its own with DevTools on it, to see whether anything attaches to the page.
    let env = Env::fresh("net-body");
    let fixtures = serve(env.first_port);
    let mut agent = crate::person::agent_with_devtools(&env);
    let url = format!("{}/net-body.html", fixtures.a);
    // A tab of the agent's first, so that the page's document is the tracked tab's from its start.
    agent.ok("browser_new_tab", json!({}));
    agent.ok("browser_navigate", json!({"url": url}));
    // The page read the body itself, whole, beside the copy.
    agent.ok("browser_wait_for", json!({"text": "Fetched 500: true"}));
    let rt = runtime();
    let mut cdp = crate::person::devtools(&rt, &env);
    rt.block_on(cdp.watch_attaching());

    let (shown, data) = agent.ok(
        "browser_get_network_request",
        json!({"url": "err500.html?page"}),
    );
    assert_eq!(data["request"]["status"], 500, "{shown}");
    assert_eq!(data["debugger"], false, "{shown}");
    assert!(
        data["body"]
            .as_str()
            .unwrap_or("")
            .contains("MARKER-500-BODY"),
        "{shown}"
    );
    assert!(shown.contains("Body (the page's own copy"), "{shown}");
    assert!(!rt.block_on(cdp.attached_since()).contains(&url));

    // An image is no script's fetch: its 404 comes from a reload with the debugger.
    let (shown, data) = agent.ok(
        "browser_get_network_request",
        json!({"url": "missing.png", "reload": true}),
    );
    assert_eq!(data["debugger"], true, "{shown}");
    assert_eq!(data["request"]["type"], "image", "{shown}");
    assert_eq!(data["request"]["status"], 404, "{shown}");
    let headers = data["responseHeaders"].as_array().unwrap();
    assert!(
        headers.iter().any(|h| h["name"] == "content-type"),
        "{shown}"
    );
    assert!(rt.block_on(cdp.attached_since()).contains(&url));

    // A request that fails with no response (the CORS check refused another origin's 500) is
    // found on the reload too, as failed.
    let (shown, data) = agent.ok(
        "browser_get_network_request",
        json!({"url": "err500.html?cors", "reload": true}),
    );
    assert_eq!(data["debugger"], true, "{shown}");
    assert_eq!(data["request"]["reason"], "cors", "{shown}");
    assert!(shown.contains("No body: the request failed."), "{shown}");
}

#[test]
fn a_font_the_browser_asked_for_twice_and_cancelled_once_is_no_failure() {
    let mut agent = shared().agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": shared().a("font-twice.html")}),
    );
    let more = ref_of(&snap, "button", "More fonts");
    // The click adds a font both preloaded and named by the CSS: the browser asks for it
    // twice over and cancels one, while another loads it.
    let r = agent.call("browser_click", json!({"ref": more, "include": "network"}));
    let reply = text(&r);
    assert!(!reply.contains("browser issues"), "{reply}");
    assert!(!reply.contains("failed"), "{reply}");
    let requests = r["structuredContent"]["network"].as_array().unwrap();
    let twins: Vec<&Value> = requests
        .iter()
        .filter(|r| r["url"].as_str().unwrap().ends_with("twice.woff2?more"))
        .collect();
    assert!(twins.iter().any(|r| r["duplicate"] == true), "{reply}");
    assert!(twins.iter().any(|r| r["status"] == 200), "{reply}");
    assert!(twins.iter().all(|r| r.get("error").is_none()), "{reply}");
    let (failed, _) = agent.ok("browser_network_requests", json!({"status": "failed"}));
    assert!(!failed.contains("twice.woff2"), "{failed}");
    let (issues, _) = agent.ok("browser_issues", json!({}));
    assert!(!issues.contains("twice.woff2"), "{issues}");
}
