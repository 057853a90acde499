//! tabpilot: drive real browser tabs from any MCP client.
//!
//! Three parts, each importing only the ones before it: the shared core, the relay, and the
//! controller (src/layers.rs holds them to it). The fourth part, the extension, is JavaScript
//! under `extension/`, packaged into the binary by `shared::extension`. docs/architecture.md is
//! the map.

pub mod controller; // the MCP server, the command line, every tool and what they use
pub mod relay; // the broker: auth, roster, books of tabs, routing
pub mod shared; // the wire, the platform, settings and state every part uses

#[cfg(test)]
mod docs;
#[cfg(test)]
mod layers;
