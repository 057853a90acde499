//! Screenshot bytes: decoding the browser's base64, cropping to an element, and shrinking inline
//! images to fit.

use base64::Engine;
use image::{DynamicImage, ImageFormat};

use crate::shared::error::{Code, ToolError};
use crate::shared::settings::Setting;

/// Inline images are held within this, so they stay cheap in context.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Ceiling {
    pub width: u32,
    pub height: u32,
}

impl Ceiling {
    const DEFAULT: Ceiling = Ceiling {
        width: 1536,
        height: 4096,
    };
    /// Each side's bounds: a thumbnail no model can read, and the largest side models take.
    const SIDE: std::ops::RangeInclusive<u32> = 64..=8000;

    /// `TABPILOT_SCREENSHOT_MAX`, or the default; a value that is not `WIDTHxHEIGHT` within the
    /// bounds is BAD_ARGS naming the setting.
    pub(super) fn from_env() -> Result<Ceiling, ToolError> {
        match Setting::ScreenshotMax.get() {
            None => Ok(Ceiling::DEFAULT),
            Some(text) => Ceiling::parse(&text).ok_or_else(|| {
                ToolError::bad_args(format!(
                    "{}={text:?} is not WIDTHxHEIGHT in pixels, each {} to {}",
                    Setting::ScreenshotMax,
                    Self::SIDE.start(),
                    Self::SIDE.end()
                ))
            }),
        }
    }

    fn parse(text: &str) -> Option<Ceiling> {
        let (w, h) = text.trim().split_once(['x', 'X'])?;
        let (width, height) = (w.trim().parse().ok()?, h.trim().parse().ok()?);
        (Self::SIDE.contains(&width) && Self::SIDE.contains(&height))
            .then_some(Ceiling { width, height })
    }
}

pub(super) struct Shrunk {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The size before shrinking, when it was shrunk.
    pub from: Option<(u32, u32)>,
}

pub(super) use crate::shared::protocol::wire::page::CssRect;

pub(super) fn decode_base64(data: &str) -> Result<Vec<u8>, ToolError> {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            ToolError::failed(
                Code::CaptureStalled,
                format!("the browser sent an unreadable capture: {e}"),
            )
        })
}

pub(super) fn encode_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn bad(e: &image::ImageError) -> ToolError {
    ToolError::failed(
        Code::CaptureStalled,
        format!("the capture is not a readable image: {e}"),
    )
}

fn decode(bytes: &[u8]) -> Result<DynamicImage, ToolError> {
    image::load_from_memory(bytes).map_err(|e| bad(&e))
}

fn encode(img: &DynamicImage, format: ImageFormat) -> Result<Vec<u8>, ToolError> {
    let mut out = std::io::Cursor::new(Vec::new());
    // JPEG has no alpha; WebP is written lossless (the image crate's encoder).
    let img = match format {
        ImageFormat::Jpeg => DynamicImage::ImageRgb8(img.to_rgb8()),
        ImageFormat::WebP => DynamicImage::ImageRgba8(img.to_rgba8()),
        _ => img.clone(),
    };
    img.write_to(&mut out, format).map_err(|e| bad(&e))?;
    Ok(out.into_inner())
}

pub(super) fn dimensions(bytes: &[u8]) -> Result<(u32, u32), ToolError> {
    let img = decode(bytes)?;
    Ok((img.width(), img.height()))
}

