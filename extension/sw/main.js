// Service worker: the link to the tabpilot relay. Calls are run from the one table in ops.js;
// DOM work lives in the page scripts (page/); this file never runs code a caller supplies.
import { answer } from './ops.js';
import { cancel } from './cancel.js';
import { hmacHex, proofText, randomHex } from './auth.js';
import { CLOSE, FRAME, HANDSHAKE, TAB_EVENT } from './contract.js';
import { channel, linkKeys } from './seal.js';
import { claim, managed, offeredPort, pairing, pairingPage, places } from './pairing.js';
import { exchange } from './remote.js';
import { anyTab, closed, held, isShared, replaced, setAnyTab, sharedByPerson } from './sharing.js';
import { record as recordDialog } from './dialogs.js';
import { approvalMessage } from './approval.js';
import { keepDocument, registerCapture } from './console.js';
import { onTabGone } from './tabstate.js';
import { input } from './input.js';
import { positionFor } from './emulate.js';
import { heldProxy } from './proxy.js';

const FIRST_DELAY = 500;
// On loopback a refused connect fails at once and costs next to nothing (a storage read and a
// socket per port of the range), while a relay that a controller restarts is back within a
// second: the cap is how long this browser can lag behind a restarted relay, so it is short.
const MAX_DELAY = 2000;
// A relay on another computer (remote.js) is dialled across a network: a slower cap.
const REMOTE_MAX_DELAY = 5000;

const link = {
  ws: null,
  // The sealed channel over `ws` (seal.js): every frame after the hello goes through it.
  chan: null,
  state: 'starting', // starting | connecting | connected | retrying | unpaired
  port: null,
  // Why the relay on another computer was not joined, for the popup (null: it was, or none).
  refusal: null,
  delay: FIRST_DELAY,
  timer: null,
  connecting: false,
  again: false,
  controllers: [],
};

async function pairWith(msg) {
  if (await managed()) return { paired: false, reason: 'a browser tabpilot launched is paired already' };
  const r = await claim(msg);
  if (r.paired) await redial();
  return r;
}

// The person paired with a relay on another computer (the popup's Another computer).
async function pairRemote(msg) {
  if (await managed()) return { paired: false, reason: 'a browser tabpilot launched is paired already' };
  const kept = await exchange(msg);
  if (kept.reason) return { paired: false, reason: kept.reason };
  await chrome.storage.local.set({ remote: kept });
  await redial();
  return { paired: true, address: kept.address, fingerprint: kept.fingerprint };
}

// The person forgot the relay on another computer: back to this computer's relay, if paired.
async function forgetRemote() {
  await chrome.storage.local.remove('remote');
  await redial();
  return { forgotten: true };
}

// Drops the link and dials again at once, under a pairing just changed.
async function redial() {
  link.refusal = null;
  link.ws?.close();
  link.delay = FIRST_DELAY;
  clearTimeout(link.timer);
  link.timer = null;
  await connect();
}

async function identity() {
  let { browserId } = await chrome.storage.local.get('browserId');
  if (!browserId) {
    browserId = crypto.randomUUID();
    await chrome.storage.local.set({ browserId });
  }
  const brands = navigator.userAgentData?.brands?.map((b) => b.brand) || [];
  const browser = brands.find((b) => !/Not.?A.?Brand|Chromium/i.test(b)) || 'Chromium';
  return { browserId, browser, extension: chrome.runtime.getManifest().version };
}

function setState(state) {
  link.state = state;
  const badge = { connected: '', retrying: '…', unpaired: '!' }[state] ?? '';
  chrome.action.setBadgeText({ text: badge }).catch(() => {});
}

function schedule() {
  clearTimeout(link.timer);
  setState('retrying');
  link.timer = setTimeout(() => {
    link.timer = null;
    connect();
  }, link.delay);
  link.delay = Math.min(link.delay * 2, link.maxDelay ?? MAX_DELAY);
}

// Chrome runs this file again for any event it starts a stopped worker for, and so `connect()`
// at its end. On a running worker, an event reconnects only a link neither up nor due to retry.
function wake() {
  if (!link.ws && !link.connecting && link.timer === null) connect();
}

