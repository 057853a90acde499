//! The local-application tools resolve_task_capabilities offers, when a task names a desktop
//! application: which they are and whether this server lists them, from the registry and the
//! profile.

use schemars::JsonSchema;
use serde::Serialize;

use crate::controller::tools::more;
use crate::controller::tools::registry::APPS;

/// The local-application tools a task calls for, and why.
#[derive(Clone, Debug, Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub(super) struct AppTools {
    /// What in the task names a desktop application.
    pub because: String,
    pub tools: Vec<&'static str>,
    /// This server lists them (`TABPILOT_APPS`); otherwise the person turns them on.
    pub listed: bool,
    /// Not listed, but the person turned them on: `browser_more_tools` lists them.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub addable: bool,
}

impl AppTools {
    /// What the agent does to have them listed: nothing, ask for them, or ask the person.
    pub(super) fn how_listed(&self) -> String {
        if self.listed {
            String::new()
        } else if self.addable {
            format!(" (list them: {} {{\"group\": \"{APPS}\"}})", more::NAME)
        } else {
            " (listed once the person sets TABPILOT_APPS=1)".to_string()
        }
    }
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
        .filter(|t| t.spec.group == APPS);
    let profile = crate::controller::tools::profile::Profile::from_env().unwrap_or_default();
    let listed = apps.clone().any(|t| profile.lists(t));
    Some(AppTools {
        because,
        tools: apps.map(|t| t.spec.name).collect(),
        listed,
        addable: !listed && profile.may_add(APPS),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hint_says_who_lists_the_tools() {
        let apps = |listed, addable| AppTools {
            because: String::new(),
            tools: Vec::new(),
            listed,
            addable,
        };
        assert_eq!(apps(true, false).how_listed(), "");
        assert_eq!(
            apps(false, true).how_listed(),
            " (list them: browser_more_tools {\"group\": \"apps\"})"
        );
        assert!(apps(false, false).how_listed().contains("TABPILOT_APPS=1"));
    }
}
