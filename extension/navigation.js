// Navigations: loading a URL and waiting for that load, and actions that may navigate.
import { ToolError, getTab } from './errors.js';
import { runOnRef } from './page.js';

export function sameUrl(a, b) {
  try {
    return new URL(a).href === new URL(b).href;
  } catch (_) {
    return a === b;
  }
}

// Records the top frame's navigation events from now on. `finished(url)` resolves when a
// navigation to `url` (any, when null) that started after the watch began has completed or
// failed, so a navigate never reports the page it left, nor a load that was already under way.
export function watchNavigation(tabId) {
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

export async function navigate(tabId, { url }, timeoutMs) {
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
export async function act(tabId, op, args, timeoutMs) {
  const watch = watchNavigation(tabId);
  try {
    const out = await runOnRef(tabId, op, args);
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
