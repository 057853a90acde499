// Running the packaged page scripts in a tab's frames.
import { ToolError } from './errors.js';
import { perTab } from './tabstate.js';
import { REF as REF_FORMAT } from './contract.js';
import { answeredFrom, openPort, portTo } from './documents.js';

// The page scripts, in order: the contract's part for them (generated), the kit (kit.js makes the
// shared bag, each other kit file uses the ones before it), then the operation files, which add
// operations to it.
export const PAGE_FILES = [
  'page/contract.js',
  'page/kit.js',
  'page/names.js',
  'page/secrets.js',
  'page/refs.js',
  'page/actionable.js',
  'page/edit.js',
  'page/typing.js',
  'page/held.js',
  'page/fit.js',
  'page/rows.js',
  'page/snapshot.js',
  'page/actions.js',
  'page/form.js',
  'page/keys.js',
  'page/scroll.js',
  'page/read.js',
  'page/wait.js',
  'page/find.js',
  'page/locate.js',
  'page/handover.js',
  'page/vitals.js',
  'page/a11y.js',
  'page/issues.js',
];

// Pages the browser keeps extensions out of: its own schemes, and the Web Store.
const RESTRICTED = new RegExp(
  '^(chrome|chrome-extension|chrome-untrusted|devtools|edge|brave|view-source|chrome-search):' +
    '|^https://(chromewebstore\\.google\\.com|chrome\\.google\\.com/webstore)',
);

// The frame `frameId` of the tab, or all its frames when none is named, for chrome.scripting.
export function frameTarget(tabId, frameId) {
  return frameId === undefined ? { tabId, allFrames: true } : { tabId, frameIds: [frameId] };
}

// Whether chrome.scripting refused a frame because extensions may not touch its page.
export const keptOut = (e) => /Cannot access|cannot be scripted|Missing host permission/i.test(String(e?.message || e));

const restricted = (url) =>
  new ToolError('RESTRICTED_PAGE', `the browser does not let extensions act on ${url.split('?')[0]}`, 'refused');

// The document a call ran in was replaced (the page navigated) before the call answered: what it
// looked at is gone, as a stale ref's element is. A wait for text or an element starts over in
// the new document.
export class PageReplaced extends ToolError {
  constructor(tabId) {
    super('STALE_REF', `the page in tab ${tabId} navigated during the call; what the call was looking at is gone`);
  }
}

// One chrome.scripting injection into one frame of the tab (into its document `documentId` when
// one is named); the browser's refusals come back as RESTRICTED_PAGE, a tab that closed as
// TAB_GONE, a document that is gone as PageReplaced. The browser itself refuses the pages no
// extension may script, so the tab is read only once it has, for the message: on every call it
// would be a round trip to the browser for nothing.
export async function inject(tabId, frameId, injection, documentId = undefined) {
  const target = documentId ? { tabId, documentIds: [documentId] } : { tabId, frameIds: [frameId] };
  try {
    return await chrome.scripting.executeScript({ target, ...injection });
  } catch (e) {
    const msg = String(e?.message || e);
    const tab = await chrome.tabs.get(tabId).catch(() => null);
    // A tab gone before the injection ran nothing in it.
    if (/No tab with id/i.test(msg)) throw new ToolError('TAB_GONE', `tab ${tabId} is closed`, 'refused');
    if (!tab || /The tab was closed/i.test(msg)) {
      throw new ToolError('TAB_GONE', `tab ${tabId} closed during the call`);
    }
    const url = tab.pendingUrl || tab.url || '';
    if (keptOut(msg) || RESTRICTED.test(url)) throw restricted(url);
    // The tab is there, its document is not: the page navigated under the call.
    if (/Frame with ID \d+ was removed|No document with id/i.test(msg)) throw new PageReplaced(tabId);
    // A load that failed or was blocked (the site policy's network rules, say) leaves the
    // browser's own error page, which no extension may script.
    if (/is showing error page/i.test(msg)) {
      const shown = url.split('?')[0];
      throw new ToolError('NAVIGATION_FAILED', `the tab shows the browser's error page for ${shown}`, 'refused');
    }
    throw new ToolError('INTERNAL', `page script failed: ${msg}`);
  }
}

