// The console of agents' tabs. main/console-capture.js is registered here as a content script in the
// main world of every document from its start (the only way in before a page's first script
// without the debugger; Chrome registers content scripts for all tabs or none, so the person's own
// tabs get the wrappers too, and nothing of theirs is ever read: see docs/architecture.md). This
// module reads a tab's log from its frames on request, keeps what each document of an agent's tab
// held as it went (the keeper below hands it over at pagehide), and answers the probe that follows
// an action. Page content stays in the answers: it is never logged here.
import { ToolError, getTab } from './errors.js';
import { frameTarget, keptOut } from './page.js';
import { perTab } from './tabstate.js';

const SCRIPT = {
  id: 'tabpilot-console',
  js: ['main/console-capture.js'],
  matches: ['<all_urls>'],
  runAt: 'document_start',
  allFrames: true,
  matchOriginAsFallback: true,
  world: 'MAIN',
  persistAcrossSessions: true,
};
const MAX_KEPT = 500; // entries of a tab's earlier documents, the oldest dropped first
const MAX_KEPT_DOCS = 20;
const MAX_ANSWER = 1000; // entries in one answer, the newest kept
const MAX_TEXT = 1000;
const MAX_STACK = 2000;
const MAX_DUMP = 8_000_000; // characters of one document's log as JSON (~1 MB of text, escaped)
const PROBE_MS = 2000; // a page too busy to answer this soon (a dialog open) goes without the probe
const KINDS = new Set(['console', 'exception', 'rejection', 'worker']);
const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);

const kept = perTab(); // tabId -> { docs: [{ documentId, entries }], dropped }

// Registers the capture once; a registration left from an earlier run is kept.
export async function registerCapture() {
  const have = await chrome.scripting.getRegisteredContentScripts({ ids: [SCRIPT.id] }).catch(() => []);
  if (have.length === 0) await chrome.scripting.registerContentScripts([SCRIPT]).catch(() => {});
}

// Runs in the isolated world of an agent's document: at pagehide, asks the capture for the whole
// log and hands it to the service worker, which keeps it for `includePreserved`.
function keeper() {
  if (globalThis.__tabpilotConsoleKeeper) return;
  globalThis.__tabpilotConsoleKeeper = true;
  addEventListener('pagehide', () => {
    let dump = null;
    const take = (e) => {
      if (dump === null) dump = e.detail;
    };
    addEventListener('tabpilot-console-dump', take);
    dispatchEvent(new CustomEvent('tabpilot-console-ask'));
    removeEventListener('tabpilot-console-dump', take);
    if (typeof dump === 'string') chrome.runtime.sendMessage({ type: 'console-kept', dump }).catch(() => {});
  });
}

// Puts the keeper into one frame of the tab, or all of them (tracking.js, at each commit).
export async function installKeeper(tabId, frameId) {
  await chrome.scripting.executeScript({ target: frameTarget(tabId, frameId), func: keeper }).catch(() => {});
}

// A page's entry, held to its shape and bounds: what comes out of a page is data, nothing else.
function clean(e, frameId, url, current) {
  if (e === null || typeof e !== 'object' || !KINDS.has(e.kind) || !LEVELS.has(e.level)) return null;
  const text = (v, max) => (typeof v === 'string' ? v.slice(0, max) : undefined);
  return {
    t: Number.isFinite(e.t) ? e.t : 0,
    seq: Number.isFinite(e.seq) ? e.seq : 0,
    kind: e.kind,
    level: e.level,
    text: text(e.text, MAX_TEXT) ?? '',
    at: text(e.at, 500),
    stack: text(e.stack, MAX_STACK),
    frameId,
    url: text(url, 500),
    current,
  };
}

const RINGS = ['logs', 'errors', 'warnings'];

const entriesOf = (log, frameId, url, current) => {
  const all = RINGS.flatMap((ring) => (Array.isArray(log?.[ring]) ? log[ring] : []));
  return all.map((e) => clean(e, frameId, url, current)).filter(Boolean);
};

// A document's log as the capture writes it (JSON), or null: what comes out of a page is data.
function parseLog(text) {
  if (typeof text !== 'string' || text.length > MAX_DUMP) return null;
  try {
    return JSON.parse(text);
  } catch (_) {
    return null;
  }
}

