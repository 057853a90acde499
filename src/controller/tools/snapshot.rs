//! A snapshot line's ref, as the snapshot format writes it (`- ROLE "NAME" ... [ref=REF]`): read
//! by the diff, by `tabpilot demo`, and by the tests and benchmarks that act on what they saw.

/// The ref a line carries, `[ref=...]`.
pub fn ref_in(line: &str) -> Option<&str> {
    let start = line.find("[ref=")? + 5;
    line[start..].split(']').next()
}

/// The ref on the first snapshot line with this role and name.
pub fn ref_of<'a>(snapshot: &'a str, role: &str, name: &str) -> Option<&'a str> {
    let needle = format!("- {role} \"{name}\"");
    snapshot
        .lines()
        .find(|l| l.trim_start().starts_with(&needle))
        .and_then(ref_in)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refs_are_found_by_role_and_name() {
        let snap =
            "- main:\n  - textbox \"Your name\" [ref=eab12]\n  - button \"Say hello\" [ref=e0001]";
        assert_eq!(ref_of(snap, "textbox", "Your name"), Some("eab12"));
        assert_eq!(ref_of(snap, "button", "Say hello"), Some("e0001"));
        assert_eq!(ref_of(snap, "link", "Nope"), None);
    }
}
