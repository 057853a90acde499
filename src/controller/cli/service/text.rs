//! The service definitions as text: a systemd user unit (Linux), a LaunchAgent property list
//! (macOS) and a Task Scheduler task (Windows). Pure functions of what the service runs, so every
//! platform's text is tested on every platform.

use std::path::Path;

/// The first line (or comment) of every definition tabpilot writes: uninstall removes a file only
/// when it carries it, so a person's own `tabpilot.service` is never taken for ours.
pub(super) const MARK: &str =
    "Written by `tabpilot service install`; `tabpilot service uninstall` removes it.";

/// What the service runs and where its output goes.
pub(super) struct Spec<'a> {
    /// The absolute path of the tabpilot binary.
    pub exe: &'a Path,
    /// Its arguments: `mcp --http` and what the person passed on.
    pub args: &'a [String],
    /// Settings the service is started with (`TABPILOT_STATE_DIR`, ...).
    pub env: &'a [(String, String)],
    /// The file stdout and stderr are appended to.
    pub log: &'a Path,
}

/// Why a definition cannot say what was asked.
#[derive(Debug, thiserror::Error)]
#[error("{what} {value:?} cannot go into a service definition: {why}")]
pub(super) struct Unsayable {
    what: &'static str,
    value: String,
    why: &'static str,
}

/// Refuses control characters (a line break would end a unit's line, and start another one):
/// checked once, for every platform, before any text is made.
pub(super) fn check(spec: &Spec) -> Result<(), Unsayable> {
    let words = std::iter::once(("the binary's path", spec.exe.display().to_string()))
        .chain(spec.args.iter().map(|a| ("the argument", a.clone())))
        .chain(
            spec.env
                .iter()
                .map(|(k, v)| ("the setting", format!("{k}={v}"))),
        )
        .chain(std::iter::once((
            "the log's path",
            spec.log.display().to_string(),
        )));
    for (what, value) in words {
        if value.chars().any(char::is_control) {
            return Err(Unsayable {
                what,
                value,
                why: "it holds a control character (a line break, a tab)",
            });
        }
    }
    Ok(())
}

/// A systemd user unit: restarted on failure, its output appended to the log, files it makes
/// owner-only (`UMask`), started with the person's session (`default.target`).
pub(super) fn systemd_unit(spec: &Spec) -> String {
    let exec: Vec<String> = std::iter::once(spec.exe.display().to_string())
        .chain(spec.args.iter().cloned())
        .map(|w| systemd_quoted(&w))
        .collect();
    let env: String = spec
        .env
        .iter()
        .map(|(k, v)| format!("Environment={}\n", systemd_quoted(&format!("{k}={v}"))))
        .collect();
    let log = specifiers(&spec.log.display().to_string());
    format!(
        "# {MARK}\n[Unit]\nDescription=tabpilot MCP server over Streamable HTTP\n\n[Service]\n\
         Type=exec\nExecStart={}\n{env}Restart=on-failure\nRestartSec=5\nUMask=0077\n\
         StandardOutput=append:{log}\nStandardError=append:{log}\n\n[Install]\n\
         WantedBy=default.target\n",
        exec.join(" ")
    )
}

/// A word in double quotes as systemd reads it: `\` and `"` escaped, and `%` (a specifier) and
/// `$` (a variable) doubled, so the word arrives as written.
fn systemd_quoted(word: &str) -> String {
    let escaped = word
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
        .replace('$', "$$");
    format!("\"{}\"", specifiers(&escaped))
}

/// `%` doubled, so systemd reads no specifier.
fn specifiers(text: &str) -> String {
    text.replace('%', "%%")
}

/// A LaunchAgent: started at login, started again when it exits with a failure, its output
/// appended to the log.
pub(super) fn launchd_plist(spec: &Spec, label: &str) -> String {
    let string = |s: &str| format!("<string>{}</string>", xml(s));
    let args: String = std::iter::once(spec.exe.display().to_string())
        .chain(spec.args.iter().cloned())
        .map(|a| format!("    {}\n", string(&a)))
        .collect();
    let env: String = spec
        .env
        .iter()
        .map(|(k, v)| format!("    <key>{}</key>{}\n", xml(k), string(v)))
        .collect();
    let log = string(&spec.log.display().to_string());
    format!(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!-- {} -->\n\
         <!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \
         \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">\n<plist version=\"1.0\">\n<dict>\n\
         \x20 <key>Label</key>{}\n  <key>ProgramArguments</key>\n  <array>\n{args}  </array>\n\
         \x20 <key>EnvironmentVariables</key>\n  <dict>\n{env}  </dict>\n\
         \x20 <key>RunAtLoad</key><true/>\n\
         \x20 <key>KeepAlive</key><dict><key>SuccessfulExit</key><false/></dict>\n\
         \x20 <key>StandardOutPath</key>{log}\n  <key>StandardErrorPath</key>{log}\n\
         </dict>\n</plist>\n",
        xml(MARK),
        string(label)
    )
}

