//! Commands shown to the person, in their platform's shell: a POSIX shell on Linux and macOS,
//! PowerShell on Windows.

/// The command that sets the environment variable `name` to the contents of the file `path`
/// where the person's clients will see it: a line for the shell's startup file on Unix (`path`
/// as the caller quoted it); on Windows the user's environment, which programs started
/// afterwards read (`path` put in single quotes unless it is already: a profile folder's name
/// may hold spaces).
pub fn set_from_file(name: &str, path: &str) -> String {
    if cfg!(windows) {
        let path = if path.starts_with('\'') {
            path.to_string()
        } else {
            format!("'{}'", path.replace('\'', "''"))
        };
        format!(
            "[Environment]::SetEnvironmentVariable('{name}', (Get-Content -Raw {path}).Trim(), \
             'User')"
        )
    } else {
        format!("export {name}=\"$(cat {path})\"")
    }
}
