//! Stdio for rmcp with one guarantee rmcp does not give: `tools/call` requests reach the server
//! one at a time, in the order the client wrote them. rmcp spawns a task per request, so two
//! calls written back to back may otherwise start in either order. A call cancelled while it is
//! held back is dropped here, never started (rmcp never saw it, and the spec wants no answer);
//! the running one, once cancelled, lets the next start, since rmcp sends it no answer.
//! Everything else (pings, other cancellations, listings) passes straight through.

use std::collections::VecDeque;

use serde_json::Value;
use tokio::io::{
    AsyncBufReadExt, AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt, BufReader, DuplexStream,
};
use tokio::sync::mpsc;

/// Longest line accepted from the client.
const MAX_LINE: u64 = 16 << 20;
/// Calls held back while one runs; past this, reading the client pauses.
const MAX_QUEUED: usize = 256;
/// Bytes of calls held back while one runs; past this too, reading the client pauses. A call is
/// a few hundred bytes, so this never holds back a client that pipelines as they do; by count
/// alone, 256 lines of up to 16 MiB could hold 4 GiB. At most this plus one line is held.
const MAX_QUEUED_BYTES: usize = 16 << 20;
/// Lines read ahead of the queue: the queue is what holds calls, not the reader's channel.
const READ_AHEAD: usize = 1;
const PIPE: usize = 1 << 16;

/// Returns the (reader, writer) pair to hand to rmcp in place of stdin and stdout.
pub(super) fn ordered<R, W>(input: R, output: W) -> (DuplexStream, DuplexStream)
where
    R: AsyncRead + Unpin + Send + 'static,
    W: AsyncWrite + Unpin + Send + 'static,
{
    let (to_server, server_in) = tokio::io::duplex(PIPE);
    let (server_out, from_server) = tokio::io::duplex(PIPE);
    let (done_tx, done_rx) = mpsc::unbounded_channel::<Value>();
    let (reply_tx, reply_rx) = mpsc::unbounded_channel::<Value>();
    tokio::spawn(pump_in(input, to_server, done_rx, reply_tx));
    tokio::spawn(pump_out(from_server, output, done_tx, reply_rx));
    (server_in, server_out)
}

/// What a client's line is to the shim.
enum Line {
    /// A `tools/call`, held back until the one before it has answered.
    Call(Value),
    /// `notifications/cancelled` for the request with this id.
    Cancel(Value),
    /// Anything else that parses: straight through.
    Other,
    /// Not JSON (or nested past serde_json's depth limit): answered here, since rmcp would drop
    /// it and leave the client waiting.
    Unparseable,
    Blank,
}

fn classify(line: &[u8]) -> Line {
    if line.iter().all(u8::is_ascii_whitespace) {
        return Line::Blank;
    }
    match serde_json::from_slice::<Value>(line) {
        Err(_) => Line::Unparseable,
        Ok(msg) => match msg.get("id") {
            Some(id) if msg["method"] == "tools/call" => Line::Call(id.clone()),
            None if msg["method"] == "notifications/cancelled" => {
                Line::Cancel(msg["params"]["requestId"].clone())
            }
            _ => Line::Other,
        },
    }
}

/// JSON-RPC's answer to a line that is not JSON.
fn parse_error() -> Value {
    serde_json::json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32700, "message": "Parse error: the line is not valid JSON"}})
}

/// JSON-RPC's answer to a line over MAX_LINE, whose id was never read (null, as for a line that
/// does not parse).
fn too_long() -> Value {
    let message = format!(
        "Invalid Request: a line over {} MiB was skipped; send large data as a file",
        MAX_LINE >> 20
    );
    serde_json::json!({"jsonrpc": "2.0", "id": null,
        "error": {"code": -32600, "message": message}})
}

/// What the reader took from the client: a whole line, or one over MAX_LINE, which it skipped.
enum Read {
    Line(Vec<u8>),
    TooLong,
}

/// Reads the client's lines on a task of its own: `read_until` is not cancel-safe, so it must
/// never be one arm of a `select!`, or a half-read request is lost. A line over MAX_LINE is
/// read on to its end without being kept, so the next line is read whole and the session stays.
fn read_lines<R: AsyncRead + Unpin + Send + 'static>(input: R) -> mpsc::Receiver<Read> {
    let (tx, rx) = mpsc::channel(READ_AHEAD);
    tokio::spawn(async move {
        let mut reader = BufReader::new(input).take(MAX_LINE);
        let mut skipping = false;
        loop {
            let mut line = Vec::new();
            reader.set_limit(MAX_LINE);
            let read = match reader.read_until(b'\n', &mut line).await {
                Ok(0) | Err(_) => return,
                Ok(_) if !line.ends_with(b"\n") && line.len() as u64 == MAX_LINE => {
                    if !skipping {
                        tracing::warn!("the client sent a line over {MAX_LINE} bytes; skipped");
                    }
                    skipping = true;
                    continue;
                }
                Ok(_) if skipping => Read::TooLong,
                Ok(_) => Read::Line(line),
            };
            skipping = false;
            if tx.send(read).await.is_err() {
                return;
            }
        }
    });
    rx
}

/// The calls held back, in order, with their bytes.
#[derive(Default)]
struct Queue {
    calls: VecDeque<(Value, Vec<u8>)>,
    bytes: usize,
}

impl Queue {
    /// Whether another line may be read: under both bounds.
    fn has_room(&self) -> bool {
        self.calls.len() < MAX_QUEUED && self.bytes < MAX_QUEUED_BYTES
    }

    fn push_back(&mut self, call: (Value, Vec<u8>)) {
        self.bytes += call.1.len();
        self.calls.push_back(call);
    }

