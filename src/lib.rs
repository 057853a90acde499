//! tabpilot: drive real browser tabs from any MCP client.

pub mod apps; // local applications: desktop entries, launching, the accessibility tree (AT-SPI)
pub mod audit; // the audit trail: one line per tool call, what the agent typed as lengths
pub mod blocking; // work that would hold an async worker runs on the blocking pool
pub mod cli; // the command line: long-running commands, setup, and every tool
pub mod context; // the project's own instructions, skills and registered commands
pub mod dashboard; // a live local page: browsers, agents and their tabs, recent calls, release
pub mod door; // what a connection to our servers gets before it proves itself
pub mod error; // the closed set of error codes and outcomes
pub mod extension; // the packaged extension: its files, manifest and id, written out
pub mod guesses; // what a wrong token costs its sender: a wait, doubling, on its user
pub mod holder; // who holds a loopback port: its owner, process and command, from /proc
pub mod launch; // find and start a Chromium with the embedded extension
pub mod link; // a controller's connection to the relay
pub mod mcp; // the MCP server over rmcp
pub mod platform; // what differs on Linux, macOS and Windows, each behind its own small module
pub mod policy; // checks made before anything is sent: the path sandbox
pub mod protocol; // wire frames, auth, ports and limits shared by every part
pub mod record; // each agent's page actions with in-page locators: export to Playwright, replay
pub mod relay; // the broker: auth, roster, books of tabs, routing
pub mod secrets; // secrets the model never sees: the index, the keyring or owner-only file, TOTP
pub mod serve; // what the local HTTP servers share: secrets compared in constant time, a port, Ctrl-C
pub mod settings; // every TABPILOT_* environment variable: meaning, default, the one way to read it
pub mod state; // owner-only files under the state dir
pub mod terminal; // text from outside, escaped for a terminal: controls, bidi and zero-width characters
pub mod tools; // every tool: schema, validation, the call, result shaping
