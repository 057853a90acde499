//! The local-application tools resolve_task_capabilities offers, when a task names a desktop
//! application: which they are and whether this server lists them, from the registry and the
//! profile.

use schemars::JsonSchema;
use serde::Serialize;

/// The local-application tools a task calls for, and why.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct AppTools {
    /// What in the task names a desktop application.
    pub because: String,
    pub tools: Vec<&'static str>,
    /// This server lists them (`TABPILOT_APPS`); otherwise the person turns them on.
    pub listed: bool,
}

/// The local-application tools, when the task names a desktop application installed here or
/// says it is one.
pub(super) async fn local_apps(task: &str) -> Option<AppTools> {
    let entries = crate::controller::apps::desktop::entries()
        .await
        .unwrap_or_default();
    let because = crate::controller::apps::tasks::for_task(task, &entries)?;
    let apps = crate::controller::tools::registry::all()
        .iter()
        .filter(|t| t.spec.group == crate::controller::tools::registry::APPS);
    let listed = crate::controller::tools::profile::Profile::from_env().unwrap_or_default();
    Some(AppTools {
        because,
        tools: apps.clone().map(|t| t.spec.name).collect(),
        listed: apps.into_iter().any(|t| listed.lists(t)),
    })
}
