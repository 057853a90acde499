// The extension's half of the relay's HMAC-SHA256 challenge-response.
import { HANDSHAKE } from './contract.js';

const enc = new TextEncoder();

// The text `who` signs to prove it holds the secret, on a socket to `port`, over `nonce`.
export const proofText = (who, port, nonce) => `${HANDSHAKE.proof} ${who} ${port} ${nonce}`;

export function randomHex(bytes) {
  const b = crypto.getRandomValues(new Uint8Array(bytes));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

export async function hmacHex(secret, message) {
  const algorithm = { name: 'HMAC', hash: 'SHA-256' };
  const key = await crypto.subtle.importKey('raw', enc.encode(secret), algorithm, false, ['sign']);
  const sig = new Uint8Array(await crypto.subtle.sign('HMAC', key, enc.encode(message)));
  return Array.from(sig, (x) => x.toString(16).padStart(2, '0')).join('');
}
