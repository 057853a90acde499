//! Whether a task names a desktop application, for resolve_task_capabilities: by words that say
//! so (`desktop app`, `the dialog of the desktop client`) or by the name of an application
//! installed here (`the calculator`), browsers left out (the browser tools are theirs).

use super::desktop::Entry;

/// Words that name a desktop application whatever it is called.
const CUES: &[&str] = &[
    "desktop app",
    "desktop application",
    "desktop client",
    "native app",
    "native application",
    "local app",
    "local application",
    "installed app",
    "installed application",
    "gui app",
    "gtk app",
    "qt app",
];

/// Names too short or too common to stand for an application by themselves.
const MIN_NAME: usize = 4;

/// Why the task calls for the local-application tools, when it names a desktop application
/// (`entries`: those installed).
pub fn for_task(task: &str, entries: &[Entry]) -> Option<String> {
    let task = format!(" {} ", words(task));
    CUES.iter()
        .find(|c| task.contains(&format!(" {c}")))
        .map(|c| format!("the task says {c:?}"))
        .or_else(|| {
            entries
                .iter()
                .filter(|e| !e.categories.iter().any(|c| c == "WebBrowser"))
                .find_map(|e| {
                    let names = [Some(&e.name), e.generic_name.as_ref()];
                    names.into_iter().flatten().find_map(|n| {
                        let n = words(n);
                        (n.len() >= MIN_NAME && task.contains(&format!(" {n} ")))
                            .then(|| format!("the task names {} ({})", e.name, e.id))
                    })
                })
        })
}

/// Lowercase words separated by single spaces.
fn words(text: &str) -> String {
    text.to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(id: &str, name: &str, generic: Option<&str>, categories: &[&str]) -> Entry {
        Entry {
            id: id.into(),
            name: name.into(),
            generic_name: generic.map(String::from),
            categories: categories.iter().map(|c| c.to_string()).collect(),
            exec: "x".into(),
            icon: None,
            hidden: false,
            path: "/x".into(),
        }
    }

    #[test]
    fn a_task_naming_an_installed_application_or_saying_desktop_app_gets_the_tools() {
        let installed = [
            entry("org.gnome.Calculator", "Calculator", None, &["Utility"]),
            entry(
                "org.gnome.Evince",
                "Document Viewer",
                Some("PDF Viewer"),
                &["Office"],
            ),
            entry(
                "chromium",
                "Chromium",
                Some("Web Browser"),
                &["Network", "WebBrowser"],
            ),
            entry("vim", "Vim", None, &["Utility"]),
        ];
        let hit = |task: &str| for_task(task, &installed);
        let calc = hit("read the value the Calculator shows").unwrap();
        assert!(calc.contains("org.gnome.Calculator"), "{calc}");
        assert!(hit("check the exported file in the PDF viewer").is_some());
        assert!(hit("fill this dialog of the desktop client we are testing").is_some());
        // Browsers are the browser tools' own; short names and parts of words are not names.
        assert!(hit("open the page in chromium").is_none());
        assert!(hit("run vim on the file").is_none());
        assert!(hit("fix the calculators module").is_none());
        assert!(hit("write the release notes for version 2").is_none());
    }
}
