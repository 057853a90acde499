// Navigations: loading a URL and waiting for that load, and actions that may navigate.
import { ToolError, getTab } from './errors.js';
import { runInPage, runOnRef } from './page.js';
import { networkIdle } from './network.js';

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
  const nav = chrome.webNavigation;
  // Each event and the kind of entry it records; the same table adds and removes them.
  const listeners = [
    [nav.onBeforeNavigate, (d) => push(d, { kind: 'start' })],
    [nav.onCommitted, (d) => push(d, { kind: 'commit' })],
    [nav.onCompleted, (d) => push(d, { kind: 'end' })],
    [nav.onErrorOccurred, (d) => push(d, { kind: 'end', error: d.error })],
    [nav.onHistoryStateUpdated, (d) => push(d, { kind: 'same' })],
    [nav.onReferenceFragmentUpdated, (d) => push(d, { kind: 'same' })],
  ];
  for (const [event, listener] of listeners) event.addListener(listener);
  // With `commitOnly`, a navigation counts as finished once the new document is committed.
  const outcome = (url, commitOnly) => {
    const start = events.findIndex((e) => (e.kind === 'start' || e.kind === 'same') && (!url || sameUrl(e.url, url)));
    if (start < 0) return null;
    if (events[start].kind === 'same') return { url: events[start].url, sameDocument: true };
    // A redirect keeps the navigation going: the first end after our start is its end.
    const end = events.slice(start + 1).find((e) => e.kind === 'end' || (commitOnly && e.kind === 'commit'));
    return end ? { url: end.url, error: end.error } : null;
  };
  return {
    finished(url, timeoutMs, commitOnly = false) {
      return new Promise((resolve) => {
        const t = setTimeout(() => resolve(null), timeoutMs);
        wake = () => {
          const r = outcome(url, commitOnly);
          if (r) {
            clearTimeout(t);
            resolve(r);
          }
        };
        wake();
      });
    },
    stop() {
      for (const [event, listener] of listeners) event.removeListener(listener);
    },
  };
}

const DEFAULT_SETTLE_MS = 1000;
const REQUEST_GRACE_MS = 50;

// Waits for what `waitUntil` calls finished, after the load itself; bounded by `settleMs` and
// by what is left of the call's time. Returns whether the page settled in time.
export async function settle(tabId, { waitUntil, settleMs }, deadline, since = 0) {
  const maxMs = Math.max(0, Math.min(settleMs ?? DEFAULT_SETTLE_MS, deadline - Date.now()));
  if (waitUntil === 'none') return true;
  if (waitUntil === 'networkidle') return networkIdle(tabId, 500, maxMs);
  // `auto`: requests the action started finish first, then the DOM they feed settles. The
  // browser tells us of a request a moment after the page makes it (up to ~40 ms seen here), so
  // the look for one comes no sooner than REQUEST_GRACE_MS after the action began. That is the
  // floor of an action's time under `auto`; `waitUntil: "none"` skips it.
  if (waitUntil === 'auto') {
    const grace = since + REQUEST_GRACE_MS - Date.now();
    if (grace > 0) await new Promise((r) => setTimeout(r, grace));
    if (!(await networkIdle(tabId, 0, maxMs, since))) return false;
  }
  try {
    const left = Math.max(0, Math.min(maxMs, deadline - Date.now()));
    const r = await runInPage(tabId, 'settle', { until: waitUntil === 'load' ? 'load' : 'auto', maxMs: left });
    return r.settled;
  } catch (e) {
    if (e instanceof ToolError && e.code === 'RESTRICTED_PAGE') return true;
    throw e;
  }
}

// Starts a navigation with `start()` and waits for it as `after.waitUntil` says (load by default).
// `url` names the page expected (null: whatever the tab navigates to next).
async function navigation(tabId, start, url, after, timeoutMs, what) {
  await getTab(tabId);
  const t0 = performance.now();
  const deadline = Date.now() + timeoutMs;
  const waitUntil = after?.waitUntil || 'load';
  const watch = watchNavigation(tabId);
  try {
    await start();
    const r = await watch.finished(url, timeoutMs, waitUntil === 'none');
    if (r?.error) {
      throw new ToolError('NAVIGATION_FAILED', `${r.error} loading ${r.url || url}; the tab did not reach it`);
    }
    let settled = !!r;
    if (settled && waitUntil !== 'load' && waitUntil !== 'none') {
      settled = await settle(tabId, { ...after, waitUntil }, deadline);
    }
    const tab = await getTab(tabId);
    const elapsedMs = Math.round(performance.now() - t0);
    return { settled, elapsedMs, url: tab.url || r?.url || url, title: tab.title || '', what };
  } finally {
    watch.stop();
  }
}

export function navigate(tabId, { url, reload, ignoreCache, after }, timeoutMs) {
  if (reload) {
    return navigation(
      tabId,
      () => chrome.tabs.reload(tabId, { bypassCache: !!ignoreCache }),
      null,
      after,
      timeoutMs,
      'reload',
    );
  }
  return navigation(tabId, () => chrome.tabs.update(tabId, { url }), url, after, timeoutMs, 'navigate');
}

export function history(tabId, { direction, after }, timeoutMs) {
  const go = async () => {
    try {
      await runInPage(tabId, 'go', { direction });
    } catch (e) {
      if (!(e instanceof ToolError && e.code === 'RESTRICTED_PAGE')) throw e;
      // No page script on this page (about:blank, say): the browser's own history it is.
      await (direction === 'back' ? chrome.tabs.goBack(tabId) : chrome.tabs.goForward(tabId)).catch(() => {
        throw new ToolError('NAVIGATION_FAILED', `there is no page ${direction} in this tab's history`, 'refused');
      });
    }
  };
  return navigation(tabId, go, null, after, timeoutMs, direction);
}

// Runs a page action that may navigate, waits as `args.after` says (`auto` by default: the DOM
// has stopped changing), and reports where the tab went.
export async function act(tabId, op, args, timeoutMs) {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const after = { waitUntil: 'auto', ...args.after };
  const watch = watchNavigation(tabId);
  try {
    // No ref (a viewport point, the focused element): the op runs in the frame args.frameId names.
    const out =
      args.ref === undefined
        ? { ...(await runInPage(tabId, op, args, args.frameId || 0)), frameId: args.frameId || 0 }
        : await runOnRef(tabId, op, args);
    const nav = out.navigation;
    delete out.navigation;
    if (!nav) return { ...out, navigated: false, settled: await settle(tabId, after, deadline, started) };
    const r = nav.sameDocument
      ? { url: nav.url }
      : await watch.finished(nav.url, Math.max(0, deadline - Date.now()), after.waitUntil === 'none');
    const tab = await getTab(tabId);
    if (r?.error) return { ...out, navigated: false, navigationError: r.error, url: tab.url };
    let settled = !!r;
    if (settled && !nav.sameDocument && after.waitUntil !== 'load') {
      settled = await settle(tabId, after, deadline, started);
    }
    return { ...out, navigated: true, settled, url: tab.url || r?.url, title: tab.title || '' };
  } finally {
    watch.stop();
  }
}
