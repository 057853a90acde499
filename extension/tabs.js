// The browser's tabs: open, describe, list and close them. Opening and closing are reported as
// tab events on the call (`call.tabs`), so the relay keeps its books from them.
import { getTab } from './errors.js';
import { openedForAgent } from './sharing.js';
import { track } from './tracking.js';

const FIRST_LOAD_MAX_MS = 15000;

// Waits for a new tab's first load, so its events never pass for a later navigation's.
async function loaded(tabId, timeoutMs) {
  const deadline = Date.now() + Math.min(timeoutMs, FIRST_LOAD_MAX_MS);
  while (Date.now() < deadline) {
    const t = await getTab(tabId);
    if (t.status === 'complete') return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function describe(t) {
  return {
    tabId: t.id,
    windowId: t.windowId,
    active: t.active,
    url: t.url || t.pendingUrl || '',
    title: t.title || '',
  };
}

export async function openTab({ args, timeoutMs, tabs, owner }) {
  const url = args.url || 'about:blank';
  const t = await chrome.tabs.create({ url, active: !!args.active });
  // Tracked before its first document commits, so that document gets our pieces from its start.
  track(t.id);
  await openedForAgent(t.id, owner);
  tabs.push({ kind: 'opened', tab: t.id });
  await loaded(t.id, timeoutMs);
  return describe(await getTab(t.id));
}

export async function tabInfo(tabId) {
  return describe(await getTab(tabId));
}

export async function listTabs() {
  return { tabs: (await chrome.tabs.query({})).map(describe) };
}

export async function closeTab({ tab, tabs }) {
  await getTab(tab);
  await chrome.tabs.remove(tab);
  tabs.push({ kind: 'closed', tab });
  return { closed: tab };
}
