//! `tabpilot mcp --http --tls`: HTTPS with rustls (on ring), with the person's certificate and
//! key (`--tls-cert FILE --tls-key FILE`) or a pair made on first use and kept owner-only in the
//! state directory (`http-tls-cert.pem`, `http-tls-key.pem`), the same for every later server of
//! this user. The made certificate is self-signed and names localhost, 127.0.0.1, ::1 and the
//! host the server binds to (the machine's name when it binds every address); a server bound to
//! a host it does not name makes a new one naming that host too. Either way the server prints
//! the certificate's SHA-256 fingerprint, for the person to compare with what a client sees.
//!
//! A file of the made pair that is a symbolic link, another user's, or open to others is refused,
//! never used or replaced: whoever could plant or read it could speak as the server. A key the
//! person gives that others may read is refused too (as ssh refuses such a key).

use std::fs::{File, OpenOptions};
use std::io::{self, Read};
use std::net::IpAddr;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};

use anyhow::Context;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer, ServerName, UnixTime};
use sha2::{Digest, Sha256};

use crate::shared::platform::private;

/// The made certificate and its key, in the state directory.
pub const CERT_FILE: &str = "http-tls-cert.pem";
pub const KEY_FILE: &str = "http-tls-key.pem";
/// Held while the pair is read or made, so two servers starting at once agree on one pair.
const LOCK_FILE: &str = "http-tls.lock";
/// How long a made certificate is valid (the most some platforms accept for a server's
/// certificate), and how close to its end a server makes a new one.
const VALID_DAYS: i64 = 825;
const RENEW_DAYS: i64 = 30;
/// The line before the made certificate's PEM block (RFC 7468's explanatory text, which PEM
/// readers skip) saying which names it covers and until when.
const NOTE: &str = "tabpilot mcp --http --tls made this certificate for:";

/// The person's certificate (chain, PEM) and key files.
#[derive(Clone, Debug)]
pub struct TlsFiles {
    pub cert: PathBuf,
    pub key: PathBuf,
}

/// What the server presents, and what it tells the person about it.
pub struct Identity {
    pub config: Arc<rustls::ServerConfig>,
    /// The SHA-256 of the end-entity certificate, as `AB:CD:...` (as `openssl x509 -noout
    /// -fingerprint -sha256` prints it).
    pub fingerprint: String,
    pub cert_file: PathBuf,
    /// Where the certificate came from, in words.
    pub origin: String,
}

/// The server's certificate and key: the person's files, else the made pair.
pub fn identity(given: Option<&TlsFiles>, bind: IpAddr) -> anyhow::Result<Identity> {
    let (chain, key, cert_file, origin) = match given {
        Some(files) => {
            let (chain, key) = read_given(files)?;
            (chain, key, files.cert.clone(), "given".to_string())
        }
        None => {
            let dir = crate::shared::state::state_dir();
            let (chain, key, origin) = kept_or_made(&dir, &names(bind))?;
            (chain, key, dir.join(CERT_FILE), origin)
        }
    };
    let fingerprint = fingerprint(&chain[0]);
    let config = server_config(chain, key)?;
    Ok(Identity {
        config,
        fingerprint,
        cert_file,
        origin,
    })
}

/// SHA-256 of a certificate's DER, as colon-separated upper-case hex.
pub fn fingerprint(cert: &[u8]) -> String {
    let digest = Sha256::digest(cert);
    let hex: Vec<String> = digest.iter().map(|b| format!("{b:02X}")).collect();
    hex.join(":")
}

/// The crypto rustls uses here, both ways: ring's. rustls 0.23.48 marks it deprecated for
/// having no post-quantum key exchange (aws-lc-rs has X25519MLKEM768); aws-lc-rs wants cmake,
/// NASM or a prebuilt object for the Windows cross build, ring only a C compiler. The key
/// exchange is X25519 (docs/security.md: not covered).
#[allow(deprecated)]
pub fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// What a client of a `tabpilot mcp --http --tls` server trusts: the certificate whose SHA-256
/// is `pin`, or, with none, any certificate, for a caller that checks the server another way
/// (the proof of `proof.rs`, bound to the certificate). The handshake's signatures are verified
/// either way, so only the holder of the certificate's key gets through, and the fingerprint of
/// the certificate the server showed is kept in `seen`, so that a refusal can name both.
#[derive(Debug)]
pub struct Trust {
    pub pin: Option<String>,
    pub seen: Arc<Mutex<Option<String>>>,
    pub provider: Arc<rustls::crypto::CryptoProvider>,
}

