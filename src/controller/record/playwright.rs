//! A recording as a Playwright Test file (TypeScript): one test repeating the session's actions
//! by semantic locators with web-first waits, the agent's waits and the addresses its navigations
//! reached as assertions, secrets and hidden fields from the environment. A step that failed or
//! whose outcome is unknown stays as a comment saying why.

use std::fmt::Write;

use serde_json::{Map, Value};

use super::{Recordable, Replayed, Step, env_name};
use crate::shared::error::Outcome;
use crate::shared::protocol::wire::locate::{Locator, Target};

/// A JavaScript string literal (JSON's is one).
fn js(s: &str) -> String {
    serde_json::to_string(s).expect("a string serializes")
}

/// The origin the recording started on: the test runs against `BASE_URL` in its place.
fn base_of(steps: &[Step]) -> Option<String> {
    let first = steps.iter().find_map(|s| {
        s.url
            .clone()
            .or(s.args.get("url")?.as_str().map(String::from))
    })?;
    let origin = url::Url::parse(&first).ok()?.origin();
    origin.is_tuple().then(|| origin.ascii_serialization())
}

/// A recorded address as the test writes it: relative to the base when on its origin.
fn address(url: &str, base: Option<&str>) -> String {
    match base
        .and_then(|b| url.strip_prefix(b))
        .filter(|rest| rest.is_empty() || rest.starts_with('/'))
    {
        Some(rest) => format!("at({})", js(if rest.is_empty() { "/" } else { rest })),
        None => js(url),
    }
}

fn one(l: &Locator) -> String {
    let exact = |f: &str, v: &str| format!(".{f}({}, {{ exact: true }})", js(v));
    match l {
        Locator {
            role: Some(r),
            name: Some(n),
            ..
        } => {
            format!(".getByRole({}, {{ name: {}, exact: true }})", js(r), js(n))
        }
        Locator { label: Some(v), .. } => exact("getByLabel", v),
        Locator {
            placeholder: Some(v),
            ..
        } => exact("getByPlaceholder", v),
        Locator {
            test_id: Some(v), ..
        } => format!(".getByTestId({})", js(v)),
        Locator { text: Some(v), .. } => exact("getByText", v),
        Locator { css, .. } => css
            .as_deref()
            .unwrap_or("*")
            .split(" >>> ")
            .map(|part| format!(".locator({})", js(part)))
            .collect(),
    }
}

/// The target's best locator, inside its frames.
pub fn locator(t: &Target) -> Option<String> {
    let mut out = String::from("page");
    for frame in &t.frames {
        let css = frame.iter().find_map(|l| l.css.clone())?;
        write!(out, ".frameLocator({})", js(&css.replace(" >>> ", " "))).ok()?;
    }
    out.push_str(&one(t.locators.first()?));
    Some(out)
}

/// A value for a field: as recorded, a secret's or a hidden field's from the environment.
fn value(kept: &Map<String, Value>) -> String {
    let from_env = |name: &str| format!("(process.env.{name} ?? missing({}))", js(name));
    if let Some(name) = kept.get("secret").and_then(Value::as_str) {
        return from_env(&env_name(name));
    }
    if let Some(name) = kept.get("env").and_then(Value::as_str) {
        return from_env(name);
    }
    match kept.get("value") {
        Some(Value::Bool(b)) => b.to_string(),
        Some(Value::String(s)) => js(s),
        Some(other) => js(&other.to_string()),
        None => js(""),
    }
}

fn fill(target: &str, kind: &str, kept: &Map<String, Value>) -> String {
    match (kind, kept.get("value")) {
        ("check", Some(Value::Bool(b))) => format!("await {target}.setChecked({b});"),
        ("check", Some(Value::String(s))) => {
            format!("await {target}.setChecked({});", s != "false")
        }
        ("select", _) => format!("await {target}.selectOption({});", value(kept)),
        _ => format!("await {target}.fill({});", value(kept)),
    }
}

/// A click on `target` as the step made it: the button, and double or not.
fn click(target: &str, a: &Map<String, Value>) -> String {
    let how = if a.get("doubleClick") == Some(&Value::Bool(true)) {
        "dblclick"
    } else {
        "click"
    };
    let button = a
        .get("button")
        .and_then(Value::as_str)
        .filter(|b| *b != "left");
    let opts = button
        .map(|b| format!("{{ button: {} }}", js(b)))
        .unwrap_or_default();
    format!("await {target}.{how}({opts});")
}

