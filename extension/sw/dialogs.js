// JavaScript dialogs (alert, confirm, prompt) in agents' tabs. A packaged override in the page's
// main world answers them as the agent's policy says, or lets the native dialog show ("leave",
// the default: nothing is accepted on the person's behalf unless an agent asks). The override
// reports each dialog, so a call blocked by an open one fails with DIALOG_OPEN instead of
// hanging. In advanced mode (Page enabled) a native dialog waits, headless included, until the
// agent answers it through the debugger (`answer`).
import { ToolError } from './errors.js';
import { advancedSend } from './debugger.js';
import { frameTarget } from './page.js';
import { perTab } from './tabstate.js';

const LEAVE = { action: 'leave' };
const MAX_RECENT = 10;
const STILL_OPEN_MS = 250;
const policies = perTab(); // tabId -> { action, promptText?, once }
const recent = perTab(); // tabId -> [{ kind, message, action, url, at }]
const open = perTab(); // tabId -> { kind, message }
const waiters = perTab(); // tabId -> Set(callback), told when a dialog opens
const stale = perTab(Set); // tabs whose policy changed while a dialog blocked them
const closing = perTab(); // tabId -> callback, told when the open dialog closes
// How long an answered dialog's page has to report what it got.
const CLOSED_WITHIN_MS = 1000;

// Runs in the page's main world: our function, with the policy as its only input.
function install(policy) {
  const KEY = Symbol.for('tabpilot.dialogs');
  if (!window[KEY]) {
    const native = { alert: window.alert, confirm: window.confirm, prompt: window.prompt };
    const state = { policy };
    const tell = (detail) =>
      window.dispatchEvent(new CustomEvent('tabpilot-dialog', { detail: JSON.stringify(detail) }));
    const wrap = (kind) =>
      function (message = '', value = '') {
        const p = state.policy;
        const text = String(message);
        if (p.action === 'accept' || p.action === 'dismiss') {
          if (p.once) state.policy = { action: 'leave' };
          tell({ kind, message: text, action: p.action, once: !!p.once });
          if (kind === 'alert') return undefined;
          if (kind === 'confirm') return p.action === 'accept';
          return p.action === 'accept' ? String(p.promptText ?? value) : null;
        }
        tell({ kind, message: text, action: 'open' });
        let answer;
        try {
          answer = native[kind].call(window, message, value);
          return answer;
        } finally {
          tell({ kind, message: text, action: 'closed', answer: answer === undefined ? null : answer });
        }
      };
    for (const kind of ['alert', 'confirm', 'prompt']) {
      Object.defineProperty(window, kind, { value: wrap(kind), writable: true, configurable: true });
    }
    Object.defineProperty(window, KEY, { value: state });
  }
  window[KEY].policy = policy;
}

// Runs in the isolated world: carries the override's reports to the service worker.
function relayReports() {
  if (globalThis.__tabpilotDialogs) return;
  globalThis.__tabpilotDialogs = true;
  window.addEventListener('tabpilot-dialog', (e) => {
    try {
      chrome.runtime.sendMessage({ type: 'dialog', ...JSON.parse(e.detail) });
    } catch (_) {
      // a report we cannot read is not one of ours
    }
  });
}

// Installs the override, with the tab's policy, in one frame or all of them (tracking.js calls it
// for each new document of an agent's tab).
export async function installDialogs(tabId, frameId) {
  const target = frameTarget(tabId, frameId);
  const policy = policies.get(tabId) || LEAVE;
  await chrome.scripting
    .executeScript({ target, world: 'MAIN', func: install, args: [policy], injectImmediately: true })
    .catch(() => {});
  await chrome.scripting.executeScript({ target, func: relayReports, injectImmediately: true }).catch(() => {});
}


// A report from the override.
export function record(tabId, frameUrl, { kind, message, action, once, answer }) {
  if (action === 'open') {
    const d = { kind, message };
    open.set(tabId, d);
    // A browser with no one to show it to (headless) closes a dialog at once; only one still
    // open a moment later blocks the page.
    setTimeout(() => {
      if (open.get(tabId) === d) for (const tell of waiters.get(tabId) || []) tell(d);
    }, STILL_OPEN_MS);
  } else if (action === 'closed') {
    open.delete(tabId);
    closing.get(tabId)?.(answer);
    if (stale.delete(tabId)) installDialogs(tabId);
    const last = recent.get(tabId)?.at(-1);
    if (last?.action === 'left to the person' && last.message === message.slice(0, 200)) last.answer = answer;
  } else {
    if (once && policies.get(tabId)?.once) policies.delete(tabId);
  }
  if (action !== 'closed') {
    const list = recent.get(tabId) || [];
    list.push({
      kind,
      message: message.slice(0, 200),
      action: action === 'open' ? 'left to the person' : `${action}ed`,
      url: frameUrl,
      at: new Date().toISOString(),
    });
    recent.set(tabId, list.slice(-MAX_RECENT));
  }
}

