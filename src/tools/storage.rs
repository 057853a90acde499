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
use super::spec::{Cli, Hints, Out};
use super::tool::{About, Tool};
use crate::error::ToolError;
use crate::protocol::wire::state::{Area, Change, StorageOut, StorageRead, StorageWrite};

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
        },
        |cx, a| storage(cx, a).boxed(),
    )]
}

/// What each action takes, checked before anything is sent.
fn check(a: &StorageArgs) -> Result<(), ToolError> {
    let needs = match a.action {
        Action::Get => (None, false),
        Action::Set => (Some(true), true),
        Action::Remove => (Some(true), false),
        Action::Clear => (Some(false), false),
    };
    let word = |a: Action| match a {
        Action::Get => "get",
        Action::Set => "set",
        Action::Remove => "remove",
        Action::Clear => "clear",
    };
    let act = word(a.action);
    match needs.0 {
        Some(true) if a.key.is_none() => {
            return Err(ToolError::bad_args(format!("{act} needs key")));
        }
        Some(false) if a.key.is_some() => return Err(ToolError::bad_args("clear takes no key")),
        _ => {}
    }
    if needs.1 != a.value.is_some() {
        return Err(ToolError::bad_args(format!(
            "value goes with set only{}",
            if needs.1 { "; set needs one" } else { "" }
        )));
    }
    if a.reveal_values.is_some() && a.action != Action::Get {
        return Err(ToolError::bad_args("revealValues goes with get"));
    }
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    }
    Ok(())
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
        super::tabs::private_mark(r.private),
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
        super::tabs::private_mark(r.private),
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
