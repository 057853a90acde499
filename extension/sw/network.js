// Requests in flight per tab, for `waitUntil: "networkidle"`.
import { perTab } from './tabstate.js';

const inflight = perTab(); // tabId -> Map(requestId -> start ms)
const lastActivity = perTab(); // tabId -> ms

function touch(d, add) {
  if (d.tabId < 0) return;
  let requests = inflight.get(d.tabId);
  if (!requests) inflight.set(d.tabId, (requests = new Map()));
  if (add) requests.set(d.requestId, Date.now());
  else requests.delete(d.requestId);
  lastActivity.set(d.tabId, Date.now());
}

const filter = { urls: ['<all_urls>'] };
chrome.webRequest.onBeforeRequest.addListener((d) => touch(d, true), filter);
chrome.webRequest.onCompleted.addListener((d) => touch(d, false), filter);
chrome.webRequest.onErrorOccurred.addListener((d) => touch(d, false), filter);

// How many of the tab's requests in flight the browser has reported since `since` (ms).
export function requestsSince(tabId, since) {
  return [...(inflight.get(tabId)?.values() || [])].filter((t) => t >= since).length;
}

// Resolves true once the tab has had no request in flight for `quietMs`, false at `maxMs`.
// With `since`, only requests started from then on count (a long poll opened before an action
// does not hold up waiting for what the action did).
export async function networkIdle(tabId, quietMs, maxMs, since = 0) {
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    const quietFor = Date.now() - (lastActivity.get(tabId) || 0);
    if (requestsSince(tabId, since) === 0 && quietFor >= quietMs) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}
