//! What every part uses: the wire between the processes, the closed set of codes, the settings,
//! the state dir, the platform's differences and what our local servers share. Nothing here
//! imports the relay or the controller.

pub mod blocking; // work that would hold an async worker runs on the blocking pool
pub mod error; // the closed set of error codes and outcomes
pub mod extension; // the packaged extension: its files, manifest and id, written out
#[cfg(test)]
pub mod generated; // files in the repository the code writes, held to it by tests
pub mod platform; // what differs on Linux, macOS and Windows, each behind its own small module
pub mod profiles; // the browsers' profiles under the state dir: the managed one and the throwaway ones
pub mod protocol; // wire frames, auth, ports and limits shared by every part
pub mod serve; // what the local HTTP servers share: the door, a port's holder, a wrong guess's cost
pub mod settings; // every TABPILOT_* environment variable: meaning, default, the one way to read it
pub mod state; // owner-only files under the state dir
pub mod terminal; // text from outside, escaped for a terminal: controls, bidi and zero-width characters
