//! Long lists in pages of a fixed size, newest (or worst) first, each page ending with the call
//! for the next. Each list chooses its page size; the paging is this one.

use serde_json::{Value, json};

use crate::shared::error::ToolError;

/// Entries in one page of a list of requests or issues: enough to see a pattern, few enough to
/// stay cheap on context.
pub(super) const PAGE_SIZE: u64 = 20;

/// The page asked for: 1 (the newest) when none is.
pub(super) fn page_arg(page: Option<u64>) -> Result<u64, ToolError> {
    match page {
        None => Ok(1),
        Some(0) => Err(ToolError::bad_args("page counts from 1")),
        Some(p) => Ok(p),
    }
}

/// How many pages of `size` `total` entries fill (one when there are none).
pub(super) fn pages(total: u64, size: u64) -> u64 {
    total.div_ceil(size).max(1)
}

/// Page `page` (from 1) of `all`, in pages of `size`; a page past the last is BAD_ARGS naming
/// the last.
pub(super) fn page_of<T>(all: Vec<T>, page: u64, size: u64) -> Result<Vec<T>, ToolError> {
    let last = pages(all.len() as u64, size);
    if page > last {
        return Err(ToolError::bad_args(format!(
            "page {page} is past the last, {last}"
        )));
    }
    let skip = ((page - 1) * size) as usize;
    Ok(all.into_iter().skip(skip).take(size as usize).collect())
}

/// Where this page is in the list, and the call that shows the next (the same filters, `args`),
/// if there is one.
pub(super) fn footer(tool: &str, page: u64, total: u64, size: u64, args: Value) -> String {
    let of = pages(total, size);
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
        assert_eq!(pages(0, 20), 1);
        assert_eq!(pages(20, 20), 1);
        assert_eq!(pages(21, 20), 2);
        assert_eq!(
            footer("t", 1, 21, 20, json!({"url": "x"})),
            r#"Page 1 of 2 (21 in all); next: t {"page":2,"url":"x"}"#
        );
        assert_eq!(
            footer("t", 2, 21, 20, json!({})),
            "Page 2 of 2 (21 in all)."
        );
    }

    #[test]
    fn a_page_is_its_slice_and_one_past_the_last_is_refused() {
        let all: Vec<u64> = (1..=10).collect();
        assert_eq!(page_of(all.clone(), 1, 4).unwrap(), [1, 2, 3, 4]);
        assert_eq!(page_of(all.clone(), 3, 4).unwrap(), [9, 10]);
        let past = page_of(all, 4, 4).unwrap_err();
        assert!(
            past.text().contains("page 4 is past the last, 3"),
            "{}",
            past.text()
        );
        assert!(page_of(Vec::<u64>::new(), 1, 4).unwrap().is_empty());
    }
}
