//! Which tools a server lists (`TABPILOT_TOOLS`): a named profile, or groups and tools by name.
//! Every client pays for the tool list in tokens on every connection, so a client that needs
//! less can list less. The CLI keeps every tool.

use super::registry::{self, GROUPS};
use super::tool::Tool;
use crate::shared::settings::Setting;

/// The tools that do most of the work: open a page, read it, act on it, wait, see it.
const CORE: &[&str] = &[
    "browser_status",
    "browser_list_tabs",
    "browser_new_tab",
    "browser_navigate",
    "browser_go_back",
    "browser_snapshot",
    "browser_read_page",
    "browser_find",
    "browser_click",
    "browser_type",
    "browser_select_option",
    "browser_press_key",
    "browser_fill_form",
    "browser_wait_for",
    "browser_screenshot",
    "browser_handle_dialog",
    // An action's reply names it when the action made a console error.
    "browser_get_console_logs",
];

/// The fewest tools an agent can still complete a form task with.
const SLIM: &[&str] = &[
    "browser_navigate",
    "browser_snapshot",
    "browser_click",
    "browser_fill_form",
];

const PROFILES: &[(&str, Option<&[&str]>)] =
    &[("full", None), ("core", Some(CORE)), ("slim", Some(SLIM))];

/// The group that only the person's word lists (`TABPILOT_APPS`, or naming it or its tools):
/// it reaches past the browser, to the applications on the machine.
const APPS: &str = "apps";

/// The tools one server lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The setting as written, for messages; `full` when unset.
    pub name: String,
    /// None: every tool (but the local-application ones unless `apps`).
    tools: Option<Vec<&'static str>>,
    /// The local-application tools are turned on (`TABPILOT_APPS`).
    apps: bool,
}

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "full".into(),
            tools: None,
            apps: false,
        }
    }
}

impl Profile {
    /// Reads `TABPILOT_TOOLS`; an unknown name is an error listing the valid ones.
    /// With `TABPILOT_APPS` on, the local-application tools are listed too.
    pub fn from_env() -> Result<Self, String> {
        let mut profile = match Setting::Tools.get() {
            Some(v) if !v.trim().is_empty() => Profile::parse(&v)?,
            _ => Profile::default(),
        };
        profile.apps |= Setting::Apps.is_on();
        Ok(profile)
    }

    /// `full`, `core`, `slim`, or a comma list of profiles, groups and tool names.
    pub fn parse(value: &str) -> Result<Self, String> {
        let mut tools: Vec<&'static str> = Vec::new();
        let mut apps = false;
        for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if let Some((_, listed)) = PROFILES.iter().find(|(p, _)| *p == word) {
                match listed {
                    None => {
                        return Ok(Profile {
                            apps,
                            ..Profile::default()
                        });
                    }
                    Some(names) => tools.extend(names.iter()),
                }
            } else if GROUPS.iter().any(|(g, _)| *g == word) {
                tools.extend(
                    registry::all()
                        .iter()
                        .filter(|t| t.spec.group == word)
                        .map(|t| t.spec.name),
                );
                apps |= word == APPS;
            } else if let Some(t) = registry::get(word) {
                tools.push(t.spec.name);
                apps |= t.spec.group == APPS;
            } else {
                return Err(unknown(word));
            }
        }
        if tools.is_empty() {
            return Err(unknown(value));
        }
        Ok(Profile {
            name: value.trim().to_string(),
            tools: Some(tools),
            apps,
        })
    }

    pub fn lists(&self, tool: &Tool) -> bool {
        (self.apps || tool.spec.group != APPS)
            && self
                .tools
                .as_ref()
                .is_none_or(|names| names.contains(&tool.spec.name))
    }

    /// The tools this profile lists, in the registry's order.
    pub fn listed(&self) -> impl Iterator<Item = &'static Tool> + '_ {
        registry::all().iter().filter(|t| self.lists(t))
    }
}

fn unknown(word: &str) -> String {
    let profiles: Vec<&str> = PROFILES.iter().map(|(p, _)| *p).collect();
    let groups: Vec<&str> = GROUPS.iter().map(|(g, _)| *g).collect();
    format!(
        "{}: {word:?} is not a profile, group or tool; profiles: {}; groups: {}; or any tool name \
         (`tabpilot tools` lists them)",
        Setting::Tools,
        profiles.join(", "),
        groups.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_in_a_profile_is_a_tool() {
        for (profile, names) in PROFILES {
            for name in names.unwrap_or_default() {
                assert!(registry::get(name).is_some(), "{profile} names {name}");
            }
        }
    }

    #[test]
    fn profiles_groups_and_names_combine_and_unknown_words_are_refused() {
        let p = Profile::parse("slim, dialog,browser_screenshot").unwrap();
        let names: Vec<&str> = p.listed().map(|t| t.spec.name).collect();
        assert!(names.contains(&"browser_fill_form") && names.contains(&"browser_handle_dialog"));
        assert!(names.contains(&"browser_screenshot") && !names.contains(&"browser_drag"));
        assert_eq!(Profile::parse("core,full").unwrap(), Profile::default());
        let e = Profile::parse("slim,browser_nope").unwrap_err();
        assert!(
            e.contains("\"browser_nope\"") && e.contains("groups: browsers, tabs, navigate"),
            "{e}"
        );
        assert!(Profile::parse(" , ").is_err());
    }

    #[test]
    fn the_local_application_tools_are_listed_only_when_named() {
        let names = |p: &Profile| p.listed().map(|t| t.spec.name).collect::<Vec<_>>();
        let apps = "inspect_local_application";
        assert!(!names(&Profile::default()).contains(&apps));
        assert!(!names(&Profile::parse("full").unwrap()).contains(&apps));
        assert!(names(&Profile::parse("core,apps").unwrap()).contains(&apps));
        let one = Profile::parse("slim,inspect_local_application").unwrap();
        assert!(names(&one).contains(&apps) && !names(&one).contains(&"open_local_application"));
        let on = Profile {
            apps: true,
            ..Profile::default()
        };
        assert!(names(&on).contains(&apps) && names(&on).contains(&"browser_click"));
    }
}
