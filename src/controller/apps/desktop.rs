//! The applications installed on this machine, as the freedesktop desktop entries describe them,
//! and launching one with its own `Exec` line: field codes expanded, no shell.
//!
//! A small parser of our own: only the `[Desktop Entry]` group's unlocalized keys matter here, and
//! the Exec grammar (quoting, escapes, field codes) is a page of the spec.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::shared::error::ToolError;

/// One application's entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The desktop file id without `.desktop` (`org.gnome.Calculator`).
    pub id: String,
    pub name: String,
    pub generic_name: Option<String>,
    pub categories: Vec<String>,
    pub exec: String,
    pub icon: Option<String>,
    /// Launchable by id, left out of the list (`NoDisplay=true`).
    pub hidden: bool,
    /// The file it was read from (`%k`).
    pub path: PathBuf,
}

/// Where desktop entries live, most important first: `$XDG_DATA_HOME`, then `$XDG_DATA_DIRS`.
fn data_dirs() -> Vec<PathBuf> {
    let home = std::env::var_os("XDG_DATA_HOME")
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".local/share")));
    let dirs = std::env::var("XDG_DATA_DIRS")
        .ok()
        .filter(|v| !v.is_empty())
        .unwrap_or_else(|| "/usr/local/share:/usr/share".into());
    home.into_iter()
        .chain(dirs.split(':').filter(|d| !d.is_empty()).map(PathBuf::from))
        .map(|d| d.join("applications"))
        .collect()
}

/// Most entry files read from one directory tree (a bound on a hostile data dir).
const MAX_FILES: usize = 5000;

/// Every application entry, by id; an id found in an earlier directory hides later ones, and an
/// entry marked `Hidden` hides the id altogether (the spec's way to delete one). A scan of up to
/// `MAX_FILES` files a directory, so it runs through `shared::blocking`, off the async workers.
pub async fn entries() -> Result<Vec<Entry>, ToolError> {
    crate::shared::blocking::call("reading the desktop entries", scan).await
}

/// The scan itself, which blocks: `entries` runs it for async code.
fn scan() -> Vec<Entry> {
    let mut seen: HashMap<String, Option<Entry>> = HashMap::new();
    for dir in data_dirs() {
        let mut files = Vec::new();
        collect(&dir, &dir, &mut files);
        for (id, path) in files {
            if seen.contains_key(&id) {
                continue;
            }
            let entry = std::fs::read_to_string(&path)
                .ok()
                .and_then(|text| parse(&id, &path, &text));
            seen.insert(id, entry.flatten());
        }
    }
    let mut all: Vec<Entry> = seen.into_values().flatten().collect();
    all.sort_by_key(|a| a.name.to_lowercase());
    all
}

/// One entry by id (`org.gnome.Calculator` or with `.desktop`), from a scan as `entries`.
pub async fn find(id: &str) -> Result<Option<Entry>, ToolError> {
    let id = id.strip_suffix(".desktop").unwrap_or(id);
    Ok(entries().await?.into_iter().find(|e| e.id == id))
}

/// The `.desktop` files under `dir`, each with its id: its path below `root`, `/` as `-`.
fn collect(root: &Path, dir: &Path, out: &mut Vec<(String, PathBuf)>) {
    let Ok(read) = std::fs::read_dir(dir) else {
        return;
    };
    for item in read.flatten() {
        if out.len() >= MAX_FILES {
            return;
        }
        let path = item.path();
        let Ok(kind) = item.file_type() else { continue };
        if kind.is_dir() {
            collect(root, &path, out);
        } else if let Some(rel) = path
            .strip_prefix(root)
            .ok()
            .and_then(|r| r.to_str())
            .and_then(|r| r.strip_suffix(".desktop"))
        {
            out.push((rel.replace('/', "-"), path.clone()));
        }
    }
}

