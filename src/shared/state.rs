//! Owner-only files under the state directory: the relay secret, the relay lock, managed
//! browser profiles.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};

use crate::shared::platform::private;
use crate::shared::settings::Setting;

/// `TABPILOT_STATE_DIR`, else the platform's (on Linux `$XDG_STATE_HOME/tabpilot`, else
/// `~/.local/state/tabpilot`; src/shared/platform/dirs.rs).
pub fn state_dir() -> PathBuf {
    if let Some(dir) = Setting::StateDir.get_os() {
        return PathBuf::from(dir);
    }
    crate::shared::platform::dirs::state_dir()
}

/// The relay's lock for a port range. The running relay holds it, and writes into it the port it
/// bound and its pid (`PORT PID`), so that controllers dial that port before any other of the
/// range, and can say which process to stop.
pub fn relay_lock(ports: &std::ops::RangeInclusive<u16>) -> PathBuf {
    state_dir().join(format!("relay-{}-{}.lock", ports.start(), ports.end()))
}

/// What the relay of this range recorded in its lock, word by word.
fn relay_record(ports: &std::ops::RangeInclusive<u16>) -> Vec<String> {
    let text = fs::read_to_string(relay_lock(ports)).unwrap_or_default();
    text.split_whitespace().map(String::from).collect()
}

/// The port the relay of this range recorded, if it is one of the range.
pub fn recorded_relay_port(ports: &std::ops::RangeInclusive<u16>) -> Option<u16> {
    let port = relay_record(ports).first()?.parse().ok()?;
    ports.contains(&port).then_some(port)
}

/// The pid the relay of this range recorded (a relay older than the record has none).
pub fn recorded_relay_pid(ports: &std::ops::RangeInclusive<u16>) -> Option<u32> {
    relay_record(ports).get(1)?.parse().ok()
}

/// Creates `dir` (and parents) and makes it owner-only (0700, or the owner-only ACL).
pub fn ensure_private_dir(dir: &Path) -> io::Result<()> {
    private::create_dir(dir)
}

/// What makes `dir` no place to keep (or remove) tabpilot's files, in words: a symbolic link
/// (whoever placed it chose where it leads), not a folder, another user's, or writable by
/// others (anyone could have put anything there); none when it is fine or not there yet.
pub fn unsafe_dir(dir: &Path) -> io::Result<Option<String>> {
    let meta = match fs::symlink_metadata(dir) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
    };
    if meta.file_type().is_symlink() {
        let to = fs::read_link(dir).map_or_else(|e| e.to_string(), |t| t.display().to_string());
        return Ok(Some(format!("is a symbolic link (to {to})")));
    }
    if !meta.is_dir() {
        return Ok(Some("is not a folder".into()));
    }
    #[cfg(unix)]
    {
        let owner = std::os::unix::fs::MetadataExt::uid(&meta);
        let me = crate::shared::platform::me::uid();
        if owner != me {
            return Ok(Some(format!("belongs to uid {owner}, not you (uid {me})")));
        }
    }
    Ok(private::others_may_write(dir)?.map(|who| format!("is {who}")))
}

/// Writes `bytes` to `path` as an owner-only file, replacing it atomically.
pub fn write_private(path: &Path, bytes: &[u8]) -> io::Result<()> {
    let tmp = path.with_extension(format!("tmp{}", std::process::id()));
    let mut file = private::open(
        OpenOptions::new().write(true).create(true).truncate(true),
        &tmp,
    )?;
    file.write_all(bytes)?;
    file.sync_all()?;
    fs::rename(&tmp, path)
}

/// Whether this process now holds `file`'s exclusive lock, taken without waiting: a lock file's
/// holder keeps it for as long as the file stays open (and the kernel lets it go when the holder
/// exits, however it ends).
/// The standard library's lock is `flock` on Linux and macOS and `LockFileEx` on Windows.
pub fn try_lock(file: &File) -> bool {
    file.try_lock().is_ok()
}

/// The local secret relay peers prove they hold; created on first use.
pub fn secret() -> io::Result<Vec<u8>> {
    let dir = state_dir();
    ensure_private_dir(&dir)?;
    private_token(&dir.join("secret"))
}

/// The secret of the links through the relay's door past loopback (`relay --listen`): a
/// browser on another computer gets it by pairing, never the loopback secret, which controllers
/// prove themselves with. Owner-only, made on first use.
pub fn remote_secret() -> io::Result<Vec<u8>> {
    let dir = state_dir();
    ensure_private_dir(&dir)?;
    private_token(&dir.join("remote-secret"))
}

/// The relay's lasting P-256 key (its scalar, hex), which browsers on other computers pin when
/// they pair. Owner-only, made on first use.
pub fn relay_key() -> io::Result<String> {
    let dir = state_dir();
    ensure_private_dir(&dir)?;
    let key = private_token(&dir.join("relay-key"))?;
    Ok(String::from_utf8_lossy(&key).into_owned())
}