/// A client configuration trusting as [`Trust`] says (`pin`, or any certificate), and where the
/// fingerprint of the certificate the server showed is kept.
pub fn client_config(pin: Option<&str>) -> (rustls::ClientConfig, Arc<Mutex<Option<String>>>) {
    let provider = provider();
    let seen = Arc::new(Mutex::new(None));
    let trust = Trust {
        pin: pin.map(str::to_string),
        seen: seen.clone(),
        provider: provider.clone(),
    };
    let config = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()
        .expect("ring's provider offers the safe defaults")
        .dangerous()
        .with_custom_certificate_verifier(Arc::new(trust))
        .with_no_client_auth();
    (config, seen)
}

impl ServerCertVerifier for Trust {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let served = fingerprint(end_entity);
        let trusted = self.pin.as_ref().is_none_or(|pin| *pin == served);
        *self.seen.lock().unwrap_or_else(PoisonError::into_inner) = Some(served);
        if trusted {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::ApplicationVerificationFailure,
            ))
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algs = &self.provider.signature_verification_algorithms;
        rustls::crypto::verify_tls12_signature(message, cert, dss, algs)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &rustls::DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        let algs = &self.provider.signature_verification_algorithms;
        rustls::crypto::verify_tls13_signature(message, cert, dss, algs)
    }

    fn supported_verify_schemes(&self) -> Vec<rustls::SignatureScheme> {
        self.provider
            .signature_verification_algorithms
            .supported_schemes()
    }
}

fn server_config(
    chain: Vec<CertificateDer<'static>>,
    key: PrivateKeyDer<'static>,
) -> anyhow::Result<Arc<rustls::ServerConfig>> {
    let mut config = rustls::ServerConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()?
        .with_no_client_auth()
        .with_single_cert(chain, key)
        .context("the TLS certificate and key do not make a pair rustls can serve")?;
    // The door serves HTTP/1.1 only.
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// The person's files: a certificate chain, and a key nobody else may read.
fn read_given(
    files: &TlsFiles,
) -> anyhow::Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>)> {
    let cert = std::fs::read(&files.cert)
        .with_context(|| format!("--tls-cert {}", files.cert.display()))?;
    let chain =
        certificates(&cert).with_context(|| format!("--tls-cert {}", files.cert.display()))?;
    if let Some(said) = private::open_to_others(&files.key)
        .with_context(|| format!("--tls-key {}", files.key.display()))?
    {
        anyhow::bail!(
            "--tls-key {}: others may read it ({said}); whoever reads the key can speak as the \
             server. Make it owner-only (`chmod 600 {}`)",
            files.key.display(),
            files.key.display()
        );
    }
    let key =
        std::fs::read(&files.key).with_context(|| format!("--tls-key {}", files.key.display()))?;
    let key = PrivateKeyDer::from_pem_slice(&key)
        .map_err(|e| anyhow::anyhow!("--tls-key {}: no private key ({e})", files.key.display()))?;
    Ok((chain, key))
}

fn certificates(pem: &[u8]) -> anyhow::Result<Vec<CertificateDer<'static>>> {
    let chain = CertificateDer::pem_slice_iter(pem)
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| anyhow::anyhow!("not a PEM certificate ({e})"))?;
    anyhow::ensure!(!chain.is_empty(), "no certificate (PEM) in it");
    Ok(chain)
}

/// The names a made certificate covers for a server bound to `bind`.
fn names(bind: IpAddr) -> Vec<String> {
    let mut names: Vec<String> = ["localhost", "127.0.0.1", "::1"].map(String::from).into();
    let own = if bind.is_unspecified() {
        hostname()
    } else {
        Some(bind.to_string())
    };
    names.extend(own.filter(|own| !names.contains(own)));
    names
}

/// This machine's name, when it has one that is a DNS name.
fn hostname() -> Option<String> {
    #[cfg(unix)]
    let name = {
        let mut buf = [0u8; 256];
        // SAFETY: the buffer is writable for its whole length, which is what is passed.
        let r = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) };
        (r == 0).then(|| {
            let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
            String::from_utf8_lossy(&buf[..end]).into_owned()
        })
    };
    #[cfg(windows)]
    let name = std::env::var("COMPUTERNAME").ok();
    name.map(|n| n.trim().to_ascii_lowercase()).filter(|n| {
        !n.is_empty()
            && n.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'.')
    })
}

