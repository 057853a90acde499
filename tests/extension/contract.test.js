// The extension held to the contract the controller writes (extension/sw/contract.js): every error
// code it can send is in the closed set, and every page-script operation it asks for is one a
// page script defines. (Its dispatch table against the operations is the controller's test:
// protocol::op::tests.) Read from the files' text: the extension's modules need a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

import { CONTRACT } from '../../extension/sw/contract.js';

const EXTENSION = fileURLToPath(new URL('../../extension/', import.meta.url));

// Every JavaScript file of the extension but the vendored ones, with its text.
function sources(dir = EXTENSION) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'vendor' ? [] : sources(path);
    return entry.name.endsWith('.js') ? [[relative(EXTENSION, path), readFileSync(path, 'utf8')]] : [];
  });
}

const all = (text, pattern) => [...text.matchAll(pattern)].map((m) => m[1]);

test('every error code the extension can send is in the closed set', () => {
  const codes = new Set(CONTRACT.codes);
  const outside = sources().flatMap(([file, text]) =>
    [...all(text, /ToolError\(\s*'([A-Z][A-Z_]+)'/g), ...all(text, /\bcode: '([A-Z][A-Z_]+)'/g)]
      .filter((code) => !codes.has(code))
      .map((code) => `${file}: ${code}`),
  );
  assert.deepEqual(outside, []);
});

test('every page-script operation asked for is one a page script defines', () => {
  const files = sources();
  const page = files.filter(([file]) => file.startsWith('page/')).map(([, text]) => text).join('\n');
  const assigned = all(page, /Object\.assign\(T\.ops, \{([^}]*)\}\)/g).flatMap((names) => names.split(','));
  const defined = new Set([...all(page, /\bT\.ops\.(\w+)\s*=/g), ...assigned.map((name) => name.trim())]);
  const asked = files.flatMap(([file, text]) =>
    all(text, /\brun(?:InPage|OnRef|InFrame|InFrames)\([^,]+,\s*'(\w+)'/g).map((op) => [file, op]),
  );
  assert.ok(asked.length > 10, 'the calls were found');
  const missing = asked.filter(([, op]) => !defined.has(op)).map(([file, op]) => `${file}: ${op}`);
  assert.deepEqual(missing, []);
});
