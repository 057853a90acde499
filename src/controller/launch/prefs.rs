//! The managed profile's download preferences, written before each launch: files land in
//! `downloads/` under tabpilot's temp folder, which is inside the path sandbox (so a tool that
//! reads files can take a downloaded one), with no Save As prompt (a headless browser has no one
//! to answer it, and a download would wait forever), and a page may download more than one file
//! (Chrome otherwise asks the person before a site's second download without a gesture, and an
//! agent's clicks are not gestures: the second export would never come).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// Where a managed browser's downloads go.
pub(super) fn download_dir() -> Result<PathBuf, String> {
    Ok(crate::controller::policy::paths::temp_folder()?.join("downloads"))
}

/// Sets the download directory and turns the prompt off in the profile under `data_dir`, keeping
/// every other preference Chromium wrote there.
pub(super) fn write_download_prefs(data_dir: &Path, downloads: &Path) -> std::io::Result<()> {
    std::fs::create_dir_all(downloads)?;
    let dir = data_dir.join("Default");
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("Preferences");
    let mut prefs: Value = std::fs::read(&file)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
        .filter(Value::is_object)
        .unwrap_or_else(|| json!({}));
    let download = object_at(&mut prefs, &["download"]);
    download.insert("default_directory".into(), json!(downloads));
    download.insert("prompt_for_download".into(), json!(false));
    download.insert("directory_upgrade".into(), json!(true));
    object_at(&mut prefs, &["profile", "default_content_setting_values"])
        .insert("automatic_downloads".into(), json!(1));
    std::fs::write(&file, serde_json::to_vec(&prefs)?)
}

/// The object at `path` in `value`, made (in place of anything else) where missing.
fn object_at<'a>(value: &'a mut Value, path: &[&str]) -> &'a mut serde_json::Map<String, Value> {
    let mut at = value;
    for key in path {
        if !at.is_object() {
            *at = json!({});
        }
        at = at
            .as_object_mut()
            .expect("an object")
            .entry(*key)
            .or_insert_with(|| json!({}));
    }
    if !at.is_object() {
        *at = json!({});
    }
    at.as_object_mut().expect("an object")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_download_preferences_are_set_and_the_rest_kept() {
        let data = crate::shared::state::test_support::temp_dir("prefs");
        std::fs::create_dir_all(data.join("Default")).unwrap();
        std::fs::write(
            data.join("Default/Preferences"),
            r#"{"profile":{"name":"x"},"download":{"prompt_for_download":true,"extensions_to_open":""}}"#,
        )
        .unwrap();
        let downloads = data.join("dl");
        write_download_prefs(&data, &downloads).unwrap();
        let prefs: Value =
            serde_json::from_slice(&std::fs::read(data.join("Default/Preferences")).unwrap())
                .unwrap();
        assert_eq!(prefs["profile"]["name"], "x");
        assert_eq!(
            prefs["profile"]["default_content_setting_values"]["automatic_downloads"],
            1
        );
        assert_eq!(prefs["download"]["prompt_for_download"], false);
        assert_eq!(prefs["download"]["extensions_to_open"], "");
        assert_eq!(
            prefs["download"]["default_directory"],
            json!(downloads.to_str().unwrap())
        );
        assert!(downloads.is_dir());
        let _ = std::fs::remove_dir_all(data);
    }
}
