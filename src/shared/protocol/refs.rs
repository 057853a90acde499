//! The element ref, as snapshots write it and tools take it (the contract's "element refs"): `e`
//! and four base-36 characters, `.N` for a twin, and `fN:` before it in a frame (N being Chrome's
//! frameId). Declared once, here, as regular-expression sources that read the same in Rust's
//! `regex` and in JavaScript (ASCII classes only, no `\d`): the controller checks a ref with them
//! before anything is sent, and the extension reads them from its generated contract
//! (`extension/sw/contract.js` for the service worker, `extension/page/contract.js` for the page
//! scripts).

use std::sync::LazyLock;

use regex::Regex;

macro_rules! frame {
    () => {
        "f(?<frame>[0-9]+):"
    };
}
macro_rules! local {
    () => {
        r"e[0-9a-z]{4}(?:\.(?<twin>[0-9]+))?"
    };
}

/// A frame's prefix, `f12:`; the frame's id is the group `frame`.
pub const FRAME: &str = frame!();
/// A ref inside one document, `e7k2f` or `e7k2f.2`; a twin's number is the group `twin`.
pub const LOCAL: &str = local!();
/// A whole ref: an optional frame prefix, then the ref inside that frame's document (the group
/// `local`). Unanchored: anchor it to check a string, or search a text for refs with it.
pub const PATTERN: &str = concat!("(?:", frame!(), ")?(?<local>", local!(), ")");

static WHOLE: LazyLock<Regex> = LazyLock::new(|| anchored(PATTERN));
static PREFIX: LazyLock<Regex> = LazyLock::new(|| anchored(FRAME));

fn anchored(source: &str) -> Regex {
    Regex::new(&format!("^(?:{source})$")).expect("the ref patterns compile")
}

/// What is wrong with a string that is not a ref.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NotARef {
    /// It has a prefix before a `:` that is not a frame's (`fx:e7k2f`).
    FramePrefix,
    /// Anything else.
    Malformed,
}

/// Checks a ref against the pattern.
pub fn check(text: &str) -> Result<(), NotARef> {
    if WHOLE.is_match(text) {
        return Ok(());
    }
    match text.split_once(':') {
        Some((prefix, _)) if !PREFIX.is_match(&format!("{prefix}:")) => Err(NotARef::FramePrefix),
        _ => Err(NotARef::Malformed),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same cases as the extension's test (tests/extension/contract.test.js), so both
    /// readings of the one pattern are held to the same answers.
    const GOOD: &[&str] = &["e7k2f", "e7k2f.2", "e7k2f.1", "f12:e7k2f.3", "f0:e0000"];
    const BAD: &[&str] = &[
        "",
        "e1",
        "x7k2fa",
        "e7k2f.x",
        "E7K2F",
        "e7k2f.",
        "f:e7k2f",
        "fx:e7k2f",
        "12:e7k2f",
        "f1:f2:e7k2f",
        "f1:",
        "e7k2f ",
        "e7k2\u{0663}",
        "f\u{0661}:e7k2f",
    ];

    #[test]
    fn refs_are_what_the_contract_says() {
        for good in GOOD {
            assert_eq!(check(good), Ok(()), "{good}");
        }
        for bad in BAD {
            assert!(check(bad).is_err(), "{bad:?}");
        }
        assert_eq!(check("fx:e7k2f"), Err(NotARef::FramePrefix));
        assert_eq!(check("12:e7k2f"), Err(NotARef::FramePrefix));
        assert_eq!(check("e7k2f.x"), Err(NotARef::Malformed));
    }

    #[test]
    fn the_pattern_is_the_frame_prefix_then_the_local_ref() {
        let caps = WHOLE.captures("f12:e7k2f.3").unwrap();
        assert_eq!(&caps["frame"], "12");
        assert_eq!(&caps["local"], "e7k2f.3");
        assert_eq!(&caps["twin"], "3");
        assert!(WHOLE.captures("e7k2f").unwrap().name("frame").is_none());
    }
}
