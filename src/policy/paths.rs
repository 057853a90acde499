//! The path sandbox: files tabpilot writes go under the working directory, `TABPILOT_WORKSPACE`
//! or the temp directory, with symlinks and `..` resolved before the check.

use std::path::{Component, Path, PathBuf};

use crate::error::{Code, ToolError};

/// The roots a written file must sit under.
pub fn roots() -> Vec<PathBuf> {
    let mut roots = vec![std::env::temp_dir()];
    if let Ok(cwd) = std::env::current_dir() {
        roots.push(cwd);
    }
    if let Some(ws) = std::env::var_os("TABPILOT_WORKSPACE") {
        roots.push(PathBuf::from(ws));
    }
    roots
        .into_iter()
        .filter_map(|r| r.canonicalize().ok())
        .collect()
}

/// Resolves `path` (relative to the working directory) and checks it is inside a root.
/// The file need not exist; its parent directory must.
pub fn checked_output(path: &str, roots: &[PathBuf]) -> Result<PathBuf, ToolError> {
    let raw = Path::new(path);
    if path.is_empty() || raw.components().any(|c| matches!(c, Component::ParentDir)) {
        return Err(ToolError::refused(
            Code::PathOutsideSandbox,
            format!("{path:?} is empty or uses `..`"),
        ));
    }
    let abs = std::env::current_dir()
        .map(|d| d.join(raw))
        .unwrap_or_else(|_| raw.to_path_buf());
    let (parent, file) = match (abs.parent(), abs.file_name()) {
        (Some(p), Some(f)) => (p, f),
        _ => {
            return Err(ToolError::bad_args(format!(
                "{path:?} does not name a file"
            )));
        }
    };
    let parent = parent
        .canonicalize()
        .map_err(|e| ToolError::bad_args(format!("the folder of {path:?} does not exist: {e}")))?;
    let resolved = parent.join(file);
    if resolved.is_symlink() {
        return Err(ToolError::refused(
            Code::PathOutsideSandbox,
            format!("{path:?} is a symlink"),
        ));
    }
    if roots.iter().any(|r| resolved.starts_with(r)) {
        Ok(resolved)
    } else {
        let shown: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        Err(ToolError::refused(
            Code::PathOutsideSandbox,
            format!("{} is outside {}", resolved.display(), shown.join(", ")),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::state::test_support::temp_dir;

    #[test]
    fn paths_inside_a_root_pass_and_escapes_are_refused() {
        let root = temp_dir("sandbox").canonicalize().unwrap();
        let outside = temp_dir("outside").canonicalize().unwrap();
        let roots = vec![root.clone()];
        let ok = checked_output(root.join("shot.png").to_str().unwrap(), &roots).unwrap();
        assert_eq!(ok, root.join("shot.png"));
        let e = checked_output(outside.join("x.png").to_str().unwrap(), &roots).unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        let dots = format!("{}/../x.png", root.display());
        assert_eq!(
            checked_output(&dots, &roots).unwrap_err().code,
            Code::PathOutsideSandbox
        );
        std::os::unix::fs::symlink(&outside, root.join("link")).unwrap();
        let through =
            checked_output(root.join("link/x.png").to_str().unwrap(), &roots).unwrap_err();
        assert_eq!(through.code, Code::PathOutsideSandbox);
    }
}
