// Real input (advanced mode): clicks and keys through the debugger's Input domain, which the
// page cannot tell from a person's (`isTrusted` true), for pages that ignore synthetic events.
// The page operation (page/actions.js, page/keys.js) does its checks and scrolling as always,
// then, instead of its own events, asks here with an `input` message: a point in its own
// frame's viewport, or keys. Only an action this worker started carries the nonce it checks, and
// only for the tab it started in. The browser draws, and so routes real input to, only the tab
// in front of its window: in any other such an action is refused before it acts.
import { ToolError, getTab } from './errors.js';
import { advancedOf, advancedSend } from './debugger.js';
import { runInPage } from './page.js';
import { clipboardChord, pastesSelection } from './clipboard.js';

const TRUSTED_OPS = new Set(['click', 'type', 'press']);
const MAX_FRAME_DEPTH = 10;
const MODIFIERS = { Alt: 1, Control: 2, Meta: 4, Shift: 8 };
const BUTTONS = { left: 1, right: 2, middle: 4 };
const calls = new Map(); // nonce -> tabId, for each trusted action in flight

// Whether the browser shows the tab: the one in front of its window, and the window not
// minimized.
export async function inFront(tabId) {
  const tab = await getTab(tabId);
  return tab.active && (await chrome.windows.get(tab.windowId)).state !== 'minimized';
}

async function refuseBackground(tabId, what) {
  if (await inFront(tabId)) return;
  const why = `${what} in advanced mode is real input, which reaches only the tab the browser shows in front`;
  const recover = 'browser_switch_tab brings it to front, or browser_advanced_mode {mode: "off"} acts synthetically';
  throw new ToolError('TAB_IN_BACKGROUND', `${why}, and tab ${tabId} is in the background; ${recover}`, 'refused');
}

// For an action in a tab in advanced mode: the nonce its page operation asks with, and `end` when
// the call is over; null for synthetic input. TAB_IN_BACKGROUND before anything is done.
export async function trusted(tabId, op) {
  if (!TRUSTED_OPS.has(op) || !advancedOf(tabId)) return null;
  await refuseBackground(tabId, `browser_${op === 'press' ? 'press_key' : op}`);
  const nonce = crypto.randomUUID();
  calls.set(nonce, tabId);
  return { nonce, end: () => calls.delete(nonce) };
}

// The `input` message of a page operation acting with real input; { done, inside? } or { error }.
export async function input(msg, sender) {
  try {
    const tabId = sender.tab?.id;
    if (tabId === undefined || calls.get(msg?.nonce) !== tabId) {
      throw new ToolError('BAD_ARGS', 'no action with real input is under way in this tab', 'refused');
    }
    await refuseBackground(tabId, 'the action');
    const send = advancedSend(tabId, 'real input');
    if (msg.kind === 'mouse' && pastesSelection(msg.button)) {
      const why = "a real middle click pastes the person's selection in a text field";
      throw new ToolError('BAD_ARGS', `${why}: real input never middle-clicks`, 'refused');
    }
    if (msg.kind === 'mouse') return await mouse(send, tabId, sender.frameId || 0, msg);
    if (msg.kind === 'insert') await send('Input.insertText', { text: String(msg.text) });
    else await keys(send, msg.keys || []);
    return { done: true };
  } catch (e) {
    const outcome = e instanceof ToolError ? e.outcome : 'failed';
    return { error: { code: e?.code || 'INTERNAL', message: String(e?.message || e), outcome } };
  }
}

const mask = (names = []) => names.reduce((m, k) => m | (MODIFIERS[k] || 0), 0);

// A press and release at the point (`clickCount` counting up for a double click), after a move
// there, at the point of the top frame's viewport the browser routes into any frame.
async function mouse(send, tabId, frameId, { x, y, button = 'left', count = 1, modifiers, over }) {
  const at = await toTop(tabId, frameId, { x, y }, true);
  const inside = over ? await under(tabId, frameId, { x, y }).catch(() => null) : null;
  const base = { x: at.x, y: at.y, modifiers: mask(modifiers) };
  await send('Input.dispatchMouseEvent', { type: 'mouseMoved', ...base });
  for (let n = 1; n <= count; n++) {
    await send('Input.dispatchMouseEvent', {
      type: 'mousePressed',
      ...base,
      button,
      buttons: BUTTONS[button],
      clickCount: n,
    });
    await send('Input.dispatchMouseEvent', { type: 'mouseReleased', ...base, button, buttons: 0, clickCount: n });
  }
  return inside ? { done: true, inside } : { done: true };
}

// Each key down then up; `text` for a key that makes a character. A clipboard chord is refused
// before any key is sent: the clipboard is the person's (clipboard.js).
async function keys(send, list) {
  const chord = list.map(clipboardChord).find(Boolean);
  if (chord) {
    const why = `a ${chord} chord as real input reaches the person's clipboard`;
    throw new ToolError('BAD_ARGS', `${why}: real input never presses one`, 'refused');
  }
  for (const k of list) {
    const base = { key: k.key, code: k.code, windowsVirtualKeyCode: k.keyCode, modifiers: mask(k.modifiers) };
    await send('Input.dispatchKeyEvent', { type: 'keyDown', ...base, text: k.text, unmodifiedText: k.text });
    await send('Input.dispatchKeyEvent', { type: 'keyUp', ...base });
  }
}

// Which element of a parent frame is which child frame: the parent's isolated world listens, the
// child posts a fresh nonce to `parent`, and the parent finds the frame element whose window sent
// it (page/actions.js), cross-origin too.
async function introduce(tabId, parent, children) {
  const nonce = crypto.randomUUID();
  await runInPage(tabId, 'frameListen', { nonce }, parent);
  // A frame the browser keeps extensions out of cannot post: its parent finds no frame for it.
  await Promise.allSettled(children.map((frameId) => runInPage(tabId, 'framePost', { nonce, frameId }, frameId)));
  return nonce;
}

async function framesOf(tabId) {
  return (await chrome.webNavigation.getAllFrames({ tabId })) || [];
}

// A point of frame `frameId`'s viewport in the top frame's, frame by frame up, each frame element
// brought into its parent's view when the point is out of it. With `check`, a point its parent
// covers (something over the frame there) is NOT_ACTIONABLE, as a covered element is.
export async function toTop(tabId, frameId, point, check = false) {
  const frames = frameId ? await framesOf(tabId) : [];
  let at = { x: point.x, y: point.y };
  for (let id = frameId, depth = 0; id !== 0; depth++) {
    const parent = frames.find((f) => f.frameId === id)?.parentFrameId;
    if (parent === undefined || parent < 0 || depth >= MAX_FRAME_DEPTH) {
      throw new ToolError('STALE_REF', `frame f${id} is no longer in the page`, 'refused');
    }
    const nonce = await introduce(tabId, parent, [id]);
    at = await runInPage(tabId, 'framePoint', { nonce, frameId: id, ...at, check }, parent);
    id = parent;
  }
  return at;
}

// What is at a point of frame `frameId` that is over one of its child frames: that frame's
// element there.
async function under(tabId, frameId, point) {
  const kids = (await framesOf(tabId)).filter((f) => f.parentFrameId === frameId).map((f) => f.frameId);
  const nonce = await introduce(tabId, frameId, kids);
  const inner = await runInPage(tabId, 'frameUnder', { nonce, ...point }, frameId);
  return (await runInPage(tabId, 'describeAt', { x: inner.x, y: inner.y }, inner.frameId)).element;
}
