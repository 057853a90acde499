//! What an action answers with besides its own line (`include`): one or several of the sections
//! `snapshot`, `diff`, `console` and `network`, given comma-separated (`"diff,console"`) or as a
//! list. The schema says only that it is a string: the words are said once, in the server's
//! instructions, rather than in every acting tool's schema.

use std::borrow::Cow;

use schemars::{JsonSchema, Schema, SchemaGenerator};
use serde::{Deserialize, Deserializer};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Include {
    Snapshot,
    Diff,
    Network,
    Console,
}

const WORDS: [(&str, Include); 4] = [
    ("snapshot", Include::Snapshot),
    ("diff", Include::Diff),
    ("console", Include::Console),
    ("network", Include::Network),
];

/// The sections asked for, each once, in the order asked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub(super) struct Includes(Vec<Include>);

impl Includes {
    pub(super) fn has(&self, section: Include) -> bool {
        self.0.contains(&section)
    }

    fn parse<'a>(words: impl IntoIterator<Item = &'a str>) -> Result<Includes, String> {
        let mut out = Vec::new();
        for word in words.into_iter().map(str::trim).filter(|w| !w.is_empty()) {
            let Some((_, section)) = WORDS.iter().find(|(w, _)| *w == word) else {
                let known: Vec<&str> = WORDS.iter().map(|(w, _)| *w).collect();
                return Err(format!(
                    "include {word:?} is no section; give one or several of {}",
                    known.join(", ")
                ));
            };
            if !out.contains(section) {
                out.push(*section);
            }
        }
        Ok(Includes(out))
    }
}

impl<'de> Deserialize<'de> for Includes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Given {
            Text(String),
            List(Vec<String>),
        }
        let parsed = match Given::deserialize(d)? {
            Given::Text(text) => Includes::parse(text.split(',')),
            Given::List(list) => Includes::parse(list.iter().map(String::as_str)),
        };
        parsed.map_err(serde::de::Error::custom)
    }
}

impl JsonSchema for Includes {
    fn inline_schema() -> bool {
        true
    }

    fn schema_name() -> Cow<'static, str> {
        "Includes".into()
    }

    fn json_schema(generator: &mut SchemaGenerator) -> Schema {
        String::json_schema(generator)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn of(v: serde_json::Value) -> Result<Includes, String> {
        serde_json::from_value(v).map_err(|e| e.to_string())
    }

    #[test]
    fn one_or_several_sections_comma_separated_or_listed() {
        let all = of(json!("snapshot, console,network")).unwrap();
        assert!(
            all.has(Include::Snapshot) && all.has(Include::Console) && all.has(Include::Network)
        );
        assert!(!all.has(Include::Diff));
        assert_eq!(
            of(json!(["diff", "console"])).unwrap(),
            of(json!("diff,console")).unwrap()
        );
        assert_eq!(
            of(json!("diff,diff")).unwrap(),
            Includes(vec![Include::Diff])
        );
        let e = of(json!("snapshot,logs")).unwrap_err();
        assert!(
            e.contains("\"logs\" is no section") && e.contains("snapshot, diff, console, network"),
            "{e}"
        );
        assert!(of(json!(3)).is_err());
    }
}
