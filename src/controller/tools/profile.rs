//! Which tools a server lists (`TABPILOT_TOOLS`): a named profile, or groups and tools by name.
//! Every client pays for the tool list in tokens on every connection, so a client that needs
//! less can list less. The CLI keeps every tool.

use super::registry::{self, APPS, GROUPS};
use super::spec::Tier;
use super::tool::Tool;
use crate::shared::settings::Setting;

/// The tools one server lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The setting as written, for messages; `full` when unset.
    pub name: String,
    /// None: every tool (but the local-application ones unless `apps`).
    tools: Option<Vec<&'static str>>,
    /// The local-application tools are turned on (`TABPILOT_APPS`).
    apps: bool,
    /// Built on `slim`: the schemas leave out the tuning arguments (`TUNING`).
    lean: bool,
}

/// Arguments a profile built on `slim` leaves out of the schemas it lists: knobs whose defaults
/// serve a form task. The tools still take them; without them slim's list fits its 800 tokens
/// with the tools that say why no browser answers and choose one.
const TUNING: [&str; 2] = ["settleMs", "timeout"];

impl Default for Profile {
    fn default() -> Self {
        Profile {
            name: "full".into(),
            tools: None,
            apps: false,
            lean: false,
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
        let (mut apps, mut lean) = (false, false);
        for word in value.split(',').map(str::trim).filter(|w| !w.is_empty()) {
            if let Some(tier) = Tier::ALL.into_iter().find(|t| t.name() == word) {
                if tier == Tier::Full {
                    return Ok(Profile {
                        apps,
                        ..Profile::default()
                    });
                }
                lean |= tier == Tier::Slim;
                tools.extend(
                    registry::all()
                        .iter()
                        .filter(|t| t.spec.tier <= tier)
                        .map(|t| t.spec.name),
                );
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
            lean,
        })
    }

    /// Whether the schemas this profile lists show the argument `name`.
    pub fn shows_argument(&self, name: &str) -> bool {
        !(self.lean && TUNING.contains(&name))
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
    let profiles: Vec<&str> = Tier::ALL.iter().map(|t| t.name()).collect();
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

    /// The tiers the tools declare make the profiles: slim the four a form task needs and the two
    /// that say why no browser answers and choose one, core
    /// those and the rest of the everyday work.
    #[test]
    fn the_declared_tiers_make_the_profiles() {
        let names = |p: &str| {
            let mut n: Vec<&str> = Profile::parse(p)
                .unwrap()
                .listed()
                .map(|t| t.spec.name)
                .collect();
            n.sort();
            n
        };
        let slim = [
            "browser_click",
            "browser_fill_form",
            "browser_navigate",
            "browser_select_browser",
            "browser_snapshot",
            "browser_status",
        ];
        assert_eq!(names("slim"), slim);
        let core = names("core");
        assert_eq!(core.len(), 18, "{core:?}");
        assert!(slim.iter().all(|t| core.contains(t)));
        assert!(core.contains(&"browser_get_console_logs") && !core.contains(&"browser_drag"));
    }

    #[test]
    fn only_a_profile_built_on_slim_leaves_the_tuning_arguments_out() {
        for p in ["slim", "slim,dialog"] {
            let p = Profile::parse(p).unwrap();
            assert!(!p.shows_argument("settleMs") && !p.shows_argument("timeout"));
            assert!(p.shows_argument("waitUntil") && p.shows_argument("ref"));
        }
        for p in ["full", "core", "browser_click"] {
            let p = Profile::parse(p).unwrap();
            assert!(p.shows_argument("settleMs") && p.shows_argument("timeout"));
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