export async function connect() {
  if (link.connecting) {
    // A pairing that lands mid-attempt must not be lost: try again when this attempt ends.
    link.again = true;
    return;
  }
  if (link.ws) return;
  link.connecting = true;
  try {
    const cfg = await pairing();
    if (!cfg?.secret) {
      schedule();
      setState('unpaired');
      return;
    }
    setState('connecting');
    const who = await identity();
    // The label agents pick this browser by: the person's (set in the popup), else the one it was
    // launched with, else its brand (`chrome`, `edge`, `brave`, `chromium`).
    const { label } = await chrome.storage.local.get('label');
    const named = label || cfg.label || who.browser.toLowerCase().replace(/^(google|microsoft) /, '');
    const info = { ...who, profile: cfg.profile || null, label: named };
    link.maxDelay = cfg.remote ? REMOTE_MAX_DELAY : MAX_DELAY;
    for (const at of places(cfg)) {
      if (await tryPort(at, cfg.secret, info)) {
        link.delay = FIRST_DELAY;
        return;
      }
    }
    schedule();
  } finally {
    link.connecting = false;
    if (link.again) {
      link.again = false;
      connect();
    }
  }
}

// Dials the relay at `at` ({ host, port }, and for one on another computer the `fingerprint` of
// the key it paired with); resolves whether the link is up. Past loopback, why it is not is kept
// for the popup.
function tryPort(at, secret, info) {
  const { port } = at;
  const refuse = (why) => {
    if (at.fingerprint) link.refusal = why;
  };
  return new Promise((resolve) => {
    let ws;
    try {
      ws = new WebSocket(`ws://${at.host}:${port}${HANDSHAKE.browserPath}`);
    } catch (_) {
      refuse(`cannot dial ${at.address}`);
      resolve(false);
      return;
    }
    refuse(`nothing answers at ${at.address}`);
    ws.binaryType = 'arraybuffer';
    let chan = null;
    let joined = false;
    const give_up = setTimeout(() => ws.close(), 3000);
    // The relay's welcome, the first sealed frame: its proof names our nonce and the port
    // dialled (one passed on from another port fails here).
    const welcome = async (frame, cnonce) => {
      const expected = await hmacHex(secret, proofText(HANDSHAKE.relay, port, cnonce));
      if (frame.t !== FRAME.welcome || frame.proof !== expected || frame.port !== port) {
        refuse(`the relay at ${at.address} did not prove it holds this pairing's secret: pair again`);
        ws.close();
        return;
      }
      joined = true;
      link.refusal = null;
      clearTimeout(give_up);
      link.ws = ws;
      link.chan = chan;
      link.port = port;
      setState('connected');
      resolve(true);
    };
    ws.onmessage = async (ev) => {
      if (chan) {
        chan.receive(ev.data);
        return;
      }
      const frame = challengeOf(ev.data, at, refuse);
      if (!frame) {
        ws.close();
        return;
      }
      const cnonce = randomHex(32);
      const proof = await hmacHex(secret, proofText(HANDSHAKE.browser, port, frame.nonce));
      const keys = await linkKeys(secret, HANDSHAKE.browser, port, frame.nonce, cnonce);
      chan = channel(ws, keys, {
        // Frames are handed on as they open, not waited for: calls run side by side.
        onText: (text) => {
          const sealed = JSON.parse(text);
          if (!joined) return welcome(sealed, cnonce);
          onFrame(ws, sealed);
        },
        onRefused: (why) => console.warn(`tabpilot: closing the link to the relay: ${why}`),
      });
      // Who this browser is goes sealed right after the hello, with the agents' tabs still open:
      // a relay that restarted has empty books, and has them back before any agent's call can
      // reach this browser.
      const about = JSON.stringify({ t: FRAME.about, info, held: await held() });
      ws.send(JSON.stringify({ t: FRAME.hello, role: HANDSHAKE.browser, proof, cnonce }));
      chan.send(about);
    };
    ws.onclose = (ev) => {
      clearTimeout(give_up);
      if (!joined) {
        if (ev.code === CLOSE.authFailed) refuse(`the relay at ${at.address} refused this browser's proof; pair again`);
        resolve(false);
        return;
      }
      dropped(ws);
    };
    ws.onerror = () => {};
  });
}

// The relay's challenge, the first frame; null for anything else. A relay on another computer
// must name the key this browser paired with before it is given a proof: another one at that
// address is refused here.
function challengeOf(data, at, refuse) {
  let frame;
  try {
    frame = JSON.parse(data);
  } catch (_) {
    return null;
  }
  if (frame?.t !== FRAME.challenge) return null;
  if (at.fingerprint && frame.key !== at.fingerprint) {
    refuse(
      `another relay answers at ${at.address}: its key is ${frame.key || 'unnamed'}, ` +
        `and this browser paired with ${at.fingerprint}. Forget it and pair again only if you expect this.`,
    );
    return null;
  }
  return frame;
}

