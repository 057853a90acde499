// The requests each agent tab made, as the browser's webRequest view reports them (no debugger):
// per document, the current one and the EARLIER_DOCS before it (`includePreserved`). Only tabs
// an agent works in are logged. Kept in the service worker's memory and, a moment after each
// change, in chrome.storage.session (bounded in bytes): when Chrome stops an idle worker, the next
// one reads the log back before it answers a call (`restored`). A request made while the worker
// was stopped wakes it, so it is seen, but one under way as it stopped loses its end.
import { isTracked } from './tracking.js';
import { onTabGone, perTab } from './tabstate.js';
import { cut } from './text.js';
import { within } from './netkeep.js';

// A page rarely makes more (the median page makes about 70 requests); a page that polls keeps
// its newest, and says how many went.
const PER_DOC = 300;
// The documents before the current one: a redirect or a login hop and the page before it.
const EARLIER_DOCS = 2;
const MAX_HEADERS = 40;
const MAX_VALUE = 1024;
const MAX_URL = 2048;
// Requests under way at once across all tabs; one whose end never came is forgotten first.
const MAX_LIVE = 2000;

const logs = perTab(); // tabId -> documents, newest first: [{ entries, dropped }]
const live = new Map(); // requestId -> its entry, while under way

// The session store's copy: written SAVE_MS after a change (a worker stopped within that moment
// loses the last of it), at most SAVE_BYTES of JSON (the store holds 10 MB for everything the
// worker keeps there). Past that, the oldest entries lose their headers, then go.
const KEY = 'netlog';
const SAVE_MS = 250;
const SAVE_BYTES = 2 << 20;
let saving = null;

function changed() {
  saving ??= setTimeout(save, SAVE_MS);
}

function save() {
  saving = null;
  chrome.storage.session.set({ [KEY]: within(Object.fromEntries(logs), SAVE_BYTES) }).catch(() => {});
}

// The log a stopped worker kept, back in memory; every call waits for it (sw/ops.js).
export const restored = chrome.storage.session.get(KEY).then(
  (got) => {
    for (const [tab, docs] of Object.entries(got?.[KEY] || {})) {
      if (!logs.has(Number(tab)) && Array.isArray(docs)) logs.set(Number(tab), docs);
    }
  },
  () => {},
);
onTabGone(changed);

const headers = (list) =>
  (list || []).slice(0, MAX_HEADERS).map((h) => ({ name: h.name, value: cut(h.value ?? '', MAX_VALUE) }));

function docsOf(tabId, fresh) {
  let docs = logs.get(tabId);
  if (!docs) logs.set(tabId, (docs = [{ entries: [], dropped: 0 }]));
  if (fresh && (docs[0].entries.length || docs[0].dropped)) {
    docs.unshift({ entries: [], dropped: 0 });
    docs.length = Math.min(docs.length, EARLIER_DOCS + 1);
  }
  return docs;
}

function begin(d) {
  if (d.tabId < 0 || !isTracked(d.tabId)) return;
  // A new top document starts with its own request; the one before it is kept as earlier.
  const [doc] = docsOf(d.tabId, d.type === 'main_frame');
  const entry = {
    method: d.method,
    url: cut(d.url, MAX_URL),
    type: d.type,
    frameId: d.frameId,
    initiator: d.initiator,
    start: d.timeStamp,
  };
  doc.entries.push(entry);
  if (doc.entries.length > PER_DOC) {
    doc.entries.shift();
    doc.dropped++;
  }
  changed();
  live.set(d.requestId, entry);
  if (live.size > MAX_LIVE) live.delete(live.keys().next().value);
}

function end(d, fields) {
  const entry = live.get(d.requestId);
  if (!entry) return;
  live.delete(d.requestId);
  Object.assign(entry, { ms: Math.round(d.timeStamp - entry.start), ...fields });
  changed();
}

function responded(d) {
  const length = d.responseHeaders?.find((h) => h.name.toLowerCase() === 'content-length')?.value;
  return {
    status: d.statusCode,
    responseHeaders: headers(d.responseHeaders),
    ...(length !== undefined && /^\d+$/.test(length) ? { size: Number(length) } : {}),
    ...(d.fromCache ? { cached: true } : {}),
  };
}

// Why a request failed, from the browser's error string, in a word an agent can act on. A
// request the CORS check stopped fails with only net::ERR_FAILED; a cross-origin fetch or XHR
// that fails so is taken for one.
export function reasonOf(error, entry) {
  const e = String(error || '');
  if (/NAME_NOT_RESOLVED|NAME_RESOLUTION_FAILED/.test(e)) return 'dns';
  if (/CONNECTION_REFUSED/.test(e)) return 'refused';
  if (/BLOCKED_BY_CLIENT|BLOCKED_BY_ADMINISTRATOR/.test(e)) return 'blocked';
  if (/BLOCKED_BY_CSP/.test(e)) return 'csp';
  if (/BLOCKED_BY_RESPONSE|BLOCKED_BY_ORB/.test(e)) return 'blocked by response';
  if (/ERR_ABORTED/.test(e)) return 'aborted';
  if (/CERT_|SSL_/.test(e)) return 'tls';
  if (/TIMED_OUT|CONNECTION_|ADDRESS_UNREACHABLE|INTERNET_DISCONNECTED|EMPTY_RESPONSE/.test(e)) return 'connection';
  if (/^net::ERR_FAILED$/.test(e) && entry.type === 'xmlhttprequest' && crossOrigin(entry)) return 'cors';
  return 'failed';
}

