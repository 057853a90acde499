//! `tabpilot mcp --http --tls` (issue 39): HTTPS with a certificate made on first use and kept
//! owner-only in the state directory, its SHA-256 fingerprint printed for the person to compare.
//! A client that pins that fingerprint (as a person who compared it would) lists the tools with
//! the token; one pinning another certificate is refused; a second server keeps the certificate;
//! a planted (linked, loosened or another user's) key is refused; past loopback is served with
//! TLS and without `--allow-plain-http`; `install --http` writes the running server's https URL.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;
use std::process::{Child, ChildStdout, Command, Stdio};
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use serde_json::{Value, json};
use sha2::{Digest, Sha256};

use crate::harness::{Env, in_project, mode, run};
use crate::http::{answer, initialize};

/// SHA-256 of a certificate's DER as `AB:CD:...`, computed here, not by tabpilot.
fn sha256(der: &[u8]) -> String {
    let hex: Vec<String> = Sha256::digest(der)
        .iter()
        .map(|b| format!("{b:02X}"))
        .collect();
    hex.join(":")
}

#[allow(deprecated)]
fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

/// Trusts the one certificate whose SHA-256 is the pinned one, as a client given the printed
/// fingerprint does; the handshake's signatures are checked as any client checks them.
#[derive(Debug)]
struct Pinned {
    fingerprint: String,
    provider: Arc<rustls::crypto::CryptoProvider>,
}

impl ServerCertVerifier for Pinned {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        if sha256(end_entity) == self.fingerprint {
            Ok(ServerCertVerified::assertion())
        } else {
            Err(rustls::Error::General("not the pinned certificate".into()))
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

/// A `tabpilot mcp --http ADDR --tls` and what it said at start (remote_cli.rs uses it too).
pub(crate) struct TlsServer {
    child: Child,
    port: u16,
    pub(crate) url: String,
    pub(crate) fingerprint: String,
    pub(crate) token: String,
    said: String,
    _out: BufReader<ChildStdout>,
}

impl TlsServer {
    pub(crate) fn start(env: &Env, addr: &str) -> TlsServer {
        TlsServer::start_with(env, &["mcp", "--http", addr, "--tls"], |cmd| cmd)
    }

    /// `start`, as `args` say, the command as `wrap` makes it (run inside a namespace, say).
    pub(crate) fn start_with(
        env: &Env,
        args: &[&str],
        wrap: impl FnOnce(Command) -> Command,
    ) -> TlsServer {
        let mut cmd = env.command(args);
        cmd.env_remove("TABPILOT_TOKEN");
        let mut child = wrap(cmd)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("tabpilot mcp --http --tls starts");
        let mut out = BufReader::new(child.stdout.take().unwrap());
        let mut said = String::new();
        for _ in 0..3 {
            out.read_line(&mut said).unwrap();
        }
        let url = said
            .lines()
            .next()
            .and_then(|l| l.strip_prefix("tabpilot mcp: MCP over Streamable HTTP at "))
            .unwrap_or_else(|| panic!("the server prints its URL: {said}"))
            .to_string();
        let port = url.rsplit(':').next().unwrap().trim_end_matches("/mcp");
        let fingerprint = said
            .split("SHA-256 fingerprint ")
            .nth(1)
            .and_then(|rest| rest.split(';').next())
            .unwrap_or_else(|| panic!("the server prints the fingerprint: {said}"))
            .to_string();
        let token = std::fs::read_to_string(env.state_dir.join("http-token")).unwrap();
        TlsServer {
            port: port.parse().unwrap(),
            url,
            fingerprint,
            token: token.trim().to_string(),
            said,
            child,
            _out: out,
        }
    }

    /// Stops it; what it wrote on stderr.
    pub(crate) fn stop(mut self) -> String {
        let _ = self.child.kill();
        let mut err = String::new();
        let _ = self.child.stderr.take().unwrap().read_to_string(&mut err);
        let _ = self.child.wait();
        err
    }

    /// One HTTP/1.0 request to /mcp over TLS, trusting only the certificate pinned; the
    /// handshake's refusal as an error.
    fn post(
        &self,
        pin: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Result<(u16, Option<String>, String), String> {
        let config = rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .unwrap()
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Pinned {
                fingerprint: pin.to_string(),
                provider: provider(),
            }))
            .with_no_client_auth();
        self.post_with(config, "localhost", headers, body)
    }

    /// [`TlsServer::post`] with a client configured as `config`, asking for the server `name`.
    fn post_with(
        &self,
        config: rustls::ClientConfig,
        name: &str,
        headers: &[(&str, &str)],
        body: &Value,
    ) -> Result<(u16, Option<String>, String), String> {
        let name = ServerName::try_from(name.to_string()).unwrap();
        let conn = rustls::ClientConnection::new(Arc::new(config), name).unwrap();
        let tcp = TcpStream::connect(("127.0.0.1", self.port)).unwrap();
        let mut tls = rustls::StreamOwned::new(conn, tcp);
        let body = body.to_string();
        let own_host = format!("localhost:{}", self.port);
        let host = headers
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case("host"))
            .map_or(own_host.as_str(), |(_, value)| value);
        let mut req = format!(
            "POST /mcp HTTP/1.0\r\nHost: {host}\r\nContent-Type: application/json\r\n\
             Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n",
            body.len()
        );
        for (name, value) in headers
            .iter()
            .filter(|(n, _)| !n.eq_ignore_ascii_case("host"))
        {
            req.push_str(&format!("{name}: {value}\r\n"));
        }
        req.push_str("\r\n");
        req.push_str(&body);
        tls.write_all(req.as_bytes()).map_err(|e| e.to_string())?;
        let mut bytes = Vec::new();
        let mut chunk = [0u8; 4096];
        loop {
            match tls.read(&mut chunk) {
                Ok(0) => break,
                Ok(n) => bytes.extend_from_slice(&chunk[..n]),
                Err(e) if bytes.is_empty() => return Err(e.to_string()),
                Err(_) => break,
            }
        }
        let answer = String::from_utf8_lossy(&bytes).into_owned();
        let (head, body) = answer.split_once("\r\n\r\n").unwrap_or((&answer, ""));
        let status = head.split(' ').nth(1).and_then(|s| s.parse().ok());
        let session = head.lines().find_map(|l| {
            let (name, value) = l.split_once(':')?;
            name.eq_ignore_ascii_case("mcp-session-id")
                .then(|| value.trim().to_string())
        });
        Ok((status.ok_or(head.to_string())?, session, body.to_string()))
    }
}

