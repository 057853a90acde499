//! The managed profile's download preferences, written before each launch: files land in
//! `downloads/` under tabpilot's temp folder, which is inside the path sandbox (so a tool that
//! reads files can take a downloaded one), with no Save As prompt (a headless browser has no one
//! to answer it, and a download would wait forever).

use std::path::{Path, PathBuf};

use serde_json::{Value, json};

/// Where a managed browser's downloads go.
pub(super) fn download_dir() -> Result<PathBuf, String> {
    Ok(crate::policy::paths::temp_folder()?.join("downloads"))
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
    let download = prefs
        .as_object_mut()
        .expect("an object")
        .entry("download")
        .or_insert_with(|| json!({}));
    if !download.is_object() {
        *download = json!({});
    }
    let download = download.as_object_mut().expect("an object");
    download.insert("default_directory".into(), json!(downloads));
    download.insert("prompt_for_download".into(), json!(false));
    download.insert("directory_upgrade".into(), json!(true));
    std::fs::write(&file, serde_json::to_vec(&prefs)?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_download_preferences_are_set_and_the_rest_kept() {
        let data = crate::state::test_support::temp_dir("prefs");
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
