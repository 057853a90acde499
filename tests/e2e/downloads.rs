//! Downloads: a link to a file and a page's own `a.download` of a fetched blob each start one;
//! the action's reply names it, browser_downloads waits for it and gives the file, which holds
//! the bytes served; the session goes on working; another agent sees it only by its origin.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::json;

use crate::harness::shared;
use crate::recorder::{Recorder, Reply};
use crate::snapshot::ref_of;

const CSV: &[u8] = b"id,name\n1,Ada\n2,Grace\n";
const BLOB: &[u8] = b"\x00\x01binary bytes from a fetch\xff";

/// The fixture server; `/slow.csv` sends half its bytes and the rest once `gate` opens.
fn server(gate: Arc<AtomicBool>) -> Recorder {
    Recorder::start(move |target| match target {
        "/slow.csv" => Reply {
            headers: vec![
                ("Content-Type", "text/csv".into()),
                (
                    "Content-Disposition",
                    "attachment; filename=\"slow.csv\"".into(),
                ),
            ],
            body: CSV.to_vec(),
            gate: Some(gate.clone()),
        },
        "/report.csv" => Reply {
            headers: vec![
                ("Content-Type", "text/csv".into()),
                (
                    "Content-Disposition",
                    "attachment; filename=\"report.csv\"".into(),
                ),
            ],
            body: CSV.to_vec(),
            gate: None,
        },
        "/data" => Reply {
            headers: vec![("Content-Type", "application/octet-stream".into())],
            body: BLOB.to_vec(),
            gate: None,
        },
        _ => Reply::html(
            r#"<title>Exports</title><main><h1>Exports</h1>
            <a href="/report.csv">Export CSV</a>
            <button id="save">Save data</button></main>
            <script>
              document.getElementById('save').onclick = async () => {
                const blob = await (await fetch('/data')).blob();
                const a = document.createElement('a');
                a.href = URL.createObjectURL(blob);
                a.download = 'data.bin';
                document.body.append(a);
                a.click();
              };
            </script>"#,
        ),
    })
}

/// Waits for the download the reply named (`stem`, `ext`: the browser numbers a name taken
/// already, `report (1).csv`) and checks the file on disk holds `bytes`; its id.
fn landed(
    agent: &mut crate::harness::Mcp,
    reply: &str,
    stem: &str,
    ext: &str,
    bytes: &[u8],
) -> u64 {
    let named = reply
        .split_once("Started download ")
        .map(|(_, rest)| rest)
        .unwrap_or_else(|| panic!("the reply names no download: {reply}"));
    let (name, rest) = named.split_once(" (id ").expect("a name and an id");
    assert!(name.starts_with(stem) && name.ends_with(ext), "{reply}");
    assert!(
        !reply.contains("failed"),
        "a download is no failed navigation: {reply}"
    );
    let id: u64 = rest
        .split(')')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a download id");
    let (text, data) = agent.ok("browser_downloads", json!({"wait": id, "timeout": 20000}));
    assert_eq!(data["waited"], id, "{text}");
    let d = data["downloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["id"] == id)
        .unwrap_or_else(|| panic!("download {id} is not listed: {data}"))
        .clone();
    assert_eq!(d["state"], "complete", "{d}");
    assert_eq!(d["mine"], true);
    let file = d["file"].as_str().expect("a file path");
    assert!(file.ends_with(name), "{file} {name}");
    assert_eq!(std::fs::read(file).unwrap(), bytes, "{file}");
    assert!(
        !text.contains("cannot take it"),
        "the managed browser's downloads are inside the sandbox: {text}"
    );
    id
}

#[test]
fn a_link_and_a_page_s_blob_each_start_a_download_whose_file_holds_the_bytes_served() {
    let s = shared();
    let server = server(Arc::new(AtomicBool::new(true)));
    let mut agent = s.agent();
    let (snap, _) = agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/exports", server.origin)}),
    );
    let (reply, _) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "link", "Export CSV")}),
    );
    let csv = landed(&mut agent, &reply, "report", ".csv", CSV);

    let (reply, _) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Save data")}),
    );
    let blob = landed(&mut agent, &reply, "data", ".bin", BLOB);
    assert_ne!(csv, blob);

    // Another agent sees them by their origin alone, without their files.
    let mut other = s.agent();
    other.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (_, data) = other.ok("browser_downloads", json!({}));
    let theirs: Vec<_> = data["downloads"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|d| d["id"] == csv || d["id"] == blob)
        .collect();
    assert_eq!(theirs.len(), 2, "{data}");
    for d in theirs {
        assert_eq!(d["mine"], false);
        assert_eq!(d["url"], server.origin.as_str(), "{d}");
        assert!(d.get("file").is_none(), "{d}");
    }

    // The session goes on: the page is still there, and the next navigation works.
    let (snap, _) = agent.ok("browser_snapshot", json!({}));
    assert!(snap.contains("Exports"), "{snap}");
    let (snap, _) = agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    assert!(!snap.is_empty());
}

/// A download still under way: waiting past the timeout is TIMEOUT, saying how far it got; once
/// the rest comes, the wait gives the file. A navigation straight to a file starts a download
/// too, and is no failed navigation.
#[test]
fn a_wait_past_its_timeout_is_timeout_and_a_navigation_to_a_file_is_a_download() {
    let s = shared();
    let gate = Arc::new(AtomicBool::new(false));
    let server = server(gate.clone());
    let mut agent = s.agent();
    agent.ok("browser_navigate", json!({"url": s.a("basic.html")}));
    let (reply, _) = agent.ok(
        "browser_navigate",
        json!({"url": format!("{}/slow.csv", server.origin)}),
    );
    assert!(reply.contains("Started download slow"), "{reply}");
    let (code, r) = agent.fails("browser_downloads", json!({"wait": true, "timeout": 1000}));
    assert_eq!(code, "TIMEOUT", "{r}");
    assert!(crate::harness::text(&r).contains("has not finished"), "{r}");
    let (text, data) = agent.ok("browser_downloads", json!({}));
    assert_eq!(newest_of_mine(&data)["state"], "in_progress", "{text}");

    gate.store(true, Ordering::SeqCst);
    let (_, data) = agent.ok("browser_downloads", json!({"wait": true, "timeout": 20000}));
    let newest = newest_of_mine(&data);
    let file = newest["file"].as_str().expect("a file");
    assert_eq!(std::fs::read(file).unwrap(), CSV);
}

/// The newest download of the agent's own (other tests' downloads are listed too, theirs).
fn newest_of_mine(data: &serde_json::Value) -> serde_json::Value {
    data["downloads"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["mine"] == true)
        .cloned()
        .unwrap_or_else(|| panic!("none of mine: {data}"))
}
