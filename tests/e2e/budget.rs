//! Snapshots within a token budget, counted as the benchmark counts them (o200k): big pages fit,
//! every interactive element stays within two calls (expanding a summary, or browser_find), a
//! frame stays with the region it is in, sentences keep their words, lists show their options,
//! and an action can answer with only the lines that changed.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde_json::{Value, json};

use crate::fixtures::rustdoc_dir;
use crate::harness::{Mcp, shared};
use crate::snapshot::ref_of;

const HASHMAP: &str = "rustdoc/std/collections/struct.HashMap.html";
/// The longest page of the standard library's docs: hundreds of methods, each with its examples.
const ITERATOR: &str = "rustdoc/std/iter/trait.Iterator.html";

fn tokens(text: &str) -> usize {
    static BPE: OnceLock<tiktoken_rs::CoreBPE> = OnceLock::new();
    BPE.get_or_init(|| tiktoken_rs::o200k_base().unwrap())
        .encode_with_special_tokens(text)
        .len()
}

/// The toolchain's rustdoc is served by the fixture server; without it (no rust-docs component)
/// the rustdoc pages are left out, and say so.
fn with_rustdoc(mut pages: Vec<(&'static str, usize)>) -> Vec<(&'static str, usize)> {
    if rustdoc_dir().is_some() {
        pages.extend([(HASHMAP, 4000), (ITERATOR, 4000)]);
    } else {
        eprintln!("skipping the rustdoc page: no $(rustc --print sysroot)/share/doc/rust/html");
    }
    pages
}

fn snapshot(agent: &mut Mcp, args: Value) -> String {
    let (_, data) = agent.ok("browser_snapshot", args);
    data["snapshot"].as_str().unwrap().to_string()
}

fn open(agent: &mut Mcp, url: &str) {
    agent.ok(
        "browser_navigate",
        json!({"url": url, "includeSnapshot": false}),
    );
}

fn ref_in(line: &str) -> Option<&str> {
    let start = line.find("[ref=")? + 5;
    line[start..].split(']').next()
}

/// A summary line's ref and offset: `- … 996 more rows: 996 buttons [ref=e5k2a] [offset=4]`.
fn summaries(snapshot: &str) -> Vec<(String, u64)> {
    snapshot
        .lines()
        .filter(|l| l.trim_start().starts_with("- … "))
        .map(|l| {
            let offset = l
                .split("[offset=")
                .nth(1)
                .map_or(0, |o| o.split(']').next().unwrap().parse().unwrap());
            (ref_in(l).unwrap().to_string(), offset)
        })
        .collect()
}

/// The refs of elements a snapshot shows, with their lines.
fn elements(snapshot: &str) -> Vec<(String, String)> {
    snapshot
        .lines()
        .filter(|l| !l.trim_start().starts_with("- … "))
        .filter_map(|l| Some((ref_in(l)?.to_string(), l.trim().to_string())))
        .collect()
}

#[test]
fn default_snapshots_fit_their_budgets_in_o200k_tokens() {
    let s = shared();
    let mut agent = s.agent();
    let pages = with_rustdoc(vec![
        ("long-article.html", 4000),
        ("table.html", 4000),
        ("people.html", 4000),
        ("checkout.html", 1000),
        ("checkout-full.html", 1000),
        ("shipping.html", 1000),
    ]);
    for (page, bound) in pages {
        open(&mut agent, &s.a(page));
        let whole = snapshot(&mut agent, json!({"maxTokens": 1_000_000}));
        let (_, data) = agent.ok("browser_snapshot", json!({}));
        let lean = data["snapshot"].as_str().unwrap().to_string();
        assert_eq!(data["collapsed"], lean.matches("- … ").count(), "{page}");
        let (n, all) = (tokens(&lean), tokens(&whole));
        eprintln!("{page}: {n} o200k tokens (the whole outline: {all})");
        assert!(n <= bound, "{page}: {n} tokens, over {bound}:\n{lean}");
        if all <= 4000 {
            assert_eq!(lean, whole, "{page} fits, and is not the whole outline");
        } else {
            assert!(lean.contains("- … "), "{page} has no summary line:\n{lean}");
        }
    }
    // navigate answers with a smaller snapshot, and the whole reply stays within the budget.
    let (reply, data) = agent.ok("browser_navigate", json!({"url": s.a("long-article.html")}));
    let n = tokens(&reply);
    eprintln!("navigate's reply on the long article: {n} o200k tokens");
    assert!(n <= 2200, "navigate's reply is {n} tokens:\n{reply}");
    assert!(data["snapshot"].as_str().unwrap().contains("- … "));
    // A budget the caller sets holds too.
    let small = snapshot(&mut agent, json!({"maxTokens": 500}));
    assert!(tokens(&small) <= 500, "{}\n{small}", tokens(&small));
}

/// Every element with a ref on the page (the whole outline's) is in the snapshot (one call), in
/// a page of the region a summary line names (two: the summary's ref, with an offset within the
/// range it gives), or found by browser_find by its role and name (two at most).
fn reach_every_element(agent: &mut Mcp, url: &str) {
    open(agent, url);
    let whole = snapshot(agent, json!({"maxTokens": 1_000_000}));
    let lean = snapshot(agent, json!({}));
    let mut reached: HashSet<String> = elements(&lean).into_iter().map(|(r, _)| r).collect();
    let direct = reached.len();
    let mut pages = 0;
    for (region, offset) in summaries(&lean) {
        // The region's pages, each within the budget, each asked with the region's ref and an
        // offset inside the range the summary gave.
        let mut at = Some(offset);
        while let Some(offset) = at {
            let page = snapshot(agent, json!({"ref": region, "offset": offset}));
            pages += 1;
            assert!(
                tokens(&page) <= 4000,
                "{url}: {region} at {offset}:\n{page}"
            );
            reached.extend(elements(&page).into_iter().map(|(r, _)| r));
            at = summaries(&page)
                .into_iter()
                .find(|(r, o)| *r == region && *o > offset)
                .map(|(_, o)| o);
        }
    }
    let expanded = reached.len() - direct;
    let mut found = 0;
    for (r, line) in elements(&whole) {
        if reached.contains(&r) {
            continue;
        }
        let name = line
            .split('"')
            .nth(1)
            .unwrap_or_else(|| panic!("{url}: {line} has no name to find it by"))
            .trim_end_matches('…');
        let role = line
            .trim_start_matches("- ")
            .split([' ', '"'])
            .next()
            .unwrap();
        let (_, data) = agent.ok(
            "browser_find",
            json!({"text": name, "role": role, "max": 200}),
        );
        let lines = data["matches"].to_string();
        assert!(
            lines.contains(&format!("[ref={r}]")),
            "{url}: {line} is neither shown, in a region, nor found by its name: {lines}"
        );
        found += 1;
    }
    let total = elements(&whole).len();
    if tokens(&whole) > 4000 {
        assert!(
            direct < total && expanded > 0,
            "{url}: a page over the budget showed {direct} of {total} elements and expanded {expanded}"
        );
    }
    eprintln!(
        "{url}: {total} elements: {direct} in the snapshot, {expanded} more in {pages} region pages, {found} by browser_find"
    );
    assert!(total > 0 && direct + expanded + found >= total);
}

#[test]
fn every_interactive_element_is_reached_in_at_most_two_calls() {
    let s = shared();
    let mut agent = s.agent();
    let pages = with_rustdoc(vec![
        ("long-article.html", 0),
        ("table.html", 0),
        ("people.html", 0),
        ("checkout-full.html", 0),
        ("checkout.html", 0),
    ]);
    // Iterator's page names `Iterator` in ~300 links, past what one browser_find lists.
    for (page, _) in pages.into_iter().filter(|(p, _)| *p != ITERATOR) {
        reach_every_element(&mut agent, &s.a(page));
    }
}

#[test]
fn a_sentence_with_links_reads_whole_and_each_link_keeps_its_ref() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("lists.html"));
    let snap = snapshot(&mut agent, json!({}));
    let text = "It has 6 lanes of through traffic, a cycle track and a bus lane.";
    let at = snap
        .lines()
        .position(|l| l.trim_start() == format!("- text: {text}"))
        .unwrap_or_else(|| panic!("the sentence is not whole:\n{snap}"));
    let lines: Vec<&str> = snap.lines().collect();
    // Its links sit under it, each with its ref, and act.
    assert!(
        lines[at + 1]
            .trim_start()
            .starts_with("- link \"through traffic\" [ref=")
    );
    assert!(
        lines[at + 2]
            .trim_start()
            .starts_with("- link \"bus lane\" [ref=")
    );
    assert!(lines[at + 1].starts_with(&format!("{}  -", " ".repeat(lines[at].find('-').unwrap()))));
    let bus = ref_of(&snap, "link", "bus lane");
    agent.ok("browser_click", json!({"ref": bus}));
    let (url, _) = agent.ok("browser_wait_for", json!({"url": "*#bus", "timeout": 5000}));
    assert!(!url.is_empty());
}

