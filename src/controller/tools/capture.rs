//! browser_screenshot: the agent's viewport, one element, or the full page; inline (shrunk to
//! fit) or to a file (full size).

use futures::FutureExt;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::args::{read_only, ref_arg};
use super::ctx::Ctx;
use super::image::{self as shot, Shrunk};
use super::spec::{Cli, Image, Out, Tier};
use super::tool::{About, Tool};
use crate::controller::policy::paths::OutputFile;
use crate::shared::error::ToolError;
use crate::shared::protocol::wire::page::Screenshot;
use crate::shared::settings::Setting;

#[derive(Deserialize, JsonSchema, Clone, Copy, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Format {
    Png,
    Jpeg,
    Webp,
}

impl Format {
    fn name(self) -> &'static str {
        match self {
            Format::Png => "png",
            Format::Jpeg => "jpeg",
            Format::Webp => "webp",
        }
    }

    fn image(self) -> image::ImageFormat {
        match self {
            Format::Png => image::ImageFormat::Png,
            Format::Jpeg => image::ImageFormat::Jpeg,
            Format::Webp => image::ImageFormat::WebP,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct ScreenshotArgs {
    /// png (default), jpeg or webp.
    format: Option<Format>,
    /// jpeg or webp quality 1-100.
    quality: Option<u8>,
    /// Just this element, scrolled into view.
    #[serde(rename = "ref")]
    reference: Option<String>,
    element: Option<String>,
    /// The whole page (debugger).
    full_page: Option<bool>,
    /// Write the full-size image here instead of returning it.
    file_path: Option<String>,
}

pub(super) fn tools() -> Vec<Tool> {
    vec![Tool::new(
        About {
            name: "browser_screenshot",
            description: "Image of your viewport, an element (ref) or the full page; inline within 1536x4096, or full size to filePath.",
            hints: read_only(),
            cli: Cli {
                positional: &["filePath"],
                ..Cli::default()
            },
            tier: Tier::Core,
            ..About::default()
        },
        |cx, a| screenshot(cx, a).boxed(),
    )]
}

#[derive(Serialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
struct ShotOut {
    width: u32,
    height: u32,
    format: &'static str,
    /// The debugger was attached for the capture (Chrome showed its banner).
    debugger: bool,
    /// The size before it was shrunk to fit inline.
    #[serde(skip_serializing_if = "Option::is_none")]
    shrunk_from: Option<[u32; 2]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    viewport: Option<Value>,
    #[serde(skip_serializing_if = "Option::is_none")]
    file_path: Option<String>,
}

/// The capture the arguments ask for, checked before anything is sent.
fn capture_of(a: &ScreenshotArgs) -> Result<(Format, Screenshot), ToolError> {
    let format = a.format.unwrap_or(Format::Png);
    if a.quality.is_some_and(|q| q == 0 || q > 100)
        || (a.quality.is_some() && format == Format::Png)
    {
        return Err(ToolError::bad_args("quality is 1-100, for jpeg and webp"));
    }
    let full_page = a.full_page.unwrap_or(false);
    if full_page && a.reference.is_some() {
        return Err(ToolError::bad_args("give ref or fullPage, not both"));
    }
    if let Some(r) = &a.reference {
        ref_arg(r)?;
    }
    let call = Screenshot {
        format: format.name(),
        quality: a.quality,
        reference: a.reference.clone(),
        full_page,
    };
    Ok((format, call))
}

/// What the result adds about how the capture was taken: the page cut, the debugger's banner.
fn notes_of(r: &crate::shared::protocol::wire::page::CaptureReply) -> String {
    let mut notes = String::new();
    if r.cut {
        notes.push_str("; the page was cut at 8192 CSS px tall");
    }
    if r.debugger {
        notes.push_str(
            "; the debugger was attached for this capture (Chrome shows its banner while attached)",
        );
    }
    notes
}

async fn screenshot(cx: &Ctx, a: ScreenshotArgs) -> Result<Out<ShotOut>, ToolError> {
    let (format, call) = capture_of(&a)?;
    let full_page = call.full_page;
    let file = match a.file_path.as_deref() {
        Some(p) => Some(cx.sandbox().await.output(p)?),
        None => None,
    };
    let mut r = cx.run(call).await?;
    let (data, rect, image) = (std::mem::take(&mut r.data), r.rect, format.image());
    let vw = r
        .viewport
        .as_ref()
        .and_then(|v| v["width"].as_f64())
        .unwrap_or(1.0);
    let bytes = crate::shared::blocking::run("decoding the capture", move || {
        let bytes = shot::decode_base64(&data)?;
        match rect {
            Some(css) => shot::crop(&bytes, css, vw, image),
            None => Ok(bytes),
        }
    })
    .await?;
    let what = match (&a.reference, full_page) {
        (Some(_), _) => format!("of {}", a.element.as_deref().unwrap_or("the element")),
        (None, true) => "of the full page".to_string(),
        (None, false) => "of the viewport".to_string(),
    };
    let taken = Taken {
        name: format.name(),
        image,
        what,
        notes: notes_of(&r),
        debugger: r.debugger,
    };
    match file {
        Some(file) => saved(taken, bytes, file).await,
        None => inline(taken, bytes, r.viewport).await,
    }
}

/// A capture taken, as the result says it.
struct Taken {
    name: &'static str,
    image: image::ImageFormat,
    what: String,
    notes: String,
    debugger: bool,
}

/// The capture written whole to the file the caller named.
async fn saved(taken: Taken, bytes: Vec<u8>, file: OutputFile) -> Result<Out<ShotOut>, ToolError> {
    let (width, height, path) = crate::shared::blocking::run("writing the screenshot", move || {
        let (width, height) = shot::dimensions(&bytes)?;
        Ok((width, height, file.write(&bytes)?))
    })
    .await?;
    let Taken {
        name,
        what,
        notes,
        debugger,
        ..
    } = taken;
    let text = format!(
        "Saved a {width}x{height} {name} screenshot {what} to {}{notes}",
        path.display()
    );
    let data = ShotOut {
        width,
        height,
        format: name,
        debugger,
        shrunk_from: None,
        viewport: None,
        file_path: Some(path.display().to_string()),
    };
    Ok(Out::new(text, data))
}

/// The capture in the result, shrunk to fit what a model reads inline.
async fn inline(
    taken: Taken,
    bytes: Vec<u8>,
    viewport: Option<Value>,
) -> Result<Out<ShotOut>, ToolError> {
    let image = taken.image;
    let max = shot::Ceiling::from_env()?;
    let (encoded, shrunk) = crate::shared::blocking::run("shrinking the capture", move || {
        let shrunk = shot::fit_inline(bytes, image, max)?;
        Ok((shot::encode_base64(&shrunk.bytes), shrunk))
    })
    .await?;
    let Shrunk {
        width,
        height,
        from,
        ..
    } = shrunk;
    let name = taken.name;
    let mut text = format!("Screenshot {}, {width}x{height} {name}", taken.what);
    if let Some((w, h)) = from {
        text.push_str(&format!(
            " (shrunk from {w}x{h} to fit {}x{}, {}; use filePath for full size)",
            max.width,
            max.height,
            Setting::ScreenshotMax
        ));
    }
    text.push_str(&taken.notes);
    let data = ShotOut {
        width,
        height,
        format: name,
        debugger: taken.debugger,
        shrunk_from: from.map(|(w, h)| [w, h]),
        viewport,
        file_path: None,
    };
    let mut out = Out::new(text, data);
    out.images.push(Image {
        data: encoded,
        mime_type: format!("image/{name}"),
    });
    Ok(out)
}
