//! The contract between the controller and the extension, as the extension reads it:
//! `extension/sw/contract.js`, written from the declarations here (each operation's wire name,
//! scope, whether it changes the page, and the JSON schemas of its arguments and reply; the
//! closed set of error codes and outcomes). A unit test writes the file anew and fails when what
//! was there was stale; the extension's own tests (tests/extension/, `node --test`) hold its
//! dispatch table and the codes it sends to it.

use serde_json::{Value, json};

use super::{Op, Scope};
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

/// The file the extension imports.
pub fn contract_js() -> String {
    let body = serde_json::to_string_pretty(&contract()).expect("the contract serializes");
    format!(
        "// The contract between the controller and this extension: its operations, error codes and\n\
         // outcomes. Written by the controller's test (src/shared/protocol/contract.rs) from its own\n\
         // declarations: not edited by hand; `cargo test` writes it anew.\n\
         export const CONTRACT = {body};\n"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the extension's copy anew; fails when what was there was stale, so a change on
    /// this side that the extension has not seen fails until the new file is committed.
    #[test]
    fn the_extensions_copy_of_the_contract_is_current() {
        crate::shared::generated::keep_current(
            "extension/sw/contract.js",
            &contract_js(),
            ", and run the extension's tests (node --test tests/extension/)",
        );
    }
}
