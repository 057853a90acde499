// Navigations: loading a URL and waiting for that load, and actions that may navigate.
import { observeEarly } from './activity.js';
import { positionEarly } from './emulate.js';
import { ToolError, getTab } from './errors.js';
import { PageReplaced, runInPage, runOnRef } from './page.js';
import { dispatches } from './dispatches.js';
import { networkIdle, requestsSince } from './network.js';
import { downloadStarted } from './downloads.js';
import { trusted } from './input.js';
import { arrival } from './arrival.js';
import { slowdown } from './devices.js';

// The frame's next document, as soon as it commits: the page the script was in is gone then.
export function nextDocument(tabId, frameId) {
  let stop;
  const committed = new Promise((resolve) => {
    const listener = (d) => {
      if (d.tabId === tabId && d.frameId === frameId) resolve({ left: d.url });
    };
    chrome.webNavigation.onCommitted.addListener(listener);
    stop = () => chrome.webNavigation.onCommitted.removeListener(listener);
  });
  return { committed, stop };
}

export function sameUrl(a, b) {
  try {
    return new URL(a).href === new URL(b).href;
  } catch (_) {
    return a === b;
  }
}

// Records the tab's navigation events, frame by frame, from now on. `finished(url)` resolves
// when a navigation of the frame (the top one by default) to `url` (any, when null) that started
// after the watch began has completed or failed, so a navigate never reports the page it left,
// nor a load that was already under way; an action in a frame whose frame alone navigates waits
// for that frame's.
export function watchNavigation(tabId) {
  const events = []; // { kind: 'start' | 'end', frameId, url, error?, sameDocument? }
  const wakers = new Set();
  const push = (d, e) => {
    if (d.tabId === tabId) {
      events.push({ url: d.url, frameId: d.frameId, ...e });
      for (const wake of wakers) wake();
    }
  };
  // Resolves the first non-null `look()`, now or as events come; null after `timeoutMs`.
  const until = (look, timeoutMs) =>
    new Promise((resolve) => {
      const done = (r) => {
        clearTimeout(t);
        wakers.delete(wake);
        resolve(r);
      };
      const t = setTimeout(() => done(null), timeoutMs);
      const wake = () => {
        const r = look();
        if (r) done(r);
      };
      wakers.add(wake);
      wake();
    });
  watchers.add(push);
  // With `commitOnly`, a navigation counts as finished once the new document is committed.
  const outcome = (url, commitOnly, frameId) => {
    const mine = events.filter((e) => e.frameId === frameId);
    const starts = (kinds) => mine.findIndex((e) => kinds.includes(e.kind) && (!url || sameUrl(e.url, url)));
    // A navigation named by its commit alone (it began before the watch did) starts there.
    let start = starts(['start', 'same']);
    if (start < 0 && url) start = starts(['commit']);
    if (start < 0) return null;
    if (mine[start].kind === 'same') return { url: mine[start].url, sameDocument: true };
    // A redirect keeps the navigation going: the first end after our start is its end. But a
    // navigation still under way when ours began (one a script started) ends aborted by ours,
    // after our start: an abort at another URL is that one's, not ours.
    const theirs = (e) => e.error === 'net::ERR_ABORTED' && !sameUrl(e.url, mine[start].url);
    const end = mine
      .slice(start + 1)
      .find((e) => (e.kind === 'end' && !theirs(e)) || (commitOnly && e.kind === 'commit'));
    return end ? { url: end.url, error: end.error } : null;
  };
  return {
    finished(url, timeoutMs, commitOnly = false, frameId = 0) {
      return until(() => outcome(url, commitOnly, frameId), timeoutMs);
    },
    // The navigation that took frame `frameId`'s document: its own, else the top frame's, else
    // another frame's (one holding it), begun or (begun before the watch) committed while
    // watching; null when none comes within `timeoutMs`.
    left(frameId, timeoutMs) {
      const rank = (e) => (e.frameId === frameId ? 0 : e.frameId === 0 ? 1 : 2);
      const look = (kind) =>
        events.filter((e) => e.kind === kind).sort((a, b) => rank(a) - rank(b))[0] || null;
      return until(() => look('start') || look('commit'), timeoutMs);
    },
    // Whether frame `frameId` went anywhere while watching: a new document committed, or its
    // address changed within the document.
    moved(frameId) {
      return events.some((e) => e.frameId === frameId && (e.kind === 'commit' || e.kind === 'same'));
    },
    stop() {
      watchers.delete(push);
    },
  };
}

