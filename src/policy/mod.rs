//! What the controller allows before anything is sent: for now, where files may be written.

pub mod paths;