/// A checkout of 25 fields (a country and a state drop-down, hints, two fields in error) reads in
/// one default snapshot: each field one line, the ones in error marked, each hint and error
/// whole, the long drop-downs summarised, the chosen country in its value.
#[test]
fn a_checkout_of_25_fields_reads_whole_with_its_errors_marked() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("checkout-full.html"));
    let snap = snapshot(&mut agent, json!({}));
    let fields = ["textbox", "checkbox", "combobox", "radio"]
        .iter()
        .map(|role| snap.matches(&format!("- {role} \"")).count())
        .sum::<usize>();
    assert_eq!(fields, 25, "{snap}");
    assert!(
        snap.contains("- textbox \"Email\" [invalid] [ref="),
        "{snap}"
    );
    assert!(
        snap.contains("- combobox \"State\" [invalid] [ref="),
        "{snap}"
    );
    assert!(snap.contains("- textbox \"ZIP code\" [ref="), "{snap}");
    assert!(
        snap.contains("text: Enter a valid email address."),
        "{snap}"
    );
    assert!(snap.contains("text: 5 digits, or ZIP+4."), "{snap}");
    assert!(
        snap.contains("- combobox \"Country/Region\" [ref="),
        "{snap}"
    );
    assert!(snap.contains(": \"United States\""), "{snap}");
    assert!(snap.contains("- … 119 more options [ref="), "{snap}");
    assert!(snap.contains("- … 49 more options [ref="), "{snap}");
}

