// The second line of secret masking (extension/sw/masking.js): a secret filled by name is found
// in a text however a browser or a page wrote it, whole or a long enough run of it, and nothing
// else is touched: not a short secret's characters elsewhere, not a ref.
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { masker, MIN_RUN, MIN_WHOLE } from '../../extension/sw/masking.js';

const SECRET = "tok 42 it's (a)!~ *x <b> & \"q\" é/€";
const NAME = '[secret app-token]';
const mask = masker([[SECRET, 'app-token']]);

// application/x-www-form-urlencoded as a browser's GET form writes it.
const formEncoded = (s, lower = false) => {
  const encoded = encodeURIComponent(s).replace(/[!'()~*]/g, (c) => '%' + c.charCodeAt(0).toString(16).toUpperCase());
  const plus = encoded.replace(/%20/g, '+');
  return lower ? plus.replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase()) : plus;
};
const entities = {
  named: (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;'),
  decimal: (s) => s.replace(/[&<>"'!()~]/g, (c) => `&#${c.charCodeAt(0)};`),
  hex: (s) => s.replace(/[&<>"'!()~ ]/g, (c) => `&#x${c.charCodeAt(0).toString(16).toUpperCase()};`),
};

test('every encoding a browser writes is found, whole', () => {
  const forms = {
    plain: SECRET,
    component: encodeURIComponent(SECRET),
    uri: encodeURI(SECRET),
    form: formEncoded(SECRET),
    'form, lower-case hex': formEncoded(SECRET, true),
    'percent, spaces as +': encodeURIComponent(SECRET).replace(/%20/g, '+'),
    'URL in a URL': encodeURIComponent(`/found?q=${formEncoded(SECRET)}`),
    ...Object.fromEntries(Object.entries(entities).map(([how, encode]) => [how, encode(SECRET)])),
    json: JSON.stringify(SECRET).slice(1, -1),
    'json, ascii only': JSON.stringify(SECRET).slice(1, -1).replace(/[^\x20-\x7e]/g, (c) =>
      `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
    'form in an attribute': `/found?a=1&amp;q=${formEncoded(SECRET)}`,
    'json in an attribute': entities.named(JSON.stringify({ q: SECRET })),
    'html in json': JSON.stringify(entities.named(SECRET)).slice(1, -1),
    'form in json': JSON.stringify(`/found?q=${formEncoded(SECRET)}`),
  };
  for (const [how, form] of Object.entries(forms)) {
    const out = mask(`before ${form} after`);
    assert.ok(out.includes(NAME), `${how}: ${out}`);
    assert.ok(out.startsWith('before ') && out.endsWith(' after'), `${how}: ${out}`);
    assert.ok(!out.includes('tok 42') && !out.includes('tok+42') && !out.includes('tok%2042'), `${how}: ${out}`);
  }
});

test('a GET form URL keeps its other parameters and shows the secret by name', () => {
  const url = `http://127.0.0.1:4000/found?q=${formEncoded(SECRET)}&note=hi`;
  assert.equal(mask(url), `http://127.0.0.1:4000/found?q=${NAME}&note=hi`);
});

test('a cut echo is found by its run: any sixteen characters in a row of a long secret', () => {
  const long = 'sk-live-' + 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghij0123456789'.repeat(3);
  const m = masker([[long, 'key']]);
  const prefix = long.slice(0, MIN_RUN);
  assert.equal(m(`You typed ${prefix}…`), 'You typed [secret key]…');
  const middle = long.slice(40, 40 + MIN_RUN + 5);
  assert.equal(m(`x ${encodeURIComponent(middle)} y`), 'x [secret key] y');
  // Shorter than a run: left, as ordinary text it may well be.
  const short = long.slice(0, MIN_RUN - 1);
  assert.equal(m(`You typed ${short}…`), `You typed ${short}…`);
});

test('a form value with spaces and nothing to escape is found too', () => {
  const m = masker([['correct horse battery staple', 'phrase']]);
  assert.equal(m('/found?q=correct+horse+battery+staple&x=1'), '/found?q=[secret phrase]&x=1');
});

test('a form sent in a legacy charset (one byte a character) is found', () => {
  const m = masker([['café crème', 'word']]);
  assert.equal(m('/found?q=caf%E9+cr%E8me'), '/found?q=[secret word]');
});

test('whitespace a snapshot squashed is still the secret', () => {
  const m = masker([['correct  horse\nbattery staple', 'phrase']]);
  assert.equal(m('said: correct horse battery staple.'), 'said: [secret phrase].');
});

test('a secret too short to find as text is left to its element: nothing else changes', () => {
  const text = '- textbox "Note" [ref=e7q2e]\n- button "Search" [ref=e1e2e.2] 2024 here';
  for (const short of ['e', '7', '2024', 'e7q2e', 'ref=e']) {
    assert.ok(short.length < MIN_WHOLE);
    assert.equal(masker([[short, 'pin']])(text), text, short);
  }
});

test('refs and strings that are refs are never rewritten', () => {
  const m = masker([['ref=e7q2e] x', 'odd'], ['f12:e7k2f.2', 'ref-like']]);
  assert.equal(m('f12:e7k2f.2'), 'f12:e7k2f.2');
  assert.ok(m('- link "a" [ref=e7q2e] x').includes('[ref=e7q2e'));
});

test('two secrets, one inside the other, each go by name', () => {
  const m = masker([['hunter2hunter2', 'short'], ['hunter2hunter2-and-more-of-it', 'long']]);
  assert.equal(m('a hunter2hunter2-and-more-of-it b hunter2hunter2 c'), 'a [secret long] b [secret short] c');
});

test('masking a long text stays quick', () => {
  const m = masker([[SECRET, 'a'], ['x'.repeat(160), 'b'], ['ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789', 'c']]);
  const text = '- link "Read more about things" [ref=e7q2e] %20 &amp; \\n\n'.repeat(4000);
  const started = performance.now();
  assert.equal(m(text), text);
  assert.ok(performance.now() - started < 2000, `${performance.now() - started} ms`);
});
