//! Replies read as declared (`read`), and every reply held to its operation's declared schema
//! (debug builds: the tests and the end-to-end suite): a shape the extension sends that the
//! declaration does not allow is a bug between the two ends, said by operation and field.

use serde::de::DeserializeOwned;
use serde_json::Value;

#[cfg(debug_assertions)]
use super::Op;
use crate::shared::error::{Code, ToolError};

/// Reads an answer in the shape the caller expects; another shape is a bug between the two
/// ends, said as such (`INTERNAL`).
pub fn read<T: DeserializeOwned>(from: &str, value: Value) -> Result<T, ToolError> {
    serde_json::from_value(value).map_err(|e| {
        ToolError::failed(
            Code::Internal,
            format!("{from} answered in a shape this tabpilot does not read: {e}"),
        )
    })
}

/// Why `value` is not a reply `op` declares; none when it is. Debug builds only: a release
/// reads each reply as its type and no more.
#[cfg(debug_assertions)]
pub fn check(op: Op, value: &Value) -> Result<(), String> {
    use std::collections::HashMap;
    use std::sync::OnceLock;

    static VALIDATORS: OnceLock<HashMap<Op, jsonschema::Validator>> = OnceLock::new();
    let validators = VALIDATORS.get_or_init(|| {
        Op::ALL
            .iter()
            .map(|op| {
                let (_, reply) = op.schemas();
                let v = jsonschema::validator_for(&reply).expect("a declared schema compiles");
                (*op, v)
            })
            .collect()
    });
    match validators[&op].iter_errors(value).next() {
        None => Ok(()),
        Some(e) => {
            let at = e.instance_path().to_string();
            let field = if at.is_empty() { "/".to_string() } else { at };
            Err(format!(
                "{} answered in a shape its declaration does not allow, at {field}: {e}",
                op.name()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_reply_that_breaks_its_schema_fails_naming_the_op_and_the_field() {
        let good = json!({"scrolled": true, "summary": "Scrolled the page down", "to": 600});
        assert_eq!(check(Op::Scroll, &good), Ok(()));
        let bad = json!({"scrolled": "yes", "summary": "Scrolled the page down"});
        let said = check(Op::Scroll, &bad).unwrap_err();
        assert!(said.starts_with("scroll answered"), "{said}");
        assert!(said.contains("/scrolled"), "{said}");
        let missing = json!({"summary": "Scrolled the page down"});
        let said = check(Op::Scroll, &missing).unwrap_err();
        assert!(said.contains("scrolled"), "{said}");
        let act = json!({"navigated": "no", "element": "button \"Go\""});
        let said = check(Op::Click, &act).unwrap_err();
        assert!(
            said.contains("click") && said.contains("/navigated"),
            "{said}"
        );
    }
}
