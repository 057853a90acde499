//! What changed between two snapshots of one tab, line by line: lines added, lines removed, and
//! elements whose line changed (a value typed, a box checked), matched by their ref.

use super::snapshot::ref_in;

/// The longest stretch of lines compared line against line; past it (a page that changed
/// almost whole) lines are matched as sets, which still says what came and went.
const MAX_CELLS: usize = 4_000_000;

/// The change from `old` to `new`, one marked line each: `+` added, `-` removed, `~` changed
/// (with what it was). Lines are compared without their indentation, so an element that only
/// moved in or out of a wrapper is not a change. `of` names what the two show (`this tab`).
pub(super) fn diff(old: &str, new: &str, of: &str) -> String {
    let a: Vec<&str> = old.lines().map(str::trim_start).collect();
    let b: Vec<&str> = new.lines().map(str::trim_start).collect();
    let (removed, added) = changes(&a, &b);
    let mut lines = Vec::new();
    let mut gone: Vec<&str> = removed.clone();
    let mut changed = 0;
    for line in &added {
        let was = ref_in(line).and_then(|r| gone.iter().position(|g| ref_in(g) == Some(r)));
        match was {
            Some(at) => {
                let before = gone.remove(at);
                lines.push(format!("~ {} (was: {})", bare(line), without_ref(before)));
                changed += 1;
            }
            None => lines.push(format!("+ {}", bare(line))),
        }
    }
    for line in gone {
        lines.push(format!("- {}", bare(line)));
    }
    if lines.is_empty() {
        return format!("No change since your last snapshot of {of}.");
    }
    let head = format!(
        "Changes since your last snapshot of {of} ({} added, {} removed, {changed} changed):",
        added.len() - changed,
        removed.len() - changed,
    );
    std::iter::once(head)
        .chain(lines)
        .collect::<Vec<_>>()
        .join("\n")
}

/// A snapshot line without its list marker.
fn bare(line: &str) -> &str {
    line.strip_prefix("- ").unwrap_or(line)
}

/// What a changed line said, without its ref (the new line carries it).
fn without_ref(line: &str) -> String {
    let line = bare(line);
    match (line.find(" [ref="), ref_in(line)) {
        (Some(at), Some(r)) => format!("{}{}", &line[..at], &line[at + 7 + r.len()..]),
        _ => line.to_string(),
    }
}

/// The lines of `a` not kept in `b` and the lines of `b` not in `a`, in order: the common ends
/// are set aside, and the middle is compared by its longest common subsequence.
fn changes<'a>(a: &[&'a str], b: &[&'a str]) -> (Vec<&'a str>, Vec<&'a str>) {
    let head = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    let tail = a[head..]
        .iter()
        .rev()
        .zip(b[head..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (a, b) = (&a[head..a.len() - tail], &b[head..b.len() - tail]);
    if a.len().saturating_mul(b.len()) > MAX_CELLS {
        let removed = a.iter().filter(|l| !b.contains(l)).copied().collect();
        let added = b.iter().filter(|l| !a.contains(l)).copied().collect();
        return (removed, added);
    }
    // lcs[i][j]: the longest common subsequence of a[i..] and b[j..].
    let w = b.len() + 1;
    let mut lcs = vec![0u32; (a.len() + 1) * w];
    for i in (0..a.len()).rev() {
        for j in (0..b.len()).rev() {
            lcs[i * w + j] = if a[i] == b[j] {
                lcs[(i + 1) * w + j + 1] + 1
            } else {
                lcs[(i + 1) * w + j].max(lcs[i * w + j + 1])
            };
        }
    }
    let (mut i, mut j) = (0, 0);
    let (mut removed, mut added) = (Vec::new(), Vec::new());
    while i < a.len() || j < b.len() {
        if i < a.len() && j < b.len() && a[i] == b[j] {
            i += 1;
            j += 1;
        } else if j < b.len() && (i == a.len() || lcs[i * w + j + 1] >= lcs[(i + 1) * w + j]) {
            added.push(b[j]);
            j += 1;
        } else {
            removed.push(a[i]);
            i += 1;
        }
    }
    (removed, added)
}

#[cfg(test)]
mod tests {
    use super::*;

    const BEFORE: &str = "\
- heading \"Checkout\" [level=1]
- form:
  - textbox \"Email\" [ref=e1abc]
  - checkbox \"Terms\" [ref=e2abc]
  - button \"Pay\" [ref=e3abc]
- text: Fill in the form";

    #[test]
    fn a_typed_value_is_a_change_of_its_line_with_what_it_was() {
        let after = BEFORE.replace("\"Email\" [ref=e1abc]", "\"Email\" [ref=e1abc]: \"a@b.c\"");
        let d = diff(BEFORE, &after, "this tab");
        assert_eq!(
            d,
            "Changes since your last snapshot of this tab (0 added, 0 removed, 1 changed):\n\
             ~ textbox \"Email\" [ref=e1abc]: \"a@b.c\" (was: textbox \"Email\")"
        );
    }

    #[test]
    fn lines_that_come_and_go_are_added_and_removed_in_order() {
        let after = BEFORE
            .replace(
                "- text: Fill in the form",
                "- text: Thanks!\n- link \"Receipt\" [ref=e4abc]",
            )
            .replace("  - checkbox \"Terms\" [ref=e2abc]\n", "");
        let d = diff(BEFORE, &after, "this tab");
        assert!(d.contains("(2 added, 2 removed, 0 changed)"), "{d}");
        let body: Vec<&str> = d.lines().skip(1).collect();
        assert_eq!(
            body,
            [
                "+ text: Thanks!",
                "+ link \"Receipt\" [ref=e4abc]",
                "- checkbox \"Terms\" [ref=e2abc]",
                "- text: Fill in the form",
            ]
        );
    }

    #[test]
    fn a_checked_box_says_its_state_and_nothing_else_moves() {
        let after = BEFORE.replace("[ref=e2abc]", "[checked] [ref=e2abc]");
        let d = diff(BEFORE, &after, "this tab");
        assert!(
            d.ends_with("~ checkbox \"Terms\" [checked] [ref=e2abc] (was: checkbox \"Terms\")"),
            "{d}"
        );
        assert_eq!(d.lines().count(), 2, "{d}");
    }

    #[test]
    fn the_same_snapshot_or_a_rewrapped_one_is_no_change() {
        assert_eq!(
            diff(BEFORE, BEFORE, "this tab"),
            "No change since your last snapshot of this tab."
        );
        let indented: String = BEFORE.lines().map(|l| format!("  {l}\n")).collect();
        assert_eq!(
            diff(BEFORE, &indented, "this tab"),
            "No change since your last snapshot of this tab."
        );
    }

    #[test]
    fn a_page_changed_whole_past_the_comparison_limit_still_says_what_came_and_went() {
        let old: String = (0..2100).map(|i| format!("- text: old {i}\n")).collect();
        let new: String = (0..2100).map(|i| format!("- text: new {i}\n")).collect();
        let d = diff(&old, &new, "this tab");
        assert!(
            d.contains("(2100 added, 2100 removed, 0 changed)"),
            "{}",
            &d[..200]
        );
    }
}
