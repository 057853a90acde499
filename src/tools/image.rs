//! Screenshot bytes: decoding the browser's base64, and shrinking inline images to fit.

use base64::Engine;
use image::ImageFormat;

use crate::error::{Code, ToolError};

/// Inline images are held under this width (and height), so they stay cheap in context.
pub const MAX_INLINE_WIDTH: u32 = 1536;
pub const MAX_INLINE_HEIGHT: u32 = 4096;

pub struct Shrunk {
    pub bytes: Vec<u8>,
    pub width: u32,
    pub height: u32,
    /// The size before shrinking, when it was shrunk.
    pub from: Option<(u32, u32)>,
}

pub fn decode_base64(data: &str) -> Result<Vec<u8>, ToolError> {
    base64::engine::general_purpose::STANDARD
        .decode(data)
        .map_err(|e| {
            ToolError::failed(
                Code::CaptureStalled,
                format!("the browser sent an unreadable capture: {e}"),
            )
        })
}

pub fn encode_base64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::STANDARD.encode(bytes)
}

fn bad(e: image::ImageError) -> ToolError {
    ToolError::failed(
        Code::CaptureStalled,
        format!("the capture is not a readable image: {e}"),
    )
}

pub fn dimensions(bytes: &[u8]) -> Result<(u32, u32), ToolError> {
    let img = image::load_from_memory(bytes).map_err(bad)?;
    Ok((img.width(), img.height()))
}

/// Returns the image as is when it fits, else scaled down (keeping its aspect) and re-encoded.
pub fn fit_inline(bytes: Vec<u8>, jpeg: bool) -> Result<Shrunk, ToolError> {
    let img = image::load_from_memory(&bytes).map_err(bad)?;
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
    let (nw, nh) = (((w as f64) * scale) as u32, ((h as f64) * scale) as u32);
    let small = img.resize_exact(nw.max(1), nh.max(1), image::imageops::FilterType::Triangle);
    let mut out = std::io::Cursor::new(Vec::new());
    let format = if jpeg {
        ImageFormat::Jpeg
    } else {
        ImageFormat::Png
    };
    let small = if jpeg {
        image::DynamicImage::ImageRgb8(small.to_rgb8())
    } else {
        small
    };
    small.write_to(&mut out, format).map_err(bad)?;
    Ok(Shrunk {
        bytes: out.into_inner(),
        width: small.width(),
        height: small.height(),
        from: Some((w, h)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn png(w: u32, h: u32) -> Vec<u8> {
        let img = image::DynamicImage::new_rgb8(w, h);
        let mut out = std::io::Cursor::new(Vec::new());
        img.write_to(&mut out, ImageFormat::Png).unwrap();
        out.into_inner()
    }

    #[test]
    fn wide_images_shrink_under_the_inline_limit_and_say_so() {
        let s = fit_inline(png(3000, 1000), false).unwrap();
        assert_eq!((s.width, s.height), (1536, 512));
        assert_eq!(s.from, Some((3000, 1000)));
        assert_eq!(dimensions(&s.bytes).unwrap(), (1536, 512));
        let small = fit_inline(png(800, 600), false).unwrap();
        assert_eq!(small.from, None);
    }
}
