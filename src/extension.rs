//! The packaged extension: its files embedded in the binary, its manifest, its id, and writing
//! it out (for a managed browser, or for a person to load with "Load unpacked").

use std::path::Path;

use include_dir::{Dir, include_dir};
use serde_json::Value;

use crate::state;

/// The extension's files, packaged into the binary.
pub static FILES: Dir<'static> = include_dir!("$CARGO_MANIFEST_DIR/extension");
pub const MANIFEST: &str = include_str!("../extension/manifest.json");

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
    fn extension_id_matches_the_manifest_key() {
        assert_eq!(id(), "cgfgpocccpkmlomijbladnekndgfclkg");
    }
}
