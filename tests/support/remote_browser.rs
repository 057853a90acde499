//! A person's browser on another computer, for the tests and the figures: a Chromium with the
//! extension loaded by hand, run inside a network namespace (tests/support/netns.rs), paired with
//! a relay past loopback through its popup's Another computer, as a person does it; and a page of
//! the test's own served on that computer's loopback.
//!
//! Each includer uses part of it.
#![allow(dead_code)]

use std::io::{Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Child;

use crate::cdp::{Cdp, browser_url};
use crate::netns::Netns;
use crate::peers::EXTENSION_ORIGIN;

/// How long the browser has to open its DevTools socket.
const DEVTOOLS_WITHIN: std::time::Duration = std::time::Duration::from_secs(20);

/// The browser, killed when dropped.
pub(crate) struct RemoteBrowser {
    child: Child,
    pub(crate) profile: PathBuf,
}

impl RemoteBrowser {
    /// Starts a headless Chromium inside `ns`, loading the extension written out at `ext`, with
    /// its profile at `profile` and DevTools on that namespace's loopback.
    pub(crate) fn start(ns: &Netns, ext: &Path, profile: PathBuf) -> RemoteBrowser {
        let exe = tabpilot::controller::launch::find_chromium().expect("a Chromium");
        let mut cmd = tabpilot::controller::launch::chromium_command(
            &exe,
            &profile,
            ext,
            true,
            "about:blank",
        );
        cmd.arg("--remote-debugging-port=0");
        let child = ns
            .inside(&cmd)
            .spawn()
            .expect("Chromium inside the namespace");
        RemoteBrowser { child, profile }
    }

    /// Runs `then` in the extension's popup once `ready` holds (`Cdp::in_popup_of`), from inside
    /// `ns`, where the browser's DevTools listen; returns what it returned, as text.
    pub(crate) fn in_popup(&self, ns: &Netns, ready: &str, then: &str) -> String {
        let url = browser_url(&self.profile, DEVTOOLS_WITHIN);
        let (ready, then) = (ready.to_string(), then.to_string());
        ns.within(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("a runtime");
            rt.block_on(async {
                let mut cdp = Cdp::connect(&url).await;
                let said = cdp.in_popup_of(EXTENSION_ORIGIN, "", &ready, &then).await;
                said.as_str().unwrap_or_default().to_string()
            })
        })
    }

    /// What a person does in the popup's Another computer: types the address and the code,
    /// clicks Pair; returns what the popup then says.
    pub(crate) fn pair(&self, ns: &Netns, address: &str, code: &str) -> String {
        self.in_popup(
            ns,
            "!document.getElementById('remote').hidden",
            &format!(
                "document.getElementById('remote-address').value = '{address}';
                 document.getElementById('remote-code').value = '{code}';
                 document.getElementById('remote-button').click();
                 await wait(() => document.getElementById('remote-result').textContent);
                 return document.getElementById('remote-result').textContent;"
            ),
        )
    }

    /// What a person does: clicks Forget in the popup's Another computer; returns what it says.
    pub(crate) fn forget(&self, ns: &Netns) -> String {
        self.in_popup(
            ns,
            "!document.getElementById('forget').hidden",
            "document.getElementById('forget').click();
             await wait(() => document.getElementById('remote-result').textContent);
             return document.getElementById('remote-result').textContent;",
        )
    }

    /// What the popup says of the relay on another computer.
    pub(crate) fn remote_state(&self, ns: &Netns) -> String {
        self.in_popup(
            ns,
            "!document.getElementById('remote').hidden",
            "return document.getElementById('remote-state').textContent;",
        )
    }
}

impl Drop for RemoteBrowser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The code (`XXXX-XXXX-XXXX`) and the key fingerprint `tabpilot pair --remote` printed.
pub(crate) fn code_and_fingerprint(said: &str) -> (String, String) {
    let code = said
        .split_whitespace()
        .find(|w| w.len() == 14 && w.matches('-').count() == 2)
        .unwrap_or_else(|| panic!("no code in {said}"));
    let fingerprint = said
        .lines()
        .map(str::trim)
        .find(|l| l.len() == 19 && l.split(' ').all(|g| g.len() == 4))
        .unwrap_or_else(|| panic!("no fingerprint in {said}"));
    (code.to_string(), fingerprint.to_string())
}

/// Serves `html` on a listener already bound (inside a namespace, say), for the process's life;
/// returns its address as a URL.
pub(crate) fn serve_page(listener: TcpListener, html: &'static str) -> String {
    let url = format!("http://{}/", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut stream) = stream else { return };
            let mut head = [0u8; 4096];
            let _ = stream.read(&mut head);
            let _ = write!(
                stream,
                "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: {}\r\n\
                 Connection: close\r\n\r\n{html}",
                html.len()
            );
        }
    });
    url
}
