// The tools as the browser runs them: chrome.* orchestration around the page script.
export class ToolError extends Error {
  constructor(code, message, outcome = 'failed') {
    super(message);
    this.code = code;
    this.outcome = outcome;
  }
}

// The page scripts, in order: core.js first, the others add operations to it.
const PAGE_FILES = ['page/core.js', 'page/snapshot.js', 'page/actions.js', 'page/read.js'];

const RESTRICTED = /^(chrome|chrome-extension|chrome-untrusted|devtools|edge|brave|view-source|chrome-search):|^https:\/\/(chromewebstore\.google\.com|chrome\.google\.com\/webstore)/;

async function getTab(tabId) {
  try {
    return await chrome.tabs.get(tabId);
  } catch (_) {
    throw new ToolError('TAB_GONE', `tab ${tabId} is closed`, 'refused');
  }
}

// Runs one packaged page-script operation in the tab's top frame, in the isolated world.
export async function runInPage(tabId, op, args) {
  const tab = await getTab(tabId);
  const url = tab.pendingUrl || tab.url || '';
  if (RESTRICTED.test(url)) {
    throw new ToolError('RESTRICTED_PAGE', `the browser does not let extensions act on ${url.split('?')[0]}`, 'refused');
  }
  const target = { tabId, frameIds: [0] };
  const call = (op, args) => (globalThis.__tabpilot?.ops[op] ? globalThis.__tabpilot.run(op, args) : { missing: true });
  let out;
  try {
    [out] = await chrome.scripting.executeScript({ target, func: call, args: [op, args] });
    if (out?.result?.missing) {
      await chrome.scripting.executeScript({ target, files: PAGE_FILES });
      [out] = await chrome.scripting.executeScript({ target, func: call, args: [op, args] });
    }
  } catch (e) {
    const msg = String(e?.message || e);
    if (/Cannot access|cannot be scripted|Missing host permission/i.test(msg)) {
      throw new ToolError('RESTRICTED_PAGE', `the browser does not let extensions act on ${url.split('?')[0]}`, 'refused');
    }
    if (/No tab with id|Frame with ID 0 was removed|The tab was closed/i.test(msg)) {
      throw new ToolError('TAB_GONE', `tab ${tabId} closed during the call`);
    }
    throw new ToolError('INTERNAL', `page script failed: ${msg}`);
  }
  const r = out?.result;
  if (!r) throw new ToolError('INTERNAL', 'the page script returned nothing');
  if (r.error) throw new ToolError(r.error.code, r.error.message, r.error.outcome || 'refused');
  return r.value;
}

function sameUrl(a, b) {
  try {
    return new URL(a).href === new URL(b).href;
  } catch (_) {
    return a === b;
  }
}

// Records the top frame's navigation events from now on. `finished(url)` resolves when a
// navigation to `url` (any, when null) that started after the watch began has completed or
// failed, so a navigate never reports the page it left, nor a load that was already under way.
function watchNavigation(tabId) {
  const events = []; // { kind: 'start' | 'end', url, error?, sameDocument? }
  let wake = () => {};
  const push = (d, e) => {
    if (d.tabId === tabId && d.frameId === 0) {
      events.push({ url: d.url, ...e });
      wake();
    }
  };
  const before = (d) => push(d, { kind: 'start' });
  const completed = (d) => push(d, { kind: 'end' });
  const failed = (d) => push(d, { kind: 'end', error: d.error });
  const sameDoc = (d) => push(d, { kind: 'same' });
  const nav = chrome.webNavigation;
  nav.onBeforeNavigate.addListener(before);
  nav.onCompleted.addListener(completed);
  nav.onErrorOccurred.addListener(failed);
  nav.onHistoryStateUpdated.addListener(sameDoc);
  nav.onReferenceFragmentUpdated.addListener(sameDoc);
  const outcome = (url) => {
    const start = events.findIndex((e) => (e.kind === 'start' || e.kind === 'same') && (!url || sameUrl(e.url, url)));
    if (start < 0) return null;
    if (events[start].kind === 'same') return { url: events[start].url, sameDocument: true };
    // A redirect keeps the navigation going: the first end after our start is its end.
    const end = events.slice(start + 1).find((e) => e.kind === 'end');
    return end ? { url: end.url, error: end.error } : null;
  };
  return {
    finished(url, timeoutMs) {
      return new Promise((resolve) => {
        const t = setTimeout(() => resolve(null), timeoutMs);
        wake = () => {
          const r = outcome(url);
          if (r) {
            clearTimeout(t);
            resolve(r);
          }
        };
        wake();
      });
    },
    stop() {
      nav.onBeforeNavigate.removeListener(before);
      nav.onCompleted.removeListener(completed);
      nav.onErrorOccurred.removeListener(failed);
      nav.onHistoryStateUpdated.removeListener(sameDoc);
      nav.onReferenceFragmentUpdated.removeListener(sameDoc);
    },
  };
}

