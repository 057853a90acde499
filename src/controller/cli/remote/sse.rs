//! The events of a `text/event-stream` answer, fed as its bytes arrive: Streamable HTTP answers a
//! POST with JSON or with such a stream, whose events carry JSON-RPC messages (and, from rmcp, a
//! priming event with no data). Only `data:` lines matter here; an event ends at a blank line.

/// An SSE parser over bytes in any chunks, holding at most `limit` bytes of one event.
pub(super) struct Events {
    line: Vec<u8>,
    data: Vec<u8>,
    limit: usize,
}

/// An event larger than the limit.
#[derive(Debug, PartialEq)]
pub(super) struct TooLarge;

impl Events {
    pub(super) fn new(limit: usize) -> Events {
        Events {
            line: Vec::new(),
            data: Vec::new(),
            limit,
        }
    }

    /// Feeds bytes; returns the data of each event they complete.
    pub(super) fn feed(&mut self, bytes: &[u8]) -> Result<Vec<String>, TooLarge> {
        let mut done = Vec::new();
        for &b in bytes {
            if b != b'\n' {
                self.line.push(b);
                if self.line.len() + self.data.len() > self.limit {
                    return Err(TooLarge);
                }
                continue;
            }
            let mut line = std::mem::take(&mut self.line);
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.is_empty() {
                if !self.data.is_empty() {
                    let data = std::mem::take(&mut self.data);
                    done.push(String::from_utf8_lossy(&data).into_owned());
                }
            } else if let Some(value) = line.strip_prefix(b"data:") {
                if !self.data.is_empty() {
                    self.data.push(b'\n');
                }
                self.data
                    .extend_from_slice(value.strip_prefix(b" ").unwrap_or(value));
            }
        }
        Ok(done)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn events_are_their_data_lines_whatever_the_chunks() {
        let stream = b"id: 0\nretry: 3000\ndata:\n\nevent: message\r\ndata: {\"id\":1,\r\ndata: \"result\":{}}\r\n\r\n: comment\n\ndata: x\n\n";
        for size in [1, 3, 7, stream.len()] {
            let mut events = Events::new(1024);
            let mut got = Vec::new();
            for chunk in stream.chunks(size) {
                got.extend(events.feed(chunk).unwrap());
            }
            assert_eq!(got, ["{\"id\":1,\n\"result\":{}}", "x"], "chunks of {size}");
        }
    }

    #[test]
    fn an_event_past_the_limit_is_refused() {
        let mut events = Events::new(8);
        assert_eq!(events.feed(b"data: 0123456789"), Err(TooLarge));
    }
}
