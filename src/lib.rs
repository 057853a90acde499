//! tabpilot: drive real browser tabs from any MCP client.
//!
//! Three parts, each importing only the ones above it in this list (tests/layers.rs holds them
//! to it): the shared core, the relay, and the controller. The fourth part, the extension, is
//! JavaScript under `extension/`, packaged into the binary by `shared::extension`.

pub mod controller;
pub mod relay; // the broker: auth, roster, books of tabs, routing
pub mod shared; // the wire, the platform, settings and state every part uses // the MCP server, the command line, every tool and what they use

#[cfg(test)]
mod layers;
