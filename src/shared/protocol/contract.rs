//! The contract between the controller and the extension, as the extension reads it:
//! `extension/sw/contract.js`, written from the declarations here (each operation's wire name,
//! scope, whether it changes the page, and the JSON schemas of its arguments and reply; the
//! closed set of error codes and outcomes; the ref format; the kinds of frame and tab event; the
//! words of the handshake and of pairing, and the relay's close codes), and
//! `extension/page/contract.js`, the part the page scripts and the pairing page's content
//! script read (classic scripts, which cannot import a module). A unit test writes both files
//! anew and fails when what was there was stale; the extension's own tests (tests/extension/,
//! `node --test`) hold its dispatch table and its handshake to them.

use serde_json::{Value, json};

use super::kinds::{FrameKind, TabEventKind};
use super::{Op, Role, Scope, close, handshake, refs};
use crate::shared::error::{Code, Outcome};

/// The contract as data.
pub fn contract() -> Value {
    let ops: Vec<Value> = Op::ALL
        .iter()
        .map(|op| {
            let (args, reply) = op.schemas();
            let (args, reply) = (terse(args), terse(reply));
            json!({
                "name": op.name(),
                "scope": match op.scope() {
                    Scope::Tab => "tab",
                    Scope::Browser => "browser",
                },
                "mutates": op.mutates(),
                "relayOnly": op.relay_only(),
                "args": args,
                "reply": reply,
            })
        })
        .collect();
    let codes: Vec<&str> = Code::ALL.iter().map(|c| c.as_str()).collect();
    let outcomes = [
        Outcome::Refused,
        Outcome::Done,
        Outcome::Partial,
        Outcome::Failed,
        Outcome::Unknown,
    ];
    json!({
        "ops": ops,
        "codes": codes,
        "outcomes": outcomes,
    })
}

/// A schema without its descriptions (the Rust side's doc comments): the extension checks
/// shapes, and a description's prose would only make the file long. A property that happens to
/// be named `description` is an object in its schema, and stays.
fn terse(schema: Value) -> Value {
    match schema {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(key, value)| !(key == "description" && value.is_string()))
                .map(|(key, value)| (key, terse(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(terse).collect()),
        other => other,
    }
}

/// The ref format (`refs`): the whole pattern, a frame's prefix, and a ref inside a document.
fn ref_format() -> Value {
    json!({"pattern": refs::PATTERN, "frame": refs::FRAME, "local": refs::LOCAL})
}

/// Names by themselves (`{"call": "call"}`): a table the extension reads them from.
fn names(all: impl IntoIterator<Item = &'static str>) -> Value {
    Value::Object(all.into_iter().map(|n| (n.into(), n.into())).collect())
}

fn handshake_words() -> Value {
    use handshake::*;
    json!({
        "proof": PROOF,
        "seal": SEAL,
        "sealSalt": SEAL_SALT,
        "relay": RELAY,
        "browser": Role::Browser.as_str(),
        "controller": Role::Controller.as_str(),
        "browserPath": BROWSER_PATH,
        "controllerPath": CONTROLLER_PATH,
        "pairPath": PAIR_PATH,
        "claimPath": CLAIM_PATH,
        "pairingMark": PAIRING_MARK,
        "remotePairPath": REMOTE_PAIR_PATH,
        "pairKeys": PAIR_KEYS,
    })
}

fn close_codes() -> Value {
    json!({
        "malformed": close::MALFORMED,
        "authFailed": close::AUTH_FAILED,
        "wrongEnvelope": close::WRONG_ENVELOPE,
        "tooBig": close::TOO_BIG,
        "flood": close::FLOOD,
        "replaced": close::REPLACED,
        "unsealed": close::UNSEALED,
        "shutdown": close::SHUTDOWN,
    })
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("the contract serializes")
}

/// The file the service worker imports.
pub fn contract_js() -> String {
    let body = pretty(&contract());
    let frames = names(FrameKind::ALL.iter().map(|k| k.as_str()));
    let events = names(TabEventKind::ALL.iter().map(|k| k.as_str()));
    format!(
        "// The contract between the controller and this extension. Written by the controller's test\n\
         // (src/shared/protocol/contract.rs) from its own declarations: not edited by hand; `cargo test`\n\
         // writes it anew.\n\
         \n\
         // Its operations, error codes and outcomes.\n\
         export const CONTRACT = {body};\n\
         \n\
         // Element refs (src/shared/protocol/refs.rs): regular-expression sources, unanchored; the groups\n\
         // `frame` (a frame's id), `local` (the ref inside its document) and `twin` (a twin's number).\n\
         export const REF = Object.freeze({refs});\n\
         \n\
         // Each frame's `t` on the link to the relay, and a `tab` frame's `kind` (protocol/kinds.rs).\n\
         export const FRAME = Object.freeze({frames});\n\
         export const TAB_EVENT = Object.freeze({events});\n\
         \n\
         // The words of the handshake and of pairing (protocol/handshake.rs).\n\
         export const HANDSHAKE = Object.freeze({words});\n\
         \n\
         // The codes the relay closes a link with, each saying why (protocol::close).\n\
         export const CLOSE = Object.freeze({close});\n",
        refs = pretty(&ref_format()),
        frames = pretty(&frames),
        events = pretty(&events),
        words = pretty(&handshake_words()),
        close = pretty(&close_codes()),
    )
}

/// The file the page scripts and the pairing page's content script run first: classic scripts
/// share one global in the extension's isolated world, and read the contract from it.
pub fn page_contract_js() -> String {
    let page = json!({"REF": ref_format(), "HANDSHAKE": handshake_words()});
    format!(
        "// The part of the contract between the controller and this extension that the page scripts\n\
         // and the content scripts read: they are classic scripts, and cannot import sw/contract.js.\n\
         // Written by the controller's test (src/shared/protocol/contract.rs) from its own declarations:\n\
         // not edited by hand; `cargo test` writes it anew. The same values as sw/contract.js's.\n\
         globalThis.__tabpilotContract = Object.freeze({});\n",
        pretty(&page)
    )
}

/// The generated files, each with where it goes in the extension.
pub fn files() -> [(&'static str, String); 2] {
    [
        ("sw/contract.js", contract_js()),
        ("page/contract.js", page_contract_js()),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the extension's copies anew; fails when what was there was stale, so a change on
    /// this side that the extension has not seen fails until the new files are committed.
    #[test]
    fn the_extensions_copy_of_the_contract_is_current() {
        let files = files().map(|(file, made)| (format!("extension/{file}"), made));
        let files: Vec<(&str, &str)> = files
            .iter()
            .map(|(f, m)| (f.as_str(), m.as_str()))
            .collect();
        crate::shared::generated::keep_all_current(
            &files,
            ", and run the extension's tests (node --test tests/extension/)",
        );
    }
}
