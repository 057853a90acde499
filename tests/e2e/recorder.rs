//! A tiny HTTP server on loopback that records each request's line and headers and answers from
//! the test's table: the server that sees what headers a tab sends, the files a download fetches,
//! and, asked in absolute form, a proxy.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::net::TcpListener;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// One request as it came: its target (a path, or a whole URL when asked as a proxy) and its
/// headers, names in lower case.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    pub target: String,
    pub headers: HashMap<String, String>,
}

/// An answer: extra header lines, and the body; with `gate`, the body's second half is held
/// back until the test opens it.
pub(crate) struct Reply {
    pub headers: Vec<(&'static str, String)>,
    pub body: Vec<u8>,
    pub gate: Option<Arc<AtomicBool>>,
}

impl Reply {
    /// A 302 to `to` (the status rides as the `:status` pseudo-header).
    pub(crate) fn redirect(to: &str) -> Reply {
        Reply {
            headers: vec![(":status", "302 Found".into()), ("Location", to.into())],
            body: Vec::new(),
            gate: None,
        }
    }

    pub(crate) fn html(body: &str) -> Reply {
        Reply {
            headers: vec![("Content-Type", "text/html; charset=utf-8".into())],
            body: body.as_bytes().to_vec(),
            gate: None,
        }
    }
}

pub(crate) struct Recorder {
    pub origin: String,
    pub port: u16,
    seen: Arc<Mutex<Vec<Seen>>>,
}

impl Recorder {
    /// Serves `answer(target)` for each request, on a thread of its own for the process's life.
    pub(crate) fn start(answer: impl Fn(&str) -> Reply + Send + Sync + 'static) -> Recorder {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let port = listener.local_addr().unwrap().port();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let (log, answer) = (seen.clone(), Arc::new(answer));
        std::thread::spawn(move || {
            for stream in listener.incoming().flatten() {
                let (log, answer) = (log.clone(), answer.clone());
                std::thread::spawn(move || {
                    let mut reader = BufReader::new(stream.try_clone().unwrap());
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let target = line.split_whitespace().nth(1).unwrap_or("").to_string();
                    let mut headers = HashMap::new();
                    loop {
                        let mut h = String::new();
                        if reader.read_line(&mut h).unwrap_or(0) == 0 || h.trim().is_empty() {
                            break;
                        }
                        if let Some((k, v)) = h.split_once(':') {
                            headers.insert(k.trim().to_ascii_lowercase(), v.trim().to_string());
                        }
                    }
                    let reply = answer(&target);
                    log.lock().unwrap().push(Seen { target, headers });
                    let status = reply.headers.iter().find(|(k, _)| *k == ":status");
                    let mut head = format!(
                        "HTTP/1.1 {}\r\nContent-Length: {}\r\nConnection: close\r\n",
                        status.map_or("200 OK", |(_, v)| v.as_str()),
                        reply.body.len()
                    );
                    for (k, v) in reply.headers.iter().filter(|(k, _)| *k != ":status") {
                        head.push_str(&format!("{k}: {v}\r\n"));
                    }
                    head.push_str("\r\n");
                    let mut stream = stream;
                    let _ = stream.write_all(head.as_bytes());
                    let (first, rest) = reply.body.split_at(reply.body.len() / 2);
                    let _ = stream.write_all(first);
                    let _ = stream.flush();
                    while let Some(gate) = &reply.gate
                        && !gate.load(Ordering::SeqCst)
                    {
                        std::thread::sleep(Duration::from_millis(20));
                    }
                    let _ = stream.write_all(rest);
                });
            }
        });
        Recorder {
            origin: format!("http://127.0.0.1:{port}"),
            port,
            seen,
        }
    }

    /// Every request so far whose target holds `part`.
    pub(crate) fn seen(&self, part: &str) -> Vec<Seen> {
        let log = self.seen.lock().unwrap();
        log.iter()
            .filter(|s| s.target.contains(part))
            .cloned()
            .collect()
    }
}
