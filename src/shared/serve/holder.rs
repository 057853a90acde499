//! Who holds a port on loopback: the listening socket's owner from the kernel's tables
//! (`/proc/net/tcp`, `/proc/net/tcp6`), and, where this user may look (its own processes, or any
//! for root), the process and its command; and whose a loopback connection is (the user owning
//! its other end). For saying who is in the way, and on whom a wrong guess's cost falls
//! (src/shared/serve/guesses.rs), never for deciding whom to trust: that is what a proof is for.

use std::fmt;

/// The holder of a listening port, as far as the system says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Holder {
    pub uid: u32,
    pub user: Option<String>,
    pub pid: Option<u32>,
    pub command: Option<String>,
}

impl Holder {
    /// Whether the holder runs as this user.
    pub fn is_me(&self) -> bool {
        self.uid == crate::shared::platform::me::uid()
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.pid, &self.command) {
            (Some(pid), Some(cmd)) => write!(f, "process {pid} ({cmd}) ")?,
            (Some(pid), None) => write!(f, "process {pid} ")?,
            _ => write!(f, "a process ")?,
        }
        match &self.user {
            Some(user) => write!(f, "of user {user} (uid {})", self.uid),
            None => write!(f, "of uid {}", self.uid),
        }
    }
}

/// Who listens on `port` on loopback or on every address; none when no listener is in the
/// tables (or they cannot be read).
pub fn of_port(port: u16) -> Option<Holder> {
    let (uid, inode) = listener(&tables(), port)?;
    let pid = inode.and_then(process_with_socket);
    Some(Holder {
        uid,
        user: user_name(uid),
        pid,
        command: pid.and_then(|p| {
            let comm = std::fs::read_to_string(format!("/proc/{p}/comm")).ok()?;
            Some(comm.trim().chars().filter(|c| !c.is_control()).collect())
        }),
    })
}

/// The uid and socket inode of the listener on `port` that loopback reaches, from the kernel's
/// table (`sl local rem st tx:rx tr:when retrnsmt uid timeout inode ...`, the port in hex,
/// LISTEN being `0A`).
pub fn listener(table: &str, port: u16) -> Option<(u32, Option<u64>)> {
    let port = format!("{port:04X}");
    table.lines().find_map(|line| {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let (local, st, uid) = (cols.get(1)?, cols.get(3)?, cols.get(7)?);
        let (ip, p) = local.split_once(':')?;
        let reaches = matches!(
            ip,
            "0100007F"
                | "00000000"
                | "00000000000000000000000000000000"
                | "00000000000000000000000001000000"
                | "0000000000000000FFFF00000100007F"
        );
        if p != port || *st != "0A" || !reaches {
            return None;
        }
        let inode = cols.get(9).and_then(|i| i.parse().ok()).filter(|&i| i != 0);
        Some((uid.parse().ok()?, inode))
    })
}

/// The user whose socket is the peer `peer` of a connection to our `port`, from the kernel's
/// tables: both ends are on this machine, so the table lists the peer's end as well
/// (`local` the peer's address, `rem` ours). None for a peer elsewhere, or when the tables
/// cannot be read.
pub fn uid_of_peer(peer: std::net::SocketAddr, port: u16) -> Option<u32> {
    peer_in(&tables(), peer, port)
}

