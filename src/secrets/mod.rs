//! STUB for the secret store (replaced by the store's branch at merge): the API the tools use.

use serde::Serialize;

use crate::policy::origins::OriginPattern;

#[derive(Serialize, Clone, Copy, PartialEq, Eq, Debug, schemars::JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Value,
    Totp,
    File,
}

#[derive(Serialize, Debug, schemars::JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Listed {
    pub name: String,
    pub kind: Kind,
    pub origins: Vec<String>,
}

pub struct Revealed {
    pub name: String,
    pub kind: Kind,
    pub origins: Vec<OriginPattern>,
    pub value: zeroize::Zeroizing<String>,
}

#[derive(thiserror::Error, Debug)]
pub enum SecretError {
    #[error("no secret named {name}")]
    NotFound { name: String },
}

pub fn list() -> Result<Vec<Listed>, SecretError> {
    Ok(Vec::new())
}

pub fn reveal(name: &str) -> Result<Revealed, SecretError> {
    Err(SecretError::NotFound {
        name: name.to_string(),
    })
}