// The watches under way (their `push`). The listeners stay: adding and removing six for each
// action was work for the browser on every call.
const watchers = new Set();
{
  const nav = chrome.webNavigation;
  const hear = (event, entry) => event.addListener((d) => watchers.forEach((push) => push(d, entry(d))));
  hear(nav.onBeforeNavigate, () => ({ kind: 'start' }));
  hear(nav.onCommitted, () => ({ kind: 'commit' }));
  hear(nav.onCompleted, () => ({ kind: 'end' }));
  hear(nav.onErrorOccurred, (d) => ({ kind: 'end', error: d.error }));
  hear(nav.onHistoryStateUpdated, () => ({ kind: 'same' }));
  hear(nav.onReferenceFragmentUpdated, () => ({ kind: 'same' }));
}

const DEFAULT_SETTLE_MS = 1000;
// How long an aborted navigation waits to be seen as a download (a 204 answer, or a navigation
// another one cut short, waits this long for nothing).
const DOWNLOAD_WAIT_MS = 1000;

// A navigation that ended aborted because the browser turned its answer into a download (a
// link to a file, `Content-Disposition: attachment`): no document comes, and nothing failed.
const becameDownload = (tabId, r, since) =>
  r?.error === 'net::ERR_ABORTED' ? downloadStarted(tabId, since, DOWNLOAD_WAIT_MS * slowdown(tabId)) : false;
const REQUEST_GRACE_MS = 50;
const grace = (tabId) => REQUEST_GRACE_MS * slowdown(tabId);

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// The page's own settle (page/wait.js) in one frame; a page extensions may not touch counts as
// settled, as there is nothing of it to wait for.
async function settleInPage(tabId, frameId, args) {
  try {
    return await runInPage(tabId, 'settle', args, frameId);
  } catch (e) {
    if (e instanceof ToolError && e.code === 'RESTRICTED_PAGE') return { settled: true, observed: false };
    throw e;
  }
}

// The cap on a settle: `settleMs` (else the default, stretched while throttling slows the tab),
// and what is left of the call's time.
export function settleCap({ settleMs }, deadline, tabId) {
  return Math.max(0, Math.min(settleMs ?? DEFAULT_SETTLE_MS * slowdown(tabId), deadline - Date.now()));
}

// Waits for what `waitUntil` calls finished, after the load itself, in the frame the action ran
// in; bounded by `settleMs` and by what is left of the call's time. `since` is when the action
// began, `acted` when its last page call came back (its requests were all made by then); `seen`
// is the page's own settle when the action ran it in the same call. Resolves { settled, observed,
// graceMs, waitedMs }: whether the page settled in time, whether the page's observer saw what the
// action started, how long went on waiting for the browser's late reports of requests, and how
// long the whole wait took.
export async function settle(tabId, after, deadline, since = 0, where = {}) {
  const { frameId = 0, seen = null, acted = since } = where;
  const { waitUntil } = after;
  const maxMs = settleCap(after, deadline, tabId);
  const none = { observed: false, graceMs: 0 };
  if (waitUntil === 'none') return { settled: true, ...none };
  if (waitUntil === 'networkidle') return { settled: await networkIdle(tabId, 500, maxMs), ...none };
  if (waitUntil !== 'auto') {
    return { settled: (await settleInPage(tabId, frameId, { until: 'load', maxMs, deadline })).settled, ...none };
  }
  const t0 = Date.now();
  const s = await settleAuto(tabId, frameId, { since, acted, maxMs, deadline, seen });
  return { ...s, waitedMs: (seen?.waitedMs || 0) + Date.now() - t0 };
}