/// The kernel's tables of TCP sockets, v4 then v6, as Linux publishes them in `/proc`. macOS
/// and Windows publish none with the owner's uid (Windows has no uid: its table names a pid, an
/// account only through the process), so there the tables are empty and nobody is named.
pub fn tables() -> String {
    if !cfg!(target_os = "linux") {
        return String::new();
    }
    ["/proc/net/tcp", "/proc/net/tcp6"]
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

/// The uid in `table` of the socket at `peer` connected to `port`.
pub fn peer_in(table: &str, peer: std::net::SocketAddr, port: u16) -> Option<u32> {
    let local = format!("{}:{:04X}", kernel_hex(peer.ip()), peer.port());
    let remote_port = format!(":{port:04X}");
    table.lines().find_map(|line| {
        let cols: Vec<&str> = line.split_whitespace().collect();
        let (l, r, uid) = (cols.get(1)?, cols.get(2)?, cols.get(7)?);
        (l.eq_ignore_ascii_case(&local) && r.ends_with(&remote_port))
            .then(|| uid.parse().ok())
            .flatten()
    })
}

/// An address as the kernel's tables write it: each 32-bit word in the machine's byte order.
fn kernel_hex(ip: std::net::IpAddr) -> String {
    let octets = match ip {
        std::net::IpAddr::V4(v4) => v4.octets().to_vec(),
        std::net::IpAddr::V6(v6) => v6.octets().to_vec(),
    };
    octets
        .chunks(4)
        .map(|w| format!("{:08X}", u32::from_ne_bytes([w[0], w[1], w[2], w[3]])))
        .collect()
}

/// The process holding socket `inode`, among those whose descriptors this user may read.
fn process_with_socket(inode: u64) -> Option<u32> {
    let wanted = format!("socket:[{inode}]");
    std::fs::read_dir("/proc")
        .ok()?
        .flatten()
        .find_map(|entry| {
            let pid: u32 = entry.file_name().to_str()?.parse().ok()?;
            let fds = std::fs::read_dir(entry.path().join("fd")).ok()?;
            fds.flatten()
                .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|l| l.as_os_str() == &*wanted))
                .then_some(pid)
        })
}

/// The login name of `uid`, from /etc/passwd.
fn user_name(uid: u32) -> Option<String> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let mut f = line.split(':');
        let name = f.next()?;
        let id: u32 = f.nth(1)?.parse().ok()?;
        (id == uid).then(|| name.to_string())
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_listener_s_uid_and_inode_come_from_the_kernel_table() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
            0: 0100007F:B8AF 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 41\n\
            1: 0100007F:B8B0 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1002        0 42\n\
            2: 0200000A:B8B1 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1003        0 43\n\
            3: 00000000:B8B2 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1004        0 0\n";
        assert_eq!(listener(table, 47279), Some((1001, Some(41))));
        // An established connection from the port is not a listener on it.
        assert_eq!(listener(table, 47280), None);
        // Listening on another address only: not reachable on loopback.
        assert_eq!(listener(table, 47281), None);
        assert_eq!(listener(table, 47282), Some((1004, None)));
    }

    #[test]
    fn a_peer_s_user_is_the_owner_of_its_end_of_the_connection() {
        let table = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n\
            0: 0100007F:B8AF 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1001        0 41\n\
            1: 0100007F:D431 0100007F:B8AF 01 00000000:00000000 00:00000000 00000000  65534       0 42\n\
            2: 0100007F:B8AF 0100007F:D431 01 00000000:00000000 00:00000000 00000000  1001        0 43\n";
        let peer = "127.0.0.1:54321".parse().unwrap();
        assert_eq!(peer_in(table, peer, 47279), Some(65534));
        assert_eq!(peer_in(table, peer, 47280), None);
        assert_eq!(
            kernel_hex("::1".parse().unwrap()),
            "00000000000000000000000001000000"
        );
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_connection_of_this_process_is_this_user_s() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let client = std::net::TcpStream::connect(("127.0.0.1", port)).unwrap();
        let (_server_end, peer) = l.accept().unwrap();
        assert_eq!(peer, client.local_addr().unwrap());
        // SAFETY: getuid has no preconditions and cannot fail.
        assert_eq!(uid_of_peer(peer, port), Some(unsafe { libc::getuid() }));
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_listener_of_this_process_is_named_with_its_pid() {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = l.local_addr().unwrap().port();
        let holder = of_port(port).expect("the kernel lists our listener");
        assert!(holder.is_me(), "{holder}");
        assert_eq!(holder.pid, Some(std::process::id()), "{holder}");
        assert!(
            holder
                .to_string()
                .starts_with(&format!("process {} (", std::process::id()))
        );
        drop(l);
        assert_eq!(of_port(port), None);
    }
}
