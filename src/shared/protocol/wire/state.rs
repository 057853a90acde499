//! The browser's own state for a tab's pages: the cookies of the tab's own cookie store (a
//! private window's jar for a private tab) and a frame's Web Storage. Values cross the wire only
//! when the call asks for them (`values`); otherwise each is its length.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

/// The cookies the tab's cookie store sends to `url` (default: the tab's page), only `name` if
/// given.
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Cookies {
    pub url: Option<String>,
    pub name: Option<String>,
    /// Send the values too.
    pub values: bool,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SameSite {
    Strict,
    Lax,
    NoRestriction,
    Unspecified,
}

/// Sets a cookie in the tab's cookie store for `url` (default: the tab's page), or deletes the
/// one named (`delete`).
#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SetCookie {
    pub url: Option<String>,
    pub name: String,
    pub value: Option<String>,
    pub domain: Option<String>,
    pub path: Option<String>,
    pub secure: Option<bool>,
    pub http_only: Option<bool>,
    pub same_site: Option<SameSite>,
    /// Seconds since the epoch; none for a session cookie.
    pub expires: Option<f64>,
    pub delete: bool,
}

/// A cookie with its attributes; its value only when asked for.
#[derive(Deserialize, Serialize, JsonSchema, Debug, Clone)]
#[serde(rename_all = "camelCase")]
pub struct Cookie {
    pub name: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Characters in the value.
    pub len: u64,
    pub domain: String,
    pub path: String,
    pub secure: bool,
    pub http_only: bool,
    pub same_site: SameSite,
    /// Seconds since the epoch; none for a session cookie.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expires: Option<f64>,
    /// The top-level site of a partitioned cookie (CHIPS).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub partition: Option<String>,
}

/// Where a cookie call ran: the address judged, and the tab's cookie store.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct Jar {
    pub url: String,
    /// The cookie store's id ("0" the person's profile, "1" its private windows).
    pub store: String,
    /// A private window's store.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}

#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct CookiesOut {
    #[serde(flatten)]
    pub jar: Jar,
    pub cookies: Vec<Cookie>,
}

/// What a set or delete did: the cookie as the store now holds it (no value), or none deleted.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct CookieSet {
    #[serde(flatten)]
    pub jar: Jar,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cookie: Option<Cookie>,
    /// A delete found the cookie.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub deleted: bool,
}

#[derive(Deserialize, Serialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Area {
    Local,
    Session,
}

/// A frame's Web Storage (the top page's, or the frame of `ref`): one key, or every key up to
/// the bounds.
#[derive(Serialize, JsonSchema)]
pub struct StorageRead {
    pub area: Area,
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub key: Option<String>,
    /// Send the values too.
    pub values: bool,
}

#[derive(Serialize, Deserialize, JsonSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Change {
    Set,
    Remove,
    Clear,
}

/// Sets or removes one key of a frame's Web Storage, or clears it.
#[derive(Serialize, JsonSchema)]
pub struct StorageWrite {
    pub area: Area,
    #[serde(rename = "ref")]
    pub reference: Option<String>,
    pub action: Change,
    pub key: Option<String>,
    pub value: Option<String>,
}

/// One key, its value only when asked for (cut past the bound).
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
pub struct Item {
    pub key: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
    /// Characters in the value.
    pub len: u64,
    /// The value shown is cut short.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
}

/// A frame's storage after the call: the keys read, how many it holds.
#[derive(Deserialize, Serialize, JsonSchema, Debug)]
#[serde(rename_all = "camelCase")]
pub struct StorageOut {
    /// The frame's origin.
    pub origin: String,
    /// Its page, judged by the site policy.
    pub url: String,
    pub items: Vec<Item>,
    /// Keys the area holds.
    pub total: u64,
    /// Keys or values left out by the bounds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub left_out: Option<String>,
    /// A private tab's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub private: bool,
}
