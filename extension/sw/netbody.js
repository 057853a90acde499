// One request of the tab's log in full: status and both header sets, from webRequest; the body
// of a text response the page's own script fetched, as the page's activity observer copied it
// (pageCopy); and with `reload`, its response body. Any other body is the debugger's alone to
// give (webRequest never sees one), and only for a request made while it was attached (even the
// page's own document is not kept for it: "Resource was not cached"), so a body is had by
// attaching first, reloading the page and taking the first request of the fresh load that
// matches; the debugger is attached for that call only. A request a click made is not made
// again by a reload: the agent repeats the click after a reload of its own.
import { ToolError } from './errors.js';
import { newestRequest, requestsTo, summary } from './netlog.js';
import { onDebuggerEvent, withDebugger } from './debugger.js';
import { frameTarget } from './page.js';

const MAX_BODY_CHARS = 10000;
// How long a reload waits for the matching request to finish, at most.
const RELOAD_WAIT_MS = 15000;
// How long the browser's webRequest report of a request may trail the debugger's.
const REPORT_WAIT_MS = 2000;

const pause = (ms) => new Promise((r) => setTimeout(r, ms));

// A body as the result carries it: text cut at MAX_BODY_CHARS, binary by its type and size.
function bounded(content, base64Encoded, mimeType) {
  if (base64Encoded) {
    const bytes = Math.floor((content.length * 3) / 4) - (content.match(/=*$/)[0].length || 0);
    return { binary: { mimeType: mimeType || 'unknown', bytes } };
  }
  if (content.length <= MAX_BODY_CHARS) return { body: content };
  return { body: content.slice(0, MAX_BODY_CHARS), bodyChars: content.length };
}

function missing(tabId, url, found = 0) {
  const which = found === 0 ? 'no request' : found === 1 ? 'only 1 request' : `only ${found} requests`;
  return new ToolError(
    'REQUEST_NOT_FOUND',
    `${which} in tab ${tabId}'s log ${found > 1 ? 'have' : 'has'} a URL containing ${JSON.stringify(url)}`,
    'failed',
  );
}

// An entry as the result carries it: the request, its two header sets, and what else is known.
const detail = (entry, more) => ({
  request: summary(entry),
  requestHeaders: entry.requestHeaders || [],
  responseHeaders: entry.responseHeaders || [],
  ...more,
});

export async function requestDetail(tabId, { url, nth = 1, reload }, timeoutMs) {
  if (reload) return captureOnReload(tabId, url, timeoutMs);
  const matches = requestsTo(tabId, url);
  const entry = matches[nth - 1];
  if (!entry) throw missing(tabId, url, matches.length);
  return detail(entry, { ...(await pageCopy(tabId, entry)), debugger: false });
}

// Runs in the page's main world: the activity observer's copy of the body at `url`, as JSON.
function copyIn(url) {
  const copyOf = window[Symbol.for('tabpilot.bodies')];
  return typeof copyOf === 'function' ? copyOf(url) : null;
}

// The body the page's own script fetched, as the observer in its document copied it
// (main/activity.js): for a request of the current document, made by the top page or a frame of
// its origin, whose copy has the same status; else nothing, and the debugger is the way.
async function pageCopy(tabId, entry) {
  if (entry.earlier || entry.status === undefined || entry.type !== 'xmlhttprequest') return {};
  const tab = await chrome.tabs.get(tabId).catch(() => null);
  const own = entry.frameId === 0 || (tab?.url && entry.initiator === new URL(tab.url).origin);
  if (!own) return {};
  const results = await chrome.scripting
    .executeScript({ target: frameTarget(tabId, entry.frameId), world: 'MAIN', func: copyIn, args: [entry.url] })
    .catch(() => []);
  let copy = null;
  try {
    copy = JSON.parse(results[0]?.result ?? 'null');
  } catch (_) {
    return {};
  }
  if (typeof copy?.body !== 'string' || copy.status !== entry.status) return {};
  const body = copy.body.slice(0, MAX_BODY_CHARS);
  return copy.cut === true || copy.body.length > MAX_BODY_CHARS ? { body, bodyCut: true } : { body };
}

// Reloads the page with the debugger attached, and answers with the first request of the fresh
// load whose URL holds `url`: its body, and its status and headers as webRequest logged them.
async function captureOnReload(tabId, url, timeoutMs) {
  const began = Date.now();
  const waitMs = Math.min(timeoutMs, RELOAD_WAIT_MS);
  const got = await withDebugger(tabId, async (send) => {
    // requestId -> its response (null until one comes), for the requests that match. A request
    // is matched as it is sent: one that fails with no response (a cross-origin answer the CORS
    // check refused, whatever its status) ends in loadingFailed alone, and is found all the same.
    const seen = new Map();
    let found;
    const done = new Promise((resolve) => (found = resolve));
    const stop = onDebuggerEvent(tabId, (method, p) => {
      if (method === 'Network.requestWillBeSent' && p.request.url.includes(url)) seen.set(p.requestId, null);
      if (method === 'Network.responseReceived' && (seen.has(p.requestId) || p.response.url.includes(url))) {
        seen.set(p.requestId, p.response);
      }
      const ended = method === 'Network.loadingFinished' || method === 'Network.loadingFailed';
      if (ended && seen.has(p.requestId)) {
        found({ ...p, response: seen.get(p.requestId), failed: method === 'Network.loadingFailed' });
      }
    });
    try {
      await send('Network.enable');
      await send('Page.reload');
      const hit = await Promise.race([done, pause(waitMs).then(() => null)]);
      if (!hit) return null;
      if (hit.failed || !hit.response) return {};
      const b = await send('Network.getResponseBody', { requestId: hit.requestId }).catch(() => null);
      return b ? bounded(b.body, b.base64Encoded, hit.response.mimeType) : {};
    } finally {
      stop();
    }
  });
  if (!got) {
    const why = `no request matching ${JSON.stringify(url)} finished within ${waitMs / 1000} s of reloading the page`;
    throw new ToolError('REQUEST_NOT_FOUND', `${why} (the debugger was attached for it, and is detached)`, 'failed');
  }
  // The browser's webRequest report of the same request may come a moment after.
  const until = Date.now() + REPORT_WAIT_MS;
  let entry = newestRequest(tabId, url);
  while ((!entry || entry.start < began || entry.ms === undefined) && Date.now() < until) {
    await pause(25);
    entry = newestRequest(tabId, url);
  }
  if (!entry || entry.start < began) throw missing(tabId, url);
  return detail(entry, { ...got, debugger: true });
}
