//! tabpilot: drive real browser tabs from any MCP client.

pub mod error; // the closed set of error codes and outcomes
pub mod tools; // every tool: schema, validation, the call, result shaping