/// A Task Scheduler task for `schtasks /Create /XML`: started at `user`'s logon, restarted when
/// it fails, with no time limit. The task has no place for settings or output, so it runs the
/// binary through `cmd.exe`, which sets the settings and appends the output to the log.
pub(super) fn windows_task(spec: &Spec, user: &str) -> Result<String, Unsayable> {
    let quoted = |what, w: &str| cmd_quoted(what, w);
    let mut line = Vec::new();
    for (k, v) in spec.env {
        line.push(format!(
            "set {} &&",
            quoted("the setting", &format!("{k}={v}"))?
        ));
    }
    line.push(quoted(
        "the binary's path",
        &spec.exe.display().to_string(),
    )?);
    for a in spec.args {
        line.push(quoted("the argument", a)?);
    }
    let log = quoted("the log's path", &spec.log.display().to_string())?;
    // /s: cmd takes what is between the outer quotes as it is.
    let arguments = format!("/d /s /c \"{} >> {log} 2>&1\"", line.join(" "));
    Ok(format!(
        "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!-- {} -->\n\
         <Task version=\"1.2\" xmlns=\"http://schemas.microsoft.com/windows/2004/02/mit/task\">\n\
         \x20 <RegistrationInfo><Description>tabpilot MCP server over Streamable HTTP\
         </Description></RegistrationInfo>\n\
         \x20 <Triggers><LogonTrigger><UserId>{user}</UserId></LogonTrigger></Triggers>\n\
         \x20 <Principals><Principal id=\"Author\"><UserId>{user}</UserId>\
         <LogonType>InteractiveToken</LogonType><RunLevel>LeastPrivilege</RunLevel></Principal>\
         </Principals>\n\
         \x20 <Settings>\n    <MultipleInstancesPolicy>IgnoreNew</MultipleInstancesPolicy>\n\
         \x20   <DisallowStartIfOnBatteries>false</DisallowStartIfOnBatteries>\n\
         \x20   <StopIfGoingOnBatteries>false</StopIfGoingOnBatteries>\n\
         \x20   <ExecutionTimeLimit>PT0S</ExecutionTimeLimit>\n\
         \x20   <RestartOnFailure><Interval>PT1M</Interval><Count>999</Count></RestartOnFailure>\n\
         \x20   <Hidden>true</Hidden>\n  </Settings>\n\
         \x20 <Actions Context=\"Author\"><Exec><Command>cmd.exe</Command>\
         <Arguments>{}</Arguments></Exec></Actions>\n</Task>\n",
        xml(MARK),
        xml(&arguments),
        user = xml(user),
    ))
}

/// A word in double quotes for `cmd.exe`. Inside quotes cmd still reads `%` (a variable) and a
/// `"` ends the quotes, and neither has an escape there: such a word is refused.
fn cmd_quoted(what: &'static str, word: &str) -> Result<String, Unsayable> {
    if word.contains(['"', '%']) {
        return Err(Unsayable {
            what,
            value: word.to_string(),
            why: "cmd.exe, which runs the task, cannot take `\"` or `%` in it",
        });
    }
    Ok(format!("\"{word}\""))
}

