// The extension's half of a remote pairing (extension/sw/remote.js), under node's own WebCrypto:
// its keys and fingerprint are the relay's, byte for byte (src/shared/protocol/remote.rs holds
// the same vectors). The exchange itself is tested against the real relay (tests/e2e/remote.rs).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { codeText, fingerprint, pairKeys, parseAddress, transcript } from '../../extension/sw/remote.js';

const hex = (bytes) => Buffer.from(bytes).toString('hex');

test('the keys and the fingerprint are the relay\'s', async () => {
  const ikm = new Uint8Array(Array.from({ length: 64 }, (_, i) => i));
  const keys = await pairKeys(ikm, 'ABCD2345WXYZ', transcript('01', '02', '03'));
  assert.equal(hex(await keys.seal('{"t":"claim"}')), '119ecefe98a1e12fd6549a05f5d1179ebf32139c2d307bbf582f5fc532');
  assert.equal(await fingerprint('04010203'), '3CCB 7EA5 A2AA 7BD4');
});

test('a typed code is keyed as letters and digits in upper case', () => {
  assert.equal(codeText('ab2c-d3ef 45gh'), 'AB2CD3EF45GH');
});

test('an address is HOST:PORT, an IPv6 one in brackets', () => {
  assert.deepEqual(parseAddress(' 10.77.0.1:47400 '), { address: '10.77.0.1:47400', host: '10.77.0.1', port: 47400 });
  assert.deepEqual(parseAddress('[fd00::1]:9'), { address: '[fd00::1]:9', host: '[fd00::1]', port: 9 });
  assert.equal(parseAddress('devbox'), null);
  assert.equal(parseAddress('devbox:0'), null);
  assert.equal(parseAddress('devbox:70000'), null);
  assert.equal(parseAddress('ws://devbox:80'), null);
});