#[test]
fn selects_and_listboxes_show_their_options_and_long_lists_collapse() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("lists.html"));
    let snap = snapshot(&mut agent, json!({}));
    let block = |head: &str| -> Vec<String> {
        let lines: Vec<&str> = snap.lines().collect();
        let at = lines
            .iter()
            .position(|l| l.trim_start().starts_with(head))
            .unwrap_or_else(|| panic!("no {head}:\n{snap}"));
        let depth = lines[at].find('-').unwrap();
        lines[at + 1..]
            .iter()
            .take_while(|l| l.find('-').unwrap() > depth)
            .map(|l| l.trim().to_string())
            .collect()
    };
    // A multi-select listbox: every option, the selected ones marked.
    assert_eq!(
        block("- listbox \"Toppings\""),
        [
            "- option \"Cheese\"",
            "- option \"Ham\" [selected]",
            "- option \"Olives\"",
            "- option \"Peppers\" [selected]",
        ],
        "{snap}"
    );
    // A long drop-down: its first few options and a summary; the chosen one is in its value.
    let country = block("- combobox \"Country\"");
    assert!(snap.contains("- combobox \"Country\" [ref="), "{snap}");
    assert!(snap.contains(": \"Country 25\""), "{snap}");
    assert_eq!(country.len(), 4, "{country:?}");
    assert_eq!(country[0], "- option \"Country 1\"");
    assert!(
        country[3].starts_with("- … 37 more options [ref="),
        "{country:?}"
    );
    // Expanding it shows the rest, the selected one marked.
    let (region, offset) = summaries(&snap)
        .into_iter()
        .find(|(r, _)| *r == ref_of(&snap, "combobox", "Country"))
        .unwrap();
    assert_eq!(offset, 3);
    let rest = snapshot(&mut agent, json!({"ref": region, "offset": offset}));
    assert!(rest.contains("- option \"Country 4\""), "{rest}");
    assert!(
        rest.contains("- option \"Country 25\" [selected]"),
        "{rest}"
    );
    assert!(rest.contains("- option \"Country 40\""), "{rest}");
    assert!(!rest.contains("\"Country 3\""), "{rest}");
    // An ARIA listbox: its options are elements with refs, the selected one marked.
    let size = block("- listbox \"Size\"");
    assert_eq!(size.len(), 3, "{size:?}");
    assert!(
        size[1].starts_with("- option \"Medium\" [selected] [ref="),
        "{size:?}"
    );
}

