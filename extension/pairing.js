// Pairing a user's own browser with `tabpilot pair`. The loopback pairing page carries a one-time
// code; the extension trades it for the relay's secret. A first pairing completes by itself;
// replacing one needs the person's click in the popup on that page, so another local page cannot
// silently re-pair the browser.
const offers = new Map(); // tabId -> { port, code }

async function claim({ port, code }) {
  const r = await fetch(`http://127.0.0.1:${port}/pair/${encodeURIComponent(code)}`, { method: 'POST' });
  if (!r.ok) {
    return { paired: false, reason: `the relay refused the pairing code (${r.status}); run tabpilot pair again` };
  }
  const { secret, ports } = await r.json();
  await chrome.storage.local.set({ pairing: { secret, ports } });
  return { paired: true };
}

export async function pairFrom(msg, sender) {
  if (msg.type === 'pair') {
    const url = new URL(sender.tab?.url || sender.url || '');
    if (url.hostname !== '127.0.0.1' || !url.pathname.startsWith('/pair/')) {
      return { paired: false, reason: 'not a pairing page' };
    }
    const offer = { port: Number(url.port), code: url.pathname.slice('/pair/'.length) };
    const { pairing } = await chrome.storage.local.get('pairing');
    if (!pairing) return claim(offer);
    offers.set(sender.tab.id, offer);
    await chrome.action.setBadgeText({ tabId: sender.tab.id, text: 'PAIR' });
    return { paired: false, needsClick: true };
  }
  const offer = offers.get(msg.tabId);
  if (!offer) return { paired: false, reason: 'open the pairing page from tabpilot pair first' };
  offers.delete(msg.tabId);
  await chrome.action.setBadgeText({ tabId: msg.tabId, text: '' });
  return claim(offer);
}
