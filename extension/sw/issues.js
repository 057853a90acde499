// The browser issues of an agent's tab: problems that log no console error. From the tab's
// network log (failed requests, CORS, HTTP errors) and from each frame's own notes, made from
// its document's start (issue-watch.js: content a CSP blocked, deprecations, interventions).
import { getTab, inContract } from './errors.js';
import { isTracked } from './tracking.js';
import { entriesOf, entriesSince, summary } from './netlog.js';
import { framePrefix, runInPage } from './page.js';
import { perTab } from './tabstate.js';

// When a frame of the tab last noted a problem, newest last: what the after-action footer counts.
const MAX_NOTED = 100;
const noted = perTab(); // tabId -> [ms]

chrome.runtime.onMessage.addListener((msg, sender) => {
  const tabId = sender.tab?.id;
  if (msg?.type !== 'pageIssue' || tabId === undefined || !isTracked(tabId)) return false;
  const times = noted.get(tabId) || [];
  times.push(Date.now());
  noted.set(tabId, times.slice(-MAX_NOTED));
  return false;
});

const CODES = { cors: 'CORS_BLOCKED', csp: 'CSP_BLOCKED' };

// A request as an issue: one that failed (but for one the page or a navigation called off) or
// was answered with an error status; null for the rest.
function issueOf(e) {
  const { method, url, type, frameId } = e;
  if (e.error) {
    if (e.reason === 'aborted') return null;
    return { code: CODES[e.reason] || 'REQUEST_FAILED', method, url, type, frameId, reason: e.reason, error: e.error };
  }
  if (e.status >= 400) return { code: 'HTTP_ERROR', method, url, type, frameId, status: e.status };
  return null;
}

// Each frame's own notes, with refs to their elements (a frame's refs prefixed as snapshots do);
// the frames with none are not scripted at all, but for an https top page (its mixed content).
async function pageIssues(tabId) {
  const counts = await chrome.scripting
    .executeScript({ target: { tabId, allFrames: true }, func: () => globalThis.__tabpilotIssues?.list.length || 0 })
    .catch(() => []);
  const tab = await getTab(tabId);
  const frames = counts.filter((c) => c.result > 0 || (c.frameId === 0 && /^https:/.test(tab.url || '')));
  const each = await Promise.all(
    frames.map(({ frameId }) =>
      runInPage(tabId, 'issues', {}, frameId).then(
        (r) => r.issues.map((i) => ({ ...i, frameId, ...(i.ref ? { ref: framePrefix(frameId) + i.ref } : {}) })),
        () => [],
      ),
    ),
  );
  return each.flat();
}

// Every issue of the tab's current page, newest first, and one page of them.
export async function issues(tabId, { page = 1, pageSize = 20 }) {
  const fromPage = await pageIssues(tabId);
  const fromNetwork = entriesOf(tabId).map(issueOf).filter(Boolean);
  const all = [...fromPage.sort((a, b) => (b.at || 0) - (a.at || 0)), ...fromNetwork];
  const from = (page - 1) * pageSize;
  return { total: all.length, issues: all.slice(from, from + pageSize).map(({ at, ...i }) => inContract(i)) };
}

// What the tab met since `since` (epoch ms): how many requests failed or were answered with an
// error, how many problems its documents noted, and with `requests` the requests themselves.
export function issuesSince(tabId, { since, requests }) {
  const made = entriesSince(tabId, since);
  return {
    failed: made.map(issueOf).filter(Boolean).length,
    noted: (noted.get(tabId) || []).filter((t) => t >= since).length,
    ...(requests ? { requests: made.map(summary) } : {}),
  };
}
