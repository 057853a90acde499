//! The packaged extension: its files embedded in the binary, its manifest, its id, and writing
//! it out (for a managed browser, or for a person to load with "Load unpacked").

use std::path::Path;

use include_dir::{Dir, include_dir};
use serde_json::Value;

use crate::shared::state;

/// The extension's files, packaged into the binary.
pub static FILES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/extension");
pub const MANIFEST: &str = include_str!("../../extension/manifest.json");

/// The identity of our extension, derived from the manifest's fixed `key`.
pub fn id() -> String {
    use base64::Engine;
    use sha2::Digest;
    let manifest: Value = serde_json::from_str(MANIFEST).expect("manifest is JSON");
    let key = manifest["key"].as_str().expect("manifest has a key");
    let der = base64::engine::general_purpose::STANDARD
        .decode(key)
        .expect("manifest key is base64");
    let digest = sha2::Sha256::digest(der);
    hex::encode(&digest[..16])
        .chars()
        .map(|c| (b'a' + c.to_digit(16).unwrap() as u8) as char)
        .collect()
}

/// Writes the extension's files into `dir`. With `managed`, also the pairing the extension reads
/// at startup (owner-only, like everything under the state dir).
pub fn write(dir: &Path, managed: Option<&Value>) -> std::io::Result<()> {
    state::ensure_private_dir(dir)?;
    write_dir(&FILES, dir)?;
    if let Some(cfg) = managed {
        state::write_private(&dir.join("managed.json"), cfg.to_string().as_bytes())?;
    }
    Ok(())
}

/// Writes a zip of the extension for a Chrome Web Store upload: every file, manifest.json at
/// the root and without `key`, which the store refuses (it gives the extension its own ID).
pub fn pack<W: std::io::Write + std::io::Seek>(out: W) -> zip::result::ZipResult<W> {
    let mut manifest: Value = serde_json::from_str(MANIFEST).expect("manifest is JSON");
    manifest
        .as_object_mut()
        .expect("the manifest is an object")
        .remove("key");
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .unix_permissions(0o644);
    let mut zip = zip::ZipWriter::new(out);
    zip.start_file("manifest.json", options)?;
    let text = serde_json::to_string_pretty(&manifest).expect("a manifest serializes");
    std::io::Write::write_all(&mut zip, text.as_bytes())?;
    let mut dirs = vec![&FILES];
    while let Some(dir) = dirs.pop() {
        for file in dir
            .files()
            .filter(|f| f.path() != Path::new("manifest.json"))
        {
            let name = file
                .path()
                .to_str()
                .expect("the extension's paths are UTF-8");
            zip.start_file(name, options)?;
            std::io::Write::write_all(&mut zip, file.contents())?;
        }
        dirs.extend(dir.dirs());
    }
    zip.finish()
}

fn write_dir(src: &Dir<'_>, dest: &Path) -> std::io::Result<()> {
    for file in src.files() {
        let path = dest.join(file.path());
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(path, file.contents())?;
    }
    for sub in src.dirs() {
        write_dir(sub, dest)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pack_holds_every_file_and_a_manifest_without_key() {
        let zip = pack(std::io::Cursor::new(Vec::new())).unwrap();
        let mut zip = zip::ZipArchive::new(zip).unwrap();
        let mut expected = Vec::new();
        let mut dirs = vec![&FILES];
        while let Some(dir) = dirs.pop() {
            expected.extend(dir.files());
            dirs.extend(dir.dirs());
        }
        assert!(expected.len() > 10, "the extension has its files");
        assert_eq!(zip.len(), expected.len());
        let read = |zip: &mut zip::ZipArchive<_>, name: &str| {
            let mut bytes = Vec::new();
            std::io::Read::read_to_end(&mut zip.by_name(name).unwrap(), &mut bytes).unwrap();
            bytes
        };
        for file in expected {
            let name = file.path().to_str().unwrap();
            if name != "manifest.json" {
                assert_eq!(read(&mut zip, name), file.contents(), "{name}");
            }
        }
        let packed: Value = serde_json::from_slice(&read(&mut zip, "manifest.json")).unwrap();
        let mut ours: Value = serde_json::from_str(MANIFEST).unwrap();
        assert!(ours.as_object_mut().unwrap().remove("key").is_some());
        assert_eq!(packed, ours);
    }

    #[test]
    fn extension_id_matches_the_manifest_key() {
        assert_eq!(id(), "cgfgpocccpkmlomijbladnekndgfclkg");
    }
}
