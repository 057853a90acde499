//! The fixture pages served on two loopback origins (two ports), so cross-origin is real: used
//! by the end-to-end tests and the benchmark. `{{ORIGIN_A}}`, `{{ORIGIN_B}}` and `{{RELAY_PORT}}`
//! in a page are filled in; `?delay=MS` holds the answer back that long. A page `NAME` answers
//! with the status and headers listed in `NAME.headers` beside it, if there is one (`Status: 500`
//! and `Header-Name: value` lines), so pages can be served with real CSP, cookies and failures.
//! Under `/rustdoc/` the
//! Rust toolchain's own documentation is served as it is, read-only: real pages nobody here
//! wrote.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::mpsc::channel;
use std::time::Duration;

use axum::extract::{Path as UrlPath, Query};
use axum::http::header;
use axum::response::IntoResponse;

pub(crate) struct Fixtures {
    pub a: String,
    pub b: String,
}

fn fixtures_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures")
}

/// The toolchain's HTML documentation, `$(rustc --print sysroot)/share/doc/rust/html`, if the
/// toolchain has it (the rust-docs component).
pub(crate) fn rustdoc_dir() -> Option<PathBuf> {
    static DIR: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let rustc = std::env::var("RUSTC").unwrap_or("rustc".into());
        let out = std::process::Command::new(rustc)
            .args(["--print", "sysroot"])
            .output()
            .ok()?;
        let sysroot = String::from_utf8(out.stdout).ok()?;
        let dir = Path::new(sysroot.trim()).join("share/doc/rust/html");
        dir.is_dir().then_some(dir)
    })
    .clone()
}

/// A file of the toolchain's documentation, with its content type; nothing outside the folder.
async fn rustdoc_file(UrlPath(name): UrlPath<String>) -> axum::response::Response {
    let missing = || (axum::http::StatusCode::NOT_FOUND, "no such file").into_response();
    let Some(root) = rustdoc_dir() else {
        return missing();
    };
    if name.split('/').any(|part| part == ".." || part.is_empty()) {
        return missing();
    }
    let Ok(body) = tokio::fs::read(root.join(&name)).await else {
        return missing();
    };
    let kind = match name.rsplit('.').next() {
        Some("html") => "text/html; charset=utf-8",
        Some("js") => "text/javascript",
        Some("css") => "text/css",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("woff2") => "font/woff2",
        Some("json") => "application/json",
        _ => "application/octet-stream",
    };
    ([(header::CONTENT_TYPE, kind)], body).into_response()
}

/// Applies `NAME.headers` (status and header lines) to the answer for fixture `NAME`.
fn with_sidecar_headers(page: &Path, answer: &mut axum::response::Response) {
    let mut sidecar = page.as_os_str().to_owned();
    sidecar.push(".headers");
    let Ok(lines) = std::fs::read_to_string(sidecar) else {
        return;
    };
    for line in lines.lines().filter(|l| !l.trim().is_empty()) {
        let (name, value) = line
            .split_once(':')
            .expect("a header line is `Name: value`");
        let (name, value) = (name.trim(), value.trim());
        if name.eq_ignore_ascii_case("status") {
            *answer.status_mut() = value.parse().expect("a status is a number");
        } else {
            answer.headers_mut().append(
                header::HeaderName::try_from(name).expect("a header name"),
                header::HeaderValue::try_from(value).expect("a header value"),
            );
        }
    }
}

/// A page saying the `Cookie` header its request carried, so a test sees what the server got.
async fn echo_cookies(headers: header::HeaderMap) -> axum::response::Response {
    let cookies = headers
        .get(header::COOKIE)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("none");
    let body = format!("<!doctype html><title>Cookies</title><p>Cookie header: {cookies}</p>");
    ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], body).into_response()
}

/// Serves tests/fixtures on two fresh loopback ports, on a thread of its own, for the life of
/// the process.
pub(crate) fn serve(relay_port: u16) -> Fixtures {
    let (tx, rx) = channel();
    std::thread::spawn(move || {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .unwrap();
        rt.block_on(async move {
            let a = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let b = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
            let (oa, ob) = (
                format!("http://{}", a.local_addr().unwrap()),
                format!("http://{}", b.local_addr().unwrap()),
            );
            tx.send(Fixtures {
                a: oa.clone(),
                b: ob.clone(),
            })
            .unwrap();
            let page = move |UrlPath(name): UrlPath<String>,
                             Query(q): Query<HashMap<String, String>>| {
                let (oa, ob) = (oa.clone(), ob.clone());
                async move {
                    if let Some(ms) = q.get("delay").and_then(|d| d.parse().ok()) {
                        tokio::time::sleep(Duration::from_millis(ms)).await;
                    }
                    let path = fixtures_dir().join(&name);
                    if name.contains("..") || !path.is_file() {
                        return (axum::http::StatusCode::NOT_FOUND, "no such fixture")
                            .into_response();
                    }
                    let body = std::fs::read_to_string(&path)
                        .unwrap()
                        .replace("{{ORIGIN_A}}", &oa)
                        .replace("{{ORIGIN_B}}", &ob)
                        .replace("{{RELAY_PORT}}", &relay_port.to_string());
                    let kind = match name.rsplit('.').next() {
                        Some("js") => "text/javascript",
                        Some("css") => "text/css",
                        Some("svg") => "image/svg+xml",
                        Some("woff2") => "font/woff2",
                        _ => "text/html; charset=utf-8",
                    };
                    let mut answer = ([(header::CONTENT_TYPE, kind)], body).into_response();
                    with_sidecar_headers(&path, &mut answer);
                    answer
                }
            };
            let app = axum::Router::new()
                .route("/rustdoc/{*name}", axum::routing::get(rustdoc_file))
                .route("/echo/cookies", axum::routing::get(echo_cookies))
                .route("/{*name}", axum::routing::get(page));
            let (app_a, app_b) = (app.clone(), app);
            tokio::join!(async { axum::serve(a, app_a).await.unwrap() }, async {
                axum::serve(b, app_b).await.unwrap()
            });
        });
    });
    rx.recv().unwrap()
}
