// The network log as the session store keeps it (netlog.js): a copy within a size in bytes of
// JSON, so the log never crowds out what else the worker keeps there. Where the log is over, its
// entries lose their headers first, then go, 50 at a time, the oldest of each document first;
// a document counts the entries that went in `dropped`, as the live log does. The live log
// keeps everything.
const STEP = 50;

export function within(log, maxBytes) {
  const all = JSON.parse(JSON.stringify(log));
  const size = () => JSON.stringify(all).length;
  if (size() <= maxBytes) return all;
  const docs = Object.values(all).flat();
  const entries = docs.flatMap((d) => d.entries);
  for (let i = 0; i < entries.length && size() > maxBytes; i += STEP) {
    for (const e of entries.slice(i, i + STEP)) {
      delete e.requestHeaders;
      delete e.responseHeaders;
    }
  }
  for (const doc of docs) {
    while (doc.entries.length && size() > maxBytes) {
      const n = Math.min(STEP, doc.entries.length);
      doc.entries.splice(0, n);
      doc.dropped += n;
    }
  }
  return all;
}