/// The lines a done step becomes; an error when it cannot be written (no locator).
fn action(step: &Step, kind: Option<Replayed>, base: Option<&str>) -> Result<Vec<String>, String> {
    let a = &step.args;
    let s = |k: &str| a.get(k).and_then(Value::as_str).unwrap_or_default();
    let target = |i: usize| {
        let t = step.targets.get(i).ok_or("its element was not located")?;
        locator(t)
            .map(|l| (l, t.kind.as_str()))
            .ok_or("its element has no locator")
    };
    let mut out = Vec::new();
    match kind {
        Some(Replayed::Navigate) => {
            out.push(format!("await page.goto({});", address(s("url"), base)))
        }
        Some(Replayed::Back) => out.push("await page.goBack();".into()),
        Some(Replayed::Forward) => out.push("await page.goForward();".into()),
        Some(Replayed::Click) => out.push(click(&target(0)?.0, a)),
        Some(Replayed::Hover) => out.push(format!("await {}.hover();", target(0)?.0)),
        Some(Replayed::Focus) => out.push(format!("await {}.focus();", target(0)?.0)),
        Some(Replayed::Type) => {
            let (t, kind) = target(0)?;
            out.push(fill(&t, kind, a));
            if a.get("submit") == Some(&Value::Bool(true)) {
                out.push(format!("await {t}.press('Enter');"));
            }
        }
        Some(Replayed::FillForm) => {
            let fields = a
                .get("fields")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            for (i, f) in fields.iter().enumerate() {
                let (t, kind) = target(i)?;
                out.push(fill(&t, kind, f.as_object().unwrap_or(&Map::new())));
            }
            if a.get("submit") == Some(&Value::Bool(true)) && !fields.is_empty() {
                out.push(format!(
                    "await {}.press('Enter');",
                    target(fields.len() - 1)?.0
                ));
            }
        }
        Some(Replayed::Select) => {
            let values = a.get("values").cloned().unwrap_or(Value::Array(vec![]));
            out.push(format!("await {}.selectOption({values});", target(0)?.0));
        }
        Some(Replayed::PressKey) => {
            out.push(format!("await page.keyboard.press({});", js(s("key"))))
        }
        Some(Replayed::WaitFor) if a.get("text").is_some() => {
            out.push(format!(
                "await expect(page.getByText({}).first()).toBeVisible();",
                js(s("text"))
            ));
        }
        Some(Replayed::WaitFor) if a.get("textGone").is_some() => {
            out.push(format!(
                "await expect(page.getByText({})).toHaveCount(0);",
                js(s("textGone"))
            ));
        }
        _ => return Err("it is not something a test repeats".into()),
    }
    let moved =
        step.after.is_some() && (step.after != step.url || kind == Some(Replayed::Navigate));
    if let (true, Some(after)) = (moved, &step.after) {
        out.push(format!(
            "await expect(page).toHaveURL(path({}));",
            address(after, base)
        ));
    }
    Ok(out)
}

const HEAD: &str = "import { test, expect } from '@playwright/test';

// The address the session ran on; BASE_URL runs the test against another copy of the app.
const BASE = process.env.BASE_URL ?? ";

const HELPERS: &str = ";
const at = (p: string) => new URL(p, BASE).toString();
// An address, whatever its query and fragment.
const path = (u: string) => new RegExp('^' + u.replace(/[.*+?^${}()|[\\]\\\\]/g, '\\\\$&') + '([?#]|$)');
const missing = (name: string): string => {
  throw new Error(`set ${name} in the environment: the recording keeps no secret`);
};
";

