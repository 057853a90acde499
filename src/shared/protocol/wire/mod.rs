//! Each wire operation's arguments and reply, as the `ops!` table (op.rs) declares them: the
//! arguments a tool sends (`Serialize`), the reply it reads (`Deserialize`), both with their
//! JSON schema (the contract the extension reads, and what a debug build holds every reply to).

pub mod act;
pub mod advanced;
pub mod diagnostics;
pub mod dialog;
pub mod downloads;
pub mod emulate;
pub mod locate;
pub mod nav;
pub mod network;
pub mod page;
pub mod script;
pub mod state;
pub mod tabs;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// No fields: an operation that takes no arguments, or a reply with nothing of its own.
#[derive(Deserialize, Serialize, JsonSchema, Default, Debug)]
pub struct Nothing {}
