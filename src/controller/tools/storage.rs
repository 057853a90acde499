//! browser_storage: the Web Storage of the agent's tab's page, or of a frame by one of its refs,
//! read and written by the extension in the isolated world (no script of the agent's runs, so
//! it works under no-eval). Values are shown by their length unless revealed, as cookies are:
//! pages keep session tokens there.

use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::args::{acts, ref_arg};
use super::cookies::ask_values;
use super::ctx::Ctx;
use super::network::reveal::Credentials;
use super::spec::{Cli, Hints, Keeps, Out};
use super::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::state::{Area, Change, StorageOut, StorageRead, StorageWrite};

const NAME: &str = "browser_storage";

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Action {
    Get,
    Set,
    Remove,
    Clear,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct StorageArgs {
    action: Action,
    /// Default local.
    area: Option<Area>,
    key: Option<String>,
    value: Option<String>,
    /// Any ref in the frame meant.
    #[serde(rename = "ref")]
    reference: Option<String>,
    /// get, where the person allows credentials.
    reveal_values: Option<bool>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: NAME,
            description: "localStorage/sessionStorage of this tab's page; get hides values.",
            hints: Hints {
                mixed: true,
                ..acts()
            },
            cli: Cli {
                positional: &["action", "key", "value"],
                ..Cli::default()
            },
            keeps: Keeps::args(&["key", "area"]),
            ..About::default()
        },
        |cx, a| storage(cx, a).boxed(),
    )]
}

/// What each action takes, checked before anything is sent.
fn check(a: &StorageArgs) -> Result<(), ToolError> {
    let (act, key, value) = match a.action {
        Action::Get => ("get", None, false),
        Action::Set => ("set", Some(true), true),
        Action::Remove => ("remove", Some(true), false),
        Action::Clear => ("clear", Some(false), false),
    };
    let why = match (key, a.key.is_some(), value, a.value.is_some()) {
        (Some(true), false, ..) => Some("needs key"),
        (Some(false), true, ..) => Some("takes no key"),
        (.., true, false) => Some("needs value"),
        (.., false, true) => Some("takes no value"),
        _ if a.reveal_values.is_some() && act != "get" => Some("takes no revealValues"),
        _ => None,
    };
    if let Some(why) = why {
        return Err(ToolError::bad_args(format!("{act} {why}")));
    }
    match &a.reference {
        Some(r) => ref_arg(r),
        None => Ok(()),
    }
}

async fn storage(cx: &Ctx, a: StorageArgs) -> Result<Out<StorageOut>, ToolError> {
    check(&a)?;
    let area = a.area.unwrap_or(Area::Local);
    let name = match area {
        Area::Local => "localStorage",
        Area::Session => "sessionStorage",
    };
    let change = match a.action {
        Action::Get => return get(cx, a, area, name).await,
        Action::Set => Change::Set,
        Action::Remove => Change::Remove,
        Action::Clear => Change::Clear,
    };
    cx.policy().check_read_only(NAME)?;
    let key = a.key.clone();
    let call = StorageWrite {
        area,
        reference: a.reference,
        action: change,
        key: a.key,
        value: a.value,
    };
    let r = cx.run(call).await?;
    let what = match (change, key) {
        (Change::Set, Some(k)) => format!("Set {k:?} in"),
        (Change::Remove, Some(k)) => format!("Removed {k:?} from"),
        _ => "Cleared".into(),
    };
    let text = format!(
        "{what} {name} of {}{}; it holds {} key(s)",
        r.origin,
        super::tab_list::private_mark(r.private),
        r.total
    );
    Ok(Out::new(text, r))
}

async fn get(
    cx: &Ctx,
    a: StorageArgs,
    area: Area,
    name: &str,
) -> Result<Out<StorageOut>, ToolError> {
    let asked = a.reveal_values.unwrap_or(false);
    let call = StorageRead {
        area,
        reference: a.reference,
        key: a.key,
        values: ask_values(cx, asked),
    };
    let mut r = cx.run(call).await?;
    let page = cx.place().url;
    let credentials = Credentials::decide(cx.policy(), asked, &[Some(&r.url), page.as_deref()]);
    if credentials != Credentials::Shown {
        r.items.iter_mut().for_each(|i| {
            i.value = None;
            i.cut = false;
        });
    }
    let mut lines = vec![format!(
        "{name} of {}{}: {} key(s), {} shown",
        r.origin,
        super::tab_list::private_mark(r.private),
        r.total,
        r.items.len()
    )];
    lines.extend(r.items.iter().map(|i| match &i.value {
        Some(v) => format!("- {:?}={v:?}{}", i.key, if i.cut { " (cut)" } else { "" }),
        None => format!("- {:?} ({} chars, hidden)", i.key, i.len),
    }));
    if let Some(left) = &r.left_out {
        lines.push(format!("Left out: {left}"));
    }
    if !r.items.is_empty() {
        lines.push(credentials.line());
    }
    let out = Out::new(lines.join("\n"), r);
    Ok(match credentials {
        Credentials::Shown => out.revealing("credentials"),
        _ => out,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::error::Code;
    use serde_json::json;

    fn checked(v: serde_json::Value) -> Result<(), ToolError> {
        check(&serde_json::from_value(v).expect("arguments of the schema"))
    }

    #[test]
    fn each_action_takes_what_it_needs_and_nothing_else() {
        for ok in [
            json!({"action": "get"}),
            json!({"action": "get", "key": "k", "revealValues": true, "ref": "f3:e7k2f"}),
            json!({"action": "set", "key": "k", "value": ""}),
            json!({"action": "remove", "key": "k", "area": "session"}),
            json!({"action": "clear"}),
        ] {
            assert!(checked(ok.clone()).is_ok(), "{ok}");
        }
        for (bad, why) in [
            (json!({"action": "set", "key": "k"}), "set needs value"),
            (json!({"action": "set", "value": "v"}), "set needs key"),
            (json!({"action": "remove"}), "remove needs key"),
            (json!({"action": "clear", "key": "k"}), "clear takes no key"),
            (json!({"action": "get", "value": "v"}), "get takes no value"),
            (
                json!({"action": "remove", "key": "k", "revealValues": true}),
                "remove takes no revealValues",
            ),
            (json!({"action": "get", "ref": "f3:nope"}), "not a ref"),
        ] {
            let e = checked(bad).unwrap_err();
            assert_eq!(e.code, Code::BadArgs);
            assert!(e.message.contains(why), "{}", e.message);
        }
    }
}