function blocked(tabId, d) {
  return new ToolError(
    'DIALOG_OPEN',
    `a ${d.kind} dialog ("${d.message.slice(0, 80)}") is open in the tab and blocks the page`,
    'refused',
  );
}

// Refuses at once when a dialog already blocks the tab; otherwise runs `work`, failing with
// DIALOG_OPEN as soon as a dialog opens while it runs (the page stops answering until then).
export async function unblocked(tabId, work) {
  const now = open.get(tabId);
  if (now) throw blocked(tabId, now);
  let stop;
  const opened = new Promise((_, reject) => {
    const tell = (d) => {
      const e = blocked(tabId, d);
      e.message = `${e.message}; the action ran up to the dialog`;
      e.outcome = 'partial';
      reject(e);
    };
    if (!waiters.has(tabId)) waiters.set(tabId, new Set());
    waiters.get(tabId).add(tell);
    stop = () => waiters.get(tabId)?.delete(tell);
  });
  try {
    return await Promise.race([work(), opened]);
  } finally {
    stop();
  }
}

// What the page got from its dialog once closed, as its override reports it; undefined when no
// report came in time (a dialog of a page with no override).
function closed(tabId) {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, CLOSED_WITHIN_MS);
    closing.set(tabId, (answer) => {
      clearTimeout(t);
      resolve(answer);
    });
  }).finally(() => closing.delete(tabId));
}

// browser_handle_dialog {answer}: the open dialog answered through the debugger, in advanced
// mode. The browser lets the debugger answer only a dialog that opened while Page was enabled:
// one open since before the mode went on is the person's.
async function answerOpen(tabId, accept, promptText) {
  const d = open.get(tabId);
  let send;
  try {
    send = advancedSend(tabId, 'answering an open dialog');
  } catch (e) {
    // Switching the mode on now does not help this one: the browser does not report it again.
    if (d) e.message += `; the ${d.kind} open now opened before, and only the person can answer it`;
    throw e;
  }
  const got = closed(tabId);
  try {
    await send('Page.handleJavaScriptDialog', { accept, ...(promptText === undefined ? {} : { promptText }) });
  } catch (e) {
    closing.delete(tabId);
    if (!/no dialog/i.test(String(e?.message || e))) throw e;
    if (!d) throw new ToolError('NOT_FOUND', `no dialog is open in tab ${tabId}`, 'refused');
    const which = `the ${d.kind} "${d.message.slice(0, 80)}"`;
    const why = `${which} opened before advanced mode went on, and the debugger may answer only later ones`;
    throw new ToolError('DIALOG_OPEN', `${why}: the person must answer it in the browser`, 'refused');
  }
  const answer = await got;
  const last = recent.get(tabId)?.at(-1);
  if (d && last?.action === 'left to the person') last.action = 'answered by the agent';
  return { kind: d?.kind || 'dialog', message: d?.message || '', ...(answer === undefined ? {} : { answer }) };
}

// browser_handle_dialog: set the policy, answer the open dialog (advanced mode), or report.
// Without advanced mode an open native dialog cannot be answered from here: Chrome shows it in
// its own UI (and dismisses dialogs of background tabs itself, so an open one is in a tab in
// front of the person, who can answer it).
export async function handleDialog(tabId, { action, promptText, once = true, answer }) {
  if (answer !== undefined) {
    const answered = await answerOpen(tabId, answer, promptText);
    return { ...(await handleDialog(tabId, {})), answered };
  }
  if (action === 'leave') policies.delete(tabId);
  else if (action) policies.set(tabId, { action, promptText, once });
  // A page blocked by a dialog runs no script: the policy reaches it once the dialog closes.
  if (action && open.has(tabId)) stale.add(tabId);
  else if (action) await installDialogs(tabId);
  return { policy: policies.get(tabId) || LEAVE, open: open.get(tabId) || null, recent: recent.get(tabId) || [] };
}
