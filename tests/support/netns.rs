//! Computers of the test's own making: network namespaces (`ip netns`) joined by veth pairs, with
//! the test's own addresses inside them and nothing else, so traffic between them crosses a real
//! network interface and can be captured there, and never leaves. Needs root (CI runs as root),
//! `ip` (iproute2) and `tcpdump`, which `.ci/run` installs.
//!
//! Each includer uses part of it.
#![allow(dead_code)]

use std::os::fd::AsRawFd;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

static NEXT: AtomicU32 = AtomicU32::new(0);

/// A namespace of this test's, deleted (its interfaces with it) when dropped.
pub(crate) struct Netns {
    pub(crate) name: String,
}

fn ip(args: &[&str]) {
    let out = Command::new("ip")
        .args(args)
        .output()
        .expect("`ip` (iproute2), which .ci/run installs");
    assert!(
        out.status.success(),
        "ip {}: {} (these tests need root)",
        args.join(" "),
        String::from_utf8_lossy(&out.stderr)
    );
}

impl Netns {
    /// A fresh namespace with its loopback up.
    pub(crate) fn new(role: &str) -> Netns {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let name = format!("tp{}-{n}-{role}", std::process::id());
        ip(&["netns", "add", &name]);
        ip(&["-n", &name, "link", "set", "lo", "up"]);
        Netns { name }
    }

    /// Joins this namespace to `other` by a veth pair, `mine` and `theirs` the two ends'
    /// addresses (a /24 of the test's choosing); returns the name of this end's interface.
    pub(crate) fn link(&self, other: &Netns, mine: &str, theirs: &str) -> String {
        let n = NEXT.fetch_add(1, Ordering::SeqCst);
        let (a, b) = (format!("tpv{n}a"), format!("tpv{n}b"));
        ip(&[
            "link",
            "add",
            &a,
            "netns",
            &self.name,
            "type",
            "veth",
            "peer",
            "name",
            &b,
            "netns",
            &other.name,
        ]);
        for (ns, dev, addr) in [(&self.name, &a, mine), (&other.name, &b, theirs)] {
            ip(&["-n", ns, "addr", "add", &format!("{addr}/24"), "dev", dev]);
            ip(&["-n", ns, "link", "set", dev, "up"]);
        }
        a
    }

    /// `cmd` run inside this namespace (`ip netns exec`, which execs it: its pid is the child's),
    /// with its arguments, environment and directory (not its stdio: set those on the result).
    pub(crate) fn inside(&self, cmd: &Command) -> Command {
        let mut wrapped = Command::new("ip");
        wrapped
            .args(["netns", "exec", &self.name])
            .arg(cmd.get_program())
            .args(cmd.get_args());
        for (key, value) in cmd.get_envs() {
            match value {
                Some(value) => wrapped.env(key, value),
                None => wrapped.env_remove(key),
            };
        }
        if let Some(dir) = cmd.get_current_dir() {
            wrapped.current_dir(dir);
        }
        wrapped
    }

    /// Runs `f` on a thread inside this namespace: the sockets it opens are this namespace's.
    pub(crate) fn within<T: Send + 'static>(&self, f: impl FnOnce() -> T + Send + 'static) -> T {
        let path = format!("/var/run/netns/{}", self.name);
        std::thread::spawn(move || {
            let ns = std::fs::File::open(&path).expect("the namespace's handle");
            // SAFETY: moves this thread alone into the namespace; the handle is open.
            let rc = unsafe { libc::setns(ns.as_raw_fd(), libc::CLONE_NEWNET) };
            assert_eq!(rc, 0, "setns: {}", std::io::Error::last_os_error());
            f()
        })
        .join()
        .expect("the thread inside the namespace")
    }

    /// Starts capturing every packet on `dev` into `file` (tcpdump); returns once it listens.
    pub(crate) fn capture(&self, dev: &str, file: &Path) -> Capture {
        let mut tcpdump = Command::new("tcpdump");
        // Immediate mode: each packet is handed over as it comes. Without it they wait in the
        // kernel's ring for a block to fill or time out, and a stop loses them.
        tcpdump
            .args(["-i", dev, "--immediate-mode", "-U", "-s", "0", "-w"])
            .arg(file);
        // What tcpdump says goes to a file beside the capture: a pipe closed once read would
        // end it at its next word.
        let said_at = file.with_extension("log");
        let said = std::fs::File::create(&said_at).expect("tcpdump's log");
        let child = self
            .inside(&tcpdump)
            .stdout(Stdio::null())
            .stderr(said)
            .spawn()
            .expect("tcpdump, which .ci/run installs");
        // tcpdump says "listening on DEV" once it captures.
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let said = std::fs::read_to_string(&said_at).unwrap_or_default();
            if said.contains("listening on") {
                break;
            }
            assert!(Instant::now() < deadline, "tcpdump never listened: {said}");
            std::thread::sleep(Duration::from_millis(20));
        }
        Capture { child }
    }
}

impl Drop for Netns {
    fn drop(&mut self) {
        let _ = Command::new("ip")
            .args(["netns", "del", &self.name])
            .status();
    }
}

/// A running capture; `stop` ends it.
pub(crate) struct Capture {
    child: Child,
}

impl Capture {
    /// Stops the capture, letting tcpdump write out what it holds.
    pub(crate) fn stop(mut self) {
        // SAFETY: signalling the tcpdump this test started.
        unsafe { libc::kill(self.child.id() as i32, libc::SIGINT) };
        let _ = self.child.wait();
    }
}

impl Drop for Capture {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