#[test]
fn include_diff_answers_with_only_the_lines_that_changed() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("lists.html"));
    // Nothing seen yet in this tab: the whole snapshot, said as such.
    let (_, data) = agent.ok(
        "browser_navigate",
        json!({"url": s.a("lists.html"), "include": "diff"}),
    );
    let whole = data["diff"].as_str().unwrap();
    assert!(
        whole.starts_with("No earlier snapshot of this tab; the whole of it:\n- main:"),
        "{whole}"
    );
    let note = ref_of(whole, "textbox", "Note");
    let (_, data) = agent.ok(
        "browser_type",
        json!({"ref": note, "text": "hello", "include": "diff"}),
    );
    let diff = data["diff"].as_str().unwrap();
    assert_eq!(
        diff,
        format!(
            "Changes since your last snapshot of this tab (0 added, 0 removed, 1 changed):\n\
             ~ textbox \"Note\" [ref={note}]: \"hello\" (was: textbox \"Note\")"
        )
    );
    let snap = snapshot(&mut agent, json!({}));
    let (text, data) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Add a line"), "include": "diff"}),
    );
    assert!(text.ends_with("+ text: Added line 1"), "{text}");
    assert!(
        data["diff"]
            .as_str()
            .unwrap()
            .contains("(1 added, 0 removed, 0 changed)")
    );
    let (_, data) = agent.ok(
        "browser_click",
        json!({"ref": ref_of(&snap, "button", "Clear the lines"), "include": "diff"}),
    );
    let diff = data["diff"].as_str().unwrap();
    assert!(
        diff.contains("- text: First line\n- text: Added line 1"),
        "{diff}"
    );
    let (_, data) = agent.ok(
        "browser_press_key",
        json!({"key": "Escape", "include": "diff"}),
    );
    assert_eq!(
        data["diff"],
        "No change since your last snapshot of this tab."
    );
}

#[test]
fn snapshot_arguments_are_checked_before_the_page_is_asked() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("basic.html"));
    for (args, says) in [
        (json!({"offset": 3}), "offset goes with ref"),
        (json!({"maxTokens": 10}), "maxTokens must be between"),
        (json!({"ref": "nope"}), "not a ref"),
    ] {
        let (code, r) = agent.fails("browser_snapshot", args);
        assert_eq!(code, "BAD_ARGS");
        assert!(crate::harness::text(&r).contains(says), "{r}");
    }
}

#[test]
fn a_frame_inside_a_collapsed_region_stays_there_and_comes_back_with_it() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("nav-frame.html"));
    let snap = snapshot(&mut agent, json!({}));
    // The menu collapsed whole, its frame with it: not shown, nor added at the end.
    assert!(!snap.contains("- frame "), "{snap}");
    let line = snap
        .lines()
        .find(|l| l.contains("- … "))
        .unwrap_or_else(|| panic!("nothing collapsed:\n{snap}"));
    assert!(line.contains("1 frame"), "{line}");
    assert!(snap.contains("- button \"Go\" [ref="), "{snap}");
    // Expanding the menu brings the frame back in its place, with refs that act in it.
    let (region, offset) = summaries(&snap).remove(0);
    let page = snapshot(&mut agent, json!({"ref": region, "offset": offset}));
    assert!(tokens(&page) <= 4000, "{page}");
    let lines: Vec<&str> = page.lines().collect();
    assert!(
        lines[0].starts_with("- navigation \"Everything\":"),
        "{page}"
    );
    assert!(lines[1].trim_start().starts_with("- frame http"), "{page}");
    let card = ref_of(&page, "textbox", "Card number");
    assert!(card.starts_with('f'), "{card}");
    agent.ok("browser_type", json!({"ref": card, "text": "4242"}));
}

/// The ref on the line of the table row whose first cell is `first`: `- row: first | … [ref=…]`.
pub(crate) fn row_ref(snapshot: &str, first: &str) -> String {
    let head = format!("- row: {first} |");
    snapshot
        .lines()
        .find(|l| l.trim_start().starts_with(&head))
        .and_then(ref_in)
        .unwrap_or_else(|| panic!("no row {first:?} with a ref:\n{snapshot}"))
        .to_string()
}

/// The rows of a snapshot (`- row: ` lines), each as its cells, the refs at its end apart.
fn rows(snapshot: &str) -> Vec<(Vec<String>, Vec<String>)> {
    snapshot
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix("- row: "))
        .map(|l| {
            let at = l.find(" [ref=").unwrap_or(l.len());
            let cells = l[..at].split(" | ").map(str::to_string).collect();
            let refs = l[at..]
                .split("[ref=")
                .skip(1)
                .map(|r| r.split(']').next().unwrap().to_string())
                .collect();
            (cells, refs)
        })
        .collect()
}

