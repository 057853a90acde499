//! The command line: the long-running commands (mcp, relay, launch, demo), setup (extension,
//! pair), the audit trail, and every tool as `tabpilot <tool> [--args JSON] [--json]`.

mod audit;
mod call;
mod demo;
mod doctor;
mod export;
mod install;
#[cfg(test)]
mod manifests;
mod reference;
mod remote;
mod replay;
mod secret;
mod service;
mod skill;
mod uninstall;

use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::controller::launch::{self, LaunchOptions};

#[derive(Parser)]
#[command(
    name = "tabpilot",
    version,
    about = "Drive real browser tabs from any MCP client or the terminal"
)]
struct Cli {
    /// Run the tool command on this remote MCP server (`tabpilot remote add`) instead of here.
    #[arg(long, value_name = "NAME")]
    remote: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve MCP on stdio, or over Streamable HTTP with --http.
    Mcp {
        /// Launch a managed Chromium the first time a tool needs a browser and none is connected
        /// (with --http: at start, for every session).
        #[arg(long)]
        launch: bool,
        /// With --launch: run it headless.
        #[arg(long)]
        headless: bool,
        /// Serve MCP over Streamable HTTP at HOST:PORT (default: 127.0.0.1:47320, or the port
        /// TABPILOT_HTTP_PORT names; a port another
        /// program holds is an error naming it, never a move to another); every request needs
        /// the token (its file is named at start).
        #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
        http: Option<String>,
        /// With --http on an address past loopback: serve plain HTTP there all the same (the
        /// token and what agents read cross the network in clear; refused without it).
        #[arg(long, requires = "http")]
        allow_plain_http: bool,
        /// With --http: serve HTTPS, with --tls-cert and --tls-key, or a certificate made on
        /// first use and kept owner-only in the state dir (its SHA-256 fingerprint is printed);
        /// it may then serve past loopback.
        #[arg(long, requires = "http")]
        tls: bool,
        /// With --tls: the certificate (PEM, the chain) to serve with.
        #[arg(long, value_name = "FILE", requires_all = ["tls", "tls_key"])]
        tls_cert: Option<std::path::PathBuf>,
        /// With --tls: the certificate's private key (PEM); refused when others may read it.
        #[arg(long, value_name = "FILE", requires_all = ["tls", "tls_cert"])]
        tls_key: Option<std::path::PathBuf>,
    },
    /// Run the relay in the foreground (controllers start one on demand).
    Relay {
        /// Also listen at HOST:PORT (an IP address; port 0 for any free one) for browsers on
        /// other computers, paired with `tabpilot pair --remote`. Such a relay stays until
        /// stopped.
        #[arg(long, value_name = "HOST:PORT")]
        listen: Option<String>,
    },
    /// Start a managed Chromium with the extension, paired with the relay.
    Launch {
        #[arg(long)]
        headless: bool,
        /// A throwaway profile instead of the managed one.
        #[arg(long)]
        isolated: bool,
        /// The name agents pick it by (default `managed`, or `isolated-...`).
        #[arg(long, value_name = "NAME")]
        label: Option<String>,
    },
    /// The extension, for loading into your own browser.
    Extension {
        #[command(subcommand)]
        what: ExtensionCommand,
    },
    /// Pair your own browser (with the extension loaded) with the relay.
    Pair {
        /// A browser on another computer, through the relay's door past loopback (`relay
        /// --listen`): prints its address, a one-time code and the relay's key fingerprint.
        #[arg(long)]
        remote: bool,
    },
    /// Check Chromium, the state dir, the relay, the browsers, the MCP clients' configs and the
    /// skill; say how to fix each problem. Exits non-zero when a check fails.
    Doctor,
    /// Launch a headless Chromium, serve a demo page, and run a short session through the tools.
    Demo,
    /// List the tools.
    Tools,
    /// Serve a live page of the browsers, the agents and their tabs, and the recent calls, on
    /// 127.0.0.1; open it with the one-time link it prints.
    Dashboard {
        /// Default: the first free of 47330-47339; 0 lets the system pick.
        #[arg(long)]
        port: Option<u16>,
    },
    /// Print the audit trail: one line per tool call, newest last.
    Audit(audit::AuditArgs),
    /// A recorded session as a Playwright test or a replay file (from the recording on disk:
    /// the MCP server keeps it there with TABPILOT_RECORD=1).
    Export(export::ExportArgs),
    /// Run a replay file again through the tools, with no model; stops at the first failure.
    Replay(replay::ReplayArgs),
    /// Add tabpilot to an MCP client's config (shows the diff first).
    Install(install::InstallArgs),
    /// Remove tabpilot's entry from an MCP client's config, and nothing else; or, with --all,
    /// everything tabpilot put on this machine (it lists it and asks first).
    Uninstall(install::UninstallArgs),
    /// `tabpilot mcp --http` as a service of your user, started with your session.
    Service {
        #[command(subcommand)]
        what: service::ServiceCommand,
    },
    /// The token `mcp --http` asks of every request.
    Token {
        #[command(subcommand)]
        what: TokenCommand,
    },
    /// Secrets agents fill into pages without seeing them: values, TOTP seeds, files.
    Secret {
        #[command(subcommand)]
        what: secret::SecretCommand,
    },
    /// Remote MCP servers a tool command can run on (`tabpilot --remote NAME <tool> ...`).
    Remote {
        #[command(subcommand)]
        what: remote::RemoteCommand,
    },
    /// The agent skill that teaches the tools.
    Skill {
        #[command(subcommand)]
        what: SkillCommand,
    },
    /// Call a tool: `tabpilot navigate URL`, `tabpilot browser_click --args '{"ref":"e1abc"}'`.
    #[command(external_subcommand)]
    Call(Vec<String>),
}

