//! browser_upload_file: local files from inside the path sandbox, set on a file input without
//! the debugger.

use std::path::{Path, PathBuf};

use base64::Engine;
use futures::FutureExt;
use schemars::JsonSchema;
use serde::Deserialize;

use super::{ActionOut, secret};
use crate::controller::policy::paths::{self, Sandbox};
use crate::controller::tools::args::{AfterAction, Wait, hints_of, ref_arg, timeout};
use crate::controller::tools::ctx::Ctx;
use crate::controller::tools::spec::{Keeps, Out};
use crate::controller::tools::tool::{About, Tool};
use crate::shared::error::ToolError;
use crate::shared::protocol::Op;
use crate::shared::protocol::wire::act::{
    ActReply, SecretFill, Upload, UploadFile, UploadPart, Uploaded,
};

const MAX_UPLOAD_FILES: usize = 20;

pub(super) fn tool() -> Tool {
    super::super::after::acting(
        About {
            name: "browser_upload_file",
            description: "Set local files on a file input.",
            hints: hints_of(Op::Upload),
            keeps: Keeps {
                files: Some("paths"),
                ..Keeps::default()
            },
            ..About::default()
        },
        |cx, a, after| upload(cx, a, after).boxed(),
    )
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct UploadArgs {
    /// A file input's ref.
    #[serde(rename = "ref")]
    reference: String,
    /// Local files inside the path sandbox.
    #[serde(default)]
    paths: Vec<String>,
    /// Files the person registered, by name.
    #[serde(default)]
    registered: Vec<String>,
    element: Option<String>,
    timeout: Option<u64>,
}

async fn upload(
    cx: &Ctx,
    a: UploadArgs,
    after: &AfterAction,
) -> Result<Out<ActionOut<Uploaded>>, ToolError> {
    ref_arg(&a.reference)?;
    let count = a.paths.len() + a.registered.len();
    if count == 0 || count > MAX_UPLOAD_FILES {
        return Err(ToolError::bad_args(format!(
            "paths and registered take 1 to {MAX_UPLOAD_FILES} files in all"
        )));
    }
    let wait = timeout(a.timeout)?;
    let (mut registered, mut secrets) = (Vec::new(), Vec::new());
    for name in &a.registered {
        let (path, fill) = secret::file(name).await?;
        registered.push(path);
        secrets.push(fill);
    }
    // Up to 10 MiB read and encoded: off the async runtime's workers.
    let paths = a.paths.clone();
    let sandbox = cx.sandbox().await;
    let files = crate::shared::blocking::run("reading the files", move || {
        read_uploads(&paths, &registered, &sandbox)
    })
    .await?;
    let r = send_files(cx, &a.reference, files, secrets, after, wait).await?;
    let names: Vec<String> = r
        .own
        .files
        .iter()
        .map(|f| format!("{} ({} bytes)", f.name, f.size))
        .collect();
    let head = format!("Set {} on {}", names.join(", "), r.act.named(&a.element));
    Ok(r.output(head))
}

/// Sends the files to the page and sets them on the input. A controller frame is at most 1 MiB,
/// so bigger uploads go ahead in parts that the page holds until the last call.
async fn send_files(
    cx: &Ctx,
    reference: &str,
    files: Vec<Picked>,
    secrets: Vec<SecretFill>,
    after: &AfterAction,
    wait: Wait,
) -> Result<ActReply<Uploaded>, ToolError> {
    let total: usize = files.iter().map(|f| f.data.len()).sum();
    let mut listed = Vec::new();
    let token = format!(
        "{:x}",
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos())
    );
    for (i, f) in files.into_iter().enumerate() {
        if total <= UPLOAD_PART {
            listed.push(UploadFile {
                name: f.name,
                mime: f.mime,
                data: Some(f.data),
            });
            continue;
        }
        for part in f.data.as_bytes().chunks(UPLOAD_PART) {
            let part = std::str::from_utf8(part).expect("base64 is ASCII");
            let call = UploadPart {
                reference: reference.to_string(),
                upload: token.clone(),
                file: i,
                data: part.to_string(),
            };
            cx.run(call).within(wait).await?;
        }
        listed.push(UploadFile {
            name: f.name,
            mime: f.mime,
            data: None,
        });
    }
    let call = Upload {
        reference: reference.to_string(),
        upload: token,
        files: listed,
        after: after.wire(),
        secrets,
    };
    cx.run(call).within(wait).await
}

struct Picked {
    name: String,
    mime: &'static str,
    /// The bytes as base64.
    data: String,
}

/// Base64 characters per call, well inside a controller frame.
const UPLOAD_PART: usize = 768 << 10;

/// Reads the files to upload, those named by path after the sandbox check and those a person
/// registered wherever they are: name, type and bytes (base64) for each, within one ceiling for
/// the call.
fn read_uploads(
    list: &[String],
    registered: &[PathBuf],
    sandbox: &Sandbox,
) -> Result<Vec<Picked>, ToolError> {
    let mut total = 0u64;
    let mut checked = Vec::new();
    let named = list.iter().map(|p| sandbox.input(p));
    for found in named.chain(registered.iter().map(|p| registered_file(p))) {
        let (path, size) = found?;
        total += size;
        if total > paths::MAX_INPUT_BYTES {
            return Err(ToolError::bad_args(format!(
                "the files come to more than {} MiB, the ceiling for one upload",
                paths::MAX_INPUT_BYTES >> 20
            )));
        }
        checked.push(path);
    }
    let b64 = base64::engine::general_purpose::STANDARD;
    checked
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path)
                .map_err(|e| ToolError::bad_args(format!("cannot read {}: {e}", path.display())))?;
            let name = path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            Ok(Picked {
                mime: mime_of(&name),
                name,
                data: b64.encode(bytes),
            })
        })
        .collect()
}

/// A registered file as the person left it: a regular file, and its size.
fn registered_file(path: &Path) -> Result<(PathBuf, u64), ToolError> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok((path.to_path_buf(), m.len())),
        Ok(_) => Err(ToolError::bad_args(format!(
            "the registered file {} is not a regular file",
            path.display()
        ))),
        Err(e) => Err(ToolError::bad_args(format!(
            "cannot read the registered file {}: {e}",
            path.display()
        ))),
    }
}

fn mime_of(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "txt" | "log" | "md" => "text/plain",
        "csv" => "text/csv",
        "html" | "htm" => "text/html",
        "json" => "application/json",
        "xml" => "application/xml",
        "pdf" => "application/pdf",
        "zip" => "application/zip",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "webp" => "image/webp",
        "svg" => "image/svg+xml",
        _ => "application/octet-stream",
    }
}
