//! `tabpilot <tool> ...`: a one-shot controller. It joins the relay under the CLI's session, so
//! successive commands drive the same tab.

use std::process::ExitCode;

use serde_json::{Map, Value, json};

use crate::controller::tools::{Session, registry};
use crate::shared::error::ToolError;
use crate::shared::protocol::{PeerInfo, ask};
use crate::shared::settings::Setting;

/// The session all CLI calls share (`TABPILOT_SESSION` names another).
pub(super) fn cli_session() -> Result<Session, ToolError> {
    let session = Setting::Session.get().unwrap_or_else(|| "cli".into());
    let key = crate::shared::state::session_key(&session).map_err(|e| {
        ToolError::refused(
            crate::shared::error::Code::Internal,
            format!("cannot read or create the key of session {session:?}: {e}"),
        )
    })?;
    let info = PeerInfo {
        name: "tabpilot cli".into(),
        pid: std::process::id(),
        session: Some(session),
        session_key: Some(key),
        ..Default::default()
    };
    let session = Session::new(info, None)?;
    session.set_client("cli");
    Ok(session)
}

/// Parses `TOOL [POSITIONAL...] [--args JSON] [--json] [--submit]` into a tool name and arguments.
fn parse(words: &[String]) -> Result<(String, Value, bool), ToolError> {
    let (first, rest) = words
        .split_first()
        .ok_or_else(|| ToolError::bad_args("name a tool"))?;
    let spec = &registry::from_word(first)
        .ok_or_else(|| {
            ToolError::bad_args(format!(
                "there is no tool {first:?}; `tabpilot tools` lists them"
            ))
        })?
        .spec;
    let mut args = Map::new();
    if let Some(list) = spec.cli.rest {
        // `run NAME [ARGS...]`: every word after the positional ones goes to the tool, verbatim.
        let (named, rest) = rest.split_at(spec.cli.positional.len().min(rest.len()));
        if named.len() < spec.cli.positional.len() {
            return Err(ToolError::bad_args(format!(
                "{first} needs {}",
                spec.cli.positional.join(" and ")
            )));
        }
        for (name, word) in spec.cli.positional.iter().zip(named) {
            args.insert((*name).to_string(), json!(word));
        }
        args.insert(list.to_string(), json!(rest));
        return Ok((spec.name.to_string(), Value::Object(args), false));
    }
    let mut json_out = false;
    let mut names = spec.cli.positional.iter();
    let mut words = rest.iter();
    while let Some(w) = words.next() {
        match w.as_str() {
            "--json" => json_out = true,
            "--submit" => {
                args.insert("submit".into(), json!(true));
            }
            "--args" => {
                let text = words
                    .next()
                    .ok_or_else(|| ToolError::bad_args("--args needs a JSON object"))?;
                let extra: Map<String, Value> = serde_json::from_str(text).map_err(|e| {
                    ToolError::bad_args(format!("--args is not a JSON object: {e}"))
                })?;
                args.extend(extra);
            }
            flag if flag.starts_with("--") => {
                return Err(ToolError::bad_args(format!("unknown option {flag}")));
            }
            word => {
                let name = names.next().ok_or_else(|| {
                    ToolError::bad_args(format!(
                        "{} takes no more words than {:?}",
                        spec.name, spec.cli.positional
                    ))
                })?;
                let value = match word.parse::<i64>() {
                    Ok(n) if *name == "tabId" => json!(n),
                    _ => json!(word),
                };
                args.insert((*name).to_string(), value);
            }
        }
    }
    Ok((spec.name.to_string(), Value::Object(args), json_out))
}

/// Runs the tool call the words say, here or on the remote named, and prints its result: the
/// same text and exit code either way.
pub(super) async fn run(words: Vec<String>, remote: Option<String>) -> ExitCode {
    let (tool, args, json_out) = match parse(&words) {
        Ok(parsed) => parsed,
        Err(e) => {
            let json_out = words.iter().any(|w| w == "--json");
            return print(&crate::controller::mcp::to_result(Err(e)), json_out);
        }
    };
    let result = match remote {
        None => {
            let answer = match cli_session() {
                Ok(session) => session.call(&tool, args).await,
                Err(e) => Err(e),
            };
            crate::controller::mcp::to_result(answer)
        }
        Some(name) => match super::remote::call(&name, &tool, args).await {
            Ok(result) => result,
            Err(e) => {
                eprintln!(
                    "tabpilot: remote {}: {e}",
                    crate::shared::terminal::line(&name)
                );
                return ExitCode::FAILURE;
            }
        },
    };
    print(&result, json_out)
}