#[test]
fn a_table_row_is_one_line_and_its_button_acts_by_the_ref_at_its_end() {
    let s = shared();
    let mut agent = s.agent();
    // A grid of div rows, as a people directory builds it: no table semantics at all.
    open(&mut agent, &s.a("people.html"));
    let snap = snapshot(&mut agent, json!({}));
    assert!(
        snap.contains(
            "- header: ID | Name | Email | Phone | Joined | Team | City | Salary | Quota | Status\n"
        ),
        "{snap}"
    );
    let shown = rows(&snap);
    assert!(shown.len() >= 10, "{snap}");
    for (cells, refs) in &shown {
        assert_eq!(cells.len(), 11, "{cells:?}");
        assert_eq!(cells[10], "Open", "{cells:?}");
        assert_eq!(refs.len(), 1, "{cells:?}");
    }
    assert!(!snap.contains("- button \"Open\""), "{snap}");
    let texts: Vec<&str> = snap.lines().filter(|l| l.contains("- text: ")).collect();
    assert_eq!(
        texts,
        ["  - text: Nobody opened"],
        "a cell has a line of its own:\n{snap}"
    );
    // The rest of the rows, behind their summary, are rows too.
    let (region, offset) = summaries(&snap).pop().unwrap();
    let page = snapshot(&mut agent, json!({"ref": region, "offset": offset}));
    assert!(
        rows(&page).len() > 10 && rows(&page).iter().all(|(c, _)| c.len() == 11),
        "{page}"
    );
    // A row's button, by the ref at the end of its line.
    let (cells, refs) = &shown[2];
    agent.ok("browser_click", json!({"ref": refs[0]}));
    let after = snapshot(&mut agent, json!({}));
    let opened = format!("Opened {} ({})", cells[1], cells[0]);
    assert!(after.contains(&opened), "{opened}:\n{after}");

    // A <table>: its header and rows, a row's button named by its ref.
    open(&mut agent, &s.a("table.html"));
    let snap = snapshot(&mut agent, json!({}));
    assert!(snap.contains("- header: Item | Stock | Price\n"), "{snap}");
    let first = &rows(&snap)[0];
    assert_eq!(first.0, ["Widget 1", "0", "$1.00", "Edit"], "{snap}");
    assert_eq!(first.1.len(), 1, "{snap}");
}

#[test]
fn a_sentence_says_only_what_the_name_of_its_one_control_does_not() {
    let s = shared();
    let mut agent = s.agent();
    open(&mut agent, &s.a("shipping.html"));
    let snap = snapshot(&mut agent, json!({}));
    // Named by the words beside it, price and all: the radio alone.
    for radio in [
        "radio \"Standard shipping 5–7 business days Free\" [checked] [ref=",
        "radio \"Express shipping 1–2 business days $12.90\" [ref=",
    ] {
        let line = snap
            .lines()
            .find(|l| l.contains(radio))
            .unwrap_or_else(|| panic!("{radio}:\n{snap}"));
        assert!(line.trim_start().starts_with("- radio"), "{snap}");
    }
    assert!(!snap.contains("text: Standard shipping"), "{snap}");
    assert!(!snap.contains("text: Express shipping"), "{snap}");
    // A sentence that starts with its radio's name says only the rest, after the radio.
    let after = |radio: &str, rest: &str| {
        let lines: Vec<&str> = snap.lines().map(str::trim_start).collect();
        let at = lines
            .iter()
            .position(|l| l.starts_with(&format!("- {radio} [")))
            .unwrap_or_else(|| panic!("no {radio}:\n{snap}"));
        assert_eq!(lines[at + 1], format!("- text: {rest}"), "{snap}");
    };
    after("radio \"Pick up in store\"", "€3,50 handling");
    after("radio \"Credit or debit card\"", "No fee");
    after("radio \"PayPal\"", "+ $0.99");
    assert!(!snap.contains("text: Pick up"), "{snap}");
    assert!(!snap.contains("text: Credit or debit"), "{snap}");
    // A sentence that starts with a link is read whole, the link under it.
    let lines: Vec<&str> = snap.lines().map(str::trim_start).collect();
    let at = lines
        .iter()
        .position(|l| *l == "- text: Free returns within 30 days of delivery.")
        .unwrap_or_else(|| panic!("{snap}"));
    assert!(
        lines[at + 1].starts_with("- link \"Free returns\" [ref="),
        "{snap}"
    );
    // The order summary: a row a line, the Remove buttons' refs at their ends.
    assert!(snap.contains("- header: Item | Qty | Price\n"), "{snap}");
    assert!(
        snap.contains("- row: Cotton socks (3 pairs) | 2 | $24.00 | Remove [ref="),
        "{snap}"
    );
    assert!(snap.contains("- row: Total |  | $113.00\n"), "{snap}");
}