// The document frame `frameId` of the tab shows now, and `gone`: rejects with PageReplaced once
// another document commits in that frame or in the top one (which takes every frame's with it).
// The browser leaves a script running in a document that went unanswered (a top frame's, seen
// here: the call waited its whole time out), so a first call's answer is raced against this.
async function documentOf(tabId, frameId) {
  let stop;
  let documentId;
  const gone = new Promise((resolve, reject) => {
    const listener = (d) => {
      const mine = d.frameId === frameId || d.frameId === 0;
      if (d.tabId === tabId && mine && documentId && d.documentId !== documentId) reject(new PageReplaced(tabId));
    };
    chrome.webNavigation.onCommitted.addListener(listener);
    stop = () => chrome.webNavigation.onCommitted.removeListener(listener);
  });
  gone.catch(() => {});
  // Asked after the watch began: a commit before the ask is the document asked about.
  const frame = await chrome.webNavigation.getFrame({ tabId, frameId }).catch(() => null);
  documentId = frame?.documentId;
  return { documentId, gone, stop };
}

// The documents of each tab known to hold the page scripts. A document not known (new, or the
// worker restarted) gets the files before its port is opened, unasked: asking first would cost a
// round trip. The files keep a document that has them as it is (each returns early).
const kitIn = perTab(); // tabId -> Set of documentIds
const MAX_KNOWN = 256;

// Runs one packaged page-script operation in one frame of the tab (the top one by default), in
// the isolated world, in the document the frame shows as the call begins: on the port kept to it
// (sw/documents.js), else the document is found, given the files if it lacks them, and a port is
// opened to it for this call and the next.
export async function runInPage(tabId, op, args, frameId = 0) {
  const out = (await portTo(tabId, frameId)?.call(op, args)) || (await reach(tabId, op, args, frameId));
  const r = out.result;
  // No answer: the browser drops a call when its document begins to go (a frame that navigates
  // while a wait runs in it, say), before the next one commits.
  if (!r) throw new PageReplaced(tabId);
  if (r.error) throw new ToolError(r.error.code, r.error.message, r.error.outcome || 'refused');
  if (r.href && frameId === 0) answeredFrom(tabId, r.href);
  // The elements an action described for the recording (page/kit.js) ride on its value.
  if (r.described && r.value && typeof r.value === 'object') r.value.described = r.described;
  return r.value;
}

// A call to a document the worker keeps no port to: its first, or its first since its port
// closed. `{ result }` as a port's call answers.
async function reach(tabId, op, args, frameId) {
  const doc = await documentOf(tabId, frameId);
  const race = (p) => Promise.race([p, doc.gone]);
  const files = () => race(inject(tabId, frameId, { files: PAGE_FILES }, doc.documentId));
  const call = () => race(openPort(tabId, frameId, doc.documentId).call(op, args));
  const known = kitIn.get(tabId) || kitIn.set(tabId, new Set()).get(tabId);
  try {
    if (!doc.documentId || !known.has(doc.documentId)) await files();
    let out = await call();
    // Nothing listened: the document known did not keep the files after all.
    if (!out) {
      await files();
      out = await call();
    }
    if (!out) throw new ToolError('INTERNAL', `the page scripts in tab ${tabId} did not take the call ${op}`);
    if (known.size >= MAX_KNOWN) known.clear(); // a long-lived tab's past documents
    if (doc.documentId) known.add(doc.documentId);
    return out;
  } finally {
    doc.stop();
  }
}

const REF = new RegExp(`^(?:${REF_FORMAT.pattern})$`);

// What a ref in frame `frameId` begins with (the contract's `fN:`; nothing in the top frame).
export const framePrefix = (frameId) => (frameId ? `f${frameId}:` : '');

// Splits a ref into its frame and the ref inside that frame's document. A malformed frame prefix
// is refused, never looked up in another document; a frame that is gone makes the ref stale.
export async function locate(tabId, ref) {
  const m = typeof ref === 'string' ? REF.exec(ref) : null;
  if (!m) {
    throw new ToolError(
      'BAD_ARGS',
      `ref ${JSON.stringify(ref)} is not a ref from a snapshot (like e7k2f or f3:e7k2f)`,
      'refused',
    );
  }
  const frameId = m.groups.frame ? Number(m.groups.frame) : 0;
  if (frameId !== 0) {
    const frames = (await chrome.webNavigation.getAllFrames({ tabId })) || [];
    if (!frames.some((f) => f.frameId === frameId)) {
      throw new ToolError('STALE_REF', `frame f${frameId} of ref ${ref} is no longer in the page`, 'refused');
    }
  }
  return { frameId, ref: m.groups.local };
}

// Runs a page operation on the element `args.ref` names, in that element's frame.
export async function runOnRef(tabId, op, args) {
  const { frameId, ref } = await locate(tabId, args.ref);
  const value = await runInPage(tabId, op, { ...args, ref }, frameId);
  return { ...value, frameId };
}
