// Pairing with a relay on another computer (`tabpilot relay --listen`, then `tabpilot pair
// --remote` there): the exchange of src/shared/protocol/remote.rs, browser side, with WebCrypto
// over the same texts. The code the person typed never crosses the wire: it salts the keys, and
// only a relay that issued it opens the claim. What is kept: the relay's address, its lasting key
// (pinned: every later challenge must name its fingerprint) and the secret of the link.
import { HANDSHAKE } from './contract.js';
import { opener, sealer } from './seal.js';

const enc = new TextEncoder();
const ECDH = { name: 'ECDH', namedCurve: 'P-256' };
// What the browser's claim says, sealed: that it holds the keys.
const CLAIM = '{"t":"claim"}';
// Letters and digits in a code from `tabpilot pair --remote`.
const CODE_LETTERS = 12;
// Time for each step of the exchange.
const STEP_WITHIN = 10000;

export const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
export const unhex = (text) => new Uint8Array(String(text).match(/../g)?.map((h) => parseInt(h, 16)) ?? []);

// A code as it is keyed: letters and digits only, upper case.
export const codeText = (typed) =>
  String(typed ?? '')
    .replace(/[^a-z0-9]/gi, '')
    .toUpperCase();

// The three public keys, hex, in the order they were sent.
export const transcript = (browserEph, relayKey, relayEph) => `${browserEph} ${relayKey} ${relayEph}`;

// The exchange's keys as the browser holds them: HKDF over the two ECDH results, salted with
// the code, one AES-256-GCM key per direction.
export async function pairKeys(ikm, code, said) {
  const base = await crypto.subtle.importKey('raw', ikm, 'HKDF', false, ['deriveKey']);
  const salt = enc.encode(`${HANDSHAKE.pairKeys} ${code}`);
  const key = (from, to, use) =>
    crypto.subtle.deriveKey(
      { name: 'HKDF', hash: 'SHA-256', salt, info: enc.encode(`${HANDSHAKE.pairKeys} ${from} ${to} ${said}`) },
      base,
      { name: 'AES-GCM', length: 256 },
      false,
      [use],
    );
  const [up, down] = await Promise.all([
    key(HANDSHAKE.browser, HANDSHAKE.relay, 'encrypt'),
    key(HANDSHAKE.relay, HANDSHAKE.browser, 'decrypt'),
  ]);
  return { seal: sealer(up), open: opener(down) };
}

// The short form of a relay's public key a person compares: the first 64 bits of its SHA-256.
export async function fingerprint(publicHex) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', unhex(publicHex)));
  return hex(digest.slice(0, 8)).toUpperCase().match(/.{4}/g).join(' ');
}

// `HOST:PORT` as the person typed it (`[v6]:PORT` for an IPv6 address): where to dial, or null.
export function parseAddress(text) {
  const m = /^\s*(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):(\d{1,5})\s*$/.exec(String(text ?? ''));
  const port = Number(m?.[2]);
  if (!m || port < 1 || port > 65535) return null;
  return { address: `${m[1]}:${port}`, host: m[1], port };
}

// The WebSocket's messages, one at a time, each within STEP_WITHIN.
function messages(ws) {
  const queue = [];
  const waiting = [];
  const push = (item) => (waiting.length ? waiting.shift()(item) : queue.push(item));
  ws.onmessage = (ev) => push({ data: ev.data });
  ws.onclose = () => push({ closed: true });
  ws.onerror = () => {};
  return () =>
    queue.length
      ? Promise.resolve(queue.shift())
      : new Promise((resolve) => {
          const timer = setTimeout(() => resolve({ late: true }), STEP_WITHIN);
          waiting.push((item) => {
            clearTimeout(timer);
            resolve(item);
          });
        });
}

// The words for a step that brought no message, or the relay's refusal.
function failure(step, at) {
  if (step.late) return `the relay at ${at.address} took too long to answer`;
  if (step.closed) return `nothing answers at ${at.address} as a tabpilot relay (is tabpilot relay --listen running?)`;
  try {
    const said = JSON.parse(step.data);
    if (said.error) return `the relay refused: ${said.error}`;
  } catch (_) {
    // not words from the relay
  }
  return `what answers at ${at.address} does not speak tabpilot's pairing`;
}

// The exchange, browser side: the pairing to keep ({ address, host, port, key, fingerprint,
// secret }), or the reason there is none.
export async function exchange({ address, code }) {
  const at = parseAddress(address);
  if (!at) return { reason: 'that is not an address: type HOST:PORT, as tabpilot pair --remote printed it' };
  const typed = codeText(code);
  if (typed.length !== CODE_LETTERS) {
    return { reason: 'a code from tabpilot pair --remote has twelve letters and digits' };
  }
  const mine = await crypto.subtle.generateKey(ECDH, false, ['deriveBits']);
  const eph = hex(new Uint8Array(await crypto.subtle.exportKey('raw', mine.publicKey)));
  let ws;
  try {
    ws = new WebSocket(`ws://${at.host}:${at.port}${HANDSHAKE.remotePairPath}`);
  } catch (_) {
    return { reason: `cannot dial ${at.address}` };
  }
  ws.binaryType = 'arraybuffer';
  const next = messages(ws);
  try {
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onclose = reject;
      setTimeout(reject, STEP_WITHIN);
    });
  } catch (_) {
    return { reason: `nothing answers at ${at.address} (is tabpilot relay --listen running there?)` };
  }
  try {
    return await trade(ws, next, at, typed, mine, eph);
  } finally {
    ws.close();
  }
}

// Steps 1 to 5 of the exchange on an open socket.
async function trade(ws, next, at, code, mine, eph) {
  ws.send(JSON.stringify({ eph }));
  const first = await next();
  let offer = null;
  try {
    offer = typeof first.data === 'string' ? JSON.parse(first.data) : null;
  } catch (_) {
    offer = null;
  }
  if (!offer?.key || !offer?.eph) return { reason: failure(first, at) };
  let ikm;
  try {
    const agree = async (theirs) =>
      new Uint8Array(
        await crypto.subtle.deriveBits(
          { name: 'ECDH', public: await crypto.subtle.importKey('raw', unhex(theirs), ECDH, false, []) },
          mine.privateKey,
          256,
        ),
      );
    const [lasting, fresh] = [await agree(offer.key), await agree(offer.eph)];
    ikm = new Uint8Array([...lasting, ...fresh]);
  } catch (_) {
    return { reason: `the relay at ${at.address} sent a key that is not a P-256 point` };
  }
  const keys = await pairKeys(ikm, code, transcript(eph, offer.key, offer.eph));
  ws.send(await keys.seal(CLAIM));
  const answer = await next();
  if (!(answer.data instanceof ArrayBuffer)) return { reason: failure(answer, at) };
  let grant;
  try {
    grant = JSON.parse(await keys.open(new Uint8Array(answer.data)));
  } catch (_) {
    return { reason: `the answer from ${at.address} did not open with the pairing's keys` };
  }
  if (typeof grant.secret !== 'string' || grant.port !== at.port) {
    return { reason: `the relay at ${at.address} answered for another port` };
  }
  return { ...at, key: offer.key, fingerprint: await fingerprint(offer.key), secret: grant.secret };
}
