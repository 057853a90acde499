//! A real JupyterLab (from the venv `.ci/run` installs, its kernel the venv's ipykernel) driven
//! through the MCP tools only, with a client's defaults, as an agent would: a notebook made from
//! the launcher, code typed into its cell, run, its output read from the page, the notebook
//! saved; the `.ipynb` on disk holds the cell's source and its output.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::harness::{Mcp, shared};
use crate::pyapps::jupyter;
use crate::snapshot::ref_of;

fn snapshot(agent: &mut Mcp) -> String {
    let (_, data) = agent.ok("browser_snapshot", json!({}));
    data["snapshot"].as_str().unwrap().to_string()
}

/// The notebooks in `dir` other than those in `before`.
fn new_notebooks(dir: &Path, before: &[PathBuf]) -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "ipynb") && !before.contains(p))
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

#[test]
fn a_jupyterlab_notebook_made_from_the_launcher_runs_typed_code_and_saves_it_with_its_output() {
    let lab = jupyter();
    let s = shared();
    let mut agent = s.agent();
    let started = Instant::now();
    let before = new_notebooks(&lab.notebooks(), &[]);
    agent.ok("browser_navigate", json!({"url": lab.lab_url()}));
    // JupyterLab loads its extensions behind a splash screen, then shows the launcher.
    agent.ok(
        "browser_wait_for",
        json!({"text": "Python 3 (ipykernel)", "timeout": 30_000}),
    );
    let snap = snapshot(&mut agent);
    eprintln!("launcher after {:?}:\n{snap}", started.elapsed());
    let card = ref_of(&snap, "button", "Python 3 (ipykernel)");
    agent.ok("browser_click", json!({"ref": card}));

    // The notebook opens with one empty code cell, its editor focused.
    agent.ok(
        "browser_wait_for",
        json!({"text": "Untitled", "timeout": 30_000}),
    );
    let snap = snapshot(&mut agent);
    eprintln!("notebook after {:?}:\n{snap}", started.elapsed());
    let cell = ref_of(&snap, "textbox", "");
    let (said, _) = agent.ok("browser_type", json!({"ref": cell, "text": "print(6*7)"}));
    eprintln!("{said}");
    let (said, _) = agent.ok("browser_press_key", json!({"key": "Shift+Enter"}));
    eprintln!("{said}");
    agent.ok("browser_wait_for", json!({"text": "42", "timeout": 30_000}));
    let (said, _) = agent.ok("browser_press_key", json!({"key": "Control+S"}));
    eprintln!("{said}");

    // Saved: the notebook on disk holds the cell and what it printed.
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        let made = new_notebooks(&lab.notebooks(), &before);
        let cells: Vec<_> = made.iter().flat_map(|p| cells_on_disk(p)).collect();
        if cells
            .iter()
            .any(|(src, out)| src == "print(6*7)" && out == "42\n")
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "no saved notebook holds the cell and its output: {made:?} {cells:?}"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    eprintln!("the JupyterLab task took {:?}", started.elapsed());
}
