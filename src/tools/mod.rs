//! The tool layer shared by the MCP server and the CLI.

pub mod spec;
