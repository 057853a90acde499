// The debugger, for what nothing else can do, attached to one tab at a time and shared there:
// - for one call (a background capture, a response body, a trace): `withDebugger` attaches it
//   for the call and detaches it straight after;
// - advanced mode (browser_advanced_mode): attached from `on` until `off`, until the agent lets
//   the tab go or another agent takes it, the tab closes, or the person cancels the browser's
//   banner.
// A call that needs it while it is attached (another call's, or advanced mode) uses the same
// attachment instead of failing on "another debugger is attached"; the last user detaches it,
// unless advanced mode holds it. Chrome shows its banner while it is attached.
import { ToolError } from './errors.js';
import { onTabGone } from './tabstate.js';

const VERSION = '1.3';
const sessions = new Map(); // tabId -> { ready: Promise, users, advanced: null | { since, owner } }
const leaving = new Map(); // tabId -> Promise of a detach under way
const listeners = new Map(); // tabId -> Set(fn(method, params))
const ended = new Map(); // tabId -> why advanced mode ended without an `off` (the person, say)
const endings = []; // fn(tabId): what else ends with advanced mode (its emulation)

function attachFailed(tabId, e) {
  const msg = String(e?.message || e);
  if (/already attached/i.test(msg)) {
    const why = `another debugger (DevTools, or another extension) is attached to tab ${tabId}`;
    return new ToolError('INTERNAL', `${why}; close it and call again`, 'refused');
  }
  if (/No tab with given id/i.test(msg)) return new ToolError('TAB_GONE', `tab ${tabId} closed`, 'refused');
  if (/Cannot access|Cannot attach/i.test(msg)) {
    return new ToolError('RESTRICTED_PAGE', `the browser does not let extensions debug this page (${msg})`, 'refused');
  }
  return new ToolError('INTERNAL', `the debugger did not attach: ${msg}`, 'refused');
}

async function acquire(tabId) {
  await leaving.get(tabId);
  let s = sessions.get(tabId);
  if (!s) {
    s = { users: 0, advanced: null, ready: chrome.debugger.attach({ tabId }, VERSION) };
    sessions.set(tabId, s);
  }
  s.users++;
  try {
    await s.ready;
  } catch (e) {
    s.users--;
    if (sessions.get(tabId) === s) sessions.delete(tabId);
    throw attachFailed(tabId, e);
  }
  return s;
}

async function letGo(tabId, s) {
  s.users--;
  if (s.users > 0 || s.advanced || sessions.get(tabId) !== s) return;
  sessions.delete(tabId);
  const done = chrome.debugger.detach({ tabId }).catch(() => {});
  leaving.set(tabId, done);
  await done;
  if (leaving.get(tabId) === done) leaving.delete(tabId);
}

const sender = (tabId) => (method, params) => chrome.debugger.sendCommand({ tabId }, method, params);

// Runs `run(send)` with the debugger attached to the tab, sharing an attachment already there.
export async function withDebugger(tabId, run) {
  const s = await acquire(tabId);
  try {
    return await run(sender(tabId));
  } finally {
    await letGo(tabId, s);
  }
}

// Calls `listener(method, params)` for each debugger event of the tab until the returned stop.
export function onDebuggerEvent(tabId, listener) {
  if (!listeners.has(tabId)) listeners.set(tabId, new Set());
  listeners.get(tabId).add(listener);
  return () => listeners.get(tabId)?.delete(listener);
}

chrome.debugger.onEvent.addListener((source, method, params) => {
  for (const listener of listeners.get(source.tabId) || []) {
    try {
      listener(method, params);
    } catch (_) {
      // One listener failing leaves the others theirs.
    }
  }
});

// The browser took the debugger away: the tab closed, or the person cancelled the banner.
chrome.debugger.onDetach.addListener((source, reason) => {
  const s = sessions.get(source.tabId);
  if (!s) return;
  sessions.delete(source.tabId);
  if (s.advanced) {
    const why = reason === 'canceled_by_user' ? 'the person cancelled the debugger from its banner' : reason;
    ended.set(source.tabId, why);
    finish(source.tabId);
  }
});

// Registers what else ends with a tab's advanced mode (the debugger's emulation, its state).
export function onAdvancedEnd(forget) {
  endings.push(forget);
}

// Each module's cleanup, while the debugger may still be attached; one failing leaves the
// others theirs.
function finish(tabId) {
  return Promise.allSettled(endings.map(async (forget) => forget(tabId)));
}

// Whether the tab is in advanced mode, and since when.
export function advancedOf(tabId) {
  return sessions.get(tabId)?.advanced || null;
}

// The debugger's `send` for the tab in advanced mode; ADVANCED_MODE_REQUIRED naming `what`
// when it is off (and why it ended, when the browser ended it).
export function advancedSend(tabId, what) {
  if (advancedOf(tabId)) return sender(tabId);
  const why = ended.get(tabId);
  const off = why ? `advanced mode ended (${why})` : 'advanced mode is off';
  const msg = `${what} needs the debugger, and ${off} in tab ${tabId}; browser_advanced_mode {mode: "on"} turns it on`;
  throw new ToolError('ADVANCED_MODE_REQUIRED', msg, 'refused');
}

// The `advanced` op: switches the tab's advanced mode on or off for `owner`.
export async function setAdvanced(tabId, on, owner) {
  const now = advancedOf(tabId);
  if (on && now) return { on: true, since: now.since, unchanged: true };
  if (!on && !now) return { on: false, unchanged: true };
  if (!on) {
    await endAdvanced(tabId);
    return { on: false, unchanged: false };
  }
  const s = await acquire(tabId);
  s.advanced = { since: new Date().toISOString(), owner };
  ended.delete(tabId);
  // Dialogs then wait for an answer through the debugger (browser_handle_dialog {answer}).
  await sender(tabId)('Page.enable').catch(() => {});
  return { on: true, since: s.advanced.since, unchanged: false };
}

// Ends the tab's advanced mode, if it is on: its emulation ends, the debugger detaches.
export async function endAdvanced(tabId) {
  const s = sessions.get(tabId);
  if (!s?.advanced) return;
  s.advanced = null;
  await finish(tabId);
  await letGo(tabId, s);
}

// Another agent now holds the tab: the one that switched advanced mode on has let it go.
export async function heldNowBy(tabId, owner) {
  const a = advancedOf(tabId);
  if (a && owner && a.owner !== owner) await endAdvanced(tabId);
}

onTabGone((tabId) => {
  sessions.delete(tabId);
  leaving.delete(tabId);
  listeners.delete(tabId);
  ended.delete(tabId);
  finish(tabId);
});
