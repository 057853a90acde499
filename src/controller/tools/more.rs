//! `browser_more_tools`: the groups a lean profile leaves out, named, and listed in the agent's
//! session on request, so that an agent on `core` reaches a tool it was not given without a
//! restart. A tool of the MCP server, not of the registry: it changes the list of the session
//! that calls it (the server keeps that list and tells the client it changed), and the CLI,
//! which keeps every tool, has nothing to ask for.

use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::args::{parse, read_only, schema};
use super::profile::Profile;
use super::spec::{Keeps, Out, ToolOutput, ToolSpec};
use super::tool::{self, About};
use crate::shared::error::ToolError;

pub const NAME: &str = "browser_more_tools";

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct MoreArgs {
    /// One or several, comma-separated.
    group: Option<String>,
}

#[derive(Serialize, JsonSchema)]
struct More {
    /// The groups this call listed, with the tools that added.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    added: Vec<Group>,
    /// The groups asked for that were listed already.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    listed: Vec<&'static str>,
    /// The groups not listed yet, with their tools not listed (a call without a group).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    unlisted: Vec<Group>,
}

#[derive(Serialize, JsonSchema)]
struct Group {
    group: &'static str,
    tools: Vec<&'static str>,
}

impl Group {
    fn line(&self) -> String {
        format!("{}: {}", self.group, self.tools.join(", "))
    }
}

/// The tool as the MCP server lists it.
pub fn spec() -> &'static ToolSpec {
    static SPEC: OnceLock<ToolSpec> = OnceLock::new();
    SPEC.get_or_init(|| {
        tool::spec::<More>(
            About {
                name: NAME,
                description: "More tools: with no arguments, the groups not in your list; with group, \
                              adds its tools to your list.",
                hints: read_only(),
                keeps: Keeps::args(&["group"]),
                ..About::default()
            },
            schema::<MoreArgs>(),
        )
    })
}

/// Answers a call in the session whose list is `profile`: the groups not listed yet, or the
/// groups asked for added to it; and whether the list changed. Every group named is checked
/// before any is added, so a refused call changes nothing.
pub fn call(profile: &mut Profile, args: Value) -> Result<(ToolOutput, bool), ToolError> {
    let a: MoreArgs = parse(NAME, args)?;
    let asked: Vec<&str> = a
        .group
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|g| !g.is_empty())
        .collect();
    if asked.is_empty() {
        let unlisted: Vec<Group> = profile
            .unlisted()
            .into_iter()
            .map(|(group, tools)| Group { group, tools })
            .collect();
        let text = if unlisted.is_empty() {
            "Every group you may ask for is listed.".to_string()
        } else {
            let lines: Vec<String> = unlisted.iter().map(Group::line).collect();
            format!("Not listed yet, by group:\n{}", lines.join("\n"))
        };
        let more = More {
            added: Vec::new(),
            listed: Vec::new(),
            unlisted,
        };
        return Ok((Out::new(text, more).finish()?, false));
    }
    let mut next = profile.clone();
    let (mut added, mut listed) = (Vec::new(), Vec::new());
    for name in asked {
        match next.add(name)? {
            (group, tools) if tools.is_empty() => listed.push(group),
            (group, tools) => added.push(Group { group, tools }),
        }
    }
    *profile = next;
    let mut lines: Vec<String> = added
        .iter()
        .map(|g| format!("Added {}", g.line()))
        .collect();
    lines.extend(listed.iter().map(|g| format!("{g} is listed already.")));
    let changed = !added.is_empty();
    let more = More {
        added,
        listed,
        unlisted: Vec::new(),
    };
    Ok((Out::new(lines.join("\n"), more).finish()?, changed))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The answer, held to the output schema the tool declares.
    fn call(profile: &mut Profile, args: Value) -> Result<(ToolOutput, bool), ToolError> {
        let answer = super::call(profile, args)?;
        let schema = jsonschema::validator_for(&spec().output_schema).unwrap();
        let data = &answer.0.structured;
        assert!(schema.is_valid(data), "{data}");
        Ok(answer)
    }

    #[test]
    fn without_a_group_it_names_each_group_not_listed_with_its_tools_in_one_line() {
        let mut core = Profile::parse("core").unwrap();
        let (out, changed) = call(&mut core, json!({})).unwrap();
        assert!(!changed && core == Profile::parse("core").unwrap());
        let state = out.text.lines().find(|l| l.starts_with("state: ")).unwrap();
        assert!(
            state.contains("browser_get_cookies, browser_set_cookie"),
            "{state}"
        );
        assert!(!out.text.contains("browser_click") && !out.text.contains("apps:"));
        let groups = out.structured["unlisted"].as_array().unwrap();
        assert_eq!(out.text.lines().count(), groups.len() + 1, "{}", out.text);
        let mut every = Profile::parse("core").unwrap();
        for (group, _) in every.unlisted() {
            every.add(group).unwrap();
        }
        let (out, _) = call(&mut every, Value::Null).unwrap();
        assert_eq!(out.text, "Every group you may ask for is listed.");
    }

    #[test]
    fn groups_asked_for_are_added_in_one_line_each_and_the_list_changes_once() {
        let mut core = Profile::parse("core").unwrap();
        let (out, changed) = call(&mut core, json!({"group": "state, perf"})).unwrap();
        assert!(changed, "{}", out.text);
        let lines: Vec<&str> = out.text.lines().collect();
        assert_eq!(lines.len(), 2, "{}", out.text);
        assert!(
            lines[0].starts_with("Added state: browser_get_cookies"),
            "{}",
            lines[0]
        );
        assert!(lines[1].starts_with("Added perf: "), "{}", lines[1]);
        assert_eq!(out.structured["added"][0]["group"], "state");
        assert!(core.listed().any(|t| t.spec.name == "browser_get_cookies"));
        let (out, changed) = call(&mut core, json!({"group": "perf"})).unwrap();
        assert!(!changed);
        assert_eq!(out.text, "perf is listed already.");
        assert_eq!(out.structured["listed"], json!(["perf"]));
    }

    /// Every name is checked before any group is added: a refused call changes nothing.
    #[test]
    fn a_call_naming_a_group_that_is_not_one_adds_none() {
        let mut core = Profile::parse("core").unwrap();
        for args in [
            json!({"group": "state,cookies"}),
            json!({"group": "state,apps"}),
            json!({"groups": ["state"]}),
            json!({"group": 7}),
        ] {
            let e = call(&mut core, args.clone()).unwrap_err();
            assert_eq!(e.code, crate::shared::error::Code::BadArgs, "{args}: {e}");
            assert_eq!(core, Profile::parse("core").unwrap(), "{args}");
        }
    }
}
