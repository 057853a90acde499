//! The controller: what an agent or a person at a terminal runs. The MCP server and the command
//! line on top, the tools under them, and what the tools use (the link to the relay, the
//! policy, the audit trail, the recording, secrets, launching, local applications, the project's
//! context). Modules here import the shared core and, for `tabpilot relay`, the relay; the
//! relay never imports them.

pub mod apps; // local applications: desktop entries, launching, the accessibility tree (AT-SPI)
pub mod audit; // the audit trail: one line per tool call, what the agent typed as lengths
pub mod cli; // the command line: long-running commands, setup, and every tool
pub mod context; // the project's own instructions, skills and registered commands
pub mod dashboard; // a live local page: browsers, agents and their tabs, recent calls, release
pub mod launch; // find and start a Chromium with the embedded extension
pub mod link; // a controller's connection to the relay
pub mod mcp; // the MCP server over rmcp
pub mod policy; // checks made before anything is sent: the path sandbox
pub mod record; // each agent's page actions with in-page locators: export to Playwright, replay
pub mod secrets; // secrets the model never sees: the index, the keyring or owner-only file, TOTP
pub mod tools; // every tool: schema, validation, the call, result shaping
