//! The path sandbox: files tabpilot writes, and files it reads to upload, are under the working
//! directory, `TABPILOT_WORKSPACE` or the temp directory, with symlinks and `..` resolved before
//! the check.

use std::path::{Component, Path, PathBuf};

use crate::error::{Code, ToolError};
use crate::settings::Setting;

/// The roots a written file must sit under.
pub fn roots() -> Vec<PathBuf> {
    let mut roots = vec![std::env::temp_dir()];
    if let Ok(cwd) = std::env::current_dir() {
        roots.push(cwd);
    }
    if let Some(ws) = Setting::Workspace.get_os() {
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

/// The most bytes one call may read from local files (an upload's files together).
pub const MAX_INPUT_BYTES: u64 = 10 << 20;

/// Resolves an existing file to read (relative to the working directory), symlinks and `..`
/// included, and checks that it is a regular file inside a root and under the ceiling.
/// Returns the resolved path and its size.
pub fn checked_input(path: &str, roots: &[PathBuf]) -> Result<(PathBuf, u64), ToolError> {
    if path.is_empty() {
        return Err(ToolError::bad_args("a path is empty"));
    }
    let resolved = Path::new(path)
        .canonicalize()
        .map_err(|e| ToolError::bad_args(format!("cannot open {path:?}: {e}")))?;
    if !roots.iter().any(|r| resolved.starts_with(r)) {
        let shown: Vec<String> = roots.iter().map(|r| r.display().to_string()).collect();
        return Err(ToolError::refused(
            Code::PathOutsideSandbox,
            format!("{} is outside {}", resolved.display(), shown.join(", ")),
        ));
    }
    let meta = std::fs::metadata(&resolved)
        .map_err(|e| ToolError::bad_args(format!("cannot open {path:?}: {e}")))?;
    if !meta.is_file() {
        return Err(ToolError::bad_args(format!(
            "{} is not a regular file",
            resolved.display()
        )));
    }
    if meta.len() > MAX_INPUT_BYTES {
        return Err(ToolError::bad_args(format!(
            "{} is {} bytes; the ceiling is {} MiB",
            resolved.display(),
            meta.len(),
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok((resolved, meta.len()))
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

    #[test]
    fn input_files_must_be_regular_files_inside_a_root_and_small_enough() {
        let root = temp_dir("inputs").canonicalize().unwrap();
        let outside = temp_dir("inputs-outside").canonicalize().unwrap();
        let roots = vec![root.clone()];
        std::fs::write(root.join("a.txt"), b"hello").unwrap();
        std::fs::write(outside.join("secret.txt"), b"no").unwrap();
        let (p, size) = checked_input(root.join("a.txt").to_str().unwrap(), &roots).unwrap();
        assert_eq!((p, size), (root.join("a.txt"), 5));
        let out = outside.join("secret.txt");
        let e = checked_input(out.to_str().unwrap(), &roots).unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        // `..` and symlinks are resolved before the check, so neither leads out.
        let dots = format!(
            "{}/../{}/secret.txt",
            root.display(),
            outside.file_name().unwrap().to_str().unwrap()
        );
        assert_eq!(
            checked_input(&dots, &roots).unwrap_err().code,
            Code::PathOutsideSandbox
        );
        std::os::unix::fs::symlink(&out, root.join("link.txt")).unwrap();
        let e = checked_input(root.join("link.txt").to_str().unwrap(), &roots).unwrap_err();
        assert_eq!(e.code, Code::PathOutsideSandbox);
        let e = checked_input(root.to_str().unwrap(), &roots).unwrap_err();
        assert!(e.message.contains("not a regular file"), "{}", e.message);
        assert_eq!(
            checked_input(root.join("none").to_str().unwrap(), &roots)
                .unwrap_err()
                .code,
            Code::BadArgs
        );
        let big = std::fs::File::create(root.join("big.bin")).unwrap();
        big.set_len(MAX_INPUT_BYTES + 1).unwrap();
        let e = checked_input(root.join("big.bin").to_str().unwrap(), &roots).unwrap_err();
        assert!(e.message.contains("ceiling"), "{}", e.message);
    }
}
