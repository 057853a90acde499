//! `tabpilot demo`: a managed headless Chromium, a built-in page on loopback, and a short session
//! through the same tools an agent calls.

use std::process::ExitCode;
use std::time::Duration;

use axum::Router;
use axum::response::Html;
use axum::routing::get;
use serde_json::{Value, json};

use crate::controller::launch::{self, LaunchOptions};
use crate::controller::tools::Session;
use crate::controller::tools::snapshot::ref_of;
use crate::shared::protocol::PeerInfo;

const PAGE: &str = include_str!("demo.html");

fn step(n: u32, what: &str, text: &str) {
    println!("\n[{n}] {what}");
    for line in text.lines() {
        println!("    {line}");
    }
}

pub(super) async fn run() -> anyhow::Result<ExitCode> {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await?;
    let url = format!("http://{}/", listener.local_addr()?);
    let app = Router::new().route("/", get(|| async { Html(PAGE) }));
    tokio::spawn(async move { axum::serve(listener, app).await });
    println!("tabpilot demo: serving a page at {url}");

    let info = PeerInfo {
        name: "tabpilot demo".into(),
        pid: std::process::id(),
        ..Default::default()
    };
    let session = Session::new(info, None)?;
    let opts = LaunchOptions {
        headless: true,
        isolated: true,
        tied_to_us: true,
        label: None,
    };
    let outcome = async {
        let browser = launch::start(&opts, session.link(), Duration::from_secs(30)).await?;
        println!(
            "started a headless Chromium (pid {}) with the tabpilot extension",
            browser.child.id()
        );
        session.pin_browser(browser.browser_id.clone());
        let toured = tour(&session, &url).await;
        browser.close();
        toured
    }
    .await;
    match outcome {
        Ok(()) => {
            println!("\nDone. Every step above was one tool call, the same an MCP agent makes.");
            Ok(ExitCode::SUCCESS)
        }
        Err(e) => {
            eprintln!("{}", e.text());
            Ok(ExitCode::FAILURE)
        }
    }
}

async fn tour(session: &Session, url: &str) -> Result<(), crate::shared::error::ToolError> {
    let call = |name: &'static str, args: Value| session.call(name, args);
    let nav = call(
        "browser_navigate",
        json!({"url": url, "includeSnapshot": false}),
    )
    .await?;
    step(1, "browser_navigate", &nav.text);
    let snap = call("browser_snapshot", json!({})).await?;
    step(2, "browser_snapshot", &snap.text);
    let missing = || {
        crate::shared::error::ToolError::failed(
            crate::shared::error::Code::Internal,
            "the demo page lacks its form",
        )
    };
    let field = ref_of(&snap.text, "textbox", "Your name").ok_or_else(missing)?;
    let button = ref_of(&snap.text, "button", "Say hello").ok_or_else(missing)?;
    let typed = call("browser_type", json!({"ref": field, "text": "Ada"})).await?;
    step(
        3,
        &format!("browser_type ref={field} text=\"Ada\""),
        &typed.text,
    );
    let clicked = call("browser_click", json!({"ref": button})).await?;
    step(4, &format!("browser_click ref={button}"), &clicked.text);
    let read = call("browser_read_page", json!({})).await?;
    step(5, "browser_read_page", &read.text);
    // tabpilot's temp folder is inside the path sandbox; the temp directory itself is not.
    let folder = crate::controller::policy::paths::temp_folder().map_err(|why| {
        crate::shared::error::ToolError::refused(
            crate::shared::error::Code::PathOutsideSandbox,
            why,
        )
    })?;
    let file = folder.join(format!("demo-{}.png", std::process::id()));
    let shot = call(
        "browser_screenshot",
        json!({"filePath": file.display().to_string()}),
    )
    .await?;
    step(6, "browser_screenshot", &shot.text);
    println!("\nThe screenshot is at {}", file.display());
    Ok(())
}
