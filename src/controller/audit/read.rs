//! Reading the trail back: its lines with their records (`tabpilot audit` reads them all), and
//! the last few calls (the dashboard's timeline, read again every second, so from the files'
//! ends only).

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use super::Record;

/// How much of a file's end the last calls are looked for in: some 600 lines.
const TAIL_BYTES: u64 = 256 << 10;

/// The trail's lines in `text`, each with its record, or none for a line that is not one.
pub fn lines(text: &str) -> impl Iterator<Item = (&str, Option<Record>)> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| (l, serde_json::from_str(l).ok()))
}

/// The last `n` calls of the trail at `path`, oldest first: from the end of the live file, and
/// of the rotated ones before it while those hold too few.
pub fn recent(path: &Path, n: usize) -> Vec<Record> {
    let mut found: Vec<Record> = Vec::new();
    for file in super::file::in_order(path).iter().rev() {
        let Ok(text) = tail(file, TAIL_BYTES) else {
            continue;
        };
        let mut older: Vec<Record> = lines(&text).filter_map(|(_, r)| r).collect();
        older.append(&mut found);
        found = older;
        if found.len() >= n {
            break;
        }
    }
    // Two servers may each have written a line into a file the other rotated a moment later.
    found.sort_by(|a, b| a.time.cmp(&b.time));
    found.drain(..found.len().saturating_sub(n));
    found
}

/// The whole lines in the last `max` bytes of a file.
fn tail(path: &Path, max: u64) -> std::io::Result<String> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
    let start = len.saturating_sub(max);
    file.seek(SeekFrom::Start(start))?;
    let mut bytes = Vec::with_capacity((len - start) as usize);
    file.take(max).read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes).into_owned();
    // Cut in the middle of a line: that line is not whole.
    Ok(match (start, text.split_once('\n')) {
        (0, _) => text,
        (_, Some((_, rest))) => rest.to_string(),
        (_, None) => String::new(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shared::state::test_support::temp_dir;

    fn record(time: &str, tool: &str) -> String {
        format!("{{\"time\":\"{time}\",\"tool\":\"{tool}\",\"ms\":1}}\n")
    }

    #[test]
    fn the_last_calls_come_from_the_files_ends_in_time_order() {
        let dir = temp_dir("audit-recent");
        let path = dir.join("audit.jsonl");
        let old: String = (0..3)
            .map(|i| record(&format!("2025-06-01T10:00:0{i}Z"), "old"))
            .collect();
        std::fs::write(dir.join("audit.jsonl.1"), old).unwrap();
        let live = record("2025-06-01T10:00:05Z", "live") + "not a record\n";
        std::fs::write(&path, live).unwrap();
        let tools = |n| {
            recent(&path, n)
                .iter()
                .map(|r| format!("{} {}", &r.time[17..19], r.tool))
                .collect::<Vec<_>>()
        };
        assert_eq!(tools(1), ["05 live"]);
        assert_eq!(tools(3), ["01 old", "02 old", "05 live"]);
        assert_eq!(tools(9), ["00 old", "01 old", "02 old", "05 live"]);
    }

    #[test]
    fn a_tail_starts_at_a_whole_line() {
        let dir = temp_dir("audit-tail");
        let path = dir.join("a");
        std::fs::write(&path, "first line\nsecond\nthird\n").unwrap();
        assert_eq!(tail(&path, 100).unwrap(), "first line\nsecond\nthird\n");
        assert_eq!(tail(&path, 10).unwrap(), "third\n");
        assert_eq!(tail(&path, 3).unwrap(), "");
    }
}
