// Pairing a user's own browser with `tabpilot pair`. The person types the code their terminal
// shows into this extension's popup, which names the relay's port; only then is the code traded
// for the relay's secret. A pairing page only badges the icon and suggests its port: no page can
// make the extension pair, or drop the pairing it has.
import { HANDSHAKE } from './contract.js';

const offers = new Map(); // tabId -> port of the relay whose pairing page the tab shows

// A pairing page announced itself (pair.js): badge the icon on that tab, remember its port.
export async function pairingPage(sender) {
  const url = new URL(sender.tab?.url || sender.url || 'about:blank');
  if (url.hostname !== '127.0.0.1' || url.pathname !== HANDSHAKE.pairPath || !sender.tab) return { offered: false };
  offers.set(sender.tab.id, Number(url.port));
  await chrome.action.setBadgeText({ tabId: sender.tab.id, text: 'PAIR' });
  return { offered: true };
}

// The port a pairing page in `tabId` suggested, if any.
export function offeredPort(tabId) {
  return offers.get(tabId) ?? null;
}

// The popup's claim: the typed code, to the relay on the port the person saw.
export async function claim({ port, code }) {
  port = Number(port);
  if (!Number.isInteger(port) || port < 1 || port > 65535) return { paired: false, reason: 'that is not a port' };
  let r;
  try {
    r = await fetch(`http://127.0.0.1:${port}${HANDSHAKE.claimPath}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: String(code || '') }),
    });
  } catch (_) {
    return { paired: false, reason: `nothing answers on port ${port}` };
  }
  if (!r.ok) return { paired: false, reason: `the relay refused the code (${r.status}); run tabpilot pair again` };
  const { secret, ports } = await r.json();
  await chrome.storage.local.set({ pairing: { secret, ports } });
  for (const tabId of offers.keys()) await chrome.action.setBadgeText({ tabId, text: '' }).catch(() => {});
  offers.clear();
  return { paired: true };
}

// Pairing: a managed browser finds its relay's ports and secret in managed.json, written next to
// this file at launch; a user's browser stores what `tabpilot pair` handed it, or `tabpilot pair
// --remote` for a relay on another computer, which it then joins instead until forgotten.
export async function pairing() {
  const cfg = await managedConfig();
  if (cfg) return cfg;
  const { pairing, remote } = await chrome.storage.local.get(['pairing', 'remote']);
  if (remote) return { secret: remote.secret, remote };
  return pairing || null;
}

// Where to dial: the paired relay on another computer, else each port of the range on loopback.
export function places(cfg) {
  if (cfg.remote) return [cfg.remote];
  const all = [];
  for (let port = cfg.ports[0]; port <= cfg.ports[1]; port++) all.push({ host: '127.0.0.1', port });
  return all;
}

async function managedConfig() {
  try {
    const r = await fetch(chrome.runtime.getURL('managed.json'));
    if (r.ok) return await r.json();
  } catch (_) {
    // not a managed browser
  }
  return null;
}

// A managed browser's pairing is the one tabpilot launched it with; it never pairs again.
export async function managed() {
  return (await managedConfig()) !== null;
}
