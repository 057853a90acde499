//! Long lists in pages of a fixed size, newest first, each page ending with the call for the next.

use serde_json::{Value, json};

use crate::error::ToolError;

/// Entries in one page: enough to see a pattern, few enough to stay cheap on context.
pub(super) const PAGE_SIZE: u64 = 20;

/// The page asked for: 1 (the newest) when none is.
pub(super) fn page_arg(page: Option<u64>) -> Result<u64, ToolError> {
    match page {
        None => Ok(1),
        Some(0) => Err(ToolError::bad_args("page counts from 1")),
        Some(p) => Ok(p),
    }
}

/// How many pages `total` entries fill.
pub(super) fn pages(total: u64) -> u64 {
    total.div_ceil(PAGE_SIZE).max(1)
}

/// Where this page is in the list, and the call that shows the next (the same filters, `args`),
/// if there is one.
pub(super) fn footer(tool: &str, page: u64, total: u64, args: Value) -> String {
    let of = pages(total);
    if page >= of {
        return format!("Page {page} of {of} ({total} in all).");
    }
    let mut next = if args.is_object() { args } else { json!({}) };
    next["page"] = json!(page + 1);
    format!("Page {page} of {of} ({total} in all); next: {tool} {next}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_footer_names_the_next_call_with_the_same_filters_until_the_last_page() {
        assert_eq!(page_arg(None).unwrap(), 1);
        assert!(page_arg(Some(0)).is_err());
        assert_eq!(pages(0), 1);
        assert_eq!(pages(20), 1);
        assert_eq!(pages(21), 2);
        assert_eq!(
            footer("t", 1, 21, json!({"url": "x"})),
            r#"Page 1 of 2 (21 in all); next: t {"page":2,"url":"x"}"#
        );
        assert_eq!(footer("t", 2, 21, json!({})), "Page 2 of 2 (21 in all).");
    }
}
