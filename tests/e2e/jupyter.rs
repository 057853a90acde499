//! A real JupyterLab (from the venv `.ci/run` installs, its kernel the venv's ipykernel) driven
//! through the MCP tools only, with a client's defaults, as an agent would: a notebook made from
//! the launcher, code typed into its cell, run, its output read from the page, the notebook
//! saved; the `.ipynb` on disk holds the cell's source and its output.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, shared, text};
use crate::pyapps::jupyter;
use crate::snapshot::ref_of;

/// The ref of the first element in `snapshot` with this role and no name (a notebook cell's
/// editor has none).
fn unnamed_ref(snapshot: &str, role: &str) -> String {
    let head = format!("- {role} [ref=");
    let line = snapshot.lines().find(|l| l.trim_start().starts_with(&head));
    let line = line.unwrap_or_else(|| panic!("no unnamed {role} in the snapshot:\n{snapshot}"));
    let at = line.find("[ref=").unwrap() + 5;
    line[at..at + line[at..].find(']').unwrap()].to_string()
}

fn snapshot(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    data["snapshot"].as_str().unwrap().to_string()
}

/// The notebooks in `dir`.
fn notebooks(dir: &Path) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb"))
        .collect();
    found.sort();
    found
}

/// A code cell's source or a stream output's text, which a notebook file holds as a string or
/// as a list of lines.
fn joined(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        Value::Array(lines) => lines.iter().filter_map(Value::as_str).collect(),
        _ => String::new(),
    }
}

/// The notebook's code cells on disk, as (source, the text of its outputs).
fn cells_on_disk(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let Ok(notebook) = serde_json::from_str::<Value>(&text) else {
        return Vec::new();
    };
    let cells = notebook["cells"].as_array().cloned().unwrap_or_default();
    cells
        .iter()
        .filter(|c| c["cell_type"] == "code")
        .map(|c| {
            let outputs = c["outputs"].as_array().cloned().unwrap_or_default();
            let out = outputs.iter().map(|o| joined(&o["text"])).collect();
            (joined(&c["source"]), out)
        })
        .collect()
}

/// The code the agent types into the notebook's cell.
const CODE: &str = r#"print("answer:", 6*7)"#;

#[test]
fn a_jupyterlab_notebook_made_from_the_launcher_runs_typed_code_and_saves_it_with_its_output() {
    notebook_task(&mut shared().agent(), "answer.ipynb");
}

/// The notebook task, by `agent` in its browser: a notebook made from the launcher, code typed
/// into its cell and run, its output read, and the notebook saved as `name`, checked on disk.
pub(crate) fn notebook_task(agent: &mut Mcp, name: &str) {
    let lab = jupyter();
    let started = Instant::now();
    agent.ok("browser_navigate", json!({"url": lab.lab_url()}));
    // JupyterLab loads its extensions behind a splash screen, then shows the launcher.
    agent.ok(
        "browser_wait_for",
        json!({"text": "Python 3 (ipykernel)", "timeout": 30_000}),
    );
    let snap = snapshot(agent);
    let card = ref_of(&snap, "button", "Python 3 (ipykernel)");
    agent.ok("browser_click", json!({"ref": card}));

    // The notebook opens with one empty code cell (its prompt `[ ]:`), its editor focused.
    agent.ok(
        "browser_wait_for",
        json!({"text": "[ ]:", "timeout": 30_000}),
    );
    let snap = snapshot(agent);
    let cell = unnamed_ref(&snap, "textbox");
    agent.ok("browser_type", json!({"ref": cell, "text": CODE}));
    agent.ok("browser_press_key", json!({"key": "Shift+Enter"}));
    // The kernel starts, runs the cell and sends its output back: the page shows it under the
    // cell.
    let waited = agent.call(
        "browser_wait_for",
        json!({"text": "answer: 42", "timeout": 30_000}),
    );
    if waited["isError"] == true {
        let (logs, _) = agent.ok("browser_get_console_logs", json!({}));
        let snap = snapshot(agent);
        panic!("no output: {}\n{logs}\n{snap}", text(&waited));
    }
    let snap = snapshot(agent);
    let lines: Vec<&str> = snap.lines().map(str::trim_start).collect();
    let at = lines
        .iter()
        .position(|l| l.starts_with(&format!("- textbox {}", json!(CODE))));
    let shown = at.and_then(|i| lines.get(i + 1));
    assert_eq!(shown, Some(&"- text: answer: 42"), "{snap}");

    // Saved with Ctrl+S; on its first save JupyterLab asks for a name.
    agent.ok("browser_press_key", json!({"key": "Control+S"}));
    agent.ok("browser_wait_for", json!({"text": "Rename file"}));
    let snap = snapshot(agent);
    agent.ok(
        "browser_type",
        json!({"ref": ref_of(&snap, "textbox", "File name"), "text": name}),
    );
    agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Rename and Save")}),
    );

    // The notebook on disk holds the cell and what it printed.
    let saved = lab.notebooks().join(name);
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let cells = cells_on_disk(&saved);
        // Shift+Enter ran the cell and added an empty one below it.
        if cells.first() == Some(&(CODE.to_string(), "answer: 42\n".to_string())) {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "{} does not hold the cell and its output: {cells:?}; the notebooks: {:?}",
            saved.display(),
            notebooks(&lab.notebooks())
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    eprintln!("the JupyterLab task took {:?}", started.elapsed());
}