/// The made pair: the one kept in `dir` when it covers `names` and is not near its end, else a
/// new one (covering the kept one's names too), with where it came from in words.
fn kept_or_made(
    dir: &Path,
    names: &[String],
) -> anyhow::Result<(Vec<CertificateDer<'static>>, PrivateKeyDer<'static>, String)> {
    crate::shared::state::ensure_private_dir(dir)?;
    let lock = private::open(
        OpenOptions::new().create(true).truncate(false).write(true),
        &dir.join(LOCK_FILE),
    )?;
    lock.lock()?;
    let (cert_path, key_path) = (dir.join(CERT_FILE), dir.join(KEY_FILE));
    let mut covered = names.to_vec();
    let why = match (read_owned(&cert_path)?, read_owned(&key_path)?) {
        (Some(cert), Some(key)) => {
            let note = Note::read(&cert);
            let missing: Vec<&String> = names.iter().filter(|n| !note.names.contains(n)).collect();
            if missing.is_empty() && note.days_left() > RENEW_DAYS {
                let chain = certificates(&cert).with_context(|| cert_path.display().to_string())?;
                let key = PrivateKeyDer::from_pem_slice(&key)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", key_path.display()))?;
                return Ok((chain, key, format!("kept in {}", dir.display())));
            }
            let why = if missing.is_empty() {
                "the kept one was near its end".to_string()
            } else {
                format!("the kept one did not name {missing:?}")
            };
            covered.extend(note.names.into_iter().filter(|n| !names.contains(n)));
            why
        }
        (None, None) => "none was kept yet".to_string(),
        _ => "half of the kept pair was missing".to_string(),
    };
    let (cert_pem, key_pem) = make(&covered)?;
    // The key first: the certificate names the pair, and the lock keeps others from reading
    // one of the old and one of the new.
    crate::shared::state::write_private(&key_path, key_pem.as_bytes())?;
    crate::shared::state::write_private(&cert_path, cert_pem.as_bytes())?;
    let chain = certificates(cert_pem.as_bytes())?;
    let key = PrivateKeyDer::from_pem_slice(key_pem.as_bytes())
        .map_err(|e| anyhow::anyhow!("the made key: {e}"))?;
    Ok((
        chain,
        key,
        format!("made now ({why}), kept in {}", dir.display()),
    ))
}

/// A new self-signed certificate for `names` and its key, both PEM; the certificate with the note
/// saying what it covers.
fn make(names: &[String]) -> anyhow::Result<(String, String)> {
    let key = rcgen::KeyPair::generate()?;
    let mut params = rcgen::CertificateParams::new(names.to_vec())?;
    let mut dn = rcgen::DistinguishedName::new();
    dn.push(rcgen::DnType::CommonName, "tabpilot mcp --http");
    params.distinguished_name = dn;
    params.extended_key_usages = vec![rcgen::ExtendedKeyUsagePurpose::ServerAuth];
    let today = chrono::Utc::now().date_naive();
    let ymd = |d: chrono::NaiveDate| {
        use chrono::Datelike;
        rcgen::date_time_ymd(d.year(), d.month() as u8, d.day() as u8)
    };
    params.not_before = ymd(today - chrono::Days::new(1));
    let until = today + chrono::Days::new(VALID_DAYS as u64);
    params.not_after = ymd(until);
    let cert = params.self_signed(&key)?;
    let note = format!("{NOTE} {}; valid until {until}\n", names.join(" "));
    Ok((note + &cert.pem(), key.serialize_pem()))
}

/// What the note before a made certificate says.
struct Note {
    names: Vec<String>,
    until: Option<chrono::NaiveDate>,
}

impl Note {
    fn read(pem: &[u8]) -> Note {
        let text = String::from_utf8_lossy(pem);
        let line = text
            .lines()
            .find_map(|l| l.strip_prefix(NOTE))
            .unwrap_or("");
        let (names, until) = line.split_once("; valid until ").unwrap_or((line, ""));
        Note {
            names: names.split_whitespace().map(String::from).collect(),
            until: until.trim().parse().ok(),
        }
    }

    fn days_left(&self) -> i64 {
        self.until
            .map_or(0, |u| (u - chrono::Utc::now().date_naive()).num_days())
    }
}

/// A file of the made pair, read only when it is a plain file of this user's that nobody else
/// may open; none when it is not there. Opened without following a link, and judged by what was
/// opened, so a link or a file swapped in between the look and the read is caught.
fn read_owned(path: &Path) -> anyhow::Result<Option<Vec<u8>>> {
    let refuse = |why: String| {
        anyhow::anyhow!(
            "{} {why}: tabpilot uses only a certificate and key it made, owner-only, in its \
             state directory (whoever planted or read them could speak as the server). Remove \
             it, and the next `tabpilot mcp --http --tls` makes a new pair (its fingerprint \
             changes: tell your clients), or give your own with --tls-cert and --tls-key",
            path.display()
        )
    };
    let mut file = match open_nofollow(path) {
        Ok(file) => file,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) if is_link_error(&e) => return Err(refuse("is a symbolic link".into())),
        Err(e) => return Err(e).with_context(|| path.display().to_string()),
    };
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(refuse("is not a plain file".into()));
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        let (owner, me) = (meta.uid(), crate::shared::platform::me::uid());
        if owner != me {
            return Err(refuse(format!(
                "belongs to uid {owner}, not you (uid {me})"
            )));
        }
    }
    if let Some(said) = private::open_to_others(path)? {
        return Err(refuse(format!("is open to others ({said})")));
    }
    let mut bytes = Vec::new();
    file.read_to_end(&mut bytes)?;
    Ok(Some(bytes))
}

