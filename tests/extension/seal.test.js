// The link's sealing (extension/sw/seal.js), under node's own WebCrypto: the same sealed bytes
// as the relay's Rust (src/shared/protocol/seal.rs holds the same vector), and a channel that keeps
// frames in order and refuses one in clear, altered, replayed or dropped.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { UNSEALED, channel, linkKeys, opener, sealer } from '../../extension/sw/seal.js';

globalThis.WebSocket ??= { OPEN: 1 };

test('the extension seals as the relay does', async () => {
  const keys = await linkKeys('s3cret', 'browser', 47311, 'n0nce', 'cn0nce');
  const sealed = await keys.seal('{"t":"pong"}');
  assert.equal(Buffer.from(sealed).toString('hex'), 'b307f355a9203e5835d817853b1d1eef04a36dd3c9ec2da4f925b099');
});

// Both ends of one direction, over a key of the test's own.
async function ends() {
  const key = await crypto.subtle.generateKey({ name: 'AES-GCM', length: 256 }, false, ['encrypt', 'decrypt']);
  return { seal: sealer(key), open: opener(key) };
}

// A socket that keeps what is sent on it and how it was closed.
function socket() {
  return { readyState: 1, sent: [], closed: null, send(b) { this.sent.push(b); }, close(code) { this.closed = code; } };
}

// A channel over `keys`, with what it handed on and what it refused.
function over(keys) {
  const ws = socket();
  const got = { texts: [], refused: [] };
  const chan = channel(ws, keys, { onText: (t) => got.texts.push(t), onRefused: (why) => got.refused.push(why) });
  return { ws, chan, got };
}

// Waits for `done()` (WebCrypto answers when it likes, later on a busy machine).
async function until(done) {
  for (const started = Date.now(); !done(); ) {
    assert.ok(Date.now() - started < 10000, 'waited 10 s');
    await new Promise((next) => setTimeout(next, 5));
  }
}
const buffer = (bytes) => bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);

test('frames go out and are handed on in the order given', async () => {
  const { seal, open } = await ends();
  const sender = over({ seal, open: null });
  const texts = Array.from({ length: 20 }, (_, i) => `frame ${i} ${'x'.repeat(i * 997)}`);
  texts.forEach((t) => sender.chan.send(t));
  await until(() => sender.ws.sent.length === 20);
  assert.equal(sender.ws.sent.length, 20);
  const receiver = over({ seal: null, open });
  sender.ws.sent.forEach((b) => receiver.chan.receive(buffer(b)));
  await until(() => receiver.got.texts.length === 20);
  assert.deepEqual(receiver.got.texts, texts);
  assert.deepEqual(receiver.got.refused, []);
});

test('a frame in clear, altered, replayed or after a dropped one closes the link', async () => {
  for (const attack of ['clear', 'altered', 'replayed', 'dropped']) {
    const { seal, open } = await ends();
    const first = await seal('{"t":"ping"}');
    const second = await seal('{"t":"call"}');
    const { ws, chan, got } = over({ seal: null, open });
    if (attack === 'clear') chan.receive('{"t":"call"}');
    if (attack === 'altered') chan.receive(buffer(first.map((b, i) => (i === 3 ? b ^ 1 : b))));
    if (attack === 'replayed') [first, first].forEach((b) => chan.receive(buffer(b)));
    if (attack === 'dropped') chan.receive(buffer(second));
    chan.receive(buffer(second));
    await until(() => ws.closed !== null);
    // What was queued behind the refusal has had its turn.
    await new Promise((next) => setTimeout(next, 50));
    assert.equal(ws.closed, UNSEALED, attack);
    assert.equal(got.refused.length, 1, attack);
    assert.ok(!got.texts.includes('{"t":"call"}'), `${attack}: nothing after it is handed on`);
  }
});
