//! Which tools an MCP session lists: a named profile, or groups and tools by name
//! (`TABPILOT_TOOLS`), and the groups its agent asked for since (`browser_more_tools`, more.rs).
//! Every client pays for the tool list in tokens on every connection, so a client that needs
//! less can list less, and ask for a group when a task needs it. Listing is all a profile
//! decides: a listed tool's calls pass every policy check any call passes. The CLI keeps every
//! tool.

use super::more;
use super::registry::{self, APPS, GROUPS};
use super::spec::Tier;
use super::tool::Tool;
use crate::shared::error::ToolError;
use crate::shared::settings::Setting;

/// The tools one session lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Profile {
    /// The setting as written, for messages; `full` when unset.
    pub name: String,
    /// The tools listed from the start; none: every group's (`full`), but those held back.
    tools: Option<Vec<&'static str>>,
    /// The groups `full` lists only on request (the registry's mark, `Group::on_request`).
    held_back: Vec<&'static str>,
    /// The person lets the local-application tools be listed (`TABPILOT_APPS`, or the group
    /// `apps` named in `TABPILOT_TOOLS`): they reach past the browser, so an agent's asking is
    /// not enough.
    apps: bool,
    /// Built on `slim`: the schemas leave out the tuning arguments (`TUNING`).
    lean: bool,
    /// The groups the agent asked for since (`browser_more_tools`).
    added: Vec<&'static str>,
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
            held_back: GROUPS
                .iter()
                .filter(|g| g.on_request)
                .map(|g| g.name)
                .collect(),
            apps: false,
            lean: false,
            added: Vec::new(),
        }
    }
}

impl Profile {
    /// Reads `TABPILOT_TOOLS`; an unknown name is an error listing the valid ones.
    /// With `TABPILOT_APPS` on, `full` lists the local-application tools too, and an agent on
    /// another profile may ask for them.
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
            } else if registry::group(word).is_some() {
                tools.extend(registry::in_group(word).map(|t| t.spec.name));
                apps |= word == APPS;
            } else if let Some(t) = registry::get(word) {
                tools.push(t.spec.name);
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
            lean,
            apps,
            ..Profile::default()
        })
    }

    /// Whether the schemas this profile lists show the argument `name`.
    pub fn shows_argument(&self, name: &str) -> bool {
        !(self.lean && TUNING.contains(&name))
    }

    pub fn lists(&self, tool: &Tool) -> bool {
        self.at_start(tool) || self.added.contains(&tool.spec.group)
    }

    /// Whether the session's first list has the tool.
    fn at_start(&self, tool: &Tool) -> bool {
        let group = tool.spec.group;
        match &self.tools {
            None => self.allows(group) && !self.held_back.contains(&group),
            Some(names) => names.contains(&tool.spec.name),
        }
    }

    /// Whether an agent may have the group's tools listed: any but the local-application ones,
    /// and those when the person turned them on.
    fn allows(&self, group: &str) -> bool {
        group != APPS || self.apps
    }

    /// The tools this profile lists, in the registry's order.
    pub fn listed(&self) -> impl Iterator<Item = &'static Tool> + '_ {
        registry::all().iter().filter(|t| self.lists(t))
    }

    /// Whether the list has `browser_more_tools`: its first list leaves out a group the agent may
    /// ask for. Not one built on slim: its 800 tokens have no room for it.
    pub fn offers_more(&self) -> bool {
        !self.lean
            && registry::all()
                .iter()
                .any(|t| self.allows(t.spec.group) && !self.at_start(t))
    }

    /// Whether the agent can have the group listed with `browser_more_tools`.
    pub fn may_add(&self, group: &str) -> bool {
        self.offers_more() && self.allows(group)
    }

    /// Each group the agent may ask for with its tools not listed yet, in the registry's order.
    pub fn unlisted(&self) -> Vec<(&'static str, Vec<&'static str>)> {
        GROUPS
            .iter()
            .filter(|g| self.allows(g.name))
            .map(|g| (g.name, self.unlisted_of(g.name)))
            .filter(|(_, tools)| !tools.is_empty())
            .collect()
    }

    fn unlisted_of(&self, group: &str) -> Vec<&'static str> {
        registry::in_group(group)
            .filter(|t| !self.lists(t))
            .map(|t| t.spec.name)
            .collect()
    }

    /// Lists the group `name` too: the group, and the tools that adds (none: it was listed
    /// already). A group that does not exist, or one only the person turns on, is refused.
    pub fn add(&mut self, name: &str) -> Result<(&'static str, Vec<&'static str>), ToolError> {
        let group = match registry::group(name) {
            Some(g) if self.allows(g.name) => g.name,
            Some(_) => return Err(apps_off("the group apps")),
            None => {
                let groups: Vec<&str> = GROUPS
                    .iter()
                    .map(|g| g.name)
                    .filter(|g| self.allows(g))
                    .collect();
                return Err(ToolError::bad_args(format!(
                    "there is no group {name:?}; groups: {}",
                    groups.join(", ")
                )));
            }
        };
        let tools = self.unlisted_of(group);
        if !tools.is_empty() {
            self.added.push(group);
        }
        Ok((group, tools))
    }

    /// Why a call of `name` is not run in this session; none when the session lists it (or no
    /// tool has the name: the tool layer says so).
    pub fn refusal(&self, name: &str) -> Option<ToolError> {
        if name == more::NAME {
            return (!self.offers_more()).then(|| self.not_listed(name));
        }
        let tool = registry::get(name).filter(|t| !self.lists(t))?;
        let group = tool.spec.group;
        Some(if !self.allows(group) {
            apps_off(name)
        } else if self.offers_more() {
            ToolError::bad_args(format!(
                "{name} is not listed in this session ({}={}); browser_more_tools {{\"group\": \
                 \"{group}\"}} lists it",
                Setting::Tools,
                self.name
            ))
            .recovered_by(more::NAME)
        } else {
            self.not_listed(name)
        })
    }

    fn not_listed(&self, name: &str) -> ToolError {
        ToolError::bad_args(format!(
            "{name} is not in this server's tools ({}={}); tools/list names them",
            Setting::Tools,
            self.name
        ))
    }
}