#[cfg(unix)]
fn open_nofollow(path: &Path) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
}

#[cfg(windows)]
fn open_nofollow(path: &Path) -> io::Result<File> {
    if std::fs::symlink_metadata(path)?.file_type().is_symlink() {
        return Err(io::Error::other("a symbolic link"));
    }
    File::open(path)
}

fn is_link_error(e: &io::Error) -> bool {
    #[cfg(unix)]
    return e.raw_os_error() == Some(libc::ELOOP);
    #[cfg(windows)]
    return e.kind() == io::ErrorKind::Other && e.to_string() == "a symbolic link";
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;

    #[test]
    fn only_the_pinned_certificate_passes_and_the_one_seen_is_recorded() {
        let (pinned_der, other_der) = (b"pinned".as_slice(), b"other".as_slice());
        let name = ServerName::try_from("lab.example").unwrap();
        let check = |pin: Option<&str>, der: &[u8]| {
            let seen = Arc::new(Mutex::new(None));
            let trust = Trust {
                pin: pin.map(str::to_string),
                seen: seen.clone(),
                provider: provider(),
            };
            let verdict = trust.verify_server_cert(
                &CertificateDer::from(der.to_vec()),
                &[],
                &name,
                &[],
                UnixTime::now(),
            );
            let seen = seen.lock().unwrap().clone();
            (verdict.is_ok(), seen)
        };
        let pin = fingerprint(pinned_der);
        assert_eq!(check(Some(&pin), pinned_der), (true, Some(pin.clone())));
        let other = Some(fingerprint(other_der));
        assert_eq!(check(Some(&pin), other_der), (false, other.clone()));
        assert_eq!(
            check(None, other_der),
            (true, other),
            "no pin: any certificate"
        );
    }

    fn want() -> Vec<String> {
        names("127.0.0.1".parse().unwrap())
    }

    #[test]
    fn a_made_pair_is_kept_and_a_new_host_gets_a_new_one_naming_both() {
        let dir = temp_dir("tls");
        let (chain, _, said) = kept_or_made(&dir, &want()).unwrap();
        assert!(said.starts_with("made now (none was kept yet)"), "{said}");
        let (again, _, said) = kept_or_made(&dir, &want()).unwrap();
        assert!(said.starts_with("kept in "), "{said}");
        assert_eq!(fingerprint(&chain[0]), fingerprint(&again[0]));
        let host = vec!["localhost".to_string(), "192.0.2.7".to_string()];
        let (other, _, said) = kept_or_made(&dir, &host).unwrap();
        assert!(said.contains("did not name [\"192.0.2.7\"]"), "{said}");
        assert_ne!(fingerprint(&chain[0]), fingerprint(&other[0]));
        let note = Note::read(&std::fs::read(dir.join(CERT_FILE)).unwrap());
        for name in ["127.0.0.1", "::1", "localhost", "192.0.2.7"] {
            assert!(note.names.iter().any(|n| n == name), "{name}");
        }
        assert!(note.days_left() > VALID_DAYS - 2);
        // Both serve: the key and the certificate make a pair rustls takes.
        let (chain, key, _) = kept_or_made(&dir, &host).unwrap();
        server_config(chain, key).unwrap();
    }

    #[test]
    fn the_fingerprint_is_what_openssl_prints() {
        // SHA-256 of the empty input.
        assert!(fingerprint(b"").starts_with("E3:B0:C4:42:98:FC:1C:14:"));
        assert_eq!(fingerprint(b"").len(), 32 * 3 - 1);
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_or_loosened_file_of_the_pair_is_refused() {
        use std::os::unix::fs::PermissionsExt;
        let dir = temp_dir("tls-planted");
        kept_or_made(&dir, &want()).unwrap();
        let key = dir.join(KEY_FILE);
        std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
        let said = kept_or_made(&dir, &want()).err().unwrap().to_string();
        assert!(said.contains("is open to others (mode 644)"), "{said}");
        let planted = dir.join("planted.pem");
        std::fs::rename(&key, &planted).unwrap();
        std::os::unix::fs::symlink(&planted, &key).unwrap();
        let said = kept_or_made(&dir, &want()).err().unwrap().to_string();
        assert!(said.contains("is a symbolic link"), "{said}");
    }
}