/// Cuts `rect` (CSS pixels) out of a viewport capture `viewport_width` CSS pixels wide, at the
/// device pixel ratio the capture itself shows.
pub(super) fn crop(
    bytes: &[u8],
    rect: CssRect,
    viewport_width: f64,
    format: ImageFormat,
) -> Result<Vec<u8>, ToolError> {
    let img = decode(bytes)?;
    let scale = img.width() as f64 / viewport_width.max(1.0);
    let x0 = (rect.x * scale).floor().clamp(0.0, img.width() as f64) as u32;
    let y0 = (rect.y * scale).floor().clamp(0.0, img.height() as f64) as u32;
    let x1 = ((rect.x + rect.width) * scale)
        .ceil()
        .clamp(0.0, img.width() as f64) as u32;
    let y1 = ((rect.y + rect.height) * scale)
        .ceil()
        .clamp(0.0, img.height() as f64) as u32;
    if x1 <= x0 || y1 <= y0 {
        return Err(ToolError::failed(
            Code::NotActionable,
            "the element is outside the viewport",
        ));
    }
    encode(&img.crop_imm(x0, y0, x1 - x0, y1 - y0), format)
}

/// Returns the image as is when it fits, else scaled down (keeping its aspect) and re-encoded.
pub(super) fn fit_inline(
    bytes: Vec<u8>,
    format: ImageFormat,
    max: Ceiling,
) -> Result<Shrunk, ToolError> {
    let img = decode(&bytes)?;
    let (w, h) = (img.width(), img.height());
    if w <= max.width && h <= max.height {
        return Ok(Shrunk {
            bytes,
            width: w,
            height: h,
            from: None,
        });
    }
    let scale = (max.width as f64 / w as f64).min(max.height as f64 / h as f64);
    let (nw, nh) = ((w as f64 * scale) as u32, (h as f64 * scale) as u32);
    let small = img.resize_exact(nw.max(1), nh.max(1), image::imageops::FilterType::Triangle);
    Ok(Shrunk {
        bytes: encode(&small, format)?,
        width: small.width(),
        height: small.height(),
        from: Some((w, h)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        encode(&DynamicImage::new_rgb8(w, h), ImageFormat::Png).unwrap()
    }

    #[test]
    fn the_ceiling_is_width_by_height_within_bounds() {
        assert_eq!(
            Ceiling::parse(" 800x600 "),
            Some(Ceiling {
                width: 800,
                height: 600
            })
        );
        for bad in [
            "800",
            "800x",
            "x600",
            "800x600x1",
            "63x600",
            "800x8001",
            "-1x5",
            "wide",
        ] {
            assert_eq!(Ceiling::parse(bad), None, "{bad}");
        }
        let small = Ceiling {
            width: 300,
            height: 200,
        };
        let s = fit_inline(png(1200, 400), ImageFormat::Png, small).unwrap();
        assert_eq!((s.width, s.height), (300, 100));
    }

    #[test]
    fn wide_and_tall_images_shrink_within_the_inline_limits_and_say_so() {
        let max = Ceiling::DEFAULT;
        let s = fit_inline(png(3000, 1000), ImageFormat::Png, max).unwrap();
        assert_eq!((s.width, s.height), (1536, 512));
        assert_eq!(s.from, Some((3000, 1000)));
        assert_eq!(dimensions(&s.bytes).unwrap(), (1536, 512));
        let tall = fit_inline(png(1000, 10_000), ImageFormat::Png, max).unwrap();
        assert_eq!((tall.width, tall.height), (409, 4096));
        assert_eq!(
            fit_inline(png(800, 600), ImageFormat::Png, max)
                .unwrap()
                .from,
            None
        );
    }

    #[test]
    fn a_crop_follows_the_captures_own_pixel_ratio() {
        // A 2x capture of a 100-CSS-px-wide viewport.
        let cut = crop(
            &png(200, 100),
            CssRect {
                x: 10.0,
                y: 5.0,
                width: 20.0,
                height: 10.0,
            },
            100.0,
            ImageFormat::Png,
        )
        .unwrap();
        assert_eq!(dimensions(&cut).unwrap(), (40, 20));
        let webp = fit_inline(png(2000, 10), ImageFormat::WebP, Ceiling::DEFAULT).unwrap();
        assert_eq!(image::guess_format(&webp.bytes).unwrap(), ImageFormat::WebP);
    }
}