/// The entry a file describes: None when it is not an application; Some(None) when it hides the
/// id (`Hidden=true`).
fn parse(id: &str, path: &Path, text: &str) -> Option<Option<Entry>> {
    let mut keys: HashMap<&str, String> = HashMap::new();
    let mut in_entry = false;
    for line in text.lines().map(str::trim) {
        if line.starts_with('[') {
            in_entry = line == "[Desktop Entry]";
        } else if in_entry && let Some((k, v)) = line.split_once('=') {
            keys.entry(k.trim()).or_insert_with(|| unescape(v.trim()));
        }
    }
    let yes = |k: &str| keys.get(k).is_some_and(|v| v == "true");
    if yes("Hidden") {
        return Some(None);
    }
    if keys.get("Type").map(String::as_str) != Some("Application") {
        return None;
    }
    Some(Some(Entry {
        id: id.to_string(),
        name: keys.get("Name")?.clone(),
        generic_name: keys.get("GenericName").cloned(),
        categories: keys
            .get("Categories")
            .map(|c| {
                c.split(';')
                    .filter(|s| !s.is_empty())
                    .map(String::from)
                    .collect()
            })
            .unwrap_or_default(),
        exec: keys.get("Exec")?.clone(),
        icon: keys.get("Icon").cloned(),
        hidden: yes("NoDisplay"),
        path: path.to_path_buf(),
    }))
}

/// A string value's escapes (`\s`, `\n`, `\t`, `\r`, `\\`); others are kept for the Exec parser.
fn unescape(v: &str) -> String {
    let mut out = String::with_capacity(v.len());
    let mut chars = v.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('s') => out.push(' '),
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

/// The Exec line's words: spaces separate them, a double-quoted word keeps its spaces, and in
/// it `\"`, `` \` ``, `\$` and `\\` stand for the character.
fn words(exec: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut started = false;
    let mut chars = exec.chars();
    while let Some(c) = chars.next() {
        match c {
            ' ' | '\t' => {
                if started {
                    out.push(std::mem::take(&mut word));
                    started = false;
                }
            }
            '"' => {
                started = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(e @ ('"' | '`' | '$' | '\\')) => word.push(e),
                            Some(e) => {
                                word.push('\\');
                                word.push(e);
                            }
                            None => return Err("ends inside an escape".into()),
                        },
                        Some(ch) => word.push(ch),
                        None => return Err("a quote is not closed".into()),
                    }
                }
            }
            ch => {
                started = true;
                word.push(ch);
            }
        }
    }
    if started {
        out.push(word);
    }
    Ok(out)
}

/// The command line an entry runs for these files and URLs. `%f` and `%u` take one, `%F` and
/// `%U` all; `%u`/`%U` take files too (as paths); `%i` is `--icon NAME`, `%c` the name, `%k` the
/// entry's file. Files or URLs the line has no place for are refused rather than dropped.
pub fn command_line(
    e: &Entry,
    files: &[String],
    urls: &[String],
) -> Result<Vec<String>, ToolError> {
    let bad = |why: String| ToolError::bad_args(format!("{}: {why}", e.id));
    let mut argv = Vec::new();
    let mut took_files = false;
    let mut took_urls = false;
    let both: Vec<String> = files.iter().chain(urls).cloned().collect();
    for word in words(&e.exec).map_err(|w| bad(format!("its Exec line {w}")))? {
        match word.as_str() {
            "%F" => {
                argv.extend(files.iter().cloned());
                took_files = true;
            }
            "%U" => {
                argv.extend(both.iter().cloned());
                (took_files, took_urls) = (true, true);
            }
            "%i" => argv.extend(e.icon.iter().flat_map(|i| ["--icon".into(), i.clone()])),
            _ => {
                let (expanded, used) = expand(&word, e, files, urls)?;
                took_files |= used.0;
                took_urls |= used.1;
                argv.extend(expanded);
            }
        }
    }
    if !files.is_empty() && !took_files {
        return Err(bad("its Exec line takes no files".into()));
    }
    if !urls.is_empty() && !took_urls {
        return Err(bad("its Exec line takes no URLs".into()));
    }
    if argv.is_empty() {
        return Err(bad("its Exec line is empty".into()));
    }
    Ok(argv)
}

