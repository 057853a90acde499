//! browser_emulate: a faked position and extra request headers for the agent's tab, without the
//! debugger (sw/emulate.js). Header values are the agent's own and stay out of answers and the
//! audit trail (names only). Read-only mode refuses setting and clearing, by the operation's
//! declaration; a call with no arguments only reads.

use std::collections::BTreeMap;

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::acts;
use super::ctx::Ctx;
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::error::ToolError;
use crate::protocol::wire::emulate::{Clear, Emulate, Emulation, Position, ReadEmulation};

/// Most headers one tab carries.
const MAX_HEADERS: usize = 20;
/// Longest header value.
const MAX_VALUE: usize = 4096;

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct EmulateArgs {
    geolocation: Option<Position>,
    headers: Option<BTreeMap<String, String>>,
    /// Header names or "geolocation", or true: all.
    clear: Option<Clear>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_emulate",
            description: "Fake your tab's geolocation, add headers to its requests; no args shows them.",
            hints: Hints {
                mixed: true,
                idempotent: true,
                ..acts()
            },
            cli: Cli::default(),
        },
        |cx, a| emulate(cx, a).boxed(),
    )]
}

async fn emulate(cx: &Ctx, a: EmulateArgs) -> Result<Out<Emulation>, ToolError> {
    if a.geolocation.is_none() && a.headers.is_none() && a.clear.is_none() {
        let now = cx.run(ReadEmulation {}).await?;
        return Ok(Out::new(describe(&now), now));
    }
    let call = checked(a)?;
    let asked_position = call.geolocation.is_some();
    let now = cx.run(call).await?;
    let mut text = describe(&now);
    if asked_position {
        text.push_str(
            "\nA page that asked for its position before this call already has its answer; \
             reload it to ask again.",
        );
    }
    Ok(Out::new(text, now))
}

/// The call the arguments make, every one of them checked first.
fn checked(a: EmulateArgs) -> Result<Emulate, ToolError> {
    if let Some(p) = &a.geolocation {
        let ok = (-90.0..=90.0).contains(&p.latitude)
            && (-180.0..=180.0).contains(&p.longitude)
            && p.accuracy.is_none_or(|m| m.is_finite() && m >= 0.0);
        if !ok {
            return Err(ToolError::bad_args(
                "geolocation: latitude in -90..90, longitude in -180..180, accuracy ≥ 0 metres",
            ));
        }
    }
    let mut headers = BTreeMap::new();
    for (name, value) in a.headers.unwrap_or_default() {
        header_ok(&name, &value)?;
        headers.insert(name.to_ascii_lowercase(), value);
    }
    if headers.len() > MAX_HEADERS {
        return Err(ToolError::bad_args(format!(
            "at most {MAX_HEADERS} headers"
        )));
    }
    let (clear, clear_geolocation) = match a.clear {
        Some(Clear::All(true)) => (Some(Clear::All(true)), true),
        Some(Clear::All(false)) | None => (None, false),
        Some(Clear::Headers(names)) => {
            let geo = names.iter().any(|n| n == "geolocation");
            let names: Vec<String> = names
                .iter()
                .filter(|n| *n != "geolocation")
                .map(|n| n.to_ascii_lowercase())
                .collect();
            (Some(Clear::Headers(names)), geo)
        }
    };
    Ok(Emulate {
        geolocation: a.geolocation,
        headers,
        clear,
        clear_geolocation,
    })
}

/// A header the browser would send as asked: a token for a name, no line breaks in the value.
fn header_ok(name: &str, value: &str) -> Result<(), ToolError> {
    let token = !name.is_empty()
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"!#$%&'*+-.^_`|~".contains(&b));
    if !token {
        return Err(ToolError::bad_args(format!(
            "{name:?} is not a header name"
        )));
    }
    if value.len() > MAX_VALUE || value.contains(['\r', '\n', '\0']) {
        return Err(ToolError::bad_args(format!(
            "the value of {name} has a line break or is over {MAX_VALUE} bytes"
        )));
    }
    Ok(())
}

fn describe(now: &Emulation) -> String {
    let position = match &now.geolocation {
        Some(p) => format!(
            "position {}, {} (±{} m)",
            p.latitude,
            p.longitude,
            p.accuracy.unwrap_or(10.0)
        ),
        None => "real position".into(),
    };
    let headers = if now.headers.is_empty() {
        "no extra headers".to_string()
    } else {
        format!("headers {}", now.headers.join(", "))
    };
    format!("Your tab: {position}; {headers}.")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn args(v: serde_json::Value) -> EmulateArgs {
        serde_json::from_value(v).unwrap()
    }

    #[test]
    fn bad_positions_and_headers_are_refused_before_anything_is_sent() {
        for bad in [
            json!({"geolocation": {"latitude": 91, "longitude": 0}}),
            json!({"geolocation": {"latitude": 0, "longitude": 0, "accuracy": -1}}),
            json!({"headers": {"x y": "1"}}),
            json!({"headers": {"x-a": "1\r\nHost: evil"}}),
        ] {
            assert!(checked(args(bad.clone())).is_err(), "{bad}");
        }
        let call = checked(args(
            json!({"headers": {"X-Test": "1"}, "clear": ["geolocation", "X-Old"]}),
        ))
        .unwrap();
        assert_eq!(call.headers.keys().collect::<Vec<_>>(), ["x-test"]);
        assert!(call.clear_geolocation);
        assert_eq!(call.clear, Some(Clear::Headers(vec!["x-old".into()])));
    }
}
