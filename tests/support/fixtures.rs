//! The fixture pages served on two loopback origins (two ports), so cross-origin is real: used
//! by the end-to-end tests and the benchmark. `{{ORIGIN_A}}`, `{{ORIGIN_B}}` and `{{RELAY_PORT}}`
//! in a page are filled in; `?delay=MS` holds the answer back that long.

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
                    let kind = if name.ends_with(".js") {
                        "text/javascript"
                    } else {
                        "text/html; charset=utf-8"
                    };
                    ([(header::CONTENT_TYPE, kind)], body).into_response()
                }
            };
            let app = axum::Router::new().route("/{*name}", axum::routing::get(page));
            let (app_a, app_b) = (app.clone(), app);
            tokio::join!(async { axum::serve(a, app_a).await.unwrap() }, async {
                axum::serve(b, app_b).await.unwrap()
            });
        });
    });
    rx.recv().unwrap()
}