impl Drop for TlsServer {
    /// A test that fails leaves no server behind.
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The SHA-256 of the certificate in the state directory's PEM file.
fn kept_fingerprint(env: &Env) -> String {
    let pem = std::fs::read(env.state_dir.join("http-tls-cert.pem")).unwrap();
    let cert = CertificateDer::pem_slice_iter(&pem)
        .next()
        .unwrap()
        .unwrap();
    sha256(&cert)
}

#[test]
fn a_client_pinning_the_printed_fingerprint_lists_the_tools_and_another_pin_is_refused() {
    let env = Env::fresh("tls-pin");
    let server = TlsServer::start(&env, "127.0.0.1:0");
    assert!(
        server.url.starts_with("https://127.0.0.1:"),
        "{}",
        server.said
    );
    assert_eq!(
        server.fingerprint,
        kept_fingerprint(&env),
        "{}",
        server.said
    );
    assert!(
        server.said.contains("NODE_EXTRA_CA_CERTS="),
        "{}",
        server.said
    );
    assert!(
        !server.said.contains(&server.token),
        "the token was printed"
    );

    let pin = server.fingerprint.clone();
    let auth = format!("Bearer {}", server.token);
    let (status, session, body) = server
        .post(&pin, &[("Authorization", &auth)], &initialize(1))
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let session = session.expect("a session id");
    let headers = [
        ("Authorization", auth.as_str()),
        ("Mcp-Session-Id", &session),
    ];
    let done = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    server.post(&pin, &headers, &done).unwrap();
    let list = json!({"jsonrpc": "2.0", "id": 2, "method": "tools/list"});
    let (status, _, body) = server.post(&pin, &headers, &list).unwrap();
    assert_eq!(status, 200, "{body}");
    let tools = answer(&body, 2)["result"]["tools"].clone();
    assert!(
        tools
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t["name"] == "browser_navigate"),
        "{tools}"
    );
    // The token is still asked for over TLS, and a page's foreign Origin is still refused.
    let (status, _, _) = server.post(&pin, &[], &initialize(3)).unwrap();
    assert_eq!(status, 401);
    let page = [
        ("Authorization", auth.as_str()),
        ("Origin", "https://evil.example"),
    ];
    let (status, _, _) = server.post(&pin, &page, &initialize(3)).unwrap();
    assert_eq!(status, 403);
    // A rebinding page's Host (its own name) is refused on loopback, TLS or not.
    let rebound = [
        ("Authorization", auth.as_str()),
        ("Host", "evil.example.com"),
    ];
    let (status, _, _) = server.post(&pin, &rebound, &initialize(3)).unwrap();
    assert_eq!(status, 403);