#[derive(Subcommand)]
enum SkillCommand {
    /// Put it in ~/.agents/skills/tabpilot, where agents and the context tools find it.
    Install,
}

#[derive(Subcommand)]
enum TokenCommand {
    /// Replace it with a new one in its owner-only file; running servers refuse the old one
    /// from their next request.
    Rotate,
}

#[derive(Subcommand)]
enum ExtensionCommand {
    /// Write the extension out and print the folder to load with "Load unpacked".
    Path,
    /// Write a zip of the extension for a Chrome Web Store upload and print its path.
    Pack {
        /// Default: tabpilot-extension-VERSION.zip in the current directory.
        out: Option<std::path::PathBuf>,
    },
}

/// The crates under us that log whole messages (frames with typed text, page content) at debug
/// and trace; whatever `TABPILOT_LOG` asks, they say no more than info.
const CHATTY: [&str; 6] = [
    "tungstenite",
    "tokio_tungstenite",
    "rmcp",
    "hyper",
    "axum",
    "h2",
];

/// rmcp's session manager names each new MCP session's id at info; held to warn whatever
/// `TABPILOT_LOG` asks, so no log carries one.
const NAMES_SESSIONS: &str = "rmcp::transport::streamable_http_server::session::local";

/// Warnings, and the relay's own few lines at info (listening, a browser paired, joined or
/// left): relay.log tells the person what came and went.
const DEFAULT_LOG: &str = "warn,tabpilot::relay=info";

fn init_logging() {
    let mut filter = crate::shared::settings::Setting::Log
        .get()
        .and_then(|dirs| tracing_subscriber::EnvFilter::try_new(dirs).ok())
        .unwrap_or_else(|| tracing_subscriber::EnvFilter::new(DEFAULT_LOG));
    let verbose = filter
        .max_level_hint()
        .is_none_or(|max| max > tracing_subscriber::filter::LevelFilter::INFO);
    if verbose {
        for target in CHATTY {
            filter = filter.add_directive(format!("{target}=info").parse().expect("a directive"));
        }
    }
    let quiet = format!("{NAMES_SESSIONS}=warn");
    filter = filter.add_directive(quiet.parse().expect("a directive"));
    tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .with_target(false)
        .init();
}

pub fn run() -> ExitCode {
    // Read first thing, before a parent can go.
    let parent = crate::shared::platform::me::parent();
    let cli = Cli::parse();
    init_logging();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("tokio runtime starts");
    let result = runtime.block_on(dispatch(cli.command, cli.remote, parent));
    // Don't wait on stdin readers left behind by the MCP transport.
    runtime.shutdown_timeout(std::time::Duration::from_millis(200));
    result
}