/// The relay secret if one was made, read without making one: for a look that changes nothing.
pub fn existing_secret() -> io::Result<Option<Vec<u8>>> {
    let path = state_dir().join("secret");
    match fs::symlink_metadata(&path) {
        Ok(_) => read_secret(&path).map(Some),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The key that makes the named session `name` (the CLI's) this user's to join; created on first
/// use, owner-only.
pub fn session_key(name: &str) -> io::Result<String> {
    let dir = state_dir().join("sessions");
    ensure_private_dir(&dir)?;
    let token = private_token(&dir.join(hex::encode(name.as_bytes())))?;
    Ok(String::from_utf8_lossy(&token).into_owned())
}

/// The token `tabpilot mcp --http` asks of every request when `TABPILOT_TOKEN` names none; made
/// on first use, owner-only, the same for every later server of this user.
pub fn http_token() -> io::Result<String> {
    let dir = state_dir();
    ensure_private_dir(&dir)?;
    let token = private_token(&dir.join("http-token"))?;
    Ok(String::from_utf8_lossy(&token).into_owned())
}

/// Replaces the HTTP token with a fresh one (`tabpilot token rotate`): owner-only, written whole
/// under another name and renamed into place, so a server never reads half of it.
pub fn rotate_http_token() -> io::Result<()> {
    let dir = state_dir();
    ensure_private_dir(&dir)?;
    let fresh = hex::encode(rand::random::<[u8; 32]>());
    write_private(&dir.join("http-token"), fresh.as_bytes())
}

/// The HTTP token if one was made, read without making one: for a look that changes nothing.
pub fn existing_http_token() -> Option<String> {
    let path = state_dir().join("http-token");
    let token = read_secret(&path).ok()?;
    Some(String::from_utf8_lossy(&token).into_owned())
}

/// A random token in an owner-only file, made on first use. Two processes racing to make it end
/// up with the same one: the file is created exclusively, and the loser reads it.
fn private_token(path: &Path) -> io::Result<Vec<u8>> {
    let fresh = hex::encode(rand::random::<[u8; 32]>());
    match private::open(OpenOptions::new().write(true).create_new(true), path) {
        Ok(mut file) => {
            file.write_all(fresh.as_bytes())?;
            file.sync_all()?;
            Ok(fresh.into_bytes())
        }
        Err(e) if e.kind() == io::ErrorKind::AlreadyExists => read_secret(path),
        Err(e) => Err(e),
    }
}

fn read_secret(path: &Path) -> io::Result<Vec<u8>> {
    // A racing creator may not have written yet; the secret is 64 hex characters.
    for _ in 0..50 {
        let mut text = String::new();
        File::open(path)?.read_to_string(&mut text)?;
        let text = text.trim();
        if text.len() == 64 {
            return Ok(text.as_bytes().to_vec());
        }
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidData,
        format!(
            "{} is not a tabpilot secret; delete it to make a new one",
            path.display()
        ),
    ))
}

#[cfg(test)]
pub(crate) mod test_support {
    use std::path::PathBuf;

    /// A file's or folder's permission bits.
    #[cfg(unix)]
    pub(crate) fn mode(path: &std::path::Path) -> u32 {
        use std::os::unix::fs::PermissionsExt;
        std::fs::metadata(path).unwrap().permissions().mode() & 0o777
    }

    /// A fresh directory under the temp dir, unique to this test.
    pub(crate) fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tabpilot-test-{name}-{}-{}",
            std::process::id(),
            rand::random::<u32>()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn private_files_are_owner_only() {
        let dir = test_support::temp_dir("state").join("inner");
        ensure_private_dir(&dir).unwrap();
        let file = dir.join("f");
        write_private(&file, b"x").unwrap();
        assert_eq!(test_support::mode(&dir), 0o700);
        assert_eq!(test_support::mode(&file), 0o600);
    }

    /// Windows: the folder gets the owner-only ACL, and the secrets made in it inherit it.
    #[test]
    fn the_state_dir_and_its_secrets_are_owner_only() {
        let dir = test_support::temp_dir("state-acl").join("inner");
        ensure_private_dir(&dir).unwrap();
        write_private(&dir.join("f"), b"x").unwrap();
        let token = private_token(&dir.join("token")).unwrap();
        assert_eq!(token.len(), 64);
        for path in [dir.clone(), dir.join("f"), dir.join("token")] {
            assert_eq!(
                private::open_to_others(&path).unwrap(),
                None,
                "{}",
                path.display()
            );
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_link_a_file_a_folder_others_may_write_or_another_users_is_unsafe() {
        use std::os::unix::fs::PermissionsExt;
        let base = test_support::temp_dir("unsafe-dir");
        let dir = base.join("state");
        ensure_private_dir(&dir).unwrap();
        assert_eq!(unsafe_dir(&dir).unwrap(), None);
        assert_eq!(unsafe_dir(&base.join("none")).unwrap(), None);
        std::os::unix::fs::symlink(&dir, base.join("link")).unwrap();
        let said = unsafe_dir(&base.join("link")).unwrap().unwrap();
        assert!(said.starts_with("is a symbolic link (to "), "{said}");
        fs::write(base.join("file"), "").unwrap();
        assert_eq!(
            unsafe_dir(&base.join("file")).unwrap().unwrap(),
            "is not a folder"
        );
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o770)).unwrap();
        let said = unsafe_dir(&dir).unwrap().unwrap();
        assert!(said.contains("writable by its group"), "{said}");
        fs::set_permissions(&dir, fs::Permissions::from_mode(0o700)).unwrap();
        // Giving a folder to another user takes root.
        if crate::shared::platform::me::is_root() {
            std::os::unix::fs::chown(&dir, Some(4242), None).unwrap();
            let said = unsafe_dir(&dir).unwrap().unwrap();
            assert!(said.starts_with("belongs to uid 4242, not you"), "{said}");
        } else {
            eprintln!("skipped another user's folder: not root");
        }
    }

    #[test]
    fn a_lock_is_held_by_one_file_at_a_time() {
        let path = test_support::temp_dir("lock").join("l.lock");
        let open = || {
            OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .unwrap()
        };
        let first = open();
        assert!(try_lock(&first));
        assert!(
            !try_lock(&open()),
            "a second holder while the first holds it"
        );
        drop(first);
        assert!(try_lock(&open()), "free once its holder closed it");
    }
}