// `auto`: what the action started ends first (requests, short timers), then the DOM it feeds
// settles. The page's observer (activity.js) sees the first from inside the page as it happens.
async function settleAuto(tabId, frameId, { since, acted, maxMs, deadline, seen }) {
  const end = Date.now() + Math.max(0, maxMs - (seen?.waitedMs || 0));
  const r = seen || (await settleInPage(tabId, frameId, { until: 'auto', since, maxMs, deadline }));
  if (r.observed) return { ...(await unseen(tabId, frameId, r, since, end)), observed: true };
  // No observer (a page opened before the tab was tracked, a restricted page): the browser's
  // reports of requests it is, and the browser tells us of a request a moment after the page
  // makes it (up to ~40 ms seen here), so the look comes no sooner than REQUEST_GRACE_MS after
  // the action was done.
  const graceMs = Math.max(0, Math.min(acted + grace(tabId), end) - Date.now());
  if (graceMs > 0) await pause(graceMs);
  if (!(await networkIdle(tabId, 0, Math.max(0, end - Date.now()), since))) {
    return { settled: false, observed: false, graceMs };
  }
  const dom = await settleInPage(tabId, frameId, { until: 'dom', maxMs: end - Date.now(), deadline: end });
  return { settled: dom.settled, observed: false, graceMs };
}

// After the observer's wait, what it could not see. Requests made before it was installed (the
// document came after the action began) are in the browser's reports by REQUEST_GRACE_MS after
// the install; a request the page made with a fetch it kept from before, or one the browser made
// for it (an image, a module), may be reported already. Any of those still in flight is waited
// for, then the DOM again; when there are none, this costs nothing.
async function unseen(tabId, frameId, r, since, end) {
  const graceMs = r.from > since ? Math.max(0, Math.min(r.from + grace(tabId), end) - Date.now()) : 0;
  if (graceMs > 0) await pause(graceMs);
  if (!r.settled || !requestsSince(tabId, since)) return { settled: r.settled, graceMs };
  if (!(await networkIdle(tabId, 0, Math.max(0, end - Date.now()), since))) return { settled: false, graceMs };
  const dom = await settleInPage(tabId, frameId, { until: 'dom', maxMs: end - Date.now(), deadline: end });
  return { settled: dom.settled, graceMs };
}

// Starts a navigation with `start()` and waits for it as `after.waitUntil` says (load by default).
// `url` names the page expected (null: whatever the tab navigates to next); `asked` is what
// advanced mode does for this navigation alone (arrival.js).
// A page loaded but still drawing itself (a splash, a progress bar, an empty main content while
// its scripts run: page/wait.js `drawing`) gets up to DRAWING_MS more; what still says so then
// is returned, for the reply to say instead of "settled".
const DRAWING_MS = 3000;
async function drawn(tabId, deadline) {
  const end = Math.min(Date.now() + DRAWING_MS * slowdown(tabId), deadline);
  for (;;) {
    const why = await runInPage(tabId, 'drawing', {}).catch(() => null);
    if (!why || Date.now() >= end) return why;
    await new Promise((r) => setTimeout(r, 100));
  }
}

