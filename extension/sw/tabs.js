// The browser's tabs: open, describe, list and close them. Opening and closing are reported as
// tab events on the call (`call.tabs`), so the relay keeps its books from them.
import { observeEarly } from './activity.js';
import { ToolError, getTab } from './errors.js';
import { openedForAgent, letGo, mayUse, isAgentsWork } from './sharing.js';
import { guardTab, releaseOwner } from './policy.js';
import { watchNavigation } from './navigation.js';
import { track } from './tracking.js';
import { endEmulation } from './emulate.js';
import { advancedOf, endAdvanced } from './debugger.js';
import { endProxyOf } from './proxy.js';
import { TAB_EVENT } from './contract.js';

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

// The window the person has (or last had) focus in; null when there is none.
async function focusedWindow() {
  return (await chrome.windows.getLastFocused().catch(() => null))?.id ?? null;
}

// `active` is whether the person sees the tab: in front of the window with focus. An agent's tab
// is in front of a window of its own, which has not.
function describe(t, focused) {
  return {
    tabId: t.id,
    windowId: t.windowId,
    active: t.active && t.windowId === focused,
    url: t.url || t.pendingUrl || '',
    title: t.title || '',
    ...(t.incognito ? { private: true } : {}),
    ...(advancedOf(t.id) ? { advanced: true } : {}),
  };
}

// The agent's tab is the tab in front of a window of its own, which is not focused: a page in
// front of its window is visible, draws animation frames, ends its transitions and hears focus
// events, where a tab behind another in the person's window does none of these (JupyterLab never
// leaves its splash screen there). The person's focus and active tab stay where they are. A
// private tab gets a new private window (the incognito profile's jar, none of the person's
// cookies), when the person allowed the extension there.
async function create(args, url) {
  if (!args.incognito) {
    if (args.active) return chrome.tabs.create({ url, active: true });
    const w = await chrome.windows.create({ url, focused: false });
    return w.tabs[0];
  }
  if (!(await chrome.extension.isAllowedIncognitoAccess())) {
    const where = 'chrome://extensions → tabpilot → Details → Allow in Incognito';
    const why = `the person has not allowed tabpilot in private windows (${where})`;
    throw new ToolError('INCOGNITO_BLOCKED', why, 'refused');
  }
  const w = await chrome.windows.create({ url, incognito: true, focused: !!args.active });
  return w.tabs[0];
}

// Under a site policy the tab opens empty and loads its page only once the network rules cover
// it: its first request is already held to them.
export async function openTab({ args, timeoutMs, tabs, owner, guard }) {
  const url = args.url || 'about:blank';
  const first = guard ? 'about:blank' : url;
  await observeEarly(url);
  const t = await create(args, first);
  // Tracked before its first document commits, so that document gets our pieces from its start.
  track(t.id);
  await openedForAgent(t.id, owner);
  tabs.push({ kind: TAB_EVENT.opened, tab: t.id });
  // The first page's events end first, so they never pass for the next navigation's.
  await loaded(t.id, timeoutMs);
  if (guard) await guardTab(t.id, owner, guard);
  if (first !== url) {
    const watch = watchNavigation(t.id);
    try {
      await chrome.tabs.update(t.id, { url });
      await watch.finished(url, Math.min(timeoutMs, FIRST_LOAD_MAX_MS));
    } finally {
      watch.stop();
    }
  }
  return describe(await getTab(t.id), await focusedWindow());
}

export async function tabInfo(tabId) {
  return describe(await getTab(tabId), await focusedWindow());
}

export async function listTabs() {
  const tabs = await chrome.tabs.query({});
  const focused = await focusedWindow();
  const listed = await Promise.all(tabs.map(async (t) => ((await shown(t)) ? describe(t, focused) : unshared(t))));
  return { tabs: listed.filter(Boolean) };
}

// Whether an agent may see a tab whole: one it may use, or one an agent's page opened.
async function shown(t) {
  return (await mayUse(t.id)) || (await isAgentsWork(t.id));
}

// A tab of the person's that they have not shared: its id and address only (the controller cuts
// that to its origin). Its title, whether it is in front and its window tell what the person is
// doing, and any page can put words in its title for every agent to read. A private one of
// theirs is not listed at all: where the person browses privately is theirs alone.
function unshared(t) {
  if (t.incognito) return null;
  return { tabId: t.id, windowId: 0, active: false, url: t.url || t.pendingUrl || '', title: '', unshared: true };
}

// An agent gave up its tabs, or its session ended (the relay says so): the tabs it opened and
// holds still close when it asks, the others stay open and nobody's, and the tabs it drove are
// held to its site policy no more. A tab the person shared stays open.
export async function release({ owner, args, tabs }) {
  if (!owner) return { closed: [] };
  const { opened, handed } = await letGo(owner);
  for (const tab of handed) await endEmulation(tab);
  for (const tab of [...opened, ...handed]) await endAdvanced(tab);
  if (args.closeOpened) {
    for (const tab of opened) {
      // One already gone is what was wanted.
      if (await chrome.tabs.remove(tab).then(() => true, () => false)) tabs.push({ kind: TAB_EVENT.closed, tab });
    }
  }
  await releaseOwner(owner);
  await endProxyOf(owner);
  return { closed: tabs.map((e) => e.tab) };
}

// Brings a tab to the front of its window, and its window to the front: the one operation that
// takes focus from the person.
export async function focusTab(tabId) {
  const t = await getTab(tabId);
  await chrome.tabs.update(tabId, { active: true });
  await chrome.windows.update(t.windowId, { focused: true });
  return describe(await getTab(tabId), await focusedWindow());
}

export async function closeTab({ tab, tabs }) {
  await getTab(tab);
  await chrome.tabs.remove(tab);
  tabs.push({ kind: TAB_EVENT.closed, tab });
  return { closed: tab };
}
