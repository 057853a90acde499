// The tools as the browser runs them: chrome.* orchestration around the page scripts.
import { ToolError, getTab } from './errors.js';
import { runInPage, runOnRef } from './page.js';
import { navigate, history } from './navigation.js';
import { screenshot } from './capture.js';
import { snapshotTab, findInTab } from './outline.js';
import { interactions } from './interact.js';
import { handleDialog, track, unblocked } from './dialogs.js';

export { ToolError };

// Waits for an element or text in the page (the ref's frame, else the top one), or for the
// tab's URL to match.
async function waitFor(tabId, args) {
  if (args.url == null) return args.ref ? runOnRef(tabId, 'waitFor', args) : runInPage(tabId, 'waitFor', args);
  const t0 = Date.now();
  const pattern = new RegExp('^' + args.url.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*') + '$');
  for (;;) {
    const url = (await getTab(tabId)).url || '';
    const met = pattern.test(url) || (!args.url.includes('*') && url.includes(args.url));
    const waitedMs = Date.now() - t0;
    if (met || waitedMs >= args.timeoutMs) return { met, waitedMs, url };
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Waits for a new tab's first load, so its events never pass for a later navigation's.
async function loaded(tabId, timeoutMs) {
  const deadline = Date.now() + Math.min(timeoutMs, 15000);
  while (Date.now() < deadline) {
    const t = await getTab(tabId);
    if (t.status === 'complete') return;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function tabInfo(t) {
  return { tabId: t.id, windowId: t.windowId, active: t.active, url: t.url || t.pendingUrl || '', title: t.title || '' };
}

export async function handle(tool, tabId, args, timeoutMs) {
  if (tabId === null || tool === 'tab.close' || tool === 'tab.list') return browserTool(tool, tabId, args, timeoutMs);
  track(tabId);
  if (tool === 'dialog') return handleDialog(tabId, args);
  return unblocked(tabId, () => tabTool(tool, tabId, args, timeoutMs));
}

async function tabTool(tool, tabId, args, timeoutMs) {
  if (Object.hasOwn(interactions, tool)) return interactions[tool](tabId, args, timeoutMs);
  return browserTool(tool, tabId, args, timeoutMs);
}

async function browserTool(tool, tabId, args, timeoutMs) {
  switch (tool) {
    case 'tab.open': {
      const url = args.url || 'about:blank';
      const t = await chrome.tabs.create({ url, active: !!args.active });
      await loaded(t.id, timeoutMs);
      return tabInfo(await getTab(t.id));
    }
    case 'tab.info':
      return tabInfo(await getTab(tabId));
    case 'tab.list':
      return { tabs: (await chrome.tabs.query({})).map(tabInfo) };
    case 'tab.close':
      await getTab(tabId);
      await chrome.tabs.remove(tabId);
      return { closed: tabId };
    case 'navigate':
      return navigate(tabId, args, timeoutMs);
    case 'history':
      return history(tabId, args, timeoutMs);
    case 'snapshot':
    case 'read': {
      const tab = await getTab(tabId);
      // An empty tab has nothing to read, and the browser does not let extensions into it.
      if (tab.url === 'about:blank') return tool === 'snapshot' ? { text: '', refs: 0, capped: false, url: tab.url, title: '' } : { content: '', truncated: false, totalChars: 0, format: args.format, url: tab.url };
      const value = tool === 'snapshot' ? await snapshotTab(tabId, args) : await runInPage(tabId, tool, args);
      return { ...value, url: tab.url, title: tab.title };
    }
    case 'find':
      return findInTab(tabId, args);
    case 'html':
      return args.ref ? runOnRef(tabId, 'html', args) : runInPage(tabId, 'html', args);
    case 'waitFor':
      return waitFor(tabId, args);
    case 'screenshot':
      return screenshot(tabId, args);
    default:
      throw new ToolError('BAD_ARGS', `the extension has no tool ${tool}`, 'refused');
  }
}
