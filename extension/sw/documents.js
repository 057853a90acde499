// What the service worker keeps of each tab's documents: a port to each document that holds the
// page scripts (page/kit.js answers on it), and the address the top document last answered from.
// With them a call to a document reached before is one message each way: the browser is not asked
// which document the frame shows, nothing is injected, and the tab is not read again for the
// answer's address. The browser's navigation events keep both true: a frame (or the top frame)
// that commits another document or fails a load loses its port, and a top frame that moves loses
// its address. The browser itself closes a port whose document goes, or goes into the
// back/forward cache.
import { perTab } from './tabstate.js';
import { noteDispatch } from './dispatches.js';

// The port's name; page/kit.js answers only ports of this name, from this extension's worker.
const PAGE_PORT = 'tabpilot-page';

const ports = perTab(); // tabId -> Map(frameId -> Link)
const addresses = perTab(); // tabId -> { url, at: performance.now() of the answer }

// A port to one document: each call posted under its number, answered under it. A call resolves
// { result } with the page's answer; { result: undefined } when the document went before it
// answered (the action may have run); null when nothing in the document listened (it lacks the
// page scripts, or was gone before the call reached it: nothing ran).
function open(tabId, frameId, documentId) {
  const port = chrome.tabs.connect(tabId, documentId ? { documentId, name: PAGE_PORT } : { frameId, name: PAGE_PORT });
  const waiting = new Map(); // call number -> resolve
  let next = 0;
  let live = true;
  let retired = false;
  // No call goes on this port from now: the frame's next call opens another.
  const forget = () => {
    if (ports.get(tabId)?.get(frameId) === link) ports.get(tabId).delete(frameId);
  };
  const end = (outcome) => {
    if (!live) return;
    live = false;
    forget();
    for (const resolve of waiting.values()) resolve(outcome);
    waiting.clear();
  };
  const link = {
    documentId,
    call(op, args) {
      if (!live) return Promise.resolve(null);
      const id = ++next;
      try {
        port.postMessage({ id, pageOp: op, args });
      } catch (_) {
        end(null); // the port closed before the call went: nothing ran
        return Promise.resolve(null);
      }
      return new Promise((resolve) => waiting.set(id, resolve));
    },
    // The document was replaced: what waits on it is never answered.
    drop() {
      end({ result: undefined });
      try {
        port.disconnect();
      } catch (_) {
        // the browser closed it first
      }
    },
    // A load failed in the frame: the document may still be the frame's, or may have gone. The
    // next call finds out (sw/page.js); calls under way keep the port until they answer.
    retire() {
      retired = true;
      forget();
      if (!waiting.size) link.drop();
    },
  };
  port.onMessage.addListener((msg) => {
    // The page's word, before its answer, that the call's action is dispatched.
    if (msg?.dispatched) return noteDispatch(msg.dispatched, tabId, frameId);
    const resolve = waiting.get(msg?.id);
    if (!resolve) return;
    waiting.delete(msg.id);
    resolve({ result: msg.result });
    if (retired && !waiting.size) link.drop();
  });
  port.onDisconnect.addListener(() => {
    const none = /Receiving end does not exist/i.test(chrome.runtime.lastError?.message || '');
    end(none ? null : { result: undefined });
  });
  return link;
}

// The kept port to the document frame `frameId` of the tab shows, if one is kept.
export const portTo = (tabId, frameId) => ports.get(tabId)?.get(frameId);

// Opens and keeps a port to document `documentId` (frame `frameId`'s current one when none is
// named), in place of any kept for the frame before.
export function openPort(tabId, frameId, documentId) {
  const frames = ports.get(tabId) || ports.set(tabId, new Map()).get(tabId);
  frames.get(frameId)?.retire();
  const link = open(tabId, frameId, documentId);
  frames.set(frameId, link);
  return link;
}

// The top document answered a call from `url`.
export function answeredFrom(tabId, url) {
  addresses.set(tabId, { url, at: performance.now() });
}

// The tab's address as its top document answered since `since` (performance.now()), unless the
// top frame moved after; undefined when the worker does not know it.
export function addressSince(tabId, since) {
  const a = addresses.get(tabId);
  return a && a.at >= since ? a.url : undefined;
}

// The ports a navigation event takes: the frame's, and every frame's when it is the top one.
function each(d, act) {
  for (const [frameId, link] of ports.get(d.tabId) || []) {
    if ((d.frameId === 0 || frameId === d.frameId) && link.documentId !== d.documentId) act(link);
  }
}

const nav = chrome.webNavigation;
nav.onCommitted.addListener((d) => {
  each(d, (link) => link.drop());
  if (d.frameId === 0) addresses.delete(d.tabId);
});
nav.onErrorOccurred.addListener((d) => each(d, (link) => link.retire()));
for (const moved of [nav.onHistoryStateUpdated, nav.onReferenceFragmentUpdated]) {
  moved.addListener((d) => d.frameId === 0 && addresses.delete(d.tabId));
}
