//! browser_screenshot: the agent's viewport, one element, or the full page; inline (shrunk to
//! fit) or to a file (full size).

use std::time::Duration;

use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};

use super::Session;
use super::args::{parse, read_only, ref_arg, schema};
use super::image::{self as shot, CssRect, Shrunk};
use super::spec::{Image, ToolOutput, ToolSpec};
use crate::error::{Code, ToolError};
use crate::policy::paths;
use crate::protocol::Op;

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
    /// The element in words, for messages.
    element: Option<String>,
    /// The whole page, not just the viewport (uses the debugger).
    full_page: Option<bool>,
    /// Write the full-size image here instead of returning it.
    file_path: Option<String>,
}

pub fn specs() -> Vec<ToolSpec> {
    vec![ToolSpec {
        name: "browser_screenshot",
        description: "Image of this agent's viewport, an element (ref) or the full page; inline within 1536x4096, or full size to filePath.",
        input_schema: schema::<ScreenshotArgs>(),
        output_schema: Some(json!({"type": "object", "properties": {
            "width": {"type": "integer"}, "height": {"type": "integer"}, "format": {"type": "string"},
            "shrunkFrom": {"type": ["array", "null"]}, "debugger": {"type": "boolean"},
            "filePath": {"type": ["string", "null"]}}, "required": ["width", "height", "debugger"]})),
        hints: read_only(),
    }]
}

impl Session {
    pub(super) async fn screenshot(&self, args: Value) -> Result<ToolOutput, ToolError> {
        let a: ScreenshotArgs = parse("browser_screenshot", args)?;
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
        let file = a
            .file_path
            .as_deref()
            .map(|p| paths::checked_output(p, &paths::roots()))
            .transpose()?;
        let call = json!({"format": format.name(), "quality": a.quality, "ref": a.reference, "fullPage": full_page});
        let r = self
            .page(Op::Screenshot, call, Duration::from_secs(30))
            .await?;
        let mut bytes = shot::decode_base64(r["data"].as_str().unwrap_or(""))?;
        if let Some(rect) = r["rect"].as_object() {
            let n = |k: &str| rect.get(k).and_then(Value::as_f64).unwrap_or(0.0);
            let css = CssRect {
                x: n("x"),
                y: n("y"),
                width: n("width"),
                height: n("height"),
            };
            let vw = r["viewport"]["width"].as_f64().unwrap_or(1.0);
            bytes = shot::crop(&bytes, css, vw, format.image())?;
        }
        let used_debugger = r["debugger"].as_bool().unwrap_or(false);
        let what = match (&a.reference, full_page) {
            (Some(_), _) => format!("of {}", a.element.as_deref().unwrap_or("the element")),
            (None, true) => "of the full page".to_string(),
            (None, false) => "of the viewport".to_string(),
        };
        let mut notes = String::new();
        if r["cut"] == true {
            notes.push_str("; the page was cut at 8192 CSS px tall");
        }
        if used_debugger {
            notes.push_str("; the debugger was attached for this capture (Chrome shows its banner while attached)");
        }
        let name = format.name();
        if let Some(path) = file {
            let (w, h) = shot::dimensions(&bytes)?;
            std::fs::write(&path, &bytes).map_err(|e| {
                ToolError::failed(
                    Code::Internal,
                    format!("cannot write {}: {e}", path.display()),
                )
            })?;
            let text = format!(
                "Saved a {w}x{h} {name} screenshot {what} to {}{notes}",
                path.display()
            );
            return Ok(ToolOutput::new(
                text,
                json!({"width": w, "height": h, "format": name,
                "debugger": used_debugger, "filePath": path.display().to_string(), "shrunkFrom": null}),
            ));
        }
        let Shrunk {
            bytes,
            width,
            height,
            from,
        } = shot::fit_inline(bytes, format.image())?;
        let mut text = format!("Screenshot {what}, {width}x{height} {name}");
        if let Some((w, h)) = from {
            text.push_str(&format!(
                " (shrunk from {w}x{h} to fit 1536x4096; use filePath for full size)"
            ));
        }
        text.push_str(&notes);
        let mut out = ToolOutput::new(
            text,
            json!({"width": width, "height": height, "format": name,
            "debugger": used_debugger, "shrunkFrom": from.map(|(w, h)| json!([w, h])),
            "viewport": r["viewport"], "filePath": null}),
        );
        out.images.push(Image {
            data: shot::encode_base64(&bytes),
            mime_type: format!("image/{name}"),
        });
        Ok(out)
    }
}
