//! Text from outside (page text, client names, arguments' keys, a file's lines) as it may reach a
//! person's terminal or another agent's context: control characters (ESC and what it starts: OSC
//! 52 clipboard writes, OSC 0 titles, screen clears; C1 controls; a carriage return that
//! overwrites a line) and the invisible characters that reorder or hide text (bidi overrides and
//! isolates, zero-width characters) are written as visible escapes (`\u{1b}`, `\u{202e}`).

use std::borrow::Cow;

/// Bidi controls and zero-width or invisible characters: they reorder or hide what is read.
pub fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'
            | '\u{061C}'
            | '\u{180E}'
            | '\u{200B}'..='\u{200F}'
            | '\u{2028}'..='\u{202E}'
            | '\u{2060}'..='\u{206F}'
            | '\u{FEFF}'
            | '\u{FFF9}'..='\u{FFFB}'
    )
}

/// Whether a character must not reach a terminal as it is.
pub fn is_unsafe(c: char) -> bool {
    c.is_control() || is_invisible(c)
}

/// One line: every unsafe character escaped, newlines and tabs included.
pub fn line(s: &str) -> Cow<'_, str> {
    escaped(s, |_| false)
}

/// Text of several lines: as [`line`], but newlines and tabs are kept.
pub fn text(s: &str) -> Cow<'_, str> {
    escaped(s, |c| c == '\n' || c == '\t')
}

fn escaped(s: &str, keep: impl Fn(char) -> bool) -> Cow<'_, str> {
    if !s.chars().any(|c| is_unsafe(c) && !keep(c)) {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            c if keep(c) || !is_unsafe(c) => out.push(c),
            c if c.is_control() => out.extend(c.escape_default()),
            c => out.extend(c.escape_unicode()),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_titles_clipboard_writes_clears_and_bidi_and_keeps_the_rest() {
        let osc52 = "copy\u{1b}]52;c;ZWNobyBwd25lZA==\u{7}me";
        assert_eq!(line(osc52), "copy\\u{1b}]52;c;ZWNobyBwd25lZA==\\u{7}me");
        assert_eq!(line("a\u{9b}2Jb\rc"), "a\\u{9b}2Jb\\rc");
        assert_eq!(line("admin\u{202e}txt.exe"), "admin\\u{202e}txt.exe");
        assert_eq!(line("zero\u{200b}width"), "zero\\u{200b}width");
        assert_eq!(line("two\nlines"), "two\\nlines");
        assert_eq!(
            text("two\nlines\tand \u{1b}[2J"),
            "two\nlines\tand \\u{1b}[2J"
        );
        assert!(matches!(line("Prices • 12 € — ok"), Cow::Borrowed(_)));
    }
}
