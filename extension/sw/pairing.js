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