/// Text for an XML element or attribute.
fn xml(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&apos;")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec<'a>(args: &'a [String], env: &'a [(String, String)]) -> Spec<'a> {
        Spec {
            exe: Path::new("/opt/tab pilot/tabpilot"),
            args,
            env,
            log: Path::new("/home/u/.local/state/tabpilot/service.log"),
        }
    }

    fn words(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    #[test]
    fn the_unit_runs_the_binary_with_the_arguments_quoted_restarts_and_logs_to_the_state_dir() {
        let args = words(&["mcp", "--http", "--launch", "--headless"]);
        let env = vec![("TABPILOT_STATE_DIR".into(), "/s/100%$HOME".into())];
        let unit = systemd_unit(&spec(&args, &env));
        assert!(unit.starts_with(&format!("# {MARK}\n")), "{unit}");
        assert!(
            unit.contains(
                "\nExecStart=\"/opt/tab pilot/tabpilot\" \"mcp\" \"--http\" \"--launch\" \
                 \"--headless\"\n"
            ),
            "{unit}"
        );
        assert!(
            unit.contains("\nEnvironment=\"TABPILOT_STATE_DIR=/s/100%%$$HOME\"\n"),
            "a specifier or a variable in a value is written to arrive as it is: {unit}"
        );
        for line in [
            "Restart=on-failure",
            "UMask=0077",
            "StandardOutput=append:/home/u/.local/state/tabpilot/service.log",
            "StandardError=append:/home/u/.local/state/tabpilot/service.log",
            "WantedBy=default.target",
        ] {
            assert!(unit.lines().any(|l| l == line), "{line} in {unit}");
        }
    }

    #[test]
    fn a_quote_or_backslash_in_an_argument_is_escaped_for_systemd() {
        assert_eq!(systemd_quoted(r#"a"b\c"#), r#""a\"b\\c""#);
    }

    #[test]
    fn the_plist_names_the_label_the_arguments_the_settings_and_the_log_escaped() {
        let args = words(&["mcp", "--http", "<&>"]);
        let env = vec![("TABPILOT_STATE_DIR".into(), "/s".into())];
        let plist = launchd_plist(&spec(&args, &env), "tabpilot");
        assert!(
            plist.contains(&format!("<!-- {} -->", xml(MARK))),
            "{plist}"
        );
        assert!(plist.contains("<key>Label</key><string>tabpilot</string>"));
        assert!(plist.contains(
            "    <string>/opt/tab pilot/tabpilot</string>\n    <string>mcp</string>\n    \
             <string>--http</string>\n    <string>&lt;&amp;&gt;</string>\n"
        ));
        assert!(plist.contains("<key>TABPILOT_STATE_DIR</key><string>/s</string>"));
        assert!(plist.contains("<key>KeepAlive</key><dict><key>SuccessfulExit</key><false/>"));
        let log = "<string>/home/u/.local/state/tabpilot/service.log</string>";
        assert!(plist.contains(&format!("<key>StandardOutPath</key>{log}")));
        assert!(plist.contains(&format!("<key>StandardErrorPath</key>{log}")));
    }

    #[test]
    fn the_task_runs_the_binary_through_cmd_with_its_settings_and_log_and_restarts() {
        let args = words(&["mcp", "--http", "--launch"]);
        let env = vec![("TABPILOT_STATE_DIR".into(), r"C:\s t".into())];
        let task = windows_task(&spec(&args, &env), r"PC\ada").unwrap();
        assert!(task.contains(&format!("<!-- {} -->", xml(MARK))), "{task}");
        assert!(task.contains("<LogonTrigger><UserId>PC\\ada</UserId></LogonTrigger>"));
        assert!(task.contains("<Command>cmd.exe</Command>"));
        let line = "/d /s /c &quot;set &quot;TABPILOT_STATE_DIR=C:\\s t&quot; &amp;&amp; \
                    &quot;/opt/tab pilot/tabpilot&quot; &quot;mcp&quot; &quot;--http&quot; \
                    &quot;--launch&quot; &gt;&gt; \
                    &quot;/home/u/.local/state/tabpilot/service.log&quot; 2&gt;&amp;1&quot;";
        assert!(
            task.contains(&format!("<Arguments>{line}</Arguments>")),
            "{task}"
        );
        assert!(task.contains("<RestartOnFailure><Interval>PT1M</Interval>"));
        assert!(task.contains("<ExecutionTimeLimit>PT0S</ExecutionTimeLimit>"));
    }

    #[test]
    fn a_word_cmd_cannot_hold_is_refused_for_the_task() {
        let args = words(&["mcp", "--http", "100%"]);
        let e = windows_task(&spec(&args, &[]), "u").unwrap_err();
        assert!(e.to_string().contains("cannot take"), "{e}");
    }

    #[test]
    fn a_line_break_is_refused_for_every_platform() {
        let args = words(&["mcp", "--http", "a\n[Service]"]);
        let e = check(&spec(&args, &[])).unwrap_err();
        assert!(e.to_string().contains("control character"), "{e}");
        assert!(check(&spec(&words(&["mcp"]), &[])).is_ok());
    }
}
