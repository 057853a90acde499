//! The integration tests, one binary: relay security and routing with fake peers, and the tools
//! end to end in a real headless Chromium with the real extension.

mod a11y;
mod advanced;
mod apps;
mod arrival;
mod audit;
mod browser;
mod browsers;
mod budget;
mod cancel;
mod capture;
#[path = "../support/cdp.rs"]
mod cdp;
mod console;
mod context;
mod cookies;
mod credentials;
mod dashboard;
#[path = "../support/desktop.rs"]
mod desktop;
mod devices;
mod dialogs;
mod doctor;
mod documents;
mod door;
mod downloads;
mod drawing;
mod editors;
mod emulate;
mod escapes;
mod eval;
mod export;
mod fill_by_name;
mod find;
#[path = "../support/fixtures.rs"]
mod fixtures;
mod frames;
mod harness;
mod held;
mod holes;
mod http;
mod http_sessions;
mod http_tls;
mod http_token;
mod identity;
mod install;
mod install_files;
mod interact;
mod jupyter;
mod leases;
mod manifests;
mod mcp;
#[path = "../support/mcp_client.rs"]
mod mcp_client;
mod more_tools;
mod names;
#[path = "../support/netns.rs"]
mod netns;
mod network;
mod page_tools;
mod pages;
mod pairing;
#[path = "../support/peers.rs"]
mod peers;
mod perf;
mod person;
mod policy;
mod popup;
#[path = "../support/ports.rs"]
mod ports;
mod private;
mod proxy;
mod pyapps;
mod recorder;
mod recovery;
mod relay;
mod remote;
#[path = "../support/remote_browser.rs"]
mod remote_browser;
mod remote_cli;
mod replay;
mod roots;
mod round_trip;
mod sandbox;
mod schemas;
mod secret_store;
mod secrets;
mod service;
mod settle;
#[path = "../support/snapshot.rs"]
mod snapshot;
mod storage;
mod streamlit;
mod token;
mod trusted;
mod uninstall_all;