/// The refusal of `what` (a local-application tool, or their group) without the person's word.
fn apps_off(what: &str) -> ToolError {
    ToolError::bad_args(format!(
        "{what} reaches the applications on this machine, and is on only when the person sets \
         {}=1 (or names the group apps in {})",
        Setting::Apps,
        Setting::Tools
    ))
    .recovered_by("ask the person: only they can turn on TABPILOT_APPS")
}

fn unknown(word: &str) -> String {
    let profiles: Vec<&str> = Tier::ALL.iter().map(|t| t.name()).collect();
    let groups: Vec<&str> = GROUPS.iter().map(|g| g.name).collect();
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

    fn names(p: &Profile) -> Vec<&'static str> {
        p.listed().map(|t| t.spec.name).collect()
    }

    /// core and a list that leaves a group out list browser_more_tools; full lists every group,
    /// and slim (or a list built on it) has no room for it (the budget test prints its cost).
    #[test]
    fn a_profile_that_leaves_a_group_out_offers_more() {
        for (p, offers) in [
            ("core", true),
            ("tabs,act", true),
            ("full", false),
            ("slim", false),
            ("slim,dialog", false),
        ] {
            assert_eq!(Profile::parse(p).unwrap().offers_more(), offers, "{p}");
        }
        let every: Vec<&str> = GROUPS.iter().map(|g| g.name).collect();
        assert!(!Profile::parse(&every.join(",")).unwrap().offers_more());
        // Without the person's word, apps is not a group left out for the asking.
        let apps_off: Vec<&str> = every.iter().copied().filter(|g| *g != APPS).collect();
        let no_apps = Profile::parse(&apps_off.join(",")).unwrap();
        assert!(!no_apps.offers_more() && no_apps.unlisted().is_empty());
    }

    #[test]
    fn a_group_added_lists_its_tools_and_no_others() {
        let mut core = Profile::parse("core").unwrap();
        let before = names(&core);
        assert!(!before.contains(&"browser_get_cookies"));
        let (group, tools) = core.add("state").unwrap();
        assert_eq!(group, "state");
        assert!(tools.contains(&"browser_get_cookies") && tools.contains(&"browser_proxy"));
        let after = names(&core);
        assert_eq!(after.len(), before.len() + tools.len(), "{after:?}");
        assert!(registry::in_group("state").all(|t| core.lists(t)));
        assert!(!after.contains(&"browser_drag") && core.offers_more());
        // Asked again, it is listed already; a group core lists a part of adds the rest only.
        assert_eq!(core.add("state").unwrap(), ("state", vec![]));
        let (_, act) = core.add("act").unwrap();
        assert!(act.contains(&"browser_drag") && !act.contains(&"browser_click"));
        assert!(
            !core
                .unlisted()
                .iter()
                .any(|(g, _)| *g == "state" || *g == "act")
        );
        // Another session's profile, cloned from the same server's, is not changed.
        assert_eq!(names(&Profile::parse("core").unwrap()), before);
    }

    /// What an agent can have listed is what full lists (the local-application tools only with
    /// the person's word): asking for every group gives nothing more.
    #[test]
    fn every_group_asked_for_lists_what_full_lists_and_no_more() {
        for apps in [false, true] {
            let mut p = Profile {
                apps,
                ..Profile::parse("core").unwrap()
            };
            for (group, _) in p.unlisted() {
                p.add(group).unwrap();
            }
            let full = Profile {
                apps,
                ..Profile::default()
            };
            assert_eq!(names(&p), names(&full), "apps: {apps}");
            assert!(p.unlisted().is_empty());
            assert_eq!(names(&p).contains(&"open_local_application"), apps);
        }
    }

    #[test]
    fn unknown_groups_and_apps_without_the_persons_word_are_refused_changing_nothing() {
        let mut core = Profile::parse("core").unwrap();
        let e = core.add("cookies").unwrap_err();
        assert_eq!(e.code, crate::shared::error::Code::BadArgs);
        assert!(
            e.message.contains("\"cookies\"") && e.message.contains("groups: browsers, tabs"),
            "{e}"
        );
        assert!(!e.message.contains("apps"), "{e}");
        let e = core.add(APPS).unwrap_err();
        assert!(e.message.contains("TABPILOT_APPS=1"), "{e}");
        assert!(e.text().contains("Recover: ask the person"), "{}", e.text());
        assert!(!core.unlisted().iter().any(|(g, _)| *g == APPS));
        assert_eq!(core, Profile::parse("core").unwrap());
        // Naming one of its tools is the person's word for that tool, not the group.
        let mut one = Profile::parse("core,inspect_local_application").unwrap();
        assert!(one.add(APPS).is_err());
        let mut on = Profile {
            apps: true,
            ..Profile::parse("core").unwrap()
        };
        assert!(on.unlisted().iter().any(|(g, _)| *g == APPS));
        assert!(on.may_add(APPS) && !core.may_add(APPS) && core.may_add("state"));
        assert!(!Profile::parse("slim").unwrap().may_add("state"));
        assert_eq!(on.add(APPS).unwrap().1.len(), 4);
    }

    /// The registry's mark: a group held back from full is listed on request, and full lists
    /// browser_more_tools for it.
    #[test]
    fn full_lists_more_tools_in_place_of_a_group_held_back() {
        let mut full = Profile {
            held_back: vec!["perf"],
            ..Profile::default()
        };
        assert!(full.offers_more());
        assert!(!registry::in_group("perf").any(|t| full.lists(t)));
        assert!(names(&full).contains(&"browser_click"));
        assert_eq!(full.unlisted().len(), 1);
        let (_, perf) = full.add("perf").unwrap();
        assert!(!perf.is_empty() && registry::in_group("perf").all(|t| full.lists(t)));
        // Named in the list, it is listed from the start.
        assert!(
            Profile::parse("core,perf")
                .unwrap()
                .unlisted_of("perf")
                .is_empty()
        );
    }

    #[test]
    fn a_tool_not_listed_is_refused_saying_how_to_have_it() {
        let mut core = Profile::parse("core").unwrap();
        let e = core.refusal("browser_get_cookies").unwrap();
        assert!(
            e.message.contains("TABPILOT_TOOLS=core")
                && e.message
                    .contains(r#"browser_more_tools {"group": "state"}"#),
            "{e}"
        );
        assert_eq!(e.recover(), more::NAME);
        assert!(core.refusal("browser_click").is_none() && core.refusal(more::NAME).is_none());
        core.add("state").unwrap();
        assert!(core.refusal("browser_get_cookies").is_none());
        // Where nothing can be asked for, the refusal says what the list is.
        let slim = Profile::parse("slim").unwrap();
        let e = slim.refusal("browser_drag").unwrap();
        assert!(!e.message.contains(more::NAME), "{e}");
        assert!(slim.refusal(more::NAME).is_some());
        assert!(Profile::default().refusal(more::NAME).is_some());
        let e = core.refusal("open_local_application").unwrap();
        assert!(e.message.contains("TABPILOT_APPS=1"), "{e}");
        // A name no tool has is the tool layer's to refuse.
        assert!(core.refusal("browser_nope").is_none());
    }
}