/// A tool's result on the terminal: as JSON with --json, else its text (on stderr for an
/// error); the exit code says which.
fn print(result: &rmcp::model::CallToolResult, json_out: bool) -> ExitCode {
    let failed = result.is_error == Some(true);
    if json_out {
        println!(
            "{}",
            serde_json::to_string_pretty(result).expect("results serialize")
        );
    } else {
        let texts: Vec<&str> = result
            .content
            .iter()
            .filter_map(|c| c.as_text())
            .map(|t| t.text.as_str())
            .collect();
        // Page text reaches the person's terminal (from a remote server too): escapes and bidi
        // controls shown, not run.
        let text = crate::shared::terminal::text(&texts.join("\n")).into_owned();
        if failed {
            eprintln!("{text}");
        } else {
            println!("{text}");
            if result.content.iter().any(|c| c.as_image().is_some()) {
                println!("(image not shown here; give a FILE to save it)");
            }
        }
    }
    if failed {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// `tabpilot pair`: asks the relay for a one-time pairing page and opens it.
pub(super) async fn pair() -> anyhow::Result<ExitCode> {
    let session = cli_session()?;
    let paired = session.link().ask(ask::Pair).await?;
    let (url, code, port) = (paired.url, paired.code.as_str(), paired.port);
    println!(
        "In the browser you want to pair (with the tabpilot extension loaded), click the tabpilot\n\
         icon and enter this code. The popup names the relay's port: it must say {port}.\n\n    {code}\n"
    );
    println!("Instructions on a page of the relay's, which carries no secret:\n  {url}");
    // The code is said only here, on the person's terminal: never in the page's address, which
    // goes into another process's arguments (readable by every user) when it is opened.
    // NoOpen: print the page only (scripts, tests, a browser on another screen).
    let opened =
        Setting::NoOpen.get_os().is_none() && crate::shared::platform::open::url(&url).is_ok();
    if opened {
        println!("(opened it in your default browser)");
    }
    println!("The code works once and expires in 10 minutes.");
    Ok(ExitCode::SUCCESS)
}

/// `tabpilot pair --remote`: what to type into the popup of a browser on another computer.
pub(super) async fn pair_remote() -> anyhow::Result<ExitCode> {
    let session = cli_session()?;
    let paired = match session.link().ask(ask::PairRemote).await {
        Ok(paired) => paired,
        Err(e) => {
            eprintln!("{}", crate::shared::terminal::text(&e.text()));
            return Ok(ExitCode::FAILURE);
        }
    };
    let address = if paired.address.starts_with("0.0.0.0:") || paired.address.starts_with("[::]:") {
        let port = paired.address.rsplit(':').next().unwrap_or_default();
        format!("this computer's address as the other one reaches it, port {port}")
    } else {
        paired.address
    };
    println!(
        "On the other computer, in the browser with the tabpilot extension loaded: click the\n\
         tabpilot icon, open Another computer, and enter\n\n    address  {address}\n    code     {}\n",
        paired.code
    );
    println!(
        "Once paired, the popup shows the relay's key fingerprint. It must be\n\n    {}\n\n\
         If it is not, something between the computers answered: choose Forget in the popup.",
        paired.fingerprint
    );
    println!("The code works once and expires in 10 minutes.");
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        s.split_whitespace().map(String::from).collect()
    }

    #[test]
    fn short_forms_map_words_to_arguments() {
        let (tool, args, json) = parse(&words("navigate http://x/ --json")).unwrap();
        assert_eq!((tool.as_str(), json), ("browser_navigate", true));
        assert_eq!(args, json!({"url": "http://x/"}));
        let (tool, args, _) = parse(&words("type e1abc hello --submit")).unwrap();
        assert_eq!(tool, "browser_type");
        assert_eq!(
            args,
            json!({"ref": "e1abc", "text": "hello", "submit": true})
        );
        let (tool, args, _) = parse(&words("browser_click --args {\"ref\":\"e1abc\"}")).unwrap();
        assert_eq!(
            (tool.as_str(), args),
            ("browser_click", json!({"ref": "e1abc"}))
        );
        assert_eq!(parse(&words("tabs")).unwrap().0, "browser_list_tabs");
        let (tool, args, _) = parse(&words("run test --json ;rm")).unwrap();
        assert_eq!(tool, "run_local_command");
        assert_eq!(args, json!({"name": "test", "args": ["--json", ";rm"]}));
        assert_eq!(
            parse(&words("skills pdf")).unwrap().1,
            json!({"query": "pdf"})
        );
    }

    #[test]
    fn extra_words_and_unknown_tools_are_refused() {
        assert!(parse(&words("snapshot extra")).is_err());
        assert!(parse(&words("fly")).is_err());
        assert!(parse(&words("click e1abc --nope")).is_err());
    }
}
