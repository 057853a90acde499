// The link's frames after the handshake, sealed: AES-256-GCM under keys derived from the relay's
// secret and both nonces of the handshake (HKDF over SHA-256), one key per direction, each
// frame's nonce its sender's count of the frames it sealed before. A proxy or anything else on
// the path sees ciphertext, and a frame it adds, alters, drops or replays does not open: the link
// closes. The relay and the controller do the same in Rust (src/shared/protocol/seal.rs), over the same
// texts.
import { CLOSE, HANDSHAKE } from './contract.js';

const enc = new TextEncoder();
const dec = new TextDecoder('utf-8', { fatal: true });
const SALT = enc.encode(HANDSHAKE.sealSalt);
// The close code the relay also uses for a frame that does not open.
export const UNSEALED = CLOSE.unsealed;

// The two directions of the socket to the relay's `port`, as the peer of `role` holds them.
export async function linkKeys(secret, role, port, nonce, cnonce) {
  const base = await crypto.subtle.importKey('raw', enc.encode(secret), 'HKDF', false, ['deriveKey']);
  const key = (info, use) =>
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt: SALT, info: enc.encode(`${HANDSHAKE.seal} ${info}`) },
      base,
      { name: 'AES-GCM', length: 256 },
      false,
      [use],
    );
  const [up, down] = await Promise.all([
    key(`${role} ${HANDSHAKE.relay} ${port} ${nonce} ${cnonce}`, 'encrypt'),
    key(`${HANDSHAKE.relay} ${role} ${port} ${nonce} ${cnonce}`, 'decrypt'),
  ]);
  return { seal: sealer(up), open: opener(down) };
}

// The nonce of the frame numbered `count`: four zero bytes, then the count, big-endian.
function iv(count) {
  const bytes = new Uint8Array(12);
  new DataView(bytes.buffer).setBigUint64(4, BigInt(count));
  return bytes;
}

// Seals texts, each under the next count (taken when called, so calls number in their order).
export function sealer(key) {
  let count = 0;
  return async (text) =>
    new Uint8Array(await crypto.subtle.encrypt({ name: 'AES-GCM', iv: iv(count++) }, key, enc.encode(text)));
}

// Opens bytes under the next count; rejects what does not open.
export function opener(key) {
  let count = 0;
  return async (bytes) => {
    const at = iv(count++);
    try {
      return dec.decode(await crypto.subtle.decrypt({ name: 'AES-GCM', iv: at }, key, bytes));
    } catch (_) {
      throw new Error('a frame did not open with the link key');
    }
  };
}

// Frames over `ws` sealed with `keys`, in order both ways though WebCrypto answers when it likes:
// each text is sealed at once and sent after the one before it; each message received is opened
// and handed to `onText` after the one before it. A message in clear, or one that does not open,
// closes the socket with UNSEALED and is handed to `onRefused`; nothing after it is read.
export function channel(ws, keys, { onText, onRefused }) {
  let out = Promise.resolve();
  let incoming = Promise.resolve();
  let refused = false;
  const refuse = (why) => {
    if (refused) return;
    refused = true;
    onRefused(why);
    ws.close(UNSEALED, 'a frame was not sealed with this link key');
  };
  return {
    send(text) {
      const sealed = keys.seal(text);
      // Settled in its turn below; marked handled now, so that one failing before its turn is
      // not an unhandled rejection meanwhile.
      sealed.catch(() => {});
      out = out
        .then(() => sealed)
        .then((bytes) => {
          if (ws.readyState === WebSocket.OPEN) ws.send(bytes);
        })
        .catch(() => ws.close());
    },
    receive(data) {
      if (refused) return;
      if (!(data instanceof ArrayBuffer)) {
        refuse('a frame came in clear');
        return;
      }
      const opened = keys.open(new Uint8Array(data));
      opened.catch(() => {});
      incoming = incoming
        .then(() => opened)
        .then(
          (text) => refused || onText(text),
          () => refuse('a frame did not open'),
        )
        .catch(() => refuse('a frame was malformed'));
    },
  };
}