/// One word with its inline field codes expanded; None when it expands to nothing (a `%f` with
/// no file). Says whether it took the files and the URLs.
fn expand(
    word: &str,
    e: &Entry,
    files: &[String],
    urls: &[String],
) -> Result<(Option<String>, (bool, bool)), ToolError> {
    let one = |list: &[String], what: &str| match list {
        [] => Ok(None),
        [only] => Ok(Some(only.clone())),
        _ => Err(ToolError::bad_args(format!(
            "{}: its Exec line takes one {what}, and {} were given",
            e.id,
            list.len()
        ))),
    };
    let mut out = String::new();
    let mut used = (false, false);
    let mut empty = false;
    let mut chars = word.chars();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        let put = match chars.next() {
            Some('%') => Some("%".to_string()),
            Some('f') => {
                used.0 = true;
                one(files, "file")?
            }
            // A %u takes a file as its path, or a URL; not both (that needs %U).
            Some('u') => {
                used = (true, true);
                match (files, urls) {
                    ([], _) => one(urls, "URL")?,
                    (_, []) => one(files, "file")?,
                    _ => one(&[files, urls].concat(), "file or URL")?,
                }
            }
            Some('c') => Some(e.name.clone()),
            Some('k') => Some(e.path.display().to_string()),
            // Deprecated codes (%d %D %n %N %v %m) and unknown ones expand to nothing.
            _ => Some(String::new()),
        };
        match put {
            Some(text) => out.push_str(&text),
            None => empty = true,
        }
    }
    Ok(((!empty || !out.is_empty()).then_some(out), used))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(exec: &str) -> Entry {
        Entry {
            id: "t".into(),
            name: "Test App".into(),
            generic_name: None,
            categories: vec![],
            exec: exec.into(),
            icon: Some("ticon".into()),
            hidden: false,
            path: "/x/t.desktop".into(),
        }
    }

    fn line(exec: &str, files: &[&str], urls: &[&str]) -> Result<Vec<String>, ToolError> {
        let owned = |l: &[&str]| l.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        command_line(&entry(exec), &owned(files), &owned(urls))
    }

    #[test]
    fn field_codes_expand_and_quotes_keep_their_spaces_with_no_shell() {
        assert_eq!(
            line(r#"app "--title=a b" %F %i %c"#, &["/a", "/b c"], &[]).unwrap(),
            [
                "app",
                "--title=a b",
                "/a",
                "/b c",
                "--icon",
                "ticon",
                "Test App"
            ]
        );
        assert_eq!(
            line("app %u", &[], &["https://x"]).unwrap(),
            ["app", "https://x"]
        );
        assert_eq!(
            line("app %U", &["/f"], &["https://x"]).unwrap(),
            ["app", "/f", "https://x"]
        );
        assert_eq!(line("app %f", &[], &[]).unwrap(), ["app"]);
        assert_eq!(
            line("app --k=%k 100%%", &[], &[]).unwrap(),
            ["app", "--k=/x/t.desktop", "100%"]
        );
        // What a shell would read is one plain word here.
        assert_eq!(
            line(r#"sh "-c" "echo \$HOME; \`id\`""#, &[], &[]).unwrap(),
            ["sh", "-c", "echo $HOME; `id`"]
        );
    }

    #[test]
    fn files_or_urls_the_line_has_no_place_for_are_refused() {
        assert!(line("app", &["/a"], &[]).is_err());
        assert!(line("app %f", &[], &["https://x"]).is_err());
        assert!(line("app %f", &["/a", "/b"], &[]).is_err());
        assert!(line(r#"app "open"#, &[], &[]).is_err());
    }

    #[test]
    fn an_entry_is_read_from_its_group_and_hidden_ones_hide_their_id() {
        let text = "[Desktop Entry]\nType=Application\nName=Calc\nName[de]=Rechner\n\
                    GenericName=Calculator\nCategories=Utility;Math;\nExec=calc\\s%U\n\
                    [Desktop Action new]\nName=Other\nExec=other\n";
        let e = parse("calc", Path::new("/c.desktop"), text)
            .unwrap()
            .unwrap();
        assert_eq!((e.name.as_str(), e.exec.as_str()), ("Calc", "calc %U"));
        assert_eq!(e.categories, ["Utility", "Math"]);
        assert_eq!(e.generic_name.as_deref(), Some("Calculator"));
        let hidden = "[Desktop Entry]\nType=Application\nName=X\nExec=x\nHidden=true\n";
        assert_eq!(parse("x", Path::new("/x"), hidden), Some(None));
        let link = "[Desktop Entry]\nType=Link\nName=X\nURL=https://x\n";
        assert_eq!(parse("x", Path::new("/x"), link), None);
    }
}