/// The test file for these steps.
pub fn script(steps: &[Step], recordable: &Recordable) -> String {
    let base = base_of(steps);
    let mut out = String::new();
    let who = steps
        .first()
        .map(|s| format!("{} ({})", s.agent.client, s.agent.session));
    let _ = writeln!(
        out,
        "// Recorded by tabpilot from {}.",
        who.unwrap_or_else(|| "no session".into())
    );
    out.push_str(HEAD);
    out.push_str(&js(base.as_deref().unwrap_or("http://localhost")));
    out.push_str(HELPERS);
    out.push_str("\ntest('recorded session', async ({ page }) => {\n");
    for (n, step) in steps.iter().enumerate() {
        let said = |why: &str| format!("  // step {} {}: {why}\n", n + 1, step.tool);
        let code = step
            .code
            .as_deref()
            .map(|c| format!(" ({c})"))
            .unwrap_or_default();
        match step.outcome {
            Outcome::Done | Outcome::Partial => {
                match action(step, recordable.kind(&step.tool), base.as_deref()) {
                    Ok(lines) => lines.iter().for_each(|l| {
                        let _ = writeln!(out, "  {l}");
                    }),
                    Err(why) => out.push_str(&said(&format!("not repeated: {why}"))),
                }
            }
            other => {
                let word = serde_json::to_value(other).ok();
                let word = word.as_ref().and_then(Value::as_str).unwrap_or("failed");
                out.push_str(&said(&format!("{word}{code}; not repeated")));
                if let Ok(lines) = action(step, recordable.kind(&step.tool), base.as_deref()) {
                    lines.iter().for_each(|l| {
                        let _ = writeln!(out, "  // {l}");
                    });
                }
            }
        }
    }
    out.push_str("});\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::controller::audit::Agent;
    use crate::controller::tools::registry;
    use serde_json::json;

    fn step(tool: &str, args: &Value, targets: Vec<Target>, outcome: Outcome) -> Step {
        Step {
            time: "t".into(),
            agent: Agent::default(),
            agent_id: None,
            tool: tool.into(),
            url: Some("http://app.test:8080/login".into()),
            after: Some("http://app.test:8080/login".into()),
            args: args.as_object().cloned().unwrap(),
            targets,
            outcome,
            code: None,
        }
    }

    fn target(l: Locator, frames: Vec<Vec<Locator>>) -> Target {
        Target {
            locators: vec![l],
            frames,
            kind: "text".into(),
            secret: false,
        }
    }

    #[test]
    fn secrets_come_from_the_environment_and_failed_steps_stay_as_comments() {
        let label = |v: &str| Locator {
            label: Some(v.into()),
            ..Default::default()
        };
        let css = Locator {
            css: Some("x-notes >>> textarea".into()),
            ..Default::default()
        };
        let frame = vec![Locator {
            css: Some("iframe[title=\"Pay\"]".into()),
            ..Default::default()
        }];
        let mut click = step(
            "browser_click",
            &json!({}),
            vec![target(label("Go"), vec![])],
            Outcome::Failed,
        );
        click.code = Some("NOT_ACTIONABLE".into());
        let steps = [
            step(
                "browser_navigate",
                &json!({"url": "http://app.test:8080/login"}),
                vec![],
                Outcome::Done,
            ),
            step(
                "browser_type",
                &json!({"secret": "app-password"}),
                vec![target(label("Password"), vec![])],
                Outcome::Done,
            ),
            step(
                "browser_type",
                &json!({"env": "PIN"}),
                vec![target(label("Pin"), vec![frame])],
                Outcome::Done,
            ),
            step(
                "browser_type",
                &json!({"value": "hi"}),
                vec![target(css, vec![])],
                Outcome::Done,
            ),
            click,
            step(
                "browser_focus",
                &json!({}),
                vec![target(label("Go"), vec![])],
                Outcome::Done,
            ),
            step(
                "browser_fill_form",
                &json!({"fields": [{"ref": "e1", "value": "Ada"}], "submit": true}),
                vec![target(label("Name"), vec![])],
                Outcome::Done,
            ),
        ];
        let text = script(&steps, &registry::recordable());
        for line in [
            "const BASE = process.env.BASE_URL ?? \"http://app.test:8080\";",
            "await page.goto(at(\"/login\"));",
            "await expect(page).toHaveURL(path(at(\"/login\")));",
            "await page.getByLabel(\"Password\", { exact: true }).fill((process.env.APP_PASSWORD ?? missing(\"APP_PASSWORD\")));",
            "await page.frameLocator(\"iframe[title=\\\"Pay\\\"]\").getByLabel(\"Pin\", { exact: true }).fill((process.env.PIN ?? missing(\"PIN\")));",
            "await page.locator(\"x-notes\").locator(\"textarea\").fill(\"hi\");",
            "// step 5 browser_click: failed (NOT_ACTIONABLE); not repeated",
            "// await page.getByLabel(\"Go\", { exact: true }).click();",
            "await page.getByLabel(\"Go\", { exact: true }).focus();",
            "await page.getByLabel(\"Name\", { exact: true }).fill(\"Ada\");\n  await page.getByLabel(\"Name\", { exact: true }).press('Enter');",
        ] {
            assert!(text.contains(line), "{line}\nnot in:\n{text}");
        }
        assert!(!text.contains("hunter2"));
    }
}
