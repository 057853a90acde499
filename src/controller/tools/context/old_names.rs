//! The context tools answered snake_case keys in their first release, where every other tool
//! answers camelCase. They answer camelCase now, with the old keys beside them for one more
//! release, so a client that reads those goes on working; the schema names the new keys only.

use schemars::JsonSchema;
use serde::{Serialize, Serializer};
use serde_json::Value;

/// A context tool's data, answered with its old snake_case keys beside the camelCase ones.
#[derive(JsonSchema)]
#[serde(transparent)]
pub(super) struct OldNames<T>(pub(super) T);

impl<T: Serialize> Serialize for OldNames<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut value = serde_json::to_value(&self.0).map_err(serde::ser::Error::custom)?;
        add_old_names(&mut value);
        value.serialize(serializer)
    }
}

fn add_old_names(value: &mut Value) {
    match value {
        Value::Object(fields) => {
            fields.values_mut().for_each(add_old_names);
            let old: Vec<(String, Value)> = fields
                .iter()
                .map(|(key, v)| (snake(key), v))
                .filter(|(old, _)| !fields.contains_key(old))
                .map(|(old, v)| (old, v.clone()))
                .collect();
            fields.extend(old);
        }
        Value::Array(items) => items.iter_mut().for_each(add_old_names),
        _ => {}
    }
}

/// `scopeRoot` as it was first written: `scope_root`.
fn snake(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    for c in key.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Shape {
        scope_root: &'static str,
        warnings: Vec<u8>,
        commands: Vec<Inner>,
    }

    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Inner {
        timed_out: bool,
    }

    #[test]
    fn camel_case_keys_come_with_their_old_snake_case_names_at_every_depth() {
        let shape = Shape {
            scope_root: "/p",
            warnings: vec![],
            commands: vec![Inner { timed_out: true }],
        };
        assert_eq!(
            serde_json::to_value(OldNames(shape)).unwrap(),
            json!({
                "scopeRoot": "/p", "scope_root": "/p", "warnings": [],
                "commands": [{"timedOut": true, "timed_out": true}]
            })
        );
    }
}