// `run`: the call's cancellation (sw/cancel.js): a navigation not yet started never is.
async function navigation(tabId, start, url, after, timeoutMs, what, asked = {}, run = null) {
  const urlBefore = (await getTab(tabId)).url || '';
  const t0 = performance.now();
  const deadline = Date.now() + timeoutMs;
  const waitUntil = after?.waitUntil || 'load';
  const arrived = await arrival(tabId, asked, () => nextDocument(tabId, 0));
  const watch = watchNavigation(tabId);
  // Whether the tab went anywhere: a new document in its top frame (a reload's too), or its
  // address changing.
  const moved = (now) => ({ urlBefore, navigated: watch.moved(0) || now !== urlBefore });
  try {
    run?.check();
    await start();
    run?.at('loading');
    const r = await arrived.until(watch.finished(url, timeoutMs, waitUntil === 'none'));
    if (await becameDownload(tabId, r, deadline - timeoutMs)) {
      const tab = await getTab(tabId);
      const elapsedMs = Math.round(performance.now() - t0);
      const out = { settled: true, elapsedMs, url: tab.url, title: tab.title || '', what, ...moved(tab.url) };
      return { ...out, ...arrived.said() };
    }
    if (r?.error) {
      throw new ToolError('NAVIGATION_FAILED', `${r.error} loading ${r.url || url}; the tab did not reach it`);
    }
    let settled = !!r;
    if (settled && waitUntil !== 'load' && waitUntil !== 'none') {
      settled = (await settle(tabId, { ...after, waitUntil }, deadline)).settled;
    }
    const drawing = settled && waitUntil !== 'none' ? await drawn(tabId, deadline) : null;
    const tab = await getTab(tabId);
    const elapsedMs = Math.round(performance.now() - t0);
    const now = tab.url || r?.url || url;
    const out = { settled, elapsedMs, url: now, title: tab.title || '', what, ...moved(now) };
    return { ...out, ...(drawing ? { drawing } : {}), ...arrived.said() };
  } finally {
    watch.stop();
    await arrived.end();
  }
}

export function navigate(tabId, { url, reload, ignoreCache, after, initScript, handleBeforeUnload }, timeoutMs, run) {
  if (reload) {
    const go = () => chrome.tabs.reload(tabId, { bypassCache: !!ignoreCache });
    return navigation(tabId, go, null, after, timeoutMs, 'reload', {}, run);
  }
  const go = async () => {
    await observeEarly(url);
    await positionEarly(tabId, url);
    await chrome.tabs.update(tabId, { url });
  };
  const asked = { url, initScript, handleBeforeUnload };
  return navigation(tabId, go, url, after, timeoutMs, 'navigate', asked, run);
}

export function history(tabId, { direction, after }, timeoutMs, run) {
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
  return navigation(tabId, go, null, after, timeoutMs, direction, {}, run);
}

// Runs a page action that may navigate, waits as `args.after` says (`auto` by default: what the
// action started, then the DOM), and reports where the tab went and how the wait went (`waited`).
// How long after the page call a console read there still stands for the action's answer.
const READ_FRESH_MS = 5;

