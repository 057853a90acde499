//! Secrets filled by name. The agent names one; its value comes from the person's store at the
//! moment of the fill and goes only to the extension, with the origins it belongs to, which the
//! extension judges in the field's own frame. No answer carries it: the tools say the name and
//! the length filled.

use std::path::PathBuf;

use zeroize::Zeroizing;

use crate::controller::secrets::{self, Kind, Revealed};
use crate::shared::error::{Code, ToolError};
use crate::shared::protocol::wire::act::SecretFill;

/// A secret for a text field: its value (a TOTP secret's code for this window) and what the
/// extension needs to judge where it may go.
pub(super) struct ForField {
    pub value: Zeroizing<String>,
    pub fill: SecretFill,
}

pub(super) async fn for_field(name: &str) -> Result<ForField, ToolError> {
    let r = reveal(name).await?;
    if r.kind == Kind::File {
        return Err(ToolError::refused(
            Code::SecretNotFound,
            format!("the secret {name} is a file: browser_upload_file takes it in `registered`"),
        ));
    }
    Ok(ForField {
        fill: fill_of(&r),
        value: r.value,
    })
}

/// A file the person registered for uploads: its path, read whatever the path sandbox says.
pub(super) async fn file(name: &str) -> Result<(PathBuf, SecretFill), ToolError> {
    let r = reveal(name).await?;
    if r.kind != Kind::File {
        return Err(ToolError::refused(
            Code::SecretNotFound,
            format!("the secret {name} is not a file: browser_type or browser_fill_form takes it"),
        ));
    }
    Ok((PathBuf::from(r.value.as_str()), fill_of(&r)))
}

/// The store may ask the OS keyring, which can block: off the async runtime's workers.
async fn reveal(name: &str) -> Result<Revealed, ToolError> {
    let name = name.to_string();
    crate::shared::blocking::run("reading the secret", move || {
        secrets::reveal(&name).map_err(|e| ToolError::refused(Code::SecretNotFound, e.to_string()))
    })
    .await
}

fn fill_of(r: &Revealed) -> SecretFill {
    SecretFill {
        name: r.name.clone(),
        origins: crate::controller::policy::rules(&r.origins),
    }
}