// The link that was up closed: dial again after the backoff.
function dropped(ws) {
  if (link.ws !== ws) return;
  link.ws = null;
  link.chan = null;
  link.port = null;
  link.controllers = [];
  schedule();
}

// The relay takes frames of at most 1 MiB. A bigger one (a screenshot, a big page) goes as its
// JSON text in `part` frames, cut at most PART characters apart: each part's JSON is then under
// 1 MiB even if every character needs six bytes escaped. A cut never splits a surrogate pair.
const PART = 128 * 1024;

function send(frame) {
  const { ws, chan } = link;
  if (ws?.readyState !== WebSocket.OPEN || !chan) return;
  const text = JSON.stringify(frame);
  if (text.length <= PART) {
    chan.send(text);
    return;
  }
  for (let at = 0; at < text.length; ) {
    let end = Math.min(at + PART, text.length);
    const code = text.charCodeAt(end - 1);
    if (end < text.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
    chan.send(JSON.stringify({ t: FRAME.part, data: text.slice(at, end), last: end === text.length }));
    at = end;
  }
}

// What the popup asks the relay itself (its status, a person's release of an agent): each ask
// waits for the result under its id, and for no longer than ASK_TIMEOUT.
const ASK_TIMEOUT = 5000;
const asks = new Map();
let nextAsk = 1;

function askRelay(op) {
  if (link.ws?.readyState !== WebSocket.OPEN) return Promise.reject(new Error('not connected to the relay'));
  const id = nextAsk++;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      asks.delete(id);
      reject(new Error('the relay did not answer'));
    }, ASK_TIMEOUT);
    asks.set(id, { resolve, reject, timer });
    send({ t: FRAME.ask, id, op });
  });
}

function settleAsk(frame) {
  const ask = asks.get(frame.id);
  if (!ask) return;
  asks.delete(frame.id);
  clearTimeout(ask.timer);
  if (frame.error) ask.reject(new Error(`${frame.error.code}: ${frame.error.message}`));
  else ask.resolve(frame.value);
}

// The agents as the popup shows them: the relay's status, and which browser this is.
async function agentsHere() {
  const [status, who] = await Promise.all([askRelay('status'), identity()]);
  return { status, browserId: who.browserId };
}

// The person names this browser: agents pick it by this label. The relay learns it from the
// hello, so the link goes round again (closed, it reconnects).
const MAX_LABEL = 64;

async function setLabel(text) {
  const label = String(text ?? '').trim().slice(0, MAX_LABEL);
  if (label) await chrome.storage.local.set({ label });
  else await chrome.storage.local.remove('label');
  link.ws?.close();
  return { label };
}

async function onFrame(ws, frame) {
  switch (frame.t) {
    case FRAME.call:
      send(await answer(frame));
      break;
    case FRAME.cancel:
      // The call's client cancelled it: the call answers now, saying what it had done.
      cancel(frame.id);
      break;
    case FRAME.result:
      settleAsk(frame);
      break;
    case FRAME.roster:
      link.controllers = frame.controllers || [];
      break;
    case FRAME.ping:
      send({ t: FRAME.pong });
      break;
    default:
      break;
  }
}

// Tab events nobody asked for (those a call causes go back with its result).
onTabGone((tabId) => {
  closed(tabId);
  send({ t: FRAME.tab, kind: TAB_EVENT.closed, tab: tabId });
});
chrome.tabs.onReplaced.addListener((added, removed) => {
  replaced(removed, added);
  send({ t: FRAME.tab, kind: TAB_EVENT.replaced, old: removed, tab: added });
});

// Chrome stops a service worker it finds idle (or when told to); the alarm wakes it within 30 s,
// as does the person's next tab, and waking reconnects. What must outlive the worker (the tabs
// held for agents, the tabs shared) is in chrome.storage.session.
chrome.alarms.create('tabpilot-keepalive', { periodInMinutes: 0.5 });
chrome.alarms.onAlarm.addListener(wake);
chrome.runtime.onStartup.addListener(wake);
chrome.runtime.onInstalled.addListener(wake);
chrome.tabs.onCreated.addListener(wake);
chrome.tabs.onActivated.addListener(wake);
registerCapture();