// `run`: the call's cancellation (sw/cancel.js), for the actions whose page script stops when told.
export async function act(tabId, op, args, timeoutMs, run = null) {
  const started = Date.now();
  const deadline = started + timeoutMs;
  const after = { waitUntil: 'auto', ...args.after };
  // In advanced mode a click or a key is real input (sw/input.js), refused in a background tab.
  const real = await trusted(tabId, op);
  const watch = watchNavigation(tabId);
  const call = crypto.randomUUID();
  const mark = { tabId, frameId: null, element: undefined };
  dispatches.set(call, mark);
  if (run && HALTS.has(op)) {
    run.at('acting', { dispatched: () => mark.frameId !== null });
    run.page(call);
  }
  try {
    // Under `auto` the page settles after the action in the same call (page/kit.js).
    const auto = after.waitUntil === 'auto';
    const asked = { ...args, dispatch: call, ...(real ? { trusted: real.nonce } : {}) };
    const pageArgs = auto ? { ...asked, settle: { maxMs: settleCap(after, deadline, tabId), deadline } } : asked;
    // No ref (a viewport point, the focused element): the op runs in the frame args.frameId names.
    const out = await answered(watch, mark, ASKED[op]?.(args), deadline, () =>
      args.ref === undefined
        ? runInPage(tabId, op, pageArgs, args.frameId || 0).then((r) => ({ ...r, frameId: args.frameId || 0 }))
        : runOnRef(tabId, op, pageArgs),
    );
    const acted = Date.now();
    const seen = out.settle;
    // The page asked for a download: its file is on its way, for the action's answer to name.
    if (out.download) await downloadStarted(tabId, started, DOWNLOAD_WAIT_MS * slowdown(tabId));
    delete out.download;
    // A navigation the page saw while it settled came after the action's own.
    const nav = seen?.navigation || out.navigation;
    delete out.navigation;
    delete out.settle;
    // Cancelled: its answer is given (sw/cancel.js), and nothing more is waited for.
    if (run?.cancelled) return out;
    if (run?.stage === 'acting') run.at('settling', { navigating: !!nav && !nav.sameDocument });
    const here = { frameId: out.frameId, seen, acted };
    if (!nav) {
      const s = await settle(tabId, after, deadline, started, here);
      // The console the page call read (page/kit.js) is the answer's only while nothing was
      // waited for after it; else the probe reads the tab again (sw/ops.js).
      if (Date.now() - acted > READ_FRESH_MS) delete out.consoleLog;
      return { ...out, navigated: false, ...report(s) };
    }
    if (nav.sameDocument) {
      const s = seen ? await settle(tabId, after, deadline, started, here) : { settled: true };
      const tab = await getTab(tabId);
      return { ...out, navigated: true, ...report(s), url: tab.url || nav.url, title: tab.title || '' };
    }
    // The navigation is of the frame the action ran in: the page there saw it.
    const frameId = out.frameId || 0;
    const r = await watch.finished(nav.url, Math.max(0, deadline - Date.now()), after.waitUntil === 'none', frameId);
    const tab = await getTab(tabId);
    if (await becameDownload(tabId, r, started)) return { ...out, navigated: false, settled: true, url: tab.url };
    if (r?.error) return { ...out, navigated: false, navigationError: r.error, url: tab.url };
    let s = { settled: !!r };
    if (r && after.waitUntil !== 'load') s = await settle(tabId, after, deadline, started, { frameId });
    if (frameId) return { ...out, navigated: true, ...report(s), url: r?.url || nav.url, inFrame: true };
    return { ...out, navigated: true, ...report(s), url: tab.url || r?.url, title: tab.title || '' };
  } finally {
    dispatches.delete(call);
    watch.stop();
    real?.end();
  }
}

// The actions whose page script stops when their call is cancelled before the action goes
// (page/actionable.js, page/kit.js `dispatched`).
const HALTS = new Set(['click', 'type', 'hover', 'focus', 'select', 'clear']);

// The action's own answer. A document replaced while the action's call was still out (the
// action's own navigation committed before its answer left, a load that failed committed the
// browser's error page, a fast one landed while the page still settled) took the answer of an
// action done: when the page said the action was dispatched, it is reported done with the
// navigation that took its document (of its frame, or the page). An action never dispatched
// (its document went first) is STALE_REF. `own`: what the call asked of its work (ASKED).
async function answered(watch, mark, own, deadline, run) {
  try {
    return await run();
  } catch (e) {
    if (!(e instanceof PageReplaced) || mark.frameId === null) throw e;
    const left = await watch.left(mark.frameId, Math.max(0, deadline - Date.now()));
    if (!left) throw e;
    const out = { ...own, frameId: left.frameId, navigation: { url: left.url, sameDocument: false } };
    if (mark.described) out.described = mark.described;
    return mark.element === undefined ? out : { ...out, element: mark.element };
  }
}

// What an action's own answer says of its work when a navigation took the answer after the page
// said the action was dispatched: what the call asked for, since the page's own count went with
// the document (typing and its Enter run to the end before a submit navigates).
const ASKED = {
  type: (a) => ({ chars: [...(a.text ?? '')].length, submitted: !!a.submit }),
  select: (a) => ({ selected: a.values || [], changed: true }),
  clear: () => ({ changed: true }),
};

// A settle as an action reports it: whether the page settled, and how the wait went.
function report({ settled, observed, graceMs, waitedMs }) {
  return { settled, waited: { observed: !!observed, graceMs: graceMs || 0, ms: waitedMs || 0 } };
}