async fn dispatch(command: Command, remote: Option<String>, parent: i32) -> ExitCode {
    if remote.is_some() && !matches!(command, Command::Call(_)) {
        eprintln!(
            "tabpilot: --remote NAME goes with a tool command: `tabpilot --remote NAME navigate URL`"
        );
        return ExitCode::FAILURE;
    }
    let outcome: anyhow::Result<ExitCode> = match command {
        Command::Mcp {
            launch,
            headless,
            http,
            allow_plain_http,
            tls,
            tls_cert,
            tls_key,
        } => {
            let launch = launch.then_some(LaunchOptions {
                headless,
                isolated: false,
                tied_to_us: true,
                label: crate::shared::settings::Setting::BrowserLabel.get(),
            });
            let served = match http {
                Some(addr) => {
                    let addr = (!addr.is_empty()).then_some(addr);
                    let opts = crate::controller::mcp::HttpOptions {
                        addr,
                        launch,
                        allow_plain_http,
                        tls: tls.then(|| {
                            let (cert, key) = tls_cert.zip(tls_key)?;
                            Some(crate::controller::mcp::TlsFiles { cert, key })
                        }),
                    };
                    crate::controller::mcp::serve_http(opts).await
                }
                None => {
                    crate::controller::mcp::serve_stdio(crate::controller::mcp::McpOptions {
                        launch,
                        parent,
                    })
                    .await
                }
            };
            served.map(|_| ExitCode::SUCCESS)
        }
        Command::Relay { listen } => crate::relay::run(listen).await.map(|_| ExitCode::SUCCESS),
        Command::Launch {
            headless,
            isolated,
            label,
        } => launch_cmd(headless, isolated, label).await,
        Command::Extension {
            what: ExtensionCommand::Path,
        } => extension_path(),
        Command::Extension {
            what: ExtensionCommand::Pack { out },
        } => extension_pack(out),
        Command::Pair { remote: false } => call::pair().await,
        Command::Pair { remote: true } => call::pair_remote().await,
        Command::Doctor => doctor::run().await,
        Command::Demo => demo::run().await,
        Command::Tools => {
            for tool in crate::controller::tools::registry::all() {
                println!("{:<22} {}", tool.spec.name, tool.spec.description);
            }
            Ok(ExitCode::SUCCESS)
        }
        Command::Dashboard { port } => crate::controller::dashboard::run(port)
            .await
            .map(|_| ExitCode::SUCCESS),
        Command::Audit(args) => audit::run(&args),
        Command::Export(args) => export::run(&args),
        Command::Replay(args) => replay::run(&args).await,
        Command::Install(args) => install::install(&args),
        Command::Uninstall(args) if args.all => uninstall::all(&args),
        Command::Uninstall(args) => install::uninstall(&args),
        Command::Service { what } => service::run(what),
        Command::Secret { what } => secret::run(what),
        Command::Remote { what } => remote::run(what).await,
        Command::Skill {
            what: SkillCommand::Install,
        } => skill::install(),
        Command::Token {
            what: TokenCommand::Rotate,
        } => token_rotate(),
        Command::Call(words) => Ok(call::run(words, remote).await),
    };
    outcome.unwrap_or_else(|e| {
        eprintln!("tabpilot: {e:#}");
        ExitCode::FAILURE
    })
}

async fn launch_cmd(
    headless: bool,
    isolated: bool,
    label: Option<String>,
) -> anyhow::Result<ExitCode> {
    let session = call::cli_session()?;
    let opts = LaunchOptions {
        headless,
        isolated,
        tied_to_us: false,
        label,
    };
    let browser = launch::start(&opts, session.link(), std::time::Duration::from_secs(30)).await?;
    println!(
        "Chromium (pid {}) joined the relay as browser {:?} (id {}); it runs until you close it",
        browser.child.id(),
        browser.label,
        browser.browser_id
    );
    Ok(ExitCode::SUCCESS)
}

fn token_rotate() -> anyhow::Result<ExitCode> {
    let (file, notes) = crate::controller::mcp::http::token::rotate()?;
    println!("a new token is in {} (owner-only)", file.display());
    for note in notes {
        eprintln!("{note}");
    }
    Ok(ExitCode::SUCCESS)
}

fn extension_path() -> anyhow::Result<ExitCode> {
    let dir = crate::shared::state::state_dir().join("extension");
    crate::shared::extension::write(&dir, None)?;
    println!("{}", dir.display());
    eprintln!(
        "Load it in chrome://extensions (Developer mode, Load unpacked), then run `tabpilot pair`."
    );
    Ok(ExitCode::SUCCESS)
}

fn extension_pack(out: Option<std::path::PathBuf>) -> anyhow::Result<ExitCode> {
    use anyhow::Context;
    let out = out.unwrap_or_else(|| {
        format!(
            "tabpilot-extension-{}.zip",
            crate::shared::protocol::VERSION
        )
        .into()
    });
    let file =
        std::fs::File::create(&out).with_context(|| format!("creating {}", out.display()))?;
    crate::shared::extension::pack(file).with_context(|| format!("writing {}", out.display()))?;
    println!("{}", out.display());
    eprintln!(
        "manifest.json goes without its \"key\": the Chrome Web Store refuses one and gives the \
         extension an ID of its own. The relay takes that ID once the extension has paired with \
         a code from `tabpilot pair`, and keeps it from then on."
    );
    Ok(ExitCode::SUCCESS)
}