// The messages the service worker answers, each with who may send it: `any` (a page script or
// content script may: it speaks for a web page), `tab` (a script in a tab), `ours` (only this
// extension's own pages, the popup and the approval window: sharing tabs, claiming pairings,
// releasing agents). A handler answers with `reply`, now or once its promise settles, or not at
// all (`reply` unused).
const failed = (reply) => (e) => reply({ error: String(e?.message || e) });
const MESSAGES = {
  'approval-details': { from: 'any', handle: approvalMessage },
  'approval-answer': { from: 'any', handle: approvalMessage },
  status: {
    from: 'any',
    handle: (msg, sender, reply) =>
      heldProxy()
        .catch(() => null)
        .then((proxy) =>
          chrome.storage.local.get('remote').then(({ remote }) =>
            reply({
              state: link.state,
              port: link.port,
              controllers: link.controllers,
              retryMs: link.delay,
              proxy,
              remote: remote ? { address: remote.address, fingerprint: remote.fingerprint } : null,
              refusal: link.refusal,
            }),
          ),
        ),
  },
  // For page scripts: timers in background tabs are held to one run a second (see page/kit.js).
  sleep: {
    from: 'any',
    handle: (msg, sender, reply) =>
      new Promise((done) => setTimeout(done, Math.min(Math.max(0, Number(msg.ms) || 0), 5000))).then(() =>
        reply(true),
      ),
  },
  // A page operation acting with real input (advanced mode) asks the debugger for it.
  input: { from: 'tab', handle: (msg, sender, reply) => input(msg, sender).then(reply) },
  'console-kept': { from: 'tab', handle: (msg, sender) => void keepDocument(sender, msg.dump) },
  dialog: { from: 'tab', handle: (msg, sender) => void recordDialog(sender.tab.id, sender.url, msg) },
  // A document asks, from its start, which position it is told (sw/emulate.js).
  position: { from: 'tab', handle: (msg, sender, reply) => positionFor(sender).then(reply, () => reply(null)) },
  'pairing-page': {
    from: 'any',
    handle: (msg, sender, reply) => pairingPage(sender).then(reply, () => reply({ offered: false })),
  },
  'pairing-offer': {
    from: 'any',
    handle: (msg, sender, reply) =>
      managed().then((isManaged) => reply({ managed: isManaged, port: offeredPort(msg.tabId) })),
  },
  sharing: {
    from: 'ours',
    handle: (msg, sender, reply) =>
      Promise.all([isShared(msg.tabId), anyTab()]).then(([shared, any]) => reply({ shared, any })),
  },
  'share-tab': {
    from: 'ours',
    handle: (msg, sender, reply) => sharedByPerson(msg.tabId).then(() => reply({ shared: true })),
  },
  'any-tab': { from: 'ours', handle: (msg, sender, reply) => setAnyTab(msg.on).then(() => reply({ any: !!msg.on })) },
  // The popup lists the agents in this browser, releases one for the person, and names the browser.
  agents: { from: 'ours', handle: (msg, sender, reply) => agentsHere().then(reply, failed(reply)) },
  'release-agent': {
    from: 'ours',
    handle: (msg, sender, reply) =>
      askRelay({ release: { agent: String(msg.agent), closeOpened: true } }).then(reply, failed(reply)),
  },
  'set-label': { from: 'ours', handle: (msg, sender, reply) => setLabel(msg.label).then(reply, failed(reply)) },
  // The popup pairs with a relay on another computer, or forgets it.
  'pair-remote': {
    from: 'ours',
    handle: (msg, sender, reply) =>
      pairRemote(msg)
        .then(reply)
        .catch((e) => reply({ paired: false, reason: String(e?.message || e) })),
  },
  'forget-remote': { from: 'ours', handle: (msg, sender, reply) => forgetRemote().then(reply, failed(reply)) },
  // The popup claims a pairing with the code the person typed.
  'pair-claim': {
    from: 'ours',
    handle: (msg, sender, reply) =>
      pairWith(msg)
        .then(reply)
        .catch((e) => reply({ paired: false, reason: String(e?.message || e) })),
  },
};

// Whether `sender` may send a message meant for `from`.
function allowed(from, sender) {
  if (from === 'tab') return !!sender.tab;
  if (from === 'ours') return !!sender.url?.startsWith(chrome.runtime.getURL(''));
  return true;
}

// A handler that answers later (a promise, or `true` from approval.js) keeps the channel open.
chrome.runtime.onMessage.addListener((msg, sender, reply) => {
  const kind = typeof msg?.type === 'string' && Object.hasOwn(MESSAGES, msg.type) ? MESSAGES[msg.type] : null;
  if (!kind || !allowed(kind.from, sender)) return false;
  const later = kind.handle(msg, sender, reply);
  return later === true || later instanceof Promise;
});

connect();
