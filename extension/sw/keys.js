// Key presses: a key goes to the element that holds the focus, in whichever frame that is.
import { act, sameUrl } from './navigation.js';

const MAX_FRAME_DEPTH = 10;

// The frame that holds the focus: follow each document's focused <iframe> down to its frame.
async function focusedFrame(tabId) {
  const probe = () => {
    const a = document.activeElement;
    if (!a || (a.localName !== 'iframe' && a.localName !== 'frame')) return null;
    // A frame with no address (TinyMCE's editor) holds about:srcdoc or about:blank.
    return a.src || (a.hasAttribute('srcdoc') ? 'about:srcdoc' : 'about:blank');
  };
  let found = [];
  try {
    found = await chrome.scripting.executeScript({ target: { tabId, allFrames: true }, func: probe });
  } catch (_) {
    return 0;
  }
  const frames = (await chrome.webNavigation.getAllFrames({ tabId })) || [];
  let frameId = 0;
  for (let depth = 0; depth < MAX_FRAME_DEPTH; depth++) {
    const src = found.find((r) => r.frameId === frameId)?.result;
    if (!src) break;
    const kids = frames.filter((f) => f.parentFrameId === frameId);
    const kid = kids.find((f) => sameUrl(f.url, src)) || (kids.length === 1 ? kids[0] : null);
    if (!kid) break;
    frameId = kid.frameId;
  }
  return frameId;
}

export async function press(tabId, args, timeoutMs) {
  return act(tabId, 'press', { ...args, frameId: await focusedFrame(tabId) }, timeoutMs);
}