function crossOrigin({ url, initiator }) {
  try {
    return !!initiator && new URL(url).origin !== initiator;
  } catch (_) {
    return false;
  }
}

const filter = { urls: ['<all_urls>'] };
chrome.webRequest.onBeforeRequest.addListener(begin, filter);
chrome.webRequest.onSendHeaders.addListener(
  (d) => {
    const entry = live.get(d.requestId);
    if (entry) entry.requestHeaders = headers(d.requestHeaders);
  },
  filter,
  ['requestHeaders', 'extraHeaders'],
);
// A redirect ends one entry; the browser's next request under the same id begins the next.
chrome.webRequest.onBeforeRedirect.addListener(
  (d) => end(d, { ...responded(d), redirect: cut(d.redirectUrl, MAX_URL) }),
  filter,
  ['responseHeaders', 'extraHeaders'],
);
chrome.webRequest.onCompleted.addListener((d) => end(d, responded(d)), filter, ['responseHeaders', 'extraHeaders']);
chrome.webRequest.onErrorOccurred.addListener((d) => {
  const entry = live.get(d.requestId);
  if (entry) end(d, { error: d.error, reason: reasonOf(d.error, entry) });
}, filter);

// A status class filter: '4xx' and the like, or 'failed'.
function statusIs(entry, status) {
  if (!status) return true;
  if (status === 'failed') return !!entry.error;
  return entry.status !== undefined && Math.floor(entry.status / 100) === Number(status[0]);
}

// On a cold load the browser may ask for one URL twice (a font both preloaded and named by the
// page's CSS) and cancel one as a duplicate, which webRequest reports as these errors. Such a
// request, while another request of the document has the URL loading or loaded, is no failure:
// it is marked `duplicate` instead. (Decided when read: the twin may end after it.)
const DUPLICATE_ERRORS = new Set(['net::ERR_CACHE_MISS', 'net::ERR_ABORTED']);

function withDuplicates(entries) {
  const loading = new Set(entries.filter((e) => !e.error).map((e) => e.url));
  return entries.map((e) => {
    if (!DUPLICATE_ERRORS.has(e.error) || !loading.has(e.url)) return e;
    const { error, reason, ...rest } = e;
    return { ...rest, duplicate: true };
  });
}

// The tab's entries, newest first, each with `earlier` (how many documents back) when not of the
// current one; `preserved` takes in the earlier documents.
export function entriesOf(tabId, preserved = false) {
  const docs = (logs.get(tabId) || []).slice(0, preserved ? EARLIER_DOCS + 1 : 1);
  return docs.flatMap((doc, earlier) =>
    withDuplicates(doc.entries)
      .reverse()
      .map((e) => (earlier ? { ...e, earlier } : e)),
  );
}

// How many entries the bound let go, in the documents `preserved` takes in.
const droppedOf = (tabId, preserved) =>
  (logs.get(tabId) || []).slice(0, preserved ? EARLIER_DOCS + 1 : 1).reduce((n, d) => n + d.dropped, 0);

// An entry as a list shows it: without its headers.
export const summary = ({ requestHeaders, responseHeaders, ...rest }) => rest;

// One page of the tab's requests that pass the filters, newest first.
export function listRequests(tabId, { url, type, status, preserved, page = 1, pageSize = 20 }) {
  const types = type === 'fetch' ? ['xmlhttprequest'] : type ? [type] : null;
  const all = entriesOf(tabId, preserved).filter(
    (e) => (!url || e.url.includes(url)) && (!types || types.includes(e.type)) && statusIs(e, status),
  );
  const from = (page - 1) * pageSize;
  return {
    total: all.length,
    dropped: droppedOf(tabId, preserved),
    requests: all.slice(from, from + pageSize).map(summary),
  };
}

// The newest request whose URL holds `url`, headers and all; the earlier documents' too.
export const newestRequest = (tabId, url) => entriesOf(tabId, true).find((e) => e.url.includes(url)) || null;
// The logged requests whose URL contains `url`, newest first.
export const requestsTo = (tabId, url) => entriesOf(tabId, true).filter((e) => e.url.includes(url));

// The requests begun since `since` (epoch ms), oldest first, without headers.
export const entriesSince = (tabId, since) =>
  entriesOf(tabId, true)
    .filter((e) => e.start >= since)
    .reverse()
    .map(summary);
