// The extension's half of the handshake (extension/sw/auth.js), under node's own WebCrypto: its
// proof is the relay's, byte for byte (src/shared/protocol/auth.rs holds the same vector), over
// the words the generated contract gives (HANDSHAKE).
import { test } from 'node:test';
import assert from 'node:assert/strict';

import { HANDSHAKE } from '../../extension/sw/contract.js';
import { hmacHex, proofText } from '../../extension/sw/auth.js';

test('the proof is the one the relay makes, over the contract words', async () => {
  assert.equal(proofText(HANDSHAKE.relay, 47312, 'abc'), `${HANDSHAKE.proof} relay 47312 abc`);
  const proof = await hmacHex('s', proofText(HANDSHAKE.relay, 47312, 'abc'));
  assert.equal(proof, 'e18e95d58fdb5139aa64ce112f0afc2d7a4826ee1ddf4065a86e906e7f6f7230');
});
