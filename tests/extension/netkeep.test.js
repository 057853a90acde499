// The network log's copy for the session store (extension/sw/netkeep.js): within its size, the
// headers going before the entries, what went counted, the live log untouched.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { within } from '../../extension/sw/netkeep.js';

const header = { name: 'x-long', value: 'v'.repeat(200) };
const entry = (n) => ({
  url: `https://a.test/${n}`,
  status: 200,
  requestHeaders: [header],
  responseHeaders: [header],
});
const logOf = (count) => ({ 7: [{ entries: Array.from({ length: count }, (_, n) => entry(n)), dropped: 0 }] });

test('a log within the size is kept whole, as a copy', () => {
  const log = logOf(3);
  const kept = within(log, 1 << 20);
  assert.deepEqual(kept, log);
  assert.notEqual(kept[7], log[7]);
});

test('past the size the headers go first, and every entry stays', () => {
  const log = logOf(200);
  const bare = JSON.stringify(logOf(200)).length - 200 * 2 * JSON.stringify(header).length;
  const kept = within(log, bare + 20000);
  assert.ok(JSON.stringify(kept).length <= bare + 20000);
  assert.equal(kept[7][0].entries.length, 200);
  assert.equal(kept[7][0].dropped, 0);
  assert.equal(kept[7][0].entries[0].requestHeaders, undefined, 'the oldest lose theirs first');
  assert.ok(kept[7][0].entries[199].requestHeaders, 'the newest keep theirs');
  assert.equal(log[7][0].entries[0].requestHeaders.length, 1, 'the live log is untouched');
});

test('past the size without headers the oldest entries go, and are counted', () => {
  const kept = within(logOf(400), 5000);
  const doc = kept[7][0];
  assert.ok(JSON.stringify(kept).length <= 5000);
  assert.ok(doc.entries.length > 0 && doc.entries.length < 400);
  assert.equal(doc.dropped + doc.entries.length, 400);
  assert.equal(doc.entries.at(-1).url, 'https://a.test/399', 'the newest stays');
});