    // A client pinning another certificate gets no further than the handshake.
    let other = sha256(b"another certificate");
    let refused = server.post(&other, &[("Authorization", &auth)], &initialize(4));
    assert!(refused.is_err(), "{refused:?}");
    let err = server.stop();
    assert!(
        err.contains(&format!("SHA-256 fingerprint {pin}")),
        "the fingerprint on stderr too: {err}"
    );
}

#[test]
fn the_made_key_is_owner_only_and_a_second_server_keeps_the_certificate() {
    let env = Env::fresh("tls-kept");
    let first = TlsServer::start(&env, "127.0.0.1:0");
    let fingerprint = first.fingerprint.clone();
    assert!(first.said.contains("made now"), "{}", first.said);
    first.stop();
    assert_eq!(mode(&env.state_dir.join("http-tls-key.pem")), 0o600);
    assert_eq!(mode(&env.state_dir.join("http-tls-cert.pem")), 0o600);

    let second = TlsServer::start(&env, "127.0.0.1:0");
    assert!(second.said.contains("kept in "), "{}", second.said);
    assert_eq!(second.fingerprint, fingerprint);
    let auth = format!("Bearer {}", second.token);
    let (status, _, body) = second
        .post(&fingerprint, &[("Authorization", &auth)], &initialize(1))
        .unwrap();
    assert_eq!(status, 200, "{body}");
}

/// `tabpilot mcp --http 127.0.0.1:0 --tls` in `env`, expected to stop at start; its stderr.
fn refused(env: &Env) -> String {
    let out = env
        .command(&["mcp", "--http", "127.0.0.1:0", "--tls"])
        .env_remove("TABPILOT_TOKEN")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(!out.status.success(), "it served");
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_linked_loosened_or_foreign_key_in_the_state_dir_is_refused() {
    let env = Env::fresh("tls-planted");
    TlsServer::start(&env, "127.0.0.1:0").stop();
    let key = env.state_dir.join("http-tls-key.pem");
    let kept = std::fs::read(&key).unwrap();

    // A link (to a key someone else chose) is refused, not followed.
    let planted = env.state_dir.join("elsewhere.pem");
    std::fs::rename(&key, &planted).unwrap();
    std::os::unix::fs::symlink(&planted, &key).unwrap();
    let err = refused(&env);
    assert!(err.contains("is a symbolic link"), "{err}");
    std::fs::remove_file(&key).unwrap();
    std::fs::rename(&planted, &key).unwrap();

    // A key others may read is refused, and left as it is.
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o644)).unwrap();
    let err = refused(&env);
    assert!(err.contains("is open to others (mode 644)"), "{err}");
    assert_eq!(std::fs::read(&key).unwrap(), kept);
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o600)).unwrap();

    // Another user's key (giving a file away takes root).
    // SAFETY: getuid has no preconditions and cannot fail.
    if unsafe { libc::getuid() } == 0 {
        std::os::unix::fs::chown(&key, Some(65534), None).unwrap();
        let err = refused(&env);
        assert!(err.contains("belongs to uid 65534, not you"), "{err}");
        std::os::unix::fs::chown(&key, Some(0), None).unwrap();
    } else {
        eprintln!("skipped another user's key: not root");
    }
    // Put right, it serves again, with the same certificate.
    let fingerprint = kept_fingerprint(&env);
    assert_eq!(
        TlsServer::start(&env, "127.0.0.1:0").fingerprint,
        fingerprint
    );
}

#[test]
fn the_persons_key_is_refused_when_others_may_read_it() {
    let env = Env::fresh("tls-given");
    TlsServer::start(&env, "127.0.0.1:0").stop();
    let dir = env.state_dir.join("mine");
    std::fs::create_dir_all(&dir).unwrap();
    let (cert, key) = (dir.join("cert.pem"), dir.join("key.pem"));
    std::fs::copy(env.state_dir.join("http-tls-cert.pem"), &cert).unwrap();
    std::fs::copy(env.state_dir.join("http-tls-key.pem"), &key).unwrap();
    std::fs::set_permissions(&key, std::fs::Permissions::from_mode(0o640)).unwrap();
    let given = |cmd: &mut Command| {
        cmd.args(["--tls-cert", cert.to_str().unwrap()])
            .args(["--tls-key", key.to_str().unwrap()]);
    };
    let mut cmd = env.command(&["mcp", "--http", "127.0.0.1:0", "--tls"]);
    given(&mut cmd);
    let (ok, _, err) = run(cmd);
    assert!(
        !ok && err.contains("others may read it (mode 640)"),
        "{err}"
    );
}