async function navigate(tabId, { url }, timeoutMs) {
  await getTab(tabId);
  const t0 = performance.now();
  const watch = watchNavigation(tabId);
  try {
    await chrome.tabs.update(tabId, { url });
    const r = await watch.finished(url, timeoutMs);
    const tab = await getTab(tabId);
    const elapsedMs = Math.round(performance.now() - t0);
    if (r?.error) {
      throw new ToolError('NAVIGATION_FAILED', `${r.error} loading ${url}; the tab did not reach it`);
    }
    return { settled: !!r, elapsedMs, url: tab.url || r?.url || url, title: tab.title || '' };
  } finally {
    watch.stop();
  }
}

// Runs a page action that may navigate, and reports where the tab went.
async function act(tabId, op, args, timeoutMs) {
  const watch = watchNavigation(tabId);
  try {
    const out = await runInPage(tabId, op, args);
    if (!out.navigation) return { ...out, navigated: false };
    const r = out.navigation.sameDocument ? { url: out.navigation.url } : await watch.finished(out.navigation.url, timeoutMs);
    const tab = await getTab(tabId);
    delete out.navigation;
    if (r?.error) return { ...out, navigated: false, navigationError: r.error, url: tab.url };
    return { ...out, navigated: true, settled: !!r, url: tab.url || r?.url, title: tab.title || '' };
  } finally {
    watch.stop();
  }
}

async function screenshot(tabId, { format = 'png', quality }) {
  const tab = await getTab(tabId);
  const viewport = await runInPage(tabId, 'viewport', {});
  const opts = format === 'jpeg' ? { format, quality: quality ?? 80 } : { format };
  // A background tab is not on screen: only the debugger can capture it.
  if (tab.active) {
    const win = await chrome.windows.get(tab.windowId);
    if (win.state !== 'minimized') {
      const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, opts);
      return { data: dataUrl.split(',')[1], format, viewport, debugger: false };
    }
  }
  const target = { tabId };
  await chrome.debugger.attach(target, '1.3');
  try {
    const capture = chrome.debugger.sendCommand(target, 'Page.captureScreenshot', { ...opts, fromSurface: true });
    const stalled = new Promise((_, reject) =>
      setTimeout(() => reject(new ToolError('CAPTURE_STALLED', 'the browser did not render the background tab within 10 s')), 10000),
    );
    const { data } = await Promise.race([capture, stalled]);
    return { data, format, viewport, debugger: true };
  } finally {
    await chrome.debugger.detach(target).catch(() => {});
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
  switch (tool) {
    case 'tab.open': {
      const url = args.url || 'about:blank';
      const t = await chrome.tabs.create({ url, active: !!args.active });
      await loaded(t.id, timeoutMs);
      return tabInfo(await getTab(t.id));
    }
    case 'tab.list':
      return { tabs: (await chrome.tabs.query({})).map(tabInfo) };
    case 'tab.close':
      await getTab(tabId);
      await chrome.tabs.remove(tabId);
      return { closed: tabId };
    case 'navigate':
      return navigate(tabId, args, timeoutMs);
    case 'click':
    case 'type':
      return act(tabId, tool, args, timeoutMs);
    case 'snapshot':
    case 'read': {
      const tab = await getTab(tabId);
      // An empty tab has nothing to read, and the browser does not let extensions into it.
      if (tab.url === 'about:blank') return tool === 'snapshot' ? { text: '', refs: 0, capped: false, url: tab.url, title: '' } : { content: '', truncated: false, totalChars: 0, format: args.format, url: tab.url };
      const value = await runInPage(tabId, tool, args);
      return { ...value, url: tab.url, title: tab.title };
    }
    case 'screenshot':
      return screenshot(tabId, args);
    default:
      throw new ToolError('BAD_ARGS', `the extension has no tool ${tool}`, 'refused');
  }
}