// The keeper's message: the log of a document of a tracked tab as it went.
export function keepDocument(sender, dump) {
  const tabId = sender.tab?.id;
  const log = parseLog(dump);
  if (tabId === undefined || log === null) return;
  const entries = entriesOf(log, sender.frameId, sender.url, false);
  const tab = kept.get(tabId) || { docs: [], dropped: 0 };
  tab.docs = tab.docs.filter((d) => d.documentId !== sender.documentId);
  tab.docs.push({ documentId: sender.documentId, entries });
  tab.dropped += Number.isFinite(log?.dropped) ? log.dropped : 0;
  let total = tab.docs.reduce((n, d) => n + d.entries.length, 0);
  while (tab.docs.length > MAX_KEPT_DOCS || total > MAX_KEPT) {
    const oldest = tab.docs[0];
    const over = Math.min(oldest.entries.length, total - MAX_KEPT);
    if (tab.docs.length > MAX_KEPT_DOCS || over >= oldest.entries.length) {
      tab.docs.shift();
      total -= oldest.entries.length;
      tab.dropped += oldest.entries.length;
    } else {
      oldest.entries.sort((a, b) => a.t - b.t || a.seq - b.seq).splice(0, over);
      total -= over;
      tab.dropped += over;
    }
  }
  kept.set(tabId, tab);
}


// Runs in the page's main world: the capture's entries since `since`, as its JSON string.
function readCapture(since) {
  const read = window[Symbol.for('tabpilot.console')];
  return typeof read === 'function' ? read(since) : null;
}

// The log of the tab's documents now, frame by frame, since `since`: { entries, dropped, documents }.
async function current(tabId, since) {
  const results = await chrome.scripting.executeScript({
    target: frameTarget(tabId),
    world: 'MAIN',
    func: readCapture,
    args: [since],
    injectImmediately: true, // a document still loading answers now, not once it is idle
  });
  const entries = [];
  const documents = new Set();
  let dropped = 0;
  for (const r of results) {
    const log = parseLog(r.result);
    if (log === null) continue;
    documents.add(r.documentId);
    entries.push(...entriesOf(log, r.frameId, log.url, true));
    dropped += Number.isFinite(log.dropped) ? log.dropped : 0;
  }
  return { entries, dropped, documents };
}

// The earlier documents' entries since `since`, leaving out a document that is current again
// (one back from the back/forward cache).
function earlier(tabId, since, documents) {
  const tab = kept.get(tabId);
  if (!tab) return { entries: [], dropped: 0 };
  const entries = tab.docs.filter((d) => !documents.has(d.documentId)).flatMap((d) => d.entries);
  return { entries: entries.filter((e) => e.t >= since), dropped: tab.dropped };
}

const newestFirst = (a, b) => b.t - a.t || b.seq - a.seq;

// browser_get_console_logs: the tab's entries, newest first, with the earlier documents' when
// asked; at most MAX_ANSWER of them (the rest counted in `dropped`).
export async function consoleLogs(tabId, { preserved }) {
  await getTab(tabId);
  let now;
  try {
    now = await current(tabId, 0);
  } catch (e) {
    if (!keptOut(e)) throw e;
    throw new ToolError('RESTRICTED_PAGE', "the browser does not let extensions read this page's console", 'refused');
  }
  let dropped = now.dropped;
  let entries = now.entries;
  if (preserved) {
    const before = earlier(tabId, 0, now.documents);
    entries = entries.concat(before.entries);
    dropped += before.dropped;
  }
  entries.sort(newestFirst);
  if (entries.length > MAX_ANSWER) {
    dropped += entries.length - MAX_ANSWER;
    entries.length = MAX_ANSWER;
  }
  return { entries, dropped, captured: now.documents.size > 0 };
}

const isError = (e) => e.level === 'error';

function probed(entries, mode) {
  entries.sort(newestFirst);
  const probe = { errors: entries.filter(isError).length };
  if (mode === 'entries') probe.entries = entries.slice(0, MAX_ANSWER);
  return probe;
}

// The probe from the log the action's own page call read (page/kit.js `consoleSince`: the tab's
// one document, which the action did not leave), as `sinceAction` answers it; null when the log
// is not one.
export function sinceActionFrom(text, mode) {
  const log = parseLog(text);
  return log === null ? null : probed(entriesOf(log, 0, log.url, true), mode);
}

// The probe after an action: what the tab's console gained since the action began (`since`), in
// every frame and in a document the action left; `mode` "entries" also answers them. Null when
// it cannot be read: the action's answer goes out without it.
export async function sinceAction(tabId, since, mode) {
  let timer;
  const late = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error('the probe took too long')), PROBE_MS);
  });
  try {
    const now = await Promise.race([current(tabId, since), late]);
    return probed(now.entries.concat(earlier(tabId, since, now.documents).entries), mode);
  } catch (_) {
    return null;
  } finally {
    clearTimeout(timer);
  }
}