#[test]
fn tls_serves_past_loopback_without_allow_plain_http() {
    let env = Env::fresh("tls-remote");
    let server = TlsServer::start(&env, "0.0.0.0:0");
    assert!(
        server.url.starts_with("https://0.0.0.0:"),
        "{}",
        server.said
    );
    let auth = format!("Bearer {}", server.token);
    let (status, _, body) = server
        .post(
            &server.fingerprint,
            &[("Authorization", &auth)],
            &initialize(1),
        )
        .unwrap();
    assert_eq!(status, 200, "{body}");
    let err = server.stop();
    assert!(!err.contains("WARNING: serving plain HTTP"), "{err}");
}

fn home(name: &str) -> std::path::PathBuf {
    let home =
        std::env::temp_dir().join(format!("tabpilot-e2e-{}-home-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&home);
    std::fs::create_dir_all(&home).unwrap();
    home
}

fn install(env: &Env, home: &Path, args: &[&str]) -> (bool, String, String) {
    let mut cmd = env.command(&[&["install", "cursor"], args].concat());
    in_project(&mut cmd, home, home);
    cmd.env_remove("XDG_CONFIG_HOME")
        .env_remove("TABPILOT_TOKEN");
    run(cmd)
}

#[test]
fn install_http_points_the_client_at_the_running_https_server() {
    let env = Env::fresh("tls-install");
    let home = home("tls-install");
    let server = TlsServer::start(&env, "127.0.0.1:0");
    let (ok, out, err) = install(&env, &home, &["--http"]);
    assert!(ok, "{out}{err}");
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".cursor/mcp.json")).unwrap())
            .unwrap();
    assert_eq!(config["mcpServers"]["tabpilot"]["url"], server.url.as_str());
    assert!(
        out.contains(&format!("SHA-256 fingerprint {}", server.fingerprint)),
        "the proven certificate is named: {out}"
    );
    // A URL given is written as it is.
    let given = format!("https://localhost:{}/mcp", server.port);
    let (ok, out, err) = install(&env, &home, &["--http", &given]);
    assert!(ok, "{out}{err}");
    let config: Value =
        serde_json::from_str(&std::fs::read_to_string(home.join(".cursor/mcp.json")).unwrap())
            .unwrap();
    assert_eq!(config["mcpServers"]["tabpilot"]["url"], given.as_str());
}

#[test]
fn a_client_trusting_the_certificate_checks_its_names() {
    let env = Env::fresh("tls-trust");
    let server = TlsServer::start(&env, "127.0.0.1:0");
    // The certificate file as NODE_EXTRA_CA_CERTS gives it to a client: a trust anchor.
    let pem = std::fs::read(env.state_dir.join("http-tls-cert.pem")).unwrap();
    let mut roots = rustls::RootCertStore::empty();
    for cert in CertificateDer::pem_slice_iter(&pem) {
        roots.add(cert.unwrap()).unwrap();
    }
    let trusting = || {
        rustls::ClientConfig::builder_with_provider(provider())
            .with_safe_default_protocol_versions()
            .unwrap()
            .with_root_certificates(roots.clone())
            .with_no_client_auth()
    };
    let auth = format!("Bearer {}", server.token);
    for name in ["localhost", "127.0.0.1"] {
        let (status, _, body) = server
            .post_with(
                trusting(),
                name,
                &[("Authorization", &auth)],
                &initialize(1),
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(status, 200, "{name}: {body}");
    }
    let refused = server.post_with(
        trusting(),
        "example.com",
        &[("Authorization", &auth)],
        &initialize(1),
    );
    assert!(refused.is_err(), "{refused:?}");
    // A client trusting nothing of ours (a system's list) refuses it too.
    let bare = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
    let refused = server.post_with(
        bare,
        "localhost",
        &[("Authorization", &auth)],
        &initialize(1),
    );
    assert!(refused.is_err(), "{refused:?}");
}

#[test]
fn a_connection_that_never_shakes_hands_is_closed() {
    let env = Env::fresh("tls-silent");
    let server = TlsServer::start(&env, "127.0.0.1:0");
    let mut silent = TcpStream::connect(("127.0.0.1", server.port)).unwrap();
    // The door gives 5 s; the read gives up long after, so only a closed connection passes.
    silent
        .set_read_timeout(Some(std::time::Duration::from_secs(30)))
        .unwrap();
    let mut byte = [0u8; 1];
    match silent.read(&mut byte) {
        Ok(0) => {}
        Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {}
        other => panic!("a silent connection was kept: {other:?}"),
    }
}
