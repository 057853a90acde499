//! Screenshot bytes: decoding the browser's base64, cropping to an element, and shrinking inline
//! images to fit.

use base64::Engine;
use image::{DynamicImage, ImageFormat};

use crate::error::{Code, ToolError};

/// Inline images are held within these, so they stay cheap in context.
pub(super) const MAX_INLINE_WIDTH: u32 = 1536;
pub(super) const MAX_INLINE_HEIGHT: u32 = 4096;

pub(super) struct Shrunk {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The size before shrinking, when it was shrunk.
    pub from: Option<(u32, u32)>,
}

pub(super) use crate::protocol::wire::page::CssRect;

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
pub(super) fn fit_inline(bytes: Vec<u8>, format: ImageFormat) -> Result<Shrunk, ToolError> {
    let img = decode(&bytes)?;
    let (w, h) = (img.width(), img.height());
    if w <= MAX_INLINE_WIDTH && h <= MAX_INLINE_HEIGHT {
        return Ok(Shrunk {
            bytes,
            width: w,
            height: h,
            from: None,
        });
    }
    let scale = (MAX_INLINE_WIDTH as f64 / w as f64).min(MAX_INLINE_HEIGHT as f64 / h as f64);
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
    fn wide_and_tall_images_shrink_within_the_inline_limits_and_say_so() {
        let s = fit_inline(png(3000, 1000), ImageFormat::Png).unwrap();
        assert_eq!((s.width, s.height), (1536, 512));
        assert_eq!(s.from, Some((3000, 1000)));
        assert_eq!(dimensions(&s.bytes).unwrap(), (1536, 512));
        let tall = fit_inline(png(1000, 10_000), ImageFormat::Png).unwrap();
        assert_eq!((tall.width, tall.height), (409, 4096));
        assert_eq!(
            fit_inline(png(800, 600), ImageFormat::Png).unwrap().from,
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
        let webp = fit_inline(png(2000, 10), ImageFormat::WebP).unwrap();
        assert_eq!(image::guess_format(&webp.bytes).unwrap(), ImageFormat::WebP);
    }
}
