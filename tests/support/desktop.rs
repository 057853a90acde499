//! A private desktop for the local-application tests: Xvfb on a free display and a session bus
//! of its own, on which the AT-SPI bus launcher and registry start when first asked (D-Bus
//! activation), with the data dirs, runtime dir and settings backend the test controls. All of
//! it ends with the value.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) struct Desktop {
    xvfb: Child,
    dbus: Child,
    pub dir: PathBuf,
    display: String,
    bus: String,
}

/// What the desktop needs from the machine; `.ci/run` installs it.
const NEEDS: &[&str] = &[
    "/usr/bin/Xvfb",
    "/usr/bin/dbus-daemon",
    "/usr/libexec/at-spi-bus-launcher",
    "/usr/libexec/at-spi2-registryd",
];

impl Desktop {
    /// A fresh desktop, or None (said on stdout) where the machine has no Xvfb or AT-SPI and
    /// this is not CI; under CI a missing piece fails the test.
    pub(crate) fn start(name: &str) -> Option<Desktop> {
        let missing: Vec<&str> = NEEDS
            .iter()
            .copied()
            .filter(|p| !Path::new(p).exists())
            .collect();
        if !missing.is_empty() {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must run the local-application tests; missing {missing:?} (.ci/run installs them)"
            );
            println!("skipped: no {missing:?} here (Debian: xvfb, dbus, at-spi2-core)");
            return None;
        }
        let dir = std::env::temp_dir().join(format!("tabpilot-apps-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        for sub in ["data/applications", "home", "runtime"] {
            std::fs::create_dir_all(dir.join(sub)).unwrap();
        }
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("runtime"), std::fs::Permissions::from_mode(0o700))
            .unwrap();
        let (xvfb, display) = xvfb();
        let mut dbus = Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--print-address=1"])
            .env("XDG_RUNTIME_DIR", dir.join("runtime"))
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .process_group(0)
            .spawn()
            .expect("dbus-daemon starts");
        let mut line = String::new();
        BufReader::new(dbus.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let bus = line.trim().to_string();
        assert!(!bus.is_empty(), "dbus-daemon printed no address");
        Some(Desktop {
            xvfb,
            dbus,
            dir,
            display,
            bus,
        })
    }

    /// The environment a server (and the applications it opens) runs in on this desktop.
    pub(crate) fn apply(&self, cmd: &mut Command) {
        cmd.env("DISPLAY", &self.display)
            .env("DBUS_SESSION_BUS_ADDRESS", &self.bus)
            .env(
                "XDG_DATA_DIRS",
                format!("{}:/usr/share", self.dir.join("data").display()),
            )
            .env("XDG_DATA_HOME", self.dir.join("home"))
            .env("XDG_RUNTIME_DIR", self.dir.join("runtime"))
            .env("XDG_CONFIG_HOME", self.dir.join("home"))
            .env("GSETTINGS_BACKEND", "memory")
            .env("GDK_BACKEND", "x11")
            .env("GSK_RENDERER", "cairo")
            .env("LIBGL_ALWAYS_SOFTWARE", "1")
            .env_remove("NO_AT_BRIDGE")
            .env_remove("GTK_MODULES")
            .env_remove("WAYLAND_DISPLAY");
    }

    /// Installs a desktop entry into this desktop's data dir.
    pub(crate) fn install(&self, id: &str, text: &str) {
        let path = self
            .dir
            .join("data/applications")
            .join(format!("{id}.desktop"));
        std::fs::write(path, text).unwrap();
    }
}

/// Xvfb on a display it picks itself (`-displayfd`): two tests never share one, which would
/// share its AT-SPI bus too (toolkits find the bus on the root window).
fn xvfb() -> (Child, String) {
    let mut fds = [0; 2];
    // SAFETY: a pipe into an array of two descriptors.
    let piped = unsafe { libc::pipe(fds.as_mut_ptr()) };
    assert_eq!(piped, 0, "a pipe for Xvfb");
    let (read, write) = (fds[0], fds[1]);
    let mut child = Command::new("Xvfb")
        .args([
            "-displayfd",
            &write.to_string(),
            "-screen",
            "0",
            "1280x1024x24",
        ])
        .args(["-nolisten", "tcp"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("Xvfb starts");
    // SAFETY: the write end is the child's now; ours closes so the read ends with Xvfb's.
    unsafe { libc::close(write) };
    // SAFETY: the read end is ours alone, taken over by the File.
    let file = unsafe { <std::fs::File as std::os::fd::FromRawFd>::from_raw_fd(read) };
    let mut line = String::new();
    BufReader::new(file).read_line(&mut line).unwrap();
    let n = line.trim();
    if n.is_empty() {
        let _ = child.kill();
        panic!("Xvfb gave no display");
    }
    let socket = format!("/tmp/.X11-unix/X{n}");
    let until = Instant::now() + Duration::from_secs(10);
    while !Path::new(&socket).exists() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    (child, format!(":{n}"))
}

use std::os::unix::process::CommandExt;

impl Drop for Desktop {
    fn drop(&mut self) {
        // The bus's group holds what it activated (the AT-SPI launcher, its bus, the registry).
        // SAFETY: signalling the process group this value started.
        unsafe { libc::killpg(self.dbus.id() as i32, libc::SIGTERM) };
        let _ = self.dbus.wait();
        let _ = self.xvfb.kill();
        let _ = self.xvfb.wait();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
