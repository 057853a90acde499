//! Lays out the release binary's code so that what the MCP server and the relay run sits
//! together. The server's resident memory is mostly the binary's code pages it touches, and
//! Linux maps code 64 KB around each page a process first touches: scattered, the couple of
//! megabytes both run held about 16 MB between them. `link/code-order.txt` lists those functions
//! (made by `link/order.sh` from a profile of the benchmark's browser run and the demo), and lld
//! places them first, in that order.
//!
//! Only for release builds on Linux, and only when the linker takes the file (lld does, GNU ld
//! does not): a small program is linked with it first, and without it the build goes on as
//! before. A symbol the file names that the binary no longer has is passed over.

use std::path::Path;
use std::process::{Command, Stdio};

const ORDER: &str = "link/code-order.txt";

fn main() {
    println!("cargo::rerun-if-changed={ORDER}");
    println!("cargo::rerun-if-changed=build.rs");
    if var("PROFILE") != "release" || var("CARGO_CFG_TARGET_OS") != "linux" {
        return;
    }
    let order = Path::new(&var("CARGO_MANIFEST_DIR")).join(ORDER);
    let args = [
        format!("-Wl,--symbol-ordering-file={}", order.display()),
        "-Wl,--no-warn-symbol-ordering".to_string(),
    ];
    if order.is_file() && links_with(&args) {
        for arg in args {
            println!("cargo::rustc-link-arg-bins={arg}");
        }
    }
}

/// Whether rustc, with this build's target, linker and flags, links an empty program with
/// these linker arguments.
fn links_with(args: &[String]) -> bool {
    let out = Path::new(&var("OUT_DIR")).join("link-probe");
    let mut rustc = Command::new(var("RUSTC"));
    rustc.args([
        "--crate-type=bin",
        "--edition=2021",
        "--target",
        &var("TARGET"),
    ]);
    let flags = var("CARGO_ENCODED_RUSTFLAGS");
    rustc.args(flags.split('\x1f').filter(|f| !f.is_empty()));
    if let Ok(linker) = std::env::var("RUSTC_LINKER") {
        rustc.arg(format!("-Clinker={linker}"));
    }
    for arg in args {
        rustc.arg(format!("-Clink-arg={arg}"));
    }
    rustc.arg("-o").arg(&out).arg("-");
    rustc
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    let Ok(mut child) = rustc.spawn() else {
        return false;
    };
    let fed = child
        .stdin
        .take()
        .is_some_and(|mut stdin| std::io::Write::write_all(&mut stdin, b"fn main() {}").is_ok());
    let linked = child.wait().is_ok_and(|status| status.success());
    let _ = std::fs::remove_file(&out);
    fed && linked
}

/// A variable cargo sets for build scripts; empty when it is not set.
fn var(name: &str) -> String {
    std::env::var(name).unwrap_or_default()
}
