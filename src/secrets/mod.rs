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

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::Value => "value",
            Kind::Totp => "totp",
            Kind::File => "file",
        })
    }
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
