// The network log as the session store keeps it (netlog.js): a copy within a size in bytes of
// JSON, so the log never crowds out what else the worker keeps there. Where the log is over, its
// entries lose their headers first, then go, 50 at a time, the oldest of each document first;
// a document counts the entries that went in `dropped`, as the live log does. The live log
// keeps everything. The size is measured once and kept exact as the copy is cut (the log is
// saved a moment after every change, so cutting must not serialise it again per step).
const STEP = 50;

const bytes = (v) => JSON.stringify(v).length;

export function within(log, maxBytes) {
  const all = JSON.parse(JSON.stringify(log));
  let size = bytes(all);
  if (size <= maxBytes) return all;
  const docs = Object.values(all).flat();
  for (const e of docs.flatMap((d) => d.entries)) {
    if (size <= maxBytes) break;
    const before = bytes(e);
    delete e.requestHeaders;
    delete e.responseHeaders;
    size -= before - bytes(e);
  }
  for (const doc of docs) {
    while (doc.entries.length && size > maxBytes) {
      const n = Math.min(STEP, doc.entries.length);
      const gone = doc.entries.splice(0, n);
      // Each entry goes with the comma that joined it to the next, or to the one before when
      // none is left after it; `dropped` may grow by a digit.
      const commas = doc.entries.length ? n : n - 1;
      const dropped = bytes(doc.dropped);
      doc.dropped += n;
      size -= gone.reduce((sum, e) => sum + bytes(e), 0) + commas - (bytes(doc.dropped) - dropped);
    }
  }
  return all;
}