    fn pop_front(&mut self) -> Option<(Value, Vec<u8>)> {
        let call = self.calls.pop_front()?;
        self.bytes -= call.1.len();
        Some(call)
    }

    fn holds(&self, id: &Value) -> bool {
        self.calls.iter().any(|(queued, _)| queued == id)
    }

    fn cancel(&mut self, id: &Value) {
        self.calls.retain(|(queued, _)| queued != id);
        self.bytes = self.calls.iter().map(|(_, line)| line.len()).sum();
    }

    fn clear(&mut self) {
        *self = Queue::default();
    }
}

async fn pump_in<R: AsyncRead + Unpin + Send + 'static>(
    input: R,
    mut to_server: DuplexStream,
    mut done: mpsc::UnboundedReceiver<Value>,
    replies: mpsc::UnboundedSender<Value>,
) {
    let mut lines = read_lines(input);
    let mut queue = Queue::default();
    let mut running: Option<Value> = None;
    let mut open = true;
    loop {
        // Start the next held-back call once none is running.
        if running.is_none()
            && let Some((id, line)) = queue.pop_front()
        {
            if to_server.write_all(&line).await.is_err() {
                return;
            }
            running = Some(id);
        }
        if !open && running.is_none() {
            return; // the client is gone and nothing is left to run: rmcp sees EOF
        }
        tokio::select! {
            finished = done.recv() => match finished {
                Some(id) if running.as_ref() == Some(&id) => running = None,
                Some(_) => {}
                None => return,
            },
            line = lines.recv(), if open && queue.has_room() => match line {
                None => {
                    // The client closed stdin: calls not yet started are dropped.
                    open = false;
                    queue.clear();
                }
                Some(Read::TooLong) => {
                    let _ = replies.send(too_long());
                }
                Some(Read::Line(line)) => match classify(&line) {
                    Line::Call(id) => queue.push_back((id, line)),
                    Line::Cancel(id) if queue.holds(&id) => queue.cancel(&id),
                    // rmcp answers a cancelled call with nothing (the spec's SHOULD), and the
                    // call stops at once (Server::call_tool): the next one may start.
                    Line::Cancel(id) if running.as_ref() == Some(&id) => {
                        if to_server.write_all(&line).await.is_err() {
                            return;
                        }
                        running = None;
                    }
                    Line::Unparseable => {
                        let _ = replies.send(parse_error());
                    }
                    Line::Cancel(_) | Line::Other | Line::Blank => {
                        if to_server.write_all(&line).await.is_err() {
                            return;
                        }
                    }
                },
            },
        }
    }
}

/// Writes rmcp's lines and the shim's own answers to the client, one whole line at a time.
async fn pump_out<W: AsyncWrite + Unpin>(
    from_server: DuplexStream,
    mut output: W,
    done: mpsc::UnboundedSender<Value>,
    mut replies: mpsc::UnboundedReceiver<Value>,
) {
    let (tx, mut merged) = mpsc::channel::<String>(MAX_QUEUED);
    let from_rmcp = tx.clone();
    // `next_line` is not cancel-safe either, so the server's lines are read on their own task.
    tokio::spawn(async move {
        let mut lines = BufReader::new(from_server).lines();
        while let Ok(Some(line)) = lines.next_line().await {
            if from_rmcp.send(line).await.is_err() {
                return;
            }
        }
    });
    tokio::spawn(async move {
        while let Some(reply) = replies.recv().await {
            if tx.send(reply.to_string()).await.is_err() {
                return;
            }
        }
    });
    while let Some(line) = merged.recv().await {
        if output.write_all(line.as_bytes()).await.is_err()
            || output.write_all(b"\n").await.is_err()
        {
            return;
        }
        let _ = output.flush().await;
        if let Ok(msg) = serde_json::from_str::<Value>(&line)
            && msg.get("method").is_none()
            && (msg.get("result").is_some() || msg.get("error").is_some())
            && let Some(id) = msg.get("id")
        {
            let _ = done.send(id.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::Duration;

    /// A client that pipelines big calls while one runs and never ends: the calls held back
    /// stop at the bytes bound (by count alone, 256 of them would be read and held).
    #[tokio::test]
    async fn calls_held_back_are_bounded_by_bytes_as_well_as_count() {
        let (mut client, input) = tokio::io::duplex(PIPE);
        let (mut server_in, _server_out) = ordered(input, tokio::io::sink());
        // The server reads what reaches it (the first call) and never answers.
        tokio::spawn(async move {
            let mut buf = vec![0u8; PIPE];
            while matches!(server_in.read(&mut buf).await, Ok(n) if n > 0) {}
        });
        const LINE: usize = 1 << 20;
        let sent = Arc::new(AtomicUsize::new(0));
        let count = sent.clone();
        tokio::spawn(async move {
            let pad = "p".repeat(LINE);
            for id in 0..2 * MAX_QUEUED_BYTES / LINE + 8 {
                let call = serde_json::json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
                    "params": {"name": "browser_type", "arguments": {"text": pad}}});
                let line = call.to_string() + "\n";
                if client.write_all(line.as_bytes()).await.is_err() {
                    return;
                }
                count.fetch_add(1, Ordering::SeqCst);
            }
        });
        // Wait until the client can write no more.
        let mut last = usize::MAX;
        for _ in 0..100 {
            tokio::time::sleep(Duration::from_millis(200)).await;
            let now = sent.load(Ordering::SeqCst);
            if now == last {
                break;
            }
            last = now;
        }
        // The running call, the queue up to its bytes, the line read ahead and the one read.
        let most = 1 + MAX_QUEUED_BYTES / LINE + READ_AHEAD + 2;
        assert!(
            last <= most,
            "{last} lines of 1 MiB taken in (at most {most})"
        );
        assert!(last >= MAX_QUEUED_BYTES / LINE, "{last}");
    }
}
